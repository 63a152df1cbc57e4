"""sonopt: the pass manager's flags, determinism, and --bisect-limit.

The per-pass goldens are tests/stages/sonopt/*.in.txt (their `# args:` line
names the passes); the C corpus (tests/test_c_programs.py) and the csmith
seeds (tests/test_csmith.py) run every program through sonopt -O2
--verify-each, check that a second -O2 run changes nothing, and hold
pipe-run's result on the optimized module to gcc's.
"""
import subprocess

import pytest

from conftest import ROOT, run_tool, tool_path

LOOP = ROOT / "examples" / "c" / "loop.son.txt"
FIB = ROOT / "examples" / "c" / "fib.son.txt"
STRUCT = ROOT / "examples" / "c" / "struct.son.txt"


def sonopt_text(*args, check=0):
    return run_tool("sonopt", *args, "-f", "text", check=check)


def test_list_passes_shows_the_computed_schedule():
    out = run_tool("sonopt", "--list-passes", check=0).stdout.decode()
    assert "schedule at -O0:\n" in out, out
    assert "schedule at -O1: idealize gvn simplify-cfg dce\n" in out, out
    assert "schedule at -O2: idealize gvn scalar-replace load-forward dead-store sccp simplify-cfg dce inline\n" in out, out
    assert "test-miscompile  [test only, function]" in out, out


def test_O0_changes_nothing():
    text = run_tool("pipe-fmt", LOOP, "-f", "text", check=0).stdout
    assert sonopt_text(LOOP, "-O0").stdout == text


def test_unknown_pass_and_bad_level_are_usage_errors():
    proc = run_tool("sonopt", LOOP, "--passes=idealize,nosuch", "-f", "text", check=2)
    assert b"unknown pass 'nosuch'" in proc.stderr
    run_tool("sonopt", LOOP, "-O7", "-f", "text", check=2)
    run_tool("sonopt", LOOP, "--print-after=nosuch", "-f", "text", check=2)


def test_wrong_level_input_is_refused():
    proc = run_tool("sonopt", ROOT / "examples" / "c" / "loop.ssa.txt", "-f", "text", check=1)
    assert b"expected a module at level 'son'" in proc.stderr


def test_print_after_and_print_changed():
    err = sonopt_text(LOOP, "--print-after=gvn").stderr.decode()
    assert err.count("# after gvn on 'main'") >= 1 and "# after idealize" not in err, err
    assert "pipeline main() -> i32 {" in err, err
    err = sonopt_text(LOOP, "--print-changed").stderr.decode()
    headers = [line for line in err.splitlines() if line.startswith("# after ")]
    assert headers and all(" 0 changes" not in h for h in headers), err


def test_stats_names_each_pass_that_ran():
    err = sonopt_text(FIB, "--stats").stderr.decode()
    for name in ("idealize", "gvn", "scalar-replace", "load-forward", "dead-store", "sccp", "simplify-cfg", "dce",
                 "inline", "total"):
        assert f"\n{name} " in err, err


def test_output_is_deterministic_and_independent_of_the_input_encoding(tmp_path):
    json = tmp_path / "struct.json"
    run_tool("pipe-fmt", STRUCT, "-f", "json", "-o", json, check=0)
    a = sonopt_text(STRUCT, "-O2").stdout
    b = sonopt_text(STRUCT, "-O2").stdout
    c = sonopt_text(json, "-O2").stdout
    assert a == b == c


def test_O2_is_idempotent():
    once = sonopt_text(STRUCT, "-O2").stdout
    proc = subprocess.run([tool_path("sonopt"), "-", "-O2", "-f", "text", "--stats"], input=once,
                          capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == once
    total = [line for line in proc.stderr.decode().splitlines() if line.startswith("total")][0]
    assert total.split()[3] == "0", total   # no pass reported a change


def run_program(son, tmp_path, name):
    path = tmp_path / name
    path.write_bytes(son)
    proc = run_tool("pipe-run", path)
    return proc.returncode, proc.stdout


def test_bisect_limit_finds_the_wrong_application(tmp_path):
    """A deliberately wrong pass (test-miscompile) among right ones: the
    smallest --bisect-limit whose output misbehaves names that pass."""
    passes = "--passes=idealize,gvn,test-miscompile,dce"
    want = run_program(run_tool("pipe-fmt", FIB, "-f", "bin", check=0).stdout, tmp_path, "ref.bin")
    full = run_tool("sonopt", FIB, passes, "--bisect-limit=1000", "-f", "bin", check=0)
    assert b"beyond the last application" in full.stderr
    assert run_program(full.stdout, tmp_path, "full.bin") != want, "the test pass should miscompile fib"
    first_bad = None
    for n in range(0, 1000):
        proc = run_tool("sonopt", FIB, passes, f"--bisect-limit={n}", "-f", "bin", check=0)
        if run_program(proc.stdout, tmp_path, f"n{n}.bin") != want:
            first_bad = (n, proc.stderr.decode())
            break
    assert first_bad is not None
    n, err = first_bad
    assert f"bisect: application {n} is test-miscompile on function '" in err, err
    # Application n - 1 was still right, and a limit of 0 applies nothing.
    zero = run_tool("sonopt", FIB, passes, "--bisect-limit=0", "-f", "text", check=0).stdout
    assert zero == run_tool("pipe-fmt", FIB, "-f", "text", check=0).stdout


def test_verify_each_accepts_every_pass_on_generated_graphs():
    """pipe-gen's random son modules through each pass alone, verified after
    every application."""
    for seed in range(1, 9):
        son = run_tool("pipe-gen", "--seed", seed, "--level", "son", "--nodes", 150, "-f", "bin", check=0).stdout
        for p in ("idealize", "gvn", "scalar-replace", "load-forward", "dead-store", "sccp", "simplify-cfg", "dce",
                  "inline"):
            proc = subprocess.run([tool_path("sonopt"), "-", f"--passes={p}", "--verify-each", "-f", "bin"],
                                  input=son, capture_output=True, timeout=60)
            assert proc.returncode == 0, f"seed {seed}, pass {p}:\n{proc.stderr.decode()}"
