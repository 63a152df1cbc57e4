"""Streaming: a pipe of tools handles a module too large to hold twice.

A 2M-node module (200 functions) flows through
  pipe-gen | pipe-fmt -f json | pipe-fmt -f text | pipe-fmt -f bin | pipe-verify
with every process limited to LIMIT bytes of address space. Held whole, the
module takes more than twice LIMIT in memory (a pl::Node is 96 bytes before
its literal and input arrays; count at least 150 bytes a node), so the pipe
only works if each tool holds one function at a time.
"""
import resource
import subprocess

from conftest import tool_path

NODES = 2_000_000
FUNCTIONS = 200
LIMIT = 128 << 20  # bytes of address space per process


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def test_pipe_streams_module_larger_than_memory_limit():
    commands = [
        [tool_path("pipe-gen"), "--seed", "9", "--level", "ssa", "--nodes", str(NODES),
         "--functions", str(FUNCTIONS), "-f", "bin"],
        [tool_path("pipe-fmt"), "-", "-f", "json"],
        [tool_path("pipe-fmt"), "-", "-f", "text"],
        [tool_path("pipe-fmt"), "-", "-f", "bin"],
        [tool_path("pipe-verify"), "-", "-o", "-", "-f", "text"],
    ]
    procs = []
    upstream = None
    for cmd in commands:
        proc = subprocess.Popen(cmd, stdin=upstream, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                preexec_fn=limit_memory)
        if upstream is not None:
            upstream.close()
        upstream = proc.stdout
        procs.append(proc)
    functions = 0
    nodes = 0
    for line in procs[-1].stdout:
        if b"pipeline " in line:
            functions += 1
        elif line.lstrip().startswith(b"i"):
            nodes += 1
    errors = [(cmd[0], p.wait(timeout=600), p.stderr.read().decode(errors="replace"))
              for cmd, p in zip(commands, procs)]
    for name, code, err in errors:
        assert code == 0, f"{name} exited {code}: {err}"
    assert functions == FUNCTIONS
    assert nodes > NODES * 0.9
    # A single process holding the whole module twice would need far more.
    assert nodes * 150 > 2 * LIMIT
