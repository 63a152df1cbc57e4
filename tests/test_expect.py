"""Branch probabilities from C to machine code (issue 19; FORMAT.md section
7, "Branch probabilities").

  - `__builtin_expect` reaches son2cfg's and cfgopt's output as the
    probability literal of `x64:jcc`, at -O0 and -O2 (pipecc --stop-after);
  - at -O2 the unlikely block is laid out after the function's hot path:
    in the object, the call the unlikely arm makes comes after the hot
    path's `ret`, and with the hint reversed (likely) before it; gcc -O2
    places it so too;
  - a probability survives every encoding bit-exactly (pipe-fmt round trip)
    and inverting a branch twice (cfgopt's invert-branches on its own
    output) gives the literal back.
The C program tests/c/ctrl_expect.c runs against gcc in tests/test_c_programs.py
(every level under pipe-run) and tests/test_native.py (-O0, -O2); here at -O1 too.
"""
import re
import subprocess

import pytest

from conftest import ROOT, disassembly, run_tool, tool_path

LIKELY = 1932735283    # 90% of 2^31: gcc's builtin-expect-probability
UNLIKELY = 214748365   # 10%

SOURCE = r"""
#define unlikely(x) __builtin_expect(!!(x), 0)
#define likely(x) __builtin_expect(!!(x), 1)
void rare(int);
int hot(int x) {
  if (HINT(x == 42)) {
    rare(x);
    rare(x + 1);
  }
  return x * 3 + 1;
}
"""


def pipecc(*args, cwd):
    proc = subprocess.run([tool_path("pipecc"), *map(str, args)], cwd=cwd, capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    return proc


def write_source(tmp_path, hint):
    src = tmp_path / "hot.c"
    src.write_text(SOURCE.replace("HINT", hint))
    return src


def jcc_probabilities(text):
    """The probability literals of the x64:jcc lines of a printed module."""
    return [int(m.group(1)) for m in re.finditer(r'= x64:jcc \^\w+, "\w+", (\d+),', text)]


@pytest.mark.parametrize("opt,stage", [("-O0", "son2cfg"), ("-O0", "regalloc-x64"), ("-O2", "son2cfg"),
                                       ("-O2", "cfgopt"), ("-O2", "regalloc-x64")])
def test_probability_reaches_the_layout(opt, stage, tmp_path):
    """(-O0 runs no cfgopt.)"""
    src = write_source(tmp_path, "unlikely")
    pipecc(opt, "-c", src.name, f"--stop-after={stage}", "-o", "out.bin", cwd=tmp_path)
    text = run_tool("pipe-fmt", tmp_path / "out.bin", "-f", "text", check=0).stdout.decode()
    probs = jcc_probabilities(text)
    # x == 42 is unlikely: the jcc says so for whichever successor it names first.
    assert probs and set(probs) <= {LIKELY, UNLIKELY}, text


def call_after_ret(tmp_path, build):
    """In function hot of the object: is the first call to rare after the first ret?"""
    code = disassembly(tmp_path / "hot.o")["hot"]
    first_ret = next(i for i, line in enumerate(code) if line.startswith("ret"))
    first_call = next(i for i, line in enumerate(code) if line.startswith("call"))
    return first_call > first_ret, "\n".join(code)


@pytest.mark.parametrize("hint,out_of_line", [("unlikely", True), ("likely", False)])
def test_unlikely_block_goes_after_the_hot_path(hint, out_of_line, tmp_path):
    src = write_source(tmp_path, hint)
    pipecc("-O2", "-c", src.name, "-o", "hot.o", cwd=tmp_path)
    after, code = call_after_ret(tmp_path, "pipecc")
    assert after == out_of_line, code


def test_gcc_places_the_unlikely_block_so_too(tmp_path):
    src = write_source(tmp_path, "unlikely")
    subprocess.run(["gcc", "-O2", "-c", src.name, "-o", "hot.o"], cwd=tmp_path, check=True)
    after, code = call_after_ret(tmp_path, "gcc")
    assert after, code


def jccs(text):
    """{node label: (condition code, probability)} of the x64:jcc lines."""
    return {m.group(1): (m.group(2), int(m.group(3)))
            for m in re.finditer(r'(i\d+) = x64:jcc \^\w+, "(\w+)", (\d+),', text)}


NEGATE = {"e": "ne", "ne": "e", "l": "ge", "ge": "l", "g": "le", "le": "g", "b": "ae", "ae": "b", "a": "be",
          "be": "a", "s": "ns", "ns": "s", "p": "np", "np": "p", "o": "no", "no": "o"}


@pytest.mark.parametrize("hint", ["unlikely", "likely"])
def test_probability_round_trips_and_inverts_with_the_branch(hint, tmp_path):
    src = write_source(tmp_path, hint)
    pipecc("-O2", "-c", src.name, "--stop-after=son2cfg", "-o", "x.bin", cwd=tmp_path)
    for fmt in ("json", "text", "bin"):
        run_tool("pipe-fmt", tmp_path / "x.bin", "-f", fmt, "-o", tmp_path / f"x.{fmt}", check=0)
        back = run_tool("pipe-fmt", tmp_path / f"x.{fmt}", "-f", "bin", check=0).stdout
        assert back == (tmp_path / "x.bin").read_bytes(), fmt
    before = jccs(run_tool("pipe-fmt", tmp_path / "x.bin", "-f", "text", check=0).stdout.decode())
    after = jccs(run_tool("cfgopt", tmp_path / "x.bin", "--passes=invert-branches", "-f", "text",
                          check=0).stdout.decode())
    assert before and before.keys() == after.keys()
    for label, (cc, p) in before.items():
        # kept, or inverted: the negated condition with the other side's probability
        assert after[label] in {(cc, p), (NEGATE[cc], (1 << 31) - p)}, (label, before, after)


@pytest.mark.parametrize("opt", ["-O1"])
def test_ctrl_expect_runs_like_gcc_at_O1(opt, tmp_path):
    src = ROOT / "tests" / "c" / "ctrl_expect.c"
    ref = tmp_path / "ref"
    subprocess.run(["gcc", "-std=gnu11", "-O0", "-w", str(src), "-o", str(ref)], check=True)
    want = subprocess.run([str(ref)], capture_output=True, timeout=30)
    pipecc(opt, "-w", str(src), "-o", "prog", cwd=tmp_path)
    got = subprocess.run([str(tmp_path / "prog")], capture_output=True, timeout=30)
    assert (got.stdout, got.stderr, got.returncode) == (want.stdout, want.stderr, want.returncode)
