"""16-byte vector values (FORMAT.md section 7, "16-byte vector values";
issue 19):

- tests/vector_loop_program.py (more vector phis than xmm registers, a
  call on every trip, rotations) run by pipe-run at son, son-x64, cfg-x64
  (with and without cfgopt -O2) and ra-x64 and natively, each against the
  lanes computed in Python; the allocator spilled vectors (two slots each)."""
import subprocess

import pytest

from conftest import run_tool
from vector_loop_program import expected, vector_program


def tool(name, *args, timeout=120):
    return run_tool(name, *args, timeout=timeout, check=0)


def through_back_end(son, tmp_path, optimize):
    sonx, cfgx, ra, obj, exe = (tmp_path / n for n in ("p.sonx", "p.cfgx", "p.ra", "p.o", "p"))
    tool("son-lower-x64", son, "-o", sonx)
    tool("son2cfg", sonx, "-o", cfgx)
    if optimize:
        opt = tmp_path / "p.opt"
        tool("cfgopt", "-O2", cfgx, "-o", opt)
        cfgx = opt
    tool("regalloc-x64", cfgx, "-o", ra)
    tool("codegen-x64", ra, "-f", "obj", "-o", obj)
    subprocess.run(["cc", "-o", exe, obj], check=True)
    return [son, sonx, cfgx, ra], exe


@pytest.mark.parametrize("k, trips", [(20, 12), (4, 3)])
@pytest.mark.parametrize("optimize", [False, True], ids=["O0", "cfgopt-O2"])
def test_vector_values_at_every_level_and_natively(tmp_path, k, trips, optimize):
    son = tmp_path / "vec.son.txt"
    son.write_text(vector_program(k, trips))
    want = expected(k, trips)
    modules, exe = through_back_end(son, tmp_path, optimize)
    runs = {m.name: run_tool("pipe-run", m, timeout=120) for m in modules}
    runs["native"] = subprocess.run([str(exe)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    for where, proc in runs.items():
        assert proc.returncode == 0, f"{where}: {proc.stderr.decode()[:2000]}"
        assert proc.stdout.decode() == want, where
    if k > 16:  # more vectors live than xmm registers: some were spilled, 16 bytes each
        stats = tool("regalloc-x64", modules[2], "-o", tmp_path / "x", "--stats").stderr.decode()
        assert " 0 spills" not in stats, stats
        asm = tool("codegen-x64", modules[3], "-f", "asm").stdout.decode()
        assert "movups\t%xmm" in asm and "(%rsp)" in asm
