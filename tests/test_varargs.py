"""Variadic function definitions (issue 8, section 5): va_start, va_arg,
va_end, va_copy.

- The corpus programs with variadic definitions (tests/c/func_variadic_*.c,
  tests/c/printf_vprintf_*.c) run at cfg, ssa, son, sched and son-O2 with
  the rest of the corpus (test_c_programs.py); here they also go through
  son-lower-x64 (the register save area, va_start, va_arg by cmov) and
  son2cfg, and pipe-run at son-x64 and cfg-x64 must match gcc's build.
- va_arg of a struct carries its byval type with its classes (the corpus
  program float_struct_abi.c and the interop pair fa.c/fb.c run it); what
  c2ast refuses: va_start outside a variadic function (clang already
  refuses that).
- Interoperation with gcc's code both ways, with a va_list passed on to
  vprintf: needs pipecc's native pipeline (regalloc-x64 and codegen-x64);
  skipped, saying so, while those tools are not built.
"""
import subprocess
import textwrap

import pytest

from conftest import BUILD, ROOT, run_tool, tool_path
import symbols  # tests/symbols.py: global symbols against gcc's

VARIADIC = [ROOT / "tests" / "c" / "func_variadic_sum.c", ROOT / "tests" / "c" / "printf_vprintf_forward.c"]


def gcc_run(srcs, exe):
    subprocess.run(["gcc", "-std=gnu11", "-O0", "-w", "-o", str(exe), *map(str, srcs)], check=True, timeout=120)
    return subprocess.run([str(exe)], capture_output=True, timeout=60)


def shell(cmd):
    proc = subprocess.run(f"set -o pipefail; {cmd}", shell=True, executable="/bin/bash", capture_output=True,
                          timeout=120)
    assert proc.returncode == 0, f"{cmd}\n{proc.stderr.decode(errors='replace')}"


@pytest.mark.parametrize("src", VARIADIC, ids=lambda p: p.stem)
def test_variadic_programs_at_the_x64_levels(src, tmp_path):
    want = gcc_run([src], tmp_path / "gcc")
    son_x64, cfg_x64 = tmp_path / "f.son-x64", tmp_path / "f.cfg-x64"
    stages = " | ".join(f"'{tool_path(s)}'" for s in ("ast2cfg", "cfg2ssa", "ssa2son", "son-lower-x64"))
    shell(f"'{tool_path('c2ast')}' '{src}' | {stages} | tee '{son_x64}' | '{tool_path('son2cfg')}' > '{cfg_x64}'")
    for module in (son_x64, cfg_x64):
        got = run_tool("pipe-run", module, check=None)
        assert (got.stdout, got.returncode) == (want.stdout, want.returncode), \
            f"pipe-run {module.name}:\n{got.stderr.decode(errors='replace')}"


def test_va_arg_of_a_struct_carries_its_classification(tmp_path):
    """va_arg of a struct yields its address and names its byval type with
    the System V classes (common/ir/abi.h): {double, long} is SSE, INTEGER;
    a struct passed through `...` is listed after the `...` of the call."""
    src = tmp_path / "s.c"
    src.write_text(textwrap.dedent("""\
        #include <stdarg.h>
        struct pair { double a; long b; };
        double first(int n, ...) {
          va_list ap;
          va_start(ap, n);
          struct pair p = va_arg(ap, struct pair);
          va_end(ap);
          return p.a;
        }
        double call(struct pair p) { return first(1, p); }
        """))
    text = subprocess.run(f"'{tool_path('c2ast')}' '{src}' | '{tool_path('ast2cfg')}' -f text", shell=True,
                          capture_output=True, check=True).stdout.decode()
    assert 'va_arg ^' in text and '"ptr", "ptr byval(16,8,si)"' in text
    assert '"(i32, ..., ptr byval(16,8,si))"' in text


def test_va_list_reads_past_the_arguments_are_runtime_errors(tmp_path):
    """At the generic levels the variadic arguments are an allocation of
    their own: reading one more than the caller passed is caught."""
    src = tmp_path / "over.c"
    src.write_text(textwrap.dedent("""\
        #include <stdarg.h>
        static int second(int n, ...) {
          va_list ap;
          va_start(ap, n);
          int a = va_arg(ap, int);
          int b = va_arg(ap, int);
          va_end(ap);
          return a + b;
        }
        int main(void) { return second(1, 5); }
        """))
    cfg = tmp_path / "over.cfg"
    shell(f"'{tool_path('c2ast')}' '{src}' | '{tool_path('ast2cfg')}' > '{cfg}'")
    proc = run_tool("pipe-run", cfg, check=None)
    assert proc.returncode == 70, proc.stderr
    assert "the 1 variadic argument of a call to 'second'" in proc.stderr.decode()


OURS = """\
#include <stdarg.h>
#include <stdio.h>
long gcc_sum(int n, ...);
int gcc_vformat(char *buf, const char *fmt, va_list ap);

long our_sum(int n, ...) {
  va_list ap;
  long total = 0;
  va_start(ap, n);
  for (int i = 0; i < n; i++) total += va_arg(ap, long);
  va_end(ap);
  return total;
}

int our_log(const char *fmt, ...) {
  char buf[200];
  va_list ap, copy;
  va_start(ap, fmt);
  va_copy(copy, ap);
  vprintf(fmt, ap);
  int n = gcc_vformat(buf, fmt, copy);
  va_end(copy);
  va_end(ap);
  printf(" | %s\\n", buf);
  return n;
}

long our_calls_gcc(void) { return gcc_sum(8, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L) + gcc_sum(1, -100L); }
"""

THEIRS = """\
#include <stdarg.h>
#include <stdio.h>
long our_sum(int n, ...);
int our_log(const char *fmt, ...);
long our_calls_gcc(void);

long gcc_sum(int n, ...) {
  va_list ap;
  long total = 0;
  va_start(ap, n);
  for (int i = 0; i < n; i++) total += va_arg(ap, long) * (i + 1);
  va_end(ap);
  return total;
}

int gcc_vformat(char *buf, const char *fmt, va_list ap) { return vsprintf(buf, fmt, ap); }

int main(void) {
  printf("%ld\\n", our_sum(3, 10L, 20L, 30L));
  printf("%ld\\n", our_sum(9, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L));
  printf("%d\\n", our_log("%s=%d %ld %c %s %d %d %d", "x", 1, 1L << 40, 'q', "many", 6, 7, 8));
  printf("%ld\\n", our_calls_gcc());
  return 0;
}
"""


def test_variadic_interop_with_gcc(tmp_path):
    missing = [t for t in ("regalloc-x64", "codegen-x64") if not (BUILD / t).exists()]
    if missing:
        pytest.skip(f"pipecc's native pipeline needs {', '.join(missing)} (issue 8), not built yet")
    ours, theirs = tmp_path / "ours.c", tmp_path / "theirs.c"
    ours.write_text(OURS)
    theirs.write_text(THEIRS)
    want = gcc_run([ours, theirs], tmp_path / "all-gcc")
    proc = subprocess.run([str(BUILD / "pipecc"), "-c", str(ours), "-o", str(tmp_path / "ours.o")],
                          capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    problem = symbols.check_against_gcc(tmp_path / "ours.o", ours, "-O0", tmp_path)
    assert problem is None, problem
    got = gcc_run([tmp_path / "ours.o", theirs], tmp_path / "mixed")
    assert (got.stdout, got.returncode) == (want.stdout, want.returncode)
