#!/usr/bin/env python3
"""Which findings a model change moves on the profiles no twin measured.

    python3 bench/findings_moved.py OLD_BINARY NEW_BINARY [SHARED_DIR]

Runs `check --no-config --format json --fail-on never` with both builds of
ncu-lint on the lab's exports (raw, details and details_all pages beside
the source page, and the report itself), every public CSV export and each
corpus report (the .ncu-rep, and its raw and details pages beside its
source page), and prints each finding whose severity, message, fix, saved
time or basis differs, or that one build has and the other lacks (keyed by
kernel ID and name, rule, file and line). SHARED_DIR defaults to ../shared
beside the checkout. Exits 1 when a finding moved, so a change that must
leave them be can be checked in one command.
"""
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def runs(shared):
    """The argument lists `check` is given: one list a run."""
    lab = os.path.join(shared, "ncu-lab")
    exports = os.path.join(lab, "exports")
    source = os.path.join(exports, "source_cuda_sass.csv")
    yield [os.path.join(exports, "raw.csv"), source]
    yield [os.path.join(exports, "details.csv"), source]
    yield [os.path.join(exports, "details_all.csv.xz"), source]
    yield [os.path.join(lab, "lab_full.ncu-rep.xz")]
    for path in sorted(glob.glob(os.path.join(shared, "corpus", "public", "*.csv"))):
        yield [path]
    for report in sorted(glob.glob(os.path.join(shared, "corpus", "reports", "*.ncu-rep.xz"))):
        stem = report[: -len(".ncu-rep.xz")]
        yield [report]
        for page in ("raw", "details"):
            if os.path.exists(f"{stem}.{page}.csv.xz"):
                yield [f"{stem}.{page}.csv.xz", f"{stem}.source.csv.xz"]


def findings(binary, args):
    """Each finding of one run, keyed by where it is, with what it says;
    or the error text where `check` could not read the input."""
    out = subprocess.run([binary, "check", "--no-config", "--format", "json", "--fail-on", "never", *args],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return {("error",): out.stderr.strip()[:200]}
    keyed = {}
    for f in json.loads(out.stdout)["findings"]:
        where = f.get("location") or {}
        impact = f.get("impact") or {}
        key = (f["kernel"]["id"], f["kernel"]["name"], f["rule"], where.get("file"), where.get("line"))
        keyed[key] = (f["severity"], f["message"], f.get("fix"), impact.get("saved_ns"), impact.get("basis"))
    return keyed


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    old, new = sys.argv[1], sys.argv[2]
    shared = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(ROOT), "shared")
    total, moved = 0, 0
    for args in runs(shared):
        total += 1
        before, after = findings(old, args), findings(new, args)
        for key in sorted(set(before) | set(after), key=str):
            if before.get(key) != after.get(key):
                moved += 1
                print(f"{' '.join(os.path.basename(a) for a in args)}: {key}\n  before: {before.get(key)}\n"
                      f"  after:  {after.get(key)}")
    print(f"{moved} findings moved over {total} runs")
    return 1 if moved else 0


if __name__ == "__main__":
    sys.exit(main())
