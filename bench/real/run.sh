#!/usr/bin/env bash
# Times mark1's learners against scikit-learn, LIBSVM and LIBLINEAR on 20x20
# versions of Fashion-MNIST (and MNIST, if given), same files, one run:
#
#   bench/real/run.sh                    # Fashion 10 classes 10k/10k, shirt vs T-shirt 12k/2k
#   FULL=1 bench/real/run.sh             # adds Fashion 10 classes 60k/10k (about 20 more minutes)
#   MNIST=/path/to/mnist bench/real/run.sh   # adds digits 8k/2k from MNIST's four IDX files there
#   IDX=/path/to/dir bench/real/run.sh   # any MNIST-style IDX set in place of Fashion-MNIST
#
# The data: mkdata.py resizes every picture to 20x20 by area averaging and
# writes byte/255 features in libsvm format (see its doc); gamma is
# scikit-learn's "scale" of the training rows, given to every kernel SVM.
# Peers are single-threaded (OPENBLAS_NUM_THREADS=1); mark1 runs once with
# GOMAXPROCS=1 and --threads 1 ("1 core") and once with every core.
# Kernel SVM: RBF, C=10, tolerance 1e-3, 100 MB kernel cache for all three.
# Linear SVM: squared hinge, C=1, bias 1, tolerance 0.1 (LIBLINEAR -s 1).
# Perceptron: 20 epochs, shuffled.
# Columns: fit and predict CPU seconds (user + system; scikit-learn and mark1
# measure fit() and the test predictions alone, the CLIs are whole
# svm-train / svm-predict processes, reading included), fit wall seconds,
# test accuracy, support vectors, and the peak RSS of the whole process (GNU
# time's "Maximum resident set size"). CPU time is the steady measure on a
# shared machine; with all cores, wall time is the one that shows the gain,
# and it is only meaningful on an otherwise idle machine.
# Ratios are mark1 ÷ peer. Missing peers are installed with apt-get.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${OUT:-${TMPDIR:-/tmp}/mark1-realbench}
mkdir -p "$out"
py=/usr/bin/python3

need=()
command -v svm-train >/dev/null || need+=(libsvm-tools)
command -v liblinear-train >/dev/null || command -v train >/dev/null || need+=(liblinear-tools)
$py -c 'import sklearn' 2>/dev/null || need+=(python3-sklearn)
[[ -n "${IDX:-}" || -d /usr/share/datasets/fashion-mnist ]] || need+=(dataset-fashion-mnist)
[[ -x /usr/bin/time ]] || need+=(time)
if ((${#need[@]})); then
	sudo=""; [[ $(id -u) == 0 ]] || sudo=sudo
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi
lltrain=$(command -v liblinear-train || command -v train)
llpredict=$(command -v liblinear-predict || command -v predict)

# SVMBENCH=path times another build of bench/svm/svmbench (e.g. an older
# commit's, for before/after tables).
sb=${SVMBENCH:-}
if [[ -z $sb ]]; then (cd "$root" && go build -o "$out/svmbench" ./bench/svm/svmbench); sb="$out/svmbench"; fi

idxset() { # dir: the four files of an MNIST-style set, gzipped or not
	local d=$1 f
	for f in train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte; do
		if [[ -e $d/$f.gz ]]; then echo "$d/$f.gz"; elif [[ -e $d/$f ]]; then echo "$d/$f"; else
			echo "run.sh: $d has no $f[.gz]" >&2; exit 1; fi
	done
}
mapfile -t fashion < <(idxset "${IDX:-/usr/share/datasets/fashion-mnist}")
tasks=()
mk() { # name set ntrain ntest [classes]
	local name=$1 set=$2; shift 2
	local -n files=$set
	[[ -s $out/$name-train.libsvm && -s $out/$name.gamma ]] || $py "$here/mkdata.py" "$out" "${files[@]}" "$name" "$@"
	tasks+=("$name")
}
mk fashion10-10k fashion 10000 10000
mk shirt-tshirt-12k fashion 12000 2000 0,6
if [[ -n "${MNIST:-}" ]]; then mapfile -t mnist < <(idxset "$MNIST"); mk digits-8k mnist 8000 2000; fi
if [[ -n "${FULL:-}" ]]; then mk fashion10-60k fashion 60000 10000; fi

timed() { # cmd...: stdout of cmd; "wall cpu rssMB" of the process into $out/t
	/usr/bin/time -f '%e %U %S %M' -o "$out/t.raw" "$@"
	awk '{ printf "%.2f %.2f %.0f\n", $1, $2 + $3, $4 / 1024 }' "$out/t.raw" >"$out/t"
}
field() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p"; }
acc() { sed -n 's/^Accuracy = \([0-9.]*\)%.*/\1/p'; }
fmt='%-18s %-11s %-24s %8s %8s %8s %7s %7s %7s\n'
results=()
row() { results+=("$(printf "$fmt" "$@")"); echo "$(printf "$fmt" "$@")" >&2; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "—" }'; }

for t in "${tasks[@]}"; do
	tr=$out/$t-train.libsvm te=$out/$t-test.libsvm g=$(<"$out/$t.gamma")
	echo "== $t (gamma $g)" >&2
	# kernel SVM
	o=$(OPENBLAS_NUM_THREADS=1 timed $py "$root/bench/files/sk.py" svc "$tr" "$te" "$g" 10); read -r _ _ rss <"$out/t"
	skfit=$(field fit_cpu <<<"$o"); skpred=$(field predict_cpu <<<"$o"); skw=$(field fit_s <<<"$o") skrss=$rss
	row "$t" "svm" "scikit-learn SVC" "$skfit" "$skpred" "$skw" "$(field test_acc <<<"$o")" "$(field nSV <<<"$o")" "$rss"
	log=$(timed svm-train -s 0 -t 2 -g "$g" -c 10 -e 0.001 -m 100 "$tr" "$out/$t.model"); read -r w c rss <"$out/t"
	pa=$(timed svm-predict "$te" "$out/$t.model" "$out/pred" | acc); read -r _ pc _ <"$out/t"
	row "$t" "svm" "LIBSVM svm-train" "$c" "$pc" "$w" "$pa" "$(sed -n 's/^Total nSV = //p' <<<"$log")" "$rss"
	lsfit=$c lsrss=$rss
	for th in 1 0; do
		name="mark1 SVM, 1 core"; env=(GOMAXPROCS=1)
		[[ $th == 0 ]] && { name="mark1 SVM, $(nproc) cores"; env=(); }
		o=$(timed env "${env[@]}" "$sb" train --solver smo --gamma "$g" --c 10 --eps 0.001 --m 100 --threads "$th" --train-acc=false --test "$te" "$tr")
		read -r _ _ rss <"$out/t"
		f=$(field train_cpu <<<"$o"); p=$(field predict_cpu <<<"$o"); w=$(field train_s <<<"$o")
		row "$t" "svm" "$name" "$f" "$p" "$w" "$(field test_acc <<<"$o")" "$(field nSV <<<"$o")" "$rss"
		if [[ $th == 1 ]]; then
			row "$t" "svm" "  ÷ scikit-learn (CPU)" "$(ratio "$f" "$skfit")" "$(ratio "$p" "$skpred")" "$(ratio "$w" "$skw")" "" "" "$(ratio "$rss" "$skrss")"
			row "$t" "svm" "  ÷ LIBSVM (CPU)" "$(ratio "$f" "$lsfit")" "" "" "" "" "$(ratio "$rss" "$lsrss")"
		else
			row "$t" "svm" "  ÷ scikit-learn (wall)" "" "" "$(ratio "$w" "$skw")" "" "" ""
		fi
	done
	# linear SVM
	o=$(timed $py "$root/bench/files/sk.py" linearsvc "$tr" "$te" "$g" 1); read -r _ _ rss <"$out/t"
	skfit=$(field fit_cpu <<<"$o")
	row "$t" "linear SVM" "scikit-learn LinearSVC" "$skfit" "$(field predict_cpu <<<"$o")" "$(field fit_s <<<"$o")" "$(field test_acc <<<"$o")" "" "$rss"
	timed "$lltrain" -s 1 -c 1 -e 0.1 -B 1 "$tr" "$out/$t.lmodel" >/dev/null; read -r w c rss <"$out/t"
	pa=$(timed "$llpredict" "$te" "$out/$t.lmodel" "$out/pred" | acc); read -r _ pc _ <"$out/t"
	row "$t" "linear SVM" "LIBLINEAR -s 1" "$c" "$pc" "$w" "$pa" "" "$rss"
	o=$(GOMAXPROCS=1 timed "$sb" train --solver linear --loss squared-hinge --c 1 --eps 0.1 --B 1 --threads 1 --train-acc=false --test "$te" "$tr")
	read -r _ _ rss <"$out/t"; f=$(field train_cpu <<<"$o")
	row "$t" "linear SVM" "mark1, 1 core" "$f" "$(field predict_cpu <<<"$o")" "$(field train_s <<<"$o")" "$(field test_acc <<<"$o")" "" "$rss"
	row "$t" "linear SVM" "  ÷ LinearSVC (CPU)" "$(ratio "$f" "$skfit")" "" "" "" "" ""
	row "$t" "linear SVM" "  ÷ LIBLINEAR (CPU)" "$(ratio "$f" "$c")" "" "" "" "" ""
	# perceptron
	o=$(timed $py "$root/bench/files/sk.py" perceptron "$tr" "$te" "$g" 20); read -r _ _ rss <"$out/t"
	skfit=$(field fit_cpu <<<"$o")
	row "$t" "perceptron" "scikit-learn Perceptron" "$skfit" "$(field predict_cpu <<<"$o")" "$(field fit_s <<<"$o")" "$(field test_acc <<<"$o")" "" "$rss"
	o=$(GOMAXPROCS=1 timed "$sb" train --solver perceptron --epochs 20 --threads 1 --train-acc=false --test "$te" "$tr")
	read -r _ _ rss <"$out/t"; f=$(field train_cpu <<<"$o")
	row "$t" "perceptron" "mark1, 1 core" "$f" "$(field predict_cpu <<<"$o")" "$(field train_s <<<"$o")" "$(field test_acc <<<"$o")" "" "$rss"
	row "$t" "perceptron" "  ÷ scikit-learn (CPU)" "$(ratio "$f" "$skfit")" "" "" "" "" ""
done
echo
printf "$fmt" task learner who "fit CPU" "pred CPU" "fit wall" "acc %" SVs "RSS MB"
printf '%s\n' "${results[@]}"
