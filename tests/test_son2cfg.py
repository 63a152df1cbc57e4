"""son2cfg: sea of nodes to ordered blocks, beyond its goldens.

The per-case outputs are goldens (tests/stages/son2cfg: a hoisted invariant,
code sunk into a branch, copies sunk into the cases of a compare chain (at
son and son-x64; a stack slot and a loop invariant not copied), loads kept
before stores, rotated and nested loops, proj blocks, unreachable code, the
x64 level), checked by
test_stage_golden.py; the C corpus runs through son2cfg in
test_c_programs.py (pipe-run on the scheduled module against gcc). Here:
  - pipe-gen's son modules (arbitrary, irreducible control flow) schedule
    into ssa modules that verify, byte-identical whatever the input
    encoding and however often it runs;
  - `ssa2son | son2cfg` gives back the ssa module's nodes exactly (only the
    placement and the block order may differ);
  - random programs with loads, stores and irreducible loops print the same
    and exit the same under pipe-run after son2cfg as at the cfg level;
  - a module at the wrong level, and --no-verify input that has no legal
    schedule, exit 1 with a diagnostic naming the node.
"""
import json

import pytest

from conftest import ROOT, run_tool
from test_ssa_stages import random_cfg_program, run_program

STAGES = ROOT / "tests" / "stages"


def gen(level, seed, nodes=2000, functions=3, fmt="bin"):
    return run_tool("pipe-gen", "--level", level, "--seed", seed, "--nodes", nodes,
                    "--functions", functions, "-f", fmt, check=0).stdout


@pytest.mark.parametrize("seed", range(1, 9))
def test_generated_son_schedules_deterministically(seed):
    outputs = set()
    for fmt in ("bin", "json", "text"):
        son = gen("son", seed, fmt=fmt)
        for _ in range(2 if fmt == "bin" else 1):
            # son2cfg verifies its output (the ssa contract) by default
            outputs.add(run_tool("son2cfg", "-", "-f", "bin", input=son, check=0).stdout)
    assert len(outputs) == 1


def nodes_of(module_json):
    return [fn["nodes"] for fn in json.loads(module_json)["functions"]]


@pytest.mark.parametrize("seed", range(1, 5))
def test_ssa2son_then_son2cfg_gives_the_nodes_back(seed):
    ssa = gen("ssa", seed, fmt="json")
    son = run_tool("ssa2son", "-", input=ssa, check=0).stdout
    back = run_tool("son2cfg", "-", "-f", "json", input=son, check=0).stdout
    assert json.loads(back)["level"] == "ssa"
    assert nodes_of(back) == nodes_of(ssa)


@pytest.mark.parametrize("seed", range(1, 25))
def test_random_programs_run_the_same_after_scheduling(seed):
    bodies = 8 if seed % 4 else 40
    cfg = random_cfg_program(seed, bodies=bodies).encode()
    ssa = run_tool("cfg2ssa", "-", input=cfg, check=0).stdout
    son = run_tool("ssa2son", "-", input=ssa, check=0).stdout
    scheduled = run_tool("son2cfg", "-", input=son, check=0).stdout
    expected = run_program(cfg)
    assert expected[0] != 70, expected[2].decode()
    assert run_program(scheduled) == expected


@pytest.mark.parametrize("level", ["cfg", "ssa"])
def test_wrong_level_is_refused(level):
    proc = run_tool("son2cfg", "-", "-o", "-", input=gen(level, 1, nodes=100, functions=1), check=1)
    assert f"expected a module at level 'son' or 'son-x64', found level '{level}'".encode() in proc.stderr
    assert proc.stdout == b""


def test_cfg_x64_input_is_refused():
    proc = run_tool("son2cfg", "-", input=b"module cfg-x64\n", check=1)
    assert b"found level 'cfg-x64'" in proc.stderr


def son_text(body, sig="f(i32, ptr) -> i32"):
    return f"module son\npipeline {sig} {{\n{body}\n}}\n".encode()


HEAD = """  i0 = start
  i1 = entrymem ^i0
  i2 = param ^i0, "i32", 0
  i3 = param ^i0, "ptr", 1"""

# Input with no legal schedule, or a broken control structure, under
# --no-verify: son2cfg reports it, never crashes or writes a module that
# fails verification.
BAD_SON = {
    "inputs_on_two_branches": (HEAD + """
  i4 = if ^i0, i2
  i5 = proj 0, i4
  i6 = proj 1, i4
  i7 = region ^i5
  i8 = load ^i7, "i32", i1, i3
  i9 = jump ^i7
  i10 = region ^i6
  i11 = load ^i10, "i32", i1, i3
  i12 = jump ^i10
  i13 = region ^i9, ^i12
  i14 = add "i32", i8, i11
  i15 = return ^i13, i1, i14
""", b"i14: error: input i11 is defined in the block of i10, which neither dominates"),
    "use_not_dominated": (HEAD + """
  i4 = if ^i0, i2
  i5 = proj 0, i4
  i6 = proj 1, i4
  i7 = region ^i5
  i8 = load ^i7, "i32", i1, i3
  i9 = jump ^i7
  i10 = region ^i9, ^i6
  i11 = return ^i10, i1, i8
""", b"i11: error: input i8 is not available in the block of i10"),
    "if_without_false_proj": (HEAD + """
  i4 = if ^i0, i2
  i5 = proj 0, i4
  i6 = return ^i5, i1, i2
""", b"i4: error: the if has no proj 1 (false)"),
    "block_without_terminator": (HEAD + """
  i4 = jump ^i0
  i5 = region ^i4
  i6 = load ^i5, "i32", i1, i3
""", b"i5: error: the block has no terminator"),
    "two_terminators": (HEAD + """
  i4 = return ^i0, i1, i2
  i5 = return ^i0, i1, i2
""", b"i5: error: the block of i0 already ends with i4"),
    "jump_nowhere": (HEAD + """
  i4 = jump ^i0
""", b"i4: error: no region lists the jump"),
    "pinned_off_a_value": (HEAD + """
  i4 = load ^i2, "i32", i1, i3
  i5 = return ^i0, i1, i4
""", b"i4: error: control input i2 is not a block node"),
    "load_needed_after_its_overwrite": (HEAD + """
  i4 = store ^i0, "i32", i1, i3, i2
  i5 = load ^i0, "ptr", i4, i3
  i6 = load ^i0, "i32", i1, i5
  i7 = return ^i0, i4, i6
""", b"i0: error: the nodes of this block cannot be ordered"),
    "phi_input_count": (HEAD + """
  i4 = jump ^i0
  i5 = region ^i4
  i6 = phi ^i5, i2, i2
  i7 = return ^i5, i1, i6
""", b"i6: error: the phi has 2 inputs but its region i5 has 1 control inputs"),
    "floating_cycle": (HEAD + """
  i4 = add "i32", i2, i5
  i5 = add "i32", i2, i4
  i6 = return ^i0, i1, i5
""", b"a cycle of nodes without a control input"),
}


@pytest.mark.parametrize("case", sorted(BAD_SON))
def test_unschedulable_input_is_reported(case, tmp_path):
    body, message = BAD_SON[case]
    out = tmp_path / "out.bin"
    proc = run_tool("son2cfg", "-", "--no-verify", "-o", out, input=son_text(body), check=1)
    assert message in proc.stderr, proc.stderr.decode()
    assert not out.exists()


def test_tool_contract():
    assert b"Example:" in run_tool("son2cfg", "--help", check=0).stdout
    assert run_tool("son2cfg", "--version", check=0).stdout.startswith(b"son2cfg")
    run_tool("son2cfg", "--no-such-flag", check=2)


# Memory anti-dependences of floating loads. At `son` every load is pinned,
# so these graphs give the load no control input and run with --no-verify:
# they exercise schedule_late's clamp, which later levels (loads that float)
# rely on. The load i4 reads the entry memory i1 and is used only at the
# end, after code that overwrites i1; it must stay above every such node.
FLOATING_LOADS = {
    # a store on each arm of a branch consumes i1: the load stays above the branch
    "stores_on_both_arms": (HEAD + """
  i4 = load "i32", i1, i3
  i5 = if ^i0, i2
  i6 = proj 0, i5
  i7 = proj 1, i5
  i8 = region ^i6
  i9 = store ^i8, "i32", i1, i3, i2
  i10 = jump ^i8
  i11 = region ^i7
  i12 = store ^i11, "i32", i1, i3, i2
  i13 = jump ^i11
  i14 = region ^i10, ^i13
  i15 = phi ^i14, i9, i12
  i16 = return ^i14, i15, i4
""", "b0"),
    # a store on one arm only: still above the branch (LCA of the store and the use)
    "store_on_one_arm": (HEAD + """
  i4 = load "i32", i1, i3
  i5 = if ^i0, i2
  i6 = proj 0, i5
  i7 = proj 1, i5
  i8 = region ^i6
  i9 = store ^i8, "i32", i1, i3, i2
  i10 = jump ^i8
  i14 = region ^i10, ^i7
  i15 = phi ^i14, i9, i1
  i16 = return ^i14, i15, i4
""", "b0"),
    # i1 flows into a loop's memory phi, and the loop stores: the load stays before the loop
    "memory_phi_of_a_loop": (HEAD + """
  i4 = load "i32", i1, i3
  i5 = const "i32", 0
  i6 = jump ^i0
  i7 = region ^i6, ^i14
  i8 = phi ^i7, i1, i13
  i9 = phi ^i7, i5, i15
  i10 = slt "i32", i9, i2
  i11 = if ^i7, i10
  i12 = region ^i18
  i13 = store ^i12, "i32", i8, i3, i9
  i16 = const "i32", 1
  i15 = add "i32", i9, i16
  i14 = jump ^i12
  i17 = region ^i19
  i20 = return ^i17, i8, i4
  i18 = proj 0, i11
  i19 = proj 1, i11
""", "b0"),
    # nothing overwrites i1 before the use: the load sinks to its use's branch
    "no_overwrite": (HEAD + """
  i4 = load "i32", i1, i3
  i5 = if ^i0, i2
  i6 = proj 0, i5
  i7 = proj 1, i5
  i8 = region ^i6
  i9 = return ^i8, i1, i4
  i10 = region ^i7
  i11 = return ^i10, i1, i2
""", "b1"),
}


def block_holding(text, node):
    block = None
    for line in text.splitlines():
        s = line.strip()
        if line.startswith("  b") and s.endswith("{"):
            block = s.split()[0]
        if s.startswith(f"{node} = "):
            return block
    raise AssertionError(f"{node} not placed:\n{text}")


@pytest.mark.parametrize("case", sorted(FLOATING_LOADS))
def test_floating_load_stays_above_what_overwrites_its_memory(case):
    body, want = FLOATING_LOADS[case]
    out = run_tool("son2cfg", "-", "--no-verify", "-f", "text", input=son_text(body), check=0).stdout.decode()
    assert block_holding(out, "i4") == want, out


def test_constants_leave_a_loop_whose_only_call_is_cold():
    """tests/stages/son2cfg/cold_calls (issue 18): the loop's only call is
    sqrt's errno call (its extern `hint cold`): the constants the loop reads,
    0.5 and the 0.0 the argument is compared with, leave it for the entry
    block, as from a loop without calls; without the hint they stay in it."""
    case = ROOT / "tests" / "stages" / "son2cfg" / "cold_calls.in.txt"
    out = run_tool("son2cfg", case, "-f", "text").stdout.decode()
    constants = [line.split(" = ")[0].strip() for line in out.splitlines() if "x64:fconst" in line or "x64:fzero" in line]
    assert len(constants) >= 3 and {block_holding(out, c) for c in constants} == {"b0"}, out
    hot = run_tool("son2cfg", "-", "-f", "text", input=case.read_bytes().replace(b" hint cold", b"")).stdout.decode()
    assert any(block_holding(hot, c) != "b0" for c in constants), hot
