"""The libFuzzer target of each stage (issue 10, section 1; scripts/fuzz-stage, scripts/fuzz_stage.cpp).

A smoke run of a second or two per stage, not a fuzzing campaign (long
runs: scripts/fuzz-stage STAGE SECONDS): the clang build with libFuzzer,
ASan and UBSan (build-fuzz/, the test suite's sanitizer build) must build
every target, each must run its seeds and new inputs without a finding, and
a module the stage does not read must be rejected rather than reach it.
The smoke run is the same on every machine: a fresh corpus of the seeds, a
fixed random seed and a number of runs, not a time (a time-bounded run
found a regalloc-x64 bug in one CI run of many; such finds belong to the
long runs, and the test suite must give the same answer each time).
"""
import os
import pathlib
import shutil
import subprocess

import pytest

from conftest import BUILD, ROOT

STAGES = ["ast2cfg", "cfg2ssa", "ssa2son", "sonopt", "son-lower-x64", "son2cfg", "cfgopt", "regalloc-x64"]
# Inputs per stage: about a second each (ast2cfg reads whole C programs'
# trees: about 100 a second).
RUNS = {"ast2cfg": 300}
DEFAULT_RUNS = 1500
FUZZ_BUILD = pathlib.Path(os.environ.get("PIPE_ASAN_BUILD_DIR") or ROOT / "build-fuzz")


def env():
    return dict(os.environ, PIPE_BUILD_DIR=str(BUILD), PIPE_ASAN_BUILD_DIR=str(FUZZ_BUILD), PIPE_FUZZ_FRESH="1")


def build_targets():
    """Builds every stage's target in the sanitizer build (scripts/lib.sh
    pipe_build_sanitized; scripts/test has built them already)."""
    if shutil.which("clang++-14") is None:
        pytest.fail("clang++-14 is not installed (Debian package clang-14; scripts/test installs it)")
    targets = " ".join(f"pipe-fuzz-stage-{s}" for s in STAGES)
    proc = subprocess.run(["bash", "-c", f'source "{ROOT}/scripts/lib.sh" && pipe_build_sanitized {targets}'],
                          env=env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert proc.returncode == 0, proc.stdout.decode(errors="replace")[-5000:]


def wrong_level_problem(tmp_path):
    """A son module given to cfg2ssa's target is rejected before the stage
    sees it: the target returns normally (no finding)."""
    son = subprocess.run([BUILD / "pipe-gen", "--level", "son", "--seed", "3"], stdout=subprocess.PIPE,
                         check=True).stdout
    (tmp_path / "son.bin").write_bytes(son)
    proc = subprocess.run([FUZZ_BUILD / "pipe-fuzz-stage-cfg2ssa", tmp_path / "son.bin"],
                          env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120)
    if proc.returncode != 0:
        return "a wrong-level module reached cfg2ssa:\n" + proc.stderr.decode(errors="replace")[-3000:]
    return None


def test_every_stage_target_builds_and_smoke_runs(tmp_path):
    """One test, not one per stage: the targets share build-fuzz/, which two
    xdist workers must not build at the same time."""
    build_targets()
    problems = []
    for stage in STAGES:
        runs = RUNS.get(stage, DEFAULT_RUNS)
        proc = subprocess.run([ROOT / "scripts" / "fuzz-stage", stage, "300", "-seed=1", f"-runs={runs}"], env=env(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
        err = proc.stderr.decode(errors="replace")
        if proc.returncode != 0 or "Done" not in err or "INITED" not in err:
            problems.append(f"{stage}: exit {proc.returncode}\n{err[-3000:]}")
    problem = wrong_level_problem(tmp_path)
    if problem:
        problems.append(problem)
    assert not problems, "\n\n".join(problems)
