#!/usr/bin/env bash
# Submits the fleet run and its summary: perftest-fleet.sbatch with the given sbatch options
# (e.g. --nodes=16, or --array=0-2 to let one machine play three nodes), then
# perftest-summary.sbatch with --dependency=afterok on it. Prints both job ids.
#   OUT_DIR=/shared/perftest/$(date +%F) deploy/slurm/submit-fleet.sh --nodes=16 --partition=gpu
# The knobs of perftest-fleet.sbatch (PERFTEST, SUITE, FILTER, TARGET_MS, OUT_DIR) are passed
# on through the environment.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OUT_DIR=${OUT_DIR:-$PWD/perftest-reports}
fleet=$(sbatch --parsable --export=ALL "$@" "$here/perftest-fleet.sbatch")
fleet=${fleet%%;*}
summary=$(sbatch --parsable --export=ALL --dependency="afterok:$fleet" \
    "$here/perftest-summary.sbatch")
summary=${summary%%;*}
echo "fleet job $fleet, summary job $summary (after it); reports and summary in $OUT_DIR"
