"""cfgopt: the flags it shares with sonopt, determinism, idempotence,
--bisect-limit, bad input, and pipe-run's result on C programs before and
after `cfgopt -O2 --verify-each`.

The per-pass goldens are tests/stages/cfgopt/*.in.txt (their `# args:` line
names the pass). The inputs here are cfg-x64 modules made from C programs
by the whole front and middle of the pipeline, built once per test module.
"""
import re
import subprocess

import pytest

from conftest import ROOT, run_tool, tool_path

CORPUS = ROOT / "tests" / "c"
STAGES = ROOT / "tests" / "stages" / "cfgopt"
# A lean subset of the C corpus with loops, branches on booleans, switches,
# calls and structs (the whole corpus goes through cfgopt in tests/c/pipeline.py
# when that has the cfg-x64 level).
PROGRAMS = ["ctrl_loops", "switch_state_machine", "ctrl_short_circuit", "arith_bool", "algo_sieve", "algo_sorts",
            "goto_state_machine", "algo_bst"]


def cfg_x64(src, out):
    """c2ast | ... | sonopt -O2 | son-lower-x64 | son2cfg > out; None if a stage is missing."""
    stages = [[tool_path("c2ast"), str(src)], [tool_path("ast2cfg")], [tool_path("cfg2ssa")], [tool_path("ssa2son")],
              [tool_path("sonopt"), "-O2"], [tool_path("son-lower-x64")], [tool_path("son2cfg")]]
    data = b""
    for argv in stages:
        proc = subprocess.run(argv + (["-"] if data else []) + ["-f", "bin"], input=data or None,
                              capture_output=True, timeout=60)
        assert proc.returncode == 0, f"{argv[0]} on {src}: {proc.stderr.decode()}"
        data = proc.stdout
    out.write_bytes(data)
    return out


def corpus_programs():
    found = [CORPUS / f"{name}.c" for name in PROGRAMS if (CORPUS / f"{name}.c").exists()]
    if len(found) < 4:   # names changed: take the first programs in order
        found = sorted(CORPUS.glob("*.c"))[:8]
    return found


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    d = tmp_path_factory.mktemp("cfgopt")
    return {src.stem: cfg_x64(src, d / f"{src.stem}.cfgx64") for src in corpus_programs()}


def cfgopt_text(*args, check=0):
    return run_tool("cfgopt", *args, "-f", "text", check=check)


def behaviour(path):
    proc = subprocess.run([tool_path("pipe-run"), str(path)], capture_output=True, timeout=60)
    return proc.returncode, proc.stdout


def test_list_passes_shows_the_computed_schedule():
    out = run_tool("cfgopt", "--list-passes", check=0).stdout.decode()
    assert "schedule at -O0:\n" in out, out
    assert "schedule at -O1: remove-empty-blocks merge-blocks peephole flags-from-arith invert-branches\n" in out, out
    assert ("schedule at -O2: reuse-flags thread-jumps loop-rotate remove-empty-blocks merge-blocks peephole flags-from-arith "
            "invert-branches\n") in out, out
    assert "test-miscompile  [test only, function]" in out, out


def test_pipecc_passes_the_level_through():
    # pipecc runs `cfgopt -ON` at -O1 and above: the flag must exist.
    for level in ("-O0", "-O1", "-O2"):
        run_tool("cfgopt", level, "--list-passes", check=0)


def test_corpus_behaviour_unchanged_and_verified_after_each_pass(modules, tmp_path):
    """Every program: cfgopt -O2 --verify-each, and pipe-run gives the same
    stdout and status as on son2cfg's output; some pass changed something."""
    changed = 0
    for name, path in modules.items():
        out = tmp_path / f"{name}.opt"
        proc = run_tool("cfgopt", path, "-O2", "--verify-each", "--stats", "-o", out, "-f", "bin", check=0)
        total = [line for line in proc.stderr.decode().splitlines() if line.startswith("total")][0]
        changed += int(total.split()[3])
        assert behaviour(out) == behaviour(path), name
    assert changed > 0, "cfgopt changed nothing on the whole subset"


def test_each_pass_alone_verifies_and_keeps_behaviour(modules, tmp_path):
    passes = ["reuse-flags", "thread-jumps", "remove-empty-blocks", "merge-blocks", "peephole", "flags-from-arith",
              "invert-branches"]
    for name, path in list(modules.items())[:4]:
        want = behaviour(path)
        for p in passes:
            out = tmp_path / f"{name}.{p}"
            run_tool("cfgopt", path, f"--passes={p}", "--verify-each", "-o", out, "-f", "bin", check=0)
            assert behaviour(out) == want, f"{name}, pass {p}"


def test_O2_is_deterministic_and_idempotent(modules, tmp_path):
    for name, path in modules.items():
        once = cfgopt_text(path, "-O2").stdout
        assert cfgopt_text(path, "-O2").stdout == once, name
        proc = subprocess.run([tool_path("cfgopt"), "-", "-O2", "-f", "text", "--stats"], input=once,
                              capture_output=True, timeout=60)
        assert proc.returncode == 0, proc.stderr.decode()
        assert proc.stdout == once, name
        total = [line for line in proc.stderr.decode().splitlines() if line.startswith("total")][0]
        assert total.split()[3] == "0", f"{name}: {total}"


def test_O0_changes_nothing(modules):
    path = next(iter(modules.values()))
    assert cfgopt_text(path, "-O0").stdout == run_tool("pipe-fmt", path, "-f", "text", check=0).stdout


def test_print_after_and_print_changed(modules):
    path = next(iter(modules.values()))
    err = cfgopt_text(path, "--print-after=merge-blocks").stderr.decode()
    assert "# after merge-blocks on 'main'" in err and "# after peephole" not in err, err
    err = cfgopt_text(path, "--print-changed").stderr.decode()
    headers = [line for line in err.splitlines() if line.startswith("# ")]
    assert headers and all(" changed '" in h and " 0 changes" not in h for h in headers), err
    assert any(line.startswith(("  - ", "  + ", "  ! ")) for line in err.splitlines()), err


def test_bisect_limit_finds_the_wrong_application(modules, tmp_path):
    """test-miscompile among right passes: the smallest --bisect-limit whose
    output misbehaves names it."""
    name, path = next((n, p) for n, p in modules.items())
    passes = "--passes=remove-empty-blocks,merge-blocks,test-miscompile,peephole"
    want = behaviour(path)
    full = tmp_path / "full"
    proc = run_tool("cfgopt", path, passes, "--bisect-limit=1000", "-o", full, "-f", "bin", check=0)
    assert b"beyond the last application" in proc.stderr
    assert behaviour(full) != want, "the test pass should miscompile " + name
    for n in range(0, 1000):
        out = tmp_path / f"n{n}"
        proc = run_tool("cfgopt", path, passes, f"--bisect-limit={n}", "-o", out, "-f", "bin", check=0)
        if behaviour(out) != want:
            assert f"bisect: application {n} is test-miscompile on function '" in proc.stderr.decode()
            return
    pytest.fail("no limit misbehaved")


def test_check_each_names_the_application_that_changes_behaviour(modules, tmp_path):
    """cfgopt --check-each (the pass manager's, as sonopt's): pipe-run at
    cfg-x64 after every application that changed something; it stops at
    test-miscompile's and names its --bisect-limit number."""
    name, path = next((n, p) for n, p in modules.items())
    passes = "--passes=remove-empty-blocks,merge-blocks,test-miscompile,peephole"
    out = tmp_path / "out"
    err = run_tool("cfgopt", path, passes, "--check-each", "-o", out, check=3).stderr.decode()
    m = re.search(r"pass 'test-miscompile' \(application (\d+), round 1\) on function '\w+' changed what the "
                  r"program does: .*Reproduce with --bisect-limit=(\d+)", err)
    assert m and m.group(1) == m.group(2), err
    assert not out.exists()
    limited = tmp_path / "limited"
    run_tool("cfgopt", path, passes, f"--bisect-limit={m.group(1)}", "-o", limited, "-f", "bin", check=0)
    assert behaviour(limited) != behaviour(path)
    checked = run_tool("cfgopt", path, "-O2", "--check-each", "-f", "text").stdout
    assert checked == run_tool("cfgopt", path, "-O2", "-f", "text").stdout


def test_bad_input_and_usage():
    son = ROOT / "examples" / "c" / "loop.son.txt"
    proc = cfgopt_text(son, check=1)
    assert b"expected a module at level 'cfg-x64'" in proc.stderr, proc.stderr
    golden_input = sorted(STAGES.glob("*.in.txt"))[0]
    assert b"unknown pass 'nosuch'" in cfgopt_text(golden_input, "--passes=nosuch", check=2).stderr
    cfgopt_text(golden_input, "-O3", check=2)
    cfgopt_text(golden_input, "--print-after=nosuch", check=2)


def test_verify_each_accepts_every_pass_on_generated_graphs():
    """pipe-gen's random cfg-x64 modules through each pass alone and through
    -O2, verified after every application."""
    passes = ["reuse-flags", "thread-jumps", "remove-empty-blocks", "merge-blocks", "peephole", "flags-from-arith",
              "invert-branches"]
    for seed in range(1, 7):
        module = run_tool("pipe-gen", "--seed", seed, "--level", "cfg-x64", "--nodes", 200, "-f", "bin", check=0).stdout
        for p in [f"--passes={p}" for p in passes] + ["-O2"]:
            proc = subprocess.run([tool_path("cfgopt"), "-", p, "--verify-each", "-f", "bin"], input=module,
                                  capture_output=True, timeout=60)
            assert proc.returncode == 0, f"seed {seed}, {p}:\n{proc.stderr.decode()}"


def test_flags_from_arith_runs_the_same_at_cfg_x64_and_allocated(tmp_path):
    """The golden's input and output under pipe-run, as they are and after
    regalloc-x64 (where x64:flagsof reads the flags its definer wrote, and
    the allocation checker follows them): four runs, one result."""
    golden = STAGES / "flags-from-arith.in.txt"
    out = tmp_path / "out.cfgx64"
    run_tool("cfgopt", golden, "--passes=flags-from-arith", "-o", out, "-f", "bin", check=0)
    results = set()
    for name, path in (("in", golden), ("out", out)):
        ra = tmp_path / f"{name}.rax64"
        run_tool("regalloc-x64", path, "-o", ra, "-f", "bin", check=0)
        results |= {behaviour(path), behaviour(ra)}
    assert results == {(0, b"6 0 1 2 1 0 5 4 6 8 0\n")}, results
