#!/usr/bin/env bash
# The action's install step: pip installs ncu-lint into a virtual
# environment of its own and puts its bin directory on the job's PATH.
#   INPUT_PACKAGE   what pip installs (default: this action's source)
#   RUNNER_TEMP     where the environment goes (GitHub sets it)
#   GITHUB_PATH     the file a step appends PATH entries to (GitHub sets it)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
package="${INPUT_PACKAGE:-}"
if [ -z "$package" ]; then
  package="$here"
fi
venv="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/ncu-lint-venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "$package"
"$venv/bin/ncu-lint" --version
if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$venv/bin" >> "$GITHUB_PATH"
fi
