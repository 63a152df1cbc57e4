"""The examples under examples/c/ and their saved intermediates.

Each examples/c/NAME.c has NAME.ast.txt, NAME.cfg.txt, NAME.ssa.txt and
NAME.son.txt: the printable output of c2ast, ast2cfg, cfg2ssa and ssa2son,
each stage run on the previous saved file (run from examples/c/, as
scripts/update-examples does, so the file names in the modules match).
They must be current, and pipe-run on each graph level must print what the
gcc build prints and exit with its status.
"""
import subprocess

import pytest

from conftest import ROOT, run_tool, tool_path

EXAMPLES = ROOT / "examples" / "c"
STEPS = [("c2ast", "c", "ast"), ("ast2cfg", "ast.txt", "cfg"), ("cfg2ssa", "cfg.txt", "ssa"),
         ("ssa2son", "ssa.txt", "son")]


def example_names():
    return sorted(p.stem for p in EXAMPLES.glob("*.c"))


@pytest.mark.parametrize("name", example_names())
@pytest.mark.parametrize("stage,source_ext,level", STEPS, ids=[s[0] for s in STEPS])
def test_saved_intermediate_is_current(name, stage, source_ext, level):
    saved = EXAMPLES / f"{name}.{level}.txt"
    assert saved.exists(), f"{saved} is missing; run scripts/update-examples"
    proc = subprocess.run([tool_path(stage), f"{name}.{source_ext}", "-f", "text"], cwd=EXAMPLES,
                          capture_output=True)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    assert proc.stdout.decode() == saved.read_text(), (
        f"examples/c/{saved.name} is stale: run scripts/update-examples and review the diff")


@pytest.fixture(scope="module")
def gcc_results(tmp_path_factory):
    results = {}
    out = tmp_path_factory.mktemp("gcc")
    for name in example_names():
        exe = out / name
        subprocess.run(["gcc", "-std=gnu11", "-O0", "-w", str(EXAMPLES / f"{name}.c"), "-o", str(exe)], check=True)
        proc = subprocess.run([str(exe)], capture_output=True, timeout=30)
        results[name] = (proc.stdout, proc.returncode)
    return results


@pytest.mark.parametrize("name", example_names())
@pytest.mark.parametrize("level", ["cfg", "ssa", "son"])
def test_saved_graph_runs_like_gcc(name, level, gcc_results):
    proc = run_tool("pipe-run", EXAMPLES / f"{name}.{level}.txt")
    stdout, status = gcc_results[name]
    assert (proc.stdout, proc.returncode) == (stdout, status), proc.stderr.decode(errors="replace")
