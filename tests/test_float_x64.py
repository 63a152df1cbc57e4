"""Floating point through the back end (issue 18): son-level programs with
f32/f64 values lowered by son-lower-x64 (SSE2 scalar code), scheduled by
son2cfg, optionally optimized by cfgopt -O2, allocated by regalloc-x64 (the
second register class, xmm0-xmm15) and compiled by codegen-x64, run by
pipe-run at son-x64, cfg-x64 and ra-x64 and natively; every run prints the
same as the reference:

- the float opcode program of test_pipe_run.py (every opcode on edge
  values: signed zeros, subnormals, infinities, NaN payloads, every
  predicate, every conversion at its limits) against gcc's build of the
  same operations;
- tests/float_abi_program.py (the System V float ABI: f32/f64 parameters
  and results, more floating arguments than xmm registers, a variadic
  definition reading doubles and longs with va_arg, printf of doubles with
  al set) against its own son-level run;
- tests/float_loop_program.py (more f64 phis than xmm registers, rotations
  and swaps of xmm values on the back edge, a call on every trip, which
  destroys every xmm register, conversions between the classes) against
  its own son-level run.

The stage goldens (tests/stages/son-lower-x64/f*.in.txt, regalloc-x64/
xmm.in.txt), codegen's per-opcode CPU test (tests/codegen-x64/gen_ops.py)
and the verifier cases (tests/verify/l_*.txt, h_xmm_classes.txt) cover the
pieces one by one."""
import shutil
import subprocess

import pytest

from conftest import run_tool, tool_path
from float_abi_program import abi_program
from float_loop_program import loop_program
from test_pipe_run import float_program_and_gcc_output


def through_back_end(son, tmp_path, optimize):
    """The son module at son-x64, cfg-x64 (cfgopt -O2 when optimize) and
    ra-x64, and a native executable: their paths."""
    sonx, cfgx, ra, obj, exe = (tmp_path / n for n in ("p.sonx", "p.cfgx", "p.ra", "p.o", "p"))
    run_tool("son-lower-x64", son, "-o", sonx)
    run_tool("son2cfg", sonx, "-o", cfgx)
    if optimize:
        opt = tmp_path / "p.opt"
        run_tool("cfgopt", "-O2", cfgx, "-o", opt)
        cfgx = opt
    run_tool("regalloc-x64", cfgx, "-o", ra)
    run_tool("codegen-x64", ra, "-f", "obj", "-o", obj)
    subprocess.run(["cc", "-o", exe, obj], check=True)
    return [sonx, cfgx, ra], exe


def check_everywhere(son, want, tmp_path, optimize):
    modules, exe = through_back_end(son, tmp_path, optimize)
    runs = {m.name: run_tool("pipe-run", m, check=0, timeout=120) for m in modules}
    runs["native"] = subprocess.run([str(exe)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    for where, proc in runs.items():
        assert proc.returncode == 0, f"{where}: {proc.stderr.decode()[:2000]}"
        got = proc.stdout.decode()
        diff = [f"{where}: {g!r}, expected {w!r}" for g, w in zip(got.splitlines(), want.splitlines()) if g != w]
        assert not diff, "\n".join(diff[:30])
        assert got == want, where


@pytest.mark.skipif(not shutil.which("gcc"), reason="gcc is not installed")
@pytest.mark.parametrize("optimize", [False, True], ids=["O0", "cfgopt-O2"])
def test_float_opcodes_everywhere_match_gcc(tmp_path, optimize):
    p, want = float_program_and_gcc_output(tmp_path, printf_doubles=False)
    assert want.count("\n") > 1000
    son = tmp_path / "floats.son.txt"
    son.write_text(p.text("son"))
    check_everywhere(son, want, tmp_path, optimize)


@pytest.mark.parametrize("k, trips", [(20, 40), (5, 3), (16, 7)])
@pytest.mark.parametrize("optimize", [False, True], ids=["O0", "cfgopt-O2"])
def test_float_loop_with_pressure_cycles_and_calls(tmp_path, k, trips, optimize):
    son = tmp_path / "loop.son.txt"
    son.write_text(loop_program(k, trips))
    want = run_tool("pipe-run", son).stdout.decode()
    assert want.count("trip ") == trips
    check_everywhere(son, want, tmp_path, optimize)
    if k > 16:  # more f64 values live than xmm registers: the allocator spilled some
        stats = run_tool("regalloc-x64", tmp_path / "p.opt" if optimize else tmp_path / "p.cfgx", "-o", tmp_path / "x",
                         "--stats").stderr.decode()
        assert " 0 spills" not in stats, stats


@pytest.mark.parametrize("optimize", [False, True], ids=["O0", "cfgopt-O2"])
def test_float_abi_everywhere(tmp_path, optimize):
    son = tmp_path / "abi.son.txt"
    son.write_text(abi_program())
    want = run_tool("pipe-run", son).stdout.decode()
    assert want.count("\n") == 5 and "-22.937500" in want
    check_everywhere(son, want, tmp_path, optimize)


INTEROP_C = r"""
#include <stdio.h>
double gscale(double x, float y, int n, double z) { return x * y + n - z; }
float gmix(float a, double b, float c, long k, double d, double e, double f, double g, double h, double i)
{ return (float)(a + b * c + k + d - e + f * g - h / i); }
double ours(double, float, int);
float ours_many(double, double, double, double, double, double, double, double, double, float, long);
int main(void) {
  printf("%.17g\n", ours(1.5, -2.25f, 7));
  printf("%.9g\n", (double)ours_many(1, 2, 3, 4, 5, 6, 7, 8, 9.5, 10.25f, -3));
  return 0;
}
"""


@pytest.mark.skipif(not shutil.which("gcc"), reason="gcc is not installed")
def test_float_interop_with_gcc(tmp_path):
    """Our code and gcc's call each other with float and double arguments
    and results (more than eight, and interleaved with integers): a gcc main
    calls our `ours` and `ours_many`, which call gcc's `gscale` and `gmix`;
    the output equals the same program built by gcc alone."""
    f = ["module son", "extern function gscale(f64, f32, i32, f64) -> f64",
         "extern function gmix(f32, f64, f32, i64, f64, f64, f64, f64, f64, f64) -> f32", "",
         "pipeline ours(f64, f32, i32) -> f64 {", "  i0 = start", "  i1 = entrymem ^i0",
         '  i2 = param ^i0, "f64", 0', '  i3 = param ^i0, "f32", 1', '  i4 = param ^i0, "i32", 2',
         '  i5 = symaddr "gscale"', '  i6 = fconst "f64", 0.125',
         '  i7 = call ^i0, "f64", i1, i5, i2, i3, i4, i6', "  i8 = proj 0, i7", "  i9 = proj 1, i7",
         '  i10 = fadd "f64", i9, i2', "  i11 = return ^i0, i8, i10", "}", "",
         "pipeline ours_many(f64, f64, f64, f64, f64, f64, f64, f64, f64, f32, i64) -> f32 {",
         "  i0 = start", "  i1 = entrymem ^i0"]
    for k in range(9):
        f.append(f'  i{2 + k} = param ^i0, "f64", {k}')
    f += ['  i11 = param ^i0, "f32", 9', '  i12 = param ^i0, "i64", 10', '  i13 = symaddr "gmix"',
          '  i14 = fptrunc "f64", "f32", i10',
          "  i15 = call ^i0, \"f32\", i1, i13, i11, i2, i14, i12, i3, i4, i5, i6, i7, i8",
          "  i16 = proj 0, i15", "  i17 = proj 1, i15", "  i18 = return ^i0, i16, i17", "}"]
    son = tmp_path / "ours.son.txt"
    son.write_text("\n".join(f) + "\n")
    c = tmp_path / "main.c"
    c.write_text(INTEROP_C)
    modules, _ = through_back_end_object(son, tmp_path)
    exe = tmp_path / "mixed"
    subprocess.run(["gcc", "-O2", "-o", exe, c, modules], check=True)
    got = subprocess.run([str(exe)], stdout=subprocess.PIPE, check=True).stdout.decode()
    ref_c = tmp_path / "ref.c"
    ref_c.write_text(INTEROP_C.replace("double ours(double, float, int);", "")
                     .replace("float ours_many(", "float ours_many_decl(") + r"""
double ours(double x, float y, int n) { return gscale(x, y, n, 0.125) + x; }
float ours_many(double a, double b, double c, double d, double e, double f, double g, double h, double i,
                float j, long k) { return gmix(j, a, (float)i, k, b, c, d, e, f, g); }
""")
    ref = tmp_path / "ref"
    src = ref_c.read_text()
    # ours/ours_many are defined after main in the reference: declare them first.
    src = src.replace("int main(void) {", "double ours(double, float, int);\nfloat ours_many(double, double, double, double, "
                      "double, double, double, double, double, float, long);\nint main(void) {")
    ref_c.write_text(src)
    subprocess.run(["gcc", "-O0", "-o", ref, ref_c], check=True)
    want = subprocess.run([str(ref)], stdout=subprocess.PIPE, check=True).stdout.decode()
    assert got == want and got.count("\n") == 2


def through_back_end_object(son, tmp_path):
    sonx, cfgx, ra, obj = (tmp_path / n for n in ("o.sonx", "o.cfgx", "o.ra", "o.o"))
    run_tool("son-lower-x64", son, "-o", sonx)
    run_tool("son2cfg", sonx, "-o", cfgx)
    run_tool("regalloc-x64", cfgx, "-o", ra)
    run_tool("codegen-x64", ra, "-f", "obj", "-o", obj)
    return obj, ra


SQRT_ERRNO_C = r"""
#include <errno.h>
#include <math.h>
#include <stdio.h>
double by_name(double x) { return sqrt(x); }
float by_name_f(float x) { return sqrtf(x); }
double builtin(double x) { return __builtin_sqrt(x); }
int main(void) {
  volatile double args[] = {9.0, -4.0, NAN, -0.0, -INFINITY};
  for (int i = 0; i < 5; i++) {
    errno = 0; double a = by_name(args[i]); int e1 = errno;
    errno = 0; double b = builtin(args[i]); int e2 = errno;
    errno = 0; float c = by_name_f((float)args[i]); int e3 = errno;
    printf("%g %d %g %d %g %d\n", a, e1, b, e2, (double)c, e3);
  }
  return 0;
}
"""


@pytest.mark.skipif(not shutil.which("gcc"), reason="gcc is not installed")
@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_sqrt_sets_errno_as_gcc(tmp_path, level):
    """sqrt, sqrtf and __builtin_sqrt become sqrtsd/sqrtss with the library
    call only for a negative argument (c2ast floats.cpp): errno is EDOM
    exactly where gcc's build sets it, and the square roots are the same."""
    src = tmp_path / "sq.c"
    src.write_text(SQRT_ERRNO_C)
    ref, ours = tmp_path / "ref", tmp_path / "ours"
    subprocess.run(["gcc", "-O2", "-o", ref, src, "-lm"], check=True)
    subprocess.run([tool_path("pipecc"), level, "-o", ours, src, "-lm"], check=True)
    want = subprocess.run([str(ref)], stdout=subprocess.PIPE, check=True).stdout
    assert subprocess.run([str(ours)], stdout=subprocess.PIPE, check=True).stdout == want
    assert want.decode().splitlines()[1].split()[1] != "0"  # EDOM for sqrt(-4)


SQRTL_ERRNO_C = r"""
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
static void show(long double v) {
  unsigned char b[10];
  memcpy(b, &v, 10);
  for (int i = 9; i >= 0; --i) printf("%02x", b[i]);
}
int main(void) {
  static const long double in[] = {4.0L, 2.0L, 0.0L, -0.0L, -1.0L, -1e-4000L, 1e4000L, 1e-4000L};
  int n = 0;
  for (unsigned i = 0; i < sizeof in / sizeof in[0]; ++i) {
    errno = 0;
    long double r = sqrtl(in[i]);
    show(in[i]); printf(" "); show(r); printf(" %d\n", errno);
    n += errno == EDOM;
  }
  long double inf = HUGE_VALL, nan = __builtin_nanl("");
  errno = 0; long double r = sqrtl(-inf); printf("-inf %d %d\n", isnan(r) != 0, errno);
  errno = 0; r = sqrtl(inf); printf("inf %d %d\n", isinf(r) != 0, errno);
  errno = 0; r = sqrtl(nan); printf("nan %d %d\n", isnan(r) != 0, errno);
  errno = 0; r = __builtin_sqrtl(-2.0L * n); printf("builtin %d %d\n", isnan(r) != 0, errno);
  return n;
}
"""


@pytest.mark.skipif(not shutil.which("gcc"), reason="gcc is not installed")
@pytest.mark.parametrize("level", ["-O0", "-O1", "-O2"])
def test_sqrtl_sets_errno_as_gcc(tmp_path, level):
    """sqrtl and __builtin_sqrtl are fsqrt with the library's sqrtl only for
    a negative argument, as gcc's code (c2ast floats.cpp, f80_builtin):
    errno is EDOM for -1, a negative subnormal and -inf, untouched for -0.0,
    NaN and +inf, and every result has gcc's 10 bytes. (__builtin_sqrtl
    with errno was refused by name before.)"""
    src = tmp_path / "sql.c"
    src.write_text(SQRTL_ERRNO_C)
    ref, ours = tmp_path / "ref", tmp_path / "ours"
    subprocess.run(["gcc", "-O2", "-o", ref, src, "-lm"], check=True)
    subprocess.run([tool_path("pipecc"), level, "-o", ours, src, "-lm"], check=True)
    want = subprocess.run([str(ref)], stdout=subprocess.PIPE)
    got = subprocess.run([str(ours)], stdout=subprocess.PIPE)
    assert (got.stdout, got.returncode) == (want.stdout, want.returncode)
    assert want.returncode == 2 and b"-inf 1 34" not in want.stdout


@pytest.mark.parametrize("flag, calls", [([], True), (["-fno-math-errno"], False)])
def test_sqrtl_is_fsqrt_with_the_call_only_for_errno(tmp_path, flag, calls):
    """sqrtl is x87 fsqrt inline; with errno on, the call to sqrtl is kept
    for a negative argument (a compare before it), with errno off it goes."""
    src = tmp_path / "sql.c"
    src.write_text("#include <math.h>\nlong double f(long double x) { return sqrtl(x); }\n")
    asm = tmp_path / "sql.s"
    subprocess.run([tool_path("pipecc"), "-O2", "-S", *flag, "-o", asm, src], check=True)
    text = asm.read_text()
    assert "fsqrt" in text
    assert ("sqrtl@PLT" in text) == calls
    assert ("fucompi" in text) == calls


@pytest.mark.parametrize("flag, calls", [([], True), (["-fno-math-errno"], False)])
def test_sqrt_without_errno_is_one_instruction(tmp_path, flag, calls):
    """With errno off, sqrt is sqrtsd alone: no call to the library."""
    src = tmp_path / "sq.c"
    src.write_text("#include <math.h>\ndouble f(double x) { return sqrt(x); }\n")
    asm = tmp_path / "sq.s"
    subprocess.run([tool_path("pipecc"), "-O2", "-S", *flag, "-o", asm, src], check=True)
    text = asm.read_text()
    assert "sqrtsd" in text
    assert ("sqrt@PLT" in text or "callq\tsqrt" in text) == calls
