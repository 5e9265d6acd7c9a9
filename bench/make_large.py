#!/usr/bin/env python3
"""Builds large exports by repeating the lab's kernels with fresh result IDs.

    python3 bench/make_large.py fixtures/lab/raw.csv.xz target/bench/raw_200mb.csv 200
    python3 bench/make_large.py fixtures/lab/details_all.csv.xz target/bench/details_200mb.csv 200

Copy k of result i gets ID k * 26 + i; everything else is the lab's bytes, so
the findings on the large file are the lab's findings repeated. A source page
(it has no IDs; its blocks follow the results in order) is repeated whole.
A size of `xN` asks for N copies instead of megabytes:

    python3 bench/make_large.py fixtures/lab/raw.csv.xz target/bench/raw_pair.csv x60
    python3 bench/make_large.py fixtures/lab/source_cuda_sass.csv.xz target/bench/source_pair.csv x60
"""
import lzma
import re
import sys

source, target, size = sys.argv[1], sys.argv[2], sys.argv[3]
opener = lzma.open if source.endswith(".xz") else open
with opener(source, "rt", encoding="utf-8", newline="") as f:
    text = f.read()
lines = text.split("\n")

if lines[0].startswith(('"File Path"', '"Kernel Name"', '"Function Name"', '"File Name"')):
    body = text if text.endswith("\n") else text + "\n"
    copies = int(size[1:]) if size.startswith("x") else max(1, int(float(size) * 1e6 / len(body)))
    with open(target, "w", encoding="utf-8", newline="") as out:
        for _ in range(copies):
            out.write(body)
    print(f"{target}: {copies} copies of the source page")
    sys.exit(0)

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
copies = int(size[1:]) if size.startswith("x") else max(1, int(float(size) * 1e6 / size_per_copy))

with open(target, "w", encoding="utf-8", newline="") as out:
    out.write("\n".join(prologue) + "\n")
    for k in range(copies):
        offset = k * per_copy
        out.write("\n".join(
            ID.sub(lambda m: f'"{int(m.group(1)) + offset}",', r, count=1) for r in rows
        ) + "\n")
print(f"{target}: {copies} copies of {per_copy} results, {copies * per_copy} results")
