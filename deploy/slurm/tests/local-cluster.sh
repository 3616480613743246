#!/usr/bin/env bash
# End-to-end test of deploy/slurm on a real Slurm: starts munged, slurmctld and slurmd on this
# machine (as root, in a temporary folder, on ports 16817/16818), submits the fleet script as
# a job array of three tasks (one machine plays three nodes) with its summary job behind it,
# waits for both, checks the reports and the summary, runs the health check against a good
# baseline (each case's slowest fleet median: it must pass) and against a report 20% faster
# than the device (each case's fastest dispatch seen, made 20% faster: it must fail, and the
# drain script must drain the node), then stops every daemon it started, by PID.
# Usage: local-cluster.sh PERFTEST_BINARY. A step that fails prints the daemons' logs and
# exits 1; nothing here passes without a running cluster.
set -uo pipefail

perftest=$(realpath "${1:?usage: local-cluster.sh PERFTEST_BINARY}")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=$(mktemp -d /tmp/perftest-slurm.XXXXXX)
chmod 700 "$dir"
export SLURM_CONF="$dir/slurm.conf"
node=$(hostname -s)
pids=()

logs() {
    for f in "$dir"/munged.log "$dir"/slurmctld.log "$dir"/slurmd.log "$dir"/perftest-*.out; do
        [ -f "$f" ] && { echo "---- $f"; tail -n 40 "$f"; }
    done
}
stop() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null
    done
    for pid in "${pids[@]}"; do
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$pid" 2>/dev/null
    done
}
fail() {
    echo "local-cluster: FAILED: $*" >&2
    logs >&2
    stop
    exit 1
}
trap 'stop' EXIT
# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
    local seconds=$1
    shift
    for _ in $(seq $((seconds * 5))); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    return 1
}
# The pid a daemon wrote to its pid file.
pid_of() {
    wait_for 20 test -s "$1" && cat "$1"
}

for tool in munged slurmctld slurmd sbatch squeue scontrol sinfo python3 flock; do
    command -v "$tool" >/dev/null || fail "$tool is missing (apt-get install slurm-wlm munge)"
done

echo "== munge"
dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge.key"
munged --force --key-file="$dir/munge.key" --socket="$dir/munge.socket" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" ||
    fail "munged did not start"
pids+=("$(pid_of "$dir/munged.pid")")

echo "== slurm.conf"
cpus=$(nproc)
cat > "$SLURM_CONF" <<CONF
ClusterName=perftest-ci
SlurmctldHost=$node
SlurmUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$dir/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MinJobAge=600
NodeName=$node CPUs=$cpus State=UNKNOWN
PartitionName=ci Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
mkdir -p "$dir/state" "$dir/spool"

echo "== slurmctld and slurmd"
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
pids+=("$(pid_of "$dir/slurmctld.pid")")
slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
pids+=("$(pid_of "$dir/slurmd.pid")")
idle() { sinfo -h -N -o '%T' | grep -qx idle; }
wait_for 60 idle || fail "the node never became idle: $(sinfo -N 2>&1)"
sinfo -N

echo "== fleet: a job array of three tasks and the summary after it"
cd "$dir"
export OUT_DIR="$dir/reports" PERFTEST="$perftest" FILTER="Buffer<" TARGET_MS=5
submitted=$("$here/submit-fleet.sh" --array=0-2 --time=10) || fail "submit-fleet.sh"
echo "$submitted"
fleet=$(echo "$submitted" | sed -n 's/^fleet job \([0-9]*\),.*/\1/p')
summary=$(echo "$submitted" | sed -n 's/.*summary job \([0-9]*\) .*/\1/p')
[ -n "$fleet" ] && [ -n "$summary" ] || fail "no job ids in: $submitted"
done_jobs() { [ -z "$(squeue -h -o %i)" ]; }
wait_for 300 done_jobs || fail "jobs still queued or running after 300 s: $(squeue 2>&1)"
state() { scontrol show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }
for task in 0 1 2; do
    [ "$(state "${fleet}_$task" JobState)" = COMPLETED ] ||
        fail "fleet task $task: $(scontrol show job "${fleet}_$task")"
done
summary_state=$(state "$summary" JobState)
summary_exit=$(state "$summary" ExitCode)
echo "summary job: $summary_state, exit $summary_exit"
shopt -s nullglob
reports=("$OUT_DIR"/*.json)
[ "${#reports[@]}" -eq 3 ] || fail "expected 3 reports, found ${#reports[@]}: ${reports[*]}"
for task in 0 1 2; do
    ls "$OUT_DIR/$node-task$task-"*.json >/dev/null || fail "no report named for task $task"
done
[ -s "$OUT_DIR/summary.txt" ] || fail "no summary.txt"
grep -q '<table' "$OUT_DIR/summary.html" || fail "no summary.html table"
grep -q '^Node summary: 3 report(s)' "$OUT_DIR/summary.txt" || fail "summary.txt: $(head -n 3 "$OUT_DIR/summary.txt")"
# The summary's exit status says what its text says: 6 with OUTLIER lines, 0 without.
if grep -q '^OUTLIER' "$OUT_DIR/summary.txt"; then
    [ "$summary_state:$summary_exit" = "FAILED:6:0" ] || fail "OUTLIER but $summary_state $summary_exit"
else
    [ "$summary_state:$summary_exit" = "COMPLETED:0:0" ] || fail "no OUTLIER but $summary_state $summary_exit"
fi

echo "== the summary of reports whose file names look like options"
hostile="$dir/hostile"
mkdir -p "$hostile"
cp "${reports[0]}" "$hostile/--format=csv.json"
cp "${reports[1]}" "$hostile/-2.json"
cp "${reports[2]}" "$hostile/plain.json"
OUT_DIR="$hostile" bash "$here/perftest-summary.sbatch" > "$dir/hostile.out" 2>&1
grep -q '^Node summary: 3 report(s)' "$hostile/summary.txt" ||
    fail "reports named like options: $(head -n 3 "$dir/hostile.out")"
grep -q -- '--format=csv.json' "$hostile/summary.txt" || fail "the file --format=csv.json is not in the summary"
head -n 8 "$OUT_DIR/summary.txt"

echo "== health check against a good baseline (must pass)"
model=$(sed -n 's/^ *"name": "\(.*\)",$/\1/p' "${reports[0]}" | head -n 1)
baseline_name=$(printf '%s' "$model" | tr -c 'A-Za-z0-9._-' '_').json
mkdir -p "$dir/good" "$dir/bad"
# Baselines made from what this device measured, per case (lavapipe's run-to-run noise is tens
# of percent on single cases, so neither comes from one run): the good one takes each case's
# slowest median of the three fleet reports (measured while three tasks shared the CPU), made
# 1.5 times slower, since lavapipe slows with whatever else the host runs (a build beside the
# health check made it 14% slower than that slowest median once); the failing one, later, each
# case's fastest dispatch of every run so far, made 20% faster.
baseline() { # baseline good|bad TEMPLATE OUTPUT REPORTS...
    python3 - "$@" <<'PY'
import json, statistics, sys
kind, template, output, reports = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
def per_group(case):
    m = case.get("measurement")
    if not m:
        return None
    times = [s / m["groups"] for s in m["samples_ns"]]
    return statistics.median(times) if kind == "good" else min(times)
seen = {}
for path in reports:
    for case in json.load(open(path))["cases"]:
        t = per_group(case)
        if t is not None:
            seen.setdefault(case["id"], []).append(t)
base = json.load(open(template))
for case in base["cases"]:
    m = case.get("measurement")
    if m and case["id"] in seen:
        t = max(seen[case["id"]]) * 1.5 if kind == "good" else min(seen[case["id"]]) / 1.2
        m["samples_ns"] = [t * m["groups"]] * len(m["samples_ns"])
json.dump(base, open(output, "w"), indent=2)
PY
}
baseline good "${reports[0]}" "$dir/good/$baseline_name" "${reports[@]}" ||
    fail "could not write the good baseline"
export WORK_DIR="$dir/health" TARGET_MS=5 FILTER="Buffer<" FAIL_MEDIAN=10
line=$(BASELINE_DIR="$dir/good" "$here/perftest-healthcheck.sh"); status=$?
echo "$line (exit $status)"
[ "$status" -eq 0 ] && [[ $line == "perftest-health OK $node: "* ]] || fail "the good baseline did not pass"

echo "== health check against a report 20% faster than the device (must fail and drain)"
baseline bad "$WORK_DIR"/last/*.json "$dir/bad/$baseline_name" "${reports[@]}" "$WORK_DIR"/last/*.json ||
    fail "could not write the failing baseline"
line=$(BASELINE_DIR="$dir/bad" NODE_NAME="$node" "$here/perftest-health-drain.sh"); status=$?
echo "$line (exit $status)"
[ "$status" -eq 5 ] && [[ $line == "perftest-health FAIL $node: "* ]] || fail "the fast baseline did not fail"
drained() { sinfo -h -N -o '%T' | grep -Eq '^(drained|draining)$'; }
wait_for 20 drained || fail "the node was not drained: $(sinfo -N -o '%N %T %E' 2>&1)"
sinfo -h -N -o '%N %T %E'
scontrol update NodeName="$node" State=RESUME || fail "could not resume the node"

echo "== stop the daemons"
stop
for pid in "${pids[@]}"; do
    kill -0 "$pid" 2>/dev/null && fail "daemon $pid still runs"
done
trap - EXIT
rm -rf "$dir"
echo "local-cluster: passed (3 fleet reports, summary exit ${summary_exit%%:*}, health check pass and fail, node drained and resumed)"
