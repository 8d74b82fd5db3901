#!/bin/bash
# The final model of a data file trained a binary problem a task (mark1 sweep
# plan --final, sweep run, sweep merge --model) beside mark1 fit, each process
# timed with /usr/bin/time -v; the merged model compared with fit's (cmp).
#
#   OUT=/tmp/final60 DATA=/tmp/fb/fashion10-60k-train.6g.libsvm bench/files/final60.sh
#
# DATA defaults to bench/files/mkfiles.py's Fashion 60k file in $OUT
# (python3 bench/files/mkfiles.py $OUT <the four Fashion-MNIST IDX files>
# fashion10-60k 60000 10000). The tasks run JOBS (2) at a time, each on one
# core (--threads 1). Figures: docs/sweeps.md, "The final model".
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-/tmp/final60}
data=${DATA:-$out/fashion10-60k-train.6g.libsvm}
jobs=${JOBS:-2}
flags=(--C "${C:-10}" --gamma "${GAMMA:-scale}")
mkdir -p "$out"
(cd "$root" && go build -o "$out/mark1" ./cmd/mark1)
M=$out/mark1 t=$out/times
cd "$out"
rm -rf results "$t" && mkdir -p "$t"
/usr/bin/time -v -o "$t/fit.time" "$M" fit --data "$data" "${flags[@]}" --threads 1 --quiet --model fit.json >"$t/fit.out"
/usr/bin/time -v -o "$t/plan.time" "$M" sweep plan --final --data "$data" "${flags[@]}" --plan final.json >"$t/plan.out"
n=$("$M" sweep plan --final --data "$data" "${flags[@]}" --plan final.json --count)
seq 0 $((n - 1)) | shuf --random-source=<(yes) | xargs -P "$jobs" -I{} \
	/usr/bin/time -f '{} %e %U %S %M' -a -o "$t/tasks.time" "$M" sweep run --plan final.json --task {} --out results --threads 1 >"$t/tasks.out"
/usr/bin/time -v -o "$t/merge.time" "$M" sweep merge --plan final.json results --model merged.json >"$t/merge.out"
cmp fit.json merged.json && echo "merged.json is fit.json, byte for byte"
grep -E "User time|System time|Maximum resident" "$t/fit.time" "$t/plan.time" "$t/merge.time"
echo "tasks (task wall user sys maxRSS-kB), largest CPU first:"
sort -k3 -g -r "$t/tasks.time" | head -3
awk '{u += $3 + $4; if ($5 > m) m = $5} END {printf "all %d tasks: %.1f s CPU, most RSS %d kB\n", NR, u, m}' "$t/tasks.time"
