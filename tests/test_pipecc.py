"""pipecc, the cc-compatible driver: its command line, the pipelines it
runs, and how stage diagnostics reach the user. (Native programs are
tested once codegen-x64 exists; here the pipeline stops at the stages that
do, with --stop-after, and pipe-run checks what came out.)"""
import os
import pathlib
import re
import shlex
import subprocess

from conftest import BUILD, ROOT, run_tool

FIB = ROOT / "examples" / "c" / "fib.c"


def pipecc(*args, cwd=None):
    return subprocess.run([str(BUILD / "pipecc"), *map(str, args)], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120, cwd=cwd)


def test_print_only_shows_a_shell_pipeline_per_file_and_the_link():
    proc = pipecc("-###", "-O2", "-g", "-Iinc", "-DN=3", FIB, "-o", "fib", "-lm")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.decode().splitlines()
    stages = [shlex.split(part)[0].rsplit("/", 1)[-1] for part in lines[0].split(" | ")]
    assert stages == ["c2ast", "ast2cfg", "cfg2ssa", "ssa2son", "sonopt", "son-lower-x64", "son2cfg", "cfgopt",
                      "regalloc-x64", "codegen-x64"]
    first = shlex.split(lines[0].split(" | ")[0])
    # c2ast prints clang's diagnostics; the front-end options go to its clang after `--`.
    # -g: c2ast writes the debug section (types, variables) for codegen-x64 -g.
    assert first[1:] == ["--cc-diagnostics", "-g", str(FIB), "--", "-Iinc", "-DN=3", "-O2"]
    assert "-O2" in lines[0].split(" | ")[4] and "-g" in lines[0].split(" | ")[-1]
    link = shlex.split(lines[1])
    assert link[1:3] == ["-o", "fib"] and link[-1] == "-lm"


def test_each_module_is_verified_once_unless_verify_inputs():
    """Every stage checks what it writes; the next one skips checking it
    again, except with --verify-inputs."""
    parts = pipecc("-###", "-O2", "-c", FIB).stderr.decode().splitlines()[0].split(" | ")
    assert "--no-verify-input" not in parts[0] and all("--no-verify-input" in p for p in parts[1:]), parts
    line = pipecc("-###", "--verify-inputs", "-c", FIB).stderr.decode().splitlines()[0]
    assert "--no-verify-input" not in line, line


def test_check_each_reaches_both_optimizers(tmp_path):
    """pipecc --check-each hands --check-each to sonopt and cfgopt (and to no
    other stage), and the program it builds runs as without it."""
    parts = pipecc("-###", "-O2", "--check-each", "-c", FIB).stderr.decode().splitlines()[0].split(" | ")
    flagged = [shlex.split(p)[0].rsplit("/", 1)[-1] for p in parts if "--check-each" in p]
    assert flagged == ["sonopt", "cfgopt"], parts
    exe = tmp_path / "fib"
    assert pipecc("-O2", "--check-each", FIB, "-o", exe).returncode == 0
    assert subprocess.run([str(exe)], stdout=subprocess.PIPE, timeout=20).stdout == b"fib(15) = 610\n"


def test_no_verify_input_still_verifies_the_output():
    """--no-verify-input skips the input's check only: a broken module
    passes the front door and is caught at the exit (as the stage's own
    output), while --no-verify lets it through."""
    bad = ROOT / "tests" / "verify" / "b_input_control.txt"
    err = run_tool("pipe-fmt", bad, "-f", "text", check=1).stderr.decode()
    assert "errors in the input module" in err, err
    err = run_tool("pipe-fmt", bad, "-f", "text", "--no-verify-input", check=1).stderr.decode()
    assert "errors in the output module" in err and "in the input module" not in err, err
    run_tool("pipe-fmt", bad, "-f", "text", "--no-verify", check=0)


def test_optimizer_stages_only_from_O1():
    line = pipecc("-###", "-c", FIB).stderr.decode().splitlines()[0]
    # Stage names, not the whole line: the build directory's path may hold them.
    stages = [shlex.split(part)[0].rsplit("/", 1)[-1] for part in line.split(" | ")]
    assert "sonopt" not in stages and "cfgopt" not in stages, stages


def test_stop_after_writes_that_stage_and_runs_like_gcc(tmp_path):
    out = tmp_path / "fib.son.txt"
    proc = pipecc("--stop-after=ssa2son", FIB, "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert out.read_text().startswith("module son")
    run = run_tool("pipe-run", out)
    assert run.stdout == b"fib(15) = 610\n"


def test_save_temps_keeps_every_intermediate(tmp_path):
    proc = pipecc("--stop-after=cfg2ssa", f"--save-temps={tmp_path}", FIB, "-o", tmp_path / "out.bin")
    assert proc.returncode == 0, proc.stderr
    for stage in ("c2ast", "ast2cfg"):
        run_tool("pipe-verify", tmp_path / f"fib.{stage}.bin", check=0)
    assert b"tee" in subprocess.run([str(BUILD / "pipecc"), "-###", "--save-temps", "-c", str(FIB)],
                                    stderr=subprocess.PIPE).stderr


def test_print_after_prints_the_printable_form(tmp_path):
    proc = pipecc("--stop-after=cfg2ssa", "--print-after=ast2cfg", FIB, "-o", tmp_path / "x.bin")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.decode().startswith("module cfg\n")


def test_a_c_error_reaches_the_user_as_clang_prints_it(tmp_path):
    bad = tmp_path / "bad.c"
    bad.write_text("int main(void) { return x; }\n")
    proc = pipecc("--stop-after=ssa2son", bad, "-o", tmp_path / "x.bin")
    assert proc.returncode == 1
    err = proc.stderr.decode()
    assert err.startswith(f"{bad}:1:25: error: use of undeclared identifier 'x'\n"), err
    assert "ast2cfg" not in err and not (tmp_path / "x.bin").exists()


def test_usage_errors():
    for args, text in [(["--bogus", FIB], "unknown option '--bogus'"), ([], "no input files"),
                       (["-o"], "missing argument to '-o'"),
                       (["--stop-after=nope", FIB], "unknown stage 'nope'")]:
        proc = pipecc(*args)
        assert proc.returncode == 2 and text in proc.stderr.decode(), (args, proc.stderr)


def test_missing_input_file():
    proc = pipecc("-c", "/nonexistent/x.c")
    assert proc.returncode == 1 and b"no such file" in proc.stderr


def fake_toolchain(tmp_path, scripts):
    """A copy of pipecc next to stand-in stages (shell scripts)."""
    import shutil
    shutil.copy(BUILD / "pipecc", tmp_path / "pipecc")
    for name, body in scripts.items():
        path = tmp_path / name
        path.write_text("#!/bin/sh\n" + body + "\n")
        path.chmod(0o755)
    return tmp_path / "pipecc"


def test_a_stage_that_fails_unexpectedly_is_an_internal_error_with_the_pipeline(tmp_path):
    driver = fake_toolchain(tmp_path, {"c2ast": "cat /dev/zero", "ast2cfg": "echo 'ast2cfg: crashed' >&2; exit 3"})
    proc = subprocess.run([str(driver), "--stop-after=ast2cfg", str(FIB), "-o", str(tmp_path / "x")],
                          stderr=subprocess.PIPE, timeout=60)
    err = proc.stderr.decode()
    assert proc.returncode == 3, err
    # c2ast died of SIGPIPE only because ast2cfg stopped reading: not blamed.
    assert "stage 'ast2cfg' failed (exit status 3)" in err and "ast2cfg: crashed" in err
    assert f"{tmp_path}/c2ast --cc-diagnostics {FIB} | {tmp_path}/ast2cfg --no-verify-input -f bin -o {tmp_path}/x" in err


def test_only_the_first_failing_stage_speaks(tmp_path):
    driver = fake_toolchain(tmp_path, {"c2ast": "echo 'c2ast: f.c:1:1: error: bad' >&2; exit 1",
                                       "ast2cfg": "cat >/dev/null; echo 'ast2cfg: error: empty input' >&2; exit 1"})
    proc = subprocess.run([str(driver), "--stop-after=ast2cfg", str(FIB), "-o", str(tmp_path / "x")],
                          stderr=subprocess.PIPE, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.decode() == "c2ast: f.c:1:1: error: bad\n"


def test_preprocess_only():
    proc = pipecc("-E", "-DFIB_N=15", FIB)
    assert proc.returncode == 0 and b"fib" in proc.stdout


def test_a_closed_output_pipe_is_not_an_error(tmp_path):
    """`pipecc -E f.c | head -1`: the reader goes away before the output
    ends. pipecc says nothing and dies of SIGPIPE, as a filter does; an
    output that still fits the pipe may also end with status 0."""
    big = tmp_path / "big.c"
    big.write_text("".join(f"int v{i} = {i};\n" for i in range(20000)))  # far beyond a pipe's buffer
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody will read
    try:
        proc = subprocess.run([str(BUILD / "pipecc"), "-E", str(big)], stdout=write_end, stderr=subprocess.PIPE,
                              timeout=120)
    finally:
        os.close(write_end)
    assert proc.returncode == -13, proc.stderr  # killed by SIGPIPE
    assert proc.stderr == b""


def test_view_writes_pipe_views_page_with_the_same_flags(tmp_path):
    page = tmp_path / "fib.html"
    proc = pipecc(f"--view={page}", "-O1", "-c", FIB, "-o", tmp_path / "fib.o")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "fib.o").exists()
    html = page.read_text()
    titles = re.findall(r'<div class="step" id="step\d+" data-title="([^"]*)"', html)
    assert titles[:4] == ["c2ast", "ast2cfg", "cfg2ssa", "ssa2son"], titles
    # -O1 reached pipe-view: sonopt's passes are steps of the page.
    assert any(t.startswith("sonopt -O1") for t in titles), titles
    assert "fib(" in html


def test_view_needs_one_c_file(tmp_path):
    other = tmp_path / "other.c"
    other.write_text("int other(void) { return 1; }\n")
    proc = pipecc("--view=x.html", "-c", FIB, other, cwd=tmp_path)
    assert proc.returncode == 2 and b"--view needs exactly one .c input file" in proc.stderr, proc.stderr
    assert not (tmp_path / "x.html").exists()
