"""pipecc's code-generation options from the hardening and profiling flags
of distributions' default builds (issue 20): -fstack-protector and its
-strong and -all forms, each against gcc's build of the same source."""
import re
import subprocess

import pytest

from conftest import BUILD, disassembly

PIPECC = str((BUILD / "pipecc").resolve())


def cc(*args, cwd=None, check=0):
    proc = subprocess.run([PIPECC, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=120, cwd=cwd)
    if check is not None:
        assert proc.returncode == check, (args, proc.stderr.decode())
    return proc


def guarded(obj):
    return {name for name, code in disassembly(obj).items()
            if any("__stack_chk_fail" in line for line in code)}


# Every kind of local gcc's rules look at (gcc/cfgexpand.cc), one function each.
CASES_C = r"""
struct big { long a, b, c; };
struct witharr { int n; char s[4]; };
struct plain { int a, b; };
void use(void *);
struct big mkbig(void);
int f_none(int x) { int y = x * 2; return y + 1; }
int f_char8(void) { char b[8]; use(b); return 0; }
int f_char4(void) { char b[4]; use(b); return 0; }
int f_uchar_big(void) { unsigned char b[100]; use(b); return 0; }
int f_int_arr(void) { int a[10]; use(a); return 0; }
int f_addr(void) { int x; use(&x); return x; }
int f_member_addr(void) { struct plain p; use(&p.b); return p.a; }
int f_param_addr(int p) { use(&p); return p; }
int f_struct_arr(void) { struct witharr w; use(&w); return 0; }
int f_struct_arr_noaddr(void) { struct witharr w; w.n = 1; w.s[0] = 2; return w.n + w.s[0]; }
int f_struct_plain(void) { struct plain p; p.a = 1; p.b = 2; return p.a + p.b; }
int f_struct_char16(void) { struct { int n; char s[16]; } w; use(&w); return 0; }
int f_nested_block(int c) { if (c) { char b[32]; use(b); } return c; }
int f_alloca(int n) { char *p = __builtin_alloca(n); use(p); return 0; }
int f_vla(int n) { int v[n]; use(v); return 0; }
long f_sret(void) { struct big b = mkbig(); return b.a; }
__attribute__((no_stack_protector)) int f_nosp(void) { char b[64]; use(b); return 0; }
int f_static_arr(void) { static char b[64]; use(b); return 0; }
int f_leaf(void) { return 3; }
int f_arr_unused(void) { int a[4] = {1, 2, 3, 4}; return a[1]; }
"""

FLAGS = ["-fstack-protector", "-fstack-protector-strong", "-fstack-protector-all"]


@pytest.mark.parametrize("flag", FLAGS)
def test_stack_protector_guards_the_functions_gcc_guards(tmp_path, flag):
    """At -O0 exactly gcc's functions get a canary under each flag; at -O2
    gcc drops the canary of a function whose arrays it scalarized, which
    pipecc (deciding on the source) keeps: never one function less."""
    src = tmp_path / "cases.c"
    src.write_text(CASES_C)
    for level in ("-O0", "-O2"):
        ours, gccs = tmp_path / "ours.o", tmp_path / "gcc.o"
        cc(level, flag, "-c", src, "-o", ours)
        subprocess.run(["gcc", level, flag, "-c", str(src), "-o", str(gccs)], check=True)
        if level == "-O0":
            assert guarded(ours) == guarded(gccs), (flag, sorted(guarded(ours) ^ guarded(gccs)))
        else:
            assert guarded(gccs) <= guarded(ours), (flag, sorted(guarded(gccs) - guarded(ours)))
            assert guarded(ours) - guarded(gccs) <= {"f_arr_unused", "f_struct_arr_noaddr"}, flag
    # Without the flag (and after -fno-stack-protector, the last one wins): none.
    cc("-O0", "-c", src, "-o", ours)
    assert guarded(ours) == set()
    cc("-O0", flag, "-fno-stack-protector", "-c", src, "-o", ours)
    assert guarded(ours) == set()


def test_canary_is_stored_in_the_prologue_and_checked_before_each_return(tmp_path):
    """The thread's guard (%fs:0x28) goes into the frame after the prologue
    and is compared before every return; __SSP_STRONG__ is defined as by gcc."""
    src = tmp_path / "two.c"
    src.write_text("void use(char *);\n"
                   "int two(int c) { char b[16]; use(b); if (c) return b[0]; use(b + 1); return b[1]; }\n"
                   "int ssp = __SSP_STRONG__;\n")
    obj = tmp_path / "two.o"
    cc("-O2", "-fstack-protector-strong", "-c", src, "-o", obj)
    code = disassembly(obj)["two"]
    text = "\n".join(code)
    first = next(i for i, line in enumerate(code) if "%fs:0x28" in line)
    assert re.match(r"mov\s+%fs:0x28,%r11", code[first]), text
    assert re.match(r"mov\s+%r11,0x[0-9a-f]+\(%rsp\)", code[first + 1]), text
    assert not any("call" in line for line in code[:first]), text  # before any call: in the prologue
    checks = [i for i, line in enumerate(code) if re.match(r"sub\s+%fs:0x28,%r11", line)]
    rets = [i for i, line in enumerate(code) if line.startswith("ret")]
    assert len(checks) == len(rets) >= 1, text
    for c, r in zip(checks, rets):  # between the check and the return, only the failure call
        assert c < r and [line for line in code[c:r] if line.startswith("R_X86")] == \
            ["R_X86_64_PLT32\t__stack_chk_fail-0x4"], text


SMASH_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
__attribute__((noinline)) static void fill(char *p, size_t n) { memset(p, 'A', n); }
__attribute__((noinline)) int victim(size_t n) {
  char buf[16];
  fill(buf, n);
  return buf[3];
}
__attribute__((noinline)) int victim_vla(size_t len, size_t n) {
  char buf[len];
  fill(buf, n);
  return buf[0];
}
int main(int argc, char **argv) {
  size_t n = strtoul(argv[2], 0, 10);
  int r = argv[1][0] == 'v' ? victim_vla(16, n) : victim(n);
  printf("returned %d\n", r);
  return 0;
}
"""


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_a_stack_smash_aborts_as_in_gccs_build(tmp_path, level):
    """Writing 64 bytes into a 16-byte local array aborts with glibc's
    message, as gcc's build does; writing 16 returns normally (also into a
    variable length array, whose function has a canary too: its overflow
    runs into the frame's other slots first, in gcc's build as in ours)."""
    src = tmp_path / "smash.c"
    src.write_text(SMASH_C)
    ours, gccs = tmp_path / "ours", tmp_path / "gcc"
    cc(level, "-fstack-protector-strong", src, "-o", ours)
    subprocess.run(["gcc", level, "-fstack-protector-strong", str(src), "-o", str(gccs)], check=True)
    for prog in (ours, gccs):
        for kind in ("fixed", "vla"):
            ok = subprocess.run([str(prog), kind, "16"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
            assert ok.returncode == 0 and ok.stdout == b"returned 65\n", (prog, kind, ok)
            if kind == "vla":
                continue
            bad = subprocess.run([str(prog), kind, "64"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
            assert bad.returncode == -6, (prog, kind, bad)  # SIGABRT
            assert b"*** stack smashing detected ***: terminated" in bad.stderr, (prog, kind, bad.stderr)
            assert bad.stdout == b""


def test_stack_protector_all_keeps_programs_running(tmp_path):
    """-fstack-protector-all: every function (leaf ones too, which then lose
    the red zone) checks its canary, and a program computes what gcc's does."""
    src = tmp_path / "p.c"
    src.write_text(r"""
#include <stdio.h>
#include <string.h>
struct s { char name[12]; int v; };
static int leaf(int x) { return x * 3 + 1; }
static struct s make(const char *n, int v) { struct s r; strcpy(r.name, n); r.v = v; return r; }
int walk(int n) { int a[8]; for (int i = 0; i < 8; i++) a[i] = leaf(i + n); return n ? a[n % 8] + walk(n - 1) : a[0]; }
int main(void) {
  struct s x = make("pipe", 7);
  char *d = __builtin_alloca(32);
  strcpy(d, x.name);
  printf("%s %d %d\n", d, x.v, walk(20));
  return 0;
}
""")
    for level in ("-O0", "-O1", "-O2"):
        cc(level, "-fstack-protector-all", src, "-o", tmp_path / "ours")
        subprocess.run(["gcc", level, "-fstack-protector-all", str(src), "-o", str(tmp_path / "gcc")], check=True)
        ours = subprocess.run([str(tmp_path / "ours")], stdout=subprocess.PIPE, timeout=30)
        gccs = subprocess.run([str(tmp_path / "gcc")], stdout=subprocess.PIPE, timeout=30)
        assert ours.returncode == 0 and ours.stdout == gccs.stdout, (level, ours)
        assert len(guarded(tmp_path / "ours")) >= 1


def test_the_stack_protect_hint_round_trips_and_inlining_passes_it_on(tmp_path):
    """The mark is the function hint `stack_protect` in every encoding; a
    caller that inlines a guarded callee is guarded too."""
    src = tmp_path / "i.c"
    src.write_text("void use(char *);\n"
                   "static int inner(void) { char b[32]; use(b); return b[2]; }\n"
                   "int outer(void) { return inner() + 1; }\n")
    ast = tmp_path / "i.ast.txt"
    cc("-fstack-protector", "--stop-after=c2ast", "-c", src, "-o", ast)
    text = ast.read_text()
    assert re.search(r"pipeline inner\(\) -> i32 hint stack_protect", text), text
    assert re.search(r"pipeline outer\(\) -> i32 \{", text), text
    fmt = str(BUILD / "pipe-fmt")
    for enc in ("json", "bin"):
        other = subprocess.run([fmt, str(ast), "-f", enc, "-o", str(tmp_path / ("i." + enc))], check=True)
        back = subprocess.run([fmt, str(tmp_path / ("i." + enc)), "-f", "text"], stdout=subprocess.PIPE, check=True)
        assert back.stdout.decode() == text
    obj = tmp_path / "i.o"
    cc("-O2", "-fstack-protector", "-c", src, "-o", obj)
    code = disassembly(obj)
    assert "inner" not in code and "outer" in guarded(obj), code
    assert "victim_vla" in guarded_of(SMASH_C, tmp_path, "-fstack-protector")


def guarded_of(source, tmp_path, *flags):
    src = tmp_path / "g.c"
    src.write_text(source)
    cc(*flags, "-c", src, "-o", tmp_path / "g.o")
    return guarded(tmp_path / "g.o")


CLASH_C = r"""
#include <stdio.h>
#include <string.h>
__attribute__((noinline, noipa)) void use(char *p) { p[0] = 1; }
int small(void) { char b[1000]; use(b); return b[0]; }
int mid(void) { char b[5000]; use(b); return b[0]; }
int three(void) { char b[3 * 4096 + 100]; use(b); return b[0]; }
int big(void) { char b[100000]; use(b); return b[0]; }
__attribute__((noinline)) int vla(int n) { char b[n]; memset(b, 2, n); return b[n - 1] + b[0]; }
int main(void) {
  int s = small() + mid() + three() + big();
  for (int n = 1; n < 300000; n = n * 3 + 7) s += vla(n);
  printf("%d\n", s);
  return 0;
}
"""


def probes(code):
    return sum(1 for line in code if re.match(r"orq\s+\$0x0,\(%rsp\)", line))


def test_stack_clash_protection_probes_each_page_of_large_frames_as_gcc(tmp_path):
    """-fstack-clash-protection: a frame of a page or more is taken a page
    at a time, each page written before the next (unrolled up to four pages,
    then a loop down to a bound in r11), as gcc does; VLAs and alloca grow
    the same way; the program computes what gcc's build does."""
    src = tmp_path / "clash.c"
    src.write_text(CLASH_C)
    for level in ("-O0", "-O2"):
        ours, gccs = tmp_path / "ours.o", tmp_path / "gcc.o"
        cc(level, "-fstack-clash-protection", "-c", src, "-o", ours)
        subprocess.run(["gcc", level, "-fstack-clash-protection", "-c", str(src), "-o", str(gccs)], check=True)
        o, g = disassembly(ours), disassembly(gccs)
        for fn in ("small", "mid", "three"):
            assert probes(o[fn]) == probes(g[fn]), (level, fn, o[fn], g[fn])
        assert probes(o["small"]) == 0 and probes(o["three"]) == 3, o["three"]
        loop = "\n".join(o["big"])
        assert re.search(r"lea\s+-0x18000\(%rsp\),%r11", loop) and re.search(r"cmp\s+%r11,%rsp", loop), loop
        assert probes(o["big"]) == 1 and probes(o["vla"]) >= 1, o["vla"]
        cc(level, "-c", src, "-o", ours)  # without the flag: no probe
        assert all(probes(code) == 0 for code in disassembly(ours).values())
        cc(level, "-fstack-clash-protection", "-fstack-protector-strong", src, "-o", tmp_path / "prog")
        subprocess.run(["gcc", level, str(src), "-o", str(tmp_path / "gprog")], check=True)
        out = subprocess.run([str(tmp_path / "prog")], stdout=subprocess.PIPE, timeout=30)
        assert out.returncode == 0 and out.stdout == subprocess.run([str(tmp_path / "gprog")],
                                                                     stdout=subprocess.PIPE).stdout


FRAME_CHAIN_C = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
struct frame { struct frame *next; void *ret; };
__attribute__((noinline)) int walk(int depth) {
  struct frame *fp;
  __asm__ volatile("mov %%rbp, %0" : "=r"(fp));
  for (int i = 0; i < 16 && fp; i++) {
    Dl_info info;
    if (!dladdr(fp->ret, &info) || !info.dli_sname) break;
    printf("%s\n", info.dli_sname);
    if (info.dli_sname[0] == 'm') break;  /* main */
    fp = fp->next;
  }
  return depth;
}
__attribute__((noinline)) int leaf(int x) { return x * 7; }
__attribute__((noinline)) int level2(int n) { char big[300]; big[n] = (char)n; return walk(n) + leaf(big[n]); }
__attribute__((noinline)) int level1(int n) { int v[n + 1]; v[n] = n; return level2(v[n]) + 1; }
int main(void) { return level1(3) == 25 ? 0 : 1; }
"""


def test_no_omit_frame_pointer_keeps_the_rbp_chain_in_every_function(tmp_path):
    """-fno-omit-frame-pointer: every function (leaves too) starts with
    push %rbp; mov %rsp,%rbp, so a walk of the rbp chain from the innermost
    frame names every caller up to main, as in gcc's build; without it
    codegen-x64 keeps rbp allocatable."""
    src = tmp_path / "chain.c"
    src.write_text(FRAME_CHAIN_C)
    for level in ("-O0", "-O2"):
        ours, gccs = tmp_path / "ours", tmp_path / "gcc"
        cc(level, "-fno-omit-frame-pointer", "-rdynamic", src, "-o", ours)
        subprocess.run(["gcc", level, "-fno-omit-frame-pointer", "-rdynamic", str(src), "-o", str(gccs)], check=True)
        want = subprocess.run([str(gccs)], stdout=subprocess.PIPE, timeout=30)
        got = subprocess.run([str(ours)], stdout=subprocess.PIPE, timeout=30)
        assert want.stdout.decode().split() == ["level2", "level1", "main"], want
        assert got.returncode == 0 and got.stdout == want.stdout, (level, got.stdout)
        obj = tmp_path / "chain.o"
        cc(level, "-fno-omit-frame-pointer", "-c", src, "-o", obj)
        for fn, code in disassembly(obj).items():
            assert re.match(r"push\s+%rbp", code[0]) and re.match(r"mov\s+%rsp,%rbp", code[1]), (fn, code[:3])
        cc(level, "-fno-omit-frame-pointer", "-fomit-frame-pointer", "-c", src, "-o", obj)
        assert not re.match(r"push\s+%rbp", disassembly(obj)["leaf"][0])


def test_frames_beyond_32_bit_offsets_are_refused_by_name(tmp_path):
    """Three locals of 1e9 bytes each fit one slot apiece but not one frame
    (32-bit offsets): codegen-x64 says so, exit 1, no object; it never lays
    the frame out with offsets that wrap."""
    src = tmp_path / "frame.c"
    src.write_text("int f(int i) { char a[1000000000], b[1000000000], c[1000000000];\n"
                   "  a[i] = 1; b[i] = 2; c[i] = 3; return a[i + 1] + b[i] + c[i]; }\n")
    proc = cc("-O0", "-c", src, "-o", tmp_path / "frame.o", check=1)
    assert "function 'f': error: stack frame of 3000000000 bytes (frames up to 1 GiB)" in proc.stderr.decode()
    assert not (tmp_path / "frame.o").exists()
