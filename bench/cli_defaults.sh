#!/usr/bin/env bash
# The whole flexarm-cli process on every shipped project: as it ships (auto at the default accuracy)
# against the new-project default before issue 40 (CVODE BDF, rtol 1e-6, atol 1e-8; IDA with
# constraints), CPU seconds of the process (user + system) and the real-time factor they give.
#   bash bench/cli_defaults.sh [build/app/flexarm-cli] [repeats]
# Run it on a quiet machine; each figure is the fastest of `repeats` runs (default 3).
set -euo pipefail
cli="${1:-build/app/flexarm-cli}"
repeats="${2:-3}"
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cpu() {  # fastest user+system CPU seconds of `repeats` runs of flexarm-cli run "$@" (getrusage: microseconds)
  python3 - "$repeats" "$cli" run "$@" -q --out "$out/x.csv" <<'PY'
import resource, subprocess, sys
best = None
for _ in range(int(sys.argv[1])):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    best = t if best is None else min(best, t)
print(best)
PY
}
printf "| project | t_end [s] | before: CPU [s] | before: x real time | auto: method | auto: CPU [s] | auto: x real time | speed-up |\n"
printf "|---|---:|---:|---:|---|---:|---:|---:|\n"
for f in projects/*.flexarm.json; do
  name=$(basename "$f" .flexarm.json)
  [ "$name" = "pr-arm-inverse-dynamics" ] && continue  # an inverse-dynamics project
  t_end=$(python3 -c "import json,sys; print(json.load(open('$f')).get('simulation',{}).get('t_end',5.0))")
  if python3 -c "import json,sys; sys.exit(0 if json.load(open('$f')).get('constraints') else 1)"; then old=ida; else old=bdf; fi
  before=$(cpu "$f" --set simulation.solver.method=$old --set simulation.solver.rtol=1e-6 --set simulation.solver.atol=1e-8)
  after=$(cpu "$f")
  method=$("$cli" check "$f" | sed -n 's/^method: \([^,]*\),.*/\1/p')
  awk -v n="$name" -v T="$t_end" -v b="$before" -v a="$after" -v m="$method" \
    'BEGIN{printf "| %s | %g | %.3f | %.3g | %s | %.3f | %.3g | %.1f |\n", n, T, b, T/b, m, a, T/a, b/a}'
done
