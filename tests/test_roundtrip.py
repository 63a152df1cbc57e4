"""Lossless round trips across the three encodings.

Every module file under examples/ and tests/ (and random modules from
pipe-gen) goes JSON -> binary -> printable -> JSON (and the other orders);
the canonical JSON must come back byte for byte, and every conversion must
be deterministic.
"""
import itertools
import re

import pytest

from conftest import ROOT, run_tool

ENCODINGS = ["json", "bin", "text"]


def module_files():
    files = []
    for pattern in ("examples/**/*.json", "examples/**/*.txt", "tests/**/*.json", "tests/**/*.txt"):
        files += list(ROOT.glob(pattern))
    return sorted(set(files))


def convert(data, encoding, *extra):
    proc = run_tool("pipe-fmt", "-", "-f", encoding, "--no-verify", *extra, input=data, check=0)
    return proc.stdout


def assert_round_trips(data):
    reference = convert(data, "json")
    for order in itertools.permutations(ENCODINGS):
        current = reference
        for encoding in order:
            current = convert(current, encoding)
        assert convert(current, "json") == reference, f"round trip through {' -> '.join(order)} changed the module"


@pytest.mark.parametrize("path", module_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_file_round_trips(path):
    assert_round_trips(path.read_bytes())


@pytest.mark.parametrize("level", ["son", "cfg", "ssa", "son-x64", "cfg-x64"])
@pytest.mark.parametrize("seed", range(1, 9))
def test_random_module_round_trips(level, seed):
    module = run_tool("pipe-gen", "--seed", seed, "--level", level, "--nodes", 600, "--functions", 3,
                      "-f", "bin", check=0).stdout
    assert_round_trips(module)


@pytest.mark.parametrize("seed", range(1, 6))
def test_exotic_literals_round_trip(seed):
    """Foreign opcodes and literals of every JSON kind (unicode, escapes, big
    unsigned integers, floats, nested arrays and objects)."""
    module = run_tool("pipe-gen", "--seed", seed, "--exotic", "--nodes", 800, "--functions", 2,
                      "-f", "json", check=0).stdout
    assert b"x.note" in module or b"target-v2" in module
    assert_round_trips(module)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_output_is_deterministic(encoding):
    module = run_tool("pipe-gen", "--seed", 3, "--level", "ssa", "--nodes", 2000, "-f", "json", check=0).stdout
    first = convert(module, encoding)
    second = convert(module, encoding)
    assert first == second


def test_generated_modules_verify():
    for level in ["son", "cfg", "ssa"]:
        module = run_tool("pipe-gen", "--seed", 11, "--level", level, "--nodes", 5000, "--functions", 4,
                          check=0).stdout
        run_tool("pipe-verify", "-", input=module, check=0)


NODE_LINE = re.compile(r"^\s*i(\d+) = (\S+)(.*?)(?:@\d+:\d+:\d+)?$")


def forward_references(text):
    """(node, operand) pairs where a node refers to a later node, other than
    through a phi input or a region's control (the only edges that may close
    a cycle)."""
    forward = []
    for line in text.decode().splitlines():
        m = NODE_LINE.match(line)
        if not m or m.group(2) in ("phi", "ssa:phi", "region"):
            continue
        node = int(m.group(1))
        unquoted = "".join(m.group(3).split('"')[::2])  # drop string literals ("i32")
        forward += [(node, int(r)) for r in re.findall(r"\bi(\d+)\b", unquoted) if int(r) > node]
    return forward


def reverse_labels(text):
    """The same graph with its node labels in reverse order (node lines only,
    outside string literals, so type names such as "i32" stay)."""
    def relabel(segment):
        return re.sub(r"\bi(\d+)\b", lambda m: "i%d" % (10 ** 7 - int(m.group(1))), segment)
    lines = []
    for line in text.decode().splitlines():
        if NODE_LINE.match(line):
            parts = line.split('"')
            line = '"'.join(relabel(p) if k % 2 == 0 else p for k, p in enumerate(parts))
        lines.append(line)
    return ("\n".join(lines) + "\n").encode()


def test_renumber_puts_defs_before_uses_and_is_idempotent():
    module = run_tool("pipe-gen", "--seed", 5, "--level", "son", "--nodes", 1500, "-f", "text", check=0).stdout
    module = run_tool("pipe-fmt", "-", "-f", "text", input=reverse_labels(module), check=0).stdout
    assert len(forward_references(module)) > 100
    once = run_tool("pipe-fmt", "-", "-f", "text", "--renumber", input=module, check=0).stdout
    assert forward_references(once) == []
    twice = run_tool("pipe-fmt", "-", "-f", "text", "--renumber", input=once, check=0).stdout
    assert once == twice
    run_tool("pipe-verify", "-", input=once, check=0)


def printed_ids_per_function(text):
    """The node ids of each function, in the order the printer lists them
    (block by block, block node first)."""
    functions = []
    for line in text.decode().splitlines():
        if line.lstrip().startswith("pipeline ") or line.startswith("internal pipeline "):
            functions.append([])
        elif (m := NODE_LINE.match(line)):
            functions[-1].append(int(m.group(1)))
    return functions


def test_renumber_orders_cfg_functions_by_block():
    module = run_tool("pipe-gen", "--seed", 6, "--level", "ssa", "--nodes", 800, "--functions", 3,
                      "-f", "text", check=0).stdout
    assert any(ids != list(range(len(ids))) for ids in printed_ids_per_function(module))
    once = run_tool("pipe-fmt", "-", "-f", "text", "--renumber", input=module, check=0).stdout
    functions = printed_ids_per_function(once)
    assert len(functions) == 3
    for ids in functions:
        assert ids == list(range(len(ids)))
    run_tool("pipe-verify", "-", input=once, check=0)


def test_binary_foreign_opcode_table_order_does_not_matter():
    """Found by scripts/fuzz-readers: a binary frame may list foreign opcode
    names in any order, or unused; every reader must number them by first
    use so the same graph is the same module from any encoding."""
    data = (ROOT / "tests" / "data" / "foreign-opcode-order.bin").read_bytes()
    direct = run_tool("pipe-fmt", "-", "-f", "bin", "--no-verify", input=data, check=0).stdout
    via_json = convert(convert(data, "json"), "bin")
    assert direct == via_json


def literal_heavy_module(count):
    """A son-x64 function whose nodes carry four literals each: more than the
    writer's first guess of two per node, so its literal arrays must grow
    mid-function (and keep what they held)."""
    lines = ["module son-x64", 'data internal readonly s size 1 align 1 init x"00"', "",
             "internal pipeline f() -> i64 {", "  i0 = start"]
    for k in range(count):
        lines.append(f'  i{k + 1} = x64:lea "i64", 0, {k}, "s"')
    acc = 1
    for k in range(2, count + 1):
        lines.append(f'  i{count + k - 1} = x64:add "i64", i{acc}, i{k}')
        acc = count + k - 1
    lines.append(f"  i{acc + 1} = entrymem ^i0")
    lines.append(f"  i{acc + 2} = x64:ret ^i0, i{acc + 1}, i{acc}")
    lines.append("}")
    return ("\n".join(lines) + "\n").encode()


def test_literal_arrays_grow_without_losing_literals():
    module = literal_heavy_module(1500)
    run_tool("pipe-verify", "-", input=module, check=0)
    binary = convert(module, "bin")
    assert convert(module, "bin") == binary
    run_tool("pipe-verify", "-", input=binary, check=0)
    assert convert(binary, "text") == convert(module, "text")
