#!/usr/bin/env python3
"""gcc's c-torture/execute suite, run by pipecc (or gcc, or clang) natively.

One implementation, used by scripts/torture (the whole suite, a summary by
cause, --update-expected) and by tests/test_torture.py (CI's fixed sample),
so that both judge a result against tests/torture/expected-failures.list in
the same way.

Source. gcc-12-source (a Debian package; scripts/lib.sh installs it) holds
gcc's sources as /usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz. At first use the
gcc.c-torture/execute directory alone is extracted into build/torture-src/
(ignored by git; never committed). The programs are its top-level *.c files
(1,592 in gcc 12.2): builtins/ needs its -lib.c companions and ieee/ is all
floating point; neither is run.

What gcc's harness does, and what we do. execute.exp runs every program at
each torture option set with the default flags "-w" and expects it to build,
run and exit 0 (abort() is the failure). The dg- comments in each file:
  - dg-options "F" replaces the default flags, dg-additional-options "F"
    adds to them, each only where its `{ target SEL }` holds; gcc puts them
    after the torture -O option, so an -O in them wins, here too;
  - dg-skip-if "why" { SEL } { INCLUDE } { EXCLUDE } skips the test where
    SEL holds and the flags contain an INCLUDE option and no EXCLUDE
    option ("*" is any, "" none): here only "requires higher optimization"
    at -O1 matters;
  - dg-require-effective-target NAME skips it unless the target has NAME
    (EFFECTIVE_TARGETS below: what gcc's check_effective_target_NAME says on
    x86_64 Linux with glibc);
  - dg-add-options stack_size and ieee add nothing on x86_64 Linux;
    dg-require-stack-size, -alias and -weak hold; dg-xfail-if and
    dg-xfail-run-if name only other targets; dg-do is always run;
    dg-prune-output concerns messages only.
gcc 12's execute/ has no .x files any more (they became the dg- comments
above); a PROGRAM.x beside a program, as older releases had, is obeyed in
its one disabling form: `return 1` skips the program.

Flags given to pipecc (and clang). gcc's flags that only steer gcc's own
optimizer or target tuning (GCC_ONLY below: -ftree-..., -fno-inline,
-mno-mmx, -Og...) are not passed to pipecc or clang; every other flag from the dg- comments is passed
(-std=, -fwrapv, -fgnu89-inline...), and pipecc builds with it or refuses it
by name. The programs are linked with -lm, as gcc's harness links them.

What counts. A (program, -O level) counts only where gcc -O level builds it
and the program exits 0 ("the gcc baseline", cached in
build/torture-src/baseline-gcc.json by file hash, flags and gcc version).
Each counted program is built by the compiler under test to an object (-c),
linked by cc, run with a timeout, and must exit 0. With pipecc the object
must also define the global symbols gcc's object of the same level defines,
each with the same nm letter (tests/symbols.py).

Causes. A failure's cause is the first error line of the failing step,
normalized so that the same problem gives the same text in every program:
  unsupported: WHAT        c2ast refuses a construct by name (the quoted
                           identifier or type is dropped unless it names the
                           construct itself: an attribute, builtin,
                           expression, statement, operator, conversion)
  rejected by clang 14     clang's own error, in c2ast's front end
  error in STAGE: MSG      a stage after c2ast refused its input
  internal error in STAGE: MSG  a stage crashed or exited 3
  pipecc: MSG              the driver refused the command line
  link error: MSG          the link failed
  runtime failure: abort | SIGSEGV | ... | exit N   the program ran wrong
  timeout: compile | run   over the time limit
  symbols differ from gcc's   it ran, but the object's globals differ
"""
import argparse
import concurrent.futures
import contextlib
import fcntl
import fnmatch
import hashlib
import json
import os
import pathlib
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))
import symbols  # noqa: E402  (tests/symbols.py)

TARBALL = pathlib.Path("/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz")
MEMBER = "gcc-12.2.0/gcc/testsuite/gcc.c-torture/execute"
CACHE = ROOT / "build" / "torture-src"
EXPECTED = HERE / "expected-failures.list"   # not .txt: test_roundtrip reads tests/**/*.txt as modules
LEVELS = ("O0", "O1", "O2")
TRIPLET = "x86_64-pc-linux-gnu"
COMPILE_TIMEOUT = 120
RUN_TIMEOUT = 10

# check_effective_target_NAME on x86_64 Linux, glibc, gcc 12 (lp64, not ia32).
EFFECTIVE_TARGETS = {
    "int32plus": True, "int32": True, "longlong64": True, "double64plus": True, "lp64": True,
    "int128": True, "stdint_types": True, "label_values": True, "alloca": True, "trampolines": True,
    "indirect_jumps": True, "untyped_assembly": True, "return_address": True, "fileio": True,
    "c99_runtime": True, "unwrapped": True, "mmap": True, "dfp": True, "fpic": True, "signal": True,
    "ia32": False, "freestanding": False, "newlib_nano_io": False, "vxworks_kernel": False,
}

# gcc flags that steer only gcc's optimizer or target tuning; not given to
# pipecc (they do not change what the program means).
GCC_ONLY = ("-m", "-ftree-", "-fno-tree-", "-fno-inline", "-fmodulo-sched", "-fexpensive-optimizations",
            "-fno-ipa-", "-fno-early-inlining", "-fno-dce", "-fno-ira-", "-foptimize-strlen",
            "-fno-vect-cost-model", "-Og")


# ---------------------------------------------------------------- the source

def source_dir():
    """The execute/ directory, extracted from gcc-12-source at first use."""
    target = CACHE / "execute"
    if (target / "execute.exp").exists():
        return target
    if not TARBALL.exists():
        raise FileNotFoundError(f"{TARBALL} is missing: install gcc-12-source (scripts/lib.sh does)")
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # pytest-xdist workers may all get here
        if not (target / "execute.exp").exists():
            tmp = pathlib.Path(tempfile.mkdtemp(dir=CACHE))
            subprocess.run(["tar", "-xJf", str(TARBALL), "-C", str(tmp), "--wildcards", MEMBER + "/*"],
                           check=True)
            shutil.rmtree(target, ignore_errors=True)
            (tmp / MEMBER).rename(target)
            shutil.rmtree(tmp)
    return target


def all_programs():
    return sorted(source_dir().glob("*.c"), key=lambda p: p.name)


# ---------------------------------------------------------- the dg- comments

def tcl_words(text, i=0, end=None):
    """Splits Tcl-like text into words: "quoted", {braced} (kept as a list of
    its words), or bare. Returns the list."""
    words = []
    end = len(text) if end is None else end
    while i < end:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == '"':
            j = i + 1
            while j < end and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            words.append(text[i + 1:j].replace('\\"', '"'))
            i = j + 1
        elif c == "{":
            depth, j = 1, i + 1
            while j < end and depth:
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            words.append(tcl_words(text, i + 1, j - 1))
            i = j
        else:
            j = i
            while j < end and not text[j].isspace() and text[j] not in "{}\"":
                j += 1
            words.append(text[i:j])
            i = j if j > i else i + 1
    return words


def directives(src_text):
    """Every `{ dg-NAME ARGS }` comment, as (NAME, [words])."""
    found = []
    for m in re.finditer(r"\{\s*dg-([a-z-]+)", src_text):
        depth, j = 1, m.end()
        while j < len(src_text) and depth:
            depth += {"{": 1, "}": -1}.get(src_text[j], 0)
            j += 1
        found.append((m.group(1), tcl_words(src_text, m.end(), j - 1)))
    return found


def selector_holds(sel):
    """A dg target selector: triplet patterns, effective-target names, !, &&, ||."""
    if isinstance(sel, str):
        sel = [sel]
    if sel and sel[0] == "target":
        sel = sel[1:]
    if sel and sel[0] == "!":
        return not selector_holds(sel[1:])
    for op, combine in (("||", any), ("&&", all)):
        if op in sel:
            parts, cur = [], []
            for w in sel:
                if w == op:
                    parts.append(cur)
                    cur = []
                else:
                    cur.append(w)
            parts.append(cur)
            return combine(selector_holds(p) for p in parts)
    results = []
    for w in sel:
        if isinstance(w, list):
            results.append(selector_holds(w))
        elif "-" in w and ("*" in w or w.count("-") >= 2):
            results.append(fnmatch.fnmatchcase(TRIPLET, w))
        else:
            if w not in EFFECTIVE_TARGETS:
                raise ValueError(f"unknown effective target '{w}'")
            results.append(EFFECTIVE_TARGETS[w])
    return any(results)


def flags_words(w):
    return shlex.split(" ".join(w)) if isinstance(w, list) else shlex.split(w)


def flag_matches(pattern, flags):
    if pattern == "*":
        return True
    if pattern == "":
        return False
    return all(any(fnmatch.fnmatchcase(f, p) for f in flags) for p in pattern.split())


class Program:
    """One c-torture program and what its dg- comments ask for."""

    def __init__(self, path):
        self.path = pathlib.Path(path)
        self.name = self.path.stem
        text = self.path.read_text(errors="replace")
        self.options = None          # dg-options (replaces the default "-w")
        self.additional = []         # dg-additional-options
        self.skips = []              # (why, selector, include, exclude)
        self.unsupported = None      # a failed dg-require-effective-target
        for name, words in directives(text):
            if name in ("options", "additional-options"):
                if len(words) > 1 and not selector_holds(words[1]):
                    continue
                flags = flags_words(words[0]) if words else []
                if name == "options":
                    self.options = flags
                else:
                    self.additional += flags
            elif name == "skip-if":
                include = words[2] if len(words) > 2 else ["*"]
                exclude = words[3] if len(words) > 3 else [""]
                self.skips.append((words[0], words[1], include, exclude))
            elif name == "require-effective-target":
                holds = selector_holds(words[0]) and (len(words) < 2 or selector_holds(words[1]))
                if not holds and self.unsupported is None:
                    self.unsupported = f"requires {words[0]}"
        x = self.path.with_suffix(".x")
        if x.exists() and re.search(r"^\s*return 1", x.read_text(errors="replace"), re.M):
            self.unsupported = f"{x.name} disables it"

    def dg_flags(self):
        return (["-w"] if self.options is None else list(self.options)) + self.additional

    def skipped(self, level):
        """Why gcc's harness would not run this program at -O level, or None."""
        if self.unsupported:
            return self.unsupported
        flags = [f"-{level}"] + self.dg_flags()
        for why, sel, include, exclude in self.skips:
            inc = include if isinstance(include, list) else [include]
            exc = exclude if isinstance(exclude, list) else [exclude]
            if (selector_holds(sel) and any(flag_matches(p, flags) for p in inc)
                    and not any(flag_matches(p, flags) for p in exc)):
                return f"dg-skip-if: {why}"
        return None

    def flags(self, compiler, level):
        """The command-line flags `compiler` gets at -O level, as gcc's harness
        orders them: torture option, then the dg- flags."""
        dg = self.dg_flags()
        if compiler != "gcc":
            dg = [f for f in dg if not f.startswith(GCC_ONLY)]
        return [f"-{level}"] + dg


# ------------------------------------------------------------------ building

class Result:
    """What one (compiler, program, level) did: ok, or the cause of its
    failure (normalized) and the detail (the first error lines)."""

    def __init__(self, ok, cause=None, detail="", symbols=None, seconds=0.0):
        self.ok, self.cause, self.detail, self.symbols, self.seconds = ok, cause, detail, symbols, seconds

    def to_json(self):
        return {"ok": self.ok, "cause": self.cause, "detail": self.detail, "symbols": self.symbols}

    @staticmethod
    def from_json(j):
        return Result(j["ok"], j["cause"], j.get("detail", ""), j.get("symbols"))


KEEP_QUOTED = ("attribute", "builtin", "expression", "statement", "operator", "conversion", "lvalue",
               "address of a '")
LOCATION = re.compile(r"^(?:\S+?:\d+:\d+:\s*)?")


def normalize(message):
    """One error message as a cause: no file, line, node or identifier."""
    m = message.strip()
    m = re.sub(r"\b[ib]\d+\b", "N", m)                 # node and block ids
    m = re.sub(r"function '[^']*'", "function", m)
    what = m[len("unsupported: "):]
    if m.startswith("unsupported: ") and not what.startswith(KEEP_QUOTED):
        m = "unsupported: " + re.sub(r"(?<=\S)\s+'[^']*'.*$", "", what)   # a leading '?:' names the construct
    return m.strip()


ERROR_LINE = re.compile(r"^(?P<tool>[\w.+-]+): (?:(?P<where>.*?): )?(?:fatal )?error: (?P<msg>.*)$")
CLANG_LINE = re.compile(r"^(?:(?P<where>.+?):\d+:\d+: )?(?:fatal )?error: (?P<msg>.*)$")  # no place: c2ast had none
TOOLS = {"c2ast", "ast2cfg", "cfg2ssa", "ssa2son", "sonopt", "son-lower-x64", "son2cfg", "cfgopt", "regalloc-x64",
         "codegen-x64", "pipecc", "pipe-run", "cc", "as", "ld"}


def compile_cause(stderr, status):
    """The cause of a failed `pipecc -c`, from its stderr and exit status."""
    lines = stderr.splitlines()
    internal = next((l for l in lines if l.startswith("pipecc: internal error: stage '")), None)
    if internal:
        stage = re.match(r"pipecc: internal error: stage '([^']+)'", internal).group(1)
        first = next((l for l in lines if l.startswith(stage + ":")), "")
        msg = ERROR_LINE.match(first)
        text = normalize(msg.group("msg")) if msg else re.sub(r".*failed \(([^)]*)\).*", r"\1", internal)
        return f"internal error in {stage}: {text}", first or internal
    for line in lines:
        m = ERROR_LINE.match(line)
        if not m or m.group("tool") not in TOOLS:
            # pipecc prints c2ast's diagnostics as clang does: FILE:LINE:COL: error: ...
            c = CLANG_LINE.match(line)
            if c:
                msg = c.group("msg")
                return (normalize(msg) if msg.startswith("unsupported: ") else "rejected by clang 14"), line
            continue
        tool, msg = m.group("tool"), m.group("msg")
        if tool == "c2ast":
            if msg.startswith("unsupported: "):
                return normalize(msg), line
            return "rejected by clang 14", line
        if tool == "pipecc":
            return "pipecc: " + normalize(msg), line
        return f"error in {tool}: {normalize(msg)}", line
    first = next((l for l in lines if l.strip()), f"exit status {status}")
    return f"compile error: {normalize(first)}", first


def link_cause(stderr):
    lines = stderr.splitlines()
    first = next((l for l in lines if "undefined reference" in l or "error" in l), lines[0] if lines else "")
    m = re.search(r"undefined reference to `([^']*)'", first)
    if m:
        return f"link error: undefined reference to '{m.group(1)}'", first
    return "link error: " + re.sub(r"^.*?: ", "", first).strip(), first


# Runtime failures that are not our wrong code, by program: the reason
# replaces the bare signal as the cause in the expected-failures list, so
# the list says why (each checked against clang 14 -O2 and gcc's own build).
# Only for a program that aborts; any other failure keeps its signal.
KNOWN_ABORTS = {
}
# (20021127-1, gcc's inline llabs, and 20030125-1, floor((double)f) narrowed
# to floorf(f) when optimizing, pass since c2ast does both as gcc does:
# stages/c2ast/builtins.cpp and floats.cpp; 20031003-1, gcc's front end
# folding an out-of-range float-to-int constant to the nearest bound, since
# c2ast folds it the same way: expressions.cpp, saturated_conversion.)


def runtime_cause(status, program=None):
    if status < 0 and -status == signal.SIGABRT and program in KNOWN_ABORTS:
        return "runtime failure: " + KNOWN_ABORTS[program]
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return "runtime failure: abort" if name == "SIGABRT" else f"runtime failure: {name}"
    return f"runtime failure: exit {status}"


def run(argv, timeout, cwd=None):
    """(status, stderr text) or (None, '') on timeout."""
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, cwd=cwd,
                           start_new_session=True)
    except subprocess.TimeoutExpired:
        return None, ""
    return p.returncode, p.stderr.decode(errors="replace")


def compiler_argv(compiler, build):
    if compiler == "pipecc":
        return [str(pathlib.Path(build) / "pipecc")]
    return [{"gcc": "gcc", "clang": "clang-14"}[compiler]]


def build_and_run(compiler, program, level, workdir, build, compile_timeout=COMPILE_TIMEOUT,
                  run_timeout=RUN_TIMEOUT, check_each=False):
    """Compiles `program` at -O level to an object, links and runs it.
    `check_each`: pipecc --check-each (sonopt and cfgopt run the program
    under pipe-run after every pass application; one that changes its
    behaviour fails the compile, an internal error naming the pass)."""
    start = time.monotonic()
    stem = pathlib.Path(workdir) / f"{program.name}.{compiler}.{level}"
    obj, exe = stem.with_suffix(".o"), stem.with_suffix(".exe")
    flags = program.flags(compiler, level)
    if check_each and compiler == "pipecc" and level != "O0":
        flags = flags + ["--check-each"]
    status, err = run(compiler_argv(compiler, build) + flags + ["-c", str(program.path), "-o", str(obj)],
                      compile_timeout)
    if status is None:
        return Result(False, "timeout: compile", seconds=time.monotonic() - start)
    if status != 0:
        if compiler == "pipecc":
            cause, detail = compile_cause(err, status)
        else:   # gcc's or clang's own error
            detail = next((l for l in err.splitlines() if "error" in l), err.strip()[:200])
            cause = "rejected by clang 14" if compiler == "clang" else "rejected by gcc"
        return Result(False, cause, detail, seconds=time.monotonic() - start)
    table = symbols.defined_globals(obj)
    status, err = run(["cc", str(obj), "-o", str(exe), "-lm"], compile_timeout)
    if status != 0:
        cause, detail = link_cause(err) if status is not None else ("timeout: link", "")
        return Result(False, cause, detail, table, time.monotonic() - start)
    status, err = run([str(exe)], run_timeout, cwd=workdir)
    seconds = time.monotonic() - start
    for f in (obj, exe):
        f.unlink(missing_ok=True)
    if status is None:
        return Result(False, "timeout: run", symbols=table, seconds=seconds)
    if status != 0:
        return Result(False, runtime_cause(status, program.name if compiler == "pipecc" else None), err.strip().splitlines()[0] if err.strip() else "",
                      table, seconds)
    return Result(True, symbols=table, seconds=seconds)


def judge_symbols(result, gcc_result):
    """A passing pipecc result whose globals differ from gcc's becomes a
    failure with the cause 'symbols differ from gcc's'."""
    if result.ok and gcc_result.symbols is not None and result.symbols is not None:
        problem = symbols.difference(result.symbols, gcc_result.symbols)
        if problem:
            return Result(False, "symbols differ from gcc's", problem.replace("\n", "; "), result.symbols,
                          result.seconds)
    return result


# The stages whose output pipe-run can run, in pipeline order (pipecc
# --save-temps names each saved module after the stage that wrote it).
RUNNABLE_STAGES = ("ast2cfg", "cfg2ssa", "ssa2son", "sonopt", "son-lower-x64", "son2cfg", "cfgopt",
                   "regalloc-x64")


def first_wrong_stage(program, level, workdir, build, timeout=RUN_TIMEOUT):
    """For a program that builds and then runs wrong: `pipecc --save-temps`
    it and pipe-run every saved module in pipeline order. Returns (the first
    stage whose output does not exit 0 under pipe-run, or codegen-x64 when
    every module runs right, or None when the modules cannot be saved;
    'stage: exit status' for each module run)."""
    temps = pathlib.Path(workdir) / f"{program.name}.{level}.temps"
    temps.mkdir(parents=True, exist_ok=True)
    argv = [str(pathlib.Path(build) / "pipecc"), *program.flags("pipecc", level), f"--save-temps={temps}",
            "-c", str(program.path), "-o", str(temps / "prog.o")]
    status, _ = run(argv, COMPILE_TIMEOUT)
    if status != 0:
        return None, []
    seen = []
    for stage in RUNNABLE_STAGES:
        module = temps / f"{program.name}.{stage}.bin"
        if not module.exists():
            continue
        got, err = run([str(pathlib.Path(build) / "pipe-run"), str(module)], timeout * 3)
        seen.append(f"{stage}: {'timeout' if got is None else got}")
        if got != 0:
            return stage, seen
    return "codegen-x64", seen


# --------------------------------------------------------- the gcc baseline

def gcc_version():
    return subprocess.run(["gcc", "--version"], stdout=subprocess.PIPE).stdout.decode().splitlines()[0]


class Baseline:
    """gcc's result for each (program, level), cached across runs in
    build/torture-src/baseline-gcc.json, keyed by the program's hash, its
    flags and gcc's version. Safe under several processes (a lock)."""

    def __init__(self, path=None):
        self.path = pathlib.Path(path or CACHE / "baseline-gcc.json")
        self.version = gcc_version()
        self.entries = self._read()

    def _read(self):
        try:
            return json.loads(self.path.read_text())
        except (FileNotFoundError, json.JSONDecodeError):
            return {}

    def key(self, program, level):
        digest = hashlib.sha256(program.path.read_bytes()).hexdigest()[:16]
        return f"{program.name}|{level}|{digest}|{' '.join(program.flags('gcc', level))}|{self.version}"

    def get(self, program, level):
        j = self.entries.get(self.key(program, level))
        return Result.from_json(j) if j else None

    def compute(self, program, level, workdir):
        result = self.get(program, level)
        if result is None:
            result = build_and_run("gcc", program, level, workdir, None)
            self.entries[self.key(program, level)] = result.to_json()
        return result

    def save(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            merged = self._read()
            merged.update(self.entries)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(merged, indent=0, sort_keys=True))
            tmp.replace(self.path)
            self.entries = merged


# ------------------------------------------------------ the expected failures

def read_expected(path=EXPECTED):
    """{(program, level): cause} from the list. Each line is
    `PROGRAM LEVELS CAUSE`, LEVELS being `all` or a comma-separated list such
    as `O0,O1`; `#` starts a comment."""
    expected = {}
    for n, line in enumerate(pathlib.Path(path).read_text().splitlines(), 1):
        line = line.split("#", 1)[0].strip() if line.lstrip().startswith("#") else line.strip()
        if not line:
            continue
        parts = line.split(None, 2)
        if len(parts) < 3:
            raise ValueError(f"{path}:{n}: want 'PROGRAM LEVELS CAUSE'")
        name, levels, cause = parts
        for level in (LEVELS if levels == "all" else levels.split(",")):
            if level not in LEVELS:
                raise ValueError(f"{path}:{n}: unknown level '{level}'")
            expected[(name, level)] = cause
    return expected


HEADER = """\
# Expected failures of gcc's c-torture/execute under pipecc (scripts/torture).
# One line per program: PROGRAM LEVELS CAUSE, LEVELS `all` when every -O
# level fails alike, else the levels (O0,O1,O2) that fail with that cause.
# A program fails the suite when it fails and is not listed here, fails with
# another cause, or passes while listed: the list only shrinks.
# Only programs that gcc builds and passes on this machine are listed.
# Regenerate (then review the diff): scripts/torture --update-expected
"""


def write_expected(expected, path=EXPECTED):
    by_program = {}
    for (name, level), cause in expected.items():
        by_program.setdefault(name, {}).setdefault(cause, []).append(level)
    lines = []
    for name in sorted(by_program):
        causes = by_program[name]
        for cause in sorted(causes, key=lambda c: min(causes[c])):
            levels = sorted(causes[cause])
            lines.append(f"{name} {'all' if levels == list(LEVELS) else ','.join(levels)} {cause}")
    pathlib.Path(path).write_text(HEADER + "\n".join(lines) + "\n")


def judge(name, level, result, expected):
    """None when `result` is what the list expects of (name, level), else the
    problem: an unexpected failure, another cause, or an unexpected pass."""
    want = expected.get((name, level))
    if result.ok:
        if want is None:
            return None
        return (f"{name} -{level}: passes, but tests/torture/expected-failures.list expects '{want}' "
                f"(remove it: scripts/torture --update-expected)")
    if want == result.cause:
        return None
    if want is None:
        return f"{name} -{level}: fails ({result.cause}), not an expected failure\n    {result.detail}"
    return f"{name} -{level}: fails with '{result.cause}', expected '{want}'\n    {result.detail}"


# ----------------------------------------------------------------- the sample

# CI's sample: every SAMPLE_STEP-th program by sorted name, and these, which
# exercise what csmith never writes. All pass at some level, so a
# regression shows, except the three marked "issue 17", which fail for a
# reason issue 17 fixes, so the fix shows (the list must then shrink).
SAMPLE_STEP = 20
SAMPLE_EXTRA = (
    # recursion (self, mutual, through pointers, non-tail)
    "20000121-1", "20000412-2", "20001130-1", "20010119-1", "920409-1", "920501-1", "921007-1",
    "930529-1", "960311-1", "980506-2", "pr35472", "pr97404", "pure-1",
    # variadic functions, va_list passed on, printf-like functions
    "20000519-1", "920726-1", "991216-2", "user-printf", "va-arg-1", "va-arg-2", "va-arg-4", "va-arg-10",
    "va-arg-13", "va-arg-14", "va-arg-24", "vprintf-1",
    "pr67037",      # issue 17 item 4: variadic call through a pointer, callee in rax
    # attributes (noinline, aligned, packed, const, pure, used...)
    "align-1", "align-3", "20010904-1", "20040917-1", "20071029-1", "20080506-2", "20141125-1",
    "alias-2",      # issue 17 item 3: attribute alias
    # function pointers, struct copies, included files
    "921110-1", "991112-1", "pr34456", "struct-cpy-1",
    "20040705-1",   # issue 17 item 2: the definitions come from an included .c file
)


def sample(programs):
    chosen = {p.stem for p in programs[::SAMPLE_STEP]} | set(SAMPLE_EXTRA)
    return [p for p in programs if p.stem in chosen]


# ------------------------------------------------------------------- the CLI

def category(cause):
    for prefix in ("unsupported", "rejected by clang 14", "rejected by gcc", "runtime failure", "timeout", "internal error",
                   "error in", "link error", "pipecc", "symbols differ"):
        if cause.startswith(prefix):
            return {"error in": "stage error", "pipecc": "pipecc refuses a flag"}.get(prefix, prefix)
    return "other"


def reproduce(compiler, program, level, build):
    cc = "build/pipecc" if compiler == "pipecc" else compiler_argv(compiler, build)[0]
    flags = " ".join(shlex.quote(f) for f in program.flags(compiler, level))
    src = shlex.quote(str(program.path.relative_to(ROOT)) if program.path.is_relative_to(ROOT)
                      else str(program.path))
    return f"{cc} {flags} {src} -o /tmp/t -lm && /tmp/t; echo exit $?"


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    levels = [a[1:] for a in argv if a in ("-O0", "-O1", "-O2")]
    argv = [a for a in argv if a not in ("-O0", "-O1", "-O2")]
    ap = argparse.ArgumentParser(
        prog="scripts/torture",
        description="gcc's c-torture/execute built natively at -O0, -O1 and -O2; each program must exit 0 "
                    "where gcc's build does. -O0/-O1/-O2 pick levels (default all three).")
    ap.add_argument("globs", nargs="*", help="program names or globs (default: all), e.g. 'pr5*' 20000112-1")
    ap.add_argument("--compiler", choices=("pipecc", "gcc", "clang"), default="pipecc")
    ap.add_argument("--build", default=os.environ.get("PIPE_BUILD_DIR", str(ROOT / "build")))
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--sample", action="store_true", help="only CI's fixed sample")
    ap.add_argument("--update-expected", action="store_true",
                    help="rewrite tests/torture/expected-failures.list for the programs and levels run")
    ap.add_argument("--timeout", type=int, default=RUN_TIMEOUT, help="seconds a program may run")
    ap.add_argument("--json", help="write every result to this file")
    ap.add_argument("--first-wrong-stage", action="store_true",
                    help="for each program that ran wrong, pipe-run every module pipecc --save-temps "
                         "keeps and name the first stage whose output runs wrong")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every failure with its detail")
    args = ap.parse_args(argv)
    levels = levels or list(LEVELS)

    programs = all_programs()
    if args.sample:
        programs = sample(programs)
    if args.globs:
        programs = [p for p in programs if any(fnmatch.fnmatchcase(p.stem, g) or fnmatch.fnmatchcase(p.name, g)
                                               for g in args.globs)]
    programs = [Program(p) for p in programs]
    print(f"c-torture/execute: {len(programs)} programs at {', '.join('-' + l for l in levels)}, "
          f"{args.compiler}, {args.jobs} jobs", file=sys.stderr)

    baseline = Baseline()
    work = pathlib.Path(tempfile.mkdtemp(prefix="torture-"))
    results = {}       # (name, level) -> Result, for counted programs
    skipped = {}       # (name, level) -> why
    gcc_failed = {}
    started = time.monotonic()
    done = [0]
    tasks = [(p, l) for p in programs for l in levels]

    def one(task):
        program, level = task
        why = program.skipped(level)
        if why:
            return task, "skip", why
        wdir = work / f"{program.name}.{level}"
        wdir.mkdir(parents=True, exist_ok=True)
        base = baseline.compute(program, level, wdir)
        if not base.ok:
            return task, "gcc", base
        if args.compiler == "gcc":
            return task, "ran", base
        result = build_and_run(args.compiler, program, level, wdir, args.build, run_timeout=args.timeout)
        if args.compiler == "pipecc":
            result = judge_symbols(result, base)
        shutil.rmtree(wdir, ignore_errors=True)
        return task, "ran", result

    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for (program, level), kind, value in pool.map(one, tasks):
                key = (program.name, level)
                if kind == "skip":
                    skipped[key] = value
                elif kind == "gcc":
                    gcc_failed[key] = value
                else:
                    results[key] = value
                done[0] += 1
                if sys.stderr.isatty() and done[0] % 20 == 0:
                    print(f"\r{done[0]}/{len(tasks)} {time.monotonic() - started:.0f}s", end="", file=sys.stderr)
    finally:
        baseline.save()
        shutil.rmtree(work, ignore_errors=True)
    if sys.stderr.isatty():
        print(file=sys.stderr)

    by_name = {p.name: p for p in programs}
    print(f"\n{args.compiler}: programs passing out of those gcc builds and passes "
          f"(wall {time.monotonic() - started:.0f}s)")
    for level in levels:
        counted = [k for k in results if k[1] == level]
        passed = sum(results[k].ok for k in counted)
        skip = sum(1 for k in skipped if k[1] == level)
        gfail = sum(1 for k in gcc_failed if k[1] == level)
        pct = 100.0 * passed / len(counted) if counted else 0.0
        print(f"  -{level}: {passed} / {len(counted)} ({pct:.1f}%)   [not counted: {gfail} gcc fails, "
              f"{skip} skipped by dg- comments]")

    failures = {k: r for k, r in results.items() if not r.ok}
    if failures:
        print("\nfailures by category (program-levels):")
        cats = {}
        for r in failures.values():
            cats[category(r.cause)] = cats.get(category(r.cause), 0) + 1
        for c, n in sorted(cats.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {n:5d}  {c}")
        print("\nfailures by cause (program-levels, programs):")
        causes = {}
        for (name, level), r in failures.items():
            causes.setdefault(r.cause, set()).add((name, level))
        for cause, keys in sorted(causes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            print(f"  {len(keys):5d} {len({n for n, _ in keys}):5d}  {cause}")
        wrong = sorted(k for k, r in failures.items() if r.cause.startswith(("runtime failure", "timeout: run")))
        if wrong:
            print("\nbuilt, then ran wrong (possible wrong code):")
            for name, level in wrong:
                print(f"  {name} -{level}: {failures[(name, level)].cause}\n"
                      f"      {reproduce(args.compiler, by_name[name], level, args.build)}")
                if args.first_wrong_stage and args.compiler == "pipecc":
                    tdir = pathlib.Path(tempfile.mkdtemp(prefix="torture-stage-"))
                    stage, seen = first_wrong_stage(by_name[name], level, tdir, args.build, args.timeout)
                    shutil.rmtree(tdir, ignore_errors=True)
                    guilty = {"ast2cfg": "c2ast or ast2cfg", None: "unknown"}.get(stage, stage)
                    print(f"      first wrong under pipe-run: {guilty} (pipe-run exit status of each "
                          f"stage's output: {', '.join(seen)})")
        if args.verbose:
            print("\nevery failure:")
            for (name, level), r in sorted(failures.items()):
                print(f"  {name} -{level}: {r.cause}\n      {r.detail}")

    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(
            {f"{n}|{l}": r.to_json() for (n, l), r in sorted(results.items())}, indent=1))

    if args.compiler != "pipecc":
        return 0
    expected = read_expected()
    if args.update_expected:
        run_keys = {(p.name, l) for p in programs for l in levels}
        kept = {k: c for k, c in expected.items() if k not in run_keys}
        kept.update({k: r.cause for k, r in failures.items()})
        write_expected(kept)
        print(f"\nwrote {EXPECTED.relative_to(ROOT)}: {len(kept)} program-levels")
        return 0
    problems = [judge(n, l, r, expected) for (n, l), r in sorted(results.items())]
    problems = [p for p in problems if p]
    run_keys = {(p.name, l) for p in programs for l in levels}
    for key in sorted(k for k in expected if k in run_keys and k not in results):
        why = skipped.get(key) or f"gcc fails: {gcc_failed[key].cause}"
        problems.append(f"{key[0]} -{key[1]}: listed, but not counted ({why}); scripts/torture --update-expected")
    if problems:
        print(f"\n{len(problems)} results differ from tests/torture/expected-failures.list:")
        for p in problems:
            print("  " + p)
        return 1
    print("\nevery result is as tests/torture/expected-failures.list expects")
    return 0


if __name__ == "__main__":
    sys.exit(main())
