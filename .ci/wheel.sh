#!/usr/bin/env bash
# Builds the Python wheel (maturin), installs it into a fresh virtual
# environment, and checks that its `ncu-lint` answers as the cargo-built
# binary does: the same output and exit status on findings (1), on a clean
# profile (0) and on a bad input (2). Leaves the wheel in target/wheels.
set -euo pipefail
cd "$(dirname "$0")/.."
# Where /dev/null is a regular file, cargo's probe of rustc reads back what
# the last program wrote there (see .ci/run): empty it before each build.
empty_dev_null() {
  if [ -f /dev/null ]; then
    : >/dev/null
  fi
}

python3 -m venv target/wheel-build
target/wheel-build/bin/python -m pip install --quiet "maturin>=1.7,<2"
rm -rf target/wheels
empty_dev_null
target/wheel-build/bin/maturin build --release --locked --out target/wheels
wheel="$(ls target/wheels/ncu_lint-*.whl)"

rm -rf target/wheel-venv
python3 -m venv target/wheel-venv
target/wheel-venv/bin/python -m pip install --quiet "$wheel"
installed="target/wheel-venv/bin/ncu-lint"
built="target/release/ncu-lint"
empty_dev_null
cargo build --release --locked --quiet

same() {
  local expected="$1"; shift
  local a b status_a status_b
  a="$("$installed" "$@" 2>&1)" && status_a=0 || status_a=$?
  b="$("$built" "$@" 2>&1)" && status_b=0 || status_b=$?
  if [ "$status_a" != "$expected" ] || [ "$status_b" != "$expected" ]; then
    echo "ci: wheel: 'ncu-lint $*' exits $status_a (wheel) and $status_b (binary), expected $expected" >&2
    exit 1
  fi
  if [ "$a" != "$b" ]; then
    echo "ci: wheel: 'ncu-lint $*' prints differently from the binary" >&2
    exit 1
  fi
}
same 1 check --no-config --format json fixtures/lab/raw.csv.xz fixtures/lab/source_cuda_sass.csv.xz
same 0 check --no-config --select register-spill fixtures/rules/register-spill/clean/raw.csv.xz
same 2 check --no-config fixtures/packs/bad_syntax.toml
echo "ci: wheel $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KB) installs ncu-lint $("$installed" --version | cut -d' ' -f2); it exits as the binary does"
