"""sonopt: the pass manager's flags, determinism, and --bisect-limit.

The per-pass goldens are tests/stages/sonopt/*.in.txt (their `# args:` line
names the passes); the C corpus (tests/test_c_programs.py) and the csmith
seeds (tests/test_csmith.py) run every program through sonopt -O2
--verify-each, check that a second -O2 run changes nothing, and hold
pipe-run's result on the optimized module to gcc's.
"""
import re
import subprocess

import pytest

from conftest import ROOT, run_tool, tool_path

LOOP = ROOT / "examples" / "c" / "loop.son.txt"
FIB = ROOT / "examples" / "c" / "fib.son.txt"
STRUCT = ROOT / "examples" / "c" / "struct.son.txt"


def sonopt_text(*args, check=0):
    return run_tool("sonopt", *args, "-f", "text", check=check)


def test_list_passes_shows_the_computed_schedule():
    out = run_tool("sonopt", "--list-passes", check=0).stdout.decode()
    assert "schedule at -O0:\n" in out, out
    assert "schedule at -O1: printf-fold idealize gvn scalar-replace implied-conds simplify-cfg dce inline constant-p\n" in out, out
    assert ("schedule at -O2: printf-fold licm loop-idiom exit-values unroll vectorize iv-reduce unroll-partial tail-recurse idealize gvn libcalls heap-to-stack split-copy scalar-replace load-forward dead-store implied-conds sccp if-convert simplify-cfg dce "
            "const-call "
            "inline constant-p inline-recursive\n") in out, out
    assert "test-miscompile  [test only, function]" in out, out


def test_O0_changes_nothing():
    text = run_tool("pipe-fmt", LOOP, "-f", "text", check=0).stdout
    assert sonopt_text(LOOP, "-O0").stdout == text


def test_unknown_pass_and_bad_level_are_usage_errors():
    proc = run_tool("sonopt", LOOP, "--passes=idealize,nosuch", "-f", "text", check=2)
    assert b"unknown pass 'nosuch'" in proc.stderr
    run_tool("sonopt", LOOP, "-O7", "-f", "text", check=2)
    run_tool("sonopt", LOOP, "--print-after=nosuch", "-f", "text", check=2)


def test_wrong_level_input_is_refused():
    proc = run_tool("sonopt", ROOT / "examples" / "c" / "loop.ssa.txt", "-f", "text", check=1)
    assert b"expected a module at level 'son'" in proc.stderr


def test_print_after_and_print_changed():
    err = sonopt_text(LOOP, "--print-after=gvn").stderr.decode()
    assert err.count("# after gvn on 'main'") >= 1 and "# after idealize" not in err, err
    assert "pipeline main() -> i32 {" in err, err
    err = sonopt_text(LOOP, "--print-changed").stderr.decode()
    headers = [line for line in err.splitlines() if line.startswith("# ")]
    assert headers and all(" changed 'main'" in h and " 0 changes" not in h for h in headers), err
    # A graph diff (pipe-diff's matching), not the whole function: idealize
    # turned `x % 256` into `x & 255`, and only that shows.
    idealize = err.split("# idealize changed 'main'")[1].split("\n# ")[0]
    assert "urem" in idealize and "= and " in idealize and "+ " in idealize, err
    assert "pipeline main() -> i32 {" not in err, err
    only_gvn = sonopt_text(LOOP, "--print-changed", "--print-after=gvn").stderr.decode()
    assert only_gvn.startswith("# gvn changed 'main'") and "# idealize" not in only_gvn, only_gvn


def test_print_changed_names_functions_a_module_pass_removed_or_changed():
    err = sonopt_text(FIB, "--print-changed", "--print-after=const-call").stderr.decode()
    main = err.split("# const-call changed 'main'")[1].split("\n# ")[0]
    assert "const \"i32\", 610" in main and "- i" in main, err
    assert "# const-call changed 'fib' (application" in err and "function removed" in err, err


def test_stats_names_each_pass_that_ran():
    err = sonopt_text(FIB, "--stats").stderr.decode()
    for name in ("idealize", "gvn", "split-copy", "scalar-replace", "load-forward", "dead-store", "implied-conds", "sccp", "if-convert",
                 "simplify-cfg", "dce", "inline", "const-call", "total"):
        assert f"\n{name} " in err, err


def test_output_is_deterministic_and_independent_of_the_input_encoding(tmp_path):
    json = tmp_path / "struct.json"
    run_tool("pipe-fmt", STRUCT, "-f", "json", "-o", json, check=0)
    a = sonopt_text(STRUCT, "-O2").stdout
    b = sonopt_text(STRUCT, "-O2").stdout
    c = sonopt_text(json, "-O2").stdout
    assert a == b == c


def test_O2_is_idempotent():
    once = sonopt_text(STRUCT, "-O2").stdout
    proc = subprocess.run([tool_path("sonopt"), "-", "-O2", "-f", "text", "--stats"], input=once,
                          capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == once
    total = [line for line in proc.stderr.decode().splitlines() if line.startswith("total")][0]
    assert total.split()[3] == "0", total   # no pass reported a change


def run_program(son, tmp_path, name):
    path = tmp_path / name
    path.write_bytes(son)
    proc = run_tool("pipe-run", path)
    return proc.returncode, proc.stdout


def test_bisect_limit_finds_the_wrong_application(tmp_path):
    """A deliberately wrong pass (test-miscompile) among right ones: the
    smallest --bisect-limit whose output misbehaves names that pass."""
    passes = "--passes=idealize,gvn,test-miscompile,dce"
    want = run_program(run_tool("pipe-fmt", FIB, "-f", "bin", check=0).stdout, tmp_path, "ref.bin")
    full = run_tool("sonopt", FIB, passes, "--bisect-limit=1000", "-f", "bin", check=0)
    assert b"beyond the last application" in full.stderr
    assert run_program(full.stdout, tmp_path, "full.bin") != want, "the test pass should miscompile fib"
    first_bad = None
    for n in range(0, 1000):
        proc = run_tool("sonopt", FIB, passes, f"--bisect-limit={n}", "-f", "bin", check=0)
        if run_program(proc.stdout, tmp_path, f"n{n}.bin") != want:
            first_bad = (n, proc.stderr.decode())
            break
    assert first_bad is not None
    n, err = first_bad
    assert f"bisect: application {n} is test-miscompile on function '" in err, err
    # Application n - 1 was still right, and a limit of 0 applies nothing.
    zero = run_tool("sonopt", FIB, passes, "--bisect-limit=0", "-f", "text", check=0).stdout
    assert zero == run_tool("pipe-fmt", FIB, "-f", "text", check=0).stdout


def test_check_each_names_the_application_that_changes_behaviour(tmp_path):
    """--check-each runs the program under pipe-run after every application
    that changed something and stops at test-miscompile's, naming it with
    its --bisect-limit number; that limit gives the first wrong module, and
    the one before it still behaves."""
    passes = "--passes=idealize,gvn,test-miscompile,dce"
    out = tmp_path / "out.bin"
    proc = run_tool("sonopt", FIB, passes, "--check-each", "-o", out, check=3)
    err = proc.stderr.decode()
    m = re.search(r"--check-each: pass 'test-miscompile' \(application (\d+), round 1\) on function '(\w+)' "
                  r"changed what the program does: (.*)\. Reproduce with --bisect-limit=(\d+)", err)
    assert m, err
    n = int(m.group(1))
    assert int(m.group(4)) == n and ("stdout differs" in m.group(3) or "exit status" in m.group(3)), err
    assert not out.exists(), "no output after a failed check"
    want = run_program(run_tool("pipe-fmt", FIB, "-f", "bin", check=0).stdout, tmp_path, "ref.bin")
    at = run_tool("sonopt", FIB, passes, f"--bisect-limit={n}", "-f", "bin", check=0).stdout
    before = run_tool("sonopt", FIB, passes, f"--bisect-limit={n - 1}", "-f", "bin", check=0).stdout
    assert run_program(at, tmp_path, "at.bin") != want and run_program(before, tmp_path, "before.bin") == want
    # Right passes pass the check, at -O2 too, and give the output they give without it.
    for flags in (["--passes=idealize,gvn,dce"], ["-O2"]):
        checked = run_tool("sonopt", FIB, *flags, "--check-each", "-f", "text").stdout
        assert checked == run_tool("sonopt", FIB, *flags, "-f", "text").stdout


def test_check_each_needs_an_input_that_runs_cleanly(tmp_path):
    """A program with a runtime error (undefined behaviour pipe-run sees)
    cannot be the reference: bad input, exit 1, no output."""
    src = tmp_path / "ub.c"
    src.write_text("int main(void) { int a[2]; int i = 2; a[0] = 1; return a[i]; }\n")
    son = tmp_path / "ub.son"
    for stage, inp, outp in (("c2ast", src, tmp_path / "ub.ast"), ("ast2cfg", tmp_path / "ub.ast", tmp_path / "ub.cfg"),
                             ("cfg2ssa", tmp_path / "ub.cfg", tmp_path / "ub.ssa"), ("ssa2son", tmp_path / "ub.ssa", son)):
        run_tool(stage, inp, "-o", outp)
    out = tmp_path / "out.son"
    proc = run_tool("sonopt", son, "-O2", "--check-each", "-o", out, check=1)
    assert b"--check-each: the input does not run cleanly under pipe-run" in proc.stderr, proc.stderr
    assert b"runtime error" in proc.stderr and not out.exists()
    # --check-unrunnable=skip: a warning, nothing checked, the output written.
    proc = run_tool("sonopt", son, "-O2", "--check-each", "--check-unrunnable=skip", "-o", out)
    assert b"warning: --check-each: the input does not run cleanly" in proc.stderr and out.exists()


def test_verify_each_accepts_every_pass_on_generated_graphs():
    """pipe-gen's random son modules through each pass alone, verified after
    every application."""
    for seed in range(1, 9):
        son = run_tool("pipe-gen", "--seed", seed, "--level", "son", "--nodes", 150, "-f", "bin", check=0).stdout
        for p in ("idealize", "gvn", "scalar-replace", "load-forward", "dead-store", "sccp", "simplify-cfg", "dce",
                  "inline", "const-call", "split-copy", "libcalls", "heap-to-stack", "printf-fold"):
            proc = subprocess.run([tool_path("sonopt"), "-", f"--passes={p}", "--verify-each", "-f", "bin"],
                                  input=son, capture_output=True, timeout=60)
            assert proc.returncode == 0, f"seed {seed}, pass {p}:\n{proc.stderr.decode()}"


CONST_CALLS = r"""
#include <stdio.h>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int is_even(unsigned n);
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static long collatz(long n) { long k = 0; while (n != 1) { n = n % 2 ? 3 * n + 1 : n / 2; ++k; } return k; }
static int ack(int m, int n) { return m == 0 ? n + 1 : n == 0 ? ack(m - 1, 1) : ack(m - 1, ack(m, n - 1)); }
static unsigned spin(unsigned n) { while (n != 0) n += 2; return n; }
static long sum(long n) { long s = 0; for (long i = 0; i < n; ++i) s += i ^ (s >> 3); return s; }
static int depth(int n) { return n == 0 ? 0 : depth(n - 1) + 1; }
int main(int argc, char **argv) {
  printf("%d %d %d %ld %d\n", fib(20), is_even(301), is_odd(1001), collatz(27), ack(2, 3));
  if (argc > 5) printf("%u %ld %d\n", spin(1), sum(100000000000), depth(100000000));
  return 0;
}
"""


def c_to_son(tmp_path, source, name):
    src = tmp_path / f"{name}.c"
    src.write_text(source)
    son = tmp_path / f"{name}.son"
    stages = [[tool_path("c2ast"), str(src)], [tool_path("ast2cfg")], [tool_path("cfg2ssa")],
              [tool_path("ssa2son"), "-o", str(son)]]
    data = None
    for argv in stages:
        proc = subprocess.run(argv + ["-"] * (argv[0] != stages[0][0]), input=data, capture_output=True, timeout=60)
        assert proc.returncode == 0, proc.stderr.decode()
        data = proc.stdout
    return son


def test_const_call_folds_recursive_pure_calls_and_budget_stops_the_rest(tmp_path):
    """fib(20), mutual recursion, a loop and ackermann with constant
    arguments become constants at -O2; a call that never returns (spin), one
    that would run 10^11 iterations (sum) and one 10^8 calls deep (depth)
    stop at the step or depth budget quickly and stay calls; the program
    prints the same under pipe-run before and after."""
    son = c_to_son(tmp_path, CONST_CALLS, "calls")
    opt = tmp_path / "calls.O2.son"
    proc = subprocess.run([tool_path("sonopt"), str(son), "-O2", "--verify-each", "-o", str(opt)],
                          capture_output=True, timeout=30)
    assert proc.returncode == 0, proc.stderr.decode()
    text = run_tool("pipe-fmt", opt, "-f", "text", check=0).stdout.decode()
    main = text[text.index("pipeline main("):]
    for folded in ("fib", "is_even", "is_odd", "collatz", "ack"):
        assert f'symaddr "{folded}"' not in main, main
        assert f"pipeline {folded}(" not in text, text    # unreferenced: dropped
    # The budget: alone (at -O2 inline copies the small loops into main),
    # each of these calls is evaluated, gives up and stays.
    alone = subprocess.run([tool_path("sonopt"), str(son), "--passes=const-call", "--stats", "-f", "text"],
                           capture_output=True, timeout=30)
    assert alone.returncode == 0, alone.stderr.decode()
    kept = alone.stdout.decode()
    kept = kept[kept.index("pipeline main("):]
    for name in ("spin", "sum", "depth"):
        assert f'symaddr "{name}"' in kept, kept
    for value in ("6765", "111", "9"):   # fib(20), collatz(27), ack(2, 3): the printf arguments
        assert f'const "i32", {value}' in main or f'const "i64", {value}' in main, main
    before, after = run_tool("pipe-run", son), run_tool("pipe-run", opt)
    assert before.stdout == after.stdout == b"6765 0 1 111 9\n"
    assert before.returncode == after.returncode == 0


def test_struct_copies_between_locals_end_in_registers():
    """split_copy.in.txt's f (`q = p; r = q;` between local structs): at -O2
    split-copy turns the copies into per-field loads and stores and
    scalar-replace then takes every slot; g and h keep theirs."""
    out = sonopt_text(ROOT / "tests" / "stages" / "sonopt" / "split_copy.in.txt", "-O2", "--verify-each").stdout
    f = out.decode().split("pipeline g(")[0]
    assert "stackslot" not in f and "copy" not in f and "load" not in f, f


LIBCALLS_C = r"""
#include <string.h>
#include <stdlib.h>
struct point { int x, y; };
int local_copies(int a, int b) {
  struct point p = {a, b}, q;
  memcpy(&q, &p, sizeof q);
  memset(&p, 0, 4);
  return q.x * 3 + q.y + p.x;
}
unsigned long folds(void) {
  return strlen("hello") + (strcmp("abc", "abd") < 0) + (unsigned long)memcmp("xy", "xz", 2) + (unsigned long)abs(-7);
}
"""


def test_libcalls_fold_constants_and_small_memcpy_ends_in_registers(tmp_path):
    """libcalls: strlen, strcmp, memcmp and abs of constants fold (memcmp to
    -1, as gcc folds), and a memcpy between two local structs becomes a copy
    that split-copy and scalar-replace take: no slot, copy or call is left."""
    son = c_to_son(tmp_path, LIBCALLS_C, "libcalls")
    out = sonopt_text(son, "-O2", "--verify-each").stdout.decode()
    copies, folds = out.split("pipeline local_copies(")[1].split("pipeline folds(")
    assert "stackslot" not in copies and "= copy" not in copies and "= call" not in copies, copies
    assert "= call" not in folds and 'const "i64", 12' in folds, folds


CHAINED_SLOTS_C = """
int f(int n) {
  int x = n;
  int *p = &x;
  int **q = &p;
  **q += 1;
  return x;
}
int main(void) { return f(2) - 3; }
"""


def test_scalar_replace_takes_a_chain_of_slots_in_one_application(tmp_path):
    """x's address is stored in p, p's in q: x can go only once p has, and p
    once q has, the reverse of their order in the function. One application
    must take all three (a pass that does only part of its work in one
    application leaves the -O2 output changeable by a second sonopt)."""
    son = c_to_son(tmp_path, CHAINED_SLOTS_C, "chain")
    out = run_tool("sonopt", son, "--passes=scalar-replace", "--verify-each", "-f", "text", check=0).stdout.decode()
    f = out[out.index("pipeline f("):out.index("pipeline main(")]
    assert "stackslot" not in f and "load" not in f and "store" not in f, f


BITFIELDS_C = """
#include <stdio.h>
struct S { unsigned a : 3, b : 5; int c : 9; };
int main(void) {
  struct S s;
  s.a = 1;
  s.b = 2;
  s.c = -3;
  for (int i = 0; i < 5; i++) { s.a += i; s.c -= s.b; }
  printf("%d %d %d\\n", s.a, s.b, s.c);
  return 0;
}
"""


def test_bit_fields_of_a_local_struct_end_in_a_register(tmp_path):
    """A local struct whose bit-fields are written one by one (never whole):
    at -O2 scalar-replace keeps its unit in a register (no stack slot, no
    load or store left), and the fields read back as written: the unit
    starts at 0, not undefined, so pipe-run sees defined values."""
    src = tmp_path / "bits.c"
    src.write_text(BITFIELDS_C)
    module = tmp_path / "bits.c2ast.bin"
    run_tool("c2ast", src, "-o", module, check=0)
    for stage in ("ast2cfg", "cfg2ssa", "ssa2son"):
        out = tmp_path / f"bits.{stage}.bin"
        run_tool(stage, module, "-o", out, check=0)
        module = out
    opt = tmp_path / "bits.opt.bin"
    run_tool("sonopt", "-O2", "--verify-each", module, "-o", opt, check=0)
    text = run_tool("pipe-fmt", opt, "-f", "text", check=0).stdout.decode()
    assert "stackslot" not in text and "load" not in text and "store" not in text, text
    for m in (module, opt):
        run = run_tool("pipe-run", m)
        assert run.stdout == b"3 2 -13\n" and run.returncode == 0, run.stderr.decode()


def test_rounds_on_threads_give_the_serial_output(tmp_path):
    """Over the whole module the function passes of a round run on the
    machine's cores unless a flag shows their order (--stats, --print-*,
    --bisect-limit): the module must come out byte-identical either way, on
    a generated program of many functions that inline, loops and calls."""
    src = tmp_path / "many.c"
    src.write_text(subprocess.run(["python3", str(ROOT / "scripts" / "gen_c_program.py"), "3000", "many", "1"],
                                  check=True, capture_output=True, text=True).stdout)
    son = tmp_path / "many.son"
    run_tool("pipecc", "-O0", "--stop-after=ssa2son", "-o", son, src, check=0, timeout=120)
    text = run_tool("pipe-fmt", son, "-f", "text", check=0).stdout
    assert text.count(b" pipeline ") > 50, "the program should have many functions"
    threaded = run_tool("sonopt", son, "-O2", "-f", "text", check=0, timeout=120)
    serial = run_tool("sonopt", son, "-O2", "--stats", "-f", "text", check=0, timeout=120)
    assert threaded.stdout == serial.stdout


@pytest.mark.parametrize("jobs", ["threads", "serial"])
def test_a_broken_function_after_good_ones_is_diagnosed(jobs, tmp_path):
    """At -O2 the functions read so far are already being optimized (on
    threads unless --stats keeps the serial order) when a later one turns out
    broken: the reader's diagnostic, with its line, exit 1, no output file."""
    good = run_tool("pipe-gen", "--seed", 3, "--level", "son", "--nodes", 200, "--functions", 6, "-f", "text",
                    check=0).stdout
    src = tmp_path / "m.txt"
    src.write_bytes(good + b"pipeline broken() -> void {\n  i0 = start\n  i1 = jump ^i9\n}\n")
    line = good.count(b"\n") + 3
    out = tmp_path / "out.txt"
    extra = ["--stats"] if jobs == "serial" else []
    proc = run_tool("sonopt", src, "-O2", *extra, "-o", out, "-f", "text", check=1)
    assert f"m.txt:{line}:".encode() in proc.stderr and b"undefined node i9" in proc.stderr, proc.stderr
    assert not out.exists()


FACTS_CHANGE = r"""
int g;
static int flag(void) { return 0; }
int B(int x) {
  if (flag()) g = 1;
  int s = 0;
  for (int i = 0; i < x; i++) s += (i * x) ^ (s >> 3);
  for (int i = 0; i < x; i++) s += (i * 7) ^ (s << 1);
  for (int i = 0; i < x; i++) s -= (i * 5) ^ (s >> 2);
  return s;
}
int A(int n, int k) {
  int t = 0, i = 0;
  do { t += B(k) + i; i++; } while (i < n);
  return t;
}
"""


@pytest.mark.parametrize("jobs", ["threads", "serial"])
def test_licm_revisits_an_unchanged_function_when_a_callee_becomes_pure(jobs, tmp_path):
    """B stores to g until const-call folds flag() (round 1) and the store
    dies (round 2); A does not change after round 1, but licm must visit it
    again once the set of pure functions changed (ModuleScope facts) and
    take the call B(k) out of the loop, to start."""
    son = c_to_son(tmp_path, FACTS_CHANGE, "facts")
    trace = run_tool("sonopt", son, "-O2", "--print-after=all", "--print-changed", "-o", "/dev/null",
                     check=0).stderr.decode()
    # "# licm changed 'A' (application 69, round 3, 1 change)" -> (licm, A, 3)
    steps = [re.match(r"# (\S+) changed '(\w+)' \(application \d+, round (\d+)", line)
             for line in trace.splitlines()]
    steps = [(m.group(1), m.group(2), int(m.group(3))) for m in steps if m]
    hoist = next(s for s in steps if s[:2] == ("licm", "A"))
    pure = next(s for s in steps if s[:2] == ("const-call", "B"))
    assert pure[2] < hoist[2], steps
    assert all(s[2] == 1 for s in steps if s[1] == "A" and s != hoist), steps
    extra = ["--stats"] if jobs == "serial" else []
    text = sonopt_text(son, "-O2", *extra).stdout.decode()
    a = text[text.index("pipeline A("):]
    call = next(line for line in a.splitlines() if " = call " in line)
    assert "call ^i0," in call, a


@pytest.mark.parametrize("level_passes", ["-O1", "-O2"])
def test_floating_point_flows_through_unchanged_in_meaning(level_passes, tmp_path):
    """sonopt on a program of every floating-point opcode (test_pipe_run's
    float_program: signed zeros, NaN payloads, printf of doubles): every pass
    verifies its output (--verify-each) and the program prints the same bits
    after as before. (idealize and sccp fold the constant operands through
    eval_float.h, the interpreter's own meaning; nothing may treat them as
    integers, merge 0.0 with -0.0, or drop a NaN's payload.)"""
    import sys
    sys.path.insert(0, str(ROOT / "tests"))
    from test_pipe_run import Prog, float_program
    p, c = Prog(), []
    float_program(p, c)
    p.ret()
    src = tmp_path / "floats.son.txt"
    src.write_text(p.text("son"))
    before = run_tool("pipe-run", src, check=0).stdout
    opt = tmp_path / "floats.opt.bin"
    run_tool("sonopt", level_passes, "--verify-each", src, "-o", opt, check=0, timeout=300)
    after = run_tool("pipe-run", opt, check=0).stdout
    assert before.count(b"\n") > 3000 and after == before


NOBUILTIN_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int f(char *d, int n) {
  int *p = malloc(8);
  p[0] = 1;
  int r = p[0];
  free(p);
  printf("hi\n");
  for (int i = 0; i < n; i++) d[i] = 0;
  return r + (int)strlen("abc");
}
"""


@pytest.mark.parametrize("flags,kept", [
    ([], ()),
    (["-fno-builtin"], ("malloc", "free", "printf", "strlen")),
    (["-ffreestanding"], ("malloc", "free", "printf", "strlen")),
    (["-fno-builtin-malloc", "-fno-builtin-printf", "-fno-builtin-strlen"], ("malloc", "free", "printf", "strlen")),
])
def test_nobuiltin_reaches_sonopt(tmp_path, flags, kept):
    """-fno-builtin, -ffreestanding and -fno-builtin-NAME reach sonopt as the
    `nobuiltin` hint (on every definition, or on the named externs): then
    libcalls, heap-to-stack and printf-fold leave the calls alone, and
    loop-idiom adds no memset to a nobuiltin function. Without them the malloc/free pair goes, printf becomes
    puts, strlen of a literal folds and the zeroing loop becomes memset."""
    src = tmp_path / "nb.c"
    src.write_text(NOBUILTIN_C)
    ast = run_tool("c2ast", src, *(["--"] + flags if flags else [])).stdout
    son = ast
    for stage in ("ast2cfg", "cfg2ssa", "ssa2son"):
        son = subprocess.run([tool_path(stage), "-"], input=son, capture_output=True, timeout=60, check=True).stdout
    out = subprocess.run([tool_path("sonopt"), "-", "-O2", "--verify-each", "-f", "text"], input=son,
                         capture_output=True, timeout=60, check=True).stdout.decode()
    f = out[out.index("pipeline f("):]
    called = set(re.findall(r'symaddr "(\w+)"', f))
    if not flags:
        assert called == {"puts", "memset"}, f
    else:
        assert set(kept) <= called and "puts" not in called, f
    # Only a nobuiltin function gets no memset (-fno-builtin-memset is about
    # calls to memset; gcc's loop distribution still makes them then).
    assert ("memset" in called) == (flags[:1] not in (["-fno-builtin"], ["-ffreestanding"])), f
    if flags == ["-fno-builtin"]:
        assert "hint nobuiltin" in out.split("pipeline ")[1], out


HEAP_LOOP_C = r"""
#include <stdio.h>
#include <stdlib.h>
struct obj { int a, b; long c; };
static struct obj *make(int i) {
  struct obj *o = malloc(sizeof *o);
  if (!o) exit(1);
  o->a = i; o->b = i * 2; o->c = i + 3;
  return o;
}
int main(void) {
  long s = 0;
  for (int i = 0; i < 1000; i++) {
    struct obj *o = make(i);
    s += o->a + o->b + o->c;
    free(o);
  }
  printf("%ld\n", s);
  return 0;
}
"""


def test_heap_objects_that_do_not_escape_end_in_registers(tmp_path):
    """An object allocated, used through an inlined constructor and freed in
    a loop: at -O2 no malloc, free, stack slot, load or store is left in main
    (heap-to-stack makes it a slot, scalar-replace values), and the program
    prints the same under pipe-run before and after."""
    son = c_to_son(tmp_path, HEAP_LOOP_C, "heap")
    opt = tmp_path / "heap.O2.son"
    run_tool("sonopt", son, "-O2", "--verify-each", "-o", opt)
    text = run_tool("pipe-fmt", opt, "-f", "text", check=0).stdout.decode()
    main = text[text.index("pipeline main("):]
    for gone in ('symaddr "malloc"', 'symaddr "free"', "stackslot", "= load", "= store"):
        assert gone not in main, main
    before, after = run_tool("pipe-run", son), run_tool("pipe-run", opt)
    assert before.stdout == after.stdout == b"2001000\n"


LABEL_COPIES = r"""
#include <stdio.h>
static void *ptr1, *ptr2, *ptr3;
static inline void here(void **p, int cond) {
  if (cond) {
  at:
    *p = &&at;
  }
}
static inline int pick(int k) {            /* two labels, distinct in every copy */
  void *p = k ? &&one : &&two;
  if (p == &&one) { one: return 1; }
  if (p == &&two) { two: return 2; }
  return 0;
}
static int dispatch(int k) {               /* computed goto: never inlined */
  static void *const table[] = {&&a, &&b};
  goto *table[k & 1];
a: return 10;
b: return 20;
}
static int stored(int k) {                 /* a label in a static table: never inlined */
  static void *const mine[] = {&&x};
  void *p = &&x;
  if (k) return p == mine[0];
x: return 7;
}
int main(void) {
  here(&ptr1, 1);
  here(&ptr2, 1);
  void *own = &&mine;
mine:
  ptr3 = own;
  printf("%d %d %d %d %d %d %d\n", ptr1 != ptr2, ptr1 != ptr3 && ptr2 != ptr3, pick(1), pick(0),
         dispatch(0) + dispatch(1), stored(1), stored(0));
  return 0;
}
"""


def test_inlined_copies_of_a_label_have_addresses_of_their_own(tmp_path):
    """GNU C's `&&label` (`symaddr f + k`) in a function sonopt inlines: each
    copy becomes a label of the caller, numbered above the caller's own, so
    copies compare unequal (gcc's c-torture 990208-1); a function with a
    computed goto or a label address in a static initializer keeps its calls
    (noinline from c2ast, as gcc); pipe-run before and after -O2."""
    son = c_to_son(tmp_path, LABEL_COPIES, "labels")
    opt = tmp_path / "labels.O2.son"
    proc = subprocess.run([tool_path("sonopt"), str(son), "-O2", "--verify-each", "-o", str(opt)],
                          capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    text = run_tool("pipe-fmt", opt, "-f", "text", check=0).stdout.decode()
    main = text[text.index("pipeline main("):]
    main = main[:main.index("}")]
    assert 'symaddr "here"' not in main and 'symaddr "pick"' not in main, main
    assert 'symaddr "dispatch"' in main and 'symaddr "stored"' in main, main
    before, after = run_tool("pipe-run", son), run_tool("pipe-run", opt)
    assert before.stdout == b"0 1 1 2 30 1 7\n", before.stdout   # unoptimized: one `at` for both
    assert after.stdout == b"1 1 1 2 30 1 7\n", after.stdout
    exe = tmp_path / "labels"
    built = subprocess.run([tool_path("pipecc"), "-O2", "-w", str(tmp_path / "labels.c"), "-o", str(exe)],
                           capture_output=True, timeout=120)
    assert built.returncode == 0, built.stderr.decode()
    assert subprocess.run([str(exe)], capture_output=True, timeout=10).stdout == b"1 1 1 2 30 1 7\n"


# sonopt's inline policy per level (stages/sonopt/inline.cpp, "Policy":
# gcc 12's at -O1 and -O2) and inline-recursive's bounds, on one module.
# BIG is 40 statements (about 200 nodes: above every size limit).
BIG = "\n".join(f"  x = x * {3 + i} + (x >> {1 + i % 5});" for i in range(40))
INLINE_POLICY = f"""
static int small_static(int x) {{ return x * x + 1; }}
static int medium_static(int x) {{ int y = x * 5 + 3; y ^= y >> 3; return y * x - (y & 7); }}
static inline int declared(int x) {{ int y = x * 3; return y - (x >> 2); }}
static inline __attribute__((always_inline)) int forced(int x) {{
{BIG}
  return x;
}}
static inline int declared_big(int x) {{
{BIG}
  return x;
}}
static int once(int x) {{
{BIG}
  return x;
}}
static int tiny(int x) {{ return x; }}
__attribute__((noinline)) static int never(int x) {{ return x + 1; }}
int external_small(int x) {{ return x - 7; }}
static int rec(int n) {{ return n <= 0 ? 0 : rec(n - 1) * 3 % 1000 + n; }}
__attribute__((noinline)) static int rec_never(int n) {{ return n <= 0 ? 0 : rec_never(n - 1) * 5 % 1000 + n; }}
static int rec_big(int n) {{
  int x = n;
{BIG}
  return n <= 0 ? x : rec_big(n - 1) + x % 13;
}}
static int rec_two(int n) {{ return n < 2 ? n : (rec_two(n - 1) * 7 + rec_two(n - 2)) % 10007; }}
static int rec_label(int n) {{
  void *p = &&here;
here:
  return n <= 0 ? (p == &&here) : rec_label(n - 1) * 2 + (p == &&here);
}}
int main(int argc, char **argv) {{
  (void)argv;
  int a = argc;
  a += small_static(a) + small_static(a + 1);
  a += medium_static(a) + medium_static(a + 1) + medium_static(a + 2);
  a += declared(a) + declared(a + 2);
  a += forced(a) + forced(a + 3);
  a += declared_big(a) + declared_big(a + 4);
  a += once(a);
  a += tiny(a) + tiny(a + 1) + tiny(a + 2);
  a += never(a) + never(a + 5);
  a += external_small(a) + external_small(a + 6);
  a += rec(a & 15) + rec_never(a & 15) + rec_big(a & 15) + rec_two(a & 15) + rec_label(a & 15);
  return a & 127;
}}
"""


def functions_of_text(text):
    """name -> (header line, body lines) of a printed module."""
    out, name = {}, None
    for line in text.splitlines():
        m = re.match(r"(?:internal )?pipeline (\w+)\(", line)
        if m:
            name = m.group(1)
            out[name] = (line, [])
        elif line == "}":
            name = None
        elif name:
            out[name][1].append(line)
    return out


def test_inline_policy_per_level_and_recursive_inlining(tmp_path):
    """-O1 inlines what gcc -O1 does (`gcc -O1 -fopt-info-inline` on this
    source: always_inline, small `inline`, called once, and calls no
    cheaper than a copy: small_static into its two callers, external_small
    at its two calls, tiny); -O2 also any small function (medium_static).
    Never: noinline, too big (declared_big), recursion (inline's part).
    inline-recursive then copies rec 8 levels deep (its bound), rec_two and
    rec_label up to the budget, each copy of rec_label with labels of its
    own; not rec_never (noinline) nor rec_big (too big); a second
    application changes nothing (the hint recursion_inlined)."""
    src = tmp_path / "policy.c"
    src.write_text(INLINE_POLICY)
    son = tmp_path / "policy.son"
    front = subprocess.run(f"{tool_path('c2ast')} {src} | {tool_path('ast2cfg')} | {tool_path('cfg2ssa')} | "
                           f"{tool_path('ssa2son')} -o {son}", shell=True, capture_output=True, timeout=60)
    assert front.returncode == 0, front.stderr.decode()

    def called_from_main(level):
        text = sonopt_text(son, "--passes=inline", f"-O{level}").stdout.decode()
        return set(re.findall(r'symaddr "(\w+)"', "\n".join(functions_of_text(text)["main"][1])))

    recursive = {"rec", "rec_never", "rec_big", "rec_two", "rec_label"}
    assert called_from_main(1) == {"medium_static", "declared_big", "never"} | recursive
    assert called_from_main(2) == {"declared_big", "never"} | recursive

    once = sonopt_text(son, "--passes=inline-recursive").stdout
    fns = functions_of_text(once.decode())
    marked = {name for name, (header, _) in fns.items() if "hint recursion_inlined" in header}
    assert marked == {"rec", "rec_two", "rec_label"}, marked

    def count(name, pattern):
        return sum(1 for line in fns[name][1] if re.search(pattern, line))

    assert count("rec", r"= srem ") == 9 and count("rec", r"= call ") == 1   # itself and 8 levels of copies
    assert count("rec_never", r"= call ") == 1 and count("rec_big", r"= call ") == 1
    assert len(fns["rec_two"][1]) <= 600 and count("rec_two", r"= call ") > 2
    # rec_label: each `&&here` (three in the source) is `symaddr rec_label
    # + k`; the original's k is 1, each of its 8 copies' its own.
    labels = [int(m) for line in fns["rec_label"][1] for m in re.findall(r'const "i64", (\d+)', line)]
    assert count("rec_label", r"= call ") == 1
    assert sorted(labels) == sorted(list(range(1, 10)) * 3), labels
    again = subprocess.run([tool_path("sonopt"), "-", "--passes=inline-recursive", "-f", "text"], input=once,
                           capture_output=True, timeout=60)
    assert again.returncode == 0 and again.stdout == once, again.stderr.decode()


def test_inline_budget_goes_to_the_calls_in_loops_first(tmp_path):
    """Eleven internal functions of about 1,850 nodes, each called once from
    main, the last one in a loop: ten copies fill main's budget (20,000
    nodes), and the one left out is a straight-line call, not the loop's."""
    body = "\n".join(f"  x = x * {3 + i} + (x >> {1 + i % 5});" for i in range(370))
    parts = "".join(f"static int part{k}(int x) {{\n{body}\n  return x;\n}}\n" for k in range(11))
    main = ("int main(int argc, char **argv) {\n  (void)argv;\n  int a = argc;\n"
            + "".join(f"  a += part{k}(a);\n" for k in range(10))
            + "  for (int i = 0; i < argc; i++) a += part10(a + i);\n  return a & 127;\n}\n")
    src = tmp_path / "budget.c"
    src.write_text(parts + main)
    son = tmp_path / "budget.son"
    front = subprocess.run(f"{tool_path('c2ast')} {src} | {tool_path('ast2cfg')} | {tool_path('cfg2ssa')} | "
                           f"{tool_path('ssa2son')} -o {son}", shell=True, capture_output=True, timeout=60)
    assert front.returncode == 0, front.stderr.decode()
    fns = functions_of_text(sonopt_text(son, "--passes=inline").stdout.decode())
    assert sorted(fns) == ["main", "part9"], sorted(fns)


NO_INLINE_C = r"""
#include <stdio.h>
static int twice(int x) { return 2 * x; }
static inline __attribute__((always_inline)) int thrice(int x) { return 3 * x; }
int main(int argc, char **argv) {
  (void)argv;
  printf("%d %d\n", twice(argc + 20), thrice(argc));
  return 0;
}
"""


@pytest.mark.parametrize("flags", [[], ["-fno-inline"], ["-fno-inline", "-O1"]])
def test_fno_inline_keeps_only_always_inline(tmp_path, flags):
    """gcc's -fno-inline: no function is inlined but those marked
    always_inline (c2ast marks the others noinline). Without it, -O2 inlines
    both helpers; the program prints what gcc's build prints either way."""
    src = tmp_path / "ni.c"
    src.write_text(NO_INLINE_C)
    exe = tmp_path / "ni"
    subprocess.run([tool_path("pipecc"), "-O2", *flags, str(src), "-o", str(exe)], check=True, timeout=120)
    assert subprocess.run([str(exe)], capture_output=True, timeout=10).stdout == b"42 3\n"
    dump = subprocess.run(["objdump", "-d", str(exe)], capture_output=True, text=True, check=True).stdout
    main = dump[dump.index("<main>:"):]
    main = main[:main.index("\n\n")]
    assert ("<twice>" in main) == bool(flags), main
    assert "<thrice>" not in main, main
