"""pipe-gen at the x64 levels (son-x64, cfg-x64): random valid modules for
the verifier, son2cfg and the register allocator.

pipe-gen verifies what it writes (the tool contract), so exit 0 already
means the module keeps its level's contract; here: pipe-verify agrees,
son2cfg schedules every son-x64 module into a cfg-x64 module that verifies
(flags producers right before their users included), the generator uses
the x64 instruction forms it promises, and a seed always gives the same
module.
"""
import pytest

from conftest import run_tool


def generate(level, seed, *extra):
    return run_tool("pipe-gen", "--seed", seed, "--level", level, "--nodes", 800, "--functions", 3, *extra,
                    check=0).stdout


@pytest.mark.parametrize("seed", range(1, 7))
def test_son_x64_modules_verify_and_schedule(seed):
    module = generate("son-x64", seed)
    run_tool("pipe-verify", "-", input=module, check=0)
    scheduled = run_tool("son2cfg", "-", input=module, check=0).stdout
    text = run_tool("pipe-fmt", "-", "-f", "text", input=scheduled, check=0).stdout.decode()
    assert text.startswith("module cfg-x64\n")


@pytest.mark.parametrize("seed", range(1, 7))
def test_cfg_x64_modules_verify(seed):
    run_tool("pipe-verify", "-", input=generate("cfg-x64", seed), check=0)


def test_generated_forms_and_determinism():
    text = generate("cfg-x64", 3, "-f", "text").decode()
    assert text == generate("cfg-x64", 3, "-f", "text").decode()
    for form in ("x64:argreg", "x64:movi", "x64:setcc", "x64:jcc", "x64:ret", "x64:call", "x64:store",
                 "x64:load", "x64:stackslot", " = phi ", "x64:cmp", "x64:addi"):
        assert form in text, form
    assert "param" not in text and " = if " not in text and "return" not in text


def test_runnable_is_refused_at_x64_levels():
    proc = run_tool("pipe-gen", "--runnable", "--level", "son-x64", check=2)
    assert b"--runnable writes son, cfg or ssa modules" in proc.stderr
