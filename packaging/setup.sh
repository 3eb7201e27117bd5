#!/usr/bin/env bash
# One-command set-up for a fresh Debian bookworm machine.
#   bash packaging/setup.sh run    install, build, start the workbench on the spin-up beam example
#   bash packaging/setup.sh test   install, build, run the whole test suite (ctest), then the engine's,
#                                  the command line's and the fuzz tests under ASan + UBSan (what CI runs)
#   bash packaging/setup.sh sanitize  every suite, the workbench's included, under ASan + UBSan (long)
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-run}"
jobs="$(nproc 2>/dev/null || echo 2)"

bash packaging/install-deps.sh

configure_and_build() {  # build-dir, targets ("all", or several separated by spaces), extra cmake args...
  local dir="$1" targets="$2"
  shift 2
  cmake -S . -B "$dir" -G Ninja "$@"
  # shellcheck disable=SC2086  # the targets are words
  cmake --build "$dir" -j "$jobs" --target $targets
}

case "$mode" in
  run)
    # The workbench, and the Python module beside it (PYTHONPATH=build/python python3 -c "import flexarm").
    configure_and_build build "flexarm flexarm_python" -DCMAKE_BUILD_TYPE=Release -DFLEXARM_BUILD_UI=ON
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      echo "setup: no display; starting the workbench under xvfb-run (it will not be visible)." >&2
      exec xvfb-run -a -s "-screen 0 1600x1000x24" ./build/app/flexarm projects/spin-up-beam.flexarm.json --run
    fi
    exec ./build/app/flexarm projects/spin-up-beam.flexarm.json
    ;;
  test)
    configure_and_build build all -DCMAKE_BUILD_TYPE=Release -DFLEXARM_BUILD_TESTS=ON -DFLEXARM_BUILD_UI=ON
    (cd build && ctest --output-on-failure -j "$jobs")
    # Then under ASan + UBSan (-O1, line tables only): the engine through its unit tests, the command line's
    # tests and the fuzz program, the inputs a hostile user controls. The long physics suites and the
    # workbench's Qt tests run in the Release pass above only: building and running them a second time
    # under the sanitizers took CI past 45 minutes on two cores. `bash packaging/setup.sh sanitize` runs
    # every suite under the sanitizers.
    configure_and_build build-sanitize all -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
      -DFLEXARM_BUILD_TESTS=ON -DFLEXARM_SANITIZE=ON -DFLEXARM_BUILD_UI=OFF -DFLEXARM_PHYSICS_TESTS=OFF
    (cd build-sanitize && ctest --output-on-failure -j "$jobs" -E 'Slurm\.|Cli\.RunsEveryShippedProject')
    ;;
  sanitize)  # RelWithDebInfo (-O2), with leak detection for the workbench (tests/ui/lsan.supp)
    configure_and_build build-sanitize-all all -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLEXARM_BUILD_TESTS=ON -DFLEXARM_SANITIZE=ON \
      -DFLEXARM_BUILD_UI=ON -DFLEXARM_PHYSICS_TESTS=ON
    (cd build-sanitize-all && ctest --output-on-failure -j "$jobs" -E 'SeedClaims\.(SpinUpBeam|Canadarm|Seed004)|Slurm\.')
    ;;
  *)
    echo "usage: bash packaging/setup.sh run|test|sanitize" >&2
    exit 2
    ;;
esac
