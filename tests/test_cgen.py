"""pipe-cgen, the second program generator (issue 17): programs csmith never
writes (recursion, loops with computed trip counts and early exits, calls
through pointers, variadic calls and va_list passing, switches, deep struct
copies, several files and unity builds), against gcc.

For each fixed seed: the program builds with gcc at -O0, -O2 and with
-fsanitize=undefined,address, and all three print the same (the generator
writes no undefined behaviour); pipecc -O0 and -O2 build it natively (as
separate files when the seed spreads it over several) and print what gcc's
build prints; c2ast | ast2cfg | cfg2ssa | ssa2son runs on it (its unity
form), and pipe-run prints the same at son and after sonopt -O2
--verify-each. Then pipe-fuzz drives the generator (natively and at son)
and finds a planted miscompile in a cgen program, with a replay.
"""
import os
import shutil
import subprocess

import pytest

from conftest import BUILD, ROOT, run_tool, tool_path

BUGGY = ROOT / "tests" / "fuzz" / "buggy-stage"
# Each seed's layout: 1 file, 2 or 3 files compiled separately (natively)
# and joined by #include for the module pipe.
SEEDS = [1, 2, 4, 5, 7, 9, 12, 15, 17, 20, 26, 28]
RUN_TIMEOUT = 20


def layout(seed):
    files = 1 + seed % 3
    return ["--files", str(files)] if files > 1 else []


def generate(tmp_path, seed, *args, name="prog.c"):
    """Writes the program; returns the files to compile."""
    out = run_tool("pipe-cgen", "--seed", seed, *args, "-o", tmp_path / name, "--print-sources", check=0).stdout
    return out.decode().split()


def run(argv, **kw):
    return subprocess.run([str(a) for a in argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=RUN_TIMEOUT, **kw)


def build_and_run(compiler, flags, sources, exe):
    cc = run([compiler, "-std=gnu11", "-w", *flags, *sources, "-o", exe])
    assert cc.returncode == 0, f"{compiler} {' '.join(flags)}: {cc.stderr.decode(errors='replace')[-2000:]}"
    proc = run([exe])
    return proc


def gcc_reference(tmp_path, sources):
    """gcc -O0's output, after checking -O2 and the sanitizers agree."""
    want = build_and_run("gcc", ["-O0"], sources, tmp_path / "gcc-O0")
    assert want.returncode == 0 and want.stdout.endswith(b"\n") and b"checksum = " in want.stdout
    got = build_and_run("gcc", ["-O2"], sources, tmp_path / "gcc-O2")
    assert (got.returncode, got.stdout) == (0, want.stdout), "gcc -O0 and -O2 disagree: undefined behaviour"
    env = dict(os.environ, UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1", ASAN_OPTIONS="detect_leaks=0")
    san = subprocess.run([str(a) for a in ["gcc", "-std=gnu11", "-w", "-O1", "-fsanitize=undefined,address",
                                           "-fno-sanitize-recover=all", *sources, "-o", tmp_path / "gcc-san"]],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=RUN_TIMEOUT)
    assert san.returncode == 0, san.stderr.decode(errors="replace")
    proc = subprocess.run([tmp_path / "gcc-san"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                          timeout=RUN_TIMEOUT)
    assert proc.returncode == 0 and proc.stderr == b"", proc.stderr.decode(errors="replace")[-3000:]
    assert proc.stdout == want.stdout
    return want.stdout


@pytest.mark.parametrize("seed", SEEDS)
def test_cgen_seed(seed, tmp_path):
    sources = generate(tmp_path, seed, *layout(seed))
    want = gcc_reference(tmp_path, sources)
    for opt in ("-O0", "-O2"):
        got = build_and_run(tool_path("pipecc"), [opt], sources, tmp_path / f"pipecc{opt}")
        assert (got.returncode, got.stdout) == (0, want), f"seed {seed}: pipecc {opt} differs from gcc"
    # The module pipe reads one file: the same program as a unity build.
    unity = tmp_path / "unity"
    unity.mkdir()
    main = generate(unity, seed, *layout(seed), *(["--unity"] if layout(seed) else []))
    assert len(main) == 1
    son = unity / "prog.son.bin"
    stages = [[tool_path("c2ast"), main[0]], [tool_path("ast2cfg")], [tool_path("cfg2ssa")], [tool_path("ssa2son")]]
    data = None
    for argv in stages:
        proc = subprocess.run([str(a) for a in argv], input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=60)
        assert proc.returncode == 0, f"{argv[0]}: {proc.stderr.decode(errors='replace')}"
        data = proc.stdout
    son.write_bytes(data)
    opt = run_tool("sonopt", "-O2", "--verify-each", son, "-o", unity / "prog.son-O2.bin", check=0)
    assert opt.returncode == 0
    for module in (son, unity / "prog.son-O2.bin"):
        got = run_tool("pipe-run", module, timeout=RUN_TIMEOUT)
        assert (got.returncode, got.stdout) == (0, want), f"seed {seed}: pipe-run on {module.name} differs from gcc"


def test_same_seed_same_program_whatever_the_layout(tmp_path):
    one = tmp_path / "one"
    one.mkdir()
    first = run_tool("pipe-cgen", "--seed", 3, check=0).stdout
    assert first == run_tool("pipe-cgen", "--seed", 3, check=0).stdout
    assert first != run_tool("pipe-cgen", "--seed", 4, check=0).stdout
    outputs = set()
    for args in ([], ["--files", "3"], ["--files", "3", "--unity"]):
        d = tmp_path / ("-".join(args) or "single")
        d.mkdir()
        sources = generate(d, 3, *args)
        assert len(sources) == (3 if args == ["--files", "3"] else 1)
        outputs.add(build_and_run("gcc", ["-O0"], sources, d / "exe").stdout)
    assert len(outputs) == 1


def test_kinds_switch_on_and_off():
    def text(*args):
        return run_tool("pipe-cgen", "--seed", 8, "--groups", 12, *args, check=0).stdout.decode()
    default = text()
    assert "__attribute__((cleanup(" in run_tool("pipe-cgen", "--seed", 9, "--groups", 12, check=0).stdout.decode()
    assert "__attribute__" not in text("--no-attributes")
    assert "__attribute__" not in text("--no", "attributes")
    assert "(*vp)(const char *, ...)" in text("--only", "varargs")
    assert "(*vp)" not in text("--only", "varargs", "--no-indirect-variadic")
    only = text("--only", "recursion")
    assert only.count("/* group ") == 12 and only.count(": recursion */") == 12
    assert ": varargs */" not in text("--no", "varargs")
    assert "__attribute__((constructor))" in text("--only", "attributes")
    assert "(*vp)(const char *, ...)" in text("--only", "varargs", "--indirect-variadic")


@pytest.mark.parametrize("args", [["--only", "attributes,structs"], ["--only", "varargs", "--indirect-variadic"]])
def test_single_kinds_are_free_of_undefined_behaviour(tmp_path, args):
    # Programs of one or two kinds hold many more groups of them; the
    # variadic group is also run spelled out. gcc must agree with itself.
    sources = generate(tmp_path, 11, *args)
    gcc_reference(tmp_path, sources)


@pytest.mark.parametrize("args", [["--files", "2"], ["--unity"], ["--only", "nothing"], ["--no", "recursion,loops,"
                                  "pointers,varargs,switches,structs,attributes"], ["--print-sources"]])
def test_usage_errors(args):
    run_tool("pipe-cgen", *args, check=2)


def fuzz(tmp_path, *args, check):
    env = dict(os.environ, PIPE_BUILD_DIR=str(BUILD))
    proc = subprocess.run([tool_path("pipe-fuzz"), *map(str, args)], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=300)
    assert proc.returncode == check, proc.stderr.decode(errors="replace")
    return proc.stderr.decode(errors="replace")


def test_pipe_fuzz_drives_cgen_natively(tmp_path):
    err = fuzz(tmp_path, "--gen", "cgen", "--runs", 3, "--seed", 1, "--", "pipecc", "-O2", check=0)
    assert "3 runs, 0 failures, 0 skipped" in err


def test_pipe_fuzz_finds_a_planted_miscompile_in_a_cgen_program(tmp_path):
    err = fuzz(tmp_path, "--gen", "cgen", "--runs", 2, "--seed", 2, "--", "c2ast", "|", "ast2cfg", "|", "cfg2ssa",
               "|", "ssa2son", "|", BUGGY, "xor", check=1)
    assert "FAIL: behaviour differs: gcc's build vs pipe-run on the output" in err
    case = sorted((tmp_path / "pipe-fuzz-failures").iterdir())[0]
    names = {p.name for p in case.iterdir()}
    assert {"replay.sh", "report.txt", "input.c"} <= names
    assert "generate: pipe-cgen --seed" in (case / "report.txt").read_text()
    replay = subprocess.run([case / "replay.sh"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(os.environ, PIPE_BUILD_DIR=str(BUILD)), timeout=300)
    assert replay.returncode == 1
    assert f"seed {case.name.split('-')[1]}: FAIL: behaviour differs".encode() in replay.stderr


PLANTED_PIPECC = """#!/usr/bin/env python3
# A pipecc with a planted miscompile: every ' ^ ' of the C files becomes ' | '.
import glob, os, shutil, subprocess, sys, tempfile
tmp = tempfile.mkdtemp()
args = []
for a in sys.argv[1:]:
    if a.endswith(".c"):
        for src in glob.glob(os.path.join(os.path.dirname(a) or ".", "*.c")):
            with open(src) as f, open(os.path.join(tmp, os.path.basename(src)), "w") as g:
                g.write(f.read().replace(" ^ ", " | "))
        a = os.path.join(tmp, os.path.basename(a))
    args.append(a)
status = subprocess.run([os.environ["REAL_PIPECC"], *args]).returncode
shutil.rmtree(tmp)
sys.exit(status)
"""


def test_pipe_fuzz_finds_a_planted_native_miscompile(tmp_path):
    # pipe-fuzz knows the native pipe by the stage's name: pipecc.
    bindir = tmp_path / "bin"
    bindir.mkdir()
    fake = bindir / "pipecc"
    fake.write_text(PLANTED_PIPECC)
    fake.chmod(0o755)
    env = dict(os.environ, PIPE_BUILD_DIR=str(BUILD), REAL_PIPECC=str(tool_path("pipecc")))
    argv = [tool_path("pipe-fuzz"), "--gen", "cgen", "--runs", "1", "--seed", "4", "--", fake, "-O2"]
    proc = subprocess.run([str(a) for a in argv],
                          cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    err = proc.stderr.decode(errors="replace")
    assert proc.returncode == 1, err
    assert "seed 4: FAIL: behaviour differs: gcc's build vs pipecc's build" in err
    case = tmp_path / "pipe-fuzz-failures" / "seed-4"
    assert {"input.c", "input-2.c", "replay.sh"} <= {p.name for p in case.iterdir()}  # seed 4: two files
    replay = subprocess.run([case / "replay.sh"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, timeout=300)
    assert replay.returncode == 1 and b"seed 4: FAIL: behaviour differs" in replay.stderr


def test_pipe_fuzz_cgen_usage(tmp_path):
    fuzz(tmp_path, "--gen-arg", "--attributes", "--", "pipecc", check=2)
    fuzz(tmp_path, "--gen", "cgen", "--", "pipecc", "|", "ast2cfg", check=2)
