"""Floating point through the back end (issue 18): son-level programs with
f32/f64 values lowered by son-lower-x64 (SSE2 scalar code), scheduled by
son2cfg, optionally optimized by cfgopt -O2, allocated by regalloc-x64 (the
second register class, xmm0-xmm15) and compiled by codegen-x64, run by
pipe-run at son-x64, cfg-x64 and ra-x64 and natively; every run prints the
same as the reference:

- the float opcode program of test_pipe_run.py (every opcode on edge
  values: signed zeros, subnormals, infinities, NaN payloads, every
  predicate, every conversion at its limits) against gcc's build of the
  same operations;
- tests/float_abi_program.py (the System V float ABI: f32/f64 parameters
  and results, more floating arguments than xmm registers, a variadic
  definition reading doubles and longs with va_arg, printf of doubles with
  al set) against its own son-level run;
- tests/float_loop_program.py (more f64 phis than xmm registers, rotations
  and swaps of xmm values on the back edge, a call on every trip, which
  destroys every xmm register, conversions between the classes) against
  its own son-level run.

The stage goldens (tests/stages/son-lower-x64/f*.in.txt, regalloc-x64/
xmm.in.txt), codegen's per-opcode CPU test (tests/codegen-x64/gen_ops.py)
and the verifier cases (tests/verify/l_*.txt, h_xmm_classes.txt) cover the
pieces one by one."""
import shutil
import subprocess

import pytest

from conftest import run_tool
from float_abi_program import abi_program
from float_loop_program import loop_program
from test_pipe_run import Prog, float_program


def through_back_end(son, tmp_path, optimize):
    """The son module at son-x64, cfg-x64 (cfgopt -O2 when optimize) and
    ra-x64, and a native executable: their paths."""
    sonx, cfgx, ra, obj, exe = (tmp_path / n for n in ("p.sonx", "p.cfgx", "p.ra", "p.o", "p"))
    run_tool("son-lower-x64", son, "-o", sonx)
    run_tool("son2cfg", sonx, "-o", cfgx)
    if optimize:
        opt = tmp_path / "p.opt"
        run_tool("cfgopt", "-O2", cfgx, "-o", opt)
        cfgx = opt
    run_tool("regalloc-x64", cfgx, "-o", ra)
    run_tool("codegen-x64", ra, "-f", "obj", "-o", obj)
    subprocess.run(["cc", "-o", exe, obj], check=True)
    return [sonx, cfgx, ra], exe


def check_everywhere(son, want, tmp_path, optimize):
    modules, exe = through_back_end(son, tmp_path, optimize)
    runs = {m.name: run_tool("pipe-run", m, check=0, timeout=120) for m in modules}
    runs["native"] = subprocess.run([str(exe)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    for where, proc in runs.items():
        assert proc.returncode == 0, f"{where}: {proc.stderr.decode()[:2000]}"
        got = proc.stdout.decode()
        diff = [f"{where}: {g!r}, expected {w!r}" for g, w in zip(got.splitlines(), want.splitlines()) if g != w]
        assert not diff, "\n".join(diff[:30])
        assert got == want, where


@pytest.mark.skipif(not shutil.which("gcc"), reason="gcc is not installed")
@pytest.mark.parametrize("optimize", [False, True], ids=["O0", "cfgopt-O2"])
def test_float_opcodes_everywhere_match_gcc(tmp_path, optimize):
    p, c = Prog(), []
    float_program(p, c, printf_doubles=False)
    p.ret()
    src = tmp_path / "floats.c"
    src.write_text("#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\nint main(void) {\n" +
                   "\n".join(c) + "\n  return 0;\n}\n")
    exe = tmp_path / "floats"
    subprocess.run(["gcc", "-O0", "-w", "-fno-builtin", "-o", exe, src, "-lm"], check=True)
    want = subprocess.run([exe], stdout=subprocess.PIPE, check=True).stdout.decode()
    assert want.count("\n") > 1000
    son = tmp_path / "floats.son.txt"
    son.write_text(p.text("son"))
    check_everywhere(son, want, tmp_path, optimize)


@pytest.mark.parametrize("k, trips", [(20, 40), (5, 3), (16, 7)])
@pytest.mark.parametrize("optimize", [False, True], ids=["O0", "cfgopt-O2"])
def test_float_loop_with_pressure_cycles_and_calls(tmp_path, k, trips, optimize):
    son = tmp_path / "loop.son.txt"
    son.write_text(loop_program(k, trips))
    want = run_tool("pipe-run", son).stdout.decode()
    assert want.count("trip ") == trips
    check_everywhere(son, want, tmp_path, optimize)
    if k > 16:  # more f64 values live than xmm registers: the allocator spilled some
        stats = run_tool("regalloc-x64", tmp_path / "p.opt" if optimize else tmp_path / "p.cfgx", "-o", tmp_path / "x",
                         "--stats").stderr.decode()
        assert " 0 spills" not in stats, stats


@pytest.mark.parametrize("optimize", [False, True], ids=["O0", "cfgopt-O2"])
def test_float_abi_everywhere(tmp_path, optimize):
    son = tmp_path / "abi.son.txt"
    son.write_text(abi_program())
    want = run_tool("pipe-run", son).stdout.decode()
    assert want.count("\n") == 5 and "-22.937500" in want
    check_everywhere(son, want, tmp_path, optimize)
