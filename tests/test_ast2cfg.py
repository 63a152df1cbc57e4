"""ast2cfg: the ast level to the cfg level.

The golden outputs of tests/stages/ast2cfg/ (test_stage_golden.py) show the
translation construct by construct; this file checks the tool's contract:
bad input is refused with a diagnostic that names the node (with and
without the input verifier), the output verifies and is deterministic, deep
trees need no deep call stack, and - once the other stages are built - the
translated programs run.
"""
import pathlib
import shutil
import subprocess

import pytest

from conftest import BUILD, ROOT, run_tool

CASES = sorted((ROOT / "tests" / "stages" / "ast2cfg").glob("*.in.txt"))


def ast_module(body, sig="() -> i32", header=""):
    return f"module ast\n{header}pipeline f{sig} {{\n{body}}}\n".encode()


def refused(tmp_path, text, *args):
    """Runs ast2cfg into a file; checks it fails with no file left behind."""
    out = tmp_path / "out.txt"
    proc = run_tool("ast2cfg", "-", "-f", "text", "-o", out, *args, input=text)
    assert proc.returncode == 1, proc.stderr.decode()
    assert not out.exists()
    return proc.stderr.decode()


def test_wrong_level_is_refused(tmp_path):
    text = (ROOT / "tests" / "verify" / "ok_cfg_slots.txt").read_bytes()
    stderr = refused(tmp_path, text)
    assert "ast2cfg: <stdin>: error: expected a module at level 'ast', found level 'cfg'" in stderr


def test_input_failing_the_ast_contract_names_the_node(tmp_path):
    text = ast_module("  i0 = ast:function i1\n  i1 = ast:block i2\n  i2 = ast:break\n")
    stderr = refused(tmp_path, text)
    assert "function 'f': i2: error: ast:break is not inside a loop or switch" in stderr
    assert "1 error in the input module" in stderr


# Input the verifier would refuse, given with --no-verify: the translation
# checks what it depends on itself, and says so at the node (exit 1), never
# crashes, loops or writes a partial module.
NO_VERIFY_CASES = {
    "shared node": ("  i0 = ast:function i1\n  i1 = ast:block i2, i2\n  i2 = ast:nop\n",
                    "i2: error: node is reached twice"),
    "cycle": ("  i0 = ast:function i1\n  i1 = ast:block i2\n  i2 = ast:block i1\n",
              "i1: error: node is reached twice"),
    "no root": ("  i0 = ast:return\n", "graph: error: the function has no ast:function root"),
    "two roots": ("  i0 = ast:function i2\n  i1 = ast:function i2\n  i2 = ast:nop\n",
                  "i1: error: second ast:function"),
    "break outside": ("  i0 = ast:function i1\n  i1 = ast:break\n", "i1: error: ast:break is not inside"),
    "continue in switch": ("  i0 = ast:function i1\n  i1 = ast:switch \"i32\", i2, i3\n"
                           "  i2 = ast:const \"i32\", 0\n  i3 = ast:continue\n",
                           "i3: error: ast:continue is not inside a loop"),
    "case outside": ("  i0 = ast:function i1\n  i1 = ast:case 1, i2\n  i2 = ast:nop\n",
                     "i1: error: 'ast:case' is not inside a switch body"),
    "goto nowhere": ("  i0 = ast:function i1\n  i1 = ast:goto \"x\"\n",
                     "i1: error: ast:goto names no label of the function: 'x'"),
    "label twice": ("  i0 = ast:function i1\n  i1 = ast:block i2, i4\n  i2 = ast:label \"L\", i3\n"
                    "  i3 = ast:nop\n  i4 = ast:label \"L\", i5\n  i5 = ast:nop\n",
                    "i4: error: label 'L' is defined twice"),
    "label in expression": ("  i0 = ast:function i1\n  i1 = ast:return i2\n  i2 = ast:seq i3, i5\n"
                            "  i3 = ast:label \"L\", i4\n  i4 = ast:nop\n  i5 = ast:const \"i32\", 1\n",
                            "i3: error: 'ast:label' is inside an expression"),
    "void value": ("  i0 = ast:function i1\n  i1 = ast:return i2\n  i2 = ast:call \"void\", i3\n"
                   "  i3 = ast:symaddr \"f\"\n",
                   "i2: error: the value of a void 'ast:call' is used"),
    "statement as value": ("  i0 = ast:function i1\n  i1 = ast:return i2\n  i2 = ast:nop\n",
                           "i2: error: 'ast:nop' is a statement; a value is expected here"),
    "unknown ast:op": ("  i0 = ast:function i1\n  i1 = ast:return i2\n  i2 = ast:op \"load\", \"i32\", i3\n"
                       "  i3 = ast:const \"i32\", 1\n", "i2: error: ast:op names 'load'"),
    "ast:op arity": ("  i0 = ast:function i1\n  i1 = ast:return i2\n  i2 = ast:op \"add\", \"i32\", i3\n"
                     "  i3 = ast:const \"i32\", 1\n", "i2: error: ast:op 'add' takes 1 type literal(s) and 2 input(s)"),
    "bad type literal": ("  i0 = ast:function i1\n  i1 = ast:return i2\n  i2 = ast:const \"i33\", 1\n",
                         "i2: error: literal 0 must be a value type"),
    "param out of range": ("  i0 = ast:function i1\n  i1 = ast:return i2\n  i2 = ast:param \"i32\", 3\n",
                           "i2: error: ast:param index is out of range"),
    "graph opcode": ("  i0 = ast:function i1\n  i1 = ast:return i2\n  i2 = const \"i32\", 1\n",
                     "i2: error: opcode 'const' is not an ast-level opcode"),
    "foreign opcode": ("  i0 = ast:function i1\n  i1 = ast:return i2\n  i2 = ast:bogus\n",
                       "i2: error: opcode 'ast:bogus' is not an ast-level opcode"),
    "wrong input count": ("  i0 = ast:function i1\n  i1 = ast:if i2\n  i2 = ast:const \"i32\", 1\n",
                          "i1: error: 'ast:if' takes 0 literal(s) and 2 or 3 input(s)"),
}


@pytest.mark.parametrize("name", sorted(NO_VERIFY_CASES))
def test_bad_input_without_the_verifier(name, tmp_path):
    body, expected = NO_VERIFY_CASES[name]
    stderr = refused(tmp_path, ast_module(body), "--no-verify")
    assert f"ast2cfg: <stdin>: function 'f': {expected}" in stderr
    # With the verifier the same input is refused as well (never translated).
    refused(tmp_path, ast_module(body))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_output_verifies_and_is_deterministic(path, tmp_path):
    outputs = []
    for run in range(2):
        out = tmp_path / f"out{run}.bin"
        run_tool("ast2cfg", path, "-o", out, "--no-verify", check=0)
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    verified = run_tool("pipe-verify", tmp_path / "out0.bin")
    assert verified.returncode == 0, verified.stderr.decode()
    assert b"level cfg" in verified.stdout + verified.stderr


def test_encodings_give_the_same_module(tmp_path):
    case = ROOT / "tests" / "stages" / "ast2cfg" / "switch.in.txt"
    json_in = tmp_path / "in.json"
    run_tool("pipe-fmt", case, "-f", "json", "-o", json_in, check=0)
    from_text = run_tool("ast2cfg", case, "-f", "text", check=0).stdout
    from_json = run_tool("ast2cfg", json_in, "-f", "text", check=0).stdout
    assert from_text == from_json


def deep_function(depth):
    """return 1 + (1 + (... + 0)); and `depth` nested ifs around it."""
    lines = ["  i0 = ast:function i1"]
    nid = 1
    # nested ifs
    for _ in range(depth):
        lines.append(f"  i{nid} = ast:if i{nid + 1}, i{nid + 2}")
        lines.append(f"  i{nid + 1} = ast:const \"i32\", 1")
        nid += 2
    lines.append(f"  i{nid} = ast:return i{nid + 1}")
    nid += 1
    for _ in range(depth):
        lines.append(f"  i{nid} = ast:op \"add\", \"i32\", i{nid + 1}, i{nid + 2}")
        lines.append(f"  i{nid + 1} = ast:const \"i32\", 1")
        nid += 2
    lines.append(f"  i{nid} = ast:const \"i32\", 0")
    return ast_module("\n".join(lines) + "\n")


def test_deep_trees_need_no_deep_stack():
    depth = 100_000
    proc = run_tool("ast2cfg", "-", "-f", "bin", input=deep_function(depth), timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    summary = run_tool("pipe-verify", "-", input=proc.stdout)
    assert summary.returncode == 0


# ---- the programs run (once pipe-run exists) --------------------------------
# Each golden input's leading comment ends with the C program it translates
# (after the line "The C program ..."). gcc builds that program at test time;
# its stdout and exit status must be pipe-run's on ast2cfg's output.


def c_program(path):
    lines = []
    started = False
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        if started:
            lines.append(line[4:] if line.startswith("#   ") else "")
        elif line.startswith("# The C program"):
            started = True
    assert lines, f"{path.name}: no C program in the leading comment"
    return "\n".join(lines) + "\n"


def have(tool):
    return (pathlib.Path(BUILD) / tool).exists()


def gcc_run(source, tmp_path):
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed")
    c_file, exe = tmp_path / "prog.c", tmp_path / "prog"
    c_file.write_text(source)
    subprocess.run(["gcc", "-w", "-O0", "-o", str(exe), str(c_file)], check=True, timeout=60)
    return subprocess.run([str(exe)], stdout=subprocess.PIPE, timeout=60)


@pytest.mark.skipif(not have("pipe-run"), reason="pipe-run is not built yet")
@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_cfg_output_runs_like_gcc(path, tmp_path):
    native = gcc_run(c_program(path), tmp_path)
    out = tmp_path / "out.bin"
    run_tool("ast2cfg", path, "-o", out, check=0)
    ran = run_tool("pipe-run", out)
    if b"__asm__" in c_program(path).encode():
        # Inline assembly runs natively only: pipe-run refuses it by name.
        assert ran.returncode == 1 and b"cannot interpret inline assembly" in ran.stderr, ran.stderr.decode()
        assert native.returncode == 0
        return
    assert (ran.returncode, ran.stdout) == (native.returncode, native.stdout), ran.stderr.decode()
