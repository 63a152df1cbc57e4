"""pipe-gen --runnable and pipe-fuzz (issue 10, section 1).

The runnable programs must verify, run cleanly under pipe-run and mean the
same at cfg, ssa and son; pipe-fuzz must pass the real stages and find each
bug planted in tests/fuzz/buggy-stage, with a replay that reproduces it.
"""
import os
import subprocess

import pytest

from conftest import BUILD, ROOT, run_tool, tool_path

BUGGY = ROOT / "tests" / "fuzz" / "buggy-stage"


def fuzz(*args, cwd, check=None, timeout=300):
    env = dict(os.environ, PIPE_BUILD_DIR=str(BUILD))
    proc = subprocess.run([tool_path("pipe-fuzz"), *map(str, args)], cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout)
    if check is not None:
        assert proc.returncode == check, proc.stderr.decode(errors="replace")
    return proc


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_runnable_program_means_the_same_at_every_level(seed):
    behaviours = set()
    for level in ("cfg", "ssa", "son"):
        module = run_tool("pipe-gen", "--runnable", "--seed", seed, "--level", level, check=0).stdout
        assert module == run_tool("pipe-gen", "--runnable", "--seed", seed, "--level", level, check=0).stdout
        run_tool("pipe-verify", "-", input=module, check=0)
        proc = run_tool("pipe-run", "-", input=module)
        assert proc.stderr == b"", proc.stderr.decode()
        assert 16 <= proc.returncode <= 31 and proc.stdout.count(b"\n") >= 1
        behaviours.add((proc.returncode, proc.stdout))
    assert len(behaviours) == 1


def test_runnable_programs_differ_by_seed():
    outs = {run_tool("pipe-run", "-", input=run_tool("pipe-gen", "--runnable", "--seed", s, check=0).stdout).stdout
            for s in range(1, 6)}
    assert len(outs) == 5


def test_runnable_excludes_exotic():
    run_tool("pipe-gen", "--runnable", "--exotic", check=2)


def test_real_stages_pass(tmp_path):
    proc = fuzz("--runs", 12, "--nodes", 600, "--", "cfg2ssa", "|", "ssa2son", cwd=tmp_path, check=0)
    assert b"12 runs, 0 failures, 0 skipped" in proc.stderr
    assert not (tmp_path / "pipe-fuzz-failures").exists()


def test_csmith_inputs_for_c2ast(tmp_path):
    proc = fuzz("--runs", 2, "--seed", 16, "--", "c2ast", "|", "ast2cfg", cwd=tmp_path, check=0)
    assert b"2 runs, 0 failures" in proc.stderr


def test_finds_planted_miscompile_and_replay_reproduces_it(tmp_path):
    proc = fuzz("--runs", 10, "--", BUGGY, "xor", cwd=tmp_path, check=1)
    err = proc.stderr.decode()
    assert "FAIL: behaviour differs: pipe-run on the input vs pipe-run on the output" in err
    assert "first difference at stdout line" in err
    saved = sorted((tmp_path / "pipe-fuzz-failures").iterdir())
    assert saved, err
    case = saved[0]
    assert {"replay.sh", "report.txt", "out1.0.buggy-stage"} <= {p.name for p in case.iterdir()}
    replay = subprocess.run([case / "replay.sh"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(os.environ, PIPE_BUILD_DIR=str(BUILD)), timeout=120)
    assert replay.returncode == 1
    seed = case.name.split("-")[1]
    assert f"seed {seed}: FAIL: behaviour differs".encode() in replay.stderr
    # The saved input is the seed's input: the stage on it misbehaves by hand too.
    inputs = [p for p in case.iterdir() if p.name.startswith("input.")]
    want = run_tool("pipe-run", inputs[0])
    with open(inputs[0], "rb") as f:
        out = subprocess.run([BUGGY, "xor"], stdin=f, stdout=subprocess.PIPE, check=True,
                             env=dict(os.environ, PIPE_BUILD_DIR=str(BUILD))).stdout
    assert run_tool("pipe-run", "-", input=out).stdout != want.stdout


@pytest.mark.parametrize("bug,message", [
    ("crash", "FAIL: buggy-stage exit 3"),
    ("random", "FAIL: buggy-stage is not deterministic"),
    ("unverified", "FAIL: buggy-stage's output does not verify"),
])
def test_finds_each_kind_of_planted_bug(tmp_path, bug, message):
    proc = fuzz("--runs", 6, "--", BUGGY, bug, cwd=tmp_path, check=1)
    assert message.encode() in proc.stderr


def test_input_level_is_asked_of_the_stage(tmp_path):
    # cfg2ssa reads cfg: the replay line of the failure after it says so.
    proc = fuzz("--runs", 6, "--", "cfg2ssa", "|", BUGGY, "xor", cwd=tmp_path, check=1)
    assert b"--level cfg" in proc.stderr
    assert b"the first stage whose output differs: buggy-stage" not in proc.stderr  # it is the last stage


def test_blames_the_first_stage_that_changes_behaviour(tmp_path):
    proc = fuzz("--runs", 6, "--", "cfg2ssa", "|", BUGGY, "xor", "|", "ssa2son", cwd=tmp_path, check=1)
    assert b"the first stage whose output differs: buggy-stage" in proc.stderr


@pytest.mark.parametrize("args", [[], ["--"], ["--", "no-such-stage"], ["--runs", 1, "--time", 1, "--", "cfg2ssa"],
                                  ["--", "cfg2ssa", "|"]])
def test_usage_errors(tmp_path, args):
    fuzz(*args, cwd=tmp_path, check=2)


def test_time_limit(tmp_path):
    proc = fuzz("--time", 1, "--", "ssa2son", cwd=tmp_path, check=0)
    assert b" runs, 0 failures" in proc.stderr
