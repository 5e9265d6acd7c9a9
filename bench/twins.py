#!/usr/bin/env python3
"""ncu-lint's estimate of what a fix saves, against what it measurably saved.

    cargo build --release && python3 bench/twins.py [FIXTURE_DIR]

With TWINS_PAGE=details, `check` reads ncu's default CSV page (details)
beside the source page instead of the raw page.

Two kinds of twin set live in fixtures/twins. In twins.cu (and heldout.cu
and cached.cu, held out) each wasteful kernel was launched right before its
fixed twin, so results 2k and 2k+1 of each report are a pair. rows.cu (and
rows_heldout.cu, walks_heldout.cu, walks_blind.cu, walks_blind2.cu,
walks_blind3.cu, walks_blind4.cu, walks_blind5.cu, stores_blind.cu, stores_blind2.cu, stores_blind3.cu, stores_blind4.cu to stores_blind15.cu, stores_blind17.cu, stores_blind18.cu, stores_blind19.cu, stores_blind20.cu, stores_blind21.cu, stores_blind22.cu, stores_blind23.cu, stores_blind24.cu, stores_blind25.cu, stores_blind26.cu, stores_blind27.cu, stores_blind28.cu, stores_blind29.cu, stores_blind30.cu, stores_blind31.cu, stores_blind33.cu, stores_blind34.cu, stores_blind35.cu, gathers_blind2.cu, gathers_blind3.cu, walks_blind6.cu, walks_blind7.cu, walks_blind8.cu, gathers_blind.cu, walks_blind9.cu and walks_blind10.cu, walks_blind11.cu, walks_blind12.cu, walks_blind13.cu, held out, and stores_blind16.cu and stores_blind32.cu), launch.cu and its held-out sets were built twice, as is and with
-DFIXED, so each kernel keeps its name, grid and work: result k of SET pairs
with result k of SET_fixed, and the durations come from processes named SET
and SET_fixed run alternately (SET.durations.raw.csv).

The measured saving is the difference of the two kernels' median durations
over the runs that collected only the duration; the estimate is what
`ncu-lint check` says a fix of the wasteful kernel is worth (its places
added up, as the ranking adds them): the memory pack's for the memory sets,
and for launch.cu the launch rule each fix addresses; Nsight Compute's own
estimate is the largest Estimated Speedup of its memory rules (launch and
occupancy rules for launch.cu) for the same kernel (details page) times its
duration. An estimate agrees with a measured saving when it
is within 1.5x of it, or within 2% of the kernel's time of it (a fix that
made the kernel slower saved nothing). A model that always says 0 fails
every fix that saves more than 2%. Prints a Markdown table and each set's
count; exits 1 when a judged twin disagrees.

Beside each measured saving stands its 90% interval: the middle 90% of the
differences of medians over 1,000 resamplings of each build's runs. A
disagreement that some saving in that interval would agree with is one the
runs cannot tell from their spread; each set's count says how many of its
disagreements are such. The judging itself takes the medians alone.

It also lists each fix that saved 5% or more of its kernel's time where
`check`, with every pack, gives that kernel no warning or error: a fix
worth that much that the gate would pass.
"""
import csv
import json
import lzma
import math
import os
import random
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIR = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "fixtures", "twins")
BINARY = os.path.join(ROOT, "target", "release", "ncu-lint")
# Extra arguments for `check` (NCU_LINT_ARGS="--no-default-rules --rules
# rules/memory.toml" tries an edited pack without a rebuild).
EXTRA = shlex.split(os.environ.get("NCU_LINT_ARGS", ""))
# The page `check` reads beside the source page: "raw" (every metric) or
# "details" (ncu's default CSV page, which lacks the per-SM maxima).
PAGE = os.environ.get("TWINS_PAGE", "raw")
# Nsight Compute's rules for the causes the twins hold: memory access, and
# launch configuration and occupancy.
NCU_MEMORY = {"UncoalescedGlobalAccess", "UncoalescedSharedAccess", "SharedMemoryConflicts"}
NCU_LAUNCH = {"LaunchConfiguration", "AchievedOccupancy", "TheoreticalOccupancy"}
WITHIN = 1.5
NEAR = 0.02  # of the kernel's time
WORTH_A_WARNING = 0.05  # of the kernel's time
# The measured saving's interval: the middle INTERVAL of the differences of
# medians over RESAMPLES resamplings of each build's runs (a bootstrap).
INTERVAL = 0.90
RESAMPLES = 1000

# Sets of pairs launched side by side in one program, and sets built twice.
PAIRED = ["twins", "heldout", "cached"]
BUILT_TWICE = ["rows", "rows_heldout", "walks_heldout", "walks_blind", "walks_blind2", "walks_blind3", "walks_blind4", "walks_blind5", "stores_blind", "stores_blind2", "stores_blind3", "stores_blind4", "stores_blind5", "stores_blind6", "stores_blind7", "stores_blind8", "stores_blind9", "stores_blind10", "stores_blind11", "stores_blind12", "stores_blind13", "stores_blind14", "stores_blind15", "stores_blind16", "stores_blind17", "stores_blind18", "stores_blind19", "stores_blind20", "stores_blind21", "stores_blind22", "stores_blind23", "stores_blind24", "stores_blind25", "stores_blind26", "stores_blind27", "stores_blind28", "stores_blind29", "walks_blind6", "walks_blind7", "walks_blind8", "gathers_blind", "walks_blind9", "walks_blind10", "walks_blind11", "walks_blind12", "walks_blind13", "atomics_private", "launch", "launch_heldout", "launch_ramp", "launch_ramp2", "launch_queue", "launch_ramp3", "launch_ramp4", "launch_atomics", "launch_atomics2", "launch_atomics3", "launch_atomics4", "launch_atomics5", "launch_atomics6", "launch_issue", "launch_l2", "stores_blind30", "launch_scatter", "launch_half", "stores_blind31", "launch_scatter_h200", "stores_blind32", "stores_blind33", "stores_blind34", "stores_blind35", "gathers_blind2", "launch_atomics7", "gathers_blind3", "launch_atomics8", "launch_atomics9"]
LAUNCH_SETS = {"launch", "launch_heldout", "launch_ramp", "launch_ramp2", "launch_queue", "launch_ramp3", "launch_ramp4", "launch_atomics", "launch_atomics2", "launch_atomics3", "launch_atomics4", "launch_atomics5", "launch_atomics6", "launch_issue", "launch_l2", "launch_scatter", "launch_half", "launch_scatter_h200", "launch_atomics7", "launch_atomics8", "launch_atomics9"}


# The launch sets' fixes each address one launch rule: its estimate is
# judged (the memory pack's, and other launch rules', are other fixes).
# The table is data that tests/twins.rs reads too.
def launch_targets(path):
    with open(path, newline="") as f:
        lines = (line for line in f if not line.startswith("#"))
        return {row["kernel"]: row["rule"] for row in csv.DictReader(lines, delimiter="\t")}


LAUNCH_TARGETS = launch_targets(os.path.join(ROOT, "fixtures", "twins", "launch_targets.tsv"))

# Twins whose fix reads its rows one at a time a warp (each file's comments
# say which): judged against what `check` says that fix saves (the row-walk
# fix's `row_at_a_time_lane_share`, one element a lane, or
# `row_at_a_time_wide_share`, 16 bytes a lane), not against the estimate,
# which counts a fix with several rows in flight (rows.cu's row_sum and
# embed, walks_blind2.cu's row_norm4). Where the fixed build's SASS reads
# two rows or more a pass (fixed_rows_a_pass: nvcc unrolled the loop over
# rows), its fix keeps rows in flight and the estimate judges it. The
# estimate's fix packs rows under 512 bytes into each of a warp's loads;
# a fixed build whose busiest load reads a row's bytes or fewer a warp
# (a warp a row, lanes idle) is judged against `rows_in_flight_unpacked_share`
# (one_row_a_load).
ROW_AT_A_TIME = {
    "rows_heldout": {
        "void layernorm_rows<768>": "lane", "void softmax_rows<1024>": "lane", "void row_scale<512>": "lane",
        "void row_total<double, 1024>": "lane", "void row_total<float, 256>": "lane",
        "void row_total<float, 32>": "lane", "void gather_rows<512>": "lane",
    },
    "walks_heldout": {"void copy_rows<384>": "wide", "void gather_f32<256>": "wide"},
    "walks_blind": {"void copy_rows<1024>": "wide", "void gather_f32<512>": "wide"},
    "walks_blind4": {"void copy_rows<768>": "wide", "void gather_f32<1024>": "wide"},
    "walks_blind5": {
        "void copy_rows<512>": "wide", "void copy_rows<256>": "wide", "void copy_rows<2048>": "wide",
        "void copy_rows<640>": "wide", "void gather_f32<384>": "wide", "void gather_f32<768>": "wide",
        "void gather_f32<128>": "wide", "void gather_f32<2048>": "wide",
    },
    "walks_blind6": {"void row_absmax<float, 64, 1>": "wide", "void row_absmax<float, 256, 1>": "wide"},
}
# row_norm<T, C, V>: V = 0 reads one element a lane, V = 1 16 bytes a lane.
ROW_NORM_READS = {"0": "lane", "1": "wide"}


def load_bytes(mnemonic):
    """The bytes a lane loads with one SASS load (LDG.E.128: 16)."""
    parts = mnemonic.split(".")
    for size, nbytes in (("128", 16), ("64", 8), ("U16", 2), ("S16", 2), ("U8", 1), ("S8", 1)):
        if size in parts:
            return nbytes
    return 4


def fixed_rows_a_pass(name):
    """For each launch of a built-twice set, the rows a pass of its fixed
    build's loop reads and the bytes a warp's load of them reads: the
    threads the as-is build launched (a row each) over the executions of
    the fixed build's most executed global load, on its source page's SASS,
    and that load's bytes a lane times its lanes that ran. Where nvcc
    unrolled a fix's loop over rows (four rows' loads a pass, as
    row_round_trip.sass.txt shows), the fix keeps rows in flight whatever
    its source says: 4 there, 1 for a row a pass, under 1 where a row takes
    several. A load of a row's bytes or fewer reads one row; a fix that
    packs rows under 512 bytes reads several with each."""
    raw = rows(os.path.join(DIR, f"{name}.raw.csv.xz"))
    grid, block = raw[0].index("launch__grid_size"), raw[0].index("launch__block_size")
    threads = [number(r[grid]) * number(r[block]) for r in raw[2:]]
    busiest, function, files, executed, seen = [], None, set(), None, set()
    for row in rows(os.path.join(DIR, f"{name}_fixed.source.csv.xz")):
        if not row:
            continue
        if row[0] == "File Path":
            path = row[1]
        elif row[0] == "Function Name":
            # A launch's page lists its source files in turn; a file seen
            # again, or another function, starts the next launch.
            if row[1] != function or path in files:
                busiest.append((0, 0))
                files, seen = set(), set()
            function = row[1]
            files.add(path)
        elif row[0] == "Line No":
            executed = row.index("Instructions Executed")
            lanes = row.index("Avg. Predicated-On Threads Executed")
        elif executed is not None and len(row) > 3 and row[2].startswith("0x") and row[2] not in seen:
            seen.add(row[2])
            words = row[3].split()
            load = next((w for w in words if w.startswith("LDG")), None)
            if load and number(row[executed]) > busiest[-1][0]:
                busiest[-1] = (number(row[executed]), number(row[lanes]) * load_bytes(load))
    assert len(busiest) == len(threads), f"{name}: {len(busiest)} launches on the fixed source page, {len(threads)} kernels"
    return [(t / b if b else 0.0, warp_bytes) for t, (b, warp_bytes) in zip(threads, busiest)]


def one_row_a_load(values, fixed_warp_bytes):
    """Whether a row-walk finding's twin reads one row with each of a warp's
    loads where the estimate's fix packs several rows under 512 bytes into
    one (row_pack): such a twin is judged against what `check` says a fix
    of a warp a row, four rows in flight, saves (its
    `rows_in_flight_unpacked_share`)."""
    if values.get("rows_in_flight_unpacked_share") is None or (values.get("row_pack") or 1) <= 1:
        return False
    row_bytes = values["requests_per_warp"] * values["access_bytes"]
    return fixed_warp_bytes <= row_bytes


def loads_in_flight(values, rows_a_pass, fixed_warp_bytes):
    """Where a row-walk finding's twin reads each row whole with each of its
    loads, as the estimate's fix does, but keeps one or two loads in flight
    a warp, not the four the estimate counts: the share that the fix's text
    says such a fix saves, None otherwise. Rows packed into a load (up to
    256 bytes): `rows_one_in_flight_share` and `rows_two_in_flight_share`;
    a row a load (257 to 512 bytes, a warp a row): with one a pass, a warp
    that finishes each row before it loads the next
    (`row_at_a_time_wide_share`), with two `rows_two_in_flight_share`. The
    loads a pass are the rows a pass over the rows each load reads."""
    if values.get("rows_one_in_flight_share") is None:
        return None
    row_bytes = values["requests_per_warp"] * values["access_bytes"]
    packed = (values.get("row_pack") or 1) > 1
    if fixed_warp_bytes < row_bytes or packed and fixed_warp_bytes == row_bytes:
        return None
    loads = rows_a_pass / (fixed_warp_bytes / row_bytes if packed else 1)
    if loads >= 3:
        return None
    if loads >= 1.5:
        return "rows_two_in_flight_share"
    return "rows_one_in_flight_share" if packed else "row_at_a_time_wide_share"


def row_at_a_time(set_name, short):
    """How the twin's fix reads its rows one at a time ("lane" or "wide"),
    as its source says, or None where it keeps several rows in flight."""
    if short.startswith("void row_norm<") and set_name.startswith("walks_"):
        return ROW_NORM_READS[short.rstrip(">").rsplit(",", 1)[1].strip()]
    return ROW_AT_A_TIME.get(set_name, {}).get(short)


def rows(path):
    with lzma.open(path, "rt", newline="") as f:
        return list(csv.reader(f))


def number(text):
    return float(text.replace(",", ""))


def paired_durations(path, kernels):
    """Each kernel's name, median duration and durations over the runs of
    the sequence of `kernels` launches. Odd runs launched each pair's fixed
    twin first (run.sh), so there position k holds the launch of kernel
    k ^ 1."""
    table = rows(path)
    header = table[0]
    name, duration = header.index("Kernel Name"), header.index("gpu__time_duration.sum")
    launches = [(r[name], number(r[duration])) for r in table[2:]]
    runs = len(launches) // kernels
    medians = []
    for k in range(kernels):
        mine = []
        for run in range(runs):
            at = run * kernels + (k ^ 1 if run % 2 else k)
            assert launches[at][0] == launches[k][0], f"{path}: launch {at} is not {launches[k][0]}"
            mine.append(launches[at][1])
        medians.append((launches[k][0], median(mine), mine))
    return medians


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def process_durations(path, process, kernels):
    """The name, median duration and durations of each of the `kernels`
    launches of the sequence that every process named `process` ran
    (run_fixed.sh: each process runs it several times, after launches that
    fill its buffers)."""
    table = rows(path)
    header = table[0]
    col = {h: i for i, h in enumerate(header)}
    by_process = {}
    for r in table[2:]:
        if r[col["Process Name"]] == process:
            by_process.setdefault(r[col["Process ID"]], []).append(
                (r[col["Kernel Name"]], number(r[col["gpu__time_duration.sum"]])))
    runs = []
    for launches in by_process.values():
        skip = len(launches) % kernels
        launches = launches[skip:]
        runs.extend(launches[i:i + kernels] for i in range(0, len(launches), kernels))
    assert len(runs) >= 15, f"{path}: {len(runs)} runs of {process}"
    return [(runs[0][k][0], median(run[k][1] for run in runs), [run[k][1] for run in runs])
            for k in range(kernels)]


def saving_interval(seed, bad_runs, fixed_runs):
    """The middle INTERVAL of the saving's resampled values: each build's
    runs drawn again with replacement, RESAMPLES times, the difference of
    their medians each time (seeded, so each run of the bench prints the
    same)."""
    draw = random.Random(seed)
    savings = sorted(median(draw.choices(bad_runs, k=len(bad_runs)))
                     - median(draw.choices(fixed_runs, k=len(fixed_runs)))
                     for _ in range(RESAMPLES))
    tail = (1 - INTERVAL) / 2
    return savings[int(tail * RESAMPLES)], savings[int((1 - tail) * RESAMPLES) - 1]


def within_noise(estimate, interval, kernel_ns):
    """Whether some saving in the measured saving's interval agrees with the
    estimate: the runs cannot tell the disagreement from their spread."""
    low, high = interval
    return agrees(estimate, min(max(estimate, low), high), kernel_ns)


def results(path):
    return len(rows(path)) - 2


def ncu_estimates(path, rules):
    """Largest speedup (percent) of Nsight Compute's `rules` per result ID."""
    table = rows(path)
    header = table[0]
    idx = {h: i for i, h in enumerate(header)}
    best = {}
    for r in table[1:]:
        if len(r) < len(header) or r[idx["Rule Name"]] not in rules:
            continue
        speedup = r[idx["Estimated Speedup"]].replace(",", "")
        if speedup:
            rid = int(r[idx["ID"]])
            best[rid] = max(best.get(rid, 0.0), float(speedup))
    return best


def check_json(*args):
    """What `check --format json` says of `args` (its inputs, after any
    --select or --ignore), with NCU_LINT_ARGS."""
    out = subprocess.run(
        [BINARY, "check", "--no-config", "--format", "json", "--fail-on", "never", *args[:-2], *EXTRA, *args[-2:]],
        capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def lint(raw, source, rules, only=None, set_name=None):
    """What `check` with `rules` (a --select or --ignore) says a fix of each
    result is worth, and its duration: as the ranking counts it, the largest
    estimate among the findings of one launch at one place, added up over
    the launch's places; `only` maps a kernel's short name to the one rule
    whose estimate counts. Where the set's twin fixes its rows one at a time
    (row_at_a_time), a finding that says what such a fix saves counts that."""
    doc = check_json(*rules, raw, source)
    rows_a_pass = fixed_rows_a_pass(set_name) if set_name in BUILT_TWICE else None
    best, duration = {}, {}
    for finding in doc["findings"]:
        rid = finding["kernel"]["id"]
        impact = finding.get("impact") or {}
        duration[rid] = impact.get("kernel_ns")
        short = finding["kernel"]["name"].split("(")[0]
        if only is not None and only.get(short) != finding["rule"]:
            continue
        where = finding.get("location") or {}
        place = (rid, where.get("file"), where.get("line"))
        saved_ns = impact.get("saved_ns") or 0.0
        values = finding.get("values") or {}
        reads = row_at_a_time(set_name, short)
        if reads and rows_a_pass[rid][0] >= 2:
            reads = None
        share = values.get(f"row_at_a_time_{reads}_share") if reads else None
        if share is not None:
            saved_ns = share * (impact.get("kernel_ns") or 0.0)
        elif rows_a_pass and one_row_a_load(values, rows_a_pass[rid][1]):
            saved_ns = min(saved_ns, values["rows_in_flight_unpacked_share"] * (impact.get("kernel_ns") or 0.0))
        elif rows_a_pass and (fewer := loads_in_flight(values, *rows_a_pass[rid])) is not None:
            saved_ns = values[fewer] * (impact.get("kernel_ns") or 0.0)
        best[place] = max(best.get(place, 0.0), saved_ns)
    saved = {}
    for (rid, _, _), ns in best.items():
        saved[rid] = saved.get(rid, 0.0) + ns
    return saved, duration


def severities(raw, source):
    """What `check`, with every pack, gives each result ID: its most severe
    finding's severity (results without findings are absent)."""
    rank = {"note": 0, "warning": 1, "error": 2}
    worst = {}
    for f in check_json(raw, source)["findings"]:
        rid = f["kernel"]["id"]
        if rank[f["severity"]] >= rank[worst.get(rid, "note")]:
            worst[rid] = f["severity"]
    return worst


def unwarned(name, pairs, worst):
    """The pairs whose fix saved WORTH_A_WARNING of the kernel's time or
    more where the kernel has no warning: (set, twin, share saved, what
    `check` says of it instead: notes, or no finding at all)."""
    return [(name, bad.split("(")[0], (bad_ns - fixed_ns) / bad_ns, "notes only" if k in worst else "no finding")
            for bad, bad_ns, fixed_ns, k in pairs
            if (bad_ns - fixed_ns) / bad_ns >= WORTH_A_WARNING and worst.get(k) not in ("warning", "error")]


def fmt(ns):
    return "-" if ns is None else f"{ns / 1000:.1f} µs"


def agrees(estimate, real, kernel_ns):
    """Within 1.5x of the measured saving, or within 2% of the kernel's
    time of it; a fix that made the kernel slower saved nothing."""
    real = max(real, 0.0)
    if abs(estimate - real) <= NEAR * kernel_ns:
        return True
    return real > 0 and 1 / WITHIN <= estimate / real <= WITHIN


def verdict(estimate, real, kernel_ns):
    if estimate is None:
        return "-"
    ratio = f"{max(estimate, 1.0) / max(real, 1.0):.2f}x" if real > 0 else "fix slower"
    return ratio if agrees(estimate, real, kernel_ns) else f"**{ratio}** off"


def judge(name, pairs, intervals, saved, profiled, ncu):
    """Prints one table row per pair (bad name, bad ns, fixed ns, result ID);
    returns (agree, agree_ncu, closer, total, noise): noise counts the
    disagreements that some saving in the measured saving's interval
    (`intervals`, by result ID) would agree with."""
    agree, agree_ncu, closer, total, noise = 0, 0, 0, 0, 0
    for bad, bad_ns, fixed_ns, k in pairs:
        real = bad_ns - fixed_ns
        ours = saved.get(k, 0.0)
        theirs = ncu.get(k, 0.0) / 100.0 * (profiled.get(k) or bad_ns) if k in ncu else None
        short = bad.split("(")[0]
        low, high = intervals[k]
        print(f"| {name} | {short} | {fmt(bad_ns)} | {fmt(real)} ({real / bad_ns:.0%}) | "
              f"{low / 1000:.1f} to {high / 1000:.1f} | {fmt(ours)} | "
              f"{verdict(ours, real, bad_ns)} | {fmt(theirs)} | {verdict(theirs, real, bad_ns)} |")
        total += 1
        agreed = agrees(ours, real, bad_ns)
        agree += agreed
        noise += not agreed and within_noise(ours, intervals[k], bad_ns)
        agree_ncu += theirs is not None and agrees(theirs, real, bad_ns)
        err = lambda e: abs(max(e, 1.0) - max(real, 1.0))
        closer += theirs is None or err(ours) <= err(theirs)
    return agree, agree_ncu, closer, total, noise


def paired_set(name):
    kernels = results(os.path.join(DIR, f"{name}.raw.csv.xz"))
    measured = paired_durations(os.path.join(DIR, f"{name}.durations.raw.csv.xz"), kernels)
    pairs = [(measured[k][0], measured[k][1], measured[k + 1][1], k) for k in range(0, kernels - 1, 2)]
    intervals = {k: saving_interval(f"{name}/{k}", measured[k][2], measured[k + 1][2])
                 for k in range(0, kernels - 1, 2)}
    return pairs, intervals, os.path.join(DIR, f"{name}.{PAGE}.csv.xz"), os.path.join(DIR, f"{name}.source.csv.xz")


def built_twice_set(name):
    kernels = results(os.path.join(DIR, f"{name}.raw.csv.xz"))
    durations = os.path.join(DIR, f"{name}.durations.raw.csv.xz")
    bad = process_durations(durations, name, kernels)
    fixed = process_durations(durations, f"{name}_fixed", kernels)
    pairs, intervals = [], {}
    for k in range(kernels):
        assert bad[k][0] == fixed[k][0], f"{name}: launch {k} is {bad[k][0]} as is, {fixed[k][0]} fixed"
        pairs.append((bad[k][0], bad[k][1], fixed[k][1], k))
        intervals[k] = saving_interval(f"{name}/{k}", bad[k][2], fixed[k][2])
    return pairs, intervals, os.path.join(DIR, f"{name}.{PAGE}.csv.xz"), os.path.join(DIR, f"{name}.source.csv.xz")


def main():
    print(f"| set | twin | duration | measured saving | its {INTERVAL:.0%} interval (µs) | ncu-lint estimate | agrees | "
          f"Nsight Compute estimate | agrees |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    summary, missed = [], []
    for name in PAIRED + BUILT_TWICE:
        pairs, intervals, raw, source = (paired_set if name in PAIRED else built_twice_set)(name)
        launch = name in LAUNCH_SETS
        rules = ["--select", "launch/*"] if launch else ["--ignore", "launch/*"]
        saved, profiled = lint(raw, source, rules, LAUNCH_TARGETS if launch else None, name)
        ncu = ncu_estimates(os.path.join(DIR, f"{name}.details.csv.xz"), NCU_LAUNCH if launch else NCU_MEMORY)
        summary.append((name, *judge(name, pairs, intervals, saved, profiled, ncu)))
        missed += unwarned(name, pairs, severities(raw, source))
    print()
    for name, agree, agree_ncu, closer, total, noise in summary:
        print(f"{name}: {agree} of {total} estimates agree with the measured saving (within {WITHIN}x, "
              f"or within {NEAR:.0%} of the kernel's time), Nsight Compute's {agree_ncu}; closer than "
              f"Nsight Compute's estimate (or it has none) on {closer} of {total}; of the "
              f"{total - agree} that disagree, {noise} would agree with a saving in its {INTERVAL:.0%} interval")
    print()
    print(f"{len(missed)} fixes saved {WORTH_A_WARNING:.0%} of their kernel's time or more where `check` "
          f"warns of nothing")
    for name, twin, share, said in missed:
        print(f"- {name} {twin}: {share:.1%} ({said})")
    return 0 if all(agree == total for _, agree, _, _, total, _ in summary) else 1


if __name__ == "__main__":
    sys.exit(main())
