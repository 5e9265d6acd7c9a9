#!/usr/bin/env python3
"""Builds src/ingest/labels.tsv, the details-label to metric-name table.

Input: details exports made with `--print-metric-name label-name`, where each
metric row prints `Label (metric_name)`; for example, from the lab report:

    ncu -i lab_full.ncu-rep --csv --print-metric-name label-name > a.csv
    ncu -i lab_full.ncu-rep --csv --print-details all --print-metric-name label-name > b.csv
    python3 scripts/labels_tsv.py a.csv b.csv > src/ingest/labels.tsv

A (section, body item, label) that names more than one metric is left out,
so the importer keeps such rows under their label rather than guess.
"""
import csv
import io
import lzma
import re
import sys
from collections import defaultdict

PAIR = re.compile(r"^(.*) \(([A-Za-z0-9_.]+)\)$")

names = defaultdict(list)
for path in sys.argv[1:]:
    stream = io.TextIOWrapper(lzma.open(path)) if path.endswith(".xz") else open(path)
    rows = csv.reader(stream)
    header = next(rows)
    section, label = header.index("Section Name"), header.index("Metric Name")
    body = header.index("Body Item Label") if "Body Item Label" in header else None
    for row in rows:
        if len(row) <= label or not row[0].isdigit():
            continue
        match = PAIR.match(row[label])
        if not match:
            continue
        key = (row[section], row[body] if body is not None else "", match.group(1))
        if match.group(2) not in names[key]:
            names[key].append(match.group(2))

print("# section\tbody item\tlabel\tmetric name (scripts/labels_tsv.py, from Nsight Compute 2025.3.1 label-name exports of the lab report)")
for (section, body, label), found in names.items():
    if len(found) == 1:
        print(f"{section}\t{body}\t{label}\t{found[0]}")
