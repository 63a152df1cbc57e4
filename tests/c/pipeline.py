"""Running C programs through the toolchain and through gcc, side by side.

Shared by tests/test_c_programs.py, tests/test_csmith.py and scripts/csmith-diff
(they put this directory on sys.path). Nothing here depends on pytest: a
problem is returned as text that names the failing stage or level and carries
a shell command (run from the repository root) that reproduces it.

The pipeline is processes joined by OS pipes, with tee saving the
intermediate modules:

    c2ast F.c | ast2cfg | tee F.cfg | cfg2ssa | tee F.ssa | ssa2son > F.son

and pipe-run then runs the saved modules. With `x64=True` the pipe goes on
through instruction selection and scheduling,

    ... | ssa2son | tee F.son | son-lower-x64 | tee F.son-x64 | son2cfg
        | tee F.cfg-x64 | regalloc-x64 > F.ra-x64

(levels "son-x64", "cfg-x64" and "ra-x64": pipe-run simulates the registers
and slots the allocation names). With `schedule=True` a second son2cfg
process schedules the saved generic F.son into F.sched, an ssa module (level
"sched"); tee fans out one way only, and reading the saved file costs less
than a second pipe. optimize() adds the son-O2 level and, with x64, lowers,
schedules and allocates it too (levels "cfg-x64-O2" and "ra-x64-O2").
"""
import os
import pathlib
import re
import shlex
import signal
import subprocess
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
STAGES = ("c2ast", "ast2cfg", "cfg2ssa", "ssa2son")
LEVELS = ("cfg", "ssa", "son")   # the output levels of ast2cfg, cfg2ssa, ssa2son
SCHEDULED = "sched"              # son2cfg's output (an ssa module), with schedule=True
X64_STAGES = ("son-lower-x64", "son2cfg-x64", "regalloc-x64")  # with x64=True; son2cfg-x64 is son2cfg on son-x64
X64_LEVELS = ("son-x64", "cfg-x64", "ra-x64")

class ToolMissing(Exception):
    pass


def default_build():
    return pathlib.Path(os.environ.get("PIPE_BUILD_DIR", ROOT / "build"))


def tool(name, build):
    path = pathlib.Path(build) / name
    if not path.exists():
        raise ToolMissing(f"{path} is not built; run scripts/test")
    return str(path)


def shown(path):
    """A path as a reproduce command shows it: relative to the root if inside."""
    path = pathlib.Path(path).absolute()
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def q(path):
    return shlex.quote(shown(path))


class Behaviour:
    """What a program did: stdout and stderr bytes, and its exit status
    (an int, negative for a signal, or a string such as 'timeout after 10 s')."""

    def __init__(self, stdout, stderr, status, seconds=None):
        self.stdout, self.stderr, self.status = stdout, stderr, status
        self.seconds = seconds   # wall time of the run, when measured

    def same_as(self, other):
        return (self.status, self.stdout, self.stderr) == (other.status, other.stdout, other.stderr)


def describe_status(status):
    if isinstance(status, int) and status < 0:
        try:
            return f"killed by signal {-status} ({signal.Signals(-status).name})"
        except ValueError:
            return f"killed by signal {-status}"
    if isinstance(status, int):
        return f"exit {status}"
    return status


def tail(data, lines=12):
    rows = data.decode(errors="replace").rstrip("\n").splitlines()
    if len(rows) > lines:
        rows = [f"... ({len(rows) - lines} lines above)"] + rows[-lines:]
    return "\n".join("    " + r for r in rows) if rows else "    (empty)"


def first_difference(want, got, label="pipe-run"):
    w = want.decode(errors="replace").splitlines()
    g = got.decode(errors="replace").splitlines()
    for i in range(max(len(w), len(g))):
        a = w[i] if i < len(w) else "<end of output>"
        b = g[i] if i < len(g) else "<end of output>"
        if a != b:
            return f"first difference at stdout line {i + 1}:\n    gcc:{' ' * max(1, len(label) - 2)}{a!r}\n    {label}: {b!r}"
    return "same stdout"


def gcc_behaviour(src, exe, cflags=(), timeout=20):
    """Builds src with `gcc -std=gnu11 -O0 -w ... -lm` and runs it. Returns
    (Behaviour, None) or (None, problem text) when gcc cannot build it."""
    cc = ["gcc", "-std=gnu11", "-O0", "-w", *cflags, "-o", str(exe), str(src), "-lm"]  # libm: the float_*.c corpus
    build = subprocess.run(cc, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if build.returncode != 0:
        return None, f"gcc cannot build {shown(src)}:\n  $ {shlex.join(cc)}\n{tail(build.stderr)}"
    return run_process([str(exe)], timeout), None


def run_process(argv, timeout):
    start = time.monotonic()
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
        return Behaviour(p.stdout, p.stderr, p.returncode, time.monotonic() - start)
    except subprocess.TimeoutExpired as e:
        return Behaviour(e.stdout or b"", e.stderr or b"", f"timeout after {timeout} s", timeout)


# pipe-run refuses what it cannot model, by name: inline assembly is machine
# code, setjmp and longjmp save and restore machine state. Such a program runs
# natively only (tests/test_native.py builds the corpus with pipecc); its
# modules are still built and verified at every level.
NATIVE_ONLY = re.compile(rb"cannot interpret [^\n]*\(it runs natively only\)")


def native_only(behaviour):
    """Whether pipe-run refused the program as one it cannot interpret."""
    return behaviour.status == 1 and NATIVE_ONLY.search(behaviour.stderr) is not None


class Pipeline:
    """One program's trip through the stages, its files kept in `outdir`."""

    def __init__(self, src, outdir, fmt="bin", c2ast_args=(), build=None, timeout=60, schedule=False,
                 x64=False):
        self.src = pathlib.Path(src)
        self.fmt = fmt
        self.c2ast_args = list(c2ast_args)
        self.build = pathlib.Path(build) if build else default_build()
        self.timeout = timeout
        self.x64 = x64
        self.stages = STAGES + (X64_STAGES if x64 else ()) + (("son2cfg",) if schedule else ())
        self.levels = LEVELS + ((SCHEDULED,) if schedule else ()) + (X64_LEVELS if x64 else ())
        self.ext = "json" if fmt == "json" else "bin"
        self.outdir = pathlib.Path(outdir)
        self.modules = {level: self.module_path(level) for level in self.levels}
        self.stderr = {stage: self.outdir / f"{self.src.stem}.{stage}.stderr" for stage in self.stages}

    def module_path(self, level):
        return self.outdir / f"{self.src.stem}.{level}.{self.ext}"

    @staticmethod
    def tool_of(stage):
        return "son2cfg" if stage == "son2cfg-x64" else stage

    def chain(self):
        """The piped part: [(stage, argv, tee'd level or None)], the last
        stage writing the last module."""
        f = self.fmt
        t = {name: tool(self.tool_of(name), self.build) for name in self.stages}
        # clang driver options after `--` stay last
        dash = self.c2ast_args.index("--") if "--" in self.c2ast_args else len(self.c2ast_args)
        own, clang = self.c2ast_args[:dash], self.c2ast_args[dash:]
        stages = [("c2ast", [t["c2ast"], str(self.src), *own, "-f", f, *clang]),
                  ("ast2cfg", [t["ast2cfg"], "-f", f]), ("cfg2ssa", [t["cfg2ssa"], "-f", f]),
                  ("ssa2son", [t["ssa2son"], "-f", f])]
        if self.x64:
            stages += [("son-lower-x64", [t["son-lower-x64"], "-f", f]), ("son2cfg-x64", [t["son2cfg-x64"], "-f", f]),
                       ("regalloc-x64", [t["regalloc-x64"], "-f", f])]
        outputs = ["ast", "cfg", "ssa", "son"] + (list(X64_LEVELS) if self.x64 else [])
        return [(name, argv, outputs[i]) for i, (name, argv) in enumerate(stages)]

    def command(self):
        """The pipeline as one shell line, for people (run from the root)."""
        parts = []
        chain = self.chain()
        for i, (name, argv, level) in enumerate(chain):
            shown_argv = [shown(argv[0])] + [shown(a) if a == str(self.src) else a for a in argv[1:]]
            parts.append(shlex.join(shown_argv))
            if i < len(chain) - 1 and level in self.modules:
                parts.append(f"tee {q(self.modules[level])}")
        line = " | ".join(parts) + f" > {q(self.modules[chain[-1][2]])}"
        if SCHEDULED in self.modules:
            line += f" && {shlex.join(self.sched_argv(shown))}"
        return line

    def sched_argv(self, show=str):
        return [show(tool("son2cfg", self.build)), show(self.modules["son"]), "-f", self.fmt,
                "-o", show(self.modules[SCHEDULED])]

    def run(self):
        """Runs the stages; returns None or the problem (the first stage that failed)."""
        chain = []
        for i, (name, argv, level) in enumerate(self.chain()):
            chain.append((name, argv))
            if i < len(self.chain()) - 1 and level in self.modules:
                chain.append((f"tee {level}", ["tee", str(self.modules[level])]))
        last_module = self.modules[self.chain()[-1][2]]
        procs = []
        stdin = subprocess.DEVNULL
        with open(last_module, "wb") as son:
            for i, (name, argv) in enumerate(chain):
                last = i == len(chain) - 1
                err_path = self.stderr.get(name)
                err = open(err_path, "wb") if err_path else subprocess.DEVNULL
                try:
                    p = subprocess.Popen(argv, stdin=stdin, stdout=son if last else subprocess.PIPE,
                                         stderr=err)
                except OSError as e:
                    for _, started in procs:
                        started.kill()
                        started.wait()
                    return f"stage {name} cannot start: {e}\nreproduce:\n  {self.command()}"
                finally:
                    if err_path:
                        err.close()
                if stdin is not subprocess.DEVNULL:
                    stdin.close()   # the child owns it: a dead reader gives its writer SIGPIPE
                stdin = p.stdout
                procs.append((name, p))
            status = {}
            for name, p in procs:
                try:
                    status[name] = p.wait(timeout=self.timeout)
                except subprocess.TimeoutExpired:
                    status[name] = f"timeout after {self.timeout} s"
                    for _, other in procs:
                        other.kill()
                    for other_name, other in procs:
                        status.setdefault(other_name, other.wait())
                    break
        failed = [name for name in self.stages if name in status and status[name] != 0]
        # A stage killed by SIGPIPE only lost its reader: blame the reader.
        real = [name for name in failed if status[name] != -signal.SIGPIPE]
        if failed:
            name = (real or failed)[0]
            return (f"stage {name} failed ({describe_status(status[name])}); its stderr:\n"
                    f"{tail(self.stderr[name].read_bytes())}\n"
                    f"reproduce:\n  {self.command()}")
        if SCHEDULED in self.modules:
            return self.run_alone("son2cfg", self.sched_argv())
        return None

    def native_only(self):
        """After run(): whether pipe-run refuses the cfg module as a program
        it cannot interpret (inline assembly), so that it runs natively only."""
        return native_only(self.run_levels(("cfg",))["cfg"])

    def run_alone(self, stage, argv, extra=""):
        """One stage reading and writing saved modules; None or the problem."""
        try:
            p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=self.timeout)
            status = p.returncode
            err = p.stderr
        except subprocess.TimeoutExpired as e:
            status, err = f"timeout after {self.timeout} s", e.stderr or b""
        if status == 0:
            return None
        return (f"stage {stage} failed ({describe_status(status)}); its stderr:\n{tail(err)}\n"
                f"reproduce:\n  {self.command()}{extra}\n  {shlex.join(shown(a) if os.path.isabs(a) else a for a in argv)}")

    def optimize(self, args=("-O2", "--verify-each", "--check-each")):
        """sonopt on the saved son module -> the "son-O2" module; then sonopt
        again on its own output, which must come back byte for byte (the
        optimization is idempotent). With x64, son-lower-x64 and son2cfg then
        turn son-O2 into the "cfg-x64-O2" module (through son-x64-O2, saved
        but not a level), and regalloc-x64 that into "ra-x64-O2". Adds the
        new levels to self.levels; returns None or the problem. (cfg-x64-O2
        is cfgopt -O2's output, as pipecc -O2 runs it, on son2cfg's, saved
        as sched-x64-O2 but not a level.) By default both optimizers run
        with --verify-each and --check-each: every pass application that
        changed something must keep the level's contract and, under
        pipe-run, the program's stdout, stderr and exit status; the first
        that does not is named with its --bisect-limit number."""
        opt = self.modules["son"].with_name(self.modules["son"].name.replace(".son.", ".son-O2."))
        plain = opt.with_name(opt.name.replace(".son-O2.", ".son-O2-plain."))
        again = opt.with_name(opt.name.replace(".son-O2.", ".son-O2-again."))
        self.modules["son-O2"] = opt
        sonopt = tool("sonopt", self.build)
        # The idempotence check runs sonopt as pipecc does (streaming, passes
        # on threads): --check-each and --dump-changed read the whole module
        # first, an order whose fixpoint may differ.
        for src, dst, flags in ((self.modules["son"], opt, list(args)), (self.modules["son"], plain, ["-O2"]),
                                (plain, again, ["-O2"])):
            argv = [sonopt, str(src), *flags, "-f", self.fmt, "-o", str(dst)]
            p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=self.timeout)
            if p.returncode != 0:
                return (f"sonopt failed ({describe_status(p.returncode)}); its stderr:\n{tail(p.stderr)}\n"
                        f"reproduce:\n  {self.command()}\n  {shlex.join(argv)}")
        if plain.read_bytes() != again.read_bytes():
            return (f"sonopt -O2 is not idempotent: a second run changed its output\n"
                    f"reproduce:\n  {self.command()}\n  {q(tool('sonopt', self.build))} {q(plain)} -O2 -f text")
        self.levels += ("son-O2",)
        if not self.x64:
            return None
        lowered, scheduled = self.module_path("son-x64-O2"), self.module_path("sched-x64-O2")
        optimized, allocated = self.module_path("cfg-x64-O2"), self.module_path("ra-x64-O2")
        self.modules["son-x64-O2"], self.modules["cfg-x64-O2"] = lowered, optimized
        self.modules["ra-x64-O2"] = allocated
        earlier = f"\n  {q(tool('sonopt', self.build))} {q(self.modules['son'])} -O2 -f {self.fmt} -o {q(opt)}"
        for stage, src, dst, flags in (("son-lower-x64", opt, lowered, []), ("son2cfg", lowered, scheduled, []),
                                       ("cfgopt", scheduled, optimized,
                                        ["-O2", *(a for a in args if a in ("--verify-each", "--check-each"))]),
                                       ("regalloc-x64", optimized, allocated, [])):
            argv = [tool(stage, self.build), str(src), *flags, "-f", self.fmt, "-o", str(dst)]
            problem = self.run_alone(stage, argv, extra=earlier)
            if problem:
                return problem
            earlier += "\n  " + shlex.join(shown(a) if os.path.isabs(a) else a for a in argv)
        self.levels += ("cfg-x64-O2", "ra-x64-O2")
        return None

    def run_levels(self, levels=None, timeout=60, run_args=()):
        """Starts pipe-run on each saved module side by side (every level by
        default); returns {level: Behaviour}."""
        levels = self.levels if levels is None else levels
        started = {}
        start = time.monotonic()
        for level in levels:
            out = self.modules[level].with_suffix(".stdout")
            err = self.modules[level].with_suffix(".stderr")
            argv = [tool("pipe-run", self.build), str(self.modules[level]), *run_args]
            with open(out, "wb") as o, open(err, "wb") as e:
                try:
                    started[level] = (subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=o, stderr=e),
                                      out, err)
                except OSError as error:
                    started[level] = (None, out, err)
                    e.write(f"cannot start {argv[0]}: {error}\n".encode())
        results = {}
        for level, (proc, out, err) in started.items():
            if proc is None:
                results[level] = Behaviour(b"", err.read_bytes(), "pipe-run could not start")
                continue
            try:
                status = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                status = f"timeout after {timeout} s"
            results[level] = Behaviour(out.read_bytes(), err.read_bytes(), status,
                                       time.monotonic() - start)
        return results

    def rerun_command(self, level, run_args=()):
        extra = "".join(" " + shlex.quote(a) for a in run_args)
        return f"{q(tool('pipe-run', self.build))} {q(self.modules[level])}{extra}; echo \"exit $?\""

    def compare(self, want, results, run_args=()):
        """Compares pipe-run at each level with gcc's behaviour; returns a list of problems."""
        problems = []
        for level, got in results.items():
            if got.same_as(want):
                continue
            problems.append(
                f"pipe-run at {level}: {describe_status(got.status)}, gcc's build: "
                f"{describe_status(want.status)}\n  {first_difference(want.stdout, got.stdout)}\n"
                f"  pipe-run stderr:\n{tail(got.stderr)}\n"
                f"  rerun: {self.rerun_command(level, run_args)}")
        return problems
