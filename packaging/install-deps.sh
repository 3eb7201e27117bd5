#!/usr/bin/env bash
# Installs every Debian (bookworm) package FlexArm needs to build, test and run, GUI stack included.
# Idempotent: installs only what is missing. Works as root; uses sudo otherwise.
set -euo pipefail

PACKAGES=(
  # toolchain
  build-essential cmake ninja-build pkg-config
  # engine
  libeigen3-dev libsundials-dev nlohmann-json3-dev
  # linear models written as MATLAB files (flexarm-cli linearize --out model.mat); SciPy reads them in a test
  libmatio-dev python3-scipy
  # URDF import: urdfdom, with the TinyXML and console_bridge it is built on
  liburdfdom-dev libtinyxml-dev libconsole-bridge-dev
  # command line: CLI11 (header-only)
  libcli11-dev
  # the code style (.clang-format, checked by a test)
  clang-format
  # workbench: Qt6 Widgets/OpenGL, VTK 9, QCustomPlot (Qt6 build), software OpenGL, fonts
  qt6-base-dev libqt6opengl6-dev qt6-qpa-plugins libvtk9-dev libqcustomplot-dev
  libgl1-mesa-dri fonts-dejavu-core
  # tests and benchmarks: GoogleTest, Google Benchmark, Orocos KDL (independent rigid-body reference),
  # a virtual X server for UI tests and screenshots
  libgtest-dev googletest libbenchmark-dev liborocos-kdl-dev xvfb xauth
  # export: SVG plots (Qt SVG), PDF checks in the tests (pdfinfo), MP4 animations (ffmpeg; optional at run time)
  qt6-svg-dev poppler-utils ffmpeg
  # the Python module (pybind11) and its tests and examples: NumPy, pandas, pytest, matplotlib
  pybind11-dev python3-dev python3-numpy python3-pandas python3-pytest python3-matplotlib
  # the documentation site (docs/, the target `docs` and the Docs.* tests): Sphinx, Markdown pages, its theme
  python3-sphinx python3-myst-parser furo
  # the Debian package (cpack -G DEB) and its checks: dpkg-shlibdeps, desktop-file-validate, lintian
  dpkg-dev file desktop-file-utils lintian
  # studies on a cluster: the tests start a private single-node Slurm (slurmctld, slurmd) with munge
  slurm-wlm munge
  # a German locale (decimal comma) for the test that the CLI writes '.' decimals under any locale
  locales
)

if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  echo "install-deps: run as root or install sudo" >&2
  exit 1
fi

# de_DE.UTF-8 for the CLI's locale test (skipped, with a message, when it is missing).
make_locale() {
  if ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
    "${SUDO[@]}" localedef -i de_DE -f UTF-8 de_DE.UTF-8 || echo "install-deps: could not generate de_DE.UTF-8" >&2
  fi
}

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages already installed"
  make_locale
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -q
"${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
make_locale
