#!/usr/bin/env bash
# Makes the documentation's pictures from the program itself, under a virtual X server, so that they
# show the current workbench:
#   docs/examples/<project>.png   every shipped project after a run (the examples gallery)
#   docs/tutorial/*.png           each step of the getting-started tutorial, taken by the test that
#                                 walks the tutorial (tests/ui/test_tutorial.cpp, Tutorial.QtTest), and
#                                 the plot of its flexarm-cli compare
# Usage: bash docs/tools/make_screenshots.sh [BUILD_DIR] [examples|tutorial|all]   (default: build all)
# Needs a build with the workbench and its tests (FLEXARM_BUILD_UI=ON), xvfb-run and python3-pil.
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${1:-build}"
what="${2:-all}"
screen=(-a -s "-screen 0 1600x1000x24")
settings="$(mktemp -d)"
trap 'rm -rf "$settings"' EXIT
# A fresh settings folder for each start: the default window layout, not the one a user, a test or the
# previous screenshot left (the workbench keeps its layout between launches).
fresh() {
  rm -rf "${settings:?}"/*
  export XDG_CONFIG_HOME="$settings/config" XDG_DATA_HOME="$settings/data" XDG_RUNTIME_DIR="$settings/runtime"
  mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
}

# Scales a window screenshot to 1000 px wide and to 256 colours (dithered): about 60 KB a picture.
shrink() { /usr/bin/python3 - "$1" <<'PY'
import sys
from PIL import Image
path = sys.argv[1]
img = Image.open(path).convert("RGB")
if img.width > 1000:
    img = img.resize((1000, round(img.height * 1000 / img.width)), Image.LANCZOS)
img = img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.FLOYDSTEINBERG)
img.save(path, optimize=True)
PY
}

if [ "$what" = examples ] || [ "$what" = all ]; then
  mkdir -p docs/examples
  for project in projects/*.flexarm.json; do
    name="$(basename "$project" .flexarm.json)"
    fresh
    xvfb-run "${screen[@]}" "$build/app/flexarm" "$project" --run --screenshot "docs/examples/$name.png" --quit >/dev/null 2>&1 ||
      { echo "make_screenshots: the workbench failed on $project" >&2; exit 1; }
    shrink "docs/examples/$name.png"
    echo "docs/examples/$name.png"
  done
fi

if [ "$what" = tutorial ] || [ "$what" = all ]; then
  mkdir -p docs/tutorial
  fresh
  FLEXARM_SCREENSHOT_DIR="$PWD/docs/tutorial" xvfb-run "${screen[@]}" "$build/tests/flexarm_tutorial_tests" >/dev/null
  # The plot flexarm-cli compare draws in the tutorial's command-line part.
  work="$settings/tutorial"
  mkdir -p "$work"
  "$build/app/flexarm-cli" new planar-two-link --name "Two-link arm with a flexible forearm" \
    --set 'links[1].length=1.2' --set 'links[0].flex.section.width=0.005' --set 'links[1].flex.section.width=0.005' \
    --set 'links[0].flex=null' --set 'links[0].mass=2' --set 'links[0].shape={"type":"rod"}' --out "$work/arm.flexarm.json" >/dev/null
  "$build/app/flexarm-cli" compare "$work/arm.flexarm.json" --zero-vs-high --channels tip.fore.v --out "$work/cmp" >/dev/null
  cp "$work/cmp/plots/tip.fore.v.png" docs/tutorial/compare-tip.fore.v.png
  for png in docs/tutorial/*.png; do
    shrink "$png"
    echo "$png"
  done
fi
