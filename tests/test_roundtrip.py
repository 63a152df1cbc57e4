"""Lossless round trips across the three encodings.

Every module file under examples/ and tests/ (and random modules from
pipe-gen) goes JSON -> binary -> printable -> JSON (and the other orders);
the canonical JSON must come back byte for byte, and every conversion must
be deterministic.
"""
import itertools

import pytest

from conftest import ROOT, run_tool

ENCODINGS = ["json", "bin", "text"]


def module_files():
    files = []
    for pattern in ("examples/**/*.json", "examples/**/*.txt", "tests/**/*.json", "tests/**/*.txt"):
        files += [p for p in ROOT.glob(pattern)
                  if "bad" not in p.parts and "verify" not in p.parts]
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


@pytest.mark.parametrize("level", ["son", "cfg", "ssa"])
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


def test_renumber_is_canonical_and_idempotent():
    module = run_tool("pipe-gen", "--seed", 5, "--level", "son", "--nodes", 1500, "-f", "text", check=0).stdout
    once = run_tool("pipe-fmt", "-", "-f", "text", "--renumber", input=module, check=0).stdout
    twice = run_tool("pipe-fmt", "-", "-f", "text", "--renumber", input=once, check=0).stdout
    assert once == twice
    run_tool("pipe-verify", "-", input=once, check=0)
