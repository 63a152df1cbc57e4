"""Programs whose definitions come from included files (issue 17, item 2).

tests/multifile/*/ (its README says what each is): main.c is built by
`pipecc -O0` and `pipecc -O2` and by gcc; each object must define the same
global symbols as gcc's (name, binding, type, visibility: tests/symbols.py),
and linked with driver.c (built by gcc), which calls what main.c defines
but does not use itself, it must print what the all-gcc program prints.
Before the fix c2ast converted only the main file's definitions and what
they used: the objects lacked the included files' functions and data, and
the links failed."""
import subprocess

import pytest

from conftest import BUILD, ROOT
from symbols import compare_symbols

CASES = sorted(p for p in (ROOT / "tests" / "multifile").iterdir() if p.is_dir())


def run(argv, cwd=None):
    p = subprocess.run([str(a) for a in argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300, cwd=cwd)
    assert p.returncode == 0, f"$ {' '.join(map(str, argv))}\nexit {p.returncode}\n{p.stderr.decode(errors='replace')}"
    return p.stdout


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_included_definitions_reach_the_object(case, opt, tmp_path):
    gcc_o, ours_o, driver_o = tmp_path / "gcc.o", tmp_path / "ours.o", tmp_path / "driver.o"
    run(["gcc", "-std=gnu11", opt, "-w", "-c", case / "main.c", "-o", gcc_o])
    run([BUILD / "pipecc", opt, "-c", case / "main.c", "-o", ours_o])
    run(["gcc", "-std=gnu11", "-O0", "-w", "-c", case / "driver.c", "-o", driver_o])
    problem = compare_symbols(gcc_o, ours_o)
    assert problem is None, f"symbols of {case.name}/main.c differ from gcc's ({opt}):\n{problem}"
    outputs = []
    for obj in (gcc_o, ours_o):
        exe = tmp_path / (obj.stem + ".exe")
        run(["gcc", "-o", exe, obj, driver_o])
        outputs.append(run([exe]))
    assert outputs[1] == outputs[0], f"{case.name}: pipecc's build prints {outputs[1]!r}, gcc's {outputs[0]!r}"
