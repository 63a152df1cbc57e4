#!/usr/bin/env python3
"""bench_code.py BUILD_DIR [--runs N] [KERNEL...] - speed of generated code.

Every kernel in scripts/kernels/ (written for this project: integer
kernels, floating-point ones fp_*, and programs prog_* of the kinds classic
benchmark suites hold, which we did not tune to) is built by each compiler
below; the outputs must agree with gcc -O2's and, at the cachegrind size,
with scripts/kernels/expected/ (a build that prints anything else is
reported, not timed). Then, per kernel and compiler:
the best wall time of N runs at the benchmark size, and the instructions
executed (valgrind's cachegrind, I refs) at the smaller cachegrind size,
a figure that stays stable on a shared machine. Last, the geometric mean of
each column relative to gcc -O2, for the integer kernels, the
floating-point ones and the programs apart. Every build links with -lm. A benchmark, not a test: it prints
Markdown tables for the README. A compiler that is not installed, or a
pipecc level whose stages are not built yet, shows as n/a.
"""
import math
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
KERNELS = ROOT / "scripts" / "kernels"
# argv[1] for the cachegrind runs (smaller than each kernel's default size).
# argv[1] for the timed runs: four times each kernel's default size, so that
# gcc -O2's build runs for about 0.2 to 0.4 s and the timer's resolution and
# process start-up stay small against it.
# The floating-point kernels (fp_*, issue 18) take sizes that give gcc -O2
# 0.3 to 0.6 s in the timed runs; their geometric mean is reported apart from
# the integer kernels'.
TIME_SCALE = {"bits": "12000000", "divmod": "32000000", "fib": "41", "hanoi": "24", "treewalk": "60", "listchase": "800", "manyargs": "240000000",
              "matmul": "400", "nestloop": "24", "objalloc": "100000000", "qsort": "6000000", "sieve": "80", "strhash": "16000000", "vm": "16000000",
              "fp_mandel": "1500", "fp_matmul": "80", "fp_nbody": "1000000", "fp_spectral": "2000",
              "fp_stencil": "2400",
              "prog_binarytrees": "16", "prog_crc": "800", "prog_fannkuch": "10", "prog_listsort": "8",
              "prog_nqueens": "14", "prog_shapes": "4000", "prog_treeinterp": "200000", "prog_wordfreq": "8000000"}
CACHEGRIND_SCALE = {"bits": "300000", "divmod": "800000", "fib": "27", "hanoi": "16", "treewalk": "2", "listchase": "20", "manyargs": "3000000",
                    "matmul": "5", "nestloop": "10", "objalloc": "1000000", "qsort": "150000", "sieve": "2", "strhash": "400000", "vm": "400000",
                    "fp_mandel": "200", "fp_matmul": "2", "fp_nbody": "20000", "fp_spectral": "200",
                    "fp_stencil": "40",
                    "prog_binarytrees": "12", "prog_crc": "20", "prog_fannkuch": "8", "prog_listsort": "1",
                    "prog_nqueens": "10", "prog_shapes": "200", "prog_treeinterp": "10000", "prog_wordfreq": "400000"}
# Each kernel's output at its cachegrind size, as gcc -O2's build prints it:
# the reference every build must print (tests/test_kernels.py checks
# pipecc's builds against it; here a build that prints anything else is
# reported and not timed).
EXPECTED = KERNELS / "expected"


def kernel_group(name):
    """integer and floating-point kernels (written and tuned for this
    project), and programs (prog_*: the kinds classic benchmark suites hold,
    written for issue 21 and not tuned to)."""
    if name.startswith("fp_"):
        return "floating-point"
    return "programs" if name.startswith("prog_") else "integer"


def compilers(build):
    pipecc = str(pathlib.Path(build) / "pipecc")
    table = [("pipecc -O0", [pipecc, "-O0"]), ("pipecc -O1", [pipecc, "-O1"]), ("pipecc -O2", [pipecc, "-O2"]),
             ("gcc -O0", ["gcc", "-O0"]), ("gcc -O1", ["gcc", "-O1"]), ("gcc -O2", ["gcc", "-O2"]),
             ("clang -O2", ["clang", "-O2"]), ("tcc", ["tcc"])]
    return [(name, cmd) for name, cmd in table if shutil.which(cmd[0])]


def build(cmd, src, exe):
    proc = subprocess.run(cmd + ["-w", str(src), "-o", str(exe), "-lm"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=600)
    return proc.returncode == 0, proc.stderr.decode(errors="replace")


def best_time(exe, runs, scale):
    # Popen and a blocking wait: subprocess.run with a timeout polls the child
    # with sleeps of up to 50 ms, which rounded every time up to a step of
    # the poll.
    best = math.inf
    for _ in range(runs):
        t = time.perf_counter()
        proc = subprocess.Popen([str(exe), scale], stdout=subprocess.DEVNULL)
        if proc.wait() != 0:
            raise RuntimeError(f"{exe} exited with {proc.returncode}")
        best = min(best, time.perf_counter() - t)
    return best


def instructions(exe, scale, tmp):
    out = tmp / "cg.out"
    proc = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}",
                           str(exe), scale], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=3600)
    m = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr.decode())
    return int(m.group(1).replace(",", "")) if m else None


def son_nodes(build, src, scale, tmp):
    """Executed nodes (pipe-run --stats) at the son level, before and after
    sonopt -O2: a figure of the optimizer alone that does not depend on the
    machine. None where a stage fails."""
    b = pathlib.Path(build)
    son, opt = tmp / "k.son.bin", tmp / "k.son-O2.bin"
    front = subprocess.run(f"{b}/c2ast {src} -f bin | {b}/ast2cfg -f bin | {b}/cfg2ssa -f bin | "
                           f"{b}/ssa2son -f bin -o {son}", shell=True, stderr=subprocess.PIPE, timeout=600)
    if front.returncode != 0 or subprocess.run([str(b / "sonopt"), str(son), "-O2", "-f", "bin", "-o", str(opt)],
                                               stderr=subprocess.PIPE, timeout=600).returncode != 0:
        return None, None
    counts = []
    for module in (son, opt):
        proc = subprocess.run([str(b / "pipe-run"), str(module), "--stats", "--", scale], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=3600)
        m = re.search(r"stats: (\d+) nodes", proc.stderr.decode())
        counts.append(int(m.group(1)) if m else None)
    return counts[0], counts[1]


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def main():
    args = sys.argv[1:]
    build_dir, runs, only = args[0], 5, []
    rest = args[1:]
    while rest:
        a = rest.pop(0)
        if a == "--runs":
            runs = int(rest.pop(0))
        else:
            only.append(a)
    kernels = sorted(p for p in KERNELS.glob("*.c") if not only or p.stem in only)
    comps = compilers(build_dir)
    times, counts, notes, nodes = {}, {}, [], {}
    with tempfile.TemporaryDirectory() as tmpname:
        tmp = pathlib.Path(tmpname)
        for src in kernels:
            k = src.stem
            outputs = {}
            for name, cmd in comps:
                exe = tmp / f"{k}-{name.replace(' ', '').replace('-', '')}"
                ok, err = build(cmd, src, exe)
                if not ok:
                    notes.append(f"{k}, {name}: build failed: {err.strip().splitlines()[-1] if err.strip() else '?'}")
                    continue
                outputs[name] = (exe, subprocess.run([str(exe)], stdout=subprocess.PIPE, timeout=600).stdout)
            reference = outputs.get("gcc -O2", (None, None))[1]
            expected = (EXPECTED / f"{k}.txt").read_bytes()
            for name, (exe, out) in outputs.items():
                if out != reference:
                    notes.append(f"{k}, {name}: output differs from gcc -O2's; not timed")
                    continue
                small = subprocess.run([str(exe), CACHEGRIND_SCALE[k]], stdout=subprocess.PIPE, timeout=600).stdout
                if small != expected:
                    notes.append(f"{k}, {name}: output at size {CACHEGRIND_SCALE[k]} differs from "
                                 f"{EXPECTED.name}/{k}.txt; not timed")
                    continue
                times[(k, name)] = best_time(exe, runs, TIME_SCALE[k])
                counts[(k, name)] = instructions(exe, CACHEGRIND_SCALE[k], tmp) if shutil.which("valgrind") else None
            if pathlib.Path(build_dir, "pipe-run").exists():
                nodes[k] = son_nodes(build_dir, src, CACHEGRIND_SCALE[k], tmp)
            print(f"{k}: done", file=sys.stderr)
    names = [n for n, _ in comps]
    for title, data, fmt in [("Run time, best of %d runs (seconds)" % runs, times, "{:.3f}"),
                             ("Executed instructions (cachegrind I refs, millions, at the smaller size)", counts,
                              "{:.1f}")]:
        print(f"\n{title}\n")
        print("| kernel | " + " | ".join(names) + " |")
        print("| --- |" + " --- |" * len(names))
        for src in kernels:
            cells = []
            for n in names:
                v = data.get((src.stem, n))
                cells.append("n/a" if v is None else fmt.format(v / 1e6 if data is counts else v))
            print(f"| {src.stem} | " + " | ".join(cells) + " |")
        for group in ("integer", "floating-point", "programs"):
            members = [s for s in kernels if kernel_group(s.stem) == group]
            if not members:
                continue
            ratios = []
            for n in names:
                rs = [data[(s.stem, n)] / data[(s.stem, "gcc -O2")] for s in members
                      if data.get((s.stem, n)) and data.get((s.stem, "gcc -O2"))]
                g = geomean(rs) if len(rs) == len(members) else None
                ratios.append("n/a" if g is None else f"{g:.2f}x")
            print(f"| geomean vs gcc -O2 ({group}) | " + " | ".join(ratios) + " |")
    print("\nExecuted nodes at the son level (pipe-run --stats, millions, at the smaller size)\n")
    print("| kernel | before sonopt | after sonopt -O2 | after / before |")
    print("| --- | --- | --- | --- |")
    ratios = []
    for src in kernels:
        before, after = nodes.get(src.stem, (None, None))
        if before and after:
            ratios.append(after / before)
            print(f"| {src.stem} | {before / 1e6:.1f} | {after / 1e6:.1f} | {after / before:.2f} |")
        else:
            print(f"| {src.stem} | n/a | n/a | n/a |")
    g = geomean(ratios)
    print(f"| geomean | | | {'n/a' if g is None else f'{g:.2f}'} |")
    if notes:
        print("\nNotes:\n")
        for n in notes:
            print(f"- {n}")


if __name__ == "__main__":
    main()
