"""pipecc behind ccache and distcc (issue 20). ccache keyed on `pipecc
--version` (whose build id covers every stage) never serves an object made
by an older stage; distcc in remote mode preprocesses on the client (pipecc
-E) and compiles the .i on a distccd on 127.0.0.1, and in pump mode sends
the sources and their headers and compiles them there, each giving the
objects and depfiles of a local build."""
import os
import shutil
import socket
import subprocess
import time

import pytest

from conftest import BUILD, ROOT

BUILD_DIR = BUILD.resolve()
STAGES = ["c2ast", "ast2cfg", "cfg2ssa", "ssa2son", "sonopt", "son-lower-x64", "son2cfg", "cfgopt",
          "regalloc-x64", "codegen-x64"]


def need(program, package):
    if not shutil.which(program):
        pytest.fail(f"{program} is not installed (Debian: {package}); scripts/test installs it")


def toolchain(tmp_path):
    """pipecc copied next to links to the built stages: a stage can be replaced."""
    tc = tmp_path / "toolchain"
    tc.mkdir()
    shutil.copy(BUILD_DIR / "pipecc", tc / "pipecc")
    for stage in STAGES:
        (tc / stage).symlink_to(BUILD_DIR / stage)
    return tc


def test_ccache_keyed_on_the_version_does_not_serve_an_object_of_an_older_stage(tmp_path):
    need("ccache", "ccache")
    tc = toolchain(tmp_path)
    (tmp_path / "a.c").write_text("int f(int x) { return x * 7; }\n")
    env = {**os.environ, "CCACHE_DIR": str(tmp_path / "cache"), "CCACHE_COMPILERCHECK": "%compiler% --version",
           "CCACHE_NOHASHDIR": "1", "CCACHE_TEMPDIR": str(tmp_path / "cachetmp")}
    env.pop("CCACHE_DISABLE", None)

    def compile(out):
        subprocess.run(["ccache", str(tc / "pipecc"), "-O2", "-c", "a.c", "-o", out], cwd=tmp_path, env=env,
                       check=True, timeout=120)
        return (tmp_path / out).read_bytes()

    def stats():
        text = subprocess.run(["ccache", "--print-stats"], env=env, stdout=subprocess.PIPE, check=True).stdout
        return dict(line.split("\t") for line in text.decode().splitlines())

    first = compile("1.o")
    assert compile("2.o") == first and int(stats()["direct_cache_hit"]) == 1
    # A rebuilt codegen-x64 that writes line tables: a new toolchain build id, so a miss.
    (tc / "codegen-x64").unlink()
    (tc / "codegen-x64").write_text(f'#!/bin/sh\nexec {BUILD_DIR}/codegen-x64 "$@" -g\n')
    (tc / "codegen-x64").chmod(0o755)
    third = compile("3.o")
    assert third != first and b".debug_line" in third
    assert int(stats()["direct_cache_hit"]) == 1


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


MAKEFILE = """OBJS = main.o a.o b.o c.o
prog: $(OBJS)
\t$(CC) -o $@ $(OBJS)
%.o: %.c
\t$(CC) -O2 -Iinclude -DSCALE=3 -MMD -c $< -o $@
"""


def distcc_build(tmp_path, pump):
    """The project built locally and with `make -j4 CC="distcc pipecc"`
    against a distccd on 127.0.0.1 (with `distcc-pump` in pump mode):
    (the server's log, the client's output, the distcc and local trees)."""
    need("distccd", "distcc")
    if pump:
        need("distcc-pump", "distcc-pump")
    src = tmp_path / "src"
    (src / "include").mkdir(parents=True)
    (src / "include" / "p.h").write_text("int a(int); int b(int); int c(int);\n")
    for name, body in [("a", "x + SCALE"), ("b", "x * SCALE"), ("c", "x - SCALE")]:
        (src / f"{name}.c").write_text(f'#include "p.h"\n#include <stdio.h>\nint {name}(int x) {{ return {body}; }}\n')
    (src / "main.c").write_text('#include "p.h"\nint main(void) { return a(1) + b(2) + c(10) == 17 ? 0 : 1; }\n')
    (src / "Makefile").write_text(MAKEFILE)
    local = tmp_path / "local"
    shutil.copytree(src, local)
    subprocess.run(["make", f"CC={BUILD_DIR}/pipecc"], cwd=local, check=True, stdout=subprocess.DEVNULL,
                   timeout=300)

    port = free_port()
    # The log on stderr: distccd started as root runs as the distccd user, who
    # cannot write under pytest's private temporary directory.
    server = subprocess.Popen(["distccd", "--daemon", "--no-detach", "--listen", "127.0.0.1", "--port", str(port),
                               "--allow", "127.0.0.1", "--enable-tcp-insecure", "--jobs", "4", "--log-level",
                               "info", "--log-stderr"], stderr=subprocess.PIPE)
    (tmp_path / "distcc").mkdir()
    try:
        for _ in range(100):  # until it listens
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        env = {**os.environ, "DISTCC_HOSTS": f"127.0.0.1:{port}/4" + (",cpp,lzo" if pump else ""),
               "DISTCC_FALLBACK": "0", "DISTCC_DIR": str(tmp_path / "distcc")}
        command = ["make", "-j4", f"CC=distcc {BUILD_DIR}/pipecc"]
        if pump:
            # Debian 12's include server needs tests/distcc/sitecustomize.py (its docstring says why).
            env["PYTHONPATH"] = str(ROOT / "tests" / "distcc")
            command = ["distcc-pump", *command]
        proc = subprocess.run(command, cwd=src, env=env, timeout=300, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        client = proc.stdout.decode()
        assert proc.returncode == 0, client
    finally:
        server.terminate()
        text = server.communicate(timeout=30)[1].decode()
    return text, client, src, local


def check_like_a_local_build(text, src, local):
    for name in ("main", "a", "b", "c"):
        assert f"compile from {name}.c to {name}.o" in text, (name, text)
        assert (src / f"{name}.o").read_bytes() == (local / f"{name}.o").read_bytes(), name
        assert (src / f"{name}.d").read_text() == (local / f"{name}.d").read_text()
    assert text.count("COMPILE_OK") >= 4, text
    assert subprocess.run([str(src / "prog")], timeout=30).returncode == 0


def test_distcc_compiles_the_preprocessed_files_on_the_server_like_a_local_build(tmp_path):
    text, client, src, local = distcc_build(tmp_path, pump=False)
    check_like_a_local_build(text, src, local)
    assert "dcc_fix_debug_info" not in text  # remote mode: the .i, no mirrored tree


def test_distcc_pump_sends_the_sources_and_headers_and_compiles_there(tmp_path):
    """Pump mode: the include server finds each file's headers (pipecc -v's
    search list for the system ones), the client sends the source and the
    headers, distccd compiles the unpreprocessed file in a mirror of the
    client's tree (and fixes the paths: dcc_fix_debug_info, pump mode only);
    nothing is preprocessed on the client."""
    text, client, src, local = distcc_build(tmp_path, pump=True)
    assert "Using 1 distcc server in pump mode" in client, client
    assert "preprocessing locally" not in client and "Include server" not in client, client
    check_like_a_local_build(text, src, local)
    assert text.count("dcc_fix_debug_info") >= 4, text
