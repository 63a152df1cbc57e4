"""cfg2ssa and ssa2son: properties on generated modules, bad input, determinism.

The per-case outputs are goldens (tests/stages/cfg2ssa, tests/stages/ssa2son,
checked by test_stage_golden.py). Here:
  - on random valid cfg modules (pipe-gen --level cfg), cfg2ssa's output
    verifies, has no dead phi (every phi is used, transitively through other
    phis, by a non-phi node) and no slot operation left, and ssa2son turns it
    into a son module that verifies;
  - ssa2son also takes pipe-gen's own ssa modules;
  - a module at the wrong level, and input that breaks the cfg contract under
    --no-verify, exit 1 with a diagnostic naming the node or block;
  - the same input gives byte-identical output, whatever its encoding;
  - random programs with slots, memory and arbitrary (irreducible) control
    flow print the same and exit the same under pipe-run at cfg, after
    cfg2ssa, and after ssa2son.
"""
import json
import random

import pytest

from conftest import ROOT, run_tool

STAGES = ROOT / "tests" / "stages"
SEEDS = range(1, 13)


def gen(level, seed, nodes=2000, functions=3, fmt="bin"):
    return run_tool("pipe-gen", "--level", level, "--seed", seed, "--nodes", nodes,
                    "--functions", functions, "-f", fmt, check=0).stdout


def functions_of(json_bytes):
    return json.loads(json_bytes)["functions"]


def dead_phis(fn, phi_opcode):
    """Phi node ids that no non-phi node uses, directly or through phis."""
    nodes = fn["nodes"]
    is_phi = [n["opcode"] == phi_opcode for n in nodes]
    live = [False] * len(nodes)
    work = []
    for n, phi in zip(nodes, is_phi):
        if phi:
            continue
        for i in n["inputs"]:
            if is_phi[i] and not live[i]:
                live[i] = True
                work.append(i)
    while work:
        for i in nodes[work.pop()]["inputs"]:
            if is_phi[i] and not live[i]:
                live[i] = True
                work.append(i)
    return [k for k, phi in enumerate(is_phi) if phi and not live[k]]


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_cfg_becomes_ssa_without_dead_phis(seed):
    ssa = run_tool("cfg2ssa", "-", "-f", "json", input=gen("cfg", seed), check=0).stdout
    module = json.loads(ssa)
    assert module["level"] == "ssa"
    phis = 0
    for fn in module["functions"]:
        opcodes = {n["opcode"] for n in fn["nodes"]}
        assert not opcodes & {"ssa:load", "ssa:store"}, fn["name"]
        assert "dominance" in fn and "cfg" in fn
        assert dead_phis(fn, "ssa:phi") == [], fn["name"]
        phis += sum(n["opcode"] == "ssa:phi" for n in fn["nodes"])
    assert phis > 0  # the generator's merges need some
    run_tool("pipe-verify", "-", input=ssa, check=0)
    son = run_tool("ssa2son", "-", "-f", "json", input=ssa, check=0).stdout
    son_module = json.loads(son)
    assert son_module["level"] == "son"
    for fn in son_module["functions"]:
        assert "cfg" not in fn and "dominance" not in fn
        assert not {n["opcode"] for n in fn["nodes"]} & {"ssa:phi", "ssa:undefined"}
    run_tool("pipe-verify", "-", input=son, check=0)


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_ssa_becomes_son(seed):
    son = run_tool("ssa2son", "-", "-f", "json", input=gen("ssa", seed), check=0).stdout
    for fn in functions_of(son):
        nodes = fn["nodes"]
        # every if is read by exactly one proj 0 and one proj 1, and by nothing else
        for k, n in enumerate(nodes):
            if n["opcode"] != "if":
                continue
            readers = [m for m in nodes if k in m["inputs"] or k in m["control"]]
            assert sorted(m["literals"][0] for m in readers if m["opcode"] == "proj") == [0, 1]
            assert all(m["opcode"] == "proj" for m in readers)
    run_tool("pipe-verify", "-", input=son, check=0)


def test_big_function():
    ssa = run_tool("cfg2ssa", "-", input=gen("cfg", 5, nodes=200000, functions=1), check=0, timeout=120).stdout
    run_tool("ssa2son", "-", "-o", "/dev/null", input=ssa, check=0, timeout=120)


def test_branch_local_slots_get_no_phi():
    out = run_tool("cfg2ssa", STAGES / "cfg2ssa" / "branch_local.in.txt", "-f", "json", check=0).stdout
    (fn,) = functions_of(out)
    phis = [n for n in fn["nodes"] if n["opcode"] == "ssa:phi"]
    assert len(phis) == 1  # r's; none for t, u or the memory state


def test_unused_reads_leave_no_phi():
    out = run_tool("cfg2ssa", STAGES / "cfg2ssa" / "dead_phi.in.txt", "-f", "json", check=0).stdout
    (fn,) = functions_of(out)
    assert not [n for n in fn["nodes"] if n["opcode"] == "ssa:phi"]


@pytest.mark.parametrize("stage,level", [("cfg2ssa", "ssa"), ("cfg2ssa", "son"), ("ssa2son", "cfg"),
                                         ("ssa2son", "son")])
def test_wrong_level_is_refused(stage, level):
    proc = run_tool(stage, "-", "-o", "-", input=gen(level, 1, nodes=100, functions=1), check=1)
    want = {"cfg2ssa": "cfg", "ssa2son": "ssa"}[stage]
    assert f"expected a module at level '{want}', found level '{level}'".encode() in proc.stderr
    assert proc.stdout == b""


def test_ast_level_is_refused():
    text = b"module ast\n"
    for stage in ("cfg2ssa", "ssa2son"):
        proc = run_tool(stage, "-", input=text, check=1)
        assert b"found level 'ast'" in proc.stderr


@pytest.mark.parametrize("stage,level", [("cfg2ssa", "cfg"), ("ssa2son", "ssa")])
def test_deterministic_whatever_the_input_encoding(stage, level):
    outputs = set()
    for fmt in ("bin", "json", "text"):
        for _ in range(2):
            outputs.add(run_tool(stage, "-", "-f", "bin", input=gen(level, 7, fmt=fmt), check=0).stdout)
    assert len(outputs) == 1


def test_input_that_breaks_the_contract_is_refused_by_the_verifier():
    text = (STAGES / "cfg2ssa" / "diamond.in.txt").read_text().replace("i15 = jump ^i8", "i15 = jump ^i16")
    proc = run_tool("cfg2ssa", "-", input=text.encode(), check=1)
    assert b"i15" in proc.stderr


# Input that breaks the cfg contract, given with --no-verify: the stage still
# reports it (exit 1, the node or block named), never crashes.
BAD_CFG = {
    "unplaced": ("""module cfg
pipeline f() -> void {
  i5 = const "i32", 1
  b0 {
    i0 = start
    i1 = entrymem ^i0
    i2 = return ^i0, i1
  }
}
""", b"i3: error: node is not placed in any block"),
    "region_lists_a_non_terminator": ("""module cfg
pipeline f() -> void {
  b0 {
    i0 = start
    i1 = entrymem ^i0
    i2 = jump ^i0
  }
  b0 -> b1
  b1 {
    i3 = region ^i1
    i4 = return ^i3, i1
  }
}
""", b"i3: error: control input i1 is not the terminator of a block"),
    "unreachable": ("""module cfg
pipeline f() -> void {
  b0 {
    i0 = start
    i1 = entrymem ^i0
    i2 = return ^i0, i1
  }
  b1 {
    i3 = region ^i4
    i4 = jump ^i3
  }
  b1 -> b1
}
""", b"b1: error: block is not reachable from the entry block"),
    "store_used_as_a_value": ("""module cfg
pipeline f(i32) -> i32 {
  b0 {
    i0 = start
    i1 = entrymem ^i0
    i2 = param ^i0, "i32", 0
    i3 = if ^i0, i2
  }
  b0 -> b1, b2
  b1 {
    i4 = region ^i3
    i5 = ssa:store 1, i2
    i6 = ssa:load 1
    i7 = jump ^i4
  }
  b1 -> b2
  b2 {
    i8 = region ^i3, ^i7
    i9 = return ^i8, i1, i5
  }
}
""", b"i9: error: input i5 is an ssa:store, which produces nothing"),
    "slot_without_number": ("""module cfg
pipeline f() -> void {
  b0 {
    i0 = start
    i1 = entrymem ^i0
    i2 = ssa:load "x"
    i3 = return ^i0, i1
  }
}
""", b"i2: error: ssa:load takes one slot number"),
    "entry_with_predecessor": ("""module cfg
pipeline f() -> void {
  b0 {
    i0 = start ^i2
    i1 = entrymem ^i0
    i2 = jump ^i0
  }
  b0 -> b0
}
""", b"i0: error: the entry block has predecessors"),
}


@pytest.mark.parametrize("case", sorted(BAD_CFG))
def test_no_verify_bad_input_is_reported(case, tmp_path):
    text, message = BAD_CFG[case]
    out = tmp_path / "out.bin"
    proc = run_tool("cfg2ssa", "-", "--no-verify", "-o", out, input=text.encode(), check=1)
    assert message in proc.stderr, proc.stderr.decode()
    assert not out.exists()  # no partial output
    # and the verifier, on by default, reports it too
    run_tool("cfg2ssa", "-", input=text.encode(), check=1)


# The one-kind-per-slot rule (FORMAT.md "Memory at the cfg level"): the
# verifier does not check it yet, cfg2ssa does, with or without --verify.
MIXED_SLOTS = {
    "stores_of_both_kinds": ("""module cfg
pipeline f(i32) -> void {
  b0 {
    i0 = start
    i1 = entrymem ^i0
    i2 = ssa:store 0, i1
    i3 = param ^i0, "i32", 0
    i4 = ssa:store 0, i3
    i5 = ssa:load 0
    i6 = return ^i0, i5
  }
}
""", b"i4: error: this ssa:store stores a value in slot 0, which holds memory (stored by i2)"),
    "through_another_slot": ("""module cfg
pipeline f(i32) -> void {
  b0 {
    i0 = start
    i1 = entrymem ^i0
    i2 = ssa:store 0, i1
    i3 = ssa:load 0
    i4 = ssa:store 5, i3
    i5 = param ^i0, "i32", 0
    i6 = ssa:store 5, i5
    i7 = return ^i0, i3
  }
}
""", b"i6: error: this ssa:store stores a value in slot 5, which holds memory (stored by i2)"),
    "memory_read_as_a_value": ("""module cfg
pipeline f() -> void {
  b0 {
    i0 = start
    i1 = entrymem ^i0
    i2 = ssa:store 0, i1
    i3 = ssa:load 0
    i4 = add "i32", i3, i3
    i5 = return ^i0, i3
  }
}
""", b"i4: error: input 0 is i3, a read of slot 0, which holds memory; expected a value"),
}


@pytest.mark.parametrize("case", sorted(MIXED_SLOTS))
@pytest.mark.parametrize("verify", ["--verify", "--no-verify"])
def test_a_slot_holds_one_kind(case, verify):
    text, message = MIXED_SLOTS[case]
    proc = run_tool("cfg2ssa", "-", verify, input=text.encode(), check=1)
    assert message in proc.stderr, proc.stderr.decode()


def test_ssa2son_no_verify_region_missing_its_if():
    text = (STAGES / "ssa2son" / "same_target.in.txt").read_text().replace("region ^i5, ^i5", "region ^i0")
    proc = run_tool("ssa2son", "-", "--no-verify", input=text.encode(), check=1)
    assert b"its region does not list it" in proc.stderr


def test_locations_survive():
    out = run_tool("cfg2ssa", STAGES / "cfg2ssa" / "undefined.in.txt", "-f", "json", check=0).stdout
    (fn,) = functions_of(out)
    undefined_locs = sorted(tuple(n["loc"]) for n in fn["nodes"] if n["opcode"] == "ssa:undefined" and "loc" in n)
    assert undefined_locs == [(0, 1, 33), (0, 1, 37)]  # the reads of y and z


# ---- differential: pipe-run at cfg, ssa and son ---------------------------------

BINOPS = ["add", "sub", "mul", "and", "or", "xor", "eq", "ne", "slt", "sle", "ult", "ule"]


def random_cfg_program(seed, bodies=8, nvars=5):
    """A random cfg-level module (printable) whose main terminates and prints.

    Slot 0 is the memory state, slot 1 a fuel counter, slots 2.. i32
    variables and the last slot the address of an 8-int stack array. Blocks:
    b0 initializes everything; body k (b2k+1) does random slot arithmetic and
    array loads/stores, spends one unit of fuel and goes to its decision
    block (b2k+2) or, out of fuel, to the exit; the decision branches on a
    variable's bit to the next body and to a random one (back edges, jumps
    into loops, an if with both targets alike); the exit prints a checksum of
    the variables and returns it. Every cycle goes through a body, so it ends.
    """
    rng = random.Random(seed)
    lines = []
    ids = iter(range(10**6))
    def node(text):
        i = next(ids)
        lines_cur.append(f"    i{i} = {text}")
        return i
    blocks = []  # (lines, terminator id, successors)
    # block layout: b0 entry, b(2k+1) body k, b(2k+2) decision k, last = exit
    nb = 2 * bodies + 2
    exit_b = nb - 1
    body = lambda k: 2 * k + 1
    decision = lambda k: 2 * k + 2
    term = {}
    succs = {}
    content = {}
    fuel = 1
    first_var = 2

    def load(slot):
        return node(f"ssa:load {slot}")

    def store(slot, v):
        node(f"ssa:store {slot}, i{v}")

    def const(v, t="i32"):
        return node(f'const "{t}", {v}')

    region_of = {}
    for b in range(nb):
        lines_cur = []
        region_of[b] = next(ids)  # the region/start node id, written later
        if b == 0:
            mem = node(f"entrymem ^i{region_of[0]}")
            store(0, mem)
            store(fuel, const(rng.randint(5, 60)))
            for v in range(nvars):
                store(first_var + v, const(rng.randint(-50, 50)))
            arr = node("stackslot 32, 8")
            store(first_var + nvars, arr)  # slot with the array's address
            for k in range(8):
                m = load(0)
                off = const(4 * k, "i64")
                addr = node(f'add "ptr", i{arr}, i{off}')
                store(0, node(f'store ^i{region_of[0]}, "i32", i{m}, i{addr}, i{const(k)}'))
            term[b] = node(f"jump ^i{region_of[0]}")
            succs[b] = [body(0)]
        elif b == exit_b:
            acc = const(0)
            for v in range(nvars):
                x = load(first_var + v)
                c31 = const(31)
                prod = node(f'mul "i32", i{acc}, i{c31}')
                acc = node(f'add "i32", i{prod}, i{x}')
            m = load(0)
            pf = node('symaddr "printf"')
            fmt = node('symaddr "fmt"')
            call = node(f'call ^i{region_of[b]}, "i32", i{m}, i{pf}, i{fmt}, i{acc}')
            store(0, node(f"proj 0, i{call}"))
            ret = node(f'and "i32", i{acc}, i{const(127)}')
            term[b] = node(f"return ^i{region_of[b]}, i{load(0)}, i{ret}")
            succs[b] = []
        elif b % 2 == 1:  # body
            for _ in range(rng.randint(0, 6)):
                r = rng.random()
                dst = first_var + rng.randrange(nvars)
                if r < 0.6:
                    a = load(first_var + rng.randrange(nvars))
                    bb = load(first_var + rng.randrange(nvars)) if rng.random() < 0.7 else const(rng.randint(-9, 9))
                    store(dst, node(f'{rng.choice(BINOPS)} "i32", i{a}, i{bb}'))
                elif r < 0.75:
                    store(dst, const(rng.randint(-100, 100)))
                elif r < 0.88:  # array store
                    arr = load(first_var + nvars)
                    idx = const(4 * rng.randrange(8), "i64")
                    addr = node(f'add "ptr", i{arr}, i{idx}')
                    m = load(0)
                    store(0, node(f'store ^i{region_of[b]}, "i32", i{m}, i{addr}, i{load(first_var + rng.randrange(nvars))}'))
                else:  # array load
                    arr = load(first_var + nvars)
                    idx = const(4 * rng.randrange(8), "i64")
                    addr = node(f'add "ptr", i{arr}, i{idx}')
                    store(dst, node(f'load ^i{region_of[b]}, "i32", i{load(0)}, i{addr}'))
            f = node(f'sub "i32", i{load(fuel)}, i{const(1)}')
            store(fuel, f)
            cond = node(f'slt "i32", i{const(0)}, i{f}')
            term[b] = node(f"if ^i{region_of[b]}, i{cond}")
            succs[b] = [b + 1, exit_b]
        else:  # decision
            k = b // 2 - 1
            x = load(first_var + rng.randrange(nvars))
            cond = node(f'and "i32", i{x}, i{const(1 << rng.randrange(3))}')
            term[b] = node(f"if ^i{region_of[b]}, i{cond}")
            nxt = body(k + 1) if k + 1 < bodies else body(rng.randrange(bodies))
            other = body(rng.randrange(bodies))
            succs[b] = [nxt, other] if rng.random() < 0.5 else [other, nxt]
        content[b] = lines_cur
    preds = {b: [] for b in range(nb)}
    for b in range(nb):
        for s in succs[b]:
            preds[s].append(term[b])
    out = ["module cfg", 'extern function printf(ptr, ...) -> i32',
           'data internal readonly fmt size 4 align 1 init x"25640a00"', "", "pipeline main() -> i32 {"]
    for b in range(nb):
        out.append(f"  b{b} {{")
        if b == 0:
            out.append(f"    i{region_of[b]} = start")
        else:
            out.append(f"    i{region_of[b]} = region " + ", ".join(f"^i{p}" for p in preds[b]))
        out.extend(content[b])
        out.append("  }")
        if succs[b]:
            out.append(f"  b{b} -> " + ", ".join(f"b{s}" for s in succs[b]))
    out.append("}")
    return "\n".join(out) + "\n"



def run_program(module):
    proc = run_tool("pipe-run", "-", "--max-steps", 10000000, input=module, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize("seed", range(1, 41))
def test_random_programs_mean_the_same_at_every_level(seed):
    bodies = 8 if seed % 4 else 40
    cfg = random_cfg_program(seed, bodies=bodies).encode()
    ssa = run_tool("cfg2ssa", "-", input=cfg, check=0).stdout
    son = run_tool("ssa2son", "-", input=ssa, check=0).stdout
    expected = run_program(cfg)
    assert expected[0] != 70, expected[2].decode()  # the generator writes defined programs
    assert expected[1].strip()
    assert run_program(ssa) == expected
    assert run_program(son) == expected


@pytest.mark.parametrize("stage", ["cfg2ssa", "ssa2son"])
def test_tool_contract(stage):
    assert b"Example:" in run_tool(stage, "--help", check=0).stdout
    assert run_tool(stage, "--version", check=0).stdout.startswith(stage.encode())
    run_tool(stage, "--no-such-flag", check=2)
