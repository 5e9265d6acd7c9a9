#!/usr/bin/env python3
"""The script a team would otherwise write: csv.reader, a dict per row."""
import csv
import sys

rows = 0
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    reader = csv.reader(f)
    header = next(reader)
    for row in reader:
        record = dict(zip(header, row))
        rows += 1
print(rows, "rows")
