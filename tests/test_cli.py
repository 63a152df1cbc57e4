"""The shared tool contract (common/tool/tool.h), checked on every tool."""
import os
import pty
import signal
import subprocess
import time

import pytest

from conftest import ROOT, run_tool, tool_path

TOOLS = ["pipe-fmt", "pipe-verify", "pipe-gen", "pipe-cgen", "pipe-fuzz", "pipe-diff", "pipe-reduce", "pipe-dot"]
READERS = ["pipe-fmt", "pipe-verify"]


def small_module(fmt="text"):
    return run_tool("pipe-gen", "--seed", 1, "--nodes", 50, "-f", fmt, check=0).stdout


@pytest.mark.parametrize("name", TOOLS)
def test_help_shows_example_and_exits_0(name):
    proc = run_tool(name, "--help", check=0)
    assert b"Example:" in proc.stdout and b"--verify" in proc.stdout


@pytest.mark.parametrize("name", TOOLS)
def test_version(name):
    assert run_tool(name, "--version", check=0).stdout.startswith(name.encode())


@pytest.mark.parametrize("name", TOOLS)
def test_bad_usage_exits_2(name):
    proc = run_tool(name, "--no-such-flag", check=2)
    assert proc.stderr


@pytest.mark.parametrize("name", READERS)
def test_missing_input_file(name, tmp_path):
    proc = run_tool(name, tmp_path / "nope.json", check=1)
    assert b"nope.json: error: cannot open" in proc.stderr


def test_bad_encoding_name_is_usage_error():
    run_tool("pipe-fmt", "-", "-f", "xml", input=small_module(), check=2)


def test_stdin_and_stdout_dash():
    text = small_module()
    out = run_tool("pipe-fmt", "-", "-o", "-", "-f", "text", input=text, check=0).stdout
    assert out == run_tool("pipe-fmt", "-f", "text", input=text, check=0).stdout
    assert b"pipeline f0" in out


def test_default_encoding_is_binary_when_not_a_terminal():
    out = run_tool("pipe-fmt", input=small_module(), check=0).stdout
    assert out.startswith(b"PIPEBIN\0")


def run_on_terminal(args, data):
    """Runs pipe-fmt with stdout on a pseudo-terminal; returns (status, output)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([tool_path("pipe-fmt"), *args], stdin=subprocess.PIPE, stdout=slave,
                            stderr=subprocess.PIPE)
    os.close(slave)
    _, err = proc.communicate(data, timeout=30)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    return proc.returncode, b"".join(chunks), err


def test_binary_to_terminal_is_refused_without_force():
    code, out, err = run_on_terminal(["-", "-f", "bin"], small_module())
    assert code == 2 and b"refusing to write binary output to a terminal" in err
    assert b"PIPEBIN" not in out
    code, out, _ = run_on_terminal(["-", "-f", "bin", "--force"], small_module())
    assert code == 0 and b"PIPEBIN" in out


def test_terminal_default_is_text():
    code, out, _ = run_on_terminal(["-"], small_module())
    assert code == 0 and b"pipeline f0" in out


def test_failed_run_leaves_no_output_file(tmp_path):
    target = tmp_path / "out.json"
    run_tool("pipe-fmt", "-", "-o", target, "-f", "json", input=b"module son\npipeline f() -> void {\n  i0 = ",
             check=1)
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_output_file_written_atomically(tmp_path):
    target = tmp_path / "out.txt"
    run_tool("pipe-fmt", "-", "-o", target, "-f", "text", input=small_module("bin"), check=0)
    assert target.read_bytes().startswith(b"module son")
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_verification_failure_exits_1_and_names_the_node():
    bad = b"module son\npipeline f() -> void {\n  i0 = start\n  i1 = add \"i32\", i0\n}\n"
    proc = run_tool("pipe-fmt", "-", "-f", "text", input=bad, check=1)
    assert b"i1: error:" in proc.stderr
    run_tool("pipe-fmt", "-", "-f", "text", "--no-verify", input=bad, check=0)


def test_pipe_verify_reports_ok_and_level_override():
    module = run_tool("pipe-gen", "--seed", 2, "--level", "ssa", "--nodes", 300, check=0).stdout
    proc = run_tool("pipe-verify", "-", input=module, check=0)
    assert b"ok (1 function, level ssa)" in proc.stderr
    proc = run_tool("pipe-verify", "-", "--level", "son", input=module, check=1)
    assert b"error:" in proc.stderr


def test_pipe_verify_reports_earlier_violations_before_a_read_error():
    bad_then_truncated = (b"module son\n"
                          b"pipeline f() -> void {\n  i0 = start\n  i1 = add \"i32\", i0, i0\n}\n"
                          b"pipeline g() -> void {\n  i0 = start\n")
    proc = run_tool("pipe-verify", "-", input=bad_then_truncated, check=1)
    err = proc.stderr.decode()
    assert "function 'f': i1: error:" in err
    assert "<stdin>:6:1: error: pipeline is not closed" in err, err
    assert err.index("function 'f'") < err.index("not closed")


PREVIOUS_HANDLER = r"""
#include <signal.h>
#include <string.h>
#include <unistd.h>
static void previous(int sig) {
  (void)sig;
  const char msg[] = "previous handler ran\n";
  write(2, msg, sizeof msg - 1);
  _exit(42);
}
__attribute__((constructor)) static void install(void) { signal(SIGSEGV, previous); }
"""


def caught_signals(pid):
    """The SigCgt mask of /proc/PID/status (bit N-1: signal N has a handler)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("SigCgt:"):
                return int(line.split()[1], 16)
    return 0


def reading_stdin(pid):
    """Whether the process is blocked in read(0, ...) (x86-64 syscall 0)."""
    try:
        with open(f"/proc/{pid}/syscall") as f:
            fields = f.read().split()
    except OSError:
        return False
    return len(fields) > 1 and fields[0] == "0" and int(fields[1], 16) == 0


@pytest.mark.parametrize("before", ["default", "ignored", "a handler"])
def test_a_fatal_signal_prints_the_command_and_reaches_the_handler_before(before, tmp_path):
    """common/tool/tool.cpp: on SIGSEGV (and SIGBUS, SIGILL, SIGFPE, SIGABRT) a
    tool prints the command that reproduces the crash, then hands the signal
    to what was installed before it: the default action (the tool dies of
    the signal); the default too where the signal was inherited as ignored
    (else the crash would go on); or a handler (libFuzzer's, which saves the
    input: here a preloaded one that exits 42)."""
    env = dict(os.environ)
    if before == "a handler":
        lib = tmp_path / "previous.so"
        (tmp_path / "previous.c").write_text(PREVIOUS_HANDLER)
        subprocess.run(["cc", "-shared", "-fPIC", "-o", lib, tmp_path / "previous.c"], check=True)
        env["LD_PRELOAD"] = str(lib)

    def inherit():
        if before == "ignored":
            signal.signal(signal.SIGSEGV, signal.SIG_IGN)

    proc = subprocess.Popen([tool_path("pipe-fmt"), "-", "-o", "/dev/null"], stdin=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, preexec_fn=inherit)
    try:
        # Ready once it waits in read(0) on stdin: its handler is installed by
        # then (with a preloaded handler, SIGSEGV is caught from the start, so
        # SigCgt alone cannot tell).
        deadline = time.monotonic() + 30
        while not (caught_signals(proc.pid) & (1 << (signal.SIGSEGV - 1)) and reading_stdin(proc.pid)):
            assert time.monotonic() < deadline, "pipe-fmt never installed its SIGSEGV handler"
            time.sleep(0.01)
        proc.send_signal(signal.SIGSEGV)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    err = err.decode(errors="replace")
    assert "internal error (crash). Please report it with the input and this command:" in err, err
    assert "pipe-fmt - -o /dev/null" in err, err
    if before == "a handler":
        assert proc.returncode == 42 and err.index("previous handler ran") > err.index("internal error"), err
    else:
        assert proc.returncode == -signal.SIGSEGV, (proc.returncode, err)


def test_output_to_a_device_or_fifo_is_written_in_place(tmp_path):
    """-o /dev/null used to rename a temporary onto the device, replacing
    every program's /dev/null with a regular file (the tools run as root).
    A FIFO stands in for the device here: it must stay a FIFO, get the
    bytes, and no temporary may be left beside it."""
    import stat
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["timeout", "30", "cat", str(fifo)], stdout=subprocess.PIPE)
    want = run_tool("pipe-gen", "--seed", 1, "--nodes", 50, "-f", "text", check=0).stdout
    run_tool("pipe-gen", "--seed", 1, "--nodes", 50, "-f", "text", "-o", fifo, check=0)
    out, _ = reader.communicate(timeout=60)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode), "the FIFO was replaced by a regular file"
    assert out == want
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]
