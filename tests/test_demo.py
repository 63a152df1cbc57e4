"""The README's first command (scripts/demo) works and shows the example."""
import os
import subprocess

from conftest import BUILD, ROOT


def test_demo_compiles_example_through_the_stages():
    env = dict(os.environ, PIPE_BUILD_DIR=str(BUILD))
    proc = subprocess.run([str(ROOT / "scripts" / "demo")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=300, env=env)
    out = proc.stdout.decode()
    assert proc.returncode == 0, out
    for level in ("ast", "cfg", "ssa", "son"):
        assert f"ok (1 function, level {level})" in out, out
    assert out.count("same stdout and exit status as gcc's build") == 3
    assert "sum of squares = 338350" in out
    assert "round trip lossless" in out
    assert "ssa:phi" in out and " phi ^" in out
