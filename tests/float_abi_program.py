"""A son-level program for the System V float ABI (tests/test_float_x64.py):
f32/f64 parameters and results, more floating arguments than xmm registers
(the rest on the stack, interleaved with integer ones), a variadic
definition reading doubles and integers with va_arg (fp_offset and
gp_offset, past the register save area into the overflow area), and printf
of doubles (al = the number of xmm registers). Its son-level run (pipe-run)
is the expected output of every other level and of the native build."""


class Fn:
    def __init__(self, sig, internal=True):
        self.sig, self.internal, self.lines, self.n = sig, internal, [], 0

    def node(self, text):
        name = f"i{self.n}"
        self.n += 1
        self.lines.append(f"  {name} = {text}")
        return name

    def text(self):
        return ("internal " if self.internal else "") + f"pipeline {self.sig} {{\n" + "\n".join(self.lines) + "\n}\n"


def abi_program():
    fns = []
    # sq(f64 x, i32 n, f32 y) -> f64: x * x + n * (f64)y
    f = Fn("sq(f64, i32, f32) -> f64")
    st = f.node("start")
    m = f.node(f"entrymem ^{st}")
    x = f.node(f'param ^{st}, "f64", 0')
    n = f.node(f'param ^{st}, "i32", 1')
    y = f.node(f'param ^{st}, "f32", 2')
    xx = f.node(f'fmul "f64", {x}, {x}')
    yd = f.node(f'fpext "f32", "f64", {y}')
    nd = f.node(f'sitofp "i32", "f64", {n}')
    p = f.node(f'fmul "f64", {nd}, {yd}')
    f.node(f"return ^{st}, {m}, {f.node(f'fadd {chr(34)}f64{chr(34)}, {xx}, {p}')}")
    fns.append(f)
    # half(f32) -> f32
    f = Fn("half(f32) -> f32")
    st = f.node("start")
    m = f.node(f"entrymem ^{st}")
    x = f.node(f'param ^{st}, "f32", 0')
    h = f.node('fconst "f32", 0.5')
    f.node(f"return ^{st}, {m}, {f.node(f'fmul {chr(34)}f32{chr(34)}, {x}, {h}')}")
    fns.append(f)
    # many(10 f64 and 3 i64 interleaved) -> f64: sum of (k+1) * a_k, minus the ints
    params = ["f64", "i64"] * 3 + ["f64"] * 7
    f = Fn(f"many({', '.join(params)}) -> f64")
    st = f.node("start")
    m = f.node(f"entrymem ^{st}")
    acc = f.node('fconst "f64", 0.0')
    for k, t in enumerate(params):
        v = f.node(f'param ^{st}, "{t}", {k}')
        if t == "i64":
            v = f.node(f'sitofp "i64", "f64", {v}')
            acc = f.node(f'fsub "f64", {acc}, {v}')
        else:
            w = f.node(f'fconst "f64", {float(k + 1)}')
            acc = f.node(f'fadd "f64", {acc}, {f.node(f"fmul {chr(34)}f64{chr(34)}, {v}, {w}")}')
    f.node(f"return ^{st}, {m}, {acc}")
    fns.append(f)
    # vsum(i32 count, ...) -> f64: d0 + i1 + d2 + ... for 12 arguments
    # alternating double, long (more doubles than xmm registers: the rest
    # from the overflow area).
    f = Fn("vsum(i32, ...) -> f64")
    st = f.node("start")
    m = f.node(f"entrymem ^{st}")
    f.node(f'param ^{st}, "i32", 0')
    ap = f.node("stackslot 24, 8")
    m = f.node(f"va_start ^{st}, {m}, {ap}")
    acc = f.node('fconst "f64", 0.0')
    for k in range(12):
        t = "f64" if k % 3 != 2 else "i64"
        va = f.node(f'va_arg ^{st}, "{t}", {m}, {ap}')
        m = f.node(f"proj 0, {va}")
        v = f.node(f"proj 1, {va}")
        if t == "i64":
            v = f.node(f'sitofp "i64", "f64", {v}')
        c = f.node(f'fconst "f64", {0.5 ** k}')
        acc = f.node(f'fadd "f64", {acc}, {f.node(f"fmul {chr(34)}f64{chr(34)}, {v}, {c}")}')
    f.node(f"return ^{st}, {m}, {acc}")
    fns.append(f)
    # main
    f = Fn("main() -> i32", internal=False)
    st = f.node("start")
    mem = [f.node(f"entrymem ^{st}")]
    pf = f.node('symaddr "printf"')
    fmt = f.node('symaddr "fmt"')

    def call(callee, result, args, sig=None):
        s = f', "{sig}"' if sig else ""
        c = f.node(f'call ^{st}, "{result}"{s}, {mem[0]}, {callee}' + "".join(f", {a}" for a in args))
        mem[0] = f.node(f"proj 0, {c}")
        return f.node(f"proj 1, {c}")

    def show(label, v, t="f64"):
        if t == "f32":
            v = f.node(f'fpext "f32", "f64", {v}')
        bits = f.node(f'bitcast "f64", "i64", {v}')
        lab = f.node(f'const "i32", {label}')
        call(pf, "i32", [fmt, lab, v, bits, v, v], "(ptr, ...)")

    sq = f.node('symaddr "sq"')
    half = f.node('symaddr "half"')
    many = f.node('symaddr "many"')
    vsum = f.node('symaddr "vsum"')
    a = f.node('fconst "f64", 1.25')
    b = f.node('fconst "f32", -3.5')
    i7 = f.node('const "i32", 7')
    show(1, call(sq, "f64", [a, i7, b]))
    show(2, call(half, "f32", [b]), "f32")
    args = []
    for k, t in enumerate(["f64", "i64"] * 3 + ["f64"] * 7):
        args.append(f.node(f'fconst "f64", {k * 1.5 - 4.0}') if t == "f64" else f.node(f'const "i64", {1000 * k + 3}'))
    show(3, call(many, "f64", args))
    vargs = [f.node('const "i32", 12')]
    for k in range(12):
        vargs.append(f.node(f'fconst "f64", {k * 0.75 + 0.125}') if k % 3 != 2 else f.node(f'const "i64", {-5 * k}'))
    show(4, call(vsum, "f64", vargs, "(i32, ...)"))
    # through a pointer (x64:callind with xmm arguments)
    show(5, call(sq, "f64", [a, i7, b]))
    f.node(f'return ^{st}, {mem[0]}, {f.node(chr(99) + "onst " + chr(34) + "i32" + chr(34) + ", 0")}')
    fns.append(f)
    fmt_bytes = b"%d: %f %llx %g %.17e\n\0"
    return ("module son\nextern function printf(ptr, ...) -> i32\n"
            f'data internal readonly fmt size {len(fmt_bytes)} align 1 init x"{fmt_bytes.hex()}"\n\n' +
            "\n".join(fn.text() for fn in fns))


if __name__ == "__main__":
    import sys
    sys.stdout.write(abi_program())
