#!/usr/bin/env python3
"""gen_c_program.py LINES SHAPE SEED - a deterministic C program of about
LINES lines, for scripts/bench-stages.

SHAPE is `many` (many small functions, ~40 lines each) or `long` (a few
functions of ~LINES/4 lines each, so per-function algorithms are stressed).
The program uses only the C the front end covers (integers, arrays,
pointers, structs, loops, switch, calls, printf), is free of undefined
behaviour (unsigned arithmetic wraps, array indexes are masked), runs in a
bounded time, and prints a checksum, so gcc's build and the toolchain's can
be compared.
"""
import random
import sys

HEADER = """#include <stdio.h>
struct pair { unsigned a; unsigned b; };
static unsigned table[64];
static unsigned mix(unsigned x, unsigned y) { return (x ^ (y << 3)) + (y >> 2) + 0x9e37u; }
"""


def statement(rng, depth, vars_, loop_vars=()):
    """One statement (a list of lines) assigning the unsigned locals `vars_`
    and reading those and the loop counters `loop_vars` (never assigned, so
    every loop ends)."""
    readable = list(vars_) + list(loop_vars)
    v = rng.choice(vars_)
    w = rng.choice(readable)
    k = rng.randrange(1, 1000)
    kind = rng.randrange(9 if depth < 3 else 5)
    if kind == 0:
        return [f"{v} = {w} * {k}u + {rng.choice(readable)};"]
    if kind == 1:
        return [f"{v} ^= ({w} >> {rng.randrange(1, 31)}) | {k}u;"]
    if kind == 2:
        return [f"table[{w} & 63u] += {v};"]
    if kind == 3:
        return [f"{v} = mix({v}, {w});"]
    if kind == 4:
        return [f"{v} = {w} % {k}u + (({v} < {w}) ? {v} : {w});"]
    body = []
    if kind == 5:
        body.append(f"if (({v} & {k}u) != 0u) {{")
        for _ in range(rng.randrange(1, 4)):
            body += ["  " + s for s in statement(rng, depth + 1, vars_, loop_vars)]
        body.append("} else {")
        body += ["  " + s for s in statement(rng, depth + 1, vars_, loop_vars)]
        body.append("}")
    elif kind == 6:
        i = f"i{depth}"
        body.append(f"for (unsigned {i} = 0; {i} < {rng.randrange(2, 6)}u; {i}++) {{")
        for _ in range(rng.randrange(1, 4)):
            body += ["  " + s for s in statement(rng, depth + 1, vars_, list(loop_vars) + [i])]
        body.append("}")
    elif kind == 7:
        body.append(f"switch ({v} & 3u) {{")
        for c in range(3):
            body.append(f"case {c}u:")
            body += ["  " + s for s in statement(rng, depth + 1, vars_, loop_vars)]
            if rng.randrange(2):
                body.append("  break;")
        body.append("default:")
        body += ["  " + s for s in statement(rng, depth + 1, vars_, loop_vars)]
        body.append("}")
    else:
        body.append("{")
        body.append(f"  struct pair p = {{ {v}, {w} }};")
        body.append(f"  unsigned *q = &p.a;")
        body.append(f"  {v} = q[0] + p.b * {k}u;")
        body.append("}")
    return body


def function(rng, name, lines, callee):
    vars_ = ["a", "b", "c", "d"]
    out = [f"static unsigned {name}(unsigned a, unsigned b) {{", "  unsigned c = a ^ b, d = 7u;"]
    while len(out) < lines:
        out += ["  " + s for s in statement(rng, 1, vars_)]
    if callee:
        out.append(f"  d += {callee}(a + 1u, c);")
    out.append("  return a + b + c + d;")
    out.append("}")
    return out


def program(lines, shape, seed):
    rng = random.Random(seed)
    per_function = 40 if shape == "many" else max(40, lines // 4)
    count = max(1, lines // per_function)
    out = HEADER.splitlines()
    names = [f"f{i}" for i in range(count)]
    for i, name in enumerate(names):
        # each function calls the previous one at most once: bounded run time
        callee = names[i - 1] if i > 0 and i % 8 != 0 else None
        out += function(rng, name, per_function, callee)
    out.append("int main(void) {")
    out.append("  unsigned sum = 0u;")
    for i, name in enumerate(names):
        if i % 8 == 7 or i == count - 1:
            out.append(f"  sum = sum * 31u + {name}({i}u, sum);")
    out.append("  for (unsigned i = 0; i < 64u; i++) sum += table[i];")
    out.append('  printf("checksum %u\\n", sum);')
    out.append("  return 0;")
    out.append("}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[2] not in ("many", "long"):
        sys.exit("usage: gen_c_program.py LINES many|long SEED")
    sys.stdout.write(program(int(sys.argv[1]), sys.argv[2], int(sys.argv[3])))
