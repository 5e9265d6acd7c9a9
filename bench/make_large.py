#!/usr/bin/env python3
"""Builds large exports by repeating the lab's kernels with fresh result IDs.

    python3 bench/make_large.py fixtures/lab/raw.csv.xz target/bench/raw_200mb.csv 200
    python3 bench/make_large.py fixtures/lab/details_all.csv.xz target/bench/details_200mb.csv 200

Copy k of result i gets ID k * 26 + i; everything else is the lab's bytes, so
the findings on the large file are the lab's findings repeated.
"""
import lzma
import re
import sys

source, target, megabytes = sys.argv[1], sys.argv[2], float(sys.argv[3])
opener = lzma.open if source.endswith(".xz") else open
with opener(source, "rt", encoding="utf-8", newline="") as f:
    lines = f.read().split("\n")

header = lines[0]
is_raw = '"Metric Value"' not in header
prologue = [header]
rows = lines[1:]
if is_raw and rows and rows[0].startswith('""'):
    prologue.append(rows[0])
    rows = rows[1:]
rows = [r for r in rows if r]
ids = set()
ID = re.compile(r'^"(\d+)",(?="\d+",)')
for r in rows:
    m = ID.match(r)
    if m:
        ids.add(int(m.group(1)))
per_copy = max(ids) + 1
size_per_copy = sum(len(r) + 1 for r in rows)
copies = max(1, int(megabytes * 1e6 / size_per_copy))

with open(target, "w", encoding="utf-8", newline="") as out:
    out.write("\n".join(prologue) + "\n")
    for k in range(copies):
        offset = k * per_copy
        out.write("\n".join(
            ID.sub(lambda m: f'"{int(m.group(1)) + offset}",', r, count=1) for r in rows
        ) + "\n")
print(f"{target}: {copies} copies of {per_copy} results, {copies * per_copy} results")
