#!/usr/bin/env bash
# flexarm-cli study --slurm against a real (private, single-node) Slurm cluster.
#   test_slurm_study.sh collect CLI PROJECTS_DIR WORK_DIR PORT
#     the spin-up study (15 cases) as a job array: while it runs, --status counts its queued cases;
#     when it is done, study-collect writes the summary a local `flexarm-cli study` writes.
#   test_slurm_study.sh resume CLI PROJECTS_DIR WORK_DIR PORT
#     the array is cancelled (scancel) half-way; study-collect names the missing cases, --resume
#     --slurm submits only those, and the cases finished before the cancel are not touched again.
# The daemons run in WORK_DIR/cluster and are stopped on every exit path (trap EXIT).
set -euo pipefail
mode="$1" cli="$2" projects="$3" work="$4" port="$5"
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=private-cluster.sh
source "$here/private-cluster.sh"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
trap cluster_stop EXIT
trap 'exit 1' INT TERM

project="$projects/spin-up-beam.flexarm.json"
t_end=15  # every divergence of the zero-order model happens before 13.4 s
mkdir -p "$work"
rm -rf "$work/local" "$work/slurm"

# Waits until the job has left the queue (at most $2 seconds).
wait_for_job() {
  local job="$1" limit="$2" i
  for ((i = 0; i < limit * 5; i++)); do
    [ -z "$(squeue --noheader --jobs="$job" 2>/dev/null)" ] && return 0
    sleep 0.2
  done
  squeue >&2 || true
  cluster_log_tail
  fail "job $job still queued after $limit s"
}

job_of() {  # the job id from study --slurm's output
  sed -n 's/^submitted job \([0-9]*\):.*/\1/p' <<< "$1"
}

# Every field of the two summaries but the wall time, which measures the run and differs between
# any two runs of the same case.
same_summary() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import csv, sys
a, b = (list(csv.reader(open(f, newline=""))) for f in sys.argv[1:3])
if len(a) != 16 or len(b) != 16:
    sys.exit(f"expected a header and 15 rows, got {len(a)} and {len(b)} lines")
if a[0] != b[0]:
    sys.exit(f"headers differ:\n{a[0]}\n{b[0]}")
wall = a[0].index("wall_time [s]")
for ra, rb in zip(a[1:], b[1:]):
    if len(ra) != len(rb) or [x for i, x in enumerate(ra) if i != wall] != [x for i, x in enumerate(rb) if i != wall]:
        sys.exit(f"rows differ:\n{ra}\n{rb}")
    if not rb[wall] or float(rb[wall]) <= 0:
        sys.exit(f"no wall time in {rb}")
statuses = [r[2] for r in b[1:]]
if statuses.count("diverged") != 3 or statuses.count("completed") != 12:
    sys.exit(f"expected 3 diverged and 12 completed cases, got {statuses}")
print("summaries agree in", len(a) - 1, "rows (wall time aside)")
PY
}

case "$mode" in
  collect)
    cluster_start "$work/cluster" "$port" 2 || exit 1
    "$cli" study "$project" --t-end "$t_end" --out "$work/local" > "$work/local.log" 2>&1 || fail "local study: $(cat "$work/local.log")"
    out="$("$cli" study "$project" --t-end "$t_end" --out "$work/slurm" --slurm --partition flexarm-test --time 00:05:00 \
      --sbatch-arg=--job-name=flexarm-test 2>&1)" || fail "study --slurm: $out"
    echo "$out"
    job="$(job_of "$out")"
    [ -n "$job" ] || fail "no job id in: $out"
    grep -q '^#SBATCH --array=1-15$' "$work/slurm/slurm/job-1.sh" || fail "no 15-task array in $(cat "$work/slurm/slurm/job-1.sh")"
    # Right after the submission the cases are pending, and squeue knows them (2 CPUs for 15 tasks).
    status="$("$cli" study --status "$work/slurm")" || fail "study --status: $status"
    echo "$status"
    grep -Eq '^  (queued|running): ' <<< "$status" || fail "--status does not show the queued or running tasks"
    wait_for_job "$job" 120
    collected="$("$cli" study-collect "$work/slurm" 2>&1)" || fail "study-collect: $collected"
    echo "$collected"
    same_summary "$work/local/summary.csv" "$work/slurm/summary.csv" || fail "the summaries differ"
    status="$("$cli" study --status "$work/slurm")"
    grep -q '^done: 12$' <<< "$status" && grep -q '^diverged: 3$' <<< "$status" && grep -q '^pending: 0$' <<< "$status" ||
      fail "--status after the job: $status"
    for csv in "$work/local"/*.csv; do
      [ -f "$work/slurm/$(basename "$csv")" ] || fail "the Slurm study has no $(basename "$csv")"
      meta="$(basename "$csv" .csv).meta.json"  # each case's description beside its CSV (not summary.csv's)
      [ "$(basename "$csv")" = summary.csv ] || [ -f "$work/slurm/$meta" ] || fail "the Slurm study has no $meta"
    done
    ;;
  resume)
    # One CPU: the tasks run one after the other, so that the cancel comes half-way.
    cluster_start "$work/cluster" "$port" 1 || exit 1
    out="$("$cli" study "$project" --t-end "$t_end" --out "$work/slurm" --slurm 2>&1)" || fail "study --slurm: $out"
    job="$(job_of "$out")"
    [ -n "$job" ] || fail "no job id in: $out"
    for ((i = 0; i < 600; i++)); do
      [ "$(find "$work/slurm/results" -name '*.result' | wc -l)" -ge 4 ] && break
      sleep 0.1
    done
    scancel "$job"
    wait_for_job "$job" 60
    # The cases with a result before the resume, and their files' times.
    declare -A before
    finished=()
    for k in $(seq 15); do
      f="$work/slurm/results/$k.result"
      [ -f "$f" ] || continue
      status="$(/usr/bin/python3 -c 'import csv,sys; print(next(csv.reader(open(sys.argv[1])))[2])' "$f")"
      [ "$status" = cancelled ] && continue
      finished+=("$k")
      before[$k]="$(stat -c %.9Y "$f")"
    done
    echo "finished before the cancel: ${finished[*]:-none}"
    [ "${#finished[@]}" -ge 1 ] || fail "no case finished before the cancel"
    [ "${#finished[@]}" -lt 15 ] || fail "every case finished before the cancel: nothing left to resume"
    collected="$("$cli" study-collect "$work/slurm" 2>&1)" && fail "study-collect succeeded with missing cases: $collected"
    echo "$collected"
    grep -Eq '^(missing|cancelled): case' <<< "$collected" || fail "study-collect does not name the missing cases: $collected"
    status="$("$cli" study --status "$work/slurm")"
    echo "$status"
    grep -q "^pending: $((15 - ${#finished[@]}))$" <<< "$status" || fail "--status after the cancel: $status"
    # The CSVs of the finished cases, by the names the result rows give.
    declare -A csv_before
    for k in "${finished[@]}"; do
      csv="$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cases"][int(sys.argv[2]) - 1]["csv"])' \
        "$work/slurm/study.json" "$k")"
      csv_before[$k]="$(stat -c %.9Y "$work/slurm/$csv")"
    done
    out="$("$cli" study "$work/slurm" --resume --slurm 2>&1)" || fail "study DIR --resume --slurm: $out"
    echo "$out"
    job="$(job_of "$out")"
    [ -n "$job" ] || fail "no job id in: $out"
    grep -q "^$((15 - ${#finished[@]})) of 15 cases without a result" <<< "$out" || fail "--resume does not say what it submits"
    # The second job script runs exactly the cases without a result.
    resubmitted="$(tr -s ' \n' '\n\n' < "$work/slurm/slurm/tasks-2.txt" | sort -n | tr '\n' ' ')"
    for k in "${finished[@]}"; do
      grep -qw "$k" <<< "$resubmitted" && fail "case $k had a result and was submitted again ($resubmitted)"
    done
    [ "$(wc -w <<< "$resubmitted")" -eq $((15 - ${#finished[@]})) ] || fail "resubmitted: $resubmitted"
    wait_for_job "$job" 120
    collected="$("$cli" study-collect "$work/slurm" 2>&1)" || fail "study-collect after --resume: $collected"
    echo "$collected"
    for k in "${finished[@]}"; do
      [ "$(stat -c %.9Y "$work/slurm/results/$k.result")" = "${before[$k]}" ] || fail "the result of case $k was written again"
      csv="$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cases"][int(sys.argv[2]) - 1]["csv"])' \
        "$work/slurm/study.json" "$k")"
      [ "$(stat -c %.9Y "$work/slurm/$csv")" = "${csv_before[$k]}" ] || fail "the CSV of case $k was written again"
    done
    # The same summary as a local study (wall time aside).
    "$cli" study "$project" --t-end "$t_end" --out "$work/local" > "$work/local.log" 2>&1 || fail "local study: $(cat "$work/local.log")"
    same_summary "$work/local/summary.csv" "$work/slurm/summary.csv" || fail "the summaries differ"
    ;;
  *)
    fail "unknown mode $mode"
    ;;
esac
echo "PASS"
