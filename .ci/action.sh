#!/usr/bin/env bash
# Runs the GitHub action's shell steps (action/install.sh, action/check.sh)
# as a workflow would, with GitHub's variables pointing at files here:
# install from the wheel .ci/wheel.sh built, then check profiles that fail,
# pass, and pass against a baseline, reading the step outputs and the SARIF.
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export RUNNER_TEMP="$work" GITHUB_PATH="$work/path" GITHUB_OUTPUT="$work/output"
touch "$GITHUB_PATH" "$GITHUB_OUTPUT"

fail() { echo "ci: action: $*" >&2; exit 1; }
output() { grep "^$1=" "$GITHUB_OUTPUT" | tail -1 | cut -d= -f2-; }

# The default install: the wheel of the action's own release, found through
# pip's --find-links (here a folder standing for the release's assets), with
# no Rust toolchain on the PATH, so that nothing can be compiled.
release="$work/release assets"
mkdir -p "$release"
cp target/wheels/ncu_lint-*.whl "$release/"
python_dir="$(dirname "$(python3 -c 'import sys; print(sys.executable)')")"
installed="$(PATH="$python_dir:/usr/bin:/bin" INPUT_PACKAGE="" INPUT_RELEASE="$release" bash action/install.sh)"
[[ "$installed" == *"installed the released wheel"* ]] || fail "install.sh did not take the released wheel: $installed"
bin="$(tail -1 "$GITHUB_PATH")"
[ -x "$bin/ncu-lint" ] || fail "install.sh put no ncu-lint on the path ($bin)"
export PATH="$bin:$PATH"
# The release workflow builds those wheels for every platform and attaches them.
for platform in x86_64 aarch64 macos windows-latest "softprops/action-gh-release" "gh-action-pypi-publish"; do
  grep -q -- "$platform" .github/workflows/release.yml || fail "release.yml does not mention $platform"
done

run_check() {
  : > "$GITHUB_OUTPUT"
  INPUT_FILES="$1" INPUT_FAIL_ON="$2" INPUT_BASELINE="${3:-}" INPUT_RULES="" \
    INPUT_PATH_MAP="${4:-}" INPUT_SARIF="$work/out.sarif" bash action/check.sh
}
lab="fixtures/lab/raw.csv.xz
fixtures/lab/source_cuda_sass.csv.xz"

run_check "$lab" warning
[ "$(output exit-code)" = 1 ] || fail "findings should give exit-code 1, got $(output exit-code)"
[ "$(output sarif)" = "$work/out.sarif" ] || fail "no sarif output"
results="$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["runs"][0]["results"]))' "$work/out.sarif")"
[ "$results" -gt 0 ] || fail "the SARIF holds no results"

# The lab was profiled in /tmp/w: mapped, its alerts point at kernels/lab.cu.
run_check "$lab" warning "" "/tmp/w=kernels"
uris="$(python3 -c 'import json,sys; print(sorted({l["physicalLocation"]["artifactLocation"]["uri"] for r in json.load(open(sys.argv[1]))["runs"][0]["results"] for l in r["locations"] if "physicalLocation" in l}))' "$work/out.sarif")"
[[ "$uris" == *"'kernels/lab.cu'"* && "$uris" != *"/tmp/w"* ]] || fail "path-map should give kernels/lab.cu, got $uris"

# Paths with spaces, one a line.
mkdir -p "$work/with space"
cp fixtures/lab/raw.csv.xz fixtures/lab/source_cuda_sass.csv.xz "$work/with space/"
run_check "$work/with space/raw.csv.xz
$work/with space/source_cuda_sass.csv.xz" warning
[ "$(output exit-code)" = 1 ] || fail "paths with spaces: exit-code $(output exit-code)"

run_check "fixtures/rules/register-spill/clean/*.csv.xz" error
[ "$(output exit-code)" = 0 ] || fail "a clean profile should give exit-code 0, got $(output exit-code)"

ncu-lint check --no-config --write-baseline "$work/baseline.json" fixtures/lab/raw.csv.xz fixtures/lab/source_cuda_sass.csv.xz
run_check "$lab" warning "$work/baseline.json"
[ "$(output exit-code)" = 0 ] || fail "findings in the baseline should give exit-code 0, got $(output exit-code)"

if run_check "fixtures/packs/bad_syntax.toml" warning; then
  fail "a bad input should fail the step"
fi
[ "$(output exit-code)" = 2 ] || fail "a bad input should give exit-code 2"

# The diff step: launch.cu's fixed build (the same findings, a grid over
# the whole GPU) against the build before it.
: > "$GITHUB_OUTPUT"
export GITHUB_STEP_SUMMARY="$work/summary.md"
INPUT_FILES="fixtures/twins/launch_fixed.raw.csv.xz" INPUT_COMPARE_TO="fixtures/twins/launch.raw.csv.xz" \
  INPUT_FAIL_ON_SLOWER="10" INPUT_DIFF="$work/diff.md" bash action/diff.sh \
  || fail "the fixed build is faster; --fail-on-slower should pass"
[ "$(output diff)" = "$work/diff.md" ] || fail "no diff output"
grep -q '| `stream_scale` | 3 |' "$GITHUB_STEP_SUMMARY" || fail "the job summary holds no time table"
# Reversed, stream_scale is 12x slower than 10% allows: the step fails.
if INPUT_FILES="fixtures/twins/launch.raw.csv.xz" INPUT_COMPARE_TO="fixtures/twins/launch_fixed.raw.csv.xz" \
  INPUT_FAIL_ON_SLOWER="10" INPUT_DIFF="$work/diff.md" bash action/diff.sh; then
  fail "a kernel 12x slower should fail --fail-on-slower 10"
fi

echo "ci: action: install and check steps behave ($results SARIF results on the lab)"
