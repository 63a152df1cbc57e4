"""The README's first command (scripts/demo) works and shows the example:
compiled natively by pipecc (with the pipeline it ran), and taken apart."""
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
    assert out.count("same stdout and exit status as gcc's build") == 4
    # The native program: pipecc -v showed the pipeline it ran, one process per stage.
    assert "same stdout and exit status as gcc's build (native, x86-64)" in out, out
    pipe_line = next(line for line in out.splitlines() if " | " in line and "codegen-x64" in line and "-f obj" in line)
    stages = [part.split()[0].rsplit("/", 1)[-1] for part in pipe_line.split(" | ")]
    assert stages == ["c2ast", "ast2cfg", "cfg2ssa", "ssa2son", "sonopt", "son-lower-x64", "son2cfg", "cfgopt",
                      "regalloc-x64", "codegen-x64"], pipe_line
    assert "sum of squares = 338350" in out
    assert "round trip lossless" in out
    assert "ssa:phi" in out and " phi ^" in out
