#!/usr/bin/env bash
# Slurm HealthCheckProgram: runs perftest-healthcheck.sh (same knobs) and, when a GPU is slower
# than its baseline, returned wrong results, or was lost or hung (exit 5), drains this node with the check's line as the reason:
#   scontrol update NodeName=<this node> State=DRAIN Reason="perftest: ..."
# In slurm.conf: HealthCheckProgram=/path/to/perftest-health-drain.sh, HealthCheckInterval=3600.
# A check that could not run (exit 1) is logged and leaves the node as it is. Exit status: the
# check's.
#
# NODE_NAME: the node's name in Slurm (default: the short host name).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
node=${NODE_NAME:-$(hostname -s)}
line=$("$here/perftest-healthcheck.sh")
status=$?
echo "$line"
if [ "$status" -eq 5 ]; then
    reason="perftest: ${line#perftest-health FAIL }"
    scontrol update NodeName="$node" State=DRAIN Reason="${reason:0:200}" ||
        echo "perftest-health: scontrol could not drain $node" >&2
fi
exit "$status"
