#!/usr/bin/env python3
"""Throughput and peak memory of `ncu-lint check` against the bare csv-crate
pass and a Python dict-per-row pass, measured side by side in one run.

    cargo build --release --bins --examples && python3 bench/run.py [MEGABYTES]

Builds target/bench/{raw,details}_<N>mb.csv from the lab fixtures if absent,
then times each command (wall seconds from perf_counter; peak RSS from one
more run under /usr/bin/time) and prints a Markdown table. Each command runs
`REPEAT` times (`SHORT_REPEAT` when it takes under a third of a second); the
best time is kept.
Each input ends with a verdict against the targets (at most the csv pass's
time, at least 5x faster than the Python pass, at most 64 MB); the script
exits 1 if one is missed. A second table times several reports in one run: `check --each` over both
files against checking them one after another, and `diff` of each file
against itself; and one report of two pages: the raw page and the CUDA/SASS
source page of 60 copies of the lab (the source page streamed). Last, a real
training step (bench/step, unpacked into target/bench): its raw page with
each source page, its details page with Nsight Compute's rule rows (as
written, and three times over: 258 MB), and its 102 MB report read
natively, against the same targets.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

from unpack import plain

MB = float(sys.argv[1]) if len(sys.argv) > 1 else 200
REPEAT = int(os.environ.get("REPEAT", "3"))
SHORT_REPEAT = int(os.environ.get("SHORT_REPEAT", "15"))
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "target", "bench")
os.makedirs(OUT, exist_ok=True)

inputs = []
SOURCES = [
    ("raw", "fixtures/lab/raw.csv.xz"),
    ("details", "fixtures/lab/details_all.csv.xz"),
    # The lab's details page of the default sections, with Nsight Compute's
    # rule rows: many small results (about 9,000 in 200 MB).
    ("details_lab_default", "fixtures/lab/details.csv.xz"),
    # A published report's details page of the default sections (105 results).
    ("details_default", "fixtures/reports/15_spymaster2h-report.details.csv.xz"),
]
for name, source in SOURCES:
    path = os.path.join(OUT, f"{name}_{int(MB)}mb.csv")
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "make_large.py"), os.path.join(ROOT, source), path, str(MB)], check=True)
    inputs.append((name, path))

lint = os.path.join(ROOT, "target", "release", "ncu-lint")
floor = os.path.join(ROOT, "target", "release", "examples", "csv_pass")
commands = [
    ("csv crate ByteRecord pass", lambda p: [floor, p]),
    ("ncu-lint check", lambda p: [lint, "check", "--no-config", "--format", "json", "--fail-on", "never", p]),
    ("python csv.reader + dict", lambda p: [sys.executable, os.path.join(ROOT, "bench", "python_dict_pass.py"), p]),
]

def wall(argv):
    """Wall seconds of one run, from perf_counter (not /usr/bin/time's
    hundredths, coarse where a run takes tens of milliseconds)."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=err)
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            err.seek(0)
            raise SystemExit(f"{argv} failed: {err.read().decode(errors='replace')[-500:]}")
    return seconds


def peak_mb(argv):
    """Peak RSS of one run, from /usr/bin/time: a child forked from this
    script would count the script's own pages in its high-water mark."""
    r = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, check=True)
    return int(r.stderr.strip().splitlines()[-1]) / 1024


def interleaved(sides, rounds=SHORT_REPEAT):
    """The best time of each side (a list of commands, run one after the
    other) over `rounds` rounds that run the sides in turn, so that a spell
    of load on this shared machine weighs on both alike."""
    best = [float("inf")] * len(sides)
    for _ in range(rounds):
        for i, side in enumerate(sides):
            best[i] = min(best[i], sum(wall(argv) for argv in side))
    return best


def measure(argv):
    """The best wall time of REPEAT runs (SHORT_REPEAT where a run takes
    under a third of a second: this 2-core machine's noise is milliseconds)
    and the peak RSS of one more."""
    runs = [wall(argv)]
    repeat = SHORT_REPEAT if runs[0] < 0.33 else REPEAT
    runs += [wall(argv) for _ in range(repeat - 1)]
    return min(runs), peak_mb(argv)

print(f"| input | size | command | seconds | MB/s | peak RSS (MB) | vs csv pass |")
print(f"| --- | --- | --- | --- | --- | --- | --- |")
# The targets: at most the csv pass's time, 5x faster than Python, 64 MB.
TARGETS = (1.0, 5.0, 64)
verdicts = []

def verdict(name, lint_seconds, floor_seconds, python_seconds, rss):
    floor_ratio, python_ratio = lint_seconds / floor_seconds, python_seconds / lint_seconds
    met = floor_ratio <= TARGETS[0] and python_ratio >= TARGETS[1] and rss <= TARGETS[2]
    verdicts.append(f"{name}: {floor_ratio:.2f}x the csv pass, {python_ratio:.1f}x faster than Python, {rss:.0f} MB: {'meets' if met else 'MISSES'} the targets")

for name, path in inputs:
    size = os.path.getsize(path) / 1e6
    floor_seconds = None
    times = {}
    for label, argv in commands:
        seconds, rss = measure(argv(path))
        times[label] = (seconds, rss)
        floor_seconds = floor_seconds or seconds
        print(f"| {name} | {size:.0f} MB | {label} | {seconds:.2f} | {size / max(seconds, 1e-9):.0f} | {rss:.0f} | {seconds / floor_seconds:.2f}x |", flush=True)
    lint_seconds, lint_rss = times[commands[1][0]]
    verdict(name, lint_seconds, floor_seconds, times[commands[2][0]][0], lint_rss)

# The large files' findings must be the lab's repeated: no kernel lost, none merged.
def summary(path):
    r = subprocess.run([lint, "check", "--no-config", "--format", "json", "--fail-on", "never", path], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)["summary"]

print()
for (name, path), (_, source) in zip(inputs, SOURCES):
    lab, large = summary(os.path.join(ROOT, source)), summary(path)
    copies = large["kernels"] // lab["kernels"]
    same = large["kernels"] == copies * lab["kernels"] and large["findings"] == copies * lab["findings"]
    print(f"{name}: {large['kernels']} results, {large['findings']} findings = {copies} copies x {lab['findings']} lab findings: {'ok' if same else 'MISMATCH'}")
    if not same:
        raise SystemExit(1)

both = [path for _, path in inputs[:2]]
lint_args = [lint, "check", "--no-config", "--format", "json", "--fail-on", "never"]
print()
print("| run | seconds | peak RSS (MB) |")
print("| --- | --- | --- |")
alone = [measure(lint_args + [path]) for path in both]
print(f"| check each file alone, summed | {sum(s for s, _ in alone):.2f} | {max(r for _, r in alone):.0f} |", flush=True)
for jobs in ["1", "2"]:
    seconds, rss = measure(lint_args + ["--each", "--jobs", jobs] + both)
    print(f"| check --each --jobs {jobs}, both files | {seconds:.2f} | {rss:.0f} |", flush=True)
for name, path in inputs:
    seconds, rss = measure([lint, "diff", "--no-config", "--format", "json", "--fail-on", "never", path, "--against", path])
    print(f"| diff {name} against itself | {seconds:.2f} | {rss:.0f} |", flush=True)
pair = []
for name, source in [("raw_pair", "fixtures/lab/raw.csv.xz"), ("source_pair", "fixtures/lab/source_cuda_sass.csv.xz")]:
    path = os.path.join(OUT, f"{name}.csv")
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "make_large.py"), os.path.join(ROOT, source), path, "x60"], check=True)
    pair.append(path)
size = sum(os.path.getsize(p) for p in pair) / 1e6
seconds, rss = measure(lint_args + pair)
print(f"| check raw + source pages of one report ({size:.0f} MB) | {seconds:.2f} | {rss:.0f} |", flush=True)

# The two-page report against the floors, both files read by each.
print()
print("| raw + source pages | seconds | peak RSS (MB) | vs csv pass |")
print("| --- | --- | --- | --- |")
floor_pair = sum(measure([floor, p])[0] for p in pair)
python_pair = sum(measure(commands[2][1](p))[0] for p in pair)
print(f"| csv crate ByteRecord pass, both files | {floor_pair:.2f} | - | 1.00x |")
print(f"| ncu-lint check | {seconds:.2f} | {rss:.0f} | {seconds / floor_pair:.2f}x |")
print(f"| python csv.reader + dict, both files | {python_pair:.2f} | - | {python_pair / floor_pair:.2f}x |", flush=True)
verdict("raw + source pages", seconds, floor_pair, python_pair, rss)

# A real step (bench/step: 330 launches of a torch.compile'd model, Triton,
# cuBLAS and cuDNN kernels), its pages as Nsight Compute wrote them and its
# report read natively.
STEP = os.path.join(ROOT, "bench", "step")


step = {
    "raw": plain(os.path.join(STEP, "raw.csv.xz")),
    "source": plain(os.path.join(STEP, "source.csv.xz")),
    "sass": plain(os.path.join(STEP, "sass.csv.xz")),
    "details": plain(os.path.join(STEP, "details.csv.xz")),
    "report": plain(os.path.join(STEP, "step.ncu-rep.xz")),
}
# The step's details page three times over with fresh result IDs: a details
# page past 200 MB whose rule rows are real ones.
step["details_x3"] = os.path.join(OUT, "step_details_x3.csv")
if not os.path.exists(step["details_x3"]):
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "make_large.py"), step["details"], step["details_x3"], "x3"], check=True)
print()
print("| real step input | size | csv pass | ncu-lint check | peak RSS (MB) | vs csv pass | python pass (s) | vs python |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for name, files in [
    ("raw + CUDA/SASS source pages", [step["raw"], step["source"]]),
    ("raw + SASS source pages", [step["raw"], step["sass"]]),
    ("details page with rule rows", [step["details"]]),
    ("details page with rule rows, 3 copies", [step["details_x3"]]),
]:
    size = sum(os.path.getsize(p) for p in files) / 1e6
    floor_seconds, seconds = interleaved([[[floor, p] for p in files], [lint_args + files]])
    python_seconds = sum(measure(commands[2][1](p))[0] for p in files)
    rss = peak_mb(lint_args + files)
    print(f"| {name} | {size:.3g} MB | {floor_seconds * 1000:.0f} ms | {seconds * 1000:.0f} ms | {rss:.0f} | {seconds / floor_seconds:.2f}x | {python_seconds:.2f} | {python_seconds / seconds:.1f}x |", flush=True)
    verdict(f"step {name}", seconds, floor_seconds, python_seconds, rss)
seconds, rss = measure(lint_args + [step["report"]])
size = os.path.getsize(step["report"]) / 1e6
met = rss <= TARGETS[2]
print(f"| .ncu-rep read natively | {size:.0f} MB | - | {seconds:.2f} | {rss:.0f} | - | - | - |")
verdicts.append(f"step .ncu-rep ({size:.0f} MB) read natively: {rss:.0f} MB: {'meets' if met else 'MISSES'} the {TARGETS[2]} MB target")
# The report and its pages say the same.
native = summary(step["report"])
pages = json.loads(subprocess.run(lint_args + [step["raw"], step["source"]], capture_output=True, text=True, check=True).stdout)["summary"]
same = (native["kernels"], native["findings"]) == (pages["kernels"], pages["findings"])
once, thrice = summary(step["details"]), summary(step["details_x3"])
tripled = (thrice["kernels"], thrice["findings"]) == (3 * once["kernels"], 3 * once["findings"])
print(f"\nstep details x3: {thrice['kernels']} results, {thrice['findings']} findings: {'3x the page' if tripled else 'NOT 3x the page'}")
if not tripled:
    raise SystemExit(1)
print(f"step: report {native['kernels']} results, {native['findings']} findings; raw + source pages {pages['kernels']} results, {pages['findings']} findings: {'same' if same else 'DIFFERENT'}")
if not same:
    raise SystemExit(1)

print()
for line in verdicts:
    print(line)
if any("MISSES" in line for line in verdicts):
    raise SystemExit(1)
