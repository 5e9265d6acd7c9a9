#!/usr/bin/env python3
"""`.ncu-rep` reports read natively against their CSV exports: wall time
and peak memory of `ncu-lint check` on each, side by side.

    cargo build --release && python3 bench/ncu_rep.py

Decompresses the lab report and its raw and CUDA/SASS source pages into
target/bench/ and times, with /usr/bin/time, the best of REPEAT runs of:
the report read natively, and the two pages. Extra reports (path, then its
CSV pages) may be given on the command line, as for the training step:

    python3 bench/ncu_rep.py step.ncu-rep fixtures/step/raw.csv.xz fixtures/step/source.csv.xz
"""
import os
import subprocess
import sys

from unpack import plain

REPEAT = int(os.environ.get("REPEAT", "3"))
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "ncu-lint")


def best(args):
    """(seconds, peak KB) of the fastest of REPEAT runs."""
    runs = []
    for _ in range(REPEAT):
        r = subprocess.run(["/usr/bin/time", "-f", "%e %M", BIN, "check", "--no-config", *args],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        seconds, kb = r.stderr.strip().splitlines()[-1].split()
        runs.append((float(seconds), int(kb)))
    return min(runs)


cases = [(os.path.join(ROOT, "fixtures/lab/lab_full.ncu-rep.xz"),
          [os.path.join(ROOT, "fixtures/lab/raw.csv.xz"), os.path.join(ROOT, "fixtures/lab/source_cuda_sass.csv.xz")])]
if len(sys.argv) > 2:
    cases.append((sys.argv[1], sys.argv[2:]))
print("| report | MB | native s | native MB RSS | CSV pages MB | CSV s | CSV MB RSS | native / CSV |")
print("|---|---|---|---|---|---|---|---|")
for report, pages in cases:
    report = plain(report)
    pages = [plain(p) for p in pages]
    native = best([report])
    csv = best(pages)
    size = os.path.getsize(report) / 1e6
    pages_size = sum(os.path.getsize(p) for p in pages) / 1e6
    print(f"| {os.path.basename(report)} | {size:.0f} | {native[0]:.2f} | {native[1] / 1024:.0f} | "
          f"{pages_size:.1f} | {csv[0]:.2f} | {csv[1] / 1024:.0f} | {native[0] / max(csv[0], 0.005):.1f}x |")
