"""Sibling calls (son-lower-x64 --sibling-calls, which pipecc passes at -O2):
`return f(args);` is a jump after the epilogue, as in gcc -O2's build.

tests/c/func_sibling_calls.c has one function per shape (sib_*: direct,
arguments permuted, through a pointer with one and six arguments, a double
result, void, a dropped result, char and _Bool results, printf with and
without an xmm argument (al set), callee-saved registers restored before
the jump, two tail calls under a branch, mutual recursion) and per case
that must stay a call (keep_*: a local's address passed, stack arguments, a
struct result in registers and in memory, a conversion after the call, a
store after it). The corpus test (tests/test_c_programs.py) runs it at every
level, the O2 levels with sibling calls; here the native builds:
  - pipecc -O2 ends every sib_* function in a jump to its callee and keeps
    every keep_* call; pipecc -O0 (and -O2 -fno-optimize-sibling-calls)
    calls;
  - the mutual recursion runs 10 million deep (over 150 MiB of stack
    frames without the jumps, beyond the default 8 MiB limit) and prints
    what gcc -O2's build prints.
"""
import re
import subprocess

import pytest

from conftest import BUILD, ROOT, disassembly

PIPECC = str((BUILD / "pipecc").resolve())
SOURCE = ROOT / "tests" / "c" / "func_sibling_calls.c"
DEEP = "10000000"

# The function, and the callee its jump goes to ("*": through a register).
JUMPS = {
    "is_even": ["is_odd"], "is_odd": ["is_even"], "sib_direct": ["add3"], "sib_swap": ["add3"],
    "sib_pointer": ["*"], "sib_pointer6": ["*"], "sib_six": ["six"], "sib_float": ["scale"],
    "sib_void": ["note"], "sib_char": ["upper"], "sib_bool": ["odd_bit"], "sib_printf": ["printf"],
    "sib_printf_double": ["printf"], "sib_saved": ["add3"], "sib_branch": ["twice", "negate"],
}
CALLS = {"keep_local": "deref", "keep_stack": "eight", "keep_pair": "mkpair", "keep_big": "mkbig",
         "keep_conv": "twice", "keep_after": "twice"}


def build(tmp_path, name, *flags):
    exe = tmp_path / name
    proc = subprocess.run([PIPECC, "-w", *flags, str(SOURCE), "-o", str(exe)], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    return exe


def transfers(code, kind):
    """The targets of the `call`s or `jmp`s to another function (or "*")."""
    out = []
    for insn in code:
        m = re.match(rf"^{kind}\s+(\*.*|[0-9a-f]+ <([^>+@]+)(@plt)?>)$", insn)
        if m:
            out.append("*" if m.group(1).startswith("*") else m.group(2))
    return out


def run(exe, *args):
    proc = subprocess.run([str(exe), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return proc.returncode, proc.stdout.decode()


def test_sibling_calls_jump_at_O2_and_call_at_O0(tmp_path):
    o2 = disassembly(build(tmp_path, "o2", "-O2"))
    for fn, callees in JUMPS.items():
        assert sorted(set(transfers(o2[fn], "jmp")) - {fn}) == sorted(callees), (fn, o2[fn])
    assert transfers(o2["sib_saved"], "call") == ["twice", "negate"], o2["sib_saved"]
    for fn, callee in CALLS.items():
        assert callee in transfers(o2[fn], "call") and callee not in transfers(o2[fn], "jmp"), (fn, o2[fn])
    for flags in (("-O0",), ("-O2", "-fno-optimize-sibling-calls")):
        code = disassembly(build(tmp_path, "calls", *flags))
        for fn, callees in JUMPS.items():
            assert not set(transfers(code[fn], "jmp")) - {fn}, (flags, fn, code[fn])
            assert set(callees) <= set(transfers(code[fn], "call")), (flags, fn, code[fn])


def test_mutual_recursion_runs_10_million_deep_as_gcc_O2(tmp_path):
    gcc = tmp_path / "gcc-O2"
    subprocess.run(["gcc", "-O2", "-w", str(SOURCE), "-o", str(gcc)], check=True, timeout=120)
    want = run(gcc, DEEP)
    assert want[0] == 0 and f"even({DEEP}) = 1" in want[1]
    assert run(build(tmp_path, "o2", "-O2"), DEEP) == want
