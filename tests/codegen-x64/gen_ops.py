"""Hand-written ra-x64 functions for every x64 opcode and operand size, with
the results the machine must give (FORMAT.md section 8's meanings, computed
here independently of the C++ code), for tests/test_codegen_x64.py.

gen() returns (module text, C source): the module has one `long f(long a,
long b)` function per opcode/size/condition (a in rdi, b in rsi, the result
in rax) plus a few with calls, stack arguments, data, loops and callee-saved
registers; the C source is a main that calls each one and compares with the
expected values (all 64 bits where the format defines them, the low bits
where it leaves the rest unspecified), printing one line per mismatch and
"all N ok" at the end."""

M64 = (1 << 64) - 1
CONDS = ["o", "no", "b", "ae", "e", "ne", "be", "a", "s", "ns", "p", "np", "l", "ge", "le", "g"]
PAIRS = [(5, 3), (-7, 3), (0x123456789ABCDEF0, 0x0FEDCBA987654321), (0x7F, 0x80), (3, 5), (-1, 1), (0x80000000, -2)]


def mask(bits):
    return (1 << bits) - 1


def u(v, bits=64):
    return v & mask(bits)


def s(v, bits):
    v = u(v, bits)
    return v - (1 << bits) if v >> (bits - 1) else v


def write(old, r, bits):
    """A two-address result: 32 bits zero-extend, 8/16 keep the tied input's upper bits."""
    if bits >= 32:
        return u(r, bits)
    return (u(old) & ~mask(bits) & M64) | u(r, bits)


def flags_sub(a, b, bits):
    a, b = u(a, bits), u(b, bits)
    r = (a - b) & mask(bits)
    return dict(c=a < b, z=r == 0, s=bool(r >> (bits - 1)), o=bool((((a ^ b) & (a ^ r)) >> (bits - 1)) & 1),
                p=bin(r & 0xFF).count("1") % 2 == 0)


def flags_and(a, b, bits):
    r = u(a, bits) & u(b, bits)
    return dict(c=False, z=r == 0, s=bool(r >> (bits - 1)), o=False, p=bin(r & 0xFF).count("1") % 2 == 0)


def holds(cc, f):
    table = {"o": f["o"], "b": f["c"], "e": f["z"], "be": f["c"] or f["z"], "s": f["s"], "p": f["p"],
             "l": f["s"] != f["o"], "le": f["z"] or f["s"] != f["o"]}
    if cc in table:
        return table[cc]
    positive = {"no": "o", "ae": "b", "ne": "e", "a": "be", "ns": "s", "np": "p", "ge": "l", "g": "le"}[cc]
    return not table[positive]


class Fn:
    """One function in the printable ra-x64 form; blocks are filled in order."""

    def __init__(self, name, params=("i64", "i64"), result="i64", internal=False):
        self.name, self.params, self.result, self.internal = name, params, result, internal
        self.count = 0
        self.blocks = []  # [name, lines, succs, children, frontier]

    def block(self, succs=(), children=(), frontier=()):
        self.blocks.append([f"b{len(self.blocks)}", [], list(succs), list(children), list(frontier)])

    def node(self, text, place=None):
        nid = f"i{self.count}"
        self.count += 1
        self.blocks[-1][1].append(f"    {nid} = {text}" + (f" in {place}" if place else ""))
        return nid

    def text(self):
        sig = f"({', '.join(self.params)}) -> {self.result}"
        out = [("internal " if self.internal else "") + f"pipeline {self.name}{sig} {{"]
        for name, lines, succs, children, frontier in self.blocks:
            out += [f"  {name} {{"] + lines + ["  }"]
            if succs:
                out.append(f"  {name} -> {', '.join(succs)}")
            out.append(f"  {name} =>" + (" " + ", ".join(children) if children else ""))
            if frontier:
                out.append(f"  {name} ~> {', '.join(frontier)}")
        out.append("}")
        return "\n".join(out)


def start2(f):
    """Entry of a (long a, long b) function: returns (start, mem, a, b)."""
    f.block()
    st = f.node("start")
    mem = f.node(f"entrymem ^{st}")
    a = f.node(f'x64:argreg ^{st}, "i64", "rdi"', "rdi")
    b = f.node(f'x64:argreg ^{st}, "i64", "rsi"', "rsi")
    return st, mem, a, b


class Suite:
    def __init__(self):
        self.fns = []
        self.cases = []  # (fn name, a, b, expected, mask bits)

    def simple(self, name, body, expect, bits_checked=64, pairs=PAIRS):
        """body(f, st, mem, a, b) -> node in rax; expect(a, b) -> value."""
        f = Fn(name)
        st, mem, a, b = start2(f)
        r = body(f, st, mem, a, b)
        r, mem = r if isinstance(r, tuple) else (r, mem)
        f.node(f"x64:ret ^{st}, {mem}, {r}")
        self.fns.append(f)
        for x, y in pairs:
            self.cases.append((name, u(x), u(y), u(expect(u(x), u(y))), bits_checked))


def binary_ops(S):
    ops = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "and": lambda a, b: a & b,
           "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b, "imul": lambda a, b: a * b}
    for op, fn in ops.items():
        for bits in (8, 16, 32, 64):
            def body(f, st, mem, a, b, op=op, bits=bits):
                m = f.node(f"x64:mov {a}", "rax")
                return f.node(f'x64:{op} "i{bits}", {m}, {b}', "rax")
            # imul at 8 bits is computed at 32 (emit_function.h): low 8 bits only.
            S.simple(f"t_{op}_{bits}", body, lambda a, b, fn=fn, bits=bits: write(a, fn(a, b), bits),
                     8 if (op == "imul" and bits == 8) else 64)
            imm = 100 if bits == 8 else -100000 if bits > 16 else -3000
            for k, value in enumerate((-3, imm)):
                iop = "imuli" if op == "imul" else op + "i"
                def ibody(f, st, mem, a, b, iop=iop, bits=bits, value=value):
                    if iop == "imuli":  # three-operand: not tied
                        return f.node(f'x64:imuli "i{bits}", {value}, {a}', "rax")
                    m = f.node(f"x64:mov {a}", "rax")
                    return f.node(f'x64:{iop} "i{bits}", {value}, {m}', "rax")
                checked = bits if (iop == "imuli" and bits < 32) else 64
                S.simple(f"t_{iop}_{bits}_{k}", ibody, lambda a, b, fn=fn, bits=bits, value=value: write(a, fn(a, u(value)), bits), checked)


def unary_and_shifts(S):
    for bits in (8, 16, 32, 64):
        for op, fn in (("neg", lambda a: -a), ("not", lambda a: ~a)):
            def body(f, st, mem, a, b, op=op, bits=bits):
                m = f.node(f"x64:mov {a}", "rax")
                return f.node(f'x64:{op} "i{bits}", {m}', "rax")
            S.simple(f"t_{op}_{bits}", body, lambda a, b, fn=fn, bits=bits: write(a, fn(a), bits))

        def shift(op, a, n, bits):
            if op == "shl":
                return (a << n) if n < bits else 0
            if op == "shr":
                return u(a, bits) >> n if n < bits else 0
            return s(a, bits) >> min(n, bits)
        counts = [(9, 3), (-5, 33), (0x8000000000000081, 7), (-1, 63), (0x1234, 15)]
        for op in ("shl", "shr", "sar"):
            def body(f, st, mem, a, b, op=op, bits=bits):
                c = f.node(f"x64:mov {b}", "rcx")
                m = f.node(f"x64:mov {a}", "rax")
                return f.node(f'x64:{op} "i{bits}", {m}, {c}', "rax")
            S.simple(f"t_{op}_{bits}", body,
                     lambda a, b, op=op, bits=bits: write(a, shift(op, a, b & (63 if bits == 64 else 31), bits), bits),
                     pairs=counts)
            for n in (1, 3, bits - 1):
                def ibody(f, st, mem, a, b, op=op, bits=bits, n=n):
                    m = f.node(f"x64:mov {a}", "rax")
                    return f.node(f'x64:{op}i "i{bits}", {n}, {m}', "rax")
                S.simple(f"t_{op}i_{bits}_{n}", ibody, lambda a, b, op=op, bits=bits, n=n: write(a, shift(op, a, n, bits), bits))


def multiply_divide(S):
    div_pairs = [(1000003, 7), (-1000003, 7), (12345, -13), (0x7FFF, 3), (-32768, 7), (99, 100)]
    for bits in (16, 32, 64):
        for op in ("mul1", "imul1"):
            for k, place in ((0, "rax"), (1, "rdx")):
                def body(f, st, mem, a, b, op=op, bits=bits, k=k):
                    m = f.node(f"x64:mov {a}", "rax")
                    t = f.node(f'x64:{op} "i{bits}", {m}, {b}')
                    lo = f.node(f"proj 0, {t}", "rax")
                    hi = f.node(f"proj 1, {t}", "rdx")
                    return lo if k == 0 else f.node(f"x64:mov {hi}", "rax")
                def expect(a, b, op=op, bits=bits, k=k):
                    p = (s(a, bits) * s(b, bits)) if op == "imul1" else u(a, bits) * u(b, bits)
                    return u(p >> (bits * k), bits)
                S.simple(f"t_{op}_{bits}_{k}", body, expect, bits)

        def cdq_body(f, st, mem, a, b, bits=bits):
            m = f.node(f"x64:mov {a}", "rax")
            d = f.node(f'x64:cdq "i{bits}", {m}', "rdx")
            return f.node(f"x64:mov {d}", "rax")
        S.simple(f"t_cdq_{bits}", cdq_body, lambda a, b, bits=bits: mask(bits) if s(a, bits) < 0 else 0, bits)
        for op in ("div", "idiv"):
            for k in (0, 1):
                def body(f, st, mem, a, b, op=op, bits=bits, k=k):
                    m = f.node(f"x64:mov {a}", "rax")
                    if op == "idiv":
                        hi = f.node(f'x64:cdq "i{bits}", {m}', "rdx")
                    else:
                        hi = f.node('x64:movi "i64", 0', "rdx")
                    t = f.node(f'x64:{op} ^{st}, "i{bits}", {m}, {hi}, {b}')
                    q = f.node(f"proj 0, {t}", "rax")
                    r = f.node(f"proj 1, {t}", "rdx")
                    return q if k == 0 else f.node(f"x64:mov {r}", "rax")
                def expect(a, b, op=op, bits=bits, k=k):
                    if op == "div":
                        x, y = u(a, bits), u(b, bits)
                        q, r = x // y, x % y
                    else:
                        x, y = s(a, bits), s(b, bits)
                        q = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
                        r = x - q * y
                    return u(q if k == 0 else r, bits)
                S.simple(f"t_{op}_{bits}_{k}", body, expect, bits, pairs=div_pairs)


def extends(S):
    for op in ("movsx", "movzx"):
        for frm, to in ((8, 16), (8, 32), (8, 64), (16, 32), (16, 64), (32, 64)):
            def body(f, st, mem, a, b, op=op, frm=frm, to=to):
                return f.node(f'x64:{op} "i{frm}", "i{to}", {a}', "rax")
            def expect(a, b, op=op, frm=frm, to=to):
                return u(s(a, frm) if op == "movsx" else u(a, frm), to)
            S.simple(f"t_{op}_{frm}_{to}", body, expect, 16 if to == 16 else 64)


# (op, immediate literal text for a size ("" for a register operand b), result, and/or/xor)
FLAGS_DEFINERS = [
    ("add", lambda bits: "", lambda a, b, bits: a + b, False),
    ("sub", lambda bits: "", lambda a, b, bits: a - b, False),
    ("subi", lambda bits: "-3, ", lambda a, b, bits: a + 3, False),
    ("neg", lambda bits: "", lambda a, b, bits: -a, False),
    ("shli", lambda bits: "1, ", lambda a, b, bits: a << 1, False),
    ("shri", lambda bits: "3, ", lambda a, b, bits: u(a, bits) >> 3, False),
    ("sari", lambda bits: f"{bits - 1}, ", lambda a, b, bits: s(a, bits) >> (bits - 1), False),
    ("and", lambda bits: "", lambda a, b, bits: a & b, True),
    ("xor", lambda bits: "", lambda a, b, bits: a ^ b, True),
    ("ori", lambda bits: "-128, ", lambda a, b, bits: a | u(-128), True),
]


def conditions(S):
    for cc in CONDS:
        for bits in (8, 32, 64):
            for cmp in ("cmp", "test"):
                def body(f, st, mem, a, b, cc=cc, bits=bits, cmp=cmp):
                    fl = f.node(f'x64:{cmp} "i{bits}", {a}, {b}')
                    x = f.node(f'x64:setcc "{cc}", {fl}', "rax")
                    return f.node(f'x64:movzx "i8", "i32", {x}', "rax")
                flags = flags_sub if cmp == "cmp" else flags_and
                S.simple(f"t_set{cc}_{cmp}_{bits}", body, lambda a, b, cc=cc, bits=bits, flags=flags: int(holds(cc, flags(a, b, bits))))
        for cmp, value in (("cmpi", 3), ("testi", 0x80), ("cmpi", -2)):
            def body(f, st, mem, a, b, cc=cc, cmp=cmp, value=value):
                fl = f.node(f'x64:{cmp} "i32", {value}, {a}')
                x = f.node(f'x64:setcc "{cc}", {fl}', "rdx")
                return f.node(f'x64:movzx "i8", "i64", {x}', "rax")
            flags = flags_sub if cmp == "cmpi" else flags_and
            S.simple(f"t_set{cc}_{cmp}_{value & 0xFF}", body, lambda a, b, cc=cc, flags=flags, value=value: int(holds(cc, flags(a, u(value), 32))))
        for bits in (16, 32, 64):
            def body(f, st, mem, a, b, cc=cc, bits=bits):
                m = f.node(f"x64:mov {a}", "rax")
                fl = f.node(f'x64:cmp "i{bits}", {a}, {b}')
                return f.node(f'x64:cmov ^{st}, "{cc}", "i{bits}", {fl}, {m}, {b}'.replace(f"^{st}, ", ""), "rax")
            S.simple(f"t_cmov{cc}_{bits}", body,
                     lambda a, b, cc=cc, bits=bits: write(a, b if holds(cc, flags_sub(a, b, bits)) else a, bits))
        # x64:flagsof: the flags the arithmetic left (no test), read by
        # every condition rule I allows, against test r, r of the result:
        # this checks on the CPU the manual's "Flags Affected" rule I relies on.
        for bits in (8, 32, 64):
            for op, operand, fn, logic in FLAGS_DEFINERS:
                if not logic and cc not in ("e", "ne", "s", "ns", "p", "np"):
                    continue
                operand = operand(bits)
                def body(f, st, mem, a, b, cc=cc, bits=bits, op=op, operand=operand):
                    m = f.node(f"x64:mov {a}", "rax")
                    args = f"{operand}{m}" if operand or op == "neg" else f"{m}, {b}"
                    r = f.node(f'x64:{op} "i{bits}", {args}', "rax")
                    fl = f.node(f'x64:flagsof "i{bits}", {r}')
                    x = f.node(f'x64:setcc "{cc}", {fl}', "rdx")
                    return f.node(f'x64:movzx "i8", "i64", {x}', "rax")
                S.simple(f"t_set{cc}_flagsof_{op}_{bits}", body,
                         lambda a, b, cc=cc, bits=bits, fn=fn: int(holds(cc, flags_and(fn(a, b, bits), fn(a, b, bits), bits))))
        # Branches in three layouts: the not-taken successor next, the taken
        # one next (negated jcc), neither next (jcc and jmp).
        for layout in range(3):
            S.fns.append(branch_fn(f"t_j{cc}_{layout}", cc, layout))
            for x, y in PAIRS:
                S.cases.append((f"t_j{cc}_{layout}", u(x), u(y), 11 if holds(cc, flags_sub(x, y, 64)) else 22, 64))


def branch_fn(name, cc, layout):
    f = Fn(name)
    # Block names by layout: taken (returns 11) and other (returns 22).
    taken, other = {0: ("b1", "b2"), 1: ("b2", "b1"), 2: ("b2", "b3")}[layout]
    nblocks = 3 if layout < 2 else 4
    children = ["b1", "b2"] if layout < 2 else ["b2", "b3"]
    f.blocks.append(["b0", [], [taken, other], children, []])
    st = f.node("start")
    mem = f.node(f"entrymem ^{st}")
    a = f.node(f'x64:argreg ^{st}, "i64", "rdi"', "rdi")
    b = f.node(f'x64:argreg ^{st}, "i64", "rsi"', "rsi")
    fl = f.node(f'x64:cmp "i64", {a}, {b}')
    j = f.node(f'x64:jcc ^{st}, "{cc}", {fl}')
    ret_block = {}
    for i in range(1, nblocks):
        bname = f"b{i}"
        if layout == 2 and bname == "b3":  # b3 jumps back to b1, which returns 22
            f.blocks.append([bname, [], ["b1"], ["b1"], []])
            r = f.node(f"region ^{j}")
            f.node('x64:movi "i64", 7', "rcx")  # code of its own: not a block that only jumps (branch chaining)
            ret_block["b3"] = f.node(f"jump ^{r}")
            continue
        f.blocks.append([bname, [], [], [], []])
        if layout == 2 and bname == "b1":
            r = f.node("region ^JUMP3")
            value = 22
        else:
            r = f.node(f"region ^{j}")
            value = 11 if bname == taken else 22
        v = f.node(f'x64:movi "i64", {value}', "rax")
        f.node(f"x64:ret ^{r}, {mem}, {v}")
    text = f.text()
    if layout == 2:
        text = text.replace("^JUMP3", "^" + ret_block["b3"])
    return RawFn(text)


class RawFn:
    def __init__(self, text):
        self._text = text

    def text(self):
        return self._text


def memory_and_data(S):
    # c_buf is a C array (extern data: through the GOT); store a at
    # c_buf + b*scale + disp with every store size, load it back with every
    # load form.
    for bits in (8, 16, 32, 64):
        for load, extra, res_bits, sign in (("load", "", bits, False), ("loadsx", f'"i{bits}", ', 64, True),
                                            ("loadzx", f'"i{bits}", ', 64, False)):
            if load == "load" and bits < 32 or load != "load" and bits == 64 or (load == "loadzx" and bits == 32):
                continue
            to = '"i64"' if load != "load" else ""
            def body(f, st, mem, a, b, bits=bits, load=load, to=to):
                base = f.node('x64:loadgot "c_buf"', "rdx")
                m2 = f.node(f'x64:store ^{st}, "i{bits}", 2, 6, {mem}, {a}, {base}, {b}')
                if load == "load":
                    return f.node(f'x64:load ^{st}, "i{bits}", 2, 6, {m2}, {base}, {b}', "rax"), m2
                return f.node(f'x64:{load} ^{st}, "i{bits}", {to}, 2, 6, {m2}, {base}, {b}', "rax"), m2
            def expect(a, b, bits=bits, sign=sign, res_bits=res_bits):
                return u(s(a, bits) if sign else u(a, bits), res_bits)
            S.simple(f"t_{load}_{bits}", body, expect, res_bits, pairs=[(0x1122334455667788, 3), (-2, 0), (0x80, 5)])
    # storei, then a volatile load (value used) and one whose value is unused.
    for bits in (8, 16, 32, 64):
        def body(f, st, mem, a, b, bits=bits):
            base = f.node('x64:loadgot "c_buf"', "rcx")
            m2 = f.node(f'x64:storei ^{st}, "i{bits}", -5, 0, 8, {mem}, {base}')
            t = f.node(f'x64:loadsx.volatile ^{st}, "i{bits}", "i64", 0, 8, {m2}, {base}' if bits < 64 else
                       f'x64:load.volatile ^{st}, "i64", 0, 8, {m2}, {base}')
            m3 = f.node(f"proj 0, {t}")
            v = f.node(f"proj 1, {t}", "rax")
            t2 = f.node(f'x64:loadzx.volatile ^{st}, "i8", "i32", 0, 8, {m3}, {base}')
            m4 = f.node(f"proj 0, {t2}")
            return v, m4
        S.simple(f"t_storei_{bits}", body, lambda a, b: u(-5), 64, pairs=[(0, 0)])
    # Own data: RIP-relative loads, stores and lea, .rodata, .bss, a relocation.
    def body(f, st, mem, a, b):
        x = f.node(f'x64:load ^{st}, "i64", 0, 8, "d_words", {mem}', "rax")
        y = f.node(f'x64:loadzx ^{st}, "i8", "i32", 0, 2, "d_bytes", {mem}', "rcx")
        s1 = f.node(f'x64:add "i64", {x}, {y}', "rax")
        p = f.node(f'x64:load ^{st}, "i64", 0, 0, "d_ptr", {mem}', "rdx")
        z = f.node(f'x64:load ^{st}, "i32", 0, 0, {mem}, {p}', "rcx")
        s2 = f.node(f'x64:add "i64", {s1}, {z}', "rax")
        m2 = f.node(f'x64:store ^{st}, "i64", 0, 8, "d_zero", {mem}, {a}')
        w = f.node(f'x64:load ^{st}, "i64", 0, 8, "d_zero", {m2}', "rcx")
        return f.node(f'x64:add "i64", {s2}, {w}', "rax"), m2
    S.simple("t_data", body, lambda a, b: 0x1000 + 0x33 + 0x99 + a, 64, pairs=[(5, 0), (-9, 0)])


# ---- SSE2 scalar floating point (values in xmm registers) ----------------------

import math  # noqa: E402
import struct  # noqa: E402


def f64(bits):
    return struct.unpack("<d", struct.pack("<Q", u(bits)))[0]


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f32(bits):
    return struct.unpack("<f", struct.pack("<I", u(bits, 32)))[0]


def f32_bits(x):
    try:
        return struct.unpack("<I", struct.pack("<f", x))[0]
    except OverflowError:  # rounds to infinity
        return 0x7F800000 | (0x80000000 if x < 0 else 0)


def fval(bits, width):
    return f32(bits) if width == 32 else f64(bits)


def fbits(x, width):
    return f32_bits(x) if width == 32 else f64_bits(x)


def fop(op, x, y):
    try:
        return {"fadd": lambda: x + y, "fsub": lambda: x - y, "fmul": lambda: x * y, "fdiv": lambda: x / y}[op]()
    except OverflowError:
        return math.copysign(math.inf, x) * (math.copysign(1, y) if op in ("fmul", "fdiv") else 1)


# Operand pairs without NaNs, infinities or a zero divisor (those rules are
# eval_float.h's, checked against the CPU by tests/eval_float_cpu.cpp).
F64_PAIRS = [(1.5, 2.25), (-3.0, 0.1), (1e300, 1e10), (0.0, -0.0), (-7.25, -7.25), (2.0 ** -1070, 3.0)]
F32_PAIRS = [(1.5, 2.25), (-3.0, 0.1), (1e30, 1e10), (0.0, -0.0), (-7.25, -7.25), (2.0 ** -140, 3.0)]


def ucomis_flags(x, y):
    if math.isnan(x) or math.isnan(y):
        return dict(c=True, z=True, p=True, s=False, o=False)
    return dict(c=x < y, z=x == y, p=False, s=False, o=False)


def floats(S):
    for width, pairs in ((64, F64_PAIRS), (32, F32_PAIRS)):
        t, it = f'"f{width}"', f'"i{width}"'
        ipairs = [(fbits(x, width), fbits(y, width)) for x, y in pairs]

        def args(f, a, b, ra="xmm0", rb="xmm1"):
            return (f.node(f"x64:bitcast {it}, {t}, {a}", ra), f.node(f"x64:bitcast {it}, {t}, {b}", rb))

        for op in ("fadd", "fsub", "fmul", "fdiv"):
            def body(f, st, mem, a, b, op=op):
                xa, xb = args(f, a, b)
                r = f.node(f"x64:{op} {t}, {xa}, {xb}", "xmm0")
                return f.node(f"x64:bitcast {t}, {it}, {r}", "rax")
            S.simple(f"t_{op}_{width}", body,
                     lambda a, b, op=op, width=width: fbits(fop(op, fval(a, width), fval(b, width)), width),
                     pairs=[p for p in ipairs if not (op == "fdiv" and fval(p[1], width) == 0)])

        def sqrt_body(f, st, mem, a, b):
            xa, _ = args(f, a, b, "xmm9", "xmm10")
            r = f.node(f"x64:fsqrt {t}, {xa}", "xmm15")
            return f.node(f"x64:bitcast {t}, {it}, {r}", "rax")
        S.simple(f"t_fsqrt_{width}", sqrt_body, lambda a, b, width=width: fbits(math.sqrt(abs(fval(a, width))), width),
                 pairs=[(fbits(abs(x), width), 0) for x, _ in pairs])
        for op, fn in (("fxor", lambda a, b: a ^ b), ("fand", lambda a, b: a & b)):
            def body(f, st, mem, a, b, op=op):
                xa, xb = args(f, a, b, "xmm3", "xmm12")
                r = f.node(f"x64:{op} {t}, {xa}, {xb}", "xmm3")
                return f.node(f"x64:bitcast {t}, {it}, {r}", "rax")
            S.simple(f"t_{op}_{width}", body, lambda a, b, fn=fn, width=width: u(fn(a, b), width), pairs=ipairs)

        def zero_body(f, st, mem, a, b):
            r = f.node(f"x64:fzero {t}", "xmm8")
            return f.node(f"x64:bitcast {t}, {it}, {r}", "rax")
        S.simple(f"t_fzero_{width}", zero_body, lambda a, b: 0, pairs=[(1, 2)])
        # Constants from .rodata.cst4/.cst8: -0.0 twice (one entry), 1.5, a NaN payload.
        for k, spelling, pattern in ((0, "-0.0", 1 << (width - 1)), (1, "0x1.8p0", fbits(1.5, width)),
                                     (2, "-0.0", 1 << (width - 1)),
                                     (3, "nan(0xfffffffffffff)" if width == 64 else "nan(0xfffffe0000000)",
                                      (1 << (width - 1)) - 1)):
            def body(f, st, mem, a, b, spelling=spelling):
                r = f.node(f"x64:fconst {t}, {spelling}", "xmm4")
                return f.node(f"x64:bitcast {t}, {it}, {r}", "rax")
            S.simple(f"t_fconst_{width}_{k}", body, lambda a, b, pattern=pattern: pattern, pairs=[(0, 0)])
        # ucomis and every condition a float compare uses; NaN operands too.
        nan = 0x7FF8000000000001 if width == 64 else 0x7FC00001
        cpairs = ipairs + [(nan, fbits(1.0, width)), (fbits(1.0, width), nan), (fbits(-0.0, width), 0)]
        for cc in ("e", "ne", "p", "np", "a", "ae", "b", "be"):
            def body(f, st, mem, a, b, cc=cc):
                xa, xb = args(f, a, b, "xmm6", "xmm7")
                fl = f.node(f"x64:ucomis {t}, {xa}, {xb}")
                x = f.node(f'x64:setcc "{cc}", {fl}', "rax")
                return f.node(f'x64:movzx "i8", "i32", {x}', "rax")
            S.simple(f"t_ucomis_{cc}_{width}", body,
                     lambda a, b, cc=cc, width=width: int(holds(cc, ucomis_flags(fval(a, width), fval(b, width)))),
                     pairs=cpairs)
        # Conversions.
        for ibits in (32, 64):
            def body(f, st, mem, a, b, ibits=ibits):
                r = f.node(f'x64:cvtsi2f "i{ibits}", {t}, {a}', "xmm2")
                return f.node(f"x64:bitcast {t}, {it}, {r}", "rax")
            S.simple(f"t_cvtsi2f_{ibits}_{width}", body,
                     lambda a, b, ibits=ibits, width=width: fbits(float(s(a, ibits)), width),
                     pairs=[(5, 0), (-7, 0), (0x7FFFFFFF, 0), (0x123456789ABCDEF1, 0), (-1 << 63, 0)])

            def tbody(f, st, mem, a, b, ibits=ibits):
                xa, _ = args(f, a, b, "xmm11", "xmm1")
                return f.node(f'x64:cvttf2si {t}, "i{ibits}", {xa}', "rax")

            def trunc(a, ibits=ibits, width=width):
                x = fval(a, width)
                if math.isnan(x) or math.isinf(x) or not (-(2 ** (ibits - 1)) <= math.trunc(x) < 2 ** (ibits - 1)):
                    return 1 << (ibits - 1)
                return u(math.trunc(x), ibits)
            S.simple(f"t_cvttf2si_{width}_{ibits}", tbody, lambda a, b, trunc=trunc: trunc(a),
                     pairs=[(fbits(v, width), 0) for v in (2.75, -2.75, 3e9, -1e20, 0.5)] + [(nan, 0)])
        other = 32 if width == 64 else 64

        def cbody(f, st, mem, a, b, other=other):
            xa, _ = args(f, a, b, "xmm5", "xmm1")
            r = f.node(f'x64:cvtf2f {t}, "f{other}", {xa}', "xmm13")
            return f.node(f'x64:bitcast "f{other}", "i{other}", {r}', "rax")
        S.simple(f"t_cvtf2f_{width}", cbody, lambda a, b, width=width, other=other: fbits(fval(a, width), other),
                 pairs=[(fbits(v, width), 0) for v in (1.5, -0.1, 1e30, 2.0 ** -140)])

        # Memory: movss/movsd through c_buf; moves, a spill and a reload of an xmm value.
        def mbody(f, st, mem, a, b):
            xa, _ = args(f, a, b, "xmm14", "xmm1")
            base = f.node('x64:loadgot "c_buf"', "rdx")
            m2 = f.node(f"x64:store ^{st}, {t}, 1, 8, {mem}, {xa}, {base}, {b}")
            x = f.node(f"x64:load ^{st}, {t}, 1, 8, {m2}, {base}, {b}", "xmm1")
            y = f.node(f"x64:mov {x}", "xmm10")
            sp = f.node(f"x64:spill {y}", "s0")
            z = f.node(f"x64:reload {sp}", "xmm3")
            return f.node(f"x64:bitcast {t}, {it}, {z}", "rax"), m2
        S.simple(f"t_fmem_{width}", mbody, lambda a, b, width=width: u(a, width),
                 pairs=[(fbits(-2.5, width), 3), (fbits(1e-3, width), 0)])


MODULE_HEADER = """module ra-x64
file 0 "ops.c"
extern function c_sum8(i64, i64, i64, i64, i64, i64, i64, i64) -> i64
extern function c_vsum(i32, ...) -> i64
extern function c_twice(i64) -> i64
extern function g(i64) -> i64
extern data c_buf
extern data c_src
extern data c_dst
extern data c_tls tls
data internal readonly d_bytes size 4 align 1 init x"11223344"
data internal d_words size 16 align 8 init x"00000000000000000010000000000000"
data internal d_zero size 16 align 8
data internal readonly d_target size 4 align 4 init x"99000000"
data internal readonly d_ptr size 8 align 8 reloc 0 d_target+0
data pipe_exported size 8 align 8 init x"0700000000000000"
data d_tls size 8 align 8 tls
data internal d_tls2 size 8 align 8 init x"7700000000000000" tls
"""


def calls_and_frames():
    """Functions beyond (a, b) -> rax: stack arguments in and out, variadic
    and indirect calls, stack slots, rep movsb, callee-saved registers
    across calls in a loop (phis), spills, reloads and exchanges."""
    fns = []
    # long t_args8(a..h): a - b + g + 2*h, reading g and h from the stack.
    f = Fn("t_args8", params=("i64",) * 8)
    f.block()
    st = f.node("start")
    mem = f.node(f"entrymem ^{st}")
    a = f.node(f'x64:argreg ^{st}, "i64", "rdi"', "rdi")
    b = f.node(f'x64:argreg ^{st}, "i64", "rsi"', "rsi")
    s0 = f.node("x64:argslot 0")
    s8 = f.node("x64:argslot 8")
    g7 = f.node(f'x64:load ^{st}, "i64", 0, 0, {mem}, {s0}', "rax")
    h8 = f.node(f'x64:load ^{st}, "i64", 0, 0, {mem}, {s8}', "rcx")
    x = f.node(f'x64:add "i64", {g7}, {a}', "rax")
    y = f.node(f'x64:sub "i64", {x}, {b}', "rax")
    z = f.node(f'x64:lea "i64", 2, 0, {y}, {h8}', "rax")
    f.node(f"x64:ret ^{st}, {mem}, {z}")
    fns.append(f)

    # long t_call8(long x): c_sum8(x, x+1, ..., x+7) (two on the stack)
    # + c_vsum(2, x, 5) (variadic: al) + (*c_twice)(x) (indirect), with x
    # kept in callee-saved rbx across the calls.
    f = Fn("t_call8", params=("i64",))
    f.block()
    st = f.node("start")
    mem = f.node(f"entrymem ^{st}")
    x = f.node(f'x64:argreg ^{st}, "i64", "rdi"', "rdi")
    rbx = f.node(f'x64:entryreg ^{st}, "rbx"', "rbx")
    save = f.node(f"x64:spill {rbx}", "s0")
    xb = f.node(f"x64:mov {x}", "rbx")
    args = []
    for k, reg in enumerate(["rdi", "rsi", "rdx", "rcx", "r8", "r9"]):
        m = f.node(f"x64:mov {xb}", reg)
        args.append(f.node(f'x64:addi "i64", {k}, {m}', reg) if k else m)
    o0 = f.node("x64:outarg 0")
    o8 = f.node("x64:outarg 8")
    v6 = f.node(f"x64:mov {xb}", "rax")
    v6 = f.node(f'x64:addi "i64", 6, {v6}', "rax")
    m1 = f.node(f'x64:store ^{st}, "i64", 0, 0, {mem}, {v6}, {o0}')
    v7 = f.node(f"x64:mov {xb}", "rax")
    v7 = f.node(f'x64:addi "i64", 7, {v7}', "rax")
    m2 = f.node(f'x64:store ^{st}, "i64", 0, 0, {m1}, {v7}, {o8}')
    c1 = f.node(f'x64:call ^{st}, "c_sum8", -1, {m2}, ' + ", ".join(args))
    m3 = f.node(f"proj 0, {c1}")
    r1 = f.node(f"proj 1, {c1}", "rax")
    acc = f.node(f"x64:spill {r1}", "s1")
    n2 = f.node('x64:movi "i32", 2', "rdi")
    xv = f.node(f"x64:mov {xb}", "rsi")
    five = f.node('x64:movi "i64", 5', "rdx")
    c2 = f.node(f'x64:call ^{st}, "c_vsum", 0, {m3}, {n2}, {xv}, {five}')
    m4 = f.node(f"proj 0, {c2}")
    r2 = f.node(f"proj 1, {c2}", "rax")
    acc2 = f.node(f"x64:reload {acc}", "rcx")
    sum2 = f.node(f'x64:add "i64", {acc2}, {r2}', "rcx")
    acc3 = f.node(f"x64:spill {sum2}", "s1")
    fp = f.node('x64:loadgot "c_twice"', "r11")
    xa = f.node(f"x64:mov {xb}", "rdi")
    c3 = f.node(f'x64:callind ^{st}, -1, {m4}, {fp}, {xa}')
    m5 = f.node(f"proj 0, {c3}")
    r3 = f.node(f"proj 1, {c3}", "rax")
    acc4 = f.node(f"x64:reload {acc3}", "rdx")
    total = f.node(f'x64:add "i64", {r3}, {acc4}', "rax")
    f.node(f"x64:reload {save}", "rbx")
    f.node(f"x64:ret ^{st}, {m5}, {total}")
    fns.append(f)

    # long t_slots(long a, long b): two stack slots, an exchange, a spill
    # and reload, rep movsb from c_src to c_dst of b bytes; returns
    # (a - b) * 16 + the slots' sum.
    f = Fn("t_slots")
    f.block()
    st = f.node("start")
    mem = f.node(f"entrymem ^{st}")
    a = f.node(f'x64:argreg ^{st}, "i64", "rdi"', "rdi")
    b = f.node(f'x64:argreg ^{st}, "i64", "rsi"', "rsi")
    sl1 = f.node("x64:stackslot 24, 8")
    sl2 = f.node("x64:stackslot 2, 2")
    m1 = f.node(f'x64:store ^{st}, "i64", 0, 16, {mem}, {a}, {sl1}')
    m2 = f.node(f'x64:storei ^{st}, "i16", 300, 0, 0, {m1}, {sl2}')
    x = f.node(f"x64:xchg {a}, {b}")
    pa = f.node(f"proj 0, {x}", "rsi")
    pb = f.node(f"proj 1, {x}", "rdi")
    sp = f.node(f"x64:spill {pa}", "s0")
    cnt = f.node(f"x64:mov {pb}", "rcx")
    keep = f.node(f"x64:mov {pb}", "r8")
    dst = f.node('x64:loadgot "c_dst"', "rdi")
    src = f.node('x64:loadgot "c_src"', "rsi")
    m3 = f.node(f"x64:repmovsb ^{st}, {m2}, {dst}, {src}, {cnt}")
    ra = f.node(f"x64:reload {sp}", "rax")
    d = f.node(f'x64:sub "i64", {ra}, {keep}', "rax")
    d16 = f.node(f'x64:shli "i64", 4, {d}', "rax")
    l1 = f.node(f'x64:load ^{st}, "i64", 0, 16, {m3}, {sl1}', "rdx")
    l2 = f.node(f'x64:loadzx ^{st}, "i16", "i64", 0, 0, {m3}, {sl2}', "rcx")
    s1 = f.node(f'x64:add "i64", {d16}, {l1}', "rax")
    s2 = f.node(f'x64:add "i64", {s1}, {l2}', "rax")
    f.node(f"x64:ret ^{st}, {m3}, {s2}")
    fns.append(f)
    return fns


LOOP = """pipeline t_loop(i64) -> i64 {
  b0 {
    i0 = start
    i1 = entrymem ^i0
    i2 = x64:argreg ^i0, "i64", "rdi" in rdi
    i3 = x64:entryreg ^i0, "rbx" in rbx
    i4 = x64:spill i3 in s0
    i5 = x64:entryreg ^i0, "r12" in r12
    i6 = x64:spill i5 in s1
    i7 = x64:mov i2 in rbx
    i8 = x64:movi "i64", 0 in r12
    i9 = jump ^i0
  }
  b0 -> b1
  b0 => b1
  b1 {
    i10 = region ^i9, ^i23
    i11 = phi ^i10, i1, i19
    i12 = phi ^i10, i7, i22 in rbx
    i13 = phi ^i10, i8, i21 in r12
    i14 = x64:testi "i64", -1, i12
    i15 = x64:jcc ^i10, "e", i14
  }
  b1 -> b3, b2
  b1 => b2, b3
  b1 ~> b1
  b2 {
    i16 = region ^i15
    i17 = x64:mov i12 in rdi
    i18 = x64:call ^i16, "g", -1, i11, i17
    i19 = proj 0, i18
    i20 = proj 1, i18 in rax
    i21 = x64:add "i64", i13, i20 in r12
    i22 = x64:subi "i64", 1, i12 in rbx
    i23 = jump ^i16
  }
  b2 -> b1
  b2 =>
  b2 ~> b1
  b3 {
    i24 = region ^i15
    i25 = x64:mov i13 in rax
    i26 = x64:reload i4 in rbx
    i27 = x64:reload i6 in r12
    i28 = x64:ret ^i24, i11, i25
  }
  b3 =>
}"""

LEA_EXPORTED = """pipeline t_lea_exported() -> ptr {
  b0 {
    i0 = start
    i1 = entrymem ^i0
    i2 = x64:lea "i64", 0, 0, "pipe_exported" in rax
    i3 = x64:ret ^i0, i1, i2
  }
  b0 =>
}"""

C_MAIN = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

unsigned char c_buf[64], c_src[64], c_dst[64];
__thread long c_tls = 5;
extern long pipe_exported;
static int misaligned;
/* A macro, not a function: gcc calls its own static functions with any
   alignment. With a frame pointer, rbp = entry rsp - 8 is 16-byte aligned
   when the caller's rsp was at the call. */
#define check_alignment() do { if ((uintptr_t)__builtin_frame_address(0) % 16 != 0) misaligned++; } while (0)
long c_sum8(long a, long b, long c, long d, long e, long f, long g, long h) {
  check_alignment();
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}
long c_vsum(int n, ...) {
  check_alignment();
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++) s = s * 100 + va_arg(ap, long);
  va_end(ap);
  return s;
}
long c_twice(long x) { check_alignment(); return 2 * x; }
/* Called from t_loop: the unwinder must walk through t_loop's frame (its
   .cfi_) back to main. */
static int unwound;
long g(long i) {
  check_alignment();
  void* frames[16];
  int n = backtrace(frames, 16), seen_loop = 0;
  for (int k = 0; k < n; k++) {
    Dl_info info;
    if (dladdr(frames[k], &info) && info.dli_sname) {
      if (strcmp(info.dli_sname, "t_loop") == 0) seen_loop = 1;
      if (strcmp(info.dli_sname, "main") == 0 && seen_loop) unwound++;
    }
  }
  return i * i;
}

typedef unsigned long (*F)(unsigned long, unsigned long);
struct Case { const char* name; F f; unsigned long a, b, want; int bits; };
@DECLS@
static const struct Case cases[] = {
@CASES@
};

long t_args8(long, long, long, long, long, long, long, long);
long t_call8(long);
long t_slots(long, long);
long t_loop(long);
long* t_lea_exported(void);

int main(void) {
  int bad = 0, n = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++, n++) {
    const struct Case* c = &cases[i];
    unsigned long got = c->f(c->a, c->b);
    unsigned long m = c->bits == 64 ? ~0ul : (1ul << c->bits) - 1;
    if ((got & m) != (c->want & m)) {
      printf("%s(%#lx, %#lx) = %#lx, want %#lx (low %d bits)\n", c->name, c->a, c->b, got, c->want, c->bits);
      bad++;
    }
  }
#define CHECK(expr, want) do { long got_ = (long)(expr); n++; \
    if (got_ != (long)(want)) { printf("%s = %ld, want %ld\n", #expr, got_, (long)(want)); bad++; } } while (0)
  CHECK(t_args8(100, 7, 0, 0, 0, 0, 30, 4), 100 - 7 + 30 + 8);
  long x = 10;
  CHECK(t_call8(x), (x + 2*(x+1) + 3*(x+2) + 4*(x+3) + 5*(x+4) + 6*(x+5) + 7*(x+6) + 8*(x+7)) + (x*100 + 5) + 2*x);
  for (int i = 0; i < 40; i++) c_src[i] = (unsigned char)(i * 7 + 1);
  CHECK(t_slots(50, 40), (50 - 40) * 16 + 50 + 300);
  CHECK(memcmp(c_src, c_dst, 40) == 0 && c_dst[40] == 0, 1);
  CHECK(t_loop(10), 385);
  CHECK(t_lea_exported() == &pipe_exported && pipe_exported == 7, 1);
  CHECK(misaligned, 0);
  CHECK(unwound, 10);
  if (bad) printf("%d of %d failed\n", bad, n);
  else printf("all %d ok\n", n);
  return bad != 0;
}
"""


def inline_asm(S):
    """x64:asm: operands in the registers their literals name (a in rdi, b
    in rsi), an output taken from its register, an immediate with %c, the
    32-bit modifier %k, a tied (+) operand and a %= label."""
    def lea_body(f, st, mem, a, b):
        x = f.node(f'x64:asm ^{st}, "", "leaq (%1,%2), %0\\n\\tshlq $%c3, %0", "cc", "=r i64 rax", "r i64 rdi", '
                   f'"r i64 rsi", "i 2", {mem}, {a}, {b}')
        return f.node(f"proj 1, {x}", "rax"), f.node(f"proj 0, {x}")
    S.simple("t_asm_lea", lea_body, lambda a, b: u((a + b) << 2))

    def neg_body(f, st, mem, a, b):
        x = f.node(f'x64:asm ^{st}, "", "movl %k1, %k0\\n\\tnegl %k0", "", "=r i64 rcx", "r i64 rdi", {mem}, {a}')
        r = f.node(f"proj 1, {x}", "rcx")
        return f.node(f"x64:mov {r}", "rax"), f.node(f"proj 0, {x}")
    S.simple("t_asm_neg32", neg_body, lambda a, b: u(-a) & 0xFFFFFFFF)

    def label_body(f, st, mem, a, b):
        m = f.node(f"x64:mov {a}", "rax")
        x = f.node(f'x64:asm ^{st}, "volatile", "testq %1, %1\\n\\tjz .Lz%=\\n\\taddq %1, %0\\n.Lz%=:", "cc", '
                   f'"+r i64 rax", "r i64 rsi", {mem}, {m}, {b}')
        return f.node(f"proj 1, {x}", "rax"), f.node(f"proj 0, {x}")
    S.simple("t_asm_label", label_body, lambda a, b: u(a + b) if b else a)


def dynamic_stack(S):
    """x64:stacksave, x64:alloca (a 16-byte aligned block: the low bits of its
    address are added to the result) and x64:stackrestore, in a function
    that keeps rbp as its frame pointer."""
    def body(f, st, mem, a, b):
        sv = f.node(f"x64:stacksave ^{st}, {mem}")
        m0 = f.node(f"proj 0, {sv}")
        saved = f.node(f"proj 1, {sv}", "rcx")
        size = f.node('x64:movi "i64", 48', "rdx")
        al = f.node(f"x64:alloca ^{st}, {m0}, {size}")
        m1 = f.node(f"proj 0, {al}")
        addr = f.node(f"proj 1, {al}", "r8")
        m2 = f.node(f'x64:store ^{st}, "i64", 0, 32, {m1}, {a}, {addr}')
        v = f.node(f'x64:load ^{st}, "i64", 0, 32, {m2}, {addr}', "rax")
        low = f.node(f'x64:andi "i64", 15, {addr}', "r8")
        r = f.node(f'x64:add "i64", {v}, {low}', "rax")
        m3 = f.node(f"x64:stackrestore ^{st}, {m2}, {saved}")
        return r, m3
    S.simple("t_dynamic_stack", body, lambda a, b: a)


# ---- long double: x87 sequences on memory operands (c_buf) ----------------------
LD_PAIRS = [(5, 3), (-7, 3), (123456789, -1000), (0, 4), (-2, -2), (1 << 40, 3)]


def long_doubles(S):
    def setup(f, st, mem, a, b):
        """a and b as long doubles at c_buf and c_buf + 16; c_buf + 32 for a
        result, c_buf + 48 as f80.to's scratch."""
        base = f.node('x64:loadgot "c_buf"', "rdx")
        pb = f.node(f'x64:lea "i64", 0, 16, {base}', "rcx")
        pr = f.node(f'x64:lea "i64", 0, 32, {base}', "r8")
        sc = f.node(f'x64:lea "i64", 0, 48, {base}', "r9")
        m1 = f.node(f'x64:f80.from ^{st}, "i64", {mem}, {base}, {a}')
        m2 = f.node(f'x64:f80.from ^{st}, "i64", {m1}, {pb}, {b}')
        return base, pb, pr, sc, m2

    def trunc_div(a, b):
        q = abs(a) // abs(b)
        return q if (a < 0) == (b < 0) else -q

    arith = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b, "div": trunc_div}
    for op, fn in arith.items():
        def body(f, st, mem, a, b, op=op):
            base, pb, pr, sc, m = setup(f, st, mem, a, b)
            m3 = f.node(f'x64:f80.arith ^{st}, "{op}", {m}, {pr}, {base}, {pb}')
            return f.node(f'x64:f80.to ^{st}, "i64", {m3}, {pr}, {sc}', "rax"), m3
        S.simple(f"t_f80_{op}", body, lambda a, b, fn=fn: u(fn(s(a, 64), s(b, 64))),
                 pairs=[p for p in LD_PAIRS if not (op == "div" and p[1] == 0)])
    unary = {"neg": lambda a: -a, "abs": abs, "copy": lambda a: a, "sqrt": lambda a: int(math.isqrt(a))}
    for op, fn in unary.items():
        def body(f, st, mem, a, b, op=op):
            base, pb, pr, sc, m = setup(f, st, mem, a, b)
            m3 = f.node(f'x64:f80.unary ^{st}, "{op}", {m}, {pr}, {base}')
            return f.node(f'x64:f80.to ^{st}, "i64", {m3}, {pr}, {sc}', "rax"), m3
        pairs = [(9, 0), (16, 1), (0, 2), (1 << 40, 3)] if op == "sqrt" else LD_PAIRS
        S.simple(f"t_f80_{op}", body, lambda a, b, fn=fn: u(fn(s(a, 64))), pairs=pairs)
    for cc in ("a", "ae", "b", "be", "e", "ne", "p", "np"):
        def body(f, st, mem, a, b, cc=cc):
            base, pb, pr, sc, m = setup(f, st, mem, a, b)
            return f.node(f'x64:f80.cmp ^{st}, "{cc}", {m}, {base}, {pb}', "rax"), m
        def expect(a, b, cc=cc):
            x, y = s(a, 64), s(b, 64)
            return int({"a": x > y, "ae": x >= y, "b": x < y, "be": x <= y, "e": x == y, "ne": x != y,
                        "p": False, "np": True}[cc])
        S.simple(f"t_f80_cmp_{cc}", body, expect, pairs=LD_PAIRS)
    for t, bits in (("i16", 16), ("i32", 32)):  # fild/fistp at each width: the low bits, sign-extended and back
        def body(f, st, mem, a, b, t=t):
            base, pb, pr, sc, m = setup(f, st, mem, a, b)
            m3 = f.node(f'x64:f80.from ^{st}, "{t}", {m}, {pr}, {b}')
            return f.node(f'x64:f80.to ^{st}, "{t}", {m3}, {pr}, {sc}', "rax"), m3
        S.simple(f"t_f80_int_{t}", body, lambda a, b, bits=bits: u(b, bits), bits_checked=bits,
                 pairs=[(0, 5), (0, -7), (0, 300), (0, -32768)])
    for width in (32, 64):  # fld/fstp of f32 and f64: exact both ways
        t, it = f'"f{width}"', f'"i{width}"'
        def body(f, st, mem, a, b, t=t, it=it):
            base, pb, pr, sc, m = setup(f, st, mem, a, b)
            x = f.node(f"x64:bitcast {it}, {t}, {b}", "xmm0")
            m3 = f.node(f'x64:f80.from ^{st}, {t}, {m}, {pr}, {x}')
            r = f.node(f'x64:f80.to ^{st}, {t}, {m3}, {pr}, {sc}', "xmm1")
            return f.node(f"x64:bitcast {t}, {it}, {r}", "rax"), m3
        pairs = [(0, fbits(v, width)) for v in (1.5, -0.1, 1e30, -0.0)]
        S.simple(f"t_f80_f{width}", body, lambda a, b, width=width: u(b, width), bits_checked=width, pairs=pairs)
    # st(0) as a result travels: fldt, then fstpt elsewhere.
    def st0_body(f, st, mem, a, b):
        base, pb, pr, sc, m = setup(f, st, mem, a, b)
        m3 = f.node(f"x64:fldt ^{st}, {m}, {base}")
        m4 = f.node(f"x64:fstpt ^{st}, {m3}, {pr}")
        return f.node(f'x64:f80.to ^{st}, "i64", {m4}, {pr}, {sc}', "rax"), m4
    S.simple("t_f80_st0", st0_body, lambda a, b: u(s(a, 64)), pairs=LD_PAIRS)


# ---- 16-byte vectors: x64:v128.op on c_buf (FORMAT.md 8, "16-byte vectors") ------------
def vectors(S):
    """A = (a, b) at c_buf and B = (b, a) at c_buf + 16 as two i64 lanes
    each; the result at c_buf + 32, whose low 8 bytes are returned: each
    operand shape (binary, unary, with an immediate, binary with one)."""
    def setup(f, st, mem, a, b):
        base = f.node('x64:loadgot "c_buf"', "rdx")
        m = mem
        for disp, v in ((0, a), (8, b), (16, b), (24, a)):
            m = f.node(f'x64:store ^{st}, "i64", 0, {disp}, {m}, {v}, {base}')
        pb = f.node(f'x64:lea "i64", 0, 16, {base}', "rcx")
        pr = f.node(f'x64:lea "i64", 0, 32, {base}', "r8")
        return base, pb, pr, m

    def lanes32(x, y, fn):
        lo = fn(x & 0xFFFFFFFF, y & 0xFFFFFFFF) & 0xFFFFFFFF
        hi = fn(x >> 32, y >> 32) & 0xFFFFFFFF
        return lo | hi << 32

    cases = {
        "paddq": (0, False, lambda a, b: a + b),
        "psubd": (0, False, lambda a, b: lanes32(a, b, lambda x, y: x - y)),
        "pxor": (0, False, lambda a, b: a ^ b),
        "pshufd": (0x4E, True, lambda a, b: b),      # the two halves of A swapped
        "psllqi": (4, True, lambda a, b: a << 4),
        "psrlqi": (200, True, lambda a, b: 0),       # a count above 63 clears the lane
        "shufpd": (1, False, lambda a, b: b),        # (A[1], B[0])
        "punpcklqdq": (0, False, lambda a, b: a),    # (A[0], B[0])
    }
    for op, (imm, unary, fn) in cases.items():
        def body(f, st, mem, a, b, op=op, imm=imm, unary=unary):
            base, pb, pr, m = setup(f, st, mem, a, b)
            second = base if unary else pb
            m2 = f.node(f'x64:v128.op ^{st}, "{op}", {imm}, {m}, {pr}, {base}, {second}')
            return f.node(f'x64:load ^{st}, "i64", 0, 32, {m2}, {base}', "rax"), m2
        S.simple(f"t_v128_{op}", body, lambda a, b, fn=fn: u(fn(a, b)))
    # The ABI boundary: x64:v128.param stores xmm0 in the prologue (junk
    # here, then overwritten), x64:v128.ret loads the slot into xmm0.
    def abi_body(f, st, mem, a, b):
        slot = f.node("x64:stackslot 16, 16")
        m = f.node(f"x64:v128.param ^{st}, 0, 0, 0, {mem}, {slot}")
        m = f.node(f'x64:store ^{st}, "i64", 0, 8, {m}, {a}, {slot}')
        m = f.node(f"x64:v128.ret ^{st}, 0, 0, {m}, {slot}")
        return f.node(f'x64:load ^{st}, "i64", 0, 8, {m}, {slot}', "rax"), m
    S.simple("t_v128_abi", abi_body, lambda a, b: u(a))


# ---- 16-byte vector values in xmm registers (FORMAT.md 8, "16-byte vector values") ----
def vector_values(S):
    """A = (a, b) at c_buf and B = (b, a) at c_buf + 16 as two i64 lanes,
    loaded into xmm registers, combined, copied, spilled to a slot pair
    (s0, s1: 16 bytes), reloaded, stored to c_buf + 32 and read back; lane
    extracts (lane 1 through pshufd), splats of each lane type."""
    def load_ab(f, st, mem, a, b):
        base = f.node('x64:loadgot "c_buf"', "rdx")
        m = mem
        for disp, v in ((0, a), (8, b), (16, b), (24, a)):
            m = f.node(f'x64:store ^{st}, "i64", 0, {disp}, {m}, {v}, {base}')
        x = f.node(f"x64:v128.load ^{st}, 0, 0, {m}, {base}", "xmm2")
        y = f.node(f"x64:v128.load ^{st}, 0, 16, {m}, {base}", "xmm9")
        return base, m, x, y

    def spill_body(f, st, mem, a, b):
        base, m, x, y = load_ab(f, st, mem, a, b)
        d = f.node(f'x64:v128.apply "psubq", 0, {x}, {y}', "xmm2")   # (a - b, b - a)
        c = f.node(f"x64:mov {d}", "xmm12")
        sp = f.node(f"x64:spill {c}", "s0")
        r = f.node(f"x64:reload {sp}", "xmm5")
        m2 = f.node(f"x64:v128.store ^{st}, 0, 32, {m}, {r}, {base}")
        lo = f.node(f'x64:load ^{st}, "i64", 0, 32, {m2}, {base}', "rcx")
        hi = f.node(f'x64:v128.apply "pshufd", 14, {r}, {r}', "xmm5")
        e = f.node(f'x64:v128.extract "i64", {hi}', "rax")
        s2 = f.node(f'x64:add "i64", {e}, {lo}', "rax")             # (b - a) + (a - b) = 0
        return f.node(f'x64:add "i64", {s2}, {a}', "rax"), m2
    S.simple("t_vec_spill", spill_body, lambda a, b: u(a))

    def lane_body(f, st, mem, a, b):
        base, m, x, y = load_ab(f, st, mem, a, b)
        hi = f.node(f'x64:v128.apply "pshufd", 14, {x}, {x}', "xmm2")
        return f.node(f'x64:v128.extract "i64", {hi}', "rax"), m
    S.simple("t_vec_lane1", lane_body, lambda a, b: u(b))

    def splat32_body(f, st, mem, a, b):
        v = f.node(f'x64:v128.splat "i32", {a}', "xmm7")
        hi = f.node(f'x64:v128.apply "pshufd", 14, {v}, {v}', "xmm7")
        return f.node(f'x64:v128.extract "i64", {hi}', "rax")
    S.simple("t_vec_splat_i32", splat32_body, lambda a, b: u(a, 32) | u(a, 32) << 32)

    def splat64_body(f, st, mem, a, b):
        v = f.node(f'x64:v128.splat "i64", {b}', "xmm11")
        w = f.node(f'x64:v128.apply "pshufd", 14, {v}, {v}', "xmm11")
        return f.node(f'x64:v128.extract "i64", {w}', "rax")
    S.simple("t_vec_splat_i64", splat64_body, lambda a, b: u(b))

    def splatf_body(f, st, mem, a, b):
        fa = f.node(f'x64:bitcast "i64", "f64", {a}', "xmm3")
        v = f.node(f'x64:v128.splat "f64", {fa}', "xmm4")
        w = f.node(f'x64:v128.apply "unpckhpd", 0, {v}, {v}', "xmm4")
        e = f.node(f'x64:v128.extract "f64", {w}', "xmm6")
        return f.node(f'x64:bitcast "f64", "i64", {e}', "rax")
    S.simple("t_vec_splat_f64", splatf_body, lambda a, b: u(a))

    def splatf32_body(f, st, mem, a, b):
        fa = f.node(f'x64:bitcast "i32", "f32", {a}', "xmm3")
        v = f.node(f'x64:v128.splat "f32", {fa}', "xmm13")
        e = f.node(f'x64:v128.extract "i64", {v}', "rax")
        return e
    S.simple("t_vec_splat_f32", splatf32_body, lambda a, b: u(a, 32) | u(a, 32) << 32)


# ---- atomics: lock-prefixed instructions on c_buf (FORMAT.md 8, "Atomics") -----------
ATOMIC_PAIRS = [(0x1122334455667788, 0x0F0F0F0F0F0F0F0F), (5, 3), (-2, -2), (0, 1 << 63)]


def atomics(S):
    """Each x64 atomic on the 8 bytes at c_buf after `[c_buf] = a`, with
    operand b: the result is the old value plus the new 8 bytes, so both
    the value returned and the memory written are checked."""
    def setup(f, st, mem, a):
        base = f.node('x64:loadgot "c_buf"', "rdx")
        return base, f.node(f'x64:store ^{st}, "i64", 0, 0, {mem}, {a}, {base}')

    def finish(f, st, x, base, old):
        m = f.node(f"proj 0, {x}")
        new = f.node(f'x64:load ^{st}, "i64", 0, 0, {m}, {base}', "r8")
        return f.node(f'x64:add "i64", {old}, {new}', "rax"), m

    def keep(a, v, bits):  # a's bytes with the low `bits` replaced by v's
        return u((a & ~((1 << bits) - 1)) | (v & ((1 << bits) - 1)))

    def xadd(f, st, mem, a, b):
        base, m = setup(f, st, mem, a)
        v = f.node(f"x64:mov {b}", "rax")
        x = f.node(f'x64:atomic.xadd ^{st}, "i64", {m}, {base}, {v}')
        return finish(f, st, x, base, f.node(f"proj 1, {x}", "rax"))
    S.simple("t_atomic_xadd", xadd, lambda a, b: u(a + u(a + b)), pairs=ATOMIC_PAIRS)

    def xchg(f, st, mem, a, b):  # 32 bits: eax gets the old low half, zero-extended
        base, m = setup(f, st, mem, a)
        v = f.node(f"x64:mov {b}", "rax")
        x = f.node(f'x64:atomic.xchg ^{st}, "i32", {m}, {base}, {v}')
        return finish(f, st, x, base, f.node(f"proj 1, {x}", "rax"))
    S.simple("t_atomic_xchg_32", xchg, lambda a, b: u(u(a, 32) + keep(a, b, 32)), pairs=ATOMIC_PAIRS)

    for name, expected in (("ok", "a"), ("fail", "b")):
        def cmpxchg(f, st, mem, a, b, expected=expected):
            base, m = setup(f, st, mem, a)
            e = f.node(f"x64:mov {a if expected == 'a' else b}", "rax")
            n = f.node(f"x64:mov {b}", "rcx")
            x = f.node(f'x64:atomic.cmpxchg ^{st}, "i64", {m}, {base}, {e}, {n}')
            return finish(f, st, x, base, f.node(f"proj 1, {x}", "rax"))
        # ok: [c_buf] becomes b; fail (b != a): it keeps a; either way old = a.
        S.simple(f"t_atomic_cmpxchg_{name}", cmpxchg,
                 (lambda a, b: u(a + b)) if name == "ok" else (lambda a, b: u(a + (b if a == b else a))),
                 pairs=ATOMIC_PAIRS)

    loop_ops = {"and": lambda x, y: x & y, "or": lambda x, y: x | y, "xor": lambda x, y: x ^ y,
                "nand": lambda x, y: ~(x & y)}
    for op, fn in loop_ops.items():
        for bits in ((16, 64) if op == "nand" else (64,)):
            def loop(f, st, mem, a, b, op=op, bits=bits):
                base, m = setup(f, st, mem, a)
                p = f.node(f"x64:mov {base}", "rdi")
                v = f.node(f"x64:mov {b}", "rcx")
                x = f.node(f'x64:atomic.loop ^{st}, "i{bits}", "{op}", {m}, {p}, {v}')
                return finish(f, st, x, p, f.node(f"proj 1, {x}", "rax"))
            S.simple(f"t_atomic_loop_{op}_{bits}", loop,
                     lambda a, b, fn=fn, bits=bits: u(u(a, bits) + keep(a, fn(a, b), bits)), pairs=ATOMIC_PAIRS)

    op_ops = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "and": lambda x, y: x & y,
              "or": lambda x, y: x | y, "xor": lambda x, y: x ^ y}
    for op, fn in op_ops.items():
        def lock_op(f, st, mem, a, b, op=op):
            base, m = setup(f, st, mem, a)
            x = f.node(f'x64:atomic.op ^{st}, "i32", "{op}", {m}, {base}, {b}')
            new = f.node(f'x64:load ^{st}, "i64", 0, 0, {x}, {base}', "rax")
            return new, x
        S.simple(f"t_atomic_op_{op}", lock_op, lambda a, b, fn=fn: keep(a, fn(a, b), 32), pairs=ATOMIC_PAIRS)

    def fence(f, st, mem, a, b):
        m = f.node(f"x64:fence ^{st}, {mem}")
        return f.node(f"x64:mov {a}", "rax"), m
    S.simple("t_atomic_fence", fence, lambda a, b: a, pairs=ATOMIC_PAIRS)


def frame_and_return_address(S):
    """x64:frameaddress (rbp, 16-byte aligned after the push) and
    x64:returnaddress (the word above the saved rbp): a + (returnaddress -
    [frameaddress + 8]) + (frameaddress & 15) is a."""
    def body(f, st, mem, a, b):
        fa = f.node(f"x64:frameaddress ^{st}", "rcx")
        ra = f.node(f"x64:returnaddress ^{st}", "rdx")
        saved = f.node(f'x64:load ^{st}, "i64", 0, 8, {mem}, {fa}', "r8")
        d = f.node(f'x64:sub "i64", {ra}, {saved}', "rdx")
        low = f.node(f'x64:andi "i64", 15, {fa}', "rcx")
        v = f.node(f"x64:mov {a}", "rax")
        r = f.node(f'x64:add "i64", {v}, {d}', "rax")
        return f.node(f'x64:add "i64", {r}, {low}', "rax"), mem
    S.simple("t_frame_return_address", body, lambda a, b: a)


def memory_operands(S):
    """The memory-operand forms (a load folded into its user): b (or a) is
    stored to c_buf + 16, then read as the operand, [base + 16] or
    [base + index*8] with index 2."""
    ops = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "and": lambda a, b: a & b,
           "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b, "imul": lambda a, b: a * b}
    def address(f, k):
        base = f.node('x64:loadgot "c_buf"', "rdx")
        if k == 0:
            return base, "0, 16", base
        index = f.node('x64:movi "i64", 2', "rcx")
        return base, "8, 0", f"{base}, {index}"
    for op, fn in ops.items():
        for bits in (32, 64):
            for k in (0, 1):
                def body(f, st, mem, a, b, op=op, bits=bits, k=k):
                    base, lits, ins = address(f, k)
                    m2 = f.node(f'x64:store ^{st}, "i{bits}", 0, 16, {mem}, {b}, {base}')
                    m = f.node(f"x64:mov {a}", "rax")
                    return f.node(f'x64:{op}.m ^{st}, "i{bits}", {lits}, {m2}, {m}, {ins}', "rax"), m2
                S.simple(f"t_{op}_m_{bits}_{k}", body, lambda a, b, fn=fn, bits=bits: write(a, fn(a, b), bits))
    # Compares with a memory operand: cmp.m a, [p] (b stored there) and
    # cmpi.m [p], imm (a stored there), read by setcc.
    for bits in (8, 16, 32, 64):
        for cc in ("l", "b", "e", "g", "ae"):
            for k in (0, 1):
                def body(f, st, mem, a, b, bits=bits, cc=cc, k=k):
                    base, lits, ins = address(f, k)
                    m2 = f.node(f'x64:store ^{st}, "i{bits}", 0, 16, {mem}, {b}, {base}')
                    fl = f.node(f'x64:cmp.m ^{st}, "i{bits}", {lits}, {m2}, {a}, {ins}')
                    x = f.node(f'x64:setcc "{cc}", {fl}', "rax")
                    return f.node(f'x64:movzx "i8", "i32", {x}', "rax"), m2
                S.simple(f"t_cmp_m_{cc}_{bits}_{k}", body,
                         lambda a, b, cc=cc, bits=bits: int(holds(cc, flags_sub(a, b, bits))))
            for value in (3, -2, 1000) if bits > 8 else (3, -2):
                def ibody(f, st, mem, a, b, bits=bits, cc=cc, value=value):
                    base, lits, ins = address(f, 1)
                    m2 = f.node(f'x64:store ^{st}, "i{bits}", 0, 16, {mem}, {a}, {base}')
                    fl = f.node(f'x64:cmpi.m ^{st}, "i{bits}", {value}, {lits}, {m2}, {ins}')
                    x = f.node(f'x64:setcc "{cc}", {fl}', "rdx")
                    return f.node(f'x64:movzx "i8", "i64", {x}', "rax"), m2
                S.simple(f"t_cmpi_m_{cc}_{bits}_{value & 0xFFFF}", ibody,
                         lambda a, b, cc=cc, bits=bits, value=value: int(holds(cc, flags_sub(a, u(value), bits))))
    for width, pairs in ((64, F64_PAIRS), (32, F32_PAIRS)):
        t, it = f'"f{width}"', f'"i{width}"'
        ipairs = [(fbits(x, width), fbits(y, width)) for x, y in pairs]
        nan = 0x7FF8000000000001 if width == 64 else 0x7FC00001
        cpairs = ipairs + [(nan, fbits(1.0, width)), (fbits(1.0, width), nan), (fbits(-0.0, width), 0)]
        for cc in ("e", "p", "np", "a", "ae", "b", "be"):
            def ubody(f, st, mem, a, b, cc=cc, t=t, it=it):
                base, lits, ins = address(f, 1)
                m2 = f.node(f'x64:store ^{st}, {it}, 0, 16, {mem}, {b}, {base}')
                xa = f.node(f"x64:bitcast {it}, {t}, {a}", "xmm9")
                fl = f.node(f"x64:ucomis.m ^{st}, {t}, {lits}, {m2}, {xa}, {ins}")
                x = f.node(f'x64:setcc "{cc}", {fl}', "rax")
                return f.node(f'x64:movzx "i8", "i32", {x}', "rax"), m2
            S.simple(f"t_ucomis_m_{cc}_{width}", ubody,
                     lambda a, b, cc=cc, width=width: int(holds(cc, ucomis_flags(fval(a, width), fval(b, width)))),
                     pairs=cpairs)
    for width, pairs in ((64, F64_PAIRS), (32, F32_PAIRS)):
        t, it = f'"f{width}"', f'"i{width}"'
        ipairs = [(fbits(x, width), fbits(y, width)) for x, y in pairs]
        for op in ("fadd", "fsub", "fmul", "fdiv"):
            for k in (0, 1):
                def body(f, st, mem, a, b, op=op, k=k):
                    base, lits, ins = address(f, k)
                    m2 = f.node(f'x64:store ^{st}, {it}, 0, 16, {mem}, {b}, {base}')
                    xa = f.node(f"x64:bitcast {it}, {t}, {a}", "xmm5")
                    r = f.node(f"x64:{op}.m ^{st}, {t}, {lits}, {m2}, {xa}, {ins}", "xmm5")
                    return f.node(f"x64:bitcast {t}, {it}, {r}", "rax"), m2
                S.simple(f"t_{op}_m_{width}_{k}", body,
                         lambda a, b, op=op, width=width: fbits(fop(op, fval(a, width), fval(b, width)), width),
                         pairs=[p for p in ipairs if not (op == "fdiv" and fval(p[1], width) == 0)])

        def sqrt_body(f, st, mem, a, b):
            base, lits, ins = address(f, 0)
            m2 = f.node(f'x64:store ^{st}, {it}, 0, 16, {mem}, {a}, {base}')
            r = f.node(f"x64:fsqrt.m ^{st}, {t}, {lits}, {m2}, {ins}", "xmm14")
            return f.node(f"x64:bitcast {t}, {it}, {r}", "rax"), m2
        S.simple(f"t_fsqrt_m_{width}", sqrt_body, lambda a, b, width=width: fbits(math.sqrt(abs(fval(a, width))), width),
                 pairs=[(fbits(abs(x), width), 0) for x, _ in pairs])
        for ibits in (32, 64):
            def body(f, st, mem, a, b, ibits=ibits):
                base, lits, ins = address(f, 1)
                m2 = f.node(f'x64:store ^{st}, "i{ibits}", 0, 16, {mem}, {a}, {base}')
                r = f.node(f'x64:cvtsi2f.m ^{st}, "i{ibits}", {t}, {lits}, {m2}, {ins}', "xmm2")
                return f.node(f"x64:bitcast {t}, {it}, {r}", "rax"), m2
            S.simple(f"t_cvtsi2f_m_{ibits}_{width}", body,
                     lambda a, b, ibits=ibits, width=width: fbits(float(s(a, ibits)), width),
                     pairs=[(5, 0), (-7, 0), (0x7FFFFFFF, 0), (0x123456789ABCDEF1, 0), (-1 << 63, 0)])


def thread_locals(S):
    """The three TLS access sequences: local-exec (store a to d_tls, load it
    back), initial-exec (C's c_tls, 5), general-dynamic (d_tls2, 0x77: a
    call to __tls_get_addr, which the link relaxes)."""
    def le_ie(f, st, mem, a, b):
        p = f.node('x64:tls.le "d_tls"', "rcx")
        m2 = f.node(f'x64:store ^{st}, "i64", 0, 0, {mem}, {a}, {p}')
        x = f.node(f'x64:load ^{st}, "i64", 0, 0, {m2}, {p}', "rax")
        q = f.node('x64:tls.ie "c_tls"', "rdx")
        y = f.node(f'x64:load ^{st}, "i64", 0, 0, {m2}, {q}', "rcx")
        return f.node(f'x64:add "i64", {x}, {y}', "rax"), m2
    S.simple("t_tls_le_ie", le_ie, lambda a, b: u(a + 5), pairs=[(3, 0), (-9, 0)])

    def gd(f, st, mem, a, b):
        g = f.node('x64:tls.gd "d_tls2"', "rax")
        return f.node(f'x64:load ^{st}, "i64", 0, 0, {mem}, {g}', "rax")
    S.simple("t_tls_gd", gd, lambda a, b: 0x77, pairs=[(0, 0)])


def gen():
    S = Suite()
    thread_locals(S)
    inline_asm(S)
    dynamic_stack(S)
    frame_and_return_address(S)
    binary_ops(S)
    unary_and_shifts(S)
    multiply_divide(S)
    extends(S)
    conditions(S)
    memory_and_data(S)
    floats(S)
    memory_operands(S)
    long_doubles(S)
    vectors(S)
    vector_values(S)
    atomics(S)
    fns = [f.text() for f in S.fns] + [f.text() for f in calls_and_frames()] + [LOOP, LEA_EXPORTED]
    module = MODULE_HEADER + "\n".join(fns) + "\n"
    names = sorted({c[0] for c in S.cases})
    decls = "\n".join(f"unsigned long {n}(unsigned long, unsigned long);" for n in names)
    cases = ",\n".join(f'  {{"{n}", {n}, {a:#x}ul, {b:#x}ul, {w:#x}ul, {bits}}}' for n, a, b, w, bits in S.cases)
    return module, C_MAIN.replace("@DECLS@", decls).replace("@CASES@", cases)


if __name__ == "__main__":
    import sys
    module, c = gen()
    open(sys.argv[1], "w").write(module)
    open(sys.argv[2], "w").write(c)
