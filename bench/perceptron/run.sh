#!/bin/sh
# Times one perceptron epoch, and a fit of EPOCHS epochs, in package learning
# and in scikit-learn's Perceptron (max_iter, tol=None, shuffle, eta0=1) on the
# same generated data: N × D binary features, 2 and 10 classes.
#
# Usage: bench/perceptron/run.sh [N [D [EPOCHS]]]   (defaults 60000 400 5)
# Needs Debian's python3-sklearn in /usr/bin/python3 (set PYTHON to override).
set -eu
N=${1:-60000}
D=${2:-400}
EPOCHS=${3:-5}
PYTHON=${PYTHON:-/usr/bin/python3}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here/../.." && go build -o "$tmp/perceptronbench" ./bench/perceptron/perceptronbench)
for K in 2 10; do
	echo "== $N × $D, $K classes, $EPOCHS epochs (best of 3 fits) =="
	"$PYTHON" "$here/gen_and_time.py" gen "$tmp/data$K.svm" "$N" "$D" "$K" 1
	go=$("$tmp/perceptronbench" --data "$tmp/data$K.svm" --epochs "$EPOCHS")
	sk=$("$PYTHON" "$here/gen_and_time.py" time "$tmp/data$K.npz" "$EPOCHS" 3)
	echo "$go"
	echo "$sk"
	g1=$(echo "$go" | sed -n 's/^go: fit 1 epoch \([0-9.]*\)s.*/\1/p')
	s1=$(echo "$sk" | sed -n 's/^sklearn: fit 1 epoch \([0-9.]*\)s.*/\1/p')
	ge=$(echo "$go" | sed -n 's/^go: per epoch \([0-9.]*\)s.*/\1/p')
	se=$(echo "$sk" | sed -n 's/^sklearn: per epoch \([0-9.]*\)s.*/\1/p')
	awk -v g1="$g1" -v s1="$s1" -v ge="$ge" -v se="$se" 'BEGIN {
		printf "ratio go/sklearn: 1-epoch fit %.2f, per epoch %.2f\n", g1 / s1, ge / se }'
done
