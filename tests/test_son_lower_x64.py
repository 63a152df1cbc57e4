"""son-lower-x64: the rule table's document, one golden per rule, division
by constants against gcc, generated programs, determinism, bad input.

- schema/LOWERING.md is `son-lower-x64 --rules` (generated from the table in
  stages/son-lower-x64/rules.cpp); after changing a rule run
  `build/son-lower-x64 --rules > schema/LOWERING.md`.
- Every rule of the table has a golden test
  tests/stages/son-lower-x64/<rule>.in.txt (run by test_stage_golden.py).
- Division: tests/c/gen_division.py writes one C program dividing edge-case
  dividends by every interesting constant (1, -1, 2^k, -2^k, 3, 7, 641,
  INT_MIN, UINT_MAX, ...) with / and % at every width and signedness; its
  output through son-lower-x64 (and son2cfg) and pipe-run at son-x64 and
  cfg-x64 must equal gcc's.
- Random cfg programs (test_ssa_stages.py's generator: memory, irreducible
  loops) print the same at son-x64 and cfg-x64 as at cfg; pipe-gen's
  arbitrary son modules lower to the same bytes whatever the encoding and
  however often.
- The tool contract, and bad input: a module at another level, an
  unverified graph, each exit 1 with a diagnostic naming the
  function and node, leaving no output.
(The whole C corpus and the csmith seeds run at son-x64 and cfg-x64 against
gcc in test_c_programs.py and test_csmith.py.)
"""
import re
import subprocess
import sys

import pytest

from conftest import BUILD, ROOT, run_tool, tool_path

sys.path.insert(0, str(ROOT / "tests" / "c"))
import gen_division  # noqa: E402  (tests/c/gen_division.py)
from test_ssa_stages import random_cfg_program  # noqa: E402

GOLDENS = ROOT / "tests" / "stages" / "son-lower-x64"


def rules_document():
    return run_tool("son-lower-x64", "--rules", check=0).stdout.decode()


def test_lowering_document_is_generated_from_the_rules():
    doc = (ROOT / "schema" / "LOWERING.md").read_text()
    assert doc == rules_document(), "schema/LOWERING.md is stale: build/son-lower-x64 --rules > schema/LOWERING.md"


def test_every_rule_has_a_golden():
    names = re.findall(r"^\| (?:`[a-z0-9.]+`|any pure) \| ([a-z0-9-]+) \| `\(", rules_document(), re.M)
    assert len(names) > 50 and len(set(names)) == len(names), names
    missing = [n for n in names if not (GOLDENS / f"{n}.in.txt").exists()]
    assert not missing, f"rules without a golden in tests/stages/son-lower-x64: {missing}"


def to_son(src, workdir):
    """c2ast | ast2cfg | cfg2ssa | ssa2son as one shell pipe; the son module's path."""
    out = workdir / (src.stem + ".son")
    stages = ["c2ast", "ast2cfg", "cfg2ssa", "ssa2son"]
    cmd = " | ".join(f"'{tool_path(s)}'" + (f" '{src}'" if s == "c2ast" else "") for s in stages)
    proc = subprocess.run(f"set -o pipefail; {cmd} > '{out}'", shell=True, executable="/bin/bash",
                          capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    return out


def test_division_by_constants_matches_gcc(tmp_path):
    src = tmp_path / "division.c"
    src.write_text(gen_division.program())
    exe = tmp_path / "division"
    subprocess.run(["gcc", "-std=gnu11", "-O0", "-w", "-o", str(exe), str(src)], check=True, timeout=120)
    want = subprocess.run([str(exe)], capture_output=True, timeout=60)
    assert want.returncode == 0
    son = to_son(src, tmp_path)
    lowered = tmp_path / "division.son-x64"
    scheduled = tmp_path / "division.cfg-x64"
    run_tool("son-lower-x64", son, "-o", lowered, check=0)
    run_tool("son2cfg", lowered, "-o", scheduled, check=0)
    want_lines = want.stdout.decode().splitlines()
    for module in (lowered, scheduled):
        got = run_tool("pipe-run", module)
        assert got.returncode == 0, got.stderr.decode(errors="replace")
        got_lines = got.stdout.decode().splitlines()
        wrong = [f"gcc: {w}\npipe: {g}" for w, g in zip(want_lines, got_lines) if w != g]
        assert not wrong and len(want_lines) == len(got_lines), f"{module.name}:\n" + "\n".join(wrong[:20])


def gen(seed, fmt="bin", nodes=600):
    return run_tool("pipe-gen", "--level", "son", "--seed", seed, "--nodes", nodes, "--functions", 3,
                    "-f", fmt, check=0).stdout


def run_module(module):
    proc = run_tool("pipe-run", "-", "--max-steps", 10000000, input=module)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize("seed", range(1, 25))
def test_random_programs_run_the_same_after_lowering(seed):
    """tests/test_ssa_stages.py's random cfg programs (loads and stores of a
    stack array, irreducible loops, branches on bits) through cfg2ssa |
    ssa2son | son-lower-x64 | son2cfg. (pipe-gen's runnable programs, with
    their i1 values, run through the same stages in test_pipe_fuzz.py.)"""
    cfg = random_cfg_program(seed, bodies=8 if seed % 4 else 40).encode()
    want = run_module(cfg)
    assert want[0] != 70 and want[1], want[2].decode(errors="replace")  # 70: a runtime error
    ssa = run_tool("cfg2ssa", "-", input=cfg, check=0).stdout
    son = run_tool("ssa2son", "-", input=ssa, check=0).stdout
    lowered = run_tool("son-lower-x64", "-", input=son, check=0).stdout
    assert run_module(lowered) == want, "son-x64 differs from cfg"
    scheduled = run_tool("son2cfg", "-", input=lowered, check=0).stdout
    assert run_module(scheduled) == want, "cfg-x64 differs from cfg"


@pytest.mark.parametrize("seed", range(1, 5))
def test_lowering_is_deterministic(seed):
    outputs = set()
    for fmt in ("bin", "json", "text"):
        son = gen(seed, fmt=fmt)
        for _ in range(2 if fmt == "bin" else 1):
            outputs.add(run_tool("son-lower-x64", "-", "-f", "bin", input=son, check=0).stdout)
    assert len(outputs) == 1


def test_tool_contract():
    assert b"Example:" in run_tool("son-lower-x64", "--help", check=0).stdout
    assert run_tool("son-lower-x64", "--version", check=0).stdout.startswith(b"son-lower-x64")
    run_tool("son-lower-x64", "--no-such-flag", check=2)


@pytest.mark.parametrize("level", ["cfg", "ssa"])
def test_wrong_level_is_refused(level):
    module = run_tool("pipe-gen", "--level", level, "--seed", 1, "--nodes", 50, check=0).stdout
    proc = run_tool("son-lower-x64", "-", "-o", "-", input=module, check=1)
    assert f"found level '{level}'".encode() in proc.stderr, proc.stderr
    assert proc.stdout == b""


def son_text(body, sig="f(i32) -> i32"):
    return f"module son\npipeline {sig} {{\n{body}\n}}\n".encode()


BAD_SON = {
    # unverified: a const whose type literal is not a type
    "bad-type-literal": ("""  i0 = start
  i1 = entrymem ^i0
  i2 = const "x9", 1
  i3 = return ^i0, i1, i2""", "function 'f': i2"),
    # unverified: a call without its result type, a load without its address
    "call-without-literals": ("""  i0 = start
  i1 = entrymem ^i0
  i2 = symaddr "g"
  i3 = call ^i0, i1, i2
  i4 = proj 0, i3
  i5 = return ^i0, i4, i2""", "function 'f': i3: error: 'call' takes 1 or 2 literal"),
    "load-without-address": ("""  i0 = start
  i1 = entrymem ^i0
  i2 = load ^i0, "i32", i1
  i3 = return ^i0, i1, i2""", "function 'f': i2: error: 'load' takes 2 input"),
}


@pytest.mark.parametrize("case", sorted(BAD_SON))
@pytest.mark.parametrize("verify", ["--verify", "--no-verify"])
def test_bad_input_is_diagnosed(case, verify, tmp_path):
    body, where = BAD_SON[case]
    out = tmp_path / "out.bin"
    proc = run_tool("son-lower-x64", "-", verify, "-o", out, input=son_text(body))
    err = proc.stderr.decode(errors="replace")
    assert proc.returncode == 1, f"exit {proc.returncode}\n{err}"
    assert "error:" in err and where in err, err
    assert not out.exists()


def i1_program():
    """A son program using i1 everywhere FORMAT.md allows it (compares of i1,
    modulo-2 arithmetic, shifts by 0, division by 1, memory, trunc/sext/zext,
    a branch on an i1 and a phi of i1, an i1 parameter and result), run for
    the four pairs of inputs; and what it prints, computed here."""
    ops = ["slt", "sle", "ult", "ule", "eq", "ne", "add", "sub", "mul", "and", "or", "xor"]
    lines = []

    def node(text):
        lines.append(f"  i{len(lines)} = {text}")
        return f"i{len(lines) - 1}"

    def const(t, v):
        return node(f'const "{t}", {v}')

    node("start")
    mem = node("entrymem ^i0")
    a, b = node('param ^i0, "i1", 0'), node('param ^i0, "i1", 1')
    bits = [node(f'{op} "i1", {a}, {b}') for op in ops]
    bits += [node(f'neg "i1", {a}'), node(f'not "i1", {a}')]
    zero = node(f'xor "i1", {b}, {b}')
    one = node(f'or "i1", {b}, {const("i1", -1)}')
    bits += [node(f'shl "i1", {a}, {zero}'), node(f'ashr "i1", {a}, {zero}'), node(f'lshr "i1", {b}, {zero}'),
             node(f'udiv ^i0, "i1", {a}, {one}'), node(f'urem ^i0, "i1", {b}, {one}')]
    slot = node("stackslot 8, 8")
    mem = node(f'store ^i0, "i1", {mem}, {slot}, {bits[11]}')
    bits.append(node(f'load ^i0, "i1", {mem}, {slot}'))
    wide = node(f'add "i64", {const("i64", 6)}, {node(f"zext {chr(34)}i1{chr(34)}, {chr(34)}i64{chr(34)}, {b}")}')
    bits.append(node(f'trunc "i64", "i1", {wide}'))
    branch = node(f"if ^i0, {a}")
    yes, no = node(f"proj 0, {branch}"), node(f"proj 1, {branch}")
    region = node(f"region ^{yes}, ^{no}")
    bits.append(node(f"phi ^{region}, {bits[9]}, {bits[10]}"))  # a ? a&b : a|b
    acc = node(f'sext "i1", "i64", {a}')
    for k, v in enumerate(bits):
        z = node(f'zext "{"i32" if k < 6 else "i1"}", "i64", {v}')
        doubled = node(f'shl "i64", {acc}, {const("i64", 1)}')
        acc = node(f'add "i64", {doubled}, {z}')
    node(f"return ^{region}, {mem}, {acc}")
    g = "\n".join(lines)
    lines.clear()
    node("start")
    mem = node("entrymem ^i0")
    fn_g, fn_h, printf, fmt = (node(f'symaddr "{s}"') for s in ("g", "h", "printf", "fmt"))
    zero, one = const("i1", 0), const("i1", 1)
    for x, y in ((zero, zero), (zero, one), (one, zero), (one, one)):
        call = node(f'call ^i0, "i64", {mem}, {fn_g}, {x}, {y}')
        result = node(f"proj 1, {call}")
        printed = node(f'call ^i0, "i32", {node(f"proj 0, {call}")}, {printf}, {fmt}, {result}')
        mem = node(f"proj 0, {printed}")
    call = node(f'call ^i0, "i1", {mem}, {fn_h}, {one}')
    status = node(f'zext "i1", "i32", {node(f"proj 1, {call}")}')
    node(f"return ^i0, {node(f'proj 0, {call}')}, {status}")
    main = "\n".join(lines)
    h = ('  i0 = start\n  i1 = entrymem ^i0\n  i2 = param ^i0, "i1", 0\n  i3 = not "i1", i2\n'
         '  i4 = return ^i0, i1, i3')
    text = ('module son\nextern function printf(ptr, ...) -> i32\n'
            'data internal readonly fmt size 6 align 1 init x"256c6c640a00"\n\n'
            f"internal pipeline g(i1, i1) -> i64 {{\n{g}\n}}\n\ninternal pipeline h(i1) -> i1 {{\n{h}\n}}\n\n"
            f"pipeline main() -> i32 {{\n{main}\n}}\n")

    def expect(x, y):
        sx, sy = -x, -y  # an i1 read as signed: 1 is -1
        vals = [sx < sy, sx <= sy, x < y, x <= y, x == y, x != y, x ^ y, x ^ y, x & y, x & y, x | y, x ^ y,
                x, x ^ 1, x, x, y, x, 0, x ^ y, y, x & y if x else x | y]
        acc = -x
        for v in vals:
            acc = (acc * 2 + int(v)) & (2**64 - 1)
        return acc - 2**64 if acc >= 2**63 else acc

    want = "".join(f"{expect(x, y)}\n" for x, y in ((0, 0), (0, 1), (1, 0), (1, 1)))
    return text.encode(), want.encode()

def test_i1_values_run_the_same_after_lowering(tmp_path):
    """Every i1 form at son, son-x64 and cfg-x64 prints what Python computes (exit status: h(1) = not 1 = 0)."""
    son, want = i1_program()
    got = run_module(son)
    assert got[:2] == (0, want), got[2].decode(errors="replace")
    lowered = run_tool("son-lower-x64", "-", input=son, check=0).stdout
    assert run_module(lowered)[:2] == (0, want), "son-x64 differs from son"
    scheduled = run_tool("son2cfg", "-", input=lowered, check=0).stdout
    assert run_module(scheduled)[:2] == (0, want), "cfg-x64 differs from son"


def wide_constants_program():
    """Constants wider than the operation that uses them (the generic levels
    allow a const "i64" as an i8 operand; the operation reads its low
    bits): each becomes an immediate of the operation's size, which must be
    the low bits sign-extended (an x64 immediate is 32 bits)."""
    lines = []

    def node(text):
        lines.append(f"  i{len(lines)} = {text}")
        return f"i{len(lines) - 1}"

    node("start")
    mem = node("entrymem ^i0")
    v = node('param ^i0, "i32", 0')
    big = node('const "i64", 957777614463')        # 0xDF_FF00_007F: low 8 bits 0x7F, low 32 0xFF00007F
    huge = node('const "i64", -81985529216486896')  # 0xFEDC_BA98_7654_3210
    results = [node(f'{op} "{t}", {v}, {c}') for op, t, c in
               (("add", "i32", big), ("and", "i8", big), ("or", "i16", huge), ("xor", "i32", huge),
                ("sub", "i8", huge), ("mul", "i16", big))]
    results += [node(f'{op} "{t}", {v}, {c}') for op, t, c in
                (("slt", "i8", big), ("ult", "i16", huge), ("eq", "i32", big), ("sle", "i8", huge))]
    slot = node("stackslot 8, 8")
    mem = node(f'store ^i0, "i16", {mem}, {slot}, {huge}')
    results.append(node(f'load ^i0, "i16", {mem}, {slot}'))
    types = ["i32", "i8", "i16", "i32", "i8", "i16", "i1", "i1", "i1", "i1", "i16"]
    acc = node('const "i64", 0')
    prime = node('const "i64", 1000003')
    for t, r in zip(types, results):
        scaled = node(f'mul "i64", {acc}, {prime}')
        acc = node(f'add "i64", {scaled}, {node(f"zext {t!r}, {chr(34)}i64{chr(34)}, {r}".replace(chr(39), chr(34)))}')
    node(f"return ^i0, {mem}, {acc}")
    g = "\n".join(lines)
    main = ('  i0 = start\n  i1 = entrymem ^i0\n  i2 = symaddr "g"\n  i3 = symaddr "printf"\n  i4 = symaddr "fmt"\n'
            '  i5 = const "i32", -123457\n  i6 = call ^i0, "i64", i1, i2, i5\n  i7 = proj 0, i6\n  i8 = proj 1, i6\n'
            '  i9 = call ^i0, "i32", i7, i3, i4, i8\n  i10 = proj 0, i9\n  i11 = const "i32", 0\n'
            '  i12 = return ^i0, i10, i11')
    return ('module son\nextern function printf(ptr, ...) -> i32\n'
            'data internal readonly fmt size 6 align 1 init x"256c6c640a00"\n\n'
            f"internal pipeline g(i32) -> i64 {{\n{g}\n}}\n\npipeline main() -> i32 {{\n{main}\n}}\n").encode()


def test_constants_wider_than_their_use_become_immediates_of_its_size(tmp_path):
    """Found by scripts/fuzz-stage regalloc-x64: son-lower-x64 passed such a
    constant through whole (x64:cmpi "i8", 957777614463), which no
    instruction encodes and codegen-x64 refused; the verifier now rejects an
    immediate beyond 32 bits (rule A, letter d), and the lowering keeps the
    low bits the instruction reads, sign-extended. (An operand of another
    type than its user is outside what the verifier checks, so pipe-run at
    son is no oracle here: the lowered and scheduled modules must agree.)"""
    son = wide_constants_program()
    lowered = run_tool("son-lower-x64", "-", input=son).stdout
    text = run_tool("pipe-fmt", "-", "-f", "text", input=lowered).stdout.decode()
    for immediate in ('x64:cmpi "i8", 127,', 'x64:andi "i32", -92545,', 'x64:ori "i32", 1985229328,',
                      'x64:storei ^i0, "i16", 12816,'):
        assert immediate in text, text
    want = run_module(lowered)
    assert want[0] == 0 and want[1], want[2].decode(errors="replace")
    scheduled = run_tool("son2cfg", "-", input=lowered).stdout
    assert run_module(scheduled) == want, "cfg-x64 differs from son-x64"
    allocated = run_tool("regalloc-x64", "-", input=scheduled).stdout
    run_tool("codegen-x64", "-", "-o", tmp_path / "wide.o", input=allocated)
    assert (tmp_path / "wide.o").read_bytes()[:4] == b"\x7fELF"
