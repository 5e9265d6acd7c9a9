#!/usr/bin/env bash
# The action's install step: pip installs ncu-lint into a virtual
# environment of its own and puts its bin directory on the job's PATH.
# By default the wheel for this runner is taken from the GitHub release of
# the action's own version (a tag vX.Y.Z; no compiling), and ncu-lint is
# built from the action's source only where there is none.
#   INPUT_PACKAGE   what pip installs instead (a version or a wheel's path)
#   INPUT_RELEASE   where the release's wheels are listed, for pip's
#                   --find-links (default: the release page of ACTION_REF)
#   ACTION_REF      the action's ref (GitHub's github.action_ref)
#   ACTION_REPOSITORY  the action's repository (github.action_repository)
#   RUNNER_TEMP     where the environment goes (GitHub sets it)
#   GITHUB_PATH     the file a step appends PATH entries to (GitHub sets it)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
venv="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/ncu-lint-venv"
python3 -m venv "$venv"
pip=("$venv/bin/python" -m pip install --quiet --disable-pip-version-check)
version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$here/Cargo.toml" | head -1)"
ref="${ACTION_REF:-}"
links="${INPUT_RELEASE:-}"
if [ -z "$links" ] && [[ "$ref" == v* ]] && [ -n "${ACTION_REPOSITORY:-}" ]; then
  links="https://github.com/${ACTION_REPOSITORY}/releases/expanded_assets/${ref}"
fi
if [ -n "${INPUT_PACKAGE:-}" ]; then
  "${pip[@]}" "$INPUT_PACKAGE"
elif [ -n "$links" ] && "${pip[@]}" --only-binary=:all: --find-links "$links" "ncu-lint==$version"; then
  echo "ncu-lint: installed the released wheel of $version"
else
  echo "ncu-lint: no released wheel of $version for this runner; building from source (a Rust toolchain, some minutes)"
  "${pip[@]}" "$here"
fi
"$venv/bin/ncu-lint" --version
if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$venv/bin" >> "$GITHUB_PATH"
fi
