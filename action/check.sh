#!/usr/bin/env bash
# The action's check step: `ncu-lint check --format sarif` on the given
# files, the SARIF written to a file. Findings (exit 1) do not stop the job
# here, so that the SARIF is uploaded first; the exit status goes to the
# step's outputs and a later step fails on it. An input or usage error
# (exit 2) fails this step.
#   INPUT_FILES, INPUT_RULES   paths, separated by spaces or new lines
#   INPUT_BASELINE             a baseline file, or empty
#   INPUT_FAIL_ON              error, warning, note or never
#   INPUT_SARIF                the SARIF file to write
#   INPUT_PATH_MAP             FROM=TO rewrites of recorded paths, one a line
#   GITHUB_OUTPUT              the file a step writes its outputs to
set -uo pipefail
# One path a line where the input has several lines (paths may hold
# spaces), else split at spaces; globs are expanded (`profiles/*.csv`).
if [[ "${INPUT_FILES:-}" == *$'\n'* ]]; then
  IFS=$'\n'
else
  IFS=$' \t'
fi
# shellcheck disable=SC2206
files=(${INPUT_FILES:-})
IFS=$' \n\t'
# shellcheck disable=SC2206
packs=(${INPUT_RULES:-})
if [ "${#files[@]}" -eq 0 ]; then
  echo "::error::ncu-lint: no files to check (input 'files')"
  exit 2
fi
sarif="${INPUT_SARIF:-ncu-lint.sarif}"
args=(check --format sarif --fail-on "${INPUT_FAIL_ON:-warning}")
for pack in "${packs[@]}"; do
  args+=(--rules "$pack")
done
if [ -n "${INPUT_BASELINE:-}" ]; then
  args+=(--baseline "$INPUT_BASELINE")
fi
while IFS= read -r map; do
  [ -n "$map" ] && args+=(--path-map "$map")
done <<< "${INPUT_PATH_MAP:-}"
ncu-lint "${args[@]}" "${files[@]}" > "$sarif"
status=$?
output="${GITHUB_OUTPUT:-/dev/null}"
echo "exit-code=$status" >> "$output"
if [ "$status" -ge 2 ]; then
  rm -f "$sarif"
  echo "::error::ncu-lint could not check the profiles (exit $status); see the message above"
  exit "$status"
fi
echo "sarif=$sarif" >> "$output"
echo "ncu-lint: exit $status, SARIF in $sarif"
