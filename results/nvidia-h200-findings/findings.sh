#!/usr/bin/env bash
# Findings evidence on one GPU: the engine probe on the first launch (shared measurement
# policy), the original suite under validation with nvidia-smi sampling the SM clock, and the
# modern and graphics suites, each rendered with its findings.
set -u
G=${1:-gpu}
P=.gpu/perftest
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader -lms 100 > "$OUT/smi.csv" 2>&1 &
SMI=$!
echo "=== probe, first launch"; .gpu/startup_diagnostics --timeline 2>&1 | grep -v "^ *[0-9.]* - " | head -30
echo "=== probe, driver cache off"; __GL_SHADER_DISK_CACHE=0 .gpu/startup_diagnostics 2>&1 | head -20
/usr/bin/time -f "original wall %e s" $P --validation --format json --output "$OUT/$G.json"
$P render "$OUT/$G.json" > "$OUT/$G.txt"
$P --suite modern --format json --output "$OUT/$G-modern.json"
$P --suite graphics --format json --output "$OUT/$G-graphics.json"
kill $SMI
sed -n '/^Findings/,/^Case /p' "$OUT/$G.txt"
tail -8 "$OUT/$G.txt"
for s in modern graphics; do $P render "$OUT/$G-$s.json" | sed -n '/^Findings/,/^Case /p'; done
echo "=== nvidia-smi clocks.sm (count, MHz)"; awk -F', ' '{print $2}' "$OUT/smi.csv" | sort | uniq -c | sort -rn | head -5
