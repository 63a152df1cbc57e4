"""16-byte vectors as SSE2 instructions (issue 19, GNU C vectors: "lowered
to SSE2 instructions"; FORMAT.md 7, "16-byte vectors (v128)").

The semantics of the operators and intrinsics are the corpus programs
tests/c/vector_*.c (every level under pipe-run, natively at -O0/-O1/-O2,
against gcc). Here:
  - the machine code: an operation SSE2 does in one instruction is that
    instruction (objdump of pipecc -c at -O0 and -O2): `a + b` on a vector
    of four ints is one paddd, not four scalar adds; so for each operator
    and intrinsic c2ast maps to an ast:v128.op;
  - operations SSE2 lacks (a 32-bit lane multiply, division) are still
    written out element by element, and 8- and 32-byte vectors are as
    before (no v128.op);
  - pipe-run runs every v128.op of eval_v128.h's table as the processor
    does: a hand-written son module applies each operation to fixed operands
    (NaNs, signed zeros, saturating values, every immediate form) and prints
    the 16 result bytes, which must equal what the same instruction gives
    natively (a gcc-built C program using inline assembly).
"""
import re
import subprocess

import pytest

from conftest import BUILD, ROOT

PIPECC = BUILD / "pipecc"


def run(argv, **kw):
    return subprocess.run([str(a) for a in argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=300, **kw)


def built(argv):
    p = run(argv)
    assert p.returncode == 0, p.stderr
    return p


SOURCE = r"""
#include <emmintrin.h>
typedef int v4si __attribute__((vector_size(16)));
typedef short v8hi __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
typedef double v2df __attribute__((vector_size(16)));
typedef int v2si __attribute__((vector_size(8)));
typedef int v8si __attribute__((vector_size(32)));
void add4(v4si *r, v4si *a, v4si *b) { *r = *a + *b; }
void sub8(v8hi *r, v8hi *a, v8hi *b) { *r = *a - *b; }
void mul8(v8hi *r, v8hi *a, v8hi *b) { *r = *a * *b; }
void gt4(v4si *r, v4si *a, v4si *b) { *r = *a > *b; }
void lt4(v4si *r, v4si *a, v4si *b) { *r = *a < *b; }
void shl3(v8hi *r, v8hi *a) { *r = *a << 3; }
void sar5(v4si *r, v4si *a) { *r = *a >> 5; }
void xor4(v4si *r, v4si *a, v4si *b) { *r = *a ^ *b; }
void neg4(v4si *r, v4si *a) { *r = -*a; }
void fmul(v4sf *r, v4sf *a, v4sf *b) { *r = *a * *b; }
void dle(v4si *r, v2df *a, v2df *b) { *(v2df *)r = (v2df)(*a <= *b); }
void ddiv(v2df *r, v2df *a, v2df *b) { *r = *a / *b; }
void intrinsics(__m128i *r, __m128i *a, __m128i *b) {
  r[0] = _mm_add_epi32(a[0], b[0]);
  r[1] = _mm_shuffle_epi32(a[0], 0x1b);
  r[2] = _mm_adds_epu8(a[0], b[0]);
  r[3] = _mm_slli_epi16(a[0], 4);
  r[4] = _mm_madd_epi16(a[0], b[0]);
  r[5] = _mm_packs_epi32(a[0], b[0]);
  r[6] = _mm_srli_si128(a[0], 3);
}
void fintrinsics(__m128 *r, __m128 *a, __m128 *b) {
  r[0] = _mm_max_ps(a[0], b[0]);
  r[1] = _mm_sqrt_ps(a[0]);
  r[2] = _mm_cmpunord_ps(a[0], b[0]);
  r[3] = _mm_shuffle_ps(a[0], b[0], 0x4e);
}
void mul32(v4si *r, v4si *a, v4si *b) { *r = *a * *b; }
void div32(v4si *r, v4si *a, v4si *b) { *r = *a / *b; }
void add2(v2si *r, v2si *a, v2si *b) { *r = *a + *b; }
void add8(v8si *r, v8si *a, v8si *b) { *r = *a + *b; }
"""

# Function -> instructions its body must hold (objdump's spelling).
EXPECTED = {
    "add4": ["paddd"],
    "sub8": ["psubw"],
    "mul8": ["pmullw"],
    "gt4": ["pcmpgtd"],
    "lt4": ["pcmpgtd"],
    "shl3": ["psllw $0x3"],
    "sar5": ["psrad $0x5"],
    "xor4": ["pxor"],
    "neg4": ["psubd"],
    "fmul": ["mulps"],
    "dle": ["cmplepd"],
    "ddiv": ["divpd"],
}
# Reached through the header's static inline functions (at -O0 calls to
# them, at -O2 inlined): somewhere in the object.
ANYWHERE = ["pshufd $0x1b", "paddusb", "pmaddwd", "packssdw", "psrldq $0x3", "maxps", "sqrtps", "cmpunordps",
            "shufps $0x4e",
            # _mm_slli_epi16's count is its int parameter: psllw by a register
            "psllw %xmm1,%xmm0"]


def bodies_of(obj):
    dump = run(["objdump", "-d", "--no-show-raw-insn", obj]).stdout
    bodies, name = {}, None
    for line in dump.splitlines():
        if line.endswith(">:"):
            name = line.split("<")[1].rstrip(">:")
            bodies[name] = []
        elif name and "\t" in line:
            bodies[name].append(" ".join(line.split("\t", 1)[1].split()))
    return {k: "\n".join(v) for k, v in bodies.items()}


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_sse2_instructions(opt, tmp_path):
    src = tmp_path / "v.c"
    src.write_text(SOURCE)
    obj = tmp_path / "v.o"
    built([PIPECC, opt, "-c", src, "-o", obj])
    bodies = bodies_of(obj)
    for fn, wanted in EXPECTED.items():
        for w in wanted:
            assert w in bodies[fn], f"{fn} at {opt}: no `{w}` in\n{bodies[fn]}"
    everything = "\n".join(bodies.values())
    for w in ANYWHERE:
        assert w in everything, f"no `{w}` at {opt}"
    # One paddd and no scalar 32-bit add: the whole vector in one instruction.
    assert "add %e" not in bodies["add4"] and "addl" not in bodies["add4"], bodies["add4"]
    # What SSE2 lacks stays scalar; 8- and 32-byte vectors are as before.
    assert "imul" in bodies["mul32"] and "pmul" not in bodies["mul32"], bodies["mul32"]
    assert "idiv" in bodies["div32"], bodies["div32"]
    for fn in ("add2", "add8"):
        assert "padd" not in bodies[fn] and "movdqu" not in bodies[fn], bodies[fn]


# ---- pipe-run's v128.op is the processor's instruction -------------------------
def table_ops():
    """(name, shape, imm_limit) for each row of eval_v128.h's table."""
    text = (ROOT / "common" / "ir" / "eval_v128.h").read_text()
    body = text[text.index("#define PL_V128_OPS"):text.index("// clang-format on")]
    ops = []
    for kind, args in re.findall(r"\b(B|U|SH|MV|CM)\(([^()]*)\)", body):
        parts = [a.strip() for a in args.split(",")]
        if kind in ("B", "U"):
            ops.append((parts[0], parts[0], "binary" if kind == "B" else "unary", 1))
        elif kind == "SH":
            ops.append((parts[0], parts[1], "unary-imm", 256))
        elif kind == "MV":
            ops.append((parts[0], parts[0], "unary-imm" if parts[2] == "UnaryImm" else "binary-imm", int(parts[1])))
        else:
            ops.append((parts[0], parts[0], "binary-imm", 8))
    return ops


# Operand pairs: integers with saturating and sign cases; floats with NaN,
# signed zero, infinity, denormal; doubles likewise.
OPERANDS = [
    (bytes(range(0, 256, 16)), bytes(range(255, -1, -16))),
    (bytes([0x80, 0x7f, 0xff, 0x00, 0x01, 0xfe, 0x80, 0x7f] * 2), bytes([0x7f, 0x80, 0x01, 0xff, 0xff, 0x02, 0x80, 0x80] * 2)),
    # f32: 1.5, -0.0, qNaN(payload), 1e30 | 0.25, +0.0, -inf, denormal
    (bytes.fromhex("0000c03f00000080010cc07fcaf2494f"), bytes.fromhex("0000803e000000000000807f01000000")),
    # f64: 1/3, NaN | -2.5, 3.0
    (bytes.fromhex("555555555555d53f0100000000f8ff7f"), bytes.fromhex("00000000000004c00000000000000840")),
]
IMMS = {1: [0], 4: [0, 1, 2, 3], 8: list(range(8)), 256: [0, 1, 3, 4, 7, 8, 15, 16, 17, 31, 32, 63, 64, 0x1b, 0x4e, 200, 255]}


def c_hex(data):
    return "".join(f"\\x{c:02x}" for c in data)


def c_program(cases):
    """Each case's instruction run natively (inline assembly), its result
    printed as two 64-bit halves."""
    lines = ["#include <stdio.h>", "#include <string.h>", "typedef long long V __attribute__((vector_size(16)));",
             "static void show(V v) { unsigned long long h[2]; memcpy(h, &v, 16); "
             "printf(\"%016llx %016llx\\n\", h[0], h[1]); }",
             "int main(void) {", "  V a, b;"]
    for mnemonic, shape, imm, x, y in cases:
        lines.append(f'  memcpy(&a, "{c_hex(x)}", 16);')
        lines.append(f'  memcpy(&b, "{c_hex(y)}", 16);')
        if shape == "binary":
            asm = f'"{mnemonic} %1, %0" : "+x"(a) : "x"(b)'
        elif shape == "unary":
            asm = f'"{mnemonic} %1, %0" : "=x"(a) : "x"(a)'
        elif shape == "unary-imm":
            src = "%0, " if mnemonic.startswith("pshuf") else ""
            asm = f'"{mnemonic} ${imm}, {src}%0" : "+x"(a)'
        else:
            asm = f'"{mnemonic} ${imm}, %1, %0" : "+x"(a) : "x"(b)'
        lines.append(f"  __asm__({asm});")
        lines.append("  show(a);")
    lines += ["  return 0;", "}"]
    return "\n".join(lines) + "\n"


FMT = b"%016llx %016llx\n\0"


def son_module(cases):
    """The same at the son level: per case the operands are two read-only
    data items, v128.op writes a 16-byte slot, printf prints its halves."""
    out = ["module son", "extern function printf(ptr, ...) -> i32",
           f'data internal readonly fmt size {len(FMT)} align 1 init x"{FMT.hex()}"']
    for k, (_, _, _, x, y) in enumerate(cases):
        out.append(f'data internal readonly a{k} size 16 align 16 init x"{x.hex()}"')
        out.append(f'data internal readonly b{k} size 16 align 16 init x"{y.hex()}"')
    out += ["", "pipeline main() -> i32 {", "  i0 = start", "  i1 = entrymem ^i0", "  i2 = stackslot 16, 16",
            '  i3 = symaddr "fmt"', '  i4 = symaddr "printf"', '  i5 = const "i64", 8', "  i6 = add \"ptr\", i2, i5"]
    n, mem = 7, "i1"
    for k, (name, _, imm, _, _) in enumerate(cases):
        i = [f"i{n + t}" for t in range(8)]
        out.append(f'  {i[0]} = symaddr "a{k}"')
        out.append(f'  {i[1]} = symaddr "b{k}"')
        out.append(f'  {i[2]} = v128.op ^i0, "{name}", {imm}, {mem}, i2, {i[0]}, {i[1]}')
        out.append(f'  {i[3]} = load ^i0, "i64", {i[2]}, i2')
        out.append(f'  {i[4]} = load ^i0, "i64", {i[2]}, i6')
        out.append(f'  {i[5]} = call ^i0, "i32", {i[2]}, i4, i3, {i[3]}, {i[4]}')
        out.append(f"  {i[6]} = proj 0, {i[5]}")
        mem, n = i[6], n + 8
    out.append(f'  i{n} = const "i32", 0')
    out.append(f"  i{n + 1} = return ^i0, {mem}, i{n}")
    out.append("}")
    return "\n".join(out) + "\n"


def test_pipe_run_is_the_processor(tmp_path):
    cases = []
    for name, mnemonic, shape, limit in table_ops():
        for x, y in OPERANDS:
            for imm in IMMS[limit]:
                cases.append((name, mnemonic, shape, imm, x, y))
    prog = tmp_path / "native.c"
    prog.write_text(c_program([(m, sh, i, x, y) for _, m, sh, i, x, y in cases]))
    built(["gcc", "-O0", "-w", prog, "-o", tmp_path / "native"])
    native = built([tmp_path / "native"]).stdout.splitlines()
    module = tmp_path / "ops.son.txt"
    module.write_text(son_module([(n, sh, i, x, y) for n, _, sh, i, x, y in cases]))
    p = run([BUILD / "pipe-run", module])
    assert p.returncode == 0, p.stderr[-3000:]
    ours = p.stdout.splitlines()
    assert len(ours) == len(native) == len(cases)
    wrong = [(c[0], c[3], c[4].hex(), c[5].hex(), n, o) for c, n, o in zip(cases, native, ours) if n != o]
    assert not wrong, wrong[:10]
