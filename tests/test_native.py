"""Native programs: C through every stage with pipecc, held to gcc.

  - the C corpus (tests/c/*.c) built by `pipecc -O0` and `pipecc -O2` runs
    like gcc's build (stdout, stderr, exit status; each compiled to an
    object with -c, then linked by pipecc); at -O0 the `.s` output,
    assembled by `as` and linked, runs the same too (one test per program
    does the three builds);
  - the csmith seeds of tests/test_csmith.py, natively at -O0 and -O2;
  - interoperation (tests/interop/): a.c and b.c call each other with every
    argument and result shape; each is built by gcc and by pipecc, and every
    combination, linked with callee_saved.s (which checks rbx, rbp and r12 to
    r15 across a call into either side), prints what the all-gcc build
    prints; the same for the variadic pair va_a.c and va_b.c, and for fa.c
    and fb.c (structs and unions with float and double members: every
    System V class shape by value both ways, through `...` and va_arg), and
    for ca.c and cb.c (_Complex float, double and integer values, alone and
    as struct members, as arguments and results, spilled to the stack,
    through `...` and va_arg, with libgcc's multiply and divide helpers);
    for ia.c and ib.c (__int128 in register pairs, on the stack after five
    longs, as results, in structs, through `...` and va_arg);
    for lda.c and ldb.c (long double arguments, st(0) results, structs
    holding long doubles, long doubles through `...`; _Complex long double
    arguments in memory, results in st(0) and st(1), through `...`);
    for oa.c and ob.c (structs aligned to 32 and 64 bytes on the stack,
    named and through `...`, at four stack depths: the caller realigns rsp);
    for va.c and vb.c (GNU C vectors: 8-byte ones in xmm registers, alone,
    in structs, on the stack, through `...` and va_arg; 4-byte ones in
    general registers; 32-byte ones in memory, and as results; 16-byte ones
    in one xmm register each, among doubles, past the eighth on the stack,
    in xmm0 as results, as a struct's only member, through `...` and
    va_arg, and through a function pointer);
    for ta.c and tb.c (thread-local variables defined on each side and used
    on the other: local-exec and initial-exec, on three threads;
    tests/test_tls.py builds them with -fPIC too);
    for sja.c and sjb.c (gcc's __builtin_setjmp buffer written by one
    compiler and longjmp'd to by the other, frames below; the frame-pointer
    chain read by __builtin_frame_address(1)/__builtin_return_address(1));
  - `make CC=pipecc` builds tests/make_project (separate compilation, ar, -L
    and -l) into a program that runs like the gcc-built one;
  - with -g, addr2line maps a call instruction back to its C line.

Every object pipecc compiles here (the corpus and csmith at -O0 and -O2, the
interop files, the make project's objects) must define the same global
symbols, with the same nm letter, as gcc's object of the same file at the
same level (tests/symbols.py).
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from conftest import BUILD, ROOT

sys.path.insert(0, str(ROOT / "tests" / "c"))
import pipeline  # noqa: E402  (tests/c/pipeline.py)
import symbols  # noqa: E402  (tests/symbols.py: global symbols against gcc's)

PIPECC = BUILD / "pipecc"
CORPUS = sorted((ROOT / "tests" / "c").glob("*.c"))
INTEROP = ROOT / "tests" / "interop"
RUN_TIMEOUT = 20


def need_pipecc():
    for name in ("pipecc", "regalloc-x64", "codegen-x64"):
        if not (BUILD / name).exists():
            pytest.fail(f"{BUILD / name} is not built; run scripts/test")


def compile_with(compiler, args, cwd=None):
    """Runs `compiler args`; fails the test with its stderr (and, for pipecc,
    the pipeline it ran, from -v) when it does not exit 0."""
    argv = [str(compiler), *map(str, args)]
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300, cwd=cwd)
    if p.returncode != 0:
        pytest.fail(f"$ {pipeline.shlex.join(argv)}\nexit {p.returncode}\n{pipeline.tail(p.stderr, 30)}")


def differs(want, got, what, rebuild):
    """None if `got` behaves as `want`, else a description of the difference."""
    if got.same_as(want):
        return None
    return (f"{what}: {pipeline.describe_status(got.status)}, gcc's build: {pipeline.describe_status(want.status)}\n"
            f"  {pipeline.first_difference(want.stdout, got.stdout, 'ours')}\n"
            f"  stderr:\n{pipeline.tail(got.stderr)}\n  rebuild: {rebuild}")


class GccOracle:
    """Builds and runs each corpus program with gcc once per session (worker)."""

    def __init__(self, workdir):
        self.workdir = workdir
        self.cache = {}

    def expected(self, src, cflags=()):
        if src not in self.cache:
            want, problem = pipeline.gcc_behaviour(src, self.workdir / src.stem, cflags)
            if problem:
                pytest.fail(problem)
            self.cache[src] = want
        return self.cache[src]


@pytest.fixture(scope="module")
def gcc(tmp_path_factory):
    return GccOracle(tmp_path_factory.mktemp("gcc-native"))


def native_builds(src, tmp_path, cflags=()):
    """pipecc -O0 and -O2 (each to an object, whose global symbols must be
    gcc's at the same level, then linked by pipecc), pipecc -O0 -S + as:
    ({name: (executable, shell commands that rebuild and run it)},
    [symbol differences])."""
    need_pipecc()
    stem = src.stem
    flags = " ".join(pipeline.shlex.quote(str(f)) for f in cflags)
    out = f"/tmp/{stem}"
    exes, problems = {}, []
    for opt in ("-O0", "-O2"):
        obj = tmp_path / f"{stem}{opt}.o"
        compile_with(PIPECC, [opt, "-w", *cflags, "-c", src, "-o", obj])
        problem = symbols.check_against_gcc(obj, src, opt, tmp_path, cflags)
        if problem:
            problems.append(f"pipecc {opt} -c: {problem}")
        exe = tmp_path / f"{stem}{opt}"
        compile_with(PIPECC, [obj, "-o", exe, "-lm"])
        exes[f"pipecc {opt}"] = (exe, f"build/pipecc {opt} {flags} {pipeline.q(src)} -o {out} -lm && {out}")
    asm = tmp_path / f"{stem}.s"
    compile_with(PIPECC, ["-O0", "-S", "-w", *cflags, src, "-o", asm])
    exe = tmp_path / f"{stem}-from-asm"
    compile_with("gcc", [asm, "-o", exe, "-lm"])   # gcc as the driver: `as`, then the link
    exes["pipecc -O0 -S, as"] = (exe, f"build/pipecc -O0 -S {flags} {pipeline.q(src)} -o {out}.s && "
                                      f"gcc {out}.s -o {out} -lm && {out}")
    return exes, problems


def check_native(src, want, tmp_path, cflags=()):
    exes, problems = native_builds(src, tmp_path, cflags)
    for what, (exe, rebuild) in exes.items():
        got = pipeline.run_process([str(exe)], RUN_TIMEOUT)
        problem = differs(want, got, what, rebuild)
        if problem:
            problems.append(problem)
    assert not problems, f"{src.name}:\n" + "\n".join(problems)


@pytest.mark.parametrize("src", CORPUS, ids=lambda p: p.stem)
def test_corpus_native(src, gcc, tmp_path):
    check_native(src, gcc.expected(src), tmp_path)


def load_csmith_diff():
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader("csmith_diff", str(ROOT / "scripts" / "csmith-diff"))
    spec = importlib.util.spec_from_loader("csmith_diff", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


# tests/test_csmith.py's seeds (bit-fields and packed structs on).
CSMITH_SEEDS = [1, 3, 4, 5, 7, 8, 10, 12, 13, 15, 16, 18, 20, 26, 27, 30, 35, 46, 55, 56]


@pytest.mark.parametrize("seed", CSMITH_SEEDS)
def test_csmith_native(seed, tmp_path):
    csmith_diff = load_csmith_diff()
    if shutil.which("csmith") is None:
        pytest.fail("csmith is not installed (scripts/test installs it)")
    src = tmp_path / f"csmith-{seed}.c"
    gen = subprocess.run(csmith_diff.csmith_command(seed, src, csmith_diff.CSMITH_FLAGS),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert gen.returncode == 0, gen.stderr.decode()
    cflags = ["-I", csmith_diff.CSMITH_INCLUDE]
    want, problem = pipeline.gcc_behaviour(src, tmp_path / f"csmith-{seed}-gcc", cflags, timeout=5)
    assert problem is None, problem
    check_native(src, want, tmp_path, cflags)


def build_mixed(tmp_path, sources, builders, extra=()):
    """Compiles sources[i] with builders[i] ('gcc' or 'pipecc') to objects,
    links them (and `extra`) with gcc, returns the executable."""
    objs = []
    for src, who in zip(sources, builders):
        obj = tmp_path / f"{src.stem}.{who}.o"
        compiler = PIPECC if who == "pipecc" else "gcc"
        compile_with(compiler, ["-O0" if who == "gcc" else "-O2", "-w", "-c", src, "-o", obj])
        if who == "pipecc":
            problem = symbols.check_against_gcc(obj, src, "-O2", tmp_path)
            assert problem is None, problem
        objs.append(obj)
    exe = tmp_path / ("-".join(f"{s.stem}_{w}" for s, w in zip(sources, builders)))
    compile_with("gcc", [*objs, *extra, "-o", exe])
    return exe


COMBINATIONS = [("pipecc", "gcc"), ("gcc", "pipecc"), ("pipecc", "pipecc")]


@pytest.mark.parametrize("pair", [("a.c", "b.c"), ("va_a.c", "va_b.c"), ("fa.c", "fb.c"), ("ca.c", "cb.c"),
                                  ("ia.c", "ib.c"), ("lda.c", "ldb.c"), ("oa.c", "ob.c"), ("va.c", "vb.c"),
                                  ("ta.c", "tb.c"), ("sja.c", "sjb.c")],
                         ids=["shapes", "variadic", "float_shapes", "complex", "int128", "long_double",
                              "overaligned", "vectors", "tls", "builtin_setjmp"])
@pytest.mark.parametrize("builders", COMBINATIONS, ids=["-".join(c) for c in COMBINATIONS])
def test_interop(pair, builders, tmp_path):
    need_pipecc()
    sources = [INTEROP / name for name in pair]
    extra = [INTEROP / "callee_saved.s"] if pair[0] == "a.c" else []
    reference = build_mixed(tmp_path, sources, ("gcc", "gcc"), extra)
    want = pipeline.run_process([str(reference)], RUN_TIMEOUT)
    assert want.status == 0 and want.stdout, "the all-gcc build must run cleanly"
    exe = build_mixed(tmp_path, sources, builders, extra)
    got = pipeline.run_process([str(exe)], RUN_TIMEOUT)
    what = " + ".join(f"{s} by {w}" for s, w in zip(pair, builders))
    problem = differs(want, got, what, f"see {exe}")
    assert problem is None, problem


def test_an_argument_aligned_above_64_bytes_on_the_stack_is_refused_by_name(tmp_path):
    """A caller realigns its stack to 64 bytes at most (stack_realign): an
    argument aligned to more is refused, with the node, and no object."""
    need_pipecc()
    src = tmp_path / "a128.c"
    src.write_text("struct __attribute__((aligned(128))) Big { long x[4]; };\n"
                   "void take(struct Big b);\nvoid give(struct Big *p) { take(*p); }\n")
    obj = tmp_path / "a128.o"
    proc = subprocess.run([str(PIPECC), "-O2", "-c", str(src), "-o", str(obj)], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    assert proc.returncode == 1
    assert ("function 'give': i" in proc.stderr.decode() and
            "unsupported: an argument aligned to 128 bytes passed on the stack (at most 64)" in proc.stderr.decode())
    assert not obj.exists()


def test_make_with_pipecc_as_cc(tmp_path):
    need_pipecc()
    results = {}
    for cc in ("gcc", str(PIPECC)):
        work = tmp_path / pathlib.Path(cc).name
        shutil.copytree(ROOT / "tests" / "make_project", work)
        make = subprocess.run(["make", "-s", f"CC={cc}"], cwd=work, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=300)
        assert make.returncode == 0, f"make CC={cc}:\n{make.stderr.decode()}"
        results[cc] = pipeline.run_process([str(work / "prog")], RUN_TIMEOUT)
    want, got = results["gcc"], results[str(PIPECC)]
    assert want.status == 0 and b"29 words" in want.stdout
    for obj in ("main.o", "words.o", "table.o"):   # the same CFLAGS built both
        problem = symbols.compare_objects(tmp_path / "pipecc" / obj, tmp_path / "gcc" / obj)
        assert problem is None, problem
    assert got.same_as(want), differs(want, got, "make CC=pipecc", str(tmp_path))


DEBUG_SOURCE = """\
#include <stdio.h>
int marker(int x) { return x * 3; }
int main(void) {
  int total = 0;
  for (int i = 0; i < 4; i++) {
    total += i;
    total = marker(total);
  }
  printf("%d\\n", total);
  return 0;
}
"""


def test_debug_lines_map_back_to_c(tmp_path):
    need_pipecc()
    src = tmp_path / "lines.c"
    src.write_text(DEBUG_SOURCE)
    exe = tmp_path / "lines"
    compile_with(PIPECC, ["-g", "-O0", src, "-o", exe])
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(exe)], stdout=subprocess.PIPE,
                         check=True).stdout.decode()
    main = dis[dis.index("<main>:"):]
    main = main[:main.index("\n\n")]
    calls = re.findall(r"^\s*([0-9a-f]+):\s+call\s+[0-9a-f]+ <(\w+)(?:@plt)?>", main, re.M)
    by_callee = {callee: addr for addr, callee in calls}
    assert "marker" in by_callee and "printf" in by_callee, main
    want = {"marker": 7, "printf": 9}
    for callee, line in want.items():
        out = subprocess.run(["addr2line", "-e", str(exe), by_callee[callee]], stdout=subprocess.PIPE,
                             check=True).stdout.decode().strip()
        assert out.endswith(f"lines.c:{line}"), f"call to {callee} at 0x{by_callee[callee]} maps to {out}"


UNITY = sorted((ROOT / "tests" / "unity").glob("*.c"))
# Issue 17 item 2: c2ast dropped the definitions of an included file that
# the main file did not use.


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
@pytest.mark.parametrize("src", UNITY, ids=lambda p: p.stem)
def test_included_definitions_reach_the_object(src, opt, tmp_path):
    """tests/unity/: unity builds, single-header libraries, a file included
    twice; the object defines what gcc's does."""
    need_pipecc()
    obj = tmp_path / f"{src.stem}.o"
    compile_with(PIPECC, [opt, "-w", "-c", src, "-o", obj])
    problem = symbols.check_against_gcc(obj, src, opt, tmp_path)
    assert problem is None, problem


def test_symbol_check_sees_each_kind_of_difference():
    gccs = {"f": "T", "d": "D", "z": "B", "w": "V"}
    assert symbols.difference(dict(gccs), gccs) is None
    got = symbols.difference({"f": "T", "d": "D", "z": "D", "w": "B", "x": "T"}, gccs)
    assert got.splitlines() == ["w: B (gcc's: V)", "x: extra T (not defined by gcc's)", "z: D (gcc's: B)"]
    assert symbols.difference({"f": "T", "z": "B", "w": "V"}, gccs) == "d: missing (gcc's: D)"


def test_symbol_table_of_a_gcc_object(tmp_path):
    src = tmp_path / "kinds.c"
    src.write_text("int d = 1; int z; const int r = 2; static int s; __attribute__((weak)) int w;\n"
                   "__attribute__((weak)) void wf(void) {} int f(void) { return s; }\n")
    table = symbols.defined_globals(symbols.gcc_object(src, tmp_path / "kinds.o"))
    assert table == {"d": "D", "z": "B", "r": "R", "w": "V", "wf": "W", "f": "T"}


DIVISION_AFTER_EXIT = """
#include <stdlib.h>
volatile int va = 1, vb = 0;
__attribute__((noinline)) void leave(void) { exit(0); }
int main(void) { int a = va, b = vb; leave(); return a % b; }
"""


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_a_trapping_division_after_a_call_that_exits_never_runs(opt, tmp_path):
    """`leave(); return a % b;` with b == 0: leave() exits, so the division
    never runs and the program exits 0, as gcc's build does. (At son a
    division has no memory input: ssa2son gives it a block of its own
    beside effects, and simplify-cfg keeps it there.)"""
    src = tmp_path / "divcall.c"
    src.write_text(DIVISION_AFTER_EXIT)
    exe = tmp_path / "divcall"
    subprocess.run([PIPECC, opt, src, "-o", exe], check=True, timeout=60)
    assert subprocess.run([exe], timeout=10).returncode == 0


# -finstrument-functions and gcc's exclusion lists (stages/c2ast/instrument.cpp):
# the hooks' trace of tests/instrument/profile_hooks.c, natively at every
# level and under pipe-run at every interpreter level (before and after
# sonopt -O2), must be gcc's.
INSTRUMENT = ROOT / "tests" / "instrument" / "profile_hooks.c"
INSTRUMENT_FLAGS = {
    "all": ["-finstrument-functions"],
    "excluded": ["-finstrument-functions", "-finstrument-functions-exclude-function-list=skip_,zzz",
                 "-finstrument-functions-exclude-file-list=excluded_helpers"],
}
C2AST_INSTRUMENT_ARGS = {
    "all": ["--", "-finstrument-functions"],
    "excluded": ["--instrument-exclude-function-list=skip_,zzz", "--instrument-exclude-file-list=excluded_helpers",
                 "--", "-finstrument-functions"],
}


@pytest.mark.parametrize("variant", sorted(INSTRUMENT_FLAGS))
def test_instrument_functions_calls_the_hooks_as_gcc(variant, tmp_path):
    need_pipecc()
    cflags = INSTRUMENT_FLAGS[variant]
    want, problem = pipeline.gcc_behaviour(INSTRUMENT, tmp_path / "gcc", cflags)
    assert not problem, problem
    assert b"> skip_me" in want.stdout or variant == "excluded"
    for opt in ("-O1",):  # check_native builds -O0 and -O2
        exe = tmp_path / f"pipecc{opt}"
        compile_with(PIPECC, [opt, *cflags, INSTRUMENT, "-o", exe])
        problem = differs(want, pipeline.run_process([str(exe)], RUN_TIMEOUT), f"pipecc {opt}", "")
        assert not problem, problem
    check_native(INSTRUMENT, want, tmp_path, cflags)
    pipe = pipeline.Pipeline(INSTRUMENT, tmp_path, c2ast_args=C2AST_INSTRUMENT_ARGS[variant], build=BUILD)
    problem = pipe.run() or pipe.optimize()
    assert not problem, problem
    problems = pipe.compare(want, pipe.run_levels())
    assert not problems, "\n".join(problems)


# asm goto's outputs on the paths to its labels (stages/c2ast/inline_asm.cpp):
# gcc 11 and later give them there too (clang 14 only on the fallthrough
# path, so this is no corpus program: tests/c/asm_goto.c holds the rest).
ASM_GOTO_OUTPUTS = r"""
#include <stdio.h>
static int decrement_to_zero(int x, int *left) {
  asm goto("decl %0\n\tjz %l[zero]\n\tdecl %0\n\tjz %l[zero]" : "+r"(x) : : "cc" : zero);
  *left = x;
  return 0;
zero:
  *left = x + 100;
  return 1;
}
static long pick(long a, long b) {
  long lo, hi;
  asm goto("movq %2, %0\n\tmovq %3, %1\n\tcmpq %3, %2\n\tjg %l[swap]" : "=&r"(lo), "=&r"(hi) : "r"(a), "r"(b) : "cc" : swap);
  return lo * 10 + hi;
swap:
  return hi * 10 + lo;
}
int main(void) {
  int left, r1 = decrement_to_zero(2, &left);
  printf("%d %d", r1, left);
  int r2 = decrement_to_zero(7, &left);
  printf(" %d %d %ld %ld\n", r2, left, pick(3, 5), pick(6, 2));
  return 0;
}
"""


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_asm_goto_outputs_reach_every_label(opt, tmp_path):
    src = tmp_path / "asm_goto_outputs.c"
    src.write_text(ASM_GOTO_OUTPUTS)
    want = subprocess.run(["gcc", "-O0", src, "-o", tmp_path / "gcc"], check=True, timeout=60)
    want = subprocess.run([tmp_path / "gcc"], stdout=subprocess.PIPE, timeout=10).stdout
    assert want == b"1 100 0 5 35 26\n"
    subprocess.run([PIPECC, opt, src, "-o", tmp_path / "ours"], check=True, timeout=60)
    assert subprocess.run([tmp_path / "ours"], stdout=subprocess.PIPE, timeout=10).stdout == want


@pytest.mark.parametrize("name", ["storage_order", "float_to_int_constant"])
def test_gcc_specific_programs_natively_at_every_level(name, tmp_path):
    """tests/c2ast/programs/ holds what the corpus may not (it is free of
    gcc-specific and undefined behaviour); test_c2ast runs them under
    pipe-run. Built by pipecc at -O0, -O1 and -O2, each prints what gcc's
    build prints and exits alike: storage_order.c, gcc's
    scalar_storage_order (stages/c2ast/storage_order.cpp: the bytes of
    big-endian structs, unions and bit-fields); float_to_int_constant.c,
    gcc's folding of out-of-range float-to-integer constants to the nearest
    bound (c2ast's saturated_conversion; c-torture 20031003-1)."""
    src = ROOT / "tests" / "c2ast" / "programs" / f"{name}.c"
    subprocess.run(["gcc", "-O0", "-w", src, "-o", tmp_path / "gcc"], check=True, timeout=60)
    want = subprocess.run([tmp_path / "gcc"], stdout=subprocess.PIPE, timeout=10)
    for opt in ("-O0", "-O1", "-O2"):
        exe = tmp_path / f"ours{opt}"
        subprocess.run([PIPECC, opt, "-w", src, "-o", exe], check=True, timeout=120)
        got = subprocess.run([exe], stdout=subprocess.PIPE, timeout=10)
        assert (got.returncode, got.stdout) == (want.returncode, want.stdout), f"pipecc {opt}"


# Library functions gcc expands or narrows as builtins (stages/c2ast/builtins.cpp,
# floats.cpp), observed as c-torture's 20021127-1 and 20030125-1 observe them:
# the file defines llabs and floor to abort, and floorf to return its argument.
LIBRARY_BUILTINS = r"""
#include <stdio.h>
#include <stdlib.h>
long long llabs(long long);
double floor(double);
float floorf(float);
long long llabs(long long x) { printf("llabs called\n"); exit(1); return x; }
__attribute__((weak)) double floor(double x) { printf("floor called\n"); exit(2); return x; }
__attribute__((weak)) float floorf(float x) { return x; }
int main(void) {
  volatile long long a = -5;
  volatile float f = 0.0f;
  printf("%lld\n", llabs(a) + labs(-a) + abs(-3));
#ifdef __OPTIMIZE__
  printf("%g %g\n", floor(f), (float)floor(f));  /* floorf (gcc expands it inline) */
#endif
  return 0;
}
"""


@pytest.mark.parametrize("flags", [["-O0"], ["-O1"], ["-O2"], ["-O2", "-fno-builtin"]], ids=" ".join)
def test_library_calls_gcc_expands_as_builtins(flags, tmp_path):
    """llabs, labs and abs inline at every level (the file's definition is
    never called), floor((double)f) never calls the file's weak floor when
    optimizing, and -fno-builtin turns the builtins off (llabs is called):
    as gcc's build."""
    src = tmp_path / "library_builtins.c"
    src.write_text(LIBRARY_BUILTINS)
    subprocess.run(["gcc", "-std=gnu11", "-w", *flags, src, "-o", tmp_path / "gcc"], check=True, timeout=60)
    want = subprocess.run([tmp_path / "gcc"], stdout=subprocess.PIPE, timeout=10)
    subprocess.run([PIPECC, "-w", *flags, src, "-o", tmp_path / "ours"], check=True, timeout=60)
    got = subprocess.run([tmp_path / "ours"], stdout=subprocess.PIPE, timeout=10)
    assert (got.returncode, got.stdout) == (want.returncode, want.stdout), f"pipecc {' '.join(flags)}"
