"""Writes a C program that divides edge-case dividends by every interesting
constant, with / and %, at every integer width and signedness C has (the
8- and 16-bit ones are promoted to int by C, so they test the 32-bit rules
with narrow operand ranges). Each function divides by one literal constant,
so that the compiler sees `x / CONST` (son-lower-x64's division rules); main
prints one checksum line per function. tests/test_son_lower_x64.py runs it
through the pipeline and compares with gcc's build.

    python3 tests/c/gen_division.py > division.c
"""

TYPES = [
    # C type, bits, signed
    ("signed char", 8, True),
    ("unsigned char", 8, False),
    ("short", 16, True),
    ("unsigned short", 16, False),
    ("int", 32, True),
    ("unsigned", 32, False),
    ("long long", 64, True),
    ("unsigned long long", 64, False),
]


def limits(bits, signed):
    if signed:
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def divisors(bits, signed):
    lo, hi = limits(bits, signed)
    ds = {1, 2, 3, 5, 6, 7, 9, 10, 11, 12, 13, 25, 60, 100, 125, 641, 1000, 6700417, 1 << 16, (1 << 16) + 1,
          (1 << 31) - 1, 1 << 31, (1 << 31) + 1, (1 << 32) - 1, 1 << 32, 274177, 10 ** 9 + 7, 10 ** 18}
    for k in range(1, bits):
        ds.add(1 << k)
    ds |= {hi, hi - 1, hi // 2, hi // 2 + 1, hi // 3, (hi + 1) // 2 + 1}
    if signed:
        ds |= {-d for d in list(ds)} | {lo, lo + 1, -1}
    return sorted(d for d in ds if lo <= d <= hi and d != 0)


def dividends(bits, signed, d):
    lo, hi = limits(bits, signed)
    xs = {0, 1, 2, 3, 7, 100, 12345, lo, lo + 1, lo + 2, hi, hi - 1, hi - 2, hi // 2, hi // 2 + 1,
          0x5555555555555555, 0x3333333333333333, 0x123456789ABCDEF}
    for v in (d, 2 * d, 3 * d, 7 * d):
        xs |= {v - 1, v, v + 1}
    if signed:
        xs |= {-x for x in list(xs)}
    mod = 1 << bits
    out = set()
    for x in xs:
        x %= mod
        if signed and x > hi:
            x -= mod
        if signed and d == -1 and x == lo:
            continue  # INT_MIN / -1 is undefined
        out.add(x)
    return sorted(out)


def literal(v, bits, signed):
    if bits == 64:
        if signed and v == -(1 << 63):
            return "(-9223372036854775807LL - 1)"
        return f"{v}LL" if signed else f"{v}ULL"
    if bits == 32 and signed and v == -(1 << 31):
        return "(-2147483647 - 1)"
    return f"{v}U" if (not signed and bits == 32) else str(v)


def program():
    funcs, calls = [], []
    n = 0
    for ctype, bits, signed in TYPES:
        for d in divisors(bits, signed):
            n += 1
            xs = dividends(bits, signed, d)
            lit = literal(d, bits, signed)
            arr = ", ".join(f"({ctype}){literal(x, bits, signed)}" for x in xs)
            funcs.append(
                f"static {ctype} q{n}({ctype} x) {{ return x / ({ctype}){lit}; }}\n"
                f"static {ctype} r{n}({ctype} x) {{ return x % ({ctype}){lit}; }}\n"
                f"static const {ctype} x{n}[] = {{{arr}}};\n")
            calls.append(
                f"  h = 0; for (i = 0; i < sizeof x{n} / sizeof x{n}[0]; i++) "
                f"h = mix(mix(h, (unsigned long long)q{n}(x{n}[i])), (unsigned long long)r{n}(x{n}[i]));\n"
                f"  printf(\"{ctype} / {lit}: %llu\\n\", h);\n")
    return ("#include <stdio.h>\n\n"
            "static unsigned long long mix(unsigned long long h, unsigned long long v) "
            "{ return h * 1000003ULL ^ v; }\n\n"
            + "".join(funcs)
            + "\nint main(void) {\n  unsigned long long h;\n  unsigned long i;\n"
            + "".join(calls) + "  return 0;\n}\n")


if __name__ == "__main__":
    print(program(), end="")
