"""A son-level program that stresses the back end's second register class
(tests/test_float_x64.py): a loop carrying K f64 values and an f32 through
phis (more than the 16 xmm registers: spills and reloads), rotating some of
them (cycles of xmm moves on the back edge, which have no xchg), calling
printf on every trip (every xmm register is caller-saved: values live
across the call are spilled), converting between the classes and printing
every value's bits at the end. The son-level run (pipe-run, checked
against the CPU by test_pipe_run.py) is the expected output."""


def loop_program(k=20, trips=40):
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
    printf = node('symaddr "printf"')
    zero = node('const "i32", 0')
    one = node('const "i32", 1')
    limit = node(f'const "i32", {trips}')
    inits = [node(f'fconst "f64", {float(j) + 0.125 * j:.6f}') for j in range(k)]
    s0 = node('fconst "f32", 0x1p-3')
    coeffs = [node(f'fconst "f64", {0.0625 * ((j % 5) + 1)}') for j in range(k)]
    enter = node(f"jump ^{st}")
    # The loop header: region, then phis whose back-edge inputs are patched in.
    header_at = len(lines)
    region = node(f"region ^{enter}, ^BACK")
    pm = node(f"phi ^{region}, {mem0}, MEM")
    pi = node(f"phi ^{region}, {zero}, NEXTI")
    pv = [node(f"phi ^{region}, {inits[j]}, V{j}") for j in range(k)]
    ps = node(f"phi ^{region}, {s0}, S")
    cond = node(f'slt "i32", {pi}, {limit}')
    br = node(f"if ^{region}, {cond}")
    tbody = node(f"proj 0, {br}")
    texit = node(f"proj 1, {br}")
    body = node(f"region ^{tbody}")
    # Body: a printf of one value's bits (live xmm values across the call).
    bits = node(f'bitcast "f64", "i64", {pv[3]}')
    call = node(f'call ^{body}, "i32", "(ptr, ...)", {pm}, {printf}, {fmt}, {pi}, {bits}')
    mem1 = node(f"proj 0, {call}")
    nxt = []
    for j in range(k):
        if j % 3 == 0:
            nxt.append(pv[(j + 1) % k])  # rotation: a cycle of moves on the back edge
        else:
            prod = node(f'fmul "f64", {pv[(j + 5) % k]}, {coeffs[j]}')
            nxt.append(node(f'{"fadd" if j % 2 else "fsub"} "f64", {pv[j]}, {prod}'))
    # A swap of the last two: a two-element cycle.
    nxt[k - 1], nxt[k - 2] = pv[k - 2], pv[k - 1]
    # f32: s = s + (f32)(v0 / 3) ; an int conversion feeds back as a double.
    third = node('fconst "f64", 3.0')
    q = node(f'fdiv "f64", {pv[0]}, {third}')
    qs = node(f'fptrunc "f64", "f32", {q}')
    s1 = node(f'fadd "f32", {ps}, {qs}')
    as_int = node(f'fptosi "f32", "i32", {s1}')
    back_d = node(f'sitofp "i32", "f64", {as_int}')
    nxt[1] = node(f'fadd "f64", {nxt[1]}, {back_d}')
    inc = node(f'add "i32", {pi}, {one}')
    back = node(f"jump ^{body}")
    # Exit: print every value's bits.
    ex = node(f"region ^{texit}")
    mem = pm
    for j, v in enumerate(pv + [ps]):
        if j < k:
            b = node(f'bitcast "f64", "i64", {v}')
        else:
            b32 = node(f'bitcast "f32", "i32", {v}')
            b = node(f'zext "i32", "i64", {b32}')
        c = node(f'call ^{ex}, "i32", "(ptr, ...)", {mem}, {printf}, {fmt2}, {node(f"const {chr(34)}i32{chr(34)}, {j}")}, {b}')
        mem = node(f"proj 0, {c}")
    node(f"return ^{ex}, {mem}, {zero}")
    text = "\n".join(lines)
    text = text.replace("^BACK", f"^{back}").replace("MEM", mem1).replace("NEXTI", inc).replace(", S\n", f", {s1}\n")
    for j in range(k - 1, -1, -1):
        text = text.replace(f", V{j}\n", f", {nxt[j]}\n")
    del header_at
    fmt_bytes = b"trip %d %llx\n\0"
    fmt2_bytes = b"v%d %llx\n\0"
    return ("module son\nextern function printf(ptr, ...) -> i32\n"
            f'data internal readonly fmt size {len(fmt_bytes)} align 1 init x"{fmt_bytes.hex()}"\n'
            f'data internal readonly fmt2 size {len(fmt2_bytes)} align 1 init x"{fmt2_bytes.hex()}"\n\n'
            "pipeline main() -> i32 {\n" + text + "\n}\n")


if __name__ == "__main__":
    import sys
    sys.stdout.write(loop_program())
