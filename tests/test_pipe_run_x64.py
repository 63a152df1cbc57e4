"""pipe-run at the x64 levels: every register instruction against a Python
model of FORMAT.md section 8, at son-x64 and at cfg-x64.

A generated main() applies each instruction to chosen registers (64-bit
values with garbage above the operand size) and prints the result with
printf: the whole register where the format defines it (32-bit results
zero-extend; 8- and 16-bit two-address results keep the tied input's upper
bits), only the low bits (%hhx, %hx) where it leaves them unspecified. The
model below is written from the format's text, independently of
common/x64/eval_x64.h (which tests/eval_x64_cpu.cpp checks against the CPU).
Memory, calls, branches and runtime errors are in tests/run/x64_*.txt.
"""
import pytest

from conftest import run_tool

SIZES = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}
CONDS = ["o", "no", "b", "ae", "e", "ne", "be", "a", "s", "ns", "p", "np", "l", "ge", "le", "g"]
M64 = (1 << 64) - 1


def mask(bits):
    return (1 << bits) - 1


def signed(v, bits):
    v &= mask(bits)
    return v - (1 << bits) if v >> (bits - 1) else v


def write(old, r, bits):
    """A result written over `old` (the tied input) at `bits`."""
    if bits >= 32:
        return r & mask(bits)
    return (old & ~mask(bits) & M64) | (r & mask(bits))


def alu(op, a, b, bits):
    m = mask(bits)
    x, y = a & m, b & m
    return {"add": x + y, "sub": x - y, "and": x & y, "or": x | y, "xor": x ^ y, "imul": x * y}[op] & m


def shift(op, a, count, bits):
    c = count & (63 if bits == 64 else 31)
    if op == "shl":
        return (a << c) & mask(bits)
    if op == "shr":
        return (a & mask(bits)) >> c
    return (signed(a, bits) >> c) & mask(bits)


def flags(op, a, b, bits):
    """(cf, zf, sf, of, pf) of cmp (a - b) or test (a & b)."""
    x, y = a & mask(bits), b & mask(bits)
    r = (x - y if op == "cmp" else x & y) & mask(bits)
    cf = op == "cmp" and x < y
    of = op == "cmp" and signed(x, bits) - signed(y, bits) != signed(r, bits)
    return cf, r == 0, bool(r >> (bits - 1)), of, bin(r & 0xFF).count("1") % 2 == 0


def cond(cc, f):
    cf, zf, sf, of, pf = f
    base = {"o": of, "b": cf, "e": zf, "be": cf or zf, "s": sf, "p": pf, "l": sf != of, "le": zf or sf != of}
    if cc in base:
        return base[cc]
    positive = {"no": "o", "ae": "b", "ne": "e", "a": "be", "ns": "s", "np": "p", "ge": "l", "g": "le"}[cc]
    return not base[positive]


class X64Prog:
    """main() -> i32 at son-x64 as straight-line code (or one cfg-x64 block)
    that prints values with printf; memory is threaded through the calls."""

    def __init__(self):
        self.lines = []
        self.n = 0
        self.start = self.node("start")
        self.mem = self.node(f"entrymem ^{self.start}")
        self.formats = {}
        self.expected = []

    def node(self, text):
        name = f"i{self.n}"
        self.n += 1
        self.lines.append(f"{name} = {text}")
        return name

    def movi(self, t, v):
        v &= M64
        return self.node(f'x64:movi "{t}", {signed(v, 64)}')

    def fmt(self, text):
        if text not in self.formats:
            self.formats[text] = f"f{len(self.formats)}"
        return self.node(f'x64:lea "i64", 0, 0, "{self.formats[text]}"')

    def show(self, value, want, bits=64):
        """Prints the low `bits` bits of `value` (%hhx, %hx or %lx)."""
        conv = {8: "%hhx", 16: "%hx"}.get(bits, "%lx")
        call = self.node(f'x64:call ^{self.start}, "printf", 0, {self.mem}, {self.fmt(conv + chr(10))}, {value}')
        self.mem = self.node(f"proj 0, {call}")
        self.expected.append(f"{want & mask(bits):x}\n")

    def text(self, level):
        out = [f"module {level}", "extern function printf(ptr, ...) -> i32"]
        for text, name in self.formats.items():
            data = text.encode() + b"\0"
            out.append(f'data internal readonly {name} size {len(data)} align 1 init x"{data.hex()}"')
        zero = self.node('x64:movi "i32", 0')
        self.node(f"x64:ret ^{self.start}, {self.mem}, {zero}")
        body = [f"  {line}" for line in self.lines]
        if level == "cfg-x64":
            body = ["  b0 {"] + [f"  {line}" for line in body] + ["  }", "  b0 =>"]
        self.lines = self.lines[:-2]
        self.n -= 2
        return "\n".join(out + ["", "pipeline main() -> i32 {"] + body + ["}"]) + "\n"


VALUES = [0, 1, 2, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
          0x8000000000000000, M64, 0x123456789ABCDEF0, 0xFEDCBA9876543217, 0x5A00000000000003]
IMMEDIATES = [0, 1, -1, 5, 127, -128, 0x7FFF, -0x8000, 0x12345678, 0x7FFFFFFF, -0x80000000]


def build_registers():
    """Arithmetic, shifts, multiply, division, extension, lea, movi."""
    p = X64Prog()
    regs = {v: p.movi("i64", v) for v in VALUES}
    some = VALUES[::2]
    for t, bits in SIZES.items():
        for op in ["add", "sub", "and", "or", "xor", "imul"]:
            if op == "imul" and bits == 8:
                continue
            for a in some:
                for b in some:
                    p.show(p.node(f'x64:{op} "{t}", {regs[a]}, {regs[b]}'), write(a, alu(op, a, b, bits), bits))
            for a in some[:5]:
                for imm in IMMEDIATES:
                    if op == "imul":
                        r = p.node(f'x64:imuli "{t}", {imm}, {regs[a]}')
                        p.show(r, alu(op, a, imm, bits), bits if bits < 32 else 64)
                    else:
                        r = p.node(f'x64:{op}i "{t}", {imm}, {regs[a]}')
                        p.show(r, write(a, alu(op, a, imm, bits), bits))
        for a in VALUES:
            p.show(p.node(f'x64:neg "{t}", {regs[a]}'), write(a, -a, bits))
            p.show(p.node(f'x64:not "{t}", {regs[a]}'), write(a, ~a, bits))
        for op in ["shl", "shr", "sar"]:
            for a in some:
                for count in [0, 1, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 0x1F01]:
                    if ("count", count) not in regs:
                        regs[("count", count)] = p.movi("i64", count | 0xAB00000000000000)
                    c = regs[("count", count)]
                    p.show(p.node(f'x64:{op} "{t}", {regs[a]}, {c}'), write(a, shift(op, a, count, bits), bits))
                for n in sorted({0, 1, bits // 2, bits - 1}):
                    p.show(p.node(f'x64:{op}i "{t}", {n}, {regs[a]}'), write(a, shift(op, a, n, bits), bits))
        if bits == 8:
            continue
        shown = 16 if bits == 16 else 64  # 16-bit results in rax/rdx: upper bits unspecified
        for a in some:
            for b in some:
                for op, sgn in [("mul1", False), ("imul1", True)]:
                    x, y = (signed(a, bits), signed(b, bits)) if sgn else (a & mask(bits), b & mask(bits))
                    prod = (x * y) & mask(2 * bits)
                    t1 = p.node(f'x64:{op} "{t}", {regs[a]}, {regs[b]}')
                    p.show(p.node(f"proj 0, {t1}"), prod & mask(bits), shown)
                    p.show(p.node(f"proj 1, {t1}"), prod >> bits, shown)
            p.show(p.node(f'x64:cdq "{t}", {regs[a]}'), mask(bits) if signed(a, bits) < 0 else 0, shown)
        for lo in some:
            for d in some:
                for op, sgn in [("div", False), ("idiv", True)]:
                    hi_val = (mask(bits) if signed(lo, bits) < 0 else 0) if sgn else 0
                    hi = p.movi("i64", hi_val | (0x7700000000000000 if bits < 64 else 0))
                    n = signed(hi_val << bits | (lo & mask(bits)), 2 * bits) if sgn else lo & mask(bits)
                    dv = signed(d, bits) if sgn else d & mask(bits)
                    if dv == 0:
                        continue
                    q = abs(n) // abs(dv) * (1 if (n < 0) == (dv < 0) else -1)
                    if not (-(1 << (bits - 1)) <= q < (1 << (bits - 1)) if sgn else q <= mask(bits)):
                        continue
                    t1 = p.node(f'x64:{op} ^{p.start}, "{t}", {regs[lo]}, {hi}, {regs[d]}')
                    p.show(p.node(f"proj 0, {t1}"), q & mask(bits), shown)
                    p.show(p.node(f"proj 1, {t1}"), (n - q * dv) & mask(bits), shown)
    for a in VALUES:
        for f, fb in SIZES.items():
            for t, tb in SIZES.items():
                if tb <= fb or tb == 8:
                    continue
                shown = 16 if tb == 16 else 64
                p.show(p.node(f'x64:movsx "{f}", "{t}", {regs[a]}'), signed(a, fb) & mask(tb), shown)
                if fb < 32 or tb == 64:
                    p.show(p.node(f'x64:movzx "{f}", "{t}", {regs[a]}'), a & mask(fb), shown)
    for base in VALUES[::3]:
        for index in VALUES[::4]:
            for scale in [1, 2, 4, 8]:
                for disp in [0, -8, 0x7FFFFFFF]:
                    want = base + index * scale + disp
                    p.show(p.node(f'x64:lea "i64", {scale}, {disp}, {regs[base]}, {regs[index]}'), want)
                    p.show(p.node(f'x64:lea "i32", {scale}, {disp}, {regs[base]}, {regs[index]}'), want & mask(32))
        p.show(p.node(f'x64:lea "i64", 0, 12, {regs[base]}'), base + 12)
    for t, bits in SIZES.items():
        for imm in IMMEDIATES:
            p.show(p.movi(t, imm), imm & mask(bits), bits if bits < 32 else 64)
    p.show(p.movi("i64", 0xFEDCBA9876543210), 0xFEDCBA9876543210)
    return p


def build_flags():
    """cmp/cmpi/test/testi read by setcc (all 16 codes) and cmov."""
    p = X64Prog()
    vals = [0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x8000000000000000, M64,
            0x123456789ABCDE03]
    regs = {v: p.movi("i64", v) for v in vals}
    for t, bits in SIZES.items():
        for op in ["cmp", "test"]:
            for a in vals[::2]:
                for b in vals[1::2]:
                    f = flags(op, a, b, bits)
                    for cc in CONDS:
                        fl = p.node(f'x64:{op} "{t}", {regs[a]}, {regs[b]}')
                        p.show(p.node(f'x64:setcc "{cc}", {fl}'), int(cond(cc, f)), 8)
            for a in vals[::3]:
                for imm in [0, 1, -1, 0x7F, -0x80, 0x7FFFFFFF]:
                    f = flags(op, a, imm, bits)
                    for cc in CONDS:
                        fl = p.node(f'x64:{op}i "{t}", {imm}, {regs[a]}')
                        p.show(p.node(f'x64:setcc "{cc}", {fl}'), int(cond(cc, f)), 8)
        if bits == 8:
            continue
        for a in vals[::2]:
            for b in vals[1::3]:
                for cc in ["l", "b", "e", "ge", "a"]:
                    f = flags("cmp", a, b, bits)
                    fl = p.node(f'x64:cmp "{t}", {regs[a]}, {regs[b]}')
                    r = p.node(f'x64:cmov "{cc}", "{t}", {fl}, {regs[a]}, {regs[b]}')
                    p.show(r, write(a, b if cond(cc, f) else a, bits))
    return p


@pytest.mark.parametrize("level", ["son-x64", "cfg-x64"])
@pytest.mark.parametrize("build", [build_registers, build_flags], ids=["registers", "flags"])
def test_x64_instructions_match_the_model(tmp_path, level, build):
    p = build()
    path = tmp_path / f"prog.{level}.txt"
    path.write_text(p.text(level))
    proc = run_tool("pipe-run", path, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    got = proc.stdout.decode().splitlines()
    want = "".join(p.expected).splitlines()
    assert len(got) == len(want)
    wrong = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
    lines = p.text(level).splitlines()
    assert not wrong, f"{len(wrong)} of {len(want)} differ, first: printf #{wrong[0][0]}: got {wrong[0][1]}, " \
                      f"want {wrong[0][2]}\n" + "\n".join(l for l in lines if "x64:call" not in l)[:3000]
