#!/usr/bin/env bash
# A quick node health check for Slurm's HealthCheckProgram or a job prolog: a short perftest
# run on every GPU of this node, each compared with the stored baseline of its GPU model
# (`perftest compare BASELINE RUN --fail-median PCT`: the median change over the cases, so one
# noisy case does not drain a node, while a slow GPU, slow at everything, does; FAIL_ABOVE
# adds a limit for any single case). Prints one line a scheduler log can keep:
#   perftest-health OK node1: 4 GPU(s) at most 10% slower than their baselines (median |change| 0.12%, ...)
#   perftest-health FAIL node1: GPU 00000000-18-00.0 slower than .../NVIDIA_H200.json: ...
#
# Exit status: 0 no GPU more than FAIL_MEDIAN slower than its baseline (a faster one passes);
# 5 a GPU is unhealthy (drain the node: perftest-health-drain.sh does): slower than that, or
# it returned wrong results (perftest's exit 4), was lost (VK_ERROR_DEVICE_LOST), hung (a
# dispatch that did not finish), or the run did not end within TIMEOUT seconds; 1 the check
# could not run (no perftest, no baseline for a GPU model, another perftest error) or could
# not judge (the run shares too few cases with its baseline: perftest compare's exit 7).
#
# Safe to run often: bounded by TIMEOUT, one run at a time (a lock in WORK_DIR), and it writes
# nothing outside WORK_DIR (the last run's reports and comparisons stay there to look at; the
# NVIDIA and Mesa drivers' shader caches are pointed there too).
#
# Baselines: one report per GPU model, BASELINE_DIR/<model>.json, <model> being the device
# name with every character other than letters, digits, `.`, `-` and `_` turned into `_`
# (`NVIDIA H200` -> `NVIDIA_H200.json`). Record one on a GPU known to be good with the same
# settings: perftest --filter "$FILTER" --target-ms "$TARGET_MS" --format json -o NVIDIA_H200.json

PERFTEST=${PERFTEST:-perftest}
BASELINE_DIR=${BASELINE_DIR:-/etc/perftest/baselines}
WORK_DIR=${WORK_DIR:-/var/lib/perftest-health}
# A short run: the original suite's typed-buffer loads (27 cases, about 1 s on a GPU).
FILTER=${FILTER:-Buffer<}
TARGET_MS=${TARGET_MS:-5}
FAIL_MEDIAN=${FAIL_MEDIAN:-10}        # median slowdown over the cases (%) that fails a GPU
FAIL_ABOVE=${FAIL_ABOVE:-}            # optional: the slowdown of any one case (%) that fails it
TIMEOUT=${TIMEOUT:-120}               # seconds for the whole check

set -uo pipefail
host=$(hostname -s)
say() { echo "perftest-health $1 $host: $2"; }

mkdir -p "$WORK_DIR" || { say ERROR "cannot create $WORK_DIR"; exit 1; }
exec 9> "$WORK_DIR/lock"
if ! flock -n 9; then
    say ERROR "another check is running ($WORK_DIR/lock)"
    exit 1
fi
# The drivers' shader caches too stay inside WORK_DIR (and persist from check to check).
export __GL_SHADER_DISK_CACHE_PATH="$WORK_DIR/driver-cache" MESA_SHADER_CACHE_DIR="$WORK_DIR/driver-cache"
mkdir -p "$WORK_DIR/driver-cache"
run="$WORK_DIR/last"
rm -rf "$run" && mkdir -p "$run" || { say ERROR "cannot create $run"; exit 1; }

status=0
timeout "$TIMEOUT" "$PERFTEST" --all-devices --filter "$FILTER" --target-ms "$TARGET_MS" \
    --format json --output "$run/{pci}.json" > "$run/run.txt" 2>&1 || status=$?
# The first message that is not a note naming a report written.
first_error() { grep 'perftest:' "$run/run.txt" | grep -v ': report written to ' | head -n 1; }
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    # perftest ends itself a few seconds after timeout's SIGTERM even when a driver blocks:
    # a run this long is a hung GPU, not a check that could not run.
    say FAIL "perftest did not finish within ${TIMEOUT}s (a hung GPU?): $(first_error)"
    exit 5
elif [ "$status" -eq 4 ]; then
    say FAIL "a GPU returned wrong results: $(first_error)"
    exit 5
elif [ "$status" -ne 0 ] && [ "$status" -ne 6 ] &&
    grep -qE 'VK_ERROR_DEVICE_LOST|did not finish within' "$run/run.txt"; then
    say FAIL "a GPU was lost or hung: $(grep -m1 -E 'VK_ERROR_DEVICE_LOST|did not finish within' "$run/run.txt")"
    exit 5
elif [ "$status" -ne 0 ] && [ "$status" -ne 6 ]; then
    # The first message that is not a note naming a report written.
    say ERROR "perftest exited $status: $(first_error)"
    exit 1
fi

shopt -s nullglob
reports=("$run"/*.json)
if [ "${#reports[@]}" -eq 0 ]; then
    say ERROR "perftest wrote no report ($run/run.txt)"
    exit 1
fi
worst=""
for report in "${reports[@]}"; do
    gpu=$(basename "$report" .json)
    # The device name: "device": { "name": "NVIDIA H200", ... } in perftest's JSON.
    model=$(sed -n 's/^ *"name": "\(.*\)",$/\1/p' "$report" | head -n 1)
    file="$BASELINE_DIR/$(printf '%s' "$model" | tr -c 'A-Za-z0-9._-' '_').json"
    if [ ! -f "$file" ]; then
        say ERROR "no baseline for GPU $gpu ($model): $file"
        exit 1
    fi
    limits=(--fail-median "$FAIL_MEDIAN")
    if [ -n "$FAIL_ABOVE" ]; then
        limits+=(--fail-above "$FAIL_ABOVE")
    fi
    status=0
    timeout "$TIMEOUT" "$PERFTEST" compare "${limits[@]}" -- "$file" "$report" \
        > "$run/$gpu.compare.txt" 2> "$run/$gpu.compare.err" || status=$?
    median=$(sed -n 's/^Median |change|: //p' "$run/$gpu.compare.txt")
    largest=$(sed -n 's/^Largest change: //p' "$run/$gpu.compare.txt")
    if [ "$status" -eq 7 ]; then
        # No verdict: the run and the baseline share too few cases (another filter or suite).
        # Neither healthy nor slow, so the node is not drained.
        say ERROR "could not judge GPU $gpu against $file: $(grep -m1 'no verdict' "$run/$gpu.compare.err" | sed 's/^perftest: //')"
        exit 1
    elif [ "$status" -eq 5 ]; then
        say FAIL "GPU $gpu slower than $file: $(grep -m1 'regression' "$run/$gpu.compare.err" | sed 's/^perftest: //'); largest change $largest"
        exit 5
    elif [ "$status" -ne 0 ]; then
        say ERROR "perftest compare exited $status for GPU $gpu: $(head -n 1 "$run/$gpu.compare.err")"
        exit 1
    fi
    worst="median |change| $median, largest change $largest"
done
say OK "${#reports[@]} GPU(s) at most ${FAIL_MEDIAN}% slower than their baselines ($worst)"
exit 0
