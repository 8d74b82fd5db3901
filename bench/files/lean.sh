#!/usr/bin/env bash
# Peak RSS of whole mark1 processes beside LIBSVM doing the same work
# (issue 39, "lean processes"): apply against svm-predict, fit --cv against
# svm-train -v, grid against grid.py (svm-grid), on Fashion-MNIST's 10
# classes written as 6-digit libsvm text (bench/files/mkfiles.py), the
# first 2,000 / 4,000 / all 10,000 training rows, the 10,000 test rows.
# mark1 is built twice, from BEFORE (a commit, default: main) and from the
# working tree, and the working tree once more with CGO_ENABLED=0 (a
# static binary: no libc or ld.so pages).
#
#   bench/files/lean.sh                  # BEFORE=main
#   BEFORE=6341c83 REPEAT=3 bench/files/lean.sh
#
# Every command runs under `taskset -c $CORE` (default 1) with --threads 1,
# C 10, γ of the 10k rows (scikit-learn's scale), 100 MB of kernel cache on
# both sides. RSS is GNU time's maximum resident set size (%M), CPU user +
# system seconds; each mark1 command runs REPEAT times (default 3) and the
# median RSS is kept, each peer once. grid.py's figure is its largest
# process (GNU time reports the largest of the tree, an svm-train -v 5).
# mark1's predictions are compared with svm-predict's, and the outputs of
# before and after with each other, byte for byte.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${OUT:-${TMPDIR:-/tmp}/mark1-lean}
before=${BEFORE:-main}
core=${CORE:-1}
repeat=${REPEAT:-3}
fm=${IDX:-/usr/share/datasets/fashion-mnist}
mkdir -p "$out/before-src"
one=(taskset -c "$core")

[[ -s $out/fashion10-10k-train.6g.libsvm && -s $out/fashion10-10k.gamma ]] ||
	/usr/bin/python3 "$here/mkfiles.py" "$out" "$fm/train-images-idx3-ubyte.gz" "$fm/train-labels-idx1-ubyte.gz" \
		"$fm/t10k-images-idx3-ubyte.gz" "$fm/t10k-labels-idx1-ubyte.gz" fashion10-10k 10000 10000
cd "$out"
cp fashion10-10k-train.6g.libsvm tr10k
head -4000 tr10k >tr4k
head -2000 tr10k >tr2k
cp fashion10-10k-test.6g.libsvm te
G=$(cat fashion10-10k.gamma)

git -C "$root" archive "$before" | tar -x -C before-src
(cd before-src && go build -o "$out/m1-before" ./cmd/mark1)
(cd "$root" && go build -o "$out/m1-after" ./cmd/mark1 && CGO_ENABLED=0 go build -o "$out/m1-static" ./cmd/mark1)

# rss cmd...: runs cmd once under taskset, prints "MB CPU"
rss() {
	"${one[@]}" /usr/bin/time -f '%M %U %S' -o t.raw "$@" >o 2>/dev/null || { echo "failed: $*" >&2; return 1; }
	awk '{ printf "%.1f %.2f\n", $1 / 1024, $2 + $3 }' t.raw
}
# med cmd...: rss REPEAT times, prints the median run's "MB CPU"
med() {
	for _ in $(seq "$repeat"); do rss "$@"; done | sort -n | awk '{ r[NR] = $0 } END { print r[int((NR + 1) / 2)] }'
}

# the models apply reads: mark1's and svm-train's
for n in 2k 10k; do
	[[ -s m$n.json ]] || "${one[@]}" ./m1-after fit --data tr$n --C 10 --gamma "$G" --cache-mb 100 --model m$n.json --quiet >/dev/null
	[[ -s lib$n.model ]] || "${one[@]}" svm-train -q -c 10 -g "$G" -m 100 tr$n lib$n.model
done

printf '%-44s %9s %9s %9s %9s %7s %7s   %s\n' command peer,MB before after static "÷before" "÷after" "CPU s peer/before/after"
row() { # name "peer cmd" "mark1 args" (the binary is put in front)
	local name=$1 peer=$2 args=$3 p b a s
	if [[ -n $peer ]]; then p=$(rss $peer); cp o peer.out; else p="- -"; fi
	b=$(med ./m1-before $args)
	cp o before.out
	a=$(med ./m1-after $args)
	cmp -s o before.out || echo "  ** $name: the output differs before and after"
	s=$(med ./m1-static $args)
	awk -v n="$name" -v p="$p" -v b="$b" -v a="$a" -v s="$s" 'BEGIN {
		split(p, P, " "); split(b, B, " "); split(a, A, " "); split(s, S, " ")
		rb = P[1] == "-" ? "-" : sprintf("%.2f", B[1] / P[1]); ra = P[1] == "-" ? "-" : sprintf("%.2f", A[1] / P[1])
		printf "%-44s %9s %9.1f %9.1f %9.1f %7s %7s   %s / %s / %s\n", n, P[1], B[1], A[1], S[1], rb, ra, P[2], B[2], A[2] }'
}
row "--help" "" "--help"
for n in 2k 10k; do
	row "apply, mark1's $n model" "svm-predict te lib$n.model p.lib$n" "apply --model m$n.json --data te --predictions p.m$n"
	cmp -s p.lib$n p.m$n && echo "  apply $n: mark1's predictions are svm-predict's" || echo "  ** apply $n: predictions differ from svm-predict's"
done
row "apply, svm-train's 2k model" "svm-predict te lib2k.model p.lib2k" "apply --model lib2k.model --data te --predictions p.l2k"
cmp -s p.lib2k p.l2k && echo "  apply of svm-train's model: svm-predict's predictions" || echo "  ** apply of svm-train's model: predictions differ"
for n in 4k 10k; do
	row "fit --cv 5 ($n)" "svm-train -v 5 -c 10 -g $G -m 100 tr$n" "fit --cv 5 --threads 1 --data tr$n --C 10 --gamma $G --cache-mb 100"
done
for n in 2k 4k; do
	row "grid 3 × 3 ($n)" "svm-grid -svmtrain $(command -v svm-train) -gnuplot null -log2c 1,5,2 -log2g -7,-5,1 -v 5 -m 100 -out null -png null tr$n" \
		"grid --threads 1 --log2c 1,5,2 --log2g -7,-5,1 --folds 5 --cache-mb 100 --data tr$n"
done
row "fit (10k)" "svm-train -q -c 10 -g $G -m 100 tr10k lib.model" "fit --data tr10k --C 10 --gamma $G --cache-mb 100 --model m.json --quiet"
