#!/usr/bin/env bash
# Package.Deb: builds the Debian package with CPack, unpacks it into a temporary root (dpkg -x) and
# checks what it installs: flexarm-cli check and a short run of every installed example, a plot, flexarm
# --version without a display, the workbench opening an example under Xvfb, the Python module, the desktop entry, the
# documentation site in /usr/share/doc/flexarm/html, and lintian without errors.
#   CheckPackage.sh BUILD_DIR
set -euo pipefail
build="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cd "$build"
cpack -G DEB -B "$work/cpack" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; exit 1; }
deb="$(ls "$work"/cpack/flexarm_*_amd64.deb)"
echo "package: $(basename "$deb")"
dpkg -x "$deb" "$work/root"
root="$work/root"

examples=("$root"/usr/share/flexarm/projects/*.flexarm.json)
[ "${#examples[@]}" -ge 10 ] || { echo "only ${#examples[@]} examples installed"; exit 1; }
for ex in "${examples[@]}"; do
  "$root/usr/bin/flexarm-cli" check "$ex" >/dev/null || { echo "check failed: $ex"; exit 1; }
  code=0
  "$root/usr/bin/flexarm-cli" run "$ex" --t-end 0.02 --quiet --out "$work/run.csv" >/dev/null || code=$?
  [ "$code" -eq 0 ] || { echo "run failed ($code): $ex"; exit 1; }
  [ -s "$work/run.csv" ] || { echo "no results: $ex"; exit 1; }
done
echo "check and run: ${#examples[@]} installed examples"
# plot draws with the module installed in /usr/lib/flexarm, which flexarm-cli loads on demand.
channel="$(head -1 "$work/run.csv" | cut -d, -f2)"
"$root/usr/bin/flexarm-cli" plot "$work/run.csv" --channels "$channel" --out "$work/plot.png" >/dev/null ||
  { echo "the installed flexarm-cli cannot plot"; exit 1; }
[ -s "$work/plot.png" ] || { echo "the installed flexarm-cli plotted nothing"; exit 1; }
echo "plot: the installed drawing module"
# run --vtk writes with the ParaView module installed beside it, linearize --out .mat with matio,
# both loaded on demand (matio through the package's dependency on libmatio).
"$root/usr/bin/flexarm-cli" run "${examples[0]}" --t-end 0.02 --quiet --out "$work/run.csv" --vtk "$work/series" >/dev/null ||
  { echo "the installed flexarm-cli cannot write a ParaView series"; exit 1; }
[ -s "$work/series/arm.pvd" ] || { echo "the installed flexarm-cli wrote no ParaView series"; exit 1; }
"$root/usr/bin/flexarm-cli" linearize "${examples[0]}" --out "$work/model.mat" >/dev/null ||
  { echo "the installed flexarm-cli cannot write a MATLAB file"; exit 1; }
[ -s "$work/model.mat" ] || { echo "the installed flexarm-cli wrote no MATLAB file"; exit 1; }
echo "run --vtk and linearize --out .mat: the installed ParaView module and matio"

version="$(env -u DISPLAY -u WAYLAND_DISPLAY "$root/usr/bin/flexarm" --version)"
[[ "$version" == "flexarm "* ]] || { echo "flexarm --version printed: $version"; exit 1; }
echo "$version"
xvfb-run -a -s "-screen 0 1600x1000x24" "$root/usr/bin/flexarm" "$root/usr/share/flexarm/projects/spin-up-beam.flexarm.json" \
  --screenshot "$work/gui.png" --quit >/dev/null 2>&1 || { echo "the installed workbench did not start"; exit 1; }
[ -s "$work/gui.png" ] || { echo "the installed workbench saved no screenshot"; exit 1; }
echo "the installed workbench opens an installed example"
PYTHONPATH="$root/usr/lib/python3/dist-packages" /usr/bin/python3 -c "import flexarm; print('python module', flexarm.__version__)"

for f in usr/share/applications/flexarm.desktop usr/share/mime/packages/flexarm.xml \
         usr/share/icons/hicolor/scalable/apps/flexarm.svg usr/share/icons/hicolor/48x48/apps/flexarm.png \
         usr/share/man/man1/flexarm.1.gz usr/share/man/man1/flexarm-cli.1.gz \
         usr/share/bash-completion/completions/flexarm-cli usr/share/doc/flexarm/copyright \
         usr/share/doc/flexarm/html/index.html usr/share/doc/flexarm/html/getting-started.html \
         usr/share/doc/flexarm/html/reference/cli.html usr/share/doc/flexarm/html/reference/python.html; do
  [ -s "$root/$f" ] || { echo "missing: /$f"; exit 1; }
done
desktop-file-validate "$root/usr/share/applications/flexarm.desktop"
bash -n "$root/usr/share/bash-completion/completions/flexarm-cli"
dpkg -f "$deb" Depends | grep -q "libsundials" || { echo "Depends lacks the shared libraries"; exit 1; }
dpkg -f "$deb" Depends | grep -q "libmatio" || { echo "Depends lacks matio, loaded on demand"; exit 1; }

if ! lintian --fail-on error "$deb" >"$work/lintian.log" 2>&1; then
  cat "$work/lintian.log"
  echo "lintian reports errors"
  exit 1
fi
grep -v "^running with root" "$work/lintian.log" || true
echo "lintian: no errors"
