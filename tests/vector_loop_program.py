"""A son-level program of 16-byte vector values (FORMAT.md section 7,
"16-byte vector values") for tests/test_vector_values.py: K vectors loaded
from data, carried around a loop through phis (more than the 16 xmm
registers: 16-byte spills and reloads, two slots each), rotated (cycles of
xmm moves on the back edge), combined by v128.apply (paddq, pxor, psubd,
pshufd, pslldi, punpckhqdq), a splat of the counter added in, a printf call
on every trip (every xmm register is caller-saved: vectors live across it
are spilled), and at the end every vector stored to memory and printed
twice: by lanes (v128.extract) and by the i64 loads of what was stored.
expected() computes the same lanes here in Python, independently of the
C++ code (eval_v128.h) and of the processor."""

M64 = (1 << 64) - 1
M32 = (1 << 32) - 1


def _ops(j):
    return ["paddq", "pxor", "psubd", "pshufd", "pslldi", "punpckhqdq"][j % 6]


def _apply(op, a, b):
    (a0, a1), (b0, b1) = a, b
    if op == "paddq":
        return ((a0 + b0) & M64, (a1 + b1) & M64)
    if op == "pxor":
        return (a0 ^ b0, a1 ^ b1)
    if op == "psubd":
        def sub32(x, y):
            return (((x & M32) - (y & M32)) & M32) | ((((x >> 32) - (y >> 32)) & M32) << 32)
        return (sub32(a0, b0), sub32(a1, b1))
    if op == "pshufd":  # 0x4E: the two 64-bit halves of a swapped
        return (a1, a0)
    if op == "pslldi":  # each 32-bit lane shifted left by 3
        def sh(x):
            return (((x & M32) << 3) & M32) | ((((x >> 32) << 3) & M32) << 32)
        return (sh(a0), sh(a1))
    if op == "punpckhqdq":  # (a1, b1)
        return (a1, b1)
    raise ValueError(op)


def _init(k):
    return [((j * 0x0123456789ABCDEF + 0x1111) & M64, (j * 0x0FEDCBA987654321 ^ 0x5A5A5A5A5A5A5A5A) & M64)
            for j in range(k)]


def _step(v, i, k):
    nxt = []
    for j in range(k):
        if j % 3 == 0:
            nxt.append(v[(j + 1) % k])
        else:
            op = _ops(j)
            nxt.append(_apply(op, v[j], v[(j + 5) % k]))
    nxt[k - 1], nxt[k - 2] = v[k - 2], v[k - 1]
    nxt[1] = _apply("paddq", nxt[1], (i & M64, i & M64))
    return nxt


def expected(k=20, trips=12):
    v = _init(k)
    out = []
    for i in range(trips):
        out.append(f"trip {i} {v[3][1]:x}\n")
        v = _step(v, i, k)
    for j in range(k):
        out.append(f"v{j} {v[j][0]:x} {v[j][1]:x}\n")
    for j in range(k):
        out.append(f"m{j} {v[j][0]:x} {v[j][1]:x}\n")
    return "".join(out)


def vector_program(k=20, trips=12):
    lines = []
    n = [0]

    def node(text):
        name = f"i{n[0]}"
        n[0] += 1
        lines.append(f"  {name} = {text}")
        return name

    st = node("start")
    mem0 = node(f"entrymem ^{st}")
    fmt = node('symaddr "fmt"')
    fmt2 = node('symaddr "fmt2"')
    fmt3 = node('symaddr "fmt3"')
    init = node('symaddr "init"')
    buf = node('symaddr "buf"')
    printf = node('symaddr "printf"')
    zero = node('const "i32", 0')
    one = node('const "i32", 1')
    limit = node(f'const "i32", {trips}')
    inits = []
    for j in range(k):
        off = node(f'const "i64", {16 * j}')
        addr = node(f'add "ptr", {init}, {off}')
        inits.append(node(f"v128.load ^{st}, {mem0}, {addr}"))
    enter = node(f"jump ^{st}")
    region = node(f"region ^{enter}, ^BACK")
    pm = node(f"phi ^{region}, {mem0}, MEM")
    pi = node(f"phi ^{region}, {zero}, NEXTI")
    pv = [node(f"phi ^{region}, {inits[j]}, V{j}") for j in range(k)]
    cond = node(f'slt "i32", {pi}, {limit}')
    br = node(f"if ^{region}, {cond}")
    tbody = node(f"proj 0, {br}")
    texit = node(f"proj 1, {br}")
    body = node(f"region ^{tbody}")
    lane = node(f'v128.extract "i64", 1, {pv[3]}')
    call = node(f'call ^{body}, "i32", "(ptr, ...)", {pm}, {printf}, {fmt}, {pi}, {lane}')
    mem1 = node(f"proj 0, {call}")
    nxt = []
    for j in range(k):
        if j % 3 == 0:
            nxt.append(pv[(j + 1) % k])
        else:
            op = _ops(j)
            imm = {"pshufd": 0x4E, "pslldi": 3}.get(op, 0)
            nxt.append(node(f'v128.apply "{op}", {imm}, {pv[j]}, {pv[(j + 5) % k]}'))
    nxt[k - 1], nxt[k - 2] = pv[k - 2], pv[k - 1]
    wide = node(f'sext "i32", "i64", {pi}')
    sp = node(f'v128.splat "i64", {wide}')
    nxt[1] = node(f'v128.apply "paddq", 0, {nxt[1]}, {sp}')
    inc = node(f'add "i32", {pi}, {one}')
    back = node(f"jump ^{body}")
    ex = node(f"region ^{texit}")
    mem = pm
    for j, v in enumerate(pv):
        lo = node(f'v128.extract "i64", 0, {v}')
        hi = node(f'v128.extract "i64", 1, {v}')
        c = node(f'call ^{ex}, "i32", "(ptr, ...)", {mem}, {printf}, {fmt2}, {node(f"const {chr(34)}i32{chr(34)}, {j}")}, '
                 f'{lo}, {hi}')
        mem = node(f"proj 0, {c}")
    for j, v in enumerate(pv):
        off = node(f'const "i64", {16 * j}')
        addr = node(f'add "ptr", {buf}, {off}')
        mem = node(f"v128.store ^{ex}, {mem}, {addr}, {v}")
    for j in range(k):
        off = node(f'const "i64", {16 * j}')
        addr = node(f'add "ptr", {buf}, {off}')
        lo = node(f'load ^{ex}, "i64", {mem}, {addr}')
        off8 = node('const "i64", 8')
        addr8 = node(f'add "ptr", {addr}, {off8}')
        hi = node(f'load ^{ex}, "i64", {mem}, {addr8}')
        c = node(f'call ^{ex}, "i32", "(ptr, ...)", {mem}, {printf}, {fmt3}, {node(f"const {chr(34)}i32{chr(34)}, {j}")}, '
                 f'{lo}, {hi}')
        mem = node(f"proj 0, {c}")
    node(f"return ^{ex}, {mem}, {zero}")
    text = "\n".join(lines)
    text = text.replace("^BACK", f"^{back}").replace(", MEM\n", f", {mem1}\n").replace("NEXTI", inc)
    for j in range(k - 1, -1, -1):
        text = text.replace(f", V{j}\n", f", {nxt[j]}\n")
    fmt_bytes = b"trip %d %llx\n\0"
    fmt2_bytes = b"v%d %llx %llx\n\0"
    fmt3_bytes = b"m%d %llx %llx\n\0"
    init_bytes = b"".join(lo.to_bytes(8, "little") + hi.to_bytes(8, "little") for lo, hi in _init(k))
    return ("module son\nextern function printf(ptr, ...) -> i32\n"
            f'data internal readonly fmt size {len(fmt_bytes)} align 1 init x"{fmt_bytes.hex()}"\n'
            f'data internal readonly fmt2 size {len(fmt2_bytes)} align 1 init x"{fmt2_bytes.hex()}"\n'
            f'data internal readonly fmt3 size {len(fmt3_bytes)} align 1 init x"{fmt3_bytes.hex()}"\n'
            f'data internal readonly init size {len(init_bytes)} align 16 init x"{init_bytes.hex()}"\n'
            f"data internal buf size {16 * k} align 16\n\n"
            "pipeline main() -> i32 {\n" + text + "\n}\n")


if __name__ == "__main__":
    import sys
    sys.stdout.write(vector_program())
