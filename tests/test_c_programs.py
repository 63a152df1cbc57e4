"""The C corpus (tests/c/*.c) through the whole pipeline, held to gcc.

For every program:
  1. gcc builds it (`gcc -std=gnu11 -O0 -w`) and runs it: its stdout, stderr
     and exit status are the expected behaviour (computed at test time, once
     per program and session, never copied by hand);
  2. the stages run as separate processes joined by OS pipes,
        c2ast F.c | ast2cfg | tee F.cfg | cfg2ssa | tee F.ssa | ssa2son
          | tee F.son | son-lower-x64 | tee F.son-x64 | son2cfg | tee F.cfg-x64
          | regalloc-x64 > F.ra-x64
     and son2cfg F.son > F.sched (the generic son scheduled back to ssa),
     with the binary encoding between them (test_binary_pipeline) or JSON
     (test_json_pipeline);
  3. with the binary encoding, sonopt -O2 --verify-each --check-each
     optimizes the son module (and a second sonopt -O2 must leave its
     output unchanged), and son-lower-x64 | son2cfg | cfgopt -O2
     --verify-each --check-each | regalloc-x64 lower, schedule, optimize and
     allocate the result (cfg-x64-O2 is cfgopt's output, ra-x64-O2);
     --check-each runs the module under pipe-run after every pass
     application that changed something, and names the first that changes
     what the program prints or returns (common/tool/check_each.h);
  4. pipe-run runs each saved module (cfg, ssa, son, sched, son-x64,
     cfg-x64, ra-x64, and with binary son-O2, cfg-x64-O2 and ra-x64-O2; at
     ra-x64 it simulates the allocated registers and slots) and must print the
     same stdout and stderr and exit with the same status as gcc's build.
A program that pipe-run refuses as one it cannot interpret (inline assembly,
tests/c/asm_*.c) runs natively only (tests/test_native.py); here its modules
are built and verified at every level, without --check-each.
A failure names the stage or the levels that differ and prints shell
commands, to run from the repository root, that reproduce it.

The corpus itself is checked by tests/c/check-corpus (sanitizers, gcc and
clang, -O0 and -O2); see tests/c/README.md.
The whole file takes about a minute on 2 cores (each program's trip is 0.1 to
1 s). Environment: PIPE_C_JSON=subset runs the JSON test on every third
program only; PIPE_C_KEEP=DIR keeps the modules and outputs in DIR instead of
a temp dir.
"""
import os
import pathlib
import shlex
import sys

import pytest

from conftest import BUILD, ROOT

sys.path.insert(0, str(ROOT / "tests" / "c"))
import pipeline  # noqa: E402  (tests/c/pipeline.py)

CORPUS = ROOT / "tests" / "c"
PROGRAMS = sorted(CORPUS.glob("*.c"))
# PIPE_C_JSON=subset: every third program, a stable spread over the topics.
JSON_PROGRAMS = PROGRAMS[::3] if os.environ.get("PIPE_C_JSON") == "subset" else PROGRAMS


class GccOracle:
    """Builds and runs each program with gcc once per session."""

    def __init__(self, workdir):
        self.workdir = workdir
        self.cache = {}

    def expected(self, src):
        if src not in self.cache:
            want, problem = pipeline.gcc_behaviour(src, self.workdir / src.stem)
            if problem:
                pytest.fail(f"{src.name} is not a valid corpus program: {problem}")
            self.cache[src] = want
        return self.cache[src]


@pytest.fixture(scope="session")
def gcc(tmp_path_factory):
    return GccOracle(tmp_path_factory.mktemp("gcc"))


@pytest.fixture
def outdir(tmp_path):
    keep = os.environ.get("PIPE_C_KEEP")
    if not keep:
        return tmp_path
    path = pathlib.Path(keep)
    path.mkdir(parents=True, exist_ok=True)
    return path


def check_program(src, fmt, gcc, outdir):
    want = gcc.expected(src)
    pipe = pipeline.Pipeline(src, outdir, fmt=fmt, build=BUILD, schedule=True, x64=True)
    try:
        problem = pipe.run()
        if problem:
            pytest.fail(f"{src.name}: {problem}")
        # A program pipe-run refuses by name (inline assembly) runs natively
        # only (test_native.py): here every stage still builds and verifies
        # its modules, sonopt and cfgopt without --check-each.
        native = pipe.native_only()
        if fmt == "bin":
            # Once per program: sonopt -O2 --verify-each, lowered, scheduled
            # and allocated; son-O2, cfg-x64-O2 and ra-x64-O2 run as more levels.
            problem = pipe.optimize(("-O2", "--verify-each")) if native else pipe.optimize()
            if problem:
                pytest.fail(f"{src.name}: {problem}")
        if native:
            return
        levels = pipe.levels
        problems = pipe.compare(want, pipe.run_levels(levels))
    except pipeline.ToolMissing as e:
        pytest.fail(str(e))
    if problems:
        exe = shlex.quote(f"/tmp/{src.stem}")
        pytest.fail(f"{src.name}: {len(problems)} of {len(levels)} levels differ from gcc\n--- " +
                    "\n--- ".join(problems) +
                    f"\nreproduce the modules:\n  {pipe.command()}\n"
                    f"and gcc's behaviour:\n  gcc -std=gnu11 -O0 -w {pipeline.q(src)} -o {exe}"
                    f" && {exe}; echo \"exit $?\"")


@pytest.mark.parametrize("src", PROGRAMS, ids=lambda p: p.stem)
def test_binary_pipeline(src, gcc, outdir):
    check_program(src, "bin", gcc, outdir)


@pytest.mark.parametrize("src", JSON_PROGRAMS, ids=lambda p: p.stem)
def test_json_pipeline(src, gcc, outdir):
    check_program(src, "json", gcc, outdir)


def test_corpus_shape():
    """At least 100 programs, each 20 to 120 lines, each opening with a comment."""
    assert len(PROGRAMS) >= 100, f"only {len(PROGRAMS)} programs in tests/c"
    bad = []
    for src in PROGRAMS:
        text = src.read_text()
        lines = text.count("\n")
        if not 20 <= lines <= 120:
            bad.append(f"{src.name}: {lines} lines")
        if not text.startswith("/*"):
            bad.append(f"{src.name}: does not open with a comment saying what it covers")
    assert not bad, "\n".join(bad)
