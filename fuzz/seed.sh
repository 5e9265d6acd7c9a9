#!/usr/bin/env bash
# Seeds the fuzz targets from the project's real fixtures:
#   import: the first 16 KB of every export in fixtures/lab and fixtures/corpus;
#   expr:   every condition, derived value and downgrade of the packs;
#   pack:   the built-in pack and the test packs.
# Then, for example (cargo-fuzz needs RUSTC_BOOTSTRAP=1 on a stable toolchain):
#   RUSTC_BOOTSTRAP=1 cargo fuzz run --release -s none import fuzz/corpus/import fuzz/seeds/import -- -max_len=4096 -runs=10000000
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p fuzz/seeds/import fuzz/seeds/expr fuzz/seeds/pack
for f in fixtures/corpus/*.csv fixtures/lab/*.csv; do head -c 16000 "$f" > "fuzz/seeds/import/$(basename "$f")"; done
for f in fixtures/lab/*.csv.xz fixtures/corpus/*.csv.xz; do xz -dc "$f" | head -c 16000 > "fuzz/seeds/import/$(basename "$f" .xz)" || true; done
n=0
grep -ho 'condition = "[^"]*"\|derived\.[a-z_]* = "[^"]*"\|when = "[^"]*"' rules/memory.toml fixtures/packs/*.toml \
  | sed 's/^[^"]*"//; s/"$//' | sort -u | while IFS= read -r e; do n=$((n + 1)); printf '%s' "$e" > "fuzz/seeds/expr/seed_$n"; done
cp rules/memory.toml fixtures/packs/*.toml fuzz/seeds/pack/
# ncu_rep: the published reports, decompressed and cut to 64 KB.
mkdir -p fuzz/seeds/ncu_rep
for f in fixtures/reports/*.ncu-rep.xz; do xz -dc "$f" | head -c 65536 > "fuzz/seeds/ncu_rep/$(basename "$f" .xz)" || true; done
