"""codegen-x64's parallel move engine (stages/codegen-x64/parallel_move.h):
tests/codegen-x64/parallel_move.cpp runs it on every parallel move over six
locations (three sets of registers and stack slots, with no, one and two
free scratch registers) and checks the result by simulation."""
import subprocess

from conftest import tool_path


def test_every_small_parallel_move():
    proc = subprocess.run([tool_path("codegen-x64-parallel-move")], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120)
    out = proc.stdout.decode()
    assert proc.returncode == 0, out + proc.stderr.decode()
    assert "1058841 parallel moves checked, 0 failures" in out
