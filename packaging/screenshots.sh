#!/usr/bin/env bash
# Takes the README screenshots: the workbench under a virtual X server, after a run.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p docs/screenshots
shoot() {  # project, output, extra arguments
  xvfb-run -a -s "-screen 0 1600x1000x24" ./build/app/flexarm "$1" --run --screenshot "$2" --quit "${@:3}"
}
shoot projects/spin-up-beam.flexarm.json docs/screenshots/spin-up-beam.png
shoot projects/two-link-flexible-arm.flexarm.json docs/screenshots/two-link-flexible-arm.png
