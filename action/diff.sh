#!/usr/bin/env bash
# The action's diff step, where `compare-to` names the profile before the
# change: `ncu-lint diff` of it against the checked files, as Markdown (each
# kernel's time before and after, the estimates beside the time saved, the
# findings new and fixed), appended to the job summary and written to a
# file a later step can post as a pull-request comment. A kernel slower
# than `fail-on-slower` allows fails this step; so does an input error.
#   INPUT_FILES, INPUT_COMPARE_TO  paths, separated by spaces or new lines
#   INPUT_FAIL_ON_SLOWER           a percentage, or empty
#   INPUT_DIFF                     the Markdown file to write
#   GITHUB_OUTPUT, GITHUB_STEP_SUMMARY
set -uo pipefail
split() {
  if [[ "$1" == *$'\n'* ]]; then IFS=$'\n'; else IFS=$' \t'; fi
}
split "${INPUT_FILES:-}"
# shellcheck disable=SC2206
head=(${INPUT_FILES:-})
split "${INPUT_COMPARE_TO:-}"
# shellcheck disable=SC2206
base=(${INPUT_COMPARE_TO:-})
IFS=$' \n\t'
if [ "${#base[@]}" -eq 0 ] || [ "${#head[@]}" -eq 0 ]; then
  echo "::error::ncu-lint: diff needs 'compare-to' and 'files'"
  exit 2
fi
markdown="${INPUT_DIFF:-ncu-lint-diff.md}"
args=(diff --format markdown --fail-on never)
if [ -n "${INPUT_FAIL_ON_SLOWER:-}" ]; then
  args+=(--fail-on-slower "$INPUT_FAIL_ON_SLOWER")
fi
ncu-lint "${args[@]}" "${base[@]}" --against "${head[@]}" > "$markdown"
status=$?
echo "diff-exit-code=$status" >> "${GITHUB_OUTPUT:-/dev/null}"
if [ "$status" -ge 2 ]; then
  rm -f "$markdown"
  echo "::error::ncu-lint could not compare the profiles (exit $status); see the message above"
  exit "$status"
fi
echo "diff=$markdown" >> "${GITHUB_OUTPUT:-/dev/null}"
cat "$markdown" >> "${GITHUB_STEP_SUMMARY:-/dev/null}"
echo "ncu-lint: diff exit $status, Markdown in $markdown"
exit "$status"
