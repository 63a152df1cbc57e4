"""pipe-run, the interpreter of the cfg, ssa and son levels.

Hand-written programs live in tests/run/*.txt, each opening with directives:

    # expect-stdout: TEXT        one line of stdout (TEXT plus a newline); a
                                 JSON string ("...") is taken exactly, without
                                 the newline; several lines concatenate; none
                                 means no output
    # expect-exit: N             exit status (default 0; 70 with expect-error)
    # expect-error: F: iN: MSG   the first stderr line is exactly
                                 `pipe-run: F: iN: runtime error: MSG`
    # expect-stderr: TEXT        stderr contains TEXT
    # args: A B ...              main's arguments (after `--`)
    # flags: --max-steps 100     pipe-run options

A program written at several levels is NAME.cfg.txt, NAME.ssa.txt,
NAME.son.txt (or NAME.son-x64.txt, NAME.cfg-x64.txt, NAME.ra-x64.txt): besides its own directives, the levels must print the same
stdout and exit status.

The rest of this file builds small modules in Python (class Prog: a main of
straight-line code, printable at any level) for tables: the opcode semantics
of common/ir/eval.h against a Python model, printf against gcc's printf, the C
library functions, and every runtime error with its exact message.
"""
import json
import re
import shutil
import subprocess

import pytest

from conftest import ROOT, run_tool

RUNTIME_ERROR = 70
CASES = sorted((ROOT / "tests" / "run").glob("*.txt"))
DIRECTIVE = re.compile(r"^#\s*([a-z][a-z-]*):(?:\s(.*))?$")
KNOWN = {"expect-stdout", "expect-exit", "expect-error", "expect-stderr", "args", "flags"}


# ---- tests/run/*.txt -----------------------------------------------------------

class Expectation:
    def __init__(self):
        self.stdout = ""
        self.exit = None
        self.error = None
        self.stderr = []
        self.args = []
        self.flags = []


def parse_directives(path):
    exp = Expectation()
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        m = DIRECTIVE.match(line)
        if not m:
            continue
        key, value = m.group(1), m.group(2) or ""
        if key not in KNOWN:
            if key.startswith("expect"):  # a typo must not disable a check
                raise AssertionError(f"{path.name}: unknown directive '{key}'")
            continue
        if key == "expect-stdout":
            exp.stdout += json.loads(value) if value.startswith('"') else value + "\n"
        elif key == "expect-exit":
            exp.exit = int(value)
        elif key == "expect-error":
            exp.error = value.strip()
        elif key == "expect-stderr":
            exp.stderr.append(value.strip())
        elif key == "args":
            exp.args = value.split()
        else:
            exp.flags = value.split()
    if exp.exit is None:
        exp.exit = RUNTIME_ERROR if exp.error else 0
    return exp


def run_program(path, flags=(), args=(), input=None):
    return run_tool("pipe-run", path, *flags, "--", *args, input=input, timeout=120)


def check_run(proc, exp, name):
    err = proc.stderr.decode(errors="replace")
    assert proc.stdout.decode(errors="replace") == exp.stdout, f"{name}: stdout differs\nstderr:\n{err}"
    assert proc.returncode == exp.exit, f"{name}: exit {proc.returncode}, want {exp.exit}\nstderr:\n{err}"
    if exp.error:
        function, node, message = exp.error.split(": ", 2)
        first = err.splitlines()[0] if err else ""
        assert first == f"pipe-run: {function}: {node}: runtime error: {message}", f"{name}: stderr:\n{err}"
    for text in exp.stderr:
        assert text in err, f"{name}: stderr lacks {text!r}:\n{err}"


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_run_file(path):
    exp = parse_directives(path)
    check_run(run_program(path, exp.flags, exp.args), exp, path.name)


def level_groups():
    groups = {}
    for path in CASES:
        parts = path.name.split(".")
        if len(parts) == 3 and parts[1] in ("cfg", "ssa", "son", "son-x64", "cfg-x64", "ra-x64"):
            groups.setdefault(parts[0], []).append(path)
    return sorted((name, paths) for name, paths in groups.items() if len(paths) > 1)


@pytest.mark.parametrize("name,paths", level_groups(), ids=lambda x: x if isinstance(x, str) else "")
def test_same_program_at_every_level(name, paths):
    results = set()
    for path in paths:
        level = path.name.split(".")[1]
        assert re.search(rf"^module {level}$", path.read_text(), re.M), f"{path.name} is not at level {level}"
        exp = parse_directives(path)
        proc = run_program(path, exp.flags, exp.args)
        results.add((proc.stdout, proc.returncode))
    assert len(results) == 1, f"{name}: the levels disagree: {results}"


def test_levels_cover_cfg_ssa_son():
    levels = {p.name.split(".")[1] for _, paths in level_groups() for p in paths}
    assert levels >= {"cfg", "ssa", "son", "son-x64", "cfg-x64"}


# ---- a builder for small modules ---------------------------------------------------

class Prog:
    """main() -> i32 as straight-line code in one block; memory is threaded
    through every pinned memory node and call. `functions` holds extra
    functions as printable text (at the same level)."""

    def __init__(self):
        self.lines = []
        self.n = 0
        self.start = self.node("start")
        self.mem = self.node(f"entrymem ^{self.start}")
        self.data = []
        self.externs = []
        self.functions = []
        self.files = []

    def node(self, text, loc=None):
        name = f"i{self.n}"
        self.n += 1
        self.lines.append(f"{name} = {text}" + (f" @{loc}" if loc else ""))
        return name

    def pinned(self, text, loc=None):
        opcode, _, rest = text.partition(" ")
        return self.node(f"{opcode} ^{self.start}" + (f", {rest}" if rest else ""), loc)

    def const(self, t, v):
        return self.node(f'const "{t}", {v}')

    def item(self, name, data=b"", size=None, align=1, readonly=False, relocs=()):
        size = len(data) if size is None else size
        text = f"data internal {'readonly ' if readonly else ''}{name} size {size} align {align}"
        if data:
            text += f' init x"{data.hex()}"'
        for offset, symbol in relocs:
            text += f" reloc {offset} {symbol}"
        self.data.append(text)
        return self.node(f'symaddr "{name}"')

    def string(self, s, name=None):
        return self.item(name or f"s{len(self.data)}", s.encode() + b"\0", readonly=True)

    def extern(self, name, kind="function"):
        if (name, kind) not in self.externs:
            self.externs.append((name, kind))
        return self.node(f'symaddr "{name}"')

    def call(self, callee, result, *args, loc=None):
        """Calls an extern (a name) or a node (a function pointer)."""
        target = callee if re.fullmatch(r"i\d+", callee) else self.extern(callee)
        c = self.pinned(f'call "{result}", {self.mem}, {target}' + "".join(f", {a}" for a in args), loc)
        self.last_call = c
        self.mem = self.node(f"proj 0, {c}")
        return self.node(f"proj 1, {c}")

    def store(self, t, address, value, loc=None):
        self.mem = self.pinned(f'store "{t}", {self.mem}, {address}, {value}', loc)
        return self.mem

    def load(self, t, address, loc=None):
        return self.pinned(f'load "{t}", {self.mem}, {address}', loc)

    def printf(self, fmt, *args):
        return self.call("printf", "i32", self.string(fmt), *args)

    def ret(self, value=None):
        value = value or self.const("i32", 0)
        self.pinned(f"return {self.mem}, {value}")

    def text(self, level="son"):
        out = [f"module {level}"]
        out += [f'file {i} "{f}"' for i, f in enumerate(self.files)]
        out += [f"extern {kind} {name}" for name, kind in self.externs]
        out += self.data
        body = [f"  {line}" for line in self.lines]
        if level != "son":
            body = ["  b0 {"] + [f"  {line}" for line in body] + ["  }"] + (["  b0 =>"] if level == "ssa" else [])
        out += ["", "pipeline main() -> i32 {"] + body + ["}"]
        for fn in self.functions:
            out += ["", fn]
        return "\n".join(out) + "\n"

    def run(self, tmp_path, level="son", flags=(), args=()):
        path = tmp_path / f"prog.{level}.txt"
        path.write_text(self.text(level))
        return run_program(path, flags, args)


# ---- opcode semantics (common/ir/eval.h) against a Python model ---------------------

TYPES = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "ptr": 64}


def mask(bits):
    return (1 << bits) - 1


def signed(v, bits):
    v &= mask(bits)
    return v - (1 << bits) if v >> (bits - 1) else v


def model_binary(op, bits, a, b):
    """The result, or None where eval reports an error."""
    m = mask(bits)
    sa, sb = signed(a, bits), signed(b, bits)
    if op in ("shl", "lshr", "ashr") and b >= bits:
        return None
    if op in ("sdiv", "srem", "udiv", "urem") and b == 0:
        return None
    if op in ("sdiv", "srem") and sa == -(1 << (bits - 1)) and sb == -1:
        return None
    quotient = abs(sa) // abs(sb) * (1 if (sa < 0) == (sb < 0) else -1) if sb else 0
    return {
        "add": (a + b) & m, "sub": (a - b) & m, "mul": (a * b) & m,
        "and": a & b, "or": a | b, "xor": a ^ b,
        "shl": (a << b) & m if b < bits else None, "lshr": a >> b if b < bits else None,
        "ashr": (sa >> b) & m if b < bits else None,
        "sdiv": quotient & m, "srem": (sa - quotient * sb) & m,
        "udiv": a // b if b else None, "urem": a % b if b else None,
        "eq": int(a == b), "ne": int(a != b), "slt": int(sa < sb), "sle": int(sa <= sb),
        "ult": int(a < b), "ule": int(a <= b),
    }[op]


BINARY_OPS = ["add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr", "sdiv", "udiv", "srem", "urem",
              "eq", "ne", "slt", "sle", "ult", "ule"]
PINNED_OPS = {"sdiv", "udiv", "srem", "urem"}
COMPARES = {"eq", "ne", "slt", "sle", "ult", "ule"}


def sample_values(bits):
    m = mask(bits)
    vals = {0, 1, m, 1 << (bits - 1), (1 << (bits - 1)) - 1, 2 & m, 3 & m, (m - 6) & m, 0x5A5A5A5A5A5A5A5A & m,
            min(bits - 1, m), bits & m}
    return sorted(vals)


def eval_cases():
    cases = []
    for t, bits in TYPES.items():
        vals = sample_values(bits)
        for op in BINARY_OPS:
            for a in vals:
                for b in vals:
                    cases.append((op, t, a, b, model_binary(op, bits, a, b)))
        for a in vals:
            cases.append(("neg", t, a, None, (-a) & mask(bits)))
            cases.append(("not", t, a, None, (~a) & mask(bits)))
        for t2, bits2 in TYPES.items():
            for a in vals:
                if bits2 >= bits:
                    cases.append(("sext", (t, t2), a, None, signed(a, bits) & mask(bits2)))
                    cases.append(("zext", (t, t2), a, None, a))
                if bits2 <= bits:
                    cases.append(("trunc", (t, t2), a, None, a & mask(bits2)))
    return cases


def build_eval_module(cases, level):
    p = Prog()
    fmt = p.string("%llu\n", "fmt")
    printf = p.extern("printf")
    expected = []
    for op, t, a, b, want in cases:
        if want is None:
            continue
        if op in ("sext", "zext", "trunc"):
            x = p.const(t[0], a)
            r = p.node(f'{op} "{t[0]}", "{t[1]}", {x}')
            rbits = TYPES[t[1]]
            rtype = t[1]
        elif op in ("neg", "not"):
            r = p.node(f'{op} "{t}", {p.const(t, a)}')
            rbits, rtype = TYPES[t], t
        else:
            x, y = p.const(t, a), p.const(t, b)
            r = (p.pinned if op in PINNED_OPS else p.node)(f'{op} "{t}", {x}, {y}')
            rtype = "i32" if op in COMPARES else t
            rbits = TYPES[rtype]
        wide = p.node(f'zext "{rtype}", "i64", {r}') if rbits < 64 else r
        p.call(printf, "i32", fmt, wide)
        expected.append(f"{want}\n")
    p.ret()
    return p.text(level), "".join(expected)


@pytest.mark.parametrize("level", ["son", "cfg"])
def test_opcode_semantics_match_the_model(tmp_path, level):
    """Every operand is a constant: at son pipe-run folds them at load time
    with eval_pure() (the constant folder's entry point), at cfg its run loop
    computes them; both must agree with the model."""
    text, expected = build_eval_module(eval_cases(), level)
    path = tmp_path / f"eval.{level}.txt"
    path.write_text(text)
    proc = run_program(path)
    assert proc.returncode == 0, proc.stderr.decode()
    got, want = proc.stdout.decode().splitlines(), expected.splitlines()
    cases = [c for c in eval_cases() if c[4] is not None]
    for case, g, w in zip(cases, got, want):
        assert g == w, f"{case[0]} {case[1]} {case[2]} {case[3]}: got {g}, want {w}"
    assert len(got) == len(want)


def test_every_erroring_case_of_the_model_is_an_error_at_run_time(tmp_path):
    errors = {"shl": "shift amount", "lshr": "shift amount", "ashr": "shift amount",
              "sdiv": None, "udiv": "division by zero", "srem": None, "urem": "division by zero"}
    seen = set()
    for op, t, a, b, want in eval_cases():
        if want is not None or (op, t, a == 0 or b == 0) in seen:
            continue
        seen.add((op, t, a == 0 or b == 0))
        p = Prog()
        x, y = p.const(t, a), p.const(t, b)
        r = (p.pinned if op in PINNED_OPS else p.node)(f'{op} "{t}", {x}, {y}')
        p.call("printf", "i32", p.string("%llu\n"), p.node(f'zext "{t}", "i64", {r}') if TYPES[t] < 64 else r)
        p.ret()
        proc = p.run(tmp_path)
        err = proc.stderr.decode()
        assert proc.returncode == RUNTIME_ERROR, f"{op} {t} {a} {b}: {err}"
        msg = errors[op] or ("division by zero" if b == 0 else "signed overflow in division")
        assert f"main: {r}: runtime error: {msg}" in err, err


# ---- printf against gcc ---------------------------------------------------------

PRINTF_CASES = [
    ("%d|%5d|%-5d|%05d|%+d|% d|%.3d|%5.3d", [("i32", 42)] * 8),
    ("%d %d %d", [("i32", -1), ("i32", -2147483648), ("i32", 2147483647)]),
    ("%i %u %x %X %o", [("i32", -17)] * 5),
    ("%#x %#X %#o %#x", [("i32", 255), ("i32", 255), ("i32", 8), ("i32", 0)]),
    ("%hhd %hhu %hd %hu", [("i32", 200), ("i32", 511), ("i32", 40000), ("i32", -1)]),
    ("%ld %lu %lx %lld %llu", [("i64", -5000000000), ("i64", -1), ("i64", 1 << 40), ("i64", -7), ("i64", 123)]),
    ("%zu %zd %jd %td", [("i64", 99), ("i64", -99), ("i64", -3), ("i64", 12)]),
    ("%c%c%c|%3c|%-3c|", [("i32", 72), ("i32", 105), ("i32", 33), ("i32", 120), ("i32", 121)]),
    ("[%s] [%10s] [%-10s] [%.2s] [%*s] [%-*.*s]",
     [("str", "hello"), ("str", "right"), ("str", "left"), ("str", "truncate"), ("i32", 6), ("str", "star"),
      ("i32", 7), ("i32", 3), ("str", "abcdef")]),
    ("%*d|%-*d|%.*d|%*d", [("i32", 6), ("i32", 12), ("i32", 4), ("i32", 7), ("i32", 5), ("i32", 3),
                           ("i32", -6), ("i32", 9)]),
    ("100%% %s%%", [("str", "sure")]),
    ("%p %s", [("null", 0), ("null", 0)]),
    ("%.0d|%.0x|%5.0d|", [("i32", 0), ("i32", 0), ("i32", 0)]),
    ("%+5d|%-+5d|% 05d|%+.2d", [("i32", 3), ("i32", -3), ("i32", 7), ("i32", 1)]),
    ("%lld %llx", [("i64", -9223372036854775808), ("i64", -9223372036854775808)]),
    ("no conversions\\n", []),
]


def c_literal(s):
    return '"' + s.replace('"', '\\"') + '"'


@pytest.mark.skipif(not shutil.which("gcc"), reason="gcc is not installed")
def test_printf_matches_gcc(tmp_path):
    p = Prog()
    c_lines = []
    for fmt, args in PRINTF_CASES:
        nodes, c_args = [], []
        for t, v in args:
            if t == "str":
                nodes.append(p.string(v))
                c_args.append(c_literal(v))
            elif t == "null":
                nodes.append(p.const("ptr", 0))
                c_args.append("(void *)0")
            else:
                nodes.append(p.const(t, v))
                literal = "(-9223372036854775807LL - 1)" if v == -(1 << 63) else f"{v}LL"
                c_args.append(literal if t == "i64" else f"(int){literal}")
        real = fmt.replace("\\n", "\n")
        p.printf(real + "\n", *nodes)
        c_lines.append(f"  printf({c_literal(fmt + chr(92) + 'n')}{''.join(', ' + a for a in c_args)});")
    p.ret()
    c = tmp_path / "printf.c"
    c.write_text("#include <stdio.h>\nint main(void) {\n" +
                 "\n".join(c_lines) + "\n  return 0;\n}\n")
    exe = tmp_path / "printf"
    subprocess.run(["gcc", "-w", "-o", exe, c], check=True)
    want = subprocess.run([exe], stdout=subprocess.PIPE, check=True).stdout
    proc = p.run(tmp_path)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode().splitlines() == want.decode().splitlines()


# ---- the C library ----------------------------------------------------------------

def libc_strings(p):
    s = p.string("hello, world")
    n = p.call("strlen", "i64", s)
    buf = p.node("stackslot 32, 1")
    p.call("strcpy", "ptr", buf, p.string("abc"))
    p.call("strcat", "ptr", buf, p.string("def"))
    cmp1 = p.call("strcmp", "i32", buf, p.string("abd"))
    cmp2 = p.call("strncmp", "i32", buf, p.string("abd"), p.const("i64", 2))
    cmp3 = p.call("strcmp", "i32", p.string("b"), p.string("a"))
    comma = p.call("strchr", "ptr", s, p.const("i32", ord(",")))
    last_o = p.call("strrchr", "ptr", s, p.const("i32", ord("o")))
    none = p.call("strchr", "ptr", s, p.const("i32", ord("z")))
    p.printf("%lld [%s] %d %d %d [%s] [%s] %d\n", n, buf, cmp1, cmp2, cmp3, comma, last_o,
             p.node(f'eq "ptr", {none}, {p.const("ptr", 0)}'))
    small = p.node("stackslot 8, 1")
    p.call("strncpy", "ptr", small, p.string("xy"), p.const("i64", 8))
    p.call("puts", "i32", small)
    p.ret()


def libc_memory(p):
    a = p.call("malloc", "ptr", p.const("i64", 16))
    p.call("memset", "ptr", a, p.const("i32", 0x41), p.const("i64", 15))
    p.store("i8", p.node(f'add "ptr", {a}, {p.const("i64", 15)}'), p.const("i8", 0))
    p.call("puts", "i32", a)
    b = p.call("calloc", "ptr", p.const("i64", 4), p.const("i64", 4))
    p.call("memcpy", "ptr", b, a, p.const("i64", 3))
    p.call("memmove", "ptr", p.node(f'add "ptr", {b}, {p.const("i64", 1)}'), b, p.const("i64", 3))
    p.call("puts", "i32", b)
    c = p.call("realloc", "ptr", b, p.const("i64", 64))
    p.call("puts", "i32", c)
    eq = p.call("memcmp", "i32", a, c, p.const("i64", 2))
    ne = p.call("memcmp", "i32", p.string("ab"), p.string("aZ"), p.const("i64", 2))
    hit = p.call("memchr", "ptr", p.string("xyz"), p.const("i32", ord("z")), p.const("i64", 3))
    p.printf("%d %d %s\n", eq, ne, hit)
    p.call("free", "void", a)
    p.call("free", "void", c)
    p.call("free", "void", p.const("ptr", 0))
    grown = p.call("realloc", "ptr", p.const("ptr", 0), p.const("i64", 4))
    p.printf("%d\n", p.node(f'ne "ptr", {grown}, {p.const("ptr", 0)}'))
    p.ret()


def libc_output(p):
    p.call("putchar", "i32", p.const("i32", ord("A")))
    p.call("putchar", "i32", p.const("i32", 10))
    out = p.load("ptr", p.extern("stdout", "data"))
    err = p.load("ptr", p.extern("stderr", "data"))
    p.call("fprintf", "i32", out, p.string("to %s\n"), p.string("stdout"))
    p.call("fprintf", "i32", err, p.string("to %s\n"), p.string("stderr"))
    p.call("fputs", "i32", p.string("fputs\n"), out)
    p.call("fputc", "i32", p.const("i32", ord("c")), out)
    p.call("putc", "i32", p.const("i32", 10), out)
    p.call("fflush", "i32", out)
    buf = p.node("stackslot 32, 1")
    n = p.call("sprintf", "i32", buf, p.string("<%d-%s>"), p.const("i32", -12), p.string("ab"))
    p.call("puts", "i32", buf)
    m = p.call("snprintf", "i32", buf, p.const("i64", 4), p.string("%d"), p.const("i32", 123456))
    p.call("puts", "i32", buf)
    z = p.call("snprintf", "i32", p.const("ptr", 0), p.const("i64", 0), p.string("%s"), p.string("xyz"))
    p.printf("%d %d %d\n", n, m, z)
    p.ret()


def libc_numbers(p):
    vals = [p.call("abs", "i32", p.const("i32", -5)), p.call("abs", "i32", p.const("i32", 7)),
            p.call("labs", "i64", p.const("i64", -5000000000)), p.call("llabs", "i64", p.const("i64", -3)),
            p.call("atoi", "i32", p.string("  -42xyz")), p.call("atol", "i64", p.string("+9000000000")),
            p.call("atoll", "i64", p.string("junk"))]
    p.printf("%d %d %ld %lld %d %ld %lld\n", *vals)
    p.ret()


def libc_exit(p):
    p.call("puts", "i32", p.string("before exit"))
    p.call("exit", "void", p.const("i32", 259))
    p.call("puts", "i32", p.string("after exit"))
    p.ret()


def libc_main_status(p):
    p.ret(p.const("i32", 300))


LIBC_CASES = [
    (libc_strings, "12 [abcdef] -1 0 1 [, world] [orld] 1\nxy\n", 0),
    (libc_memory, "AAAAAAAAAAAAAAA\nAAAA\nAAAA\n0 8 z\n1\n", 0),
    (libc_output, "A\nto stdout\nfputs\nc\n<-12-ab>\n123\n8 6 3\n", 0),
    (libc_numbers, "5 7 5000000000 3 -42 9000000000 0\n", 0),
    (libc_exit, "before exit\n", 3),
    (libc_main_status, "", 44),
]


@pytest.mark.parametrize("build,stdout,status", LIBC_CASES, ids=lambda x: getattr(x, "__name__", None))
@pytest.mark.parametrize("level", ["son", "ssa"])
def test_libc(tmp_path, build, stdout, status, level):
    p = Prog()
    build(p)
    proc = p.run(tmp_path, level)
    assert proc.stdout.decode() == stdout, proc.stderr.decode()
    assert proc.returncode == status, proc.stderr.decode()


def test_fprintf_stderr_is_the_programs_stderr(tmp_path):
    p = Prog()
    libc_output(p)
    assert p.run(tmp_path).stderr.decode() == "to stderr\n"


def test_abort_dies_by_sigabrt(tmp_path):
    p = Prog()
    p.call("puts", "i32", p.string("flushed first"))
    p.call("abort", "void")
    p.ret()
    proc = p.run(tmp_path)
    assert proc.returncode == -6 and proc.stdout == b"flushed first\n"


def test_failed_assert_prints_glibcs_message_and_aborts(tmp_path):
    p = Prog()
    p.call("__assert_fail", "void", p.string("x > 0"), p.string("t.c"), p.const("i32", 7), p.string("main"))
    p.ret()
    proc = p.run(tmp_path)
    assert proc.returncode == -6
    assert proc.stderr.decode().endswith(": t.c:7: main: Assertion `x > 0' failed.\n")


def test_main_gets_argc_and_argv(tmp_path):
    path = tmp_path / "args.son.txt"
    path.write_text("""module son
extern function printf
data internal readonly fmt size 11 align 1 init x"2564202573202573200a00"
pipeline main(i32, ptr) -> i32 {
  i0 = start
  i1 = entrymem ^i0
  i2 = param ^i0, "i32", 0
  i3 = param ^i0, "ptr", 1
  i4 = const "i64", 8
  i5 = add "ptr", i3, i4
  i6 = load ^i0, "ptr", i1, i5
  i7 = const "i64", 16
  i8 = add "ptr", i3, i7
  i9 = load ^i0, "ptr", i1, i8
  i10 = symaddr "fmt"
  i11 = symaddr "printf"
  i12 = call ^i0, "i32", i1, i11, i10, i2, i6, i9
  i13 = proj 0, i12
  i14 = return ^i0, i13, i2
}
""")
    proc = run_program(path, args=["first", "second arg"])
    assert proc.stdout == b"3 first second arg \n" and proc.returncode == 3


# ---- runtime errors, each with its exact message ------------------------------------

def err_div(op, t, a, b, message):
    def build(p):
        r = p.pinned(f'{op} "{t}", {p.const(t, a)}, {p.const(t, b)}')
        p.ret(p.node(f'trunc "{t}", "i32", {r}') if TYPES[t] > 32 else r)
        return r, message
    build.__name__ = f"{op}_{t}_{a}_{b}"
    return build


def err_shift(p):
    r = p.node(f'shl "i32", {p.const("i32", 1)}, {p.const("i32", 32)}')
    p.ret(r)
    return r, "shift amount 32 is not below the width of the 32-bit type"


def err_null_load(p):
    r = p.load("i32", p.const("ptr", 0))
    p.ret(r)
    return r, "null pointer dereference (4-byte read)"


def err_null_store(p):
    r = p.store("i64", p.const("ptr", 0), p.const("i64", 1))
    p.ret()
    return r, "null pointer dereference (8-byte write)"


def err_wild_pointer(p):
    r = p.load("i8", p.const("ptr", 16))
    p.ret()
    return r, "1-byte read through 0x10, which points to no allocation"


def err_stack_overflow_read(p):
    slot = p.node("stackslot 4, 4")
    r = p.load("i32", p.node(f'add "ptr", {slot}, {p.const("i64", 4)}'))
    p.ret()
    return r, f"out of bounds: 4-byte read at offset 4 of a 4-byte stack slot ({slot} in main)"


def err_stack_underflow_write(p):
    slot = p.node("stackslot 4, 4")
    r = p.store("i8", p.node(f'add "ptr", {slot}, {p.const("i64", -1)}'), p.const("i8", 0))
    p.ret()
    return r, f"out of bounds: 1-byte write at offset -1 of a 4-byte stack slot ({slot} in main)"


def err_data_overflow(p):
    g = p.item("g", b"\x01\x02\x03\x04", align=4)
    r = p.load("i64", g)
    p.ret()
    return r, "out of bounds: 8-byte read at offset 0 of data 'g' (4 bytes)"


def err_heap_overflow(p):
    m = p.call("malloc", "ptr", p.const("i64", 10))
    call = p.last_call
    r = p.store("i64", p.node(f'add "ptr", {m}, {p.const("i64", 8)}'), p.const("i64", 0))
    p.ret()
    return r, f"out of bounds: 8-byte write at offset 8 of a 10-byte heap block (allocated at {call} in main)"


def err_use_after_free(p):
    m = p.call("malloc", "ptr", p.const("i64", 16))
    call = p.last_call
    p.call("free", "void", m)
    r = p.load("i32", m)
    p.ret()
    return r, f"use after free: 4-byte read of a 16-byte heap block (allocated at {call} in main), freed"


def err_double_free(p):
    m = p.call("malloc", "ptr", p.const("i64", 16))
    call = p.last_call
    p.call("free", "void", m)
    p.call("free", "void", m)
    return p.last_call, f"free of a 16-byte heap block (allocated at {call} in main), already freed"


def err_use_after_return(p):
    p.functions.append("""internal pipeline leak() -> ptr {
  i0 = start
  i1 = entrymem ^i0
  i2 = stackslot 4, 4
  i3 = return ^i0, i1, i2
}""")
    pointer = p.call(p.node('symaddr "leak"'), "ptr")
    r = p.load("i32", pointer)
    p.ret()
    return r, "use after return: 4-byte read of a 4-byte stack slot (i2 in leak), whose call has returned"


def err_readonly(p):
    s = p.string("abc", "lit")
    r = p.store("i8", s, p.const("i8", 65))
    p.ret()
    return r, "1-byte write to read-only data 'lit' (4 bytes)"


def err_code_as_data(p):
    r = p.load("i32", p.node('symaddr "main"'))
    p.ret()
    return r, "4-byte read of function 'main', which is code, not data"


def err_unprovided_extern_data(p):
    r = p.load("i32", p.extern("environ", "data"))
    p.ret()
    return r, "4-byte read of external data 'environ', which pipe-run does not provide"


def err_undefined_branch(p):
    u = p.node("undefined")
    r = p.pinned(f"if {u}")
    for side in (0, 1):
        proj = p.node(f"proj {side}, {r}")
        p.node(f"return ^{proj}, {p.mem}, {p.const('i32', side)}")
    return r, f"the branch condition is undefined ({u})"


def err_undefined_address(p):
    u = p.node("undefined")
    r = p.load("i32", u)
    p.ret()
    return r, f"the address of a load is undefined ({u})"


def err_undefined_divisor(p):
    u = p.node("undefined")
    r = p.pinned(f'sdiv "i32", {p.const("i32", 1)}, {u}')
    p.ret(r)
    return r, f"operand of sdiv is undefined ({u})"


def err_undefined_stored(p):
    u = p.node("undefined")
    r = p.store("i32", p.node("stackslot 4, 4"), p.node(f'add "i32", {u}, {p.const("i32", 1)}'))
    p.ret()
    return r, f"the value stored is undefined (i{int(r[1:]) - 1})"


def err_undefined_main_result(p):
    u = p.node("undefined")
    p.ret(u)
    return f"i{p.n - 1}", f"main's return value is undefined ({u})"


def err_undefined_libc_argument(p):
    u = p.node("undefined")
    p.printf("%d\n", u)
    return p.last_call, f"argument 2 of printf is undefined ({u})"


def err_unknown_extern(p):
    p.call("frobnicate", "i32")
    return p.last_call, "call to unknown external function 'frobnicate'"


def err_call_data(p):
    g = p.item("g", b"\0\0\0\0", align=4)
    p.call(g, "i32")
    return p.last_call, "call through a pointer to data 'g' (4 bytes), not a function"


def err_call_null(p):
    p.call(p.const("ptr", 0), "i32")
    return p.last_call, "call through a pointer to no allocation, not a function"


def err_call_argument_count(p):
    p.functions.append("""internal pipeline one(i32) -> i32 {
  i0 = start
  i1 = entrymem ^i0
  i2 = param ^i0, "i32", 0
  i3 = return ^i0, i1, i2
}""")
    p.call(p.node('symaddr "one"'), "i32")
    return p.last_call, "'one' takes 1 argument, the call passes 0"


def err_libc_argument_count(p):
    p.call("strlen", "i64")
    return p.last_call, "strlen takes 1 argument, the call passes 0"


def err_stale_memory(p):
    slot = p.node("stackslot 4, 4")
    first = p.mem
    p.store("i32", slot, p.const("i32", 1))
    p.mem = first
    r = p.store("i32", slot, p.const("i32", 2))
    p.ret()
    return r, (f"memory state {first} is stale: a later memory operation has replaced it "
               "(the memory edges do not form a chain)")


def err_printf_missing_argument(p):
    p.printf("%d %d\n", p.const("i32", 1))
    return p.last_call, "printf: the format needs more arguments than the call passes (1)"


def err_printf_float(p):
    p.printf("%lc\n", p.const("i32", 65))
    return p.last_call, "printf: wide characters (%lc) are not supported"


def err_printf_n(p):
    p.printf("%n\n", p.node("stackslot 4, 4"))
    return p.last_call, "printf: %n is not supported"


def err_fprintf_stream(p):
    p.call("fprintf", "i32", p.node("stackslot 8, 8"), p.string("x"))
    return p.last_call, "fprintf: the stream is not stdout or stderr"


def err_memcpy_overlap(p):
    slot = p.node("stackslot 16, 1")
    p.call("memcpy", "ptr", p.node(f'add "ptr", {slot}, {p.const("i64", 4)}'), slot, p.const("i64", 8))
    return p.last_call, "memcpy of overlapping ranges (8 bytes; use memmove)"


def err_unterminated_string(p):
    slot = p.node("stackslot 4, 1")
    p.store("i32", slot, p.const("i32", 0x61616161))
    p.call("strlen", "i64", slot)
    return p.last_call, f"string at offset 0 of a 4-byte stack slot ({slot} in main) has no terminating NUL inside it"


def err_missing_proj(p):
    r = p.pinned(f"if {p.const('i32', 0)}")
    proj = p.node(f"proj 0, {r}")
    p.node(f"return ^{proj}, {p.mem}, {p.const('i32', 0)}")
    return r, f"the false side of {r} has no proj 1"


def err_no_terminator(p):
    r = p.pinned(f"if {p.const('i32', 1)}")
    proj = p.node(f"proj 0, {r}")
    other = p.node(f"proj 1, {r}")
    p.node(f"return ^{other}, {p.mem}, {p.const('i32', 0)}")
    return proj, f"control reaches {proj}, which has no terminator"


ERROR_CASES = [
    err_div("sdiv", "i32", 7, 0, "division by zero"),
    err_div("udiv", "i8", 7, 0, "division by zero"),
    err_div("srem", "i64", 7, 0, "division by zero"),
    err_div("urem", "i16", 7, 0, "division by zero"),
    err_div("sdiv", "i32", -2147483648, -1, "signed overflow in division (the minimum value divided by -1)"),
    err_div("srem", "i8", -128, -1, "signed overflow in division (the minimum value divided by -1)"),
    err_div("sdiv", "i64", -9223372036854775808, -1,
            "signed overflow in division (the minimum value divided by -1)"),
    err_shift, err_null_load, err_null_store, err_wild_pointer, err_stack_overflow_read,
    err_stack_underflow_write, err_data_overflow, err_heap_overflow, err_use_after_free, err_double_free,
    err_use_after_return, err_readonly, err_code_as_data, err_unprovided_extern_data, err_undefined_branch,
    err_undefined_address, err_undefined_divisor, err_undefined_stored, err_undefined_main_result,
    err_undefined_libc_argument, err_unknown_extern, err_call_data, err_call_null, err_call_argument_count,
    err_libc_argument_count, err_stale_memory, err_printf_missing_argument, err_printf_float, err_printf_n,
    err_fprintf_stream, err_memcpy_overlap, err_unterminated_string, err_missing_proj, err_no_terminator,
]


@pytest.mark.parametrize("build", ERROR_CASES, ids=lambda b: b.__name__)
def test_runtime_error(tmp_path, build):
    p = Prog()
    node, message = build(p)
    proc = p.run(tmp_path)
    err = proc.stderr.decode()
    assert proc.returncode == RUNTIME_ERROR, err
    assert err.splitlines()[0] == f"pipe-run: main: {node}: runtime error: {message}", err


@pytest.mark.parametrize("name", ["_setjmp", "__sigsetjmp", "longjmp", "vfork"])
def test_setjmp_family_is_refused_by_name(tmp_path, name):
    # setjmp and longjmp save and restore machine state the interpreter does
    # not model: the program is refused before it runs (it runs natively only).
    p = Prog()
    buf = p.node("stackslot 200, 8")
    p.call(name, "i32", buf)
    proc = p.run(tmp_path)
    err = proc.stderr.decode()
    assert proc.returncode == 1 and proc.stdout == b"", err
    assert re.fullmatch(rf"pipe-run: .*prog\.son\.txt: function 'main': i3: error: cannot interpret a call to "
                        rf"'{name}' \(it runs natively only\)", err.splitlines()[0]), err


def test_frame_and_return_address(tmp_path):
    # frameaddress: one non-null address for a whole activation;
    # returnaddress: non-null, different for two call sites.
    p = Prog()
    p.functions.append("""pipeline frames() -> i32 {
  i0 = start
  i1 = entrymem ^i0
  i2 = frameaddress ^i0
  i3 = frameaddress ^i0
  i4 = eq "ptr", i2, i3
  i5 = const "ptr", 0
  i6 = ne "ptr", i2, i5
  i7 = and "i32", i4, i6
  i8 = return ^i0, i1, i7
}
pipeline where() -> ptr {
  i0 = start
  i1 = entrymem ^i0
  i2 = returnaddress ^i0
  i3 = return ^i0, i1, i2
}""")
    zero = p.const("ptr", 0)
    frames = p.call(p.node('symaddr "frames"'), "i32")
    where = p.node('symaddr "where"')
    site1, site2 = p.call(where, "ptr"), p.call(where, "ptr")
    two = p.node(f'ne "ptr", {site1}, {site2}')
    nonnull = p.node(f'ne "ptr", {site1}, {zero}')
    one, two_bits = p.const("i32", 1), p.const("i32", 2)
    shifted = p.node(f'shl "i32", {two}, {one}')
    total = p.node(f'add "i32", {frames}, {shifted}')
    shifted = p.node(f'shl "i32", {nonnull}, {two_bits}')
    total = p.node(f'add "i32", {total}, {shifted}')
    p.ret(total)
    proc = p.run(tmp_path)
    assert proc.returncode == 7, proc.stderr.decode()


def test_free_of_a_pointer_malloc_did_not_return(tmp_path):
    p = Prog()
    slot = p.node("stackslot 4, 4")
    p.call("free", "void", slot)
    proc = p.run(tmp_path)
    first = proc.stderr.decode().splitlines()[0]
    assert proc.returncode == RUNTIME_ERROR
    assert re.fullmatch(rf"pipe-run: main: i\d+: runtime error: free of 0x[0-9a-f]+, which malloc did not return "
                        rf"\(it points into a 4-byte stack slot \({slot} in main\)\)", first), first


def test_step_limit(tmp_path):
    path = tmp_path / "forever.son.txt"
    path.write_text("""module son
pipeline main() -> i32 {
  i0 = start
  i1 = jump ^i0
  i2 = region ^i1, ^i3
  i3 = jump ^i2
}
""")
    proc = run_program(path, ["--max-steps", "100"])
    assert proc.returncode == RUNTIME_ERROR
    assert proc.stderr.decode().splitlines()[0] == (
        "pipe-run: main: i2: runtime error: step limit reached: more than 100 executed nodes (--max-steps)")


def test_memory_limit(tmp_path):
    p = Prog()
    p.call("malloc", "ptr", p.const("i64", 1 << 20))
    p.ret()
    proc = p.run(tmp_path, flags=["--max-memory", "100000"])
    assert proc.returncode == RUNTIME_ERROR
    assert proc.stderr.decode().splitlines()[0].endswith(
        "runtime error: out of memory: malloc needs 1048576 more bytes, over the limit of 100000 bytes (--max-memory)")


def test_unbounded_recursion_hits_the_memory_limit_not_the_native_stack(tmp_path):
    path = tmp_path / "recurse.son.txt"
    path.write_text("""module son
pipeline main() -> i32 {
  i0 = start
  i1 = entrymem ^i0
  i2 = symaddr "main"
  i3 = call ^i0, "i32", i1, i2
  i4 = proj 0, i3
  i5 = proj 1, i3
  i6 = return ^i0, i4, i5
}
""")
    proc = run_program(path, ["--max-memory", "50000000"])
    err = proc.stderr.decode()
    assert proc.returncode == RUNTIME_ERROR, err
    assert "runtime error: out of memory: the call stack needs" in err.splitlines()[0]
    assert "called from main: i3" in err and "more calls" in err


def test_error_shows_location_node_and_call_stack(tmp_path):
    path = tmp_path / "where.son.txt"
    path.write_text("""module son
file 0 "where.c"
pipeline f(i32) -> i32 {
  i0 = start
  i1 = entrymem ^i0
  i2 = param ^i0, "i32", 0
  i3 = const "i32", 10
  i4 = sdiv ^i0, "i32", i3, i2 @0:2:12
  i5 = return ^i0, i1, i4
}
pipeline main() -> i32 {
  i0 = start
  i1 = entrymem ^i0
  i2 = symaddr "f"
  i3 = const "i32", 0
  i4 = call ^i0, "i32", i1, i2, i3 @0:5:10
  i5 = proj 0, i4
  i6 = proj 1, i4
  i7 = return ^i0, i5, i6
}
""")
    proc = run_program(path)
    assert proc.returncode == RUNTIME_ERROR
    assert proc.stderr.decode() == (
        "pipe-run: f: i4: runtime error: division by zero\n"
        "  at where.c:2:12\n"
        '  i4 = sdiv ^i0, "i32", i3, i2 @0:2:12\n'
        "  called from main: i4 (where.c:5:10)\n")


def test_stdout_is_flushed_before_the_error(tmp_path):
    p = Prog()
    p.call("puts", "i32", p.string("printed"))
    p.load("i8", p.const("ptr", 0))
    p.ret()
    proc = p.run(tmp_path)
    assert proc.stdout == b"printed\n" and proc.returncode == RUNTIME_ERROR


# ---- the command line -------------------------------------------------------------

def test_help_documents_usage_and_the_runtime_error_status():
    out = run_tool("pipe-run", "--help", check=0).stdout.decode()
    assert "-- ARGS" in out and "70 runtime error" in out and "--max-steps" in out


def test_output_option_is_refused(tmp_path):
    run_tool("pipe-run", ROOT / "tests" / "run" / "loops.son.txt", "-o", tmp_path / "x", check=2)


def test_other_levels_are_refused():
    proc = run_tool("pipe-run", "-", input=b"module ast\n", check=1)
    assert b"pipe-run runs modules at the cfg, ssa, son, son-x64, cfg-x64 and ra-x64 levels" in proc.stderr


def test_module_without_main(tmp_path):
    path = tmp_path / "nomain.txt"
    path.write_text("module son\npipeline f() -> void {\n  i0 = start\n  i1 = entrymem ^i0\n  i2 = return ^i0, i1\n}\n")
    proc = run_tool("pipe-run", path, check=1)
    assert b"no function 'main'" in proc.stderr


def test_input_is_verified(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("module son\npipeline main() -> i32 {\n  i0 = start\n  i1 = add \"i32\", i0, i0\n}\n")
    run_tool("pipe-run", path, check=1)


def test_stats_and_trace(tmp_path):
    path = ROOT / "tests" / "run" / "loops.son.txt"
    stats = run_tool("pipe-run", path, "--stats", check=7).stderr.decode()
    assert re.search(r"pipe-run: stats: \d+ nodes in [\d.]+ s \([\d.]+ M nodes/s\)", stats)
    trace = run_tool("pipe-run", path, "--trace", check=7).stderr.decode()
    assert 'pipe-run: trace: sum: i9 = slt "i32", i7, i2 @0:1:35  -> 1' in trace


def test_every_encoding_runs_the_same(tmp_path):
    path = ROOT / "tests" / "run" / "calls.son.txt"
    want = run_tool("pipe-run", path, check=0).stdout
    for fmt in ("json", "bin"):
        data = run_tool("pipe-fmt", path, "-f", fmt, check=0).stdout
        assert run_tool("pipe-run", "-", input=data, check=0).stdout == want


def test_deterministic(tmp_path):
    path = ROOT / "tests" / "run" / "memory.son.txt"
    runs = {run_tool("pipe-run", path, check=0).stdout for _ in range(3)}
    assert len(runs) == 1


# ---- floating point against gcc's build (common/ir/eval_float.h, printf %f %e %g %a) ----

def float_spelling(bits, f32=False):
    """The printable literal of an f64 pattern, or of an f32 pattern as the
    f64 literal of the same value (FORMAT.md 2)."""
    import struct
    if f32:
        sign, exp, man = bits >> 31, (bits >> 23) & 0xFF, bits & 0x7FFFFF
        if exp == 0xFF:
            bits = (sign << 63) | (0x7FF << 52) | (man << 29)
        else:
            bits = struct.unpack("<Q", struct.pack("<d", struct.unpack("<f", struct.pack("<I", bits))[0]))[0]
    sign = "-" if bits >> 63 else ""
    exp, man = (bits >> 52) & 0x7FF, bits & ((1 << 52) - 1)
    if exp == 0x7FF:
        return sign + ("inf" if man == 0 else f"nan({man:#x})")
    return struct.unpack("<d", struct.pack("<Q", bits))[0].hex()


F64_VALUES = [0, 1 << 63, 0x3FF0000000000000, 0xBFF8000000000000, 0x3FB999999999999A, 0x0000000000000001,
              0x7FEFFFFFFFFFFFFF, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000,
              0x7FF4000000000123, 0xFFF8000000000ABC, 0x4340000000000001]
F32_VALUES = [0, 1 << 31, 0x3F800000, 0xC0200000, 0x3DCCCCCD, 0x00000001, 0x7F7FFFFF, 0x7F800000, 0xFF800000,
              0x7FC00000, 0x7FA00123, 0xFFC00ABC, 0x4B800001]
def is_nan(bits, t):
    if t == "f32":
        return (bits >> 23) & 0xFF == 0xFF and bits & 0x7FFFFF != 0
    return (bits >> 52) & 0x7FF == 0x7FF and bits & ((1 << 52) - 1) != 0


FLOAT_BINARY = {"fadd": "+", "fsub": "-", "fmul": "*", "fdiv": "/"}
FLOAT_COMPARE = {"foeq": "a == b", "fone": "a < b || a > b", "folt": "a < b", "fole": "a <= b", "fogt": "a > b",
                 "foge": "a >= b", "ford": "!__builtin_isunordered(a, b)", "fueq": "!(a < b || a > b)",
                 "fune": "a != b", "fult": "!(a >= b)", "fule": "!(a > b)", "fugt": "!(a <= b)",
                 "fuge": "!(a < b)", "funo": "__builtin_isunordered(a, b)"}


def float_program_and_gcc_output(tmp_path, printf_doubles=True):
    """float_program() as a Prog and gcc's -O0 build of its C on this CPU:
    (the Prog, what gcc's build prints)."""
    p, c = Prog(), []
    float_program(p, c, printf_doubles)
    p.ret()
    src = tmp_path / "floats.c"
    src.write_text("#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\nint main(void) {\n" +
                   "\n".join(c) + "\n  return 0;\n}\n")
    exe = tmp_path / "floats"
    subprocess.run(["gcc", "-O0", "-w", "-fno-builtin", "-o", exe, src, "-lm"], check=True)
    return p, subprocess.run([exe], stdout=subprocess.PIPE, check=True).stdout.decode()


def float_program(p, c, printf_doubles=True):
    """Builds the IR (into Prog p) and the C (lines c) of one program that
    prints every floating-point result as its bit pattern (and, with
    printf_doubles, doubles through printf's %f %e %g %a: a floating call
    argument, which the x64 levels do not pass yet)."""
    def fconst(t, bits):
        return p.node(f'fconst "{t}", {float_spelling(bits, t == "f32")}')

    def print_bits(t, v, what):
        i = p.node(f'bitcast "{t}", "{"i32" if t == "f32" else "i64"}", {v}')
        if t == "f32":
            i = p.node(f'zext "i32", "i64", {i}')
        p.printf(f"{what} %llx\n", i)

    for t, values, ctype, utype in [("f64", F64_VALUES, "double", "uint64_t"), ("f32", F32_VALUES, "float", "uint32_t")]:
        c.append(f"  {{ volatile {ctype} a, b, r; {utype} u;")
        for x in values:
            a = fconst(t, x)
            for op in ["fneg", "fabs", "fsqrt"]:
                print_bits(t, p.node(f'{op} "{t}", {a}'), f"{op}.{t}.{x:x}")
                expr = {"fneg": "-a", "fabs": "__builtin_fabs" + ("f" if t == "f32" else "") + "(a)",
                        "fsqrt": "__builtin_sqrt" + ("f" if t == "f32" else "") + "(a)"}[op]
                c.append(f'    u = {x:#x}u; memcpy((void *)&a, &u, sizeof u); r = {expr}; memcpy(&u, (void *)&r, sizeof u);'
                         f' printf("{op}.{t}.{x:x} %llx\\n", (unsigned long long)u);')
            for y in values:
                b = fconst(t, y)
                for op, sym in FLOAT_BINARY.items():
                    # Two NaNs: the IR gives input 0's (eval_float.h, as
                    # addsd in0, in1), but C does not say which, and gcc
                    # may put either operand of + and * first.
                    if op in ("fadd", "fmul") and is_nan(x, t) and is_nan(y, t):
                        continue
                    print_bits(t, p.node(f'{op} "{t}", {a}, {b}'), f"{op}.{t}.{x:x}.{y:x}")
                    c.append(f"    u = {x:#x}u; memcpy((void *)&a, &u, sizeof u); u = {y:#x}u; memcpy((void *)&b, &u, sizeof u);"
                             f' r = a {sym} b; memcpy(&u, (void *)&r, sizeof u); printf("{op}.{t}.{x:x}.{y:x} %llx\\n", (unsigned long long)u);')
                for op, expr in FLOAT_COMPARE.items():
                    p.printf(f"{op}.{t}.{x:x}.{y:x} %d\n", p.node(f'{op} "{t}", {a}, {b}'))
                    c.append(f'    printf("{op}.{t}.{x:x}.{y:x} %d\\n", (int)({expr}));')
        c.append("  }")
    # Conversions, and printf of doubles (a float argument is passed as a double).
    c.append("  { volatile double d; volatile float f; uint64_t u; uint32_t w;")
    for x in F64_VALUES:
        d = fconst("f64", x)
        print_bits("f32", p.node(f'fptrunc "f64", "f32", {d}'), f"fptrunc.{x:x}")
        c.append(f'    u = {x:#x}u; memcpy((void *)&d, &u, 8); f = d; memcpy(&w, (void *)&f, 4); printf("fptrunc.{x:x} %llx\\n", (unsigned long long)w);')
        if not printf_doubles:
            continue
        p.printf(f"printf.{x:x} [%f] [%.3e] [%g] [%a] [%20.10G] [%-12.2f] [%+.0e] [%#g] [%A] [%F] [%E]\n", *[d] * 11)
        c.append(f'    printf("printf.{x:x} [%f] [%.3e] [%g] [%a] [%20.10G] [%-12.2f] [%+.0e] [%#g] [%A] [%F] [%E]\\n", {", ".join(["d"] * 11)});')
    for x in F32_VALUES:
        f = fconst("f32", x)
        print_bits("f64", p.node(f'fpext "f32", "f64", {f}'), f"fpext.{x:x}")
        c.append(f'    w = {x:#x}u; memcpy((void *)&f, &w, 4); d = f; memcpy(&u, (void *)&d, 8); printf("fpext.{x:x} %llx\\n", (unsigned long long)u);')
    for bits, ctype in [(8, "signed char"), (16, "short"), (32, "int"), (64, "long long")]:
        for v in [0, 1, -1, (1 << (bits - 1)) - 1, -(1 << (bits - 1)), 0x123456789ABCDEF1 & ((1 << bits) - 1)]:
            sv = v - (1 << bits) if v >= 1 << (bits - 1) else v
            uv = v & ((1 << bits) - 1)
            for t, ft in [("f64", "double"), ("f32", "float")]:
                s = p.node(f'sitofp "i{bits}", "{t}", {p.const(f"i{bits}", sv)}')
                u = p.node(f'uitofp "i{bits}", "{t}", {p.const(f"i{bits}", sv)}')
                print_bits(t, s, f"sitofp.{bits}.{t}.{uv:x}")
                print_bits(t, u, f"uitofp.{bits}.{t}.{uv:x}")
                ut = "uint32_t" if t == "f32" else "uint64_t"
                c.append(f"    {{ volatile {ctype} x = ({ctype}){uv:#x}ull; volatile unsigned {ctype.replace('signed ', '')} y = {uv:#x}ull; "
                         f"{ft} r; {ut} o; r = x; memcpy(&o, &r, sizeof o); printf(\"sitofp.{bits}.{t}.{uv:x} %llx\\n\", (unsigned long long)o); "
                         f"r = y; memcpy(&o, &r, sizeof o); printf(\"uitofp.{bits}.{t}.{uv:x} %llx\\n\", (unsigned long long)o); }}")
    for x in [0x3FF8000000000000, 0xC05FC00000000000, 0x41DFFFFFFFC00000, 0xC1E0000000000000, 0x43E0000000000000 - 1,
              0x43EFFFFFFFFFFFFF, 0x4070000000000000 - 1, 0x8000000000000000]:
        d = fconst("f64", x)
        import struct
        val = struct.unpack("<d", struct.pack("<Q", x))[0]
        for bits in [8, 16, 32, 64]:
            for signed_ in [True, False]:
                lo, hi = (-(1 << (bits - 1)), 1 << (bits - 1)) if signed_ else (0, 1 << bits)
                if not (lo <= int(val) < hi):
                    continue
                op = "fptosi" if signed_ else "fptoui"
                r = p.node(f'{op} "f64", "i{bits}", {d}')
                if bits < 64:
                    r = p.node(f'zext "i{bits}", "i64", {r}')
                p.printf(f"{op}.{bits}.{x:x} %llx\n", r)
                ctype = ("" if signed_ else "unsigned ") + {8: "char", 16: "short", 32: "int", 64: "long long"}[bits]
                if signed_ and bits == 8:
                    ctype = "signed char"
                c.append(f'    u = {x:#x}u; memcpy((void *)&d, &u, 8); {{ {ctype} r = ({ctype})d; printf("{op}.{bits}.{x:x} %llx\\n", (unsigned long long)(unsigned {ctype.replace("unsigned ", "").replace("signed ", "")})r); }}')
    c.append("  }")


@pytest.mark.skipif(not shutil.which("gcc"), reason="gcc is not installed")
@pytest.mark.parametrize("level", ["cfg", "son"])
def test_float_opcodes_match_gcc(tmp_path, level):
    """Every floating-point opcode on edge values (signed zeros, subnormals,
    infinities, NaNs with payloads: the results printed as bit patterns) and
    printf's %f %e %g %a conversions, pipe-run against the same operations
    compiled by gcc and run on this CPU."""
    p, want = float_program_and_gcc_output(tmp_path)
    want = want.splitlines()
    proc = p.run(tmp_path, level)
    assert proc.returncode == 0, proc.stderr.decode()[:2000]
    got = proc.stdout.decode().splitlines()
    assert len(got) == len(want)
    diff = [f"pipe-run {g!r}, gcc {w!r}" for g, w in zip(got, want) if g != w]
    assert not diff, "\n".join(diff[:30])


def test_float_to_int_out_of_range_is_a_runtime_error(tmp_path):
    """fptosi of a value whose truncation does not fit is undefined in C: its
    result is an undefined value (as LLVM's poison), and the first use that
    needs it stops pipe-run with the reason, exit status 70."""
    p = Prog()
    d = p.node('fconst "f64", 2147483648.0')
    p.printf("%d\n", p.node(f'fptosi "f64", "i32", {d}'))
    p.ret()
    proc = p.run(tmp_path)
    assert proc.returncode == RUNTIME_ERROR
    err = proc.stderr.decode()
    assert "runtime error: argument 2 of printf is undefined" in err, err
    assert "it comes from fptosi or fptoui of a floating-point value out of the range" in err, err


def test_float_to_int_out_of_range_unused_is_no_error(tmp_path):
    """A conversion that is pure may run ahead of the test that guards it
    (pipe-run's son schedule, licm): out of range and unused, it is no error,
    as `x > LIMIT ? (unsigned long)x : (long)x` needs."""
    p = Prog()
    d = p.node('fconst "f64", -12.0')
    p.node(f'fptoui "f64", "i64", {d}')
    p.printf("%ld\n", p.node(f'fptosi "f64", "i64", {d}'))
    p.ret()
    proc = p.run(tmp_path)
    assert proc.returncode == 0 and proc.stdout == b"-12\n", proc.stderr.decode()
