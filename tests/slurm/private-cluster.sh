# A private single-node Slurm cluster for the tests, sourced by test_slurm_study.sh:
#   cluster_start DIR PORT CPUS   munged, slurmctld and slurmd in the foreground (children of this
#                                 shell) with their own key, slurm.conf, state, spool and logs in DIR
#   cluster_stop                  stops them (the caller traps EXIT, so they stop on every path)
# It needs root (slurmd starts the jobs' processes as their user) and Debian's slurm-wlm and munge
# (packaging/install-deps.sh). When the daemons cannot start, cluster_start says why and returns 1.

CLUSTER_DIR=""
CLUSTER_PIDS=()

cluster_log_tail() {
  local f
  for f in "$CLUSTER_DIR"/log/*; do
    [ -f "$f" ] || continue
    echo "---- last lines of $f" >&2
    tail -n 15 "$f" >&2
  done
}

# Stops the daemons of an earlier run of this test that was killed before its EXIT trap ran; the
# pid files are the ones this script wrote, in its own folder.
cluster_stop_stale() {
  local pidfile pid
  for pidfile in "$1"/pids/*.pid; do
    [ -f "$pidfile" ] || continue
    pid="$(cat "$pidfile")"
    # Only if the process is still the daemon (a pid may have been reused since).
    if [ -n "$pid" ] && [ "$(cat /proc/"$pid"/comm 2>/dev/null)" = "$(basename "$pidfile" .pid)" ]; then
      echo "stopping daemon $pid left by an earlier run ($(basename "$pidfile" .pid))" >&2
      kill "$pid" 2>/dev/null || true
      sleep 1
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$pidfile"
  done
}

cluster_start() {
  CLUSTER_DIR="$1"
  local port="$2" cpus="$3" prog node
  for prog in munged slurmctld slurmd sbatch squeue scancel; do
    if ! command -v "$prog" >/dev/null 2>&1; then
      echo "FAIL: $prog not found: the Slurm tests need Debian's slurm-wlm and munge (bash packaging/install-deps.sh)" >&2
      return 1
    fi
  done
  if [ "$(id -u)" -ne 0 ]; then
    echo "FAIL: the Slurm tests start slurmd, which needs root (it runs the jobs' processes as their user); run ctest as root" >&2
    return 1
  fi
  mkdir -p "$CLUSTER_DIR/pids"
  cluster_stop_stale "$CLUSTER_DIR"
  rm -rf "$CLUSTER_DIR/munge" "$CLUSTER_DIR/state" "$CLUSTER_DIR/spool" "$CLUSTER_DIR/log"
  mkdir -p "$CLUSTER_DIR/munge/key" "$CLUSTER_DIR/state" "$CLUSTER_DIR/spool" "$CLUSTER_DIR/log"
  chmod 755 "$CLUSTER_DIR/munge"
  chmod 700 "$CLUSTER_DIR/munge/key"
  # A fresh key for this cluster only.
  dd if=/dev/urandom of="$CLUSTER_DIR/munge/key/munge.key" bs=1024 count=1 status=none
  chmod 600 "$CLUSTER_DIR/munge/key/munge.key"
  local sock="$CLUSTER_DIR/munge/munge.socket"
  # -f: munged refuses to run as root otherwise; -F: in the foreground, a child of this shell.
  munged -F -f --socket="$sock" --key-file="$CLUSTER_DIR/munge/key/munge.key" --pid-file="$CLUSTER_DIR/munge/munged.pid" \
    --seed-file="$CLUSTER_DIR/munge/munged.seed" --log-file="$CLUSTER_DIR/log/munged.log" \
    > "$CLUSTER_DIR/log/munged.out" 2>&1 &
  CLUSTER_PIDS+=($!)
  echo $! > "$CLUSTER_DIR/pids/munged.pid"
  local i
  for i in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
  if ! munge -S "$sock" -n | unmunge -S "$sock" >/dev/null 2>&1; then
    echo "FAIL: munged did not start (no credential could be made and checked with $sock)" >&2
    cluster_log_tail
    return 1
  fi

  # slurmd takes its node name from -N: it need not match the machine's host name; slurmctld runs on
  # the host it names by its short host name, reached at 127.0.0.1.
  node="$(hostname -s)"
  cat > "$CLUSTER_DIR/slurm.conf" <<CONF
ClusterName=flexarmtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$CLUSTER_DIR/state
SlurmdSpoolDir=$CLUSTER_DIR/spool
SlurmctldPidFile=$CLUSTER_DIR/state/slurmctld.pid
SlurmdPidFile=$CLUSTER_DIR/spool/slurmd.pid
SlurmctldLogFile=$CLUSTER_DIR/log/slurmctld.log
SlurmdLogFile=$CLUSTER_DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
KillWait=5
MaxArraySize=1001
# The node has the CPUs this file gives it, whatever the machine has (a 1-core CI machine is not
# drained for "low CPUs").
SlurmdParameters=config_overrides
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=flexarm-test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$CLUSTER_DIR/slurm.conf"
  slurmctld -D -c > "$CLUSTER_DIR/log/slurmctld.out" 2>&1 &
  CLUSTER_PIDS+=($!)
  echo $! > "$CLUSTER_DIR/pids/slurmctld.pid"
  slurmd -D -N "$node" > "$CLUSTER_DIR/log/slurmd.out" 2>&1 &
  CLUSTER_PIDS+=($!)
  echo $! > "$CLUSTER_DIR/pids/slurmd.pid"
  for i in $(seq 150); do
    if [ "$(sinfo --noheader --format=%T 2>/dev/null)" = "idle" ]; then
      echo "private Slurm cluster up: node $node, $cpus CPUs, port $port ($CLUSTER_DIR)"
      return 0
    fi
    sleep 0.2
  done
  echo "FAIL: the private Slurm cluster did not come up within 30 s (sinfo: $(sinfo --noheader 2>&1))" >&2
  cluster_log_tail
  return 1
}

cluster_stop() {
  local pid
  [ ${#CLUSTER_PIDS[@]} -eq 0 ] && return 0
  # The jobs first (their processes are slurmd's children), then the daemons, newest first.
  scancel --full --quiet --user=root 2>/dev/null || true
  for ((i = ${#CLUSTER_PIDS[@]} - 1; i >= 0; i--)); do
    pid="${CLUSTER_PIDS[i]}"
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${CLUSTER_PIDS[@]}"; do
    for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  CLUSTER_PIDS=()
  rm -f "$CLUSTER_DIR"/pids/*.pid
  echo "private Slurm cluster stopped"
}
