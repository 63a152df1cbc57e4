"""common/x64/eval_x64.h (the meaning of the x64: instructions) against the CPU.

tests/eval_x64_cpu.cpp runs every pure x64 instruction pipe-run executes on
this machine with inline assembly (all operand sizes, edge values, garbage in
the upper bits) and compares registers, flags, the 16 condition codes and
#DE with the model; it prints each mismatch.
"""
import platform
import subprocess

import pytest

from conftest import ROOT


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="needs an x86-64 CPU")
def run_cpu_check(tmp_path, name, timeout):
    """Builds tests/NAME.cpp against common/ and runs it: no mismatch with the CPU."""
    exe = tmp_path / name
    subprocess.run(["g++", "-std=c++20", "-O1", "-Wall", "-Wextra", "-Werror", "-I", str(ROOT / "common"),
                    "-o", str(exe), str(ROOT / "tests" / f"{name}.cpp")], check=True)
    proc = subprocess.run([str(exe)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    out = proc.stdout.decode()
    assert proc.returncode == 0, out
    assert " 0 mismatches" in out


def test_x64_semantics_match_the_cpu(tmp_path):
    run_cpu_check(tmp_path, "eval_x64_cpu", 120)


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="needs an x86-64 CPU")
def test_float_semantics_match_the_cpu(tmp_path):
    """common/ir/eval_float.h (fadd ... fptoui, NaN payloads, -0.0, rounding)
    against addsd/ss, sqrtsd, ucomisd, the cvt instructions and gcc's
    unsigned sequences run on this CPU (tests/eval_float_cpu.cpp)."""
    run_cpu_check(tmp_path, "eval_float_cpu", 300)
