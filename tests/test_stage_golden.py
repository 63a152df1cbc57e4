"""Golden printable outputs per stage.

Each file tests/stages/<stage>/<case>.in.<ext> is an input of the tool
<stage> (a module in any encoding, or a .c file for c2ast); the tool's
printable output, `<stage> <case>.in.<ext> -f text` run in that directory
(so file names in it are relative), must equal
tests/stages/<stage>/<case>.out.txt byte for byte. A stage runs with its
default --verify, so its input and output also pass the verifier.
A text input may name extra arguments for the tool on a line
`# args: ...` (sonopt's per-pass cases give the pass list this way).
Regenerate with `scripts/update-goldens`, then review `git diff tests/stages`.
"""
import shlex
import subprocess

import pytest

from conftest import ROOT, tool_path

STAGES = ROOT / "tests" / "stages"


def stage_cases():
    return sorted(p for p in STAGES.glob("*/*.in.*"))


def case_args(path):
    """The arguments of a `# args: ...` line of a text input, if any."""
    if path.suffix != ".txt":
        return []
    for line in path.read_text().splitlines():
        if line.startswith("# args:"):
            return shlex.split(line[len("# args:"):])
    return []


def expected_path(path):
    return path.with_name(path.name.split(".in.")[0] + ".out.txt")


@pytest.mark.parametrize("path", stage_cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_stage_output_matches_golden(path):
    stage = path.parent.name
    # Run from the case's directory with a relative name (as
    # scripts/update-goldens does), so file names in the output do not depend
    # on where the repository is.
    proc = subprocess.run([tool_path(stage), path.name, *case_args(path), "-f", "text"], cwd=path.parent, capture_output=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    out = proc.stdout.decode()
    golden = expected_path(path)
    assert golden.exists(), f"no golden {golden}; run scripts/update-goldens"
    assert out == golden.read_text(), f"{stage} output differs from {golden}"


def test_every_stage_golden_has_an_input():
    inputs = {expected_path(p) for p in stage_cases()}
    stray = [str(p.relative_to(ROOT)) for p in STAGES.glob("*/*.out.txt") if p not in inputs]
    assert not stray, f"goldens without an input: {stray}"
