"""pipe-gen --float (issue 18): random valid modules with f32 and f64 values
and long double operations, at every level, for the stages and their fuzzers.

pipe-gen verifies what it writes, so exit 0 already means the module keeps
its level's contract (rule K: floats and integers meet only through
conversions; rule P: long double operations). Here:
  - the generator uses the float forms it promises at each level, and none
    without --float (a seed then gives the module it gave before floats);
  - the modules round-trip through the three encodings (float literals bit
    for bit: NaN payloads, -0.0, subnormals, f32 values);
  - every stage takes them on to machine code with its checks on: from cfg
    through cfg2ssa, ssa2son, sonopt -O2 --verify-each, son-lower-x64,
    son2cfg, cfgopt -O2 --verify-each, regalloc-x64 (the allocation checker:
    both register classes) and codegen-x64; from son-x64 and cfg-x64 straight
    into son2cfg, cfgopt and the allocator (float phis, ucomis feeding jcc and
    setcc, x64:f80.* on slots, xmm parameters and results).
"""
import subprocess

import pytest

from conftest import run_tool, tool_path
from test_roundtrip import assert_round_trips

LEVELS = ["son", "cfg", "ssa", "son-x64", "cfg-x64"]

# What each level's modules must hold (a sample of the generator's forms).
FORMS = {
    "generic": ["fconst", "fadd", "fsqrt", "fpext", "fptrunc", "sitofp", "fptosi", "bitcast", "f80.from",
                "f80.to", "f80.cmp", '"f64"', '"f32"'],
    "x64": ["x64:fconst", "x64:fzero", "x64:fadd", "x64:fxor", "x64:fand", "x64:cvtsi2f", "x64:cvttf2si",
            "x64:cvtf2f", "x64:ucomis", "x64:f80.from", "x64:f80.to", '"xmm0"'],
}


def generate(level, seed, *extra, nodes=1500):
    return run_tool("pipe-gen", "--float", "--seed", seed, "--level", level, "--nodes", nodes, "--functions", 3,
                    *extra, check=0).stdout


def pipeline(module, stages, timeout=120):
    """Pipes `module` through the stages (argv lists); asserts each exits 0."""
    procs = []
    for i, argv in enumerate(stages):
        procs.append(subprocess.Popen([tool_path(argv[0]), *argv[1:]],
                                      stdin=subprocess.PIPE if i == 0 else procs[-1].stdout,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE))
        if i > 0:
            procs[-2].stdout.close()
    procs[0].stdin.write(module)
    procs[0].stdin.close()
    out = procs[-1].stdout.read()
    for argv, p in zip(stages, procs):
        p.wait(timeout=timeout)
        assert p.returncode == 0, f"{argv[0]}: exit {p.returncode}\n{p.stderr.read().decode(errors='replace')}"
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_generated_float_forms(level):
    text = generate(level, 3, "-f", "text").decode()
    assert text == generate(level, 3, "-f", "text").decode()
    for form in FORMS["x64" if level.endswith("x64") else "generic"]:
        assert form in text, form
    plain = run_tool("pipe-gen", "--seed", 3, "--level", level, "--nodes", 1500, "--functions", 3, "-f", "text",
                     check=0).stdout.decode()
    assert "fconst" not in plain and "f80." not in plain and '"f64"' not in plain


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", range(1, 4))
def test_float_modules_round_trip(level, seed):
    assert_round_trips(generate(level, seed, "-f", "bin", nodes=600))


BACK_END = [["son-lower-x64"], ["son2cfg"], ["cfgopt", "-O2", "--verify-each"], ["regalloc-x64"],
            ["codegen-x64", "-f", "obj", "-o", "/dev/null"]]


@pytest.mark.parametrize("seed", range(1, 7))
def test_float_cfg_modules_reach_machine_code(seed):
    pipeline(generate("cfg", seed, "-f", "bin"),
             [["cfg2ssa"], ["ssa2son"], ["sonopt", "-O2", "--verify-each"]] + BACK_END)


@pytest.mark.parametrize("seed", range(1, 5))
def test_float_son_modules_reach_machine_code_unoptimized(seed):
    pipeline(generate("son", seed, "-f", "bin"), BACK_END)


@pytest.mark.parametrize("level", ["son-x64", "cfg-x64"])
@pytest.mark.parametrize("seed", range(1, 7))
def test_float_x64_modules_allocate_and_assemble(level, seed):
    front = [["son2cfg"]] if level == "son-x64" else []
    pipeline(generate(level, seed, "-f", "bin"), front + BACK_END[2:])


def test_float_flag_conflicts():
    proc = run_tool("pipe-gen", "--runnable", "--float", "--no-float", check=2)
    assert b"--float and --no-float exclude each other" in proc.stderr
    proc = run_tool("pipe-gen", "--no-float", check=2)
    assert b"--no-float is --runnable's" in proc.stderr
