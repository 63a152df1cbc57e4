"""16-byte vector values (FORMAT.md section 7, "16-byte vector values";
issue 19) and sonopt's vectorize pass (issue 21):

- tests/vector_loop_program.py (more vector phis than xmm registers, a
  call on every trip, rotations) run by pipe-run at son, ssa (son2cfg's
  schedule of the son module), son-x64, cfg-x64
  (with and without cfgopt -O2) and ra-x64 and natively, each against the
  lanes computed in Python; the allocator spilled vectors (two slots each);
- the vectorizer: the loops of tests/c/vec_loops.c become vector loops at
  -O2 (counted in sonopt's output), those of tests/c/vec_not.c stay scalar
  (an overlap, a stride, float sums, aliasing pointers, an odd trip count,
  16-bit lanes), and fp_matmul's inner loop is two doubles per mulpd and
  addpd; the corpus test (test_c_programs.py) runs both programs at every
  level against gcc, with --check-each."""
import shutil
import subprocess

import pytest

from conftest import ROOT, run_tool, tool_path
from vector_loop_program import expected, vector_program


def tool(name, *args, timeout=120):
    return run_tool(name, *args, timeout=timeout, check=0)


def through_back_end(son, tmp_path, optimize):
    sched, sonx, cfgx, ra, obj, exe = (tmp_path / n for n in ("p.sched", "p.sonx", "p.cfgx", "p.ra", "p.o", "p"))
    tool("son2cfg", son, "-o", sched)  # the generic son scheduled back to the ssa level
    tool("son-lower-x64", son, "-o", sonx)
    tool("son2cfg", sonx, "-o", cfgx)
    if optimize:
        opt = tmp_path / "p.opt"
        tool("cfgopt", "-O2", cfgx, "-o", opt)
        cfgx = opt
    tool("regalloc-x64", cfgx, "-o", ra)
    tool("codegen-x64", ra, "-f", "obj", "-o", obj)
    subprocess.run(["cc", "-o", exe, obj], check=True)
    return [son, sched, sonx, cfgx, ra], exe


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
        stats = tool("regalloc-x64", modules[3], "-o", tmp_path / "x", "--stats").stderr.decode()
        assert " 0 spills" not in stats, stats
        asm = tool("codegen-x64", modules[4], "-f", "asm").stdout.decode()
        assert "movups\t%xmm" in asm and "(%rsp)" in asm


def sonopt_O2(tmp_path, c_file):
    son = tmp_path / (c_file.stem + ".son")
    with open(son, "wb") as out:
        c2 = subprocess.Popen([tool_path("c2ast"), str(c_file)], stdout=subprocess.PIPE)
        a = subprocess.Popen([tool_path("ast2cfg")], stdin=c2.stdout, stdout=subprocess.PIPE)
        s = subprocess.Popen([tool_path("cfg2ssa")], stdin=a.stdout, stdout=subprocess.PIPE)
        subprocess.run([tool_path("ssa2son")], stdin=s.stdout, stdout=out, check=True)
    opt = tmp_path / (c_file.stem + ".O2.son")
    tool("sonopt", "-O2", son, "-o", opt)
    return tool("pipe-fmt", opt, "-f", "text").stdout.decode()


def test_vectorizable_loops_become_vector_loops(tmp_path):
    text = sonopt_O2(tmp_path, ROOT / "tests" / "c" / "vec_loops.c")
    ops = {op: text.count(f'v128.apply "{op}"') for op in
           ("paddd", "psubd", "pand", "por", "pxor", "pslldi", "psradi", "psrldi", "paddq", "psubq", "psllqi",
            "psrlqi", "mulps", "addps", "divps", "subps", "xorps", "mulpd", "subpd", "divpd", "addpd", "andnpd",
            "pcmpgtd", "pcmpeqd", "pandn")}  # the last three: min, max and a select on != (compare and blend)
    missing = [op for op, count in ops.items() if count == 0]
    assert not missing, (missing, text.count("v128.load"))
    assert text.count("v128.store") >= 14 and text.count("v128.splat") >= 4
    assert text.count('v128.extract "i32", 0') >= 2 and text.count('v128.extract "i64", 0') >= 1  # the sums


def test_loops_that_must_stay_scalar(tmp_path):
    text = sonopt_O2(tmp_path, ROOT / "tests" / "c" / "vec_not.c")
    assert "v128." not in text, [line for line in text.splitlines() if "v128." in line][:10]


def test_vectorize_is_idempotent(tmp_path):
    sonopt_O2(tmp_path, ROOT / "tests" / "c" / "vec_loops.c")
    once = tmp_path / "vec_loops.O2.son"
    again = tmp_path / "again.son"
    tool("sonopt", "-O2", once, "-o", again)
    assert again.read_bytes() == once.read_bytes()


@pytest.mark.skipif(not shutil.which("gcc"), reason="gcc is not installed")
def test_fp_matmul_inner_loop_is_two_doubles_per_instruction(tmp_path):
    kernels = ROOT / "scripts" / "kernels"
    src = kernels / "fp_matmul.c"
    asm, ours, ref = tmp_path / "m.s", tmp_path / "ours", tmp_path / "ref"
    tool("pipecc", "-O2", "-S", "-I", kernels, "-o", asm, src)
    text = asm.read_text()
    assert "mulpd" in text and "addpd" in text, text[:3000]
    tool("pipecc", "-O2", "-I", kernels, "-o", ours, src)
    subprocess.run(["gcc", "-O2", "-I", str(kernels), "-o", str(ref), str(src)], check=True)
    want = subprocess.run([str(ref), "2"], stdout=subprocess.PIPE, check=True).stdout
    assert subprocess.run([str(ours), "2"], stdout=subprocess.PIPE, check=True).stdout == want


ANTI = """module son
extern function printf(ptr, ...) -> i32
data internal readonly fmt size 9 align 1 init x"256c6c7820256400"
data internal buf size 16 align 16 init x"0100000000000000ffffffffffffffff"

pipeline main() -> i32 {
  i0 = start
  i1 = entrymem ^i0
  i2 = symaddr "buf"
  i3 = const "i64", 7
  i4 = store ^i0, "i64", i1, i2, i3
  i5 = v128.load ^i0, i1, i2
  i6 = v128.extract "i64", 0, i5
  i7 = symaddr "printf"
  i8 = symaddr "fmt"
  i9 = const "i32", 0
  i10 = call ^i0, "i32", "(ptr, ...)", i4, i7, i8, i6, i9
  i11 = proj 0, i10
  i12 = return ^i0, i11, i9
}
"""


def test_vector_load_runs_before_a_store_of_its_memory_state(tmp_path):
    """v128.load reads the memory state the store replaces: every level
    (pipe-run's son schedule included) runs it before the store."""
    son = tmp_path / "anti.son.txt"
    son.write_text(ANTI)
    modules, exe = through_back_end(son, tmp_path, False)
    for m in modules:
        proc = run_tool("pipe-run", m, timeout=60)
        assert proc.returncode == 0 and proc.stdout == b"1 0", (m.name, proc.stdout, proc.stderr.decode())
    assert subprocess.run([str(exe)], stdout=subprocess.PIPE, check=True).stdout == b"1 0"
