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
"""
import os
import pathlib
import re
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


def main():
    build = pathlib.Path(sys.argv[1])
    sizes = [int(s) for s in sys.argv[2:]] or [1000, 10000, 100000]
    with tempfile.TemporaryDirectory(prefix="bench-stages-") as tmp:
        work = pathlib.Path(tmp)
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


if __name__ == "__main__":
    main()
