#!/usr/bin/env python3
"""bench_stages.py BUILD_DIR [SIZES...] - time and peak memory of each stage.

For generated C programs (scripts/gen_c_program.py) of each size in lines,
in two shapes (`many` small functions, and `long` functions), it runs
c2ast, ast2cfg, cfg2ssa, ssa2son, son2cfg (on son), son-lower-x64 (on son)
and son2cfg again (on son-x64, the "son2cfg-x64" column) one at a time on
saved binary input and reports each one's wall time and peak resident memory
(from wait4), plus the two x64 stages together, then the first four as one shell pipe against
`gcc -O0 -c` on the same file. Last, pipe-run's executed nodes per second at
the son level on loop-heavy programs (pipe-run --stats). A benchmark, not a
test: it prints a Markdown table for the README.

Then the whole pipeline (bench_whole_pipeline): `pipecc -O0 -c` and
`pipecc -O2 -c` (every stage from c2ast to codegen-x64, each its own process,
joined by pipes) on generated programs of 10k, 30k and 100k lines, against
`gcc -O0 -c`, `gcc -O2 -c` (one run), `tcc -c` and `clang -O0 -c` on the same
file (wall time, best of 5). `--pipeline-only` prints just that table;
`--sonopt-scaling` prints only bench_sonopt_scaling's (sonopt -O2's
instructions against function size).
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
# (column, tool, the column whose output it reads)
STAGES = [("c2ast", "c2ast", None), ("ast2cfg", "ast2cfg", "c2ast"), ("cfg2ssa", "cfg2ssa", "ast2cfg"),
          ("ssa2son", "ssa2son", "cfg2ssa"), ("son2cfg", "son2cfg", "ssa2son"),
          ("son-lower-x64", "son-lower-x64", "ssa2son"), ("son2cfg-x64", "son2cfg", "son-lower-x64")]

LOOP_PROGRAMS = {
    "sieve": r"""
#include <stdio.h>
static char composite[2000000];
int main(void) {
  unsigned count = 0;
  for (unsigned i = 2; i < 2000000u; i++) {
    if (composite[i]) continue;
    count++;
    for (unsigned j = i + i; j < 2000000u; j += i) composite[j] = 1;
  }
  printf("%u\n", count);
  return 0;
}
""",
    "nested-arith": r"""
#include <stdio.h>
int main(void) {
  unsigned h = 2166136261u;
  for (unsigned i = 0; i < 3000u; i++)
    for (unsigned j = 0; j < 1000u; j++)
      h = (h ^ (i * j + (j >> 3))) * 16777619u;
  printf("%u\n", h);
  return 0;
}
""",
}


def run_measured(argv, stdin_path, stdout_path):
    """Runs argv with files as stdin/stdout; returns (seconds, peak KiB)."""
    with open(stdin_path, "rb") as fin, open(stdout_path, "wb") as fout:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=fin, stdout=fout, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        err = proc.stderr.read().decode(errors="replace")
        proc.stderr.close()
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"bench-stages: {' '.join(argv)} failed:\n{err}")
    return elapsed, usage.ru_maxrss


def timed(argv, **kw):
    start = time.perf_counter()
    subprocess.run(argv, check=True, **kw)
    return time.perf_counter() - start


def bench_program(build, work, lines, shape):
    src = work / f"p{lines}{shape}.c"
    src.write_text(subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_c_program.py"), str(lines), shape,
                                   "1"], check=True, capture_output=True, text=True).stdout)
    real_lines = src.read_text().count("\n")
    row = {"lines": real_lines, "shape": shape}
    for column, stage, reads in STAGES:
        out = work / f"p{lines}{shape}.{column}.bin"
        if reads is None:
            seconds, kib = run_measured([str(build / stage), str(src), "-f", "bin"], src, out)
        else:
            seconds, kib = run_measured([str(build / stage), "-", "-f", "bin"],
                                        work / f"p{lines}{shape}.{reads}.bin", out)
        row[column] = (seconds, kib)
    row["bytes"] = {column: (work / f"p{lines}{shape}.{column}.bin").stat().st_size for column, _, _ in STAGES}
    pipe = (f"{build}/c2ast {src} -f bin | {build}/ast2cfg -f bin | {build}/cfg2ssa -f bin | "
            f"{build}/ssa2son -f bin > /dev/null")
    row["pipe"] = min(timed(["bash", "-o", "pipefail", "-c", pipe]) for _ in range(2))
    row["gcc"] = min(timed(["gcc", "-O0", "-w", "-c", str(src), "-o", str(work / "gcc.o")]) for _ in range(2))
    return row


def bench_interpreter(build, work, name, text):
    src = work / f"{name}.c"
    src.write_text(text)
    son = work / f"{name}.son.bin"
    subprocess.run(["bash", "-o", "pipefail", "-c",
                    f"{build}/c2ast {src} -f bin | {build}/ast2cfg -f bin | {build}/cfg2ssa -f bin | "
                    f"{build}/ssa2son -f bin > {son}"], check=True)
    proc = subprocess.run([str(build / "pipe-run"), str(son), "--stats"], capture_output=True, text=True)
    match = re.search(r"([0-9]+) nodes in ([0-9.]+) s", proc.stderr)
    if not match:
        sys.exit(f"bench-stages: pipe-run --stats printed no 'N nodes in S s' line:\n{proc.stderr}")
    nodes, seconds = int(match.group(1)), float(match.group(2))
    return nodes, seconds


PIPELINE_SIZES = (10000, 30000, 100000)
PIPELINE_RUNS = 5


def pipeline_compilers(build):
    """(column, argv before the source file) for the whole-pipeline table; a
    compiler that is not installed is left out."""
    table = [("pipecc -O0 -c", [str(build / "pipecc"), "-O0", "-w", "-c"]),
             ("pipecc -O2 -c", [str(build / "pipecc"), "-O2", "-w", "-c"]),
             ("gcc -O0 -c", ["gcc", "-O0", "-w", "-c"]), ("gcc -O2 -c", ["gcc", "-O2", "-w", "-c"]),
             ("tcc -c", ["tcc", "-w", "-c"]), ("clang -O0 -c", ["clang", "-O0", "-w", "-c"])]
    return [(name, argv) for name, argv in table if shutil.which(argv[0])]


def pipeline_runs(name):
    """gcc -O2 takes seconds to a minute per file: one run is enough to
    compare with; the others are best of PIPELINE_RUNS."""
    return 1 if name == "gcc -O2 -c" else PIPELINE_RUNS


def bench_whole_pipeline(build, work):
    """C to an object file through every stage (pipecc -c) against other
    compilers' -c on the same generated program: one Markdown table."""
    compilers = pipeline_compilers(build)
    print("| lines | shape | " + " | ".join(f"{name} s" for name, _ in compilers) + " |")
    print("| --- | --- | " + " | ".join("---" for _ in compilers) + " |")
    for lines in PIPELINE_SIZES:
        for shape in ("many", "long"):
            src = work / f"whole{lines}{shape}.c"
            src.write_text(subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_c_program.py"), str(lines),
                                           shape, "1"], check=True, capture_output=True, text=True).stdout)
            obj = work / "whole.o"
            # Best of PIPELINE_RUNS: on a shared 2-core machine a single run
            # can lose a core to a neighbour for a tenth of a second.
            cells = [f"{min(timed(argv + [str(src), '-o', str(obj)]) for _ in range(pipeline_runs(name))):.3f}"
                     for name, argv in compilers]
            print(f"| {src.read_text().count(chr(10))} | {shape} | " + " | ".join(cells) + " |", flush=True)


SCALING_SIZES = (3000, 10000, 30000, 100000)


def bench_sonopt_scaling(build, work):
    """Issue 9's "sonopt at most n log n in function size": `long` programs
    (four functions of about LINES/4 lines each) at growing sizes, sonopt -O2
    on their son module, executed instructions (cachegrind: the same on a
    busy machine; --stats keeps the serial order, so threads add nothing)
    per node and per node and log2 of the largest function's nodes. A flat
    last column is n log n."""
    print("| lines | nodes | largest function | sonopt -O2 instructions | per node | per node / log2(largest) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for lines in SCALING_SIZES:
        src = work / f"scale{lines}.c"
        src.write_text(subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_c_program.py"), str(lines), "long",
                                       "1"], check=True, capture_output=True, text=True).stdout)
        son = work / f"scale{lines}.son"
        subprocess.run([str(build / "pipecc"), "-O0", "--stop-after=ssa2son", "-o", str(son), str(src)], check=True,
                       capture_output=True)
        text = subprocess.run([str(build / "pipe-fmt"), "-f", "text", str(son)], check=True, capture_output=True,
                              text=True).stdout
        sizes, current = [], 0
        for line in text.splitlines():
            if re.match(r"\s+i\d+ = ", line):
                current += 1
            elif line.startswith("}"):
                sizes.append(current)
                current = 0
        nodes, largest = sum(sizes), max(sizes)
        proc = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                               str(build / "sonopt"), "-O2", "--stats", "-o", "/dev/null", str(son)],
                              capture_output=True, text=True, check=True)
        instructions = int(re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr).group(1).replace(",", ""))
        per_node = instructions / nodes
        print(f"| {src.read_text().count(chr(10))} | {nodes} | {largest} | {instructions / 1e9:.2f}G | "
              f"{per_node:.0f} | {per_node / math.log2(largest):.0f} |", flush=True)


def main():
    build = pathlib.Path(sys.argv[1])
    pipeline_only = "--pipeline-only" in sys.argv[2:]
    scaling_only = "--sonopt-scaling" in sys.argv[2:]
    sizes = [int(s) for s in sys.argv[2:] if not s.startswith("--")] or [1000, 10000, 100000]
    with tempfile.TemporaryDirectory(prefix="bench-stages-") as tmp:
        work = pathlib.Path(tmp)
        if scaling_only:
            bench_sonopt_scaling(build, work)
            return
        if pipeline_only:
            bench_whole_pipeline(build, work)
            return
        print("| lines | shape | " + " | ".join(f"{s} s / MiB" for s, _, _ in STAGES) +
              " | x64 stages s | pipe c2ast..ssa2son s | gcc -O0 -c s |")
        print("| --- | --- | " + " | ".join("---" for _ in STAGES) + " | --- | --- | --- |")
        for lines in sizes:
            for shape in ("many", "long"):
                row = bench_program(build, work, lines, shape)
                cells = [f"{row[s][0]:.3f} / {row[s][1] / 1024:.0f}" for s, _, _ in STAGES]
                x64 = row["son-lower-x64"][0] + row["son2cfg-x64"][0]
                print(f"| {row['lines']} | {shape} | " + " | ".join(cells) +
                      f" | {x64:.3f} | {row['pipe']:.3f} | {row['gcc']:.3f} |", flush=True)
        print()
        print("| program | executed nodes | seconds | M nodes/s |")
        print("| --- | --- | --- | --- |")
        for name, text in LOOP_PROGRAMS.items():
            nodes, seconds = bench_interpreter(build, work, name, text)
            print(f"| {name} | {nodes} | {seconds:.3f} | {nodes / seconds / 1e6:.1f} |", flush=True)
        print()
        bench_whole_pipeline(build, work)
        print()
        bench_sonopt_scaling(build, work)


if __name__ == "__main__":
    main()
