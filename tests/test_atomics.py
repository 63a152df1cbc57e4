"""Atomics (issue 19, "Atomics and threads") beyond the corpus.

The single-threaded semantics of every form are the corpus programs
tests/c/atomic_*.c (every level under pipe-run, natively at -O0 and -O2).
Here:
  - real threads: tests/threads/atomic_threads.c, 4 threads x 100000
    updates through every kind of atomic (xadd, _Atomic ++, a 16-bit
    __sync add, or and nand loops (__atomic and __sync), a CAS loop, a CAS spin lock guarding a
    plain counter, an atomic_flag lock), built by pipecc at -O0 and -O2
    with -pthread, must print the totals gcc's build prints (a lost update
    shows as a smaller total), three runs each;
  - the machine code is gcc's: each operation becomes the instruction gcc
    picks (objdump of pipecc -O2 -c).
Thread-local variables are tests/test_tls.py.
"""
import subprocess

import pytest

from conftest import BUILD, ROOT

PIPECC = BUILD / "pipecc"
THREADS = ROOT / "tests" / "threads"


def run(argv, timeout=300):
    return subprocess.run([str(a) for a in argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=timeout)


def built(argv):
    p = run(argv)
    assert p.returncode == 0, f"$ {' '.join(map(str, argv))}\n{p.stderr}"


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_atomics_under_real_threads(opt, tmp_path):
    src = THREADS / "atomic_threads.c"
    built(["gcc", "-O2", "-pthread", src, "-o", tmp_path / "want"])
    want = run([tmp_path / "want"])
    assert want.returncode == 0
    built([PIPECC, opt, "-pthread", src, "-o", tmp_path / "got"])
    for _ in range(3):
        got = run([tmp_path / "got"], timeout=120)
        assert (got.returncode, got.stdout) == (0, want.stdout), \
            f"build/pipecc {opt} -pthread {src} -o /tmp/t && /tmp/t\n{got.stdout}{got.stderr}"


SEQUENCES = r"""
int i; short s; long l; char c; int *p;
int fetch_add(int v) { return __atomic_fetch_add(&i, v, __ATOMIC_SEQ_CST); }
void add_unused(int v) { __atomic_fetch_add(&i, v, __ATOMIC_RELAXED); }
long fetch_or(long v) { return __atomic_fetch_or(&l, v, __ATOMIC_SEQ_CST); }
short nand(short v) { return __atomic_nand_fetch(&s, v, __ATOMIC_SEQ_CST); }
int cas(int e, int d) { return __sync_bool_compare_and_swap(&i, e, d); }
void store_sc(long v) { __atomic_store_n(&l, v, __ATOMIC_SEQ_CST); }
void store_rel(long v) { __atomic_store_n(&l, v, __ATOMIC_RELEASE); }
int *swap(int *q) { return __atomic_exchange_n(&p, q, __ATOMIC_SEQ_CST); }
char tas(void) { return __atomic_test_and_set(&c, __ATOMIC_SEQ_CST); }
void fence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void acquire_fence(void) { __atomic_thread_fence(__ATOMIC_ACQUIRE); }
"""

# Function -> instructions its body must hold, as objdump spells them (gcc -O2's choices).
EXPECTED = {
    "fetch_add": ["lock xadd %eax,"],
    "add_unused": ["lock add %"],
    "fetch_or": ["lock cmpxchg %rdx,", "jne"],
    "nand": ["not ", "lock cmpxchg %dx,"],
    "cas": ["lock cmpxchg %"],
    "store_sc": ["xchg %rax,"],
    "swap": ["xchg %rax,"],
    "tas": ["xchg %al,"],
    "fence": ["lock orq $0x0,(%rsp)"],
}


def test_machine_code_is_gccs(tmp_path):
    src = tmp_path / "seq.c"
    src.write_text(SEQUENCES)
    obj = tmp_path / "seq.o"
    built([PIPECC, "-O2", "-c", src, "-o", obj])
    dump = run(["objdump", "-d", "--no-show-raw-insn", obj]).stdout
    bodies, name = {}, None
    for line in dump.splitlines():
        if line.endswith(">:"):
            name = line.split("<")[1].rstrip(">:")
            bodies[name] = []
        elif name and "\t" in line:
            bodies[name].append(" ".join(line.split("\t", 1)[1].split()))
    for fn, wanted in EXPECTED.items():
        text = "\n".join(bodies[fn])
        for w in wanted:
            assert " ".join(w.split()) in text, f"{fn}: no `{w}` in\n{text}"
    # A release store and an acquire fence are plain code: no lock, no xchg, no fence.
    for fn in ("store_rel", "acquire_fence"):
        text = "\n".join(bodies[fn])
        assert "lock" not in text and "xchg" not in text and "fence" not in text, f"{fn}:\n{text}"
