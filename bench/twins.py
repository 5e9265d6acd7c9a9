#!/usr/bin/env python3
"""ncu-lint's estimate of what a fix saves, against what it measurably saved.

    cargo build --release && python3 bench/twins.py [FIXTURE_DIR]

Each wasteful kernel of fixtures/twins/twins.cu (and heldout.cu and
cached.cu, the held-out sets, never used to set the models) was launched right before its fixed twin
(the same work with the waste removed), so results 2k and 2k+1 of each report
are a pair. The measured saving is the difference of their median durations
over twenty runs of the whole sequence that collected only the duration,
half of them with each pair's order reversed (SET.durations.raw.csv); the estimate is what `ncu-lint check` says a fix of the wasteful kernel is worth
(its places added up, as the ranking adds them); Nsight Compute's own estimate
is the largest Estimated Speedup of its memory rules for the same kernel
(details page) times its duration. Prints a Markdown table and the share of
twins within 1.5x; exits 1 when a twin is off by more than that.
"""
import csv
import json
import lzma
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIR = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "fixtures", "twins")
BINARY = os.path.join(ROOT, "target", "release", "ncu-lint")
# Nsight Compute's rules for the causes the twins hold.
NCU_RULES = {"UncoalescedGlobalAccess", "UncoalescedSharedAccess", "SharedMemoryConflicts"}
WITHIN = 1.5
# Pairs that, as profiled, do not differ in the waste they were written to
# differ in: shown, not judged.
NOT_TWINS = {
    "local_bins": "the compiler kept both kernels' bins in registers (heldout.ptxas.txt: no stack frame), "
                  "so the pair differs in instructions, not in local memory",
}


def rows(path):
    with lzma.open(path, "rt", newline="") as f:
        return list(csv.reader(f))


def durations(path, kernels):
    """Each kernel's name and median duration over the runs of the sequence
    of `kernels` launches. Odd runs launched each pair's fixed twin first
    (run.sh), so there position k holds the launch of kernel k ^ 1."""
    table = rows(path)
    header = table[0]
    name, duration = header.index("Kernel Name"), header.index("gpu__time_duration.sum")
    launches = [(r[name], float(r[duration].replace(",", ""))) for r in table[2:]]
    runs = len(launches) // kernels
    medians = []
    for k in range(kernels):
        mine = []
        for run in range(runs):
            at = run * kernels + (k ^ 1 if run % 2 else k)
            assert launches[at][0] == launches[k][0], f"{path}: launch {at} is not {launches[k][0]}"
            mine.append(launches[at][1])
        mine.sort()
        medians.append((launches[k][0], mine[len(mine) // 2]))
    return medians


def results(path):
    return len(rows(path)) - 2


def ncu_estimates(path):
    """Largest memory-rule speedup (percent) per result ID."""
    table = rows(path)
    header = table[0]
    idx = {h: i for i, h in enumerate(header)}
    best = {}
    for r in table[1:]:
        if len(r) < len(header) or r[idx["Rule Name"]] not in NCU_RULES:
            continue
        speedup = r[idx["Estimated Speedup"]].replace(",", "")
        if speedup:
            rid = int(r[idx["ID"]])
            best[rid] = max(best.get(rid, 0.0), float(speedup))
    return best


def lint(raw, source):
    out = subprocess.run(
        [BINARY, "check", "--no-config", "--format", "json", "--fail-on", "never", raw, source],
        capture_output=True, text=True, check=True)
    doc = json.loads(out.stdout)
    saved, duration = {}, {}
    for group in doc["groups"]:
        for i in group["findings"]:
            finding = doc["findings"][i]
            rid = finding["kernel"]["id"]
            impact = finding.get("impact") or {}
            duration[rid] = impact.get("kernel_ns")
        first = doc["findings"][group["findings"][0]]
        rid = first["kernel"]["id"]
        if group.get("saved_ns") is not None:
            saved[rid] = saved.get(rid, 0.0) + group["saved_ns"]
    return saved, duration


SETS = ["twins", "heldout", "cached"]


def fmt(ns):
    return "-" if ns is None else f"{ns / 1000:.1f} µs"


def fr(r):
    return "-" if r is None else f"{r:.2f}x"


def judge(name, measured, saved, profiled, ncu):
    """Prints one table row per pair; returns (within, closer, total)."""
    within, closer, total = 0, 0, 0
    for k in range(0, len(measured) - 1, 2):
        (bad, bad_ns), (_, fixed_ns) = measured[k], measured[k + 1]
        real = bad_ns - fixed_ns
        ours = saved.get(k, 0.0)
        theirs = ncu.get(k, 0.0) / 100.0 * (profiled.get(k) or bad_ns) if k in ncu else None
        # Savings under 5% of the kernel are noise: both sides count as
        # within when the estimate is under 5% too.
        floor = 0.05 * bad_ns

        def ratio(estimate):
            if estimate is None:
                return None
            if real < floor and estimate < floor:
                return 1.0
            return max(estimate, 1.0) / max(real, 1.0)

        r_ours, r_theirs = ratio(ours), ratio(theirs)
        short = bad.split('(')[0]
        if short in NOT_TWINS:
            print(f"| {name} | {short} | {fmt(real)} | {fmt(ours)} | not judged: {NOT_TWINS[short]} | {fmt(theirs)} | - |")
            continue
        good = r_ours is not None and 1 / WITHIN <= r_ours <= WITHIN
        within += good
        total += 1
        err = lambda r: abs(math.log(r)) if r else float("inf")
        closer += r_theirs is None or err(r_ours) <= err(r_theirs)
        print(f"| {name} | {short} | {fmt(real)} | {fmt(ours)} | {fr(r_ours)} | {fmt(theirs)} | {fr(r_theirs)} |")
    return within, closer, total


def main():
    print("| set | twin | measured saving | ncu-lint estimate | ratio | Nsight Compute estimate | ratio |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    summary = []
    for name in SETS:
        kernels = results(os.path.join(DIR, f"{name}.raw.csv.xz"))
        measured = durations(os.path.join(DIR, f"{name}.durations.raw.csv.xz"), kernels)
        saved, profiled = lint(os.path.join(DIR, f"{name}.raw.csv.xz"), os.path.join(DIR, f"{name}.source.csv.xz"))
        ncu = ncu_estimates(os.path.join(DIR, f"{name}.details.csv.xz"))
        summary.append((name, *judge(name, measured, saved, profiled, ncu)))
    print()
    for name, within, closer, total in summary:
        print(f"{name}: {within} of {total} twins within {WITHIN}x of the measured saving; "
              f"closer than Nsight Compute's estimate (or it has none) on {closer} of {total}")
    return 0 if all(within == total for _, within, _, total in summary) else 1


if __name__ == "__main__":
    sys.exit(main())
