#!/usr/bin/env bash
# Times model selection — 5-fold cross-validation and a 3x3 grid search of
# an RBF SVM — with mark1 (fit --cv, grid), LIBSVM (svm-train -v, grid.py as
# Debian's svm-grid) and scikit-learn (cross_val_score, GridSearchCV with
# n_jobs=1 and -1) on the same file: 10,000 Fashion-MNIST training pictures
# at 20x20 (bench/real/mkdata.py: 400 features, byte/255, 10 classes).
#
#   bench/selection/run.sh            # writes results to $OUT (default /tmp/mark1-selbench)
#   N=2000 OUT=/tmp/sel2k bench/selection/run.sh   # the first 2,000 pictures (a quick run)
#   PARTS=warm CONCURRENT=1 bench/selection/run.sh  # mark1 grid with and without warm starts
#
# Settings shared by every tool: C = 10 and γ = scikit-learn's "scale" of the
# data (bench/real writes it) for the cross-validation; the grid
# C in 2^{1,3,5}, γ in 2^{-7,-5,-3} (log2c 1,5,2; log2g -7,-3,2), 5 folds;
# tolerance 1e-3, 100 MB kernel cache. Each tool draws its own folds
# (LIBSVM's rand(), scikit-learn's StratifiedKFold(shuffle, random_state=1),
# mark1's --cv-seed 1), so accuracies agree to the fold-to-fold noise, not
# exactly. Every command runs under /usr/bin/time -v: wall seconds, CPU
# seconds (user + system) and the peak RSS. mark1 runs once on 1 core
# (GOMAXPROCS=1 --threads 1) and once on all cores; scikit-learn's n_jobs=-1
# uses all cores too. The machine's cores are listed in the results.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${OUT:-${TMPDIR:-/tmp}/mark1-selbench}
mkdir -p "$out"
py=/usr/bin/python3
D=/usr/share/datasets/fashion-mnist
for t in svm-train svm-grid; do command -v $t >/dev/null || { echo "need $t (Debian libsvm-tools)"; exit 1; }; done
$py -c 'import sklearn' || { echo "need python3-sklearn"; exit 1; }
[[ -d $D ]] || { echo "need $D (Debian dataset-fashion-mnist)"; exit 1; }
[[ -x /usr/bin/time ]] || { echo "need /usr/bin/time (Debian time)"; exit 1; }

if [[ ! -s $out/fashion-train.libsvm ]]; then
	$py "$root/bench/real/mkdata.py" "$out" $D/train-images-idx3-ubyte.gz $D/train-labels-idx1-ubyte.gz \
		$D/t10k-images-idx3-ubyte.gz $D/t10k-labels-idx1-ubyte.gz fashion "${N:-10000}" 1000
fi
(cd "$root" && go build -o "$out/mark1" ./cmd/mark1)
data=$out/fashion-train.libsvm
g=$(cat "$out/fashion.gamma")
cd "$out"

# measure NAME CMD...: runs CMD under GNU time, keeps its output in NAME.out
# and its summary "NAME wall cpu peakMB" in NAME.sum. With CONCURRENT=1 the
# commands of a section run at the same time (on a machine shared with other
# work, that gets them a larger share of it; CPU seconds stay comparable,
# wall seconds do not) and the summaries are printed in order at the end.
pids=() names=()
measure() {
	local name=$1; shift
	names+=("$name")
	if [[ ${CONCURRENT:-0} == 1 ]]; then
		timed "$name" "$@" &
		pids+=($!)
	else
		timed "$name" "$@"
	fi
}
timed() {
	local name=$1; shift
	/usr/bin/time -v -o "$name.time" "$@" >"$name.out" 2>&1
	awk -v n="$name" -F': ' '
		/Elapsed \(wall clock\)/ { split($2, t, ":"); wall = (length(t) == 3) ? t[1]*3600 + t[2]*60 + t[3] : t[1]*60 + t[2] }
		/User time/ { u = $2 } /System time/ { s = $2 }
		/Maximum resident set size/ { m = $2 / 1024 }
		END { printf "%-28s wall %8.1f s  cpu %8.1f s  peak %7.0f MB\n", n, wall, u + s, m }' "$name.time" >"$name.sum"
}
# report: waits for the section's commands and prints their summaries.
report() {
	local p n
	for p in "${pids[@]}"; do wait "$p"; done
	for n in "${names[@]}"; do cat "$n.sum"; done
	pids=() names=()
}

cat >cv.py <<PY
import sys
from sklearn.datasets import load_svmlight_file
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.svm import SVC
X, y = load_svmlight_file("$data", n_features=400)
s = cross_val_score(SVC(C=10, gamma=$g, tol=1e-3, cache_size=100), X, y, cv=StratifiedKFold(5, shuffle=True, random_state=1), n_jobs=1)
print("Cross Validation Accuracy = %.6g%%" % (100 * s.mean()))
PY
cat >gs.py <<PY
import sys
from sklearn.datasets import load_svmlight_file
from sklearn.model_selection import StratifiedKFold, GridSearchCV
from sklearn.svm import SVC
X, y = load_svmlight_file("$data", n_features=400)
gs = GridSearchCV(SVC(tol=1e-3, cache_size=100), {"C": [2.0, 8.0, 32.0], "gamma": [2.0**-7, 2.0**-5, 2.0**-3]},
                  cv=StratifiedKFold(5, shuffle=True, random_state=1), n_jobs=int(sys.argv[1]))
gs.fit(X, y)
for p, m in zip(gs.cv_results_["params"], gs.cv_results_["mean_test_score"]):
    print(p["C"], p["gamma"], "%.4f" % (100 * m))
print("best", gs.best_params_, "%.6g%%" % (100 * gs.best_score_))
PY

{
echo "cores: $(nproc); load before: $(cut -d' ' -f1-3 /proc/loadavg); gamma $g; $(wc -l <"$data") rows"
echo "concurrent: ${CONCURRENT:-0}; parts: ${PARTS:-cv grid}"
if [[ " ${PARTS:-cv grid} " == *" cv "* ]]; then
echo "== 5-fold cross-validation, C = 10, gamma = $g"
measure cv-mark1-1core env GOMAXPROCS=1 ./mark1 fit --data "$data" --cv 5 --C 10 --gamma "$g" --threads 1
measure cv-mark1-allcores ./mark1 fit --data "$data" --cv 5 --C 10 --gamma "$g"
measure cv-svm-train svm-train -v 5 -c 10 -g "$g" -e 0.001 -m 100 "$data"
measure cv-sklearn env OPENBLAS_NUM_THREADS=1 $py cv.py
report
fi
if [[ " ${PARTS:-cv grid} " == *" warm "* ]]; then
# The same grid on 1 core, with warm starts along C (the default) and
# without: SMO iterations (the table's last line) and CPU seconds.
echo "== grid 3x3, warm starts along C against every fit from 0, 1 core"
measure grid-mark1-warm env GOMAXPROCS=1 ./mark1 grid --data "$data" --log2c 1,5,2 --log2g -7,-3,2 --threads 1 --png ""
measure grid-mark1-cold env GOMAXPROCS=1 ./mark1 grid --data "$data" --log2c 1,5,2 --log2g -7,-3,2 --threads 1 --png "" --warm-start=false
report
for f in grid-mark1-warm.out grid-mark1-cold.out; do echo "  $f: $(grep -h '^best' "$f") $(grep -h '^solver' "$f")"; done
fi
if [[ " ${PARTS:-cv grid} " == *" grid "* ]]; then
echo "== grid 3x3 (log2c 1,5,2; log2g -7,-3,2), 5 folds"
measure grid-mark1-1core env GOMAXPROCS=1 ./mark1 grid --data "$data" --log2c 1,5,2 --log2g -7,-3,2 --threads 1 --png grid-mark1.png
measure grid-mark1-allcores ./mark1 grid --data "$data" --log2c 1,5,2 --log2g -7,-3,2 --png ""
measure grid-svm-grid svm-grid -svmtrain "$(command -v svm-train)" -log2c 1,5,2 -log2g -7,-3,2 -v 5 -m 100 -gnuplot null -out grid-svm-grid.txt "$data"
measure grid-sklearn-njobs1 env OPENBLAS_NUM_THREADS=1 $py gs.py 1
measure grid-sklearn-njobs-1 env OPENBLAS_NUM_THREADS=1 $py gs.py -1
report
fi
echo "== accuracies"
for f in cv-*.out; do [[ -e $f ]] && echo "  $f: $(grep -h "Cross Validation Accuracy" "$f" | tail -1)"; done
for f in grid-*.out; do [[ -e $f ]] && echo "  $f: $(grep -h "best" "$f" || tail -1 "$f")"; done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "results-${PARTS:-all}.txt"
