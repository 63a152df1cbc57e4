"""Golden printable files for the printer and the parser.

For each input under tests/formats/ and examples/formats/, the printer's
output (`pipe-fmt -f text`) must equal tests/golden/<name>.txt, and the
parser must read the golden back to the same module. Regenerate with
`scripts/update-goldens`, then review the diff.
"""
import pytest

from conftest import ROOT, run_tool

GOLDEN = ROOT / "tests" / "golden"


def golden_inputs():
    return sorted(list((ROOT / "tests" / "formats").glob("*")) + list((ROOT / "examples" / "formats").glob("*")))


def golden_path(path):
    return GOLDEN / (path.stem + ".txt")


@pytest.mark.parametrize("path", golden_inputs(), ids=lambda p: p.name)
def test_printer_matches_golden(path):
    printed = run_tool("pipe-fmt", path, "-f", "text", "--no-verify", check=0).stdout
    golden = golden_path(path)
    assert golden.exists(), f"no golden {golden}; run scripts/update-goldens"
    assert printed.decode() == golden.read_text(), f"printer output differs from {golden}"


@pytest.mark.parametrize("path", golden_inputs(), ids=lambda p: p.name)
def test_parser_reads_golden_back(path):
    from_input = run_tool("pipe-fmt", path, "-f", "json", "--no-verify", check=0).stdout
    from_golden = run_tool("pipe-fmt", golden_path(path), "-f", "json", "--no-verify", check=0).stdout
    assert from_input == from_golden


def test_every_golden_has_an_input():
    names = {golden_path(p).name for p in golden_inputs()}
    stray = [p.name for p in GOLDEN.glob("*.txt") if p.name not in names]
    assert not stray, f"goldens without an input: {stray}"
