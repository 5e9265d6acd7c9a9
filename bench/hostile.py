#!/usr/bin/env python3
"""Hostile and damaged reports: each one's exit status, time and peak memory.

    cargo build --release && python3 bench/hostile.py [REPORT]

Writes the corpus of scripts/hostile.py (from REPORT, by default the inline
fixture) to target/hostile/, runs `ncu-lint check` on each file, and prints a
Markdown table: exit status (2 for damage; 0 or 1 only with a warning that
names the loss), wall seconds and peak RSS. Exits 1 if a run panics, takes
10 s or more, or holds 512 MB or more.
"""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPORT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "fixtures", "inline", "inline.ncu-rep.xz")
OUT = os.path.join(ROOT, "target", "hostile")
BINARY = os.path.join(ROOT, "target", "release", "ncu-lint")


def run(path):
    start = time.monotonic()
    child = subprocess.Popen([BINARY, "check", "--no-config", path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.monotonic() - start
    stderr = child.stderr.read().decode(errors="replace")
    code = os.waitstatus_to_exitcode(status)
    return code, seconds, usage.ru_maxrss / 1024, stderr


def main():
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "hostile.py"), REPORT, OUT], check=True)
    print("| input | exit | seconds | peak MB | what ncu-lint said |")
    print("| --- | ---: | ---: | ---: | --- |")
    bad = 0
    for name in sorted(os.listdir(OUT)):
        code, seconds, mb, stderr = run(os.path.join(OUT, name))
        said = next((l.strip() for l in stderr.splitlines() if "×" in l or "error:" in l or "warning:" in l), "")
        said = said.replace("|", "/")[:150]
        ok = code in (0, 1, 2) and "panicked" not in stderr and seconds < 10 and mb < 512
        ok = ok and (code == 2 or "warning" in stderr)
        bad += not ok
        print(f"| {name} | {code} | {seconds:.2f} | {mb:.0f} | {said}{'' if ok else ' **FAILS**'} |")
    print(f"\n{bad} of {len(os.listdir(OUT))} inputs fail the bounds")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
