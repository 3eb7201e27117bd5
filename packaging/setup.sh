#!/usr/bin/env bash
# One-command set-up for a fresh Debian bookworm machine.
#   bash packaging/setup.sh run    install, build, run the shipped example
#   bash packaging/setup.sh test   install, build, run the whole test suite (ctest), then again
#                                  under AddressSanitizer + UndefinedBehaviorSanitizer
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-run}"
jobs="$(nproc 2>/dev/null || echo 2)"

bash packaging/install-deps.sh

configure_and_build() {  # build-dir, target (or "all"), extra cmake args...
  local dir="$1" target="$2"
  shift 2
  cmake -S . -B "$dir" -G Ninja "$@"
  cmake --build "$dir" -j "$jobs" --target "$target"
}

case "$mode" in
  run)
    configure_and_build build flexarm-cli -DCMAKE_BUILD_TYPE=Release
    out="$PWD/spatial-3r-arm.csv"
    ./build/app/flexarm-cli check projects/spatial-3r-arm.flexarm.json
    ./build/app/flexarm-cli run projects/spatial-3r-arm.flexarm.json --out "$out"
    echo "The results of the example are in $out"
    ;;
  test)
    configure_and_build build all -DCMAKE_BUILD_TYPE=Release -DFLEXARM_BUILD_TESTS=ON
    (cd build && ctest --output-on-failure -j "$jobs")
    # RelWithDebInfo: the sanitizers check the same code at -O2, fast enough for the physics tests.
    configure_and_build build-sanitize all -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLEXARM_BUILD_TESTS=ON -DFLEXARM_SANITIZE=ON
    (cd build-sanitize && ctest --output-on-failure -j "$jobs")
    ;;
  *)
    echo "usage: bash packaging/setup.sh run|test" >&2
    exit 2
    ;;
esac
