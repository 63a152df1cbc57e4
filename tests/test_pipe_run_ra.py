"""pipe-run at ra-x64: the machine state (registers, flags, spill slots)
decides what an allocated function computes, so a wrong allocation gives a
wrong result or a runtime error even with the checker off (--no-verify).

The functions `f` of tests/verify/ok_rax64.txt and of the allocation
checker's cases tests/verify/h_*.txt are made runnable here: their extern `g`
becomes an allocated function of the module (g(x) = 3x + 1, which also
writes caller-saved registers), and an allocated main calls f(5, 7) and
prints the result (an f(ptr) gets the address of an i32 holding 5 instead;
an i32 result is printed with %d).
The correct allocations (`# verify: ok`) print the right value; each broken
one (`# verify: expect errors`) must not (it may print another value, or
stop with an error naming a node).
"""
import re

import pytest

from conftest import ROOT, run_tool

VERIFY = ROOT / "tests" / "verify"

PRINTF = ('extern function printf(ptr, ...) -> i32\ndata internal readonly fmt size 5 align 1 init x"256c640a00"\n'
          'data internal readonly fmt32 size 4 align 1 init x"25640a00"\n'
          'data internal cell size 4 align 4 init x"05000000"\n')

G = """
internal pipeline g(i64) -> i64 {
  b0 {
    i0 = start
    i1 = entrymem ^i0
    i2 = x64:argreg ^i0, "i64", "rdi" in rdi
    i3 = x64:movi "i64", 3 in rcx
    i4 = x64:imul "i64", i3, i2 in rcx
    i5 = x64:addi "i64", 1, i4 in rcx
    i6 = x64:mov i5 in rax
    i7 = x64:movi "i64", 99 in r10
    i8 = x64:ret ^i0, i1, i6
  }
  b0 =>
}
"""

MAIN = """
pipeline main() -> i32 {
  b0 {
    i0 = start
    i1 = entrymem ^i0
    i2 = x64:movi "i64", 5 in rdi
    i3 = x64:movi "i64", 7 in rsi
    i4 = x64:call ^i0, "f", -1, i1, i2, i3
    i5 = proj 0, i4
    i6 = proj 1, i4 in rax
    i7 = x64:mov i6 in rsi
    i8 = x64:lea "i64", 0, 0, "fmt" in rdi
    i9 = x64:call ^i0, "printf", 0, i5, i8, i7
    i10 = proj 0, i9
    i11 = x64:movi "i32", 0 in rax
    i12 = x64:ret ^i0, i10, i11
  }
  b0 =>
}
"""

# What f(5, 7) computes when allocated correctly (the loop of ok_rax64 sums
# g(i) for i = 5 down to 1: 3 * 15 + 5).
CORRECT = {
    "ok_rax64": 50, "h_argreg_late": 50, "h_callee_saved": 50, "h_clobbered": 50,
    "h_clobbered_by_call": 50, "h_fixed_register": 50, "h_missed_reload": 50, "h_phi_edge": 50,
    "h_wrong_exchange": 50,
    "h_flags": 7,          # a < b ? b : a + b
    "h_flagsof_copies": -2, "h_flagsof_clobbered": -2,  # a - b < 0 ? a - b : 0
    "h_join_conflict": 5,  # f returns its argument on both paths
    "h_tied": -2,          # a - b
    "h_places": 5,         # f returns its argument
    # f(ptr) returns the i32 its argument points to (5), read by a volatile load.
    "h_tuple_any_register": 5, "h_tuple_any_register_clobbered": 5, "h_tuple_any_register_before_proj": 5,
}
# A runtime error names the function and node; a load-time one (a spilled
# value read as a register, a value in rsp) names the function and node too.
NAMES_NODE = re.compile(r"^pipe-run: (?:\w+: i\d+: runtime error: |.*function '\w+': i\d+: error: )", re.M)


def verifies(name):
    """True for a correct allocation (`# verify: ok`), False for a broken one."""
    first = (VERIFY / f"{name}.txt").read_text().splitlines()[0]
    assert first in ("# verify: ok", "# verify: expect errors"), name
    return first == "# verify: ok"


def runnable(name):
    text = (VERIFY / f"{name}.txt").read_text()
    assert text.count("\nmodule ra-x64\n") == 1, name
    has_g = "\nextern function g(i64) -> i64\n" in text
    text = text.replace("\nextern function g(i64) -> i64\n", "\n")
    text = text.replace("\nmodule ra-x64\n", "\nmodule ra-x64\n" + PRINTF)
    main = MAIN
    if "\npipeline f(ptr) -> " in text:
        main = main.replace('x64:movi "i64", 5 in rdi', 'x64:lea "i64", 0, 0, "cell" in rdi')
    if "\npipeline f(" in text and ") -> i32 {" in text.split("\npipeline f(", 1)[1].split("\n", 1)[0]:
        main = main.replace('"fmt"', '"fmt32"')  # an i32 result's upper half is undefined: printed by %d
    return text + (G if has_g else "") + main


def run(tmp_path, name, *flags):
    path = tmp_path / f"{name}.txt"
    path.write_text(runnable(name))
    return run_tool("pipe-run", *flags, path)


def test_broken_allocations_exist():
    """Every case named here is still in tests/verify (a renamed file must not
    silently drop out). New h_ cases join CORRECT with f(5, 7)'s right value."""
    names = {p.stem for p in VERIFY.glob("h_*.txt")} | {"ok_rax64"}
    assert set(CORRECT) <= names


@pytest.mark.parametrize("name", sorted(n for n in CORRECT if verifies(n)))
def test_correct_allocation_runs(tmp_path, name):
    proc = run(tmp_path, name)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == f"{CORRECT[name]}\n".encode()


@pytest.mark.parametrize("name", sorted(n for n in CORRECT if not verifies(n)))
def test_broken_allocation_shows(tmp_path, name):
    proc = run(tmp_path, name, "--no-verify")
    err = proc.stderr.decode()
    if proc.returncode == 0:
        assert proc.stdout != f"{CORRECT[name]}\n".encode(), f"{name}: the wrong allocation computed the right result"
    else:
        assert NAMES_NODE.search(err), f"{name}: the error does not name a node:\n{err}"
    # With the checker on (the default) the same module is refused before it runs.
    checked = run(tmp_path, name)
    assert checked.returncode == 1 and checked.stdout == b"", checked.stderr.decode()


def test_callee_saved_register_not_restored_names_the_return(tmp_path):
    proc = run(tmp_path, "h_callee_saved", "--no-verify")
    assert proc.returncode == 70
    first = proc.stderr.decode().splitlines()[0]
    assert re.fullmatch(r"pipe-run: f: i28: runtime error: callee-saved register r12 is not restored: "
                        r"it holds 0x32, the caller's value is 0x[0-9a-f]+", first), first


def test_missed_reload_names_the_node(tmp_path):
    proc = run(tmp_path, "h_missed_reload", "--no-verify")
    assert proc.returncode == 1
    assert "function 'f': i17: error: input 0 i29 is in s2, not in a register (a reload is missing)" in \
        proc.stderr.decode()
