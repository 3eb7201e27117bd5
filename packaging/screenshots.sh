#!/usr/bin/env bash
# Takes the user guide's window screenshots (docs/screenshots): the workbench under a virtual X server,
# after a run, with the default window layout (fresh settings, not the ones a user or a test left).
# Usage: bash packaging/screenshots.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
mkdir -p docs/screenshots
settings="$(mktemp -d)"
trap 'rm -rf "$settings"' EXIT
shoot() {  # project, output, extra arguments
  rm -rf "${settings:?}"/*
  XDG_CONFIG_HOME="$settings/config" XDG_DATA_HOME="$settings/data" \
    xvfb-run -a -s "-screen 0 1600x1000x24" "$build/app/flexarm" "$1" --run --screenshot "$2" --quit "${@:3}"
}
shoot projects/spin-up-beam.flexarm.json docs/screenshots/spin-up-beam.png
shoot projects/two-link-flexible-arm.flexarm.json docs/screenshots/two-link-flexible-arm.png
