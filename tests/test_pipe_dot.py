"""pipe-dot (issue 10, section 4): its output parses with Graphviz at every level."""
import shutil
import subprocess

import pytest

from conftest import ROOT, run_tool

FIB = ROOT / "examples" / "c" / "fib.c"


@pytest.fixture(scope="module", autouse=True)
def need_graphviz():
    if shutil.which("dot") is None:
        pytest.fail("Graphviz is not installed (Debian package graphviz; scripts/test installs it)")


def fib_levels(tmp_path):
    mods = {"ast": run_tool("c2ast", FIB, check=0).stdout}
    for stage, level in (("ast2cfg", "cfg"), ("cfg2ssa", "ssa"), ("ssa2son", "son"), ("son-lower-x64", "son-x64"),
                         ("son2cfg", "cfg-x64"), ("regalloc-x64", "ra-x64")):
        mods[level] = run_tool(stage, input=list(mods.values())[-1], check=0).stdout
    return mods


def dot_parses(text):
    proc = subprocess.run(["dot", "-Tsvg"], input=text, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    assert proc.returncode == 0 and b"<svg" in proc.stdout, proc.stderr.decode()
    assert proc.stderr == b"", proc.stderr.decode()
    return proc.stdout


def test_every_level_parses_with_graphviz(tmp_path):
    for level, module in fib_levels(tmp_path).items():
        text = run_tool("pipe-dot", "-", "--source-dir", FIB.parent, input=module, check=0).stdout
        dot_parses(text)
        # blocks as clusters exactly at the cfg levels
        assert (b"subgraph cluster_f0_b0" in text) == (level in ("cfg", "ssa", "cfg-x64", "ra-x64")), level
        # each node's source line in its tooltip
        assert b'tooltip="line 5:' in text and b"if (n < 2) return n;" in text, level
        if level != "ast":
            assert b'color="#cc0000", style=bold' in text  # control edges
            assert b'color="#1f5fbf", style=dashed' in text  # memory edges


def test_registers_and_slots_at_ra_x64(tmp_path):
    """fib keeps n in a callee-saved register across its calls, so it saves
    that register to a slot: both show in the node labels."""
    text = run_tool("pipe-dot", "-", input=fib_levels(tmp_path)["ra-x64"], check=0).stdout.decode()
    labels = [line.split('label="', 1)[1].split('"', 1)[0] for line in text.splitlines() if "label=\"i" in line]
    assert any(label.startswith("i") and " in rbx" in label for label in labels), text
    assert any("x64:spill" in label and " in s0" in label for label in labels), text
    assert any("x64:reload" in label and " in r" in label for label in labels), text


@pytest.mark.parametrize("level", ["cfg", "ssa", "son", "son-x64", "cfg-x64"])
def test_generated_modules_parse(level):
    shapes = [["--nodes", 300, "--functions", 2]] + ([["--runnable"]] if level in ("cfg", "ssa", "son") else [])
    for args in shapes:
        module = run_tool("pipe-gen", "--level", level, *args, check=0).stdout
        dot_parses(run_tool("pipe-dot", input=module, check=0).stdout)


def test_svg_through_graphviz_and_function_filter(tmp_path):
    son = fib_levels(tmp_path)["son"]
    out = tmp_path / "fib.svg"
    run_tool("pipe-dot", "-", "-T", "svg", "-o", out, "--function", "fib", input=son, check=0)
    svg = out.read_text()
    assert svg.startswith("<?xml") and 'id="f0_i0"' in svg and "cluster_f1" not in svg and "fib" in svg
    proc = run_tool("pipe-dot", "-", "--function", "nope", input=son, check=1)
    assert b"no function named 'nope'" in proc.stderr
    run_tool("pipe-dot", "-", "-T", "no-such-format", input=son, check=2)
