"""The README's first command (scripts/demo) works and shows the example."""
import os
import subprocess

from conftest import BUILD, ROOT


def test_demo_runs_example_through_every_encoding():
    env = dict(os.environ, PIPE_BUILD_DIR=str(BUILD))
    proc = subprocess.run([str(ROOT / "scripts" / "demo")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=300, env=env)
    out = proc.stdout.decode()
    assert proc.returncode == 0, out
    assert "round trip lossless" in out
    assert out.count("ok (2 functions, level ssa)") == 3
    assert "pipeline sum(i32) -> i32 {" in out and "i7 = ssa:phi ^i6, i3, i12" in out
