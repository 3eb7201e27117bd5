#!/usr/bin/env bash
# One-command set-up for a fresh Debian bookworm machine.
#   bash packaging/setup.sh run    install, build, start the workbench on the spin-up beam example
#   bash packaging/setup.sh test   install, build, run the whole test suite (ctest), then again
#                                  under AddressSanitizer + UndefinedBehaviorSanitizer
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
    # RelWithDebInfo: the sanitizers check the same code at -O2, fast enough for the physics tests.
    # The workbench test runs here too, with leak detection (tests/ui/lsan.supp).
    # The engine, the command line and their tests again under ASan + UBSan, at -O1 with line tables
    # only; the workbench's Qt tests run in the Release pass above (building them a second time under
    # the sanitizers took CI past 45 minutes on two cores).
    configure_and_build build-sanitize all -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
      -DFLEXARM_BUILD_TESTS=ON -DFLEXARM_SANITIZE=ON -DFLEXARM_BUILD_UI=OFF
    # The long seed studies (spin-up grid, Canadarm2 sweeps, spatial RRR) run in the Release pass only: the
    # sanitizers see the same study and validation code through the short seed 001-003 claims. So do the
    # Slurm tests: they check the scheduler's side (job arrays, scancel, resubmission) with two private
    # clusters; the code a task runs (study DIR --case K, --resume, study-collect) is the CLI tests' and
    # runs under the sanitizers there.
    (cd build-sanitize && ctest --output-on-failure -j "$jobs" \
      -E 'SeedClaims\.(SpinUpBeam|Canadarm|Seed004)|Slurm\.')
    ;;
  *)
    echo "usage: bash packaging/setup.sh run|test" >&2
    exit 2
    ;;
esac
