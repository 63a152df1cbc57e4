"""pipe-reduce (issue 10, section 3): shrinks a large module with a planted
property to a handful of nodes, keeping it valid; the tool contract."""
import os
import stat

import pytest

from conftest import BUILD, ROOT, run_tool

BUGGY = ROOT / "tests" / "fuzz" / "buggy-stage"


def script(tmp_path, name, body):
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def node_lines(text):
    return [l for l in text.splitlines() if l.strip().startswith("i") and " = " in l]


@pytest.mark.parametrize("level,nodes", [("son", 1500), ("cfg", 1500), ("ssa", 1500)])
def test_shrinks_to_the_planted_property(tmp_path, level, nodes):
    big = tmp_path / "big.bin"
    run_tool("pipe-gen", "--runnable", "--seed", 3, "--nodes", nodes, "--functions", 4, "--level", level,
             "-o", big, check=0)
    test = script(tmp_path, "has-udiv", f"{BUILD}/pipe-fmt \"$1\" -f text | grep -q ' = udiv '\n")
    before = len(node_lines(run_tool("pipe-fmt", big, "-f", "text", check=0).stdout.decode()))
    small = tmp_path / "small.txt"
    proc = run_tool("pipe-reduce", "--test", test, big, "-o", small, "-f", "text", check=0, timeout=300)
    assert b"pipe-reduce: nodes:" in proc.stderr  # progress lines
    text = small.read_text()
    run_tool("pipe-verify", small, check=0)
    after = node_lines(text)
    assert before > 400 and len(after) <= 12, text
    assert any(" = udiv " in l for l in after)
    assert text.count("pipeline") == 1 and "data " not in text


def test_shrinks_a_miscompile_to_the_culprit(tmp_path):
    module = tmp_path / "prog.bin"
    run_tool("pipe-gen", "--runnable", "--seed", 4, "--level", "son", "-o", module, check=0)
    test = script(tmp_path, "still-wrong", f"""
want=$({BUILD}/pipe-run "$1" 2>/dev/null; echo "exit $?")
case "$want" in *"exit 70"|*"exit 1"|*"exit 2"|*"exit 3") exit 1 ;; esac
got=$({BUGGY} xor < "$1" | {BUILD}/pipe-run - 2>/dev/null; echo "exit $?")
[ "$want" != "$got" ]
""")
    env = dict(os.environ, PIPE_BUILD_DIR=str(BUILD))
    small = tmp_path / "small.txt"
    run_tool("pipe-reduce", "-q", "--test", test, module, "-o", small, "-f", "text", check=0, timeout=300)
    text = small.read_text()
    assert " = xor " in text and len(node_lines(text)) <= 30, text
    import subprocess
    assert subprocess.run([str(test), str(small)], env=env).returncode == 0


def test_uninteresting_input_and_usage(tmp_path):
    module = tmp_path / "m.bin"
    run_tool("pipe-gen", "--runnable", "-o", module, check=0)
    proc = run_tool("pipe-reduce", "--test", "false", module, "-o", tmp_path / "out", check=1)
    assert b"not interesting" in proc.stderr and not (tmp_path / "out").exists()
    run_tool("pipe-reduce", module, check=2)  # no --test
    ast = run_tool("c2ast", ROOT / "examples" / "c" / "fib.c", check=0).stdout
    (tmp_path / "fib.ast").write_bytes(ast)
    run_tool("pipe-reduce", "--test", "true", tmp_path / "fib.ast", check=1)
