"""pipecc behind ccache, distcc and icecream (issue 20). ccache keyed on
`pipecc --version` (whose build id covers every stage) never serves an
object made by an older stage; distcc in remote mode preprocesses on the
client (pipecc -E) and compiles the .i on a distccd on 127.0.0.1, and in
pump mode sends the sources and their headers and compiles them there;
icecream preprocesses with -fdirectives-only on the client and compiles on
a remote iceccd in the chroot of an environment made by icecc-create-env
(scripts/icecc-env); each gives the objects and depfiles of a local
build."""
import os
import pathlib
import shutil
import socket
import subprocess
import tempfile
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
\t$(CC) $(CFLAGS) -O2 -Iinclude -DSCALE=3 -MMD -c $< -o $@
"""


def make_project(tmp_path, cflags=""):
    """A four-file project with a Makefile (src, compiled with CFLAGS
    cflags) and the products of its local build with pipecc (local): (src,
    local)."""
    src = tmp_path / "src"
    (src / "include").mkdir(parents=True)
    (src / "include" / "p.h").write_text("int a(int); int b(int); int c(int);\n")
    for name, body in [("a", "x + SCALE"), ("b", "x * SCALE"), ("c", "x - SCALE")]:
        (src / f"{name}.c").write_text(f'#include "p.h"\n#include <stdio.h>\nint {name}(int x) {{ return {body}; }}\n')
    (src / "main.c").write_text('#include "p.h"\nint main(void) { return a(1) + b(2) + c(10) == 17 ? 0 : 1; }\n')
    (src / "Makefile").write_text(f"CFLAGS = {cflags}\n" + MAKEFILE)
    # Built in src (a -g object names its directory), its products kept in local.
    subprocess.run(["make", f"CC={BUILD_DIR}/pipecc"], cwd=src, check=True, stdout=subprocess.DEVNULL, timeout=300)
    local = tmp_path / "local"
    local.mkdir()
    for product in [src / "prog", *src.glob("*.o"), *src.glob("*.d")]:
        product.rename(local / product.name)
    return src, local


def distcc_build(tmp_path, pump):
    """The project built locally and with `make -j4 CC="distcc pipecc"`
    against a distccd on 127.0.0.1 (with `distcc-pump` in pump mode):
    (the server's log, the client's output, the distcc and local trees)."""
    need("distccd", "distcc")
    if pump:
        need("distcc-pump", "distcc-pump")
    src, local = make_project(tmp_path)
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


def wait_for(predicate, seconds=20):
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_icecream_compiles_in_the_remote_daemons_chroot_like_a_local_build(tmp_path):
    """`make -j4 CC="icecc cc"` with ICECC_CC=pipecc: icecream's gcc mode,
    `pipecc -E -fdirectives-only` on the client and `pipecc -x c
    -fpreprocessed -fdirectives-only -` on the remote daemon, in the chroot
    of the environment scripts/icecc-env makes with icecc-create-env
    (ICECC_VERSION: pipecc as /usr/bin/gcc, the stages at their own paths,
    their libraries; nothing of the build tree is read). A scheduler and two
    daemons on 127.0.0.1 with their own ports, as icecream's own tests run
    them: the client's (--no-remote, reached through ICECC_TEST_SOCKET) and
    the remote one (ICECC_PREFERRED_HOST; ICECC_TEST_REMOTEBUILD: a job for
    a daemon on 127.0.0.1 is sent to it, not compiled by the client). The
    remote daemon's log shows each compile, and the objects (with -g: the
    text names the client's directory) and depfiles equal a local
    build's."""
    for program in ("icecc", "iceccd", "icecc-scheduler", "icecc-create-env"):
        need(program, "icecc")
    if os.getuid() != 0:
        pytest.skip("iceccd runs remote compiles in a chroot: it must be started as root")
    # iceccd takes no job while its machine has no idle time (its load is
    # 1000 - idle per mille), and the tests keep this one busy: the remote
    # daemon, which stands for another machine, reads an idle /proc/stat
    # (a fixed copy, bind-mounted in its own mount namespace).
    fake_stat = tmp_path / "stat"
    fake_stat.write_text("cpu  1 0 1 1000 0 0 0 0 0 0\n")
    probe = subprocess.run(["unshare", "-m", "sh", "-c", f"mount --bind {fake_stat} /proc/stat && head -1 /proc/stat"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=30)
    if probe.returncode != 0 or b"1000" not in probe.stdout:
        pytest.skip("cannot give the remote iceccd an idle /proc/stat (unshare -m, mount --bind): "
                    + probe.stdout.decode())
    # The daemons and the scheduler run as the icecc user, who cannot enter
    # pytest's private tmp_path: their logs and environments go to a
    # directory of their own.
    work = pathlib.Path(tempfile.mkdtemp(prefix="pipe-icecc-"))
    work.chmod(0o777)
    scheduler_port, local_port, remote_port = free_port(), free_port(), free_port()
    net = f"pipe-test-{os.getpid()}"
    logs = {name: work / f"{name}.log" for name in ("scheduler", "local", "remote")}
    base = {**os.environ, "ICECC_TESTS": "1"}
    processes = []

    def log(name):
        return logs[name].read_text(errors="replace") if logs[name].exists() else ""

    def start(argv, env):
        processes.append(subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def daemon(name, *args):
        argv = ["iceccd", "-n", net, "-N", name, "-s", f"127.0.0.1:{scheduler_port}", "-b", str(work / f"envs-{name}"),
                "-l", str(logs[name]), "-m", "2", "-v", "-v", "-v", *args]
        return argv, {**base, "ICECC_TEST_SOCKET": str(work / f"socket-{name}")}

    try:
        start(["icecc-scheduler", "-n", net, "-p", str(scheduler_port), "-l", str(logs["scheduler"]), "-v", "-v", "-v"],
              base)
        start(*daemon("local", "--no-remote", "-p", str(local_port)))
        argv, env = daemon("remote", "-p", str(remote_port))
        start(["unshare", "-m", "sh", "-c", f'mount --bind {fake_stat} /proc/stat && exec "$@"', "sh", *argv], env)
        # While the daemons find the scheduler: the local build and the environment.
        src, local = make_project(tmp_path, cflags="-g")
        made = subprocess.run([str(ROOT / "scripts" / "icecc-env"), str(BUILD_DIR / "pipecc"), "--compression", "none"],
                              cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        assert made.returncode == 0, made.stderr.decode()
        environment = made.stdout.decode().strip()
        listing = subprocess.run(["tar", "-tf", environment], stdout=subprocess.PIPE, check=True).stdout.decode()
        packed = set(listing.split())
        assert "usr/bin/gcc" in packed, listing  # pipecc, which icecream runs for C
        for stage in STAGES:
            assert str(BUILD_DIR / stage).lstrip("/") in packed, (stage, listing)
        assert any("libclang-cpp" in f for f in packed) and any("libLLVM" in f for f in packed), listing
        for name in ("scheduler", "local", "remote"):
            ready = "scheduler ready" if name == "scheduler" else "Connected to scheduler"
            if not wait_for(lambda: ready in log(name) or any(p.poll() is not None for p in processes)) or \
                    any(p.poll() is not None for p in processes):
                pytest.skip(f"icecream's {name} did not start: " + log(name)[-3000:])
        if "Cannot use chroot" in log("remote"):
            pytest.skip("iceccd cannot chroot here: " + log("remote")[-3000:])
        client_log = work / "client.log"
        env = {**base, "ICECC_TEST_SOCKET": str(work / "socket-local"), "ICECC_TEST_REMOTEBUILD": "1",
               "ICECC_PREFERRED_HOST": "remote", "ICECC_VERSION": environment, "ICECC_CC": str(BUILD_DIR / "pipecc"),
               "ICECC_DEBUG": "debug", "ICECC_LOGFILE": str(client_log)}
        proc = subprocess.run(["make", "-j4", "CC=icecc cc"], cwd=src, env=env, timeout=120, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
        client = client_log.read_text(errors="replace")
        assert proc.returncode == 0, proc.stdout.decode() + client
    finally:
        for p in processes:
            p.terminate()
        for p in processes:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        remote = log("remote")
        for f in work.glob("*.log"):  # kept with the test's files
            shutil.copy(f, tmp_path / f.name)
        shutil.rmtree(work, ignore_errors=True)
        for tarball in tmp_path.glob("*.tar"):  # the environment: 300 MB, mostly LLVM's and clang's libraries
            tarball.unlink()
    # The client preprocessed each file with -fdirectives-only, compiled none
    # itself (no local fallback) and linked.
    assert client.count(" -E ") == 4 and client.count("-fdirectives-only") >= 4, client
    assert "building myself" not in client and "locally" not in client.replace(
        "neither -c nor -S argument, building locally", ""), client
    # The remote daemon ran pipecc (/usr/bin/gcc in the environment) on each text, without a word on stderr.
    for name in ("main", "a", "b", "c"):
        assert f"remote compile for file {name}.c" in remote, remote
    compiles = [line for line in remote.splitlines() if "final arguments:" in line]
    assert len(compiles) == 4 and all("-fpreprocessed -" in c and "-fdirectives-only" in c for c in compiles), remote
    assert "stderr output" not in remote and "exited with exit code" not in remote, remote
    for name in ("main", "a", "b", "c"):
        assert (src / f"{name}.o").read_bytes() == (local / f"{name}.o").read_bytes(), name
        assert (src / f"{name}.d").read_text() == (local / f"{name}.d").read_text(), name
    assert subprocess.run([str(src / "prog")], timeout=30).returncode == 0
