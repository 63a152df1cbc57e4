"""Thread-local storage (issue 19, "Atomics and threads") beyond the corpus.

The single-threaded meaning of every form (file and function scope,
initialized and zero, arrays, structs, pointers, addresses taken,
tls_model) is the corpus program tests/c/tls_basic.c, at every pipe-run
level and natively at -O0/-O1/-O2 (tests/test_c_programs.py,
tests/test_native.py); the interop pair tests/interop/ta.c + tb.c
(executables: local-exec and initial-exec) is in tests/test_native.py.
Here:
  - real threads: tests/threads/tls_threads.c, 4 threads each updating its
    own counter, array and struct, built by pipecc at -O0 and -O2, prints
    what gcc's build prints;
  - general-dynamic across compilers: ta.c and tb.c built with -fPIC by
    gcc and pipecc in every mix, linked into an executable (the linker
    relaxes the __tls_get_addr calls);
  - a shared library built by `pipecc -fPIC -shared` that defines and uses
    thread-local variables (tb.c), used by gcc's executable (ta.c), and a
    library loaded with dlopen whose thread-local counter each thread sees
    afresh;
  - the access model each case gets (objdump -dr and readelf of pipecc's
    objects): gcc's choices, the exact general-dynamic byte sequence, the
    .tdata/.tbss sections and STT_TLS symbols.
"""
import re
import subprocess

import pytest

from conftest import BUILD, ROOT

PIPECC = BUILD / "pipecc"
THREADS = ROOT / "tests" / "threads"
INTEROP = ROOT / "tests" / "interop"


def run(argv, timeout=300, **kw):
    return subprocess.run([str(a) for a in argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=timeout, **kw)


def built(argv):
    p = run(argv)
    assert p.returncode == 0, f"$ {' '.join(map(str, argv))}\n{p.stderr}"


def compiler(who):
    return PIPECC if who == "pipecc" else "gcc"


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_tls_under_real_threads(opt, tmp_path):
    src = THREADS / "tls_threads.c"
    built(["gcc", "-O2", "-pthread", src, "-o", tmp_path / "want"])
    want = run([tmp_path / "want"])
    assert want.returncode == 0 and "distinct 1" in want.stdout
    built([PIPECC, opt, "-pthread", src, "-o", tmp_path / "got"])
    for _ in range(2):
        got = run([tmp_path / "got"], timeout=120)
        assert (got.returncode, got.stdout) == (0, want.stdout), \
            f"build/pipecc {opt} -pthread {src} -o /tmp/t && /tmp/t\n{got.stdout}{got.stderr}"


MIXES = [("pipecc", "gcc"), ("gcc", "pipecc"), ("pipecc", "pipecc")]


def reference_output(tmp_path):
    built(["gcc", "-pthread", INTEROP / "ta.c", INTEROP / "tb.c", "-o", tmp_path / "want"])
    want = run([tmp_path / "want"])
    assert want.returncode == 0 and want.stdout
    return want.stdout


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
@pytest.mark.parametrize("mix", MIXES, ids=["-".join(m) for m in MIXES])
def test_general_dynamic_interop(mix, opt, tmp_path):
    """-fPIC objects (general-dynamic both ways) linked into one executable."""
    want = reference_output(tmp_path)
    objs = []
    for src, who in zip(("ta.c", "tb.c"), mix):
        obj = tmp_path / f"{src}.{who}.o"
        built([compiler(who), opt, "-fPIC", "-c", INTEROP / src, "-o", obj])
        objs.append(obj)
    built(["gcc", "-pthread", *objs, "-o", tmp_path / "got"])
    got = run([tmp_path / "got"])
    assert (got.returncode, got.stdout) == (0, want), f"ta.c by {mix[0]} + tb.c by {mix[1]}, -fPIC {opt}\n{got.stderr}"


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_shared_library_defines_and_uses_tls(opt, tmp_path):
    """tb.c as a shared library by pipecc -fPIC -shared (its variables used
    by the executable, the executable's used by it), ta.c by gcc."""
    want = reference_output(tmp_path)
    lib = tmp_path / "libtb.so"
    built([PIPECC, opt, "-fPIC", "-shared", INTEROP / "tb.c", "-o", lib])
    built(["gcc", "-pthread", INTEROP / "ta.c", "-L", tmp_path, "-ltb", f"-Wl,-rpath,{tmp_path}", "-o",
           tmp_path / "got"])
    got = run([tmp_path / "got"])
    assert (got.returncode, got.stdout) == (0, want), got.stderr
    # The library reaches the variables by the general-dynamic model (the
    # linker keeps it: a shared object cannot use the static models).
    relocs = run(["readelf", "-rW", lib]).stdout
    assert "R_X86_64_DTPMOD64" in relocs, relocs


DLOPEN_LIB = r"""
__thread long tls_count = 40;
static __thread int tls_calls;
__thread char tls_tag[8] = "lib";
long bump(long by) { tls_calls++; tls_count += by; tls_tag[0] = (char)('a' + tls_calls); return tls_count * 100 + tls_calls; }
long *count_address(void) { return &tls_count; }
const char *tag(void) { return tls_tag; }
"""

DLOPEN_MAIN = r"""
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
static long (*bump)(long);
static long *(*count_address)(void);
static const char *(*tag)(void);
static void *run(void *arg) {
  long by = (long)arg, r = 0;
  for (int i = 0; i < 3; i++) r = bump(by);
  printf("thread %ld: %ld %ld %s\n", by, r, *count_address(), tag());
  return 0;
}
int main(int argc, char **argv) {
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) { printf("dlopen: %s\n", dlerror()); return 1; }
  bump = (long (*)(long))dlsym(h, "bump");
  count_address = (long *(*)(void))dlsym(h, "count_address");
  tag = (const char *(*)(void))dlsym(h, "tag");
  pthread_t t[3];
  for (long i = 0; i < 3; i++) {
    pthread_create(&t[i], 0, run, (void *)(i + 1));
    pthread_join(t[i], 0);
  }
  run((void *)7);
  return 0;
}
"""


def test_dlopen_library_tls_per_thread(tmp_path):
    (tmp_path / "lib.c").write_text(DLOPEN_LIB)
    (tmp_path / "main.c").write_text(DLOPEN_MAIN)
    built(["gcc", "-pthread", tmp_path / "main.c", "-ldl", "-o", tmp_path / "main"])
    outs = {}
    for who in ("gcc", "pipecc"):
        lib = tmp_path / f"lib_{who}.so"
        built([compiler(who), "-O2", "-fPIC", "-shared", tmp_path / "lib.c", "-o", lib])
        p = run([tmp_path / "main", lib])
        assert p.returncode == 0, p.stdout + p.stderr
        outs[who] = p.stdout
    assert outs["pipecc"] == outs["gcc"]
    assert "thread 1: 4303 43 dib" in outs["gcc"]  # each thread starts from the initial image


MODELS = r"""
__thread int local_var = 1;
static __thread int static_var;
extern __thread int extern_var;
__attribute__((weak)) __thread int weak_var;
__attribute__((visibility("hidden"))) __thread int hidden_var;
extern __thread int ie_extern __attribute__((tls_model("initial-exec")));
extern __thread int le_extern __attribute__((tls_model("local-exec")));
__thread int gd_local __attribute__((tls_model("global-dynamic")));
int use_local(void) { return local_var; }
int use_static(void) { return static_var; }
int use_extern(void) { return extern_var; }
int use_weak(void) { return weak_var; }
int use_hidden(void) { return hidden_var; }
int use_ie_extern(void) { return ie_extern; }
int use_le_extern(void) { return le_extern; }
int use_gd_local(void) { return gd_local; }
"""

LE, IE, GD = "R_X86_64_TPOFF32", "R_X86_64_GOTTPOFF", "R_X86_64_TLSGD"
# function -> the relocation its access must carry, by gcc's rules (a
# requested model only ever makes it stronger).
WANT = {
    "": {"use_local": LE, "use_static": LE, "use_extern": IE, "use_weak": IE, "use_hidden": LE,
         "use_ie_extern": IE, "use_le_extern": LE, "use_gd_local": LE},
    "-fPIC": {"use_local": GD, "use_static": GD, "use_extern": GD, "use_weak": GD, "use_hidden": GD,
              "use_ie_extern": IE, "use_le_extern": LE, "use_gd_local": GD},
}


def relocations_by_function(obj):
    dump = run(["objdump", "-dr", obj]).stdout
    out, name = {}, None
    for line in dump.splitlines():
        m = re.match(r"^[0-9a-f]+ <(\w+)>:$", line)
        if m:
            name = m.group(1)
            out[name] = []
        elif name and "R_X86_64_" in line:
            out[name].append(line.split()[1])
    return out, dump


@pytest.mark.parametrize("pic", ["", "-fPIC"], ids=["exec", "pic"])
@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_access_models_are_gccs(pic, opt, tmp_path):
    src = tmp_path / "models.c"
    src.write_text(MODELS)
    obj = tmp_path / "models.o"
    built([PIPECC, opt, *([pic] if pic else []), "-c", src, "-o", obj])
    relocs, dump = relocations_by_function(obj)
    for fn, want in WANT[pic].items():
        tls = [r for r in relocs[fn] if r in (LE, IE, GD)]
        assert tls == [want], f"{fn} ({pic or 'default'} {opt}): {relocs[fn]}\n{dump}"
        if want == GD:
            assert "R_X86_64_PLT32" in relocs[fn], relocs[fn]


def test_general_dynamic_bytes_are_the_relaxable_sequence(tmp_path):
    """data16 leaq x@tlsgd(%rip),%rdi; data16 data16 rex64 call
    __tls_get_addr@PLT: 66 48 8d 3d <4> 66 66 48 e8 <4>, which ld rewrites."""
    src = tmp_path / "gd.c"
    src.write_text("extern __thread int x;\nint get(void) { return x; }\n")
    for kind in ("-c", "-S"):
        out = tmp_path / ("gd.o" if kind == "-c" else "gd.s")
        built([PIPECC, "-O2", "-fPIC", kind, src, "-o", out])
        obj = out
        if kind == "-S":
            obj = tmp_path / "gd_as.o"
            built(["as", out, "-o", obj])
        text = run(["objdump", "-d", obj]).stdout
        raw = "".join(" ".join(re.findall(r"^\s*[0-9a-f]+:\t((?:[0-9a-f]{2} )+)", text, re.M)).split())
        assert re.search("66488d3d........666648e8", raw), text


def test_sections_and_symbols(tmp_path):
    src = tmp_path / "sec.c"
    src.write_text("__thread int init_var = 5;\n__thread long zero_var;\n"
                   "static __thread char big[100] __attribute__((aligned(64)));\n"
                   "__thread const char *str = \"s\";\nchar *addr(void) { return big; }\n")
    for who in ("gcc", "pipecc"):
        built([compiler(who), "-O2", "-c", src, "-o", tmp_path / f"{who}.o"])
    secs = run(["readelf", "-SW", tmp_path / "pipecc.o"]).stdout
    assert re.search(r"\.tdata\s+PROGBITS.* WAT ", secs), secs
    assert re.search(r"\.tbss\s+NOBITS.* WAT ", secs), secs

    def symbols(obj):
        out = {}
        for line in run(["readelf", "-sW", obj]).stdout.splitlines():
            f = line.split()
            if len(f) == 8 and f[7] in ("init_var", "zero_var", "big", "str"):
                out[f[7]] = (f[2], f[3], f[4])  # size, type, binding
        return out
    mine, gccs = symbols(tmp_path / "pipecc.o"), symbols(tmp_path / "gcc.o")
    assert mine == gccs and all(t == "TLS" for _, t, _ in mine.values()), (mine, gccs)
    # big is aligned to 64 in .tbss
    align = re.search(r"\.tbss\s+NOBITS\s+\S+\s+\S+\s+\S+\s+\S+\s+WAT\s+\d+\s+\d+\s+(\d+)", secs)
    assert align and int(align.group(1)) >= 64, secs


def test_pipe_run_gives_each_variable_its_own_storage(tmp_path):
    src = tmp_path / "one.c"
    src.write_text("__thread int a = 1, b = 2;\nint main(void) { a += 10; b *= 3; return a * 10 + b; }\n")
    p = run([PIPECC, "-O2", "--stop-after=son-lower-x64", "-o", tmp_path / "one.son", src])
    assert p.returncode == 0, p.stderr
    r = run([BUILD / "pipe-run", tmp_path / "one.son"])
    assert r.returncode == 116, r.stdout + r.stderr


def test_has_feature_c_thread_local(tmp_path):
    src = tmp_path / "f.c"
    src.write_text("#if !__has_feature(c_thread_local) || !__has_extension(c_thread_local)\n#error no\n#endif\n"
                   "_Thread_local int x;\nint main(void) { return x; }\n")
    built([PIPECC, "-std=c11", "-c", src, "-o", tmp_path / "f.o"])


def test_corpus_program_at_O1(tmp_path):
    """tests/c/tls_basic.c runs at every pipe-run level and natively at -O0
    and -O2 with the corpus; -O1 here."""
    src = ROOT / "tests" / "c" / "tls_basic.c"
    built(["gcc", "-O0", "-w", src, "-o", tmp_path / "want"])
    built([PIPECC, "-O1", src, "-o", tmp_path / "got"])
    want, got = run([tmp_path / "want"]), run([tmp_path / "got"])
    assert (got.returncode, got.stdout) == (want.returncode, want.stdout), got.stdout + got.stderr


BAD_TLSADDR = """module son
data plain size 4 align 4

pipeline f() -> i32 {
  i0 = start
  i1 = entrymem ^i0
  i2 = tlsaddr "plain"
  i3 = load ^i0, "i32", i1, i2
  i4 = return ^i0, i1, i3
}
"""


@pytest.mark.parametrize("tool", ["son-lower-x64", "sonopt", "pipe-run"])
def test_tlsaddr_of_an_ordinary_global_is_rejected(tool, tmp_path):
    src = tmp_path / "bad.txt"
    src.write_text(BAD_TLSADDR)
    out = tmp_path / "out.bin"
    p = run([BUILD / tool, src, *([] if tool == "pipe-run" else ["-o", out])])
    assert p.returncode == 1, p.stdout + p.stderr
    assert "function 'f'" in p.stderr and "i2" in p.stderr and \
        "'tlsaddr' names 'plain', which is not a thread-local (tls) data item" in p.stderr, p.stderr
    assert not out.exists()
