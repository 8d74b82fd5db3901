#!/usr/bin/env bash
# mark1 against scikit-learn, LIBSVM and LIBLINEAR on the files users write:
# the same 20x20 Fashion-MNIST pictures as bench/real, written as libsvm
# text with 6 significant digits (".6g"), as scikit-learn's
# dump_svmlight_file writes them (".sk"), and as CSV with 6 decimals
# (bench/files/mkfiles.py), and as MNIST's IDX files (".images-idx3-ubyte",
# the labels beside them), timed through the commands people run:
# `mark1 fit` and `mark1 apply` as whole processes (reading the file and
# writing the model included), svm-train / svm-predict, liblinear-train,
# scikit-learn's fit() and predict() (reading excluded), and mark1's bare
# solver (bench/svm/svmbench, reading excluded).
#
#   bench/files/run.sh                  # Fashion 10 classes 10k/10k, shirt vs T-shirt 12k/2k
#   GROWTH="2000 4000 8000 16000 32000" bench/files/run.sh   # adds the growth table (fits only)
#   TASKS= GROWTH="…" bench/files/run.sh                      # the growth table alone
#   TASKS=fashion10-60k FORMS=6g.libsvm EXTRAS=0 REPEAT=1 bench/files/run.sh   # Fashion 60k/10k, kernel SVM only
#   TASKS=digits-8k MNIST=DIR bench/files/run.sh   # MNIST's 10,000 test digits (DIR holds
#       t10k-images-idx3-ubyte.gz and t10k-labels-idx1-ubyte.gz): the first 8,000 to train, the last 2,000 to test
#
# Every peer's kernel cache is 100 MB (LIBSVM's -m 100, SVC's cache_size=100);
# SVC runs once more at its own default, 200 MB, as SVC() does.
# FORMS lists the file forms mark1 reads (default: 6g.libsvm sk.libsvm csv
# images-idx3-ubyte); the peers read the 6-digit libsvm files.
# EXTRAS=0 leaves out the bare solver, the linear SVM and the perceptron.
#
# One core: every process runs under `taskset -c $CORE` (default 1) with
# OPENBLAS_NUM_THREADS=1 and OMP_NUM_THREADS=1; mark1 sees one core and
# uses one thread. "2 cores" runs mark1 fit once more on every core and
# checks that its model file is byte for byte the one-core one.
# Every timed command runs REPEAT times (default 3) back to back with its
# peers, and the best CPU time is kept (the machine is shared); CPU is user
# + system seconds, RSS the peak resident set of the whole process
# (GNU time's %M). Ratios are mark1 ÷ peer from the same run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${OUT:-${TMPDIR:-/tmp}/mark1-filebench}
mkdir -p "$out"
py=/usr/bin/python3
core=${CORE:-1}
repeat=${REPEAT:-3}
tasks=${TASKS-fashion10-10k shirt-tshirt-12k}
forms=${FORMS:-6g.libsvm sk.libsvm csv images-idx3-ubyte}
extras=${EXTRAS:-1}
growth=${GROWTH:-}
fm=${IDX:-/usr/share/datasets/fashion-mnist}
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1

need=()
command -v svm-train >/dev/null || need+=(libsvm-tools)
command -v liblinear-train >/dev/null || need+=(liblinear-tools)
$py -c 'import sklearn' 2>/dev/null || need+=(python3-sklearn)
[[ -d $fm ]] || need+=(dataset-fashion-mnist)
[[ -x /usr/bin/time ]] || need+=(time)
if ((${#need[@]})); then
	sudo=""; [[ $(id -u) == 0 ]] || sudo=sudo
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi

(cd "$root" && go build -o "$out/mark1" ./cmd/mark1 && go build -o "$out/svmbench" ./bench/svm/svmbench)
m1=$out/mark1 sb=$out/svmbench
files=("$fm/train-images-idx3-ubyte.gz" "$fm/train-labels-idx1-ubyte.gz" "$fm/t10k-images-idx3-ubyte.gz" "$fm/t10k-labels-idx1-ubyte.gz")
mk() { # task ntrain ntest [classes]
	local t=$1; shift
	[[ -s $out/$t-train.csv && -s $out/$t-test.labels-idx1-ubyte && -s $out/$t.gamma ]] || $py "$here/mkfiles.py" "$out" "${files[@]}" "$t" "$@"
}
digits() { # task ntrain ntest: MNIST's test digits, as the files of the pictures
	local d=${MNIST:?"set MNIST to a folder holding MNIST's t10k-images-idx3-ubyte.gz and t10k-labels-idx1-ubyte.gz"}
	local t=$1 tr=$d/t10k-images-idx3-ubyte.gz tl=$d/t10k-labels-idx1-ubyte.gz
	[[ -s $out/$t-train.csv && -s $out/$t-test.labels-idx1-ubyte && -s $out/$t.gamma ]] || $py "$here/mkfiles.py" "$out" "$tr" "$tl" "$tr" "$tl" "$t" "$2" "$3"
}

one=(taskset -c "$core")
# timed cmd...: runs cmd, its stdout into $out/o; "cpu wall rssMB" into $out/t
timed() {
	/usr/bin/time -f '%e %U %S %M' -o "$out/t.raw" "$@" >"$out/o"
	awk '{ printf "%.2f %.2f %.0f\n", $2 + $3, $1, $4 / 1024 }' "$out/t.raw" >"$out/t"
}
# best cmd...: timed, REPEAT times; keeps the run of least CPU in $out/o, $out/t
best() {
	local k bc=""
	for ((k = 0; k < repeat; k++)); do
		timed "$@"
		read -r c _ _ <"$out/t"
		if [[ -z $bc ]] || awk -v a="$c" -v b="$bc" 'BEGIN { exit !(a < b) }'; then
			bc=$c; cp "$out/o" "$out/o.best"; cp "$out/t" "$out/t.best"
		fi
	done
	cp "$out/o.best" "$out/o"; cp "$out/t.best" "$out/t"
}
field() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" "$out/o"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "—" }'; }
fmt='%-17s %-6s %-34s %8s %8s %8s %7s %6s %6s\n'
rows=()
row() { rows+=("$(printf "$fmt" "$@")"); printf "$fmt" "$@" >&2; }
# nsv: the support vectors of mark1 fit's output ("N support vectors", or
# the one machine's "nSV = N" with two classes; grep finding nothing must
# not end the script under pipefail)
nsv() { { grep -o '[0-9]* support vectors' "$out/o" || sed -n 's/.*nSV = \([0-9]*\).*/\1 x/p' "$out/o"; } | head -1 | cut -d' ' -f1; }
acc() { grep -o 'accuracy [0-9.]*%' "$out/o" | head -1 | cut -d' ' -f2 | tr -d %; }

echo "load before: $(uptime)" >&2
for t in $tasks; do
	case $t in
	fashion10-10k) mk "$t" 10000 10000 ;;
	shirt-tshirt-12k) mk "$t" 12000 2000 0,6 ;;
	fashion10-60k) mk "$t" 60000 10000 ;;
	digits-8k) digits "$t" 8000 8000:10000 ;;
	*) echo "unknown task $t" >&2; exit 1 ;;
	esac
	g=$(<"$out/$t.gamma") tr6=$out/$t-train.6g.libsvm te6=$out/$t-test.6g.libsvm
	echo "== $t (gamma $g) $(uptime)" >&2
	# kernel SVM, the peers
	best "${one[@]}" $py "$here/sk.py" svc "$tr6" "$te6" "$g" 10; read -r _ _ skrss <"$out/t"
	skfit=$(field fit_cpu) skpred=$(field predict_cpu)
	row "$t" "svm" "scikit-learn SVC fit()/predict()" "$skfit" "$(field fit_s)" "$skpred" "$(field test_acc)" "$(field nSV)" "$skrss"
	# and at scikit-learn's own default cache (200 MB), as SVC() runs
	SVC_CACHE_MB=200 timed "${one[@]}" $py "$here/sk.py" svc "$tr6" "$te6" "$g" 10
	row "$t" "svm" "  SVC at its default cache_size=200" "$(field fit_cpu)" "$(field fit_s)" "$(field predict_cpu)" "$(field test_acc)" "$(field nSV)" "$(cut -d' ' -f3 "$out/t")"
	timed "${one[@]}" svm-train -s 0 -t 2 -g "$g" -c 10 -e 0.001 -m 100 "$tr6" "$out/$t.model"; read -r lc lw lrss <"$out/t"
	lsv=$(sed -n 's/^Total nSV = //p' "$out/o")
	timed "${one[@]}" svm-predict "$te6" "$out/$t.model" "$out/$t.lpred"; read -r lpc _ lprss <"$out/t"
	row "$t" "svm" "LIBSVM svm-train / svm-predict" "$lc" "$lw" "$lpc" "$(sed -n 's/^Accuracy = \([0-9.]*\)%.*/\1/p' "$out/o")" "$lsv" "$lrss/$lprss"
	# mark1 on every file form, one core; then apply
	for form in $forms; do
		best "${one[@]}" "$m1" fit --data "$out/$t-train.$form" --gamma "$g" --C 10 --quiet --model "$out/$t.$form.json"
		read -r fc fw frss <"$out/t"; fsv=$(nsv)
		best "${one[@]}" "$m1" apply --model "$out/$t.$form.json" --data "$out/$t-test.$form" --predictions "$out/$t.$form.pred"
		read -r pc _ prss <"$out/t"
		row "$t" "svm" "mark1 fit / apply, $form" "$fc" "$fw" "$pc" "$(acc)" "$fsv" "$frss/$prss"
		row "$t" "svm" "  ÷ SVC (CPU; RSS fit/apply)" "$(ratio "$fc" "$skfit")" "" "$(ratio "$pc" "$skpred")" "" "" "$(ratio "$frss" "$skrss")/$(ratio "$prss" "$skrss")"
		row "$t" "svm" "  ÷ LIBSVM (CPU; RSS fit/apply)" "$(ratio "$fc" "$lc")" "" "$(ratio "$pc" "$lpc")" "" "" "$(ratio "$frss" "$lrss")/$(ratio "$prss" "$lprss")"
	done
	cmp -s "$out/$t.6g.libsvm.pred" "$out/$t.lpred" && same="same as svm-predict" || same="$(paste "$out/$t.6g.libsvm.pred" "$out/$t.lpred" | awk '$1 != $2' | wc -l) differ from svm-predict"
	echo "$t: mark1's 6-digit test predictions: $same" >&2; rows+=("$t: mark1's 6-digit test predictions: $same")
	# every core: wall time, and the model must be the same file
	best "$m1" fit --data "$tr6" --gamma "$g" --C 10 --quiet --model "$out/$t.all.json"; read -r ac aw arss <"$out/t"
	cmp -s "$out/$t.all.json" "$out/$t.6g.libsvm.json" && same=identical || same=DIFFERENT
	row "$t" "svm" "mark1 fit, $(getconf _NPROCESSORS_ONLN) cores (model $same)" "$ac" "$aw" "" "" "$(nsv)" "$arss"
	if ((extras)); then
		# the bare solver, reading excluded
		best "${one[@]}" "$sb" train --solver smo --gamma "$g" --c 10 --eps 0.001 --m 100 --threads 1 --train-acc=false --test "$te6" "$tr6"
		read -r _ _ brss <"$out/t"
		row "$t" "svm" "mark1 bare solver (svmbench)" "$(field train_cpu)" "$(field train_s)" "$(field predict_cpu)" "$(field test_acc)" "$(field nSV)" "$brss"
		row "$t" "svm" "  ÷ SVC (CPU)" "$(ratio "$(field train_cpu)" "$skfit")" "" "$(ratio "$(field predict_cpu)" "$skpred")" "" "" "$(ratio "$brss" "$skrss")"
		# linear SVM and perceptron, 6-digit libsvm
		best "${one[@]}" $py "$here/sk.py" linearsvc "$tr6" "$te6" "$g" 1; read -r _ _ rss <"$out/t"; skl=$(field fit_cpu)
		row "$t" "linear" "scikit-learn LinearSVC" "$skl" "$(field fit_s)" "$(field predict_cpu)" "$(field test_acc)" "" "$rss"
		timed "${one[@]}" liblinear-train -s 1 -c 1 -e 0.1 -B 1 "$tr6" "$out/$t.lmodel"; read -r llc llw llrss <"$out/t"
		row "$t" "linear" "LIBLINEAR -s 1" "$llc" "$llw" "" "" "" "$llrss"
		best "${one[@]}" "$m1" fit --learner linear-svm --loss squared-hinge --C 1 --eps 0.1 --bias 1 --data "$tr6" --test "$te6" --quiet --model "$out/$t.lin.json"
		read -r c w rss <"$out/t"
		row "$t" "linear" "mark1 fit (with test predictions)" "$c" "$w" "" "$(grep -o 'test accuracy [0-9.]*' "$out/o" | cut -d' ' -f3)" "" "$rss"
		row "$t" "linear" "  ÷ LinearSVC, ÷ LIBLINEAR (CPU)" "$(ratio "$c" "$skl")" "$(ratio "$c" "$llc")" "" "" "" "$(ratio "$rss" "$llrss")"
		best "${one[@]}" $py "$here/sk.py" perceptron "$tr6" "$te6" "$g" 20; read -r _ _ rss <"$out/t"; skp=$(field fit_cpu)
		row "$t" "perc." "scikit-learn Perceptron (20 epochs)" "$skp" "$(field fit_s)" "$(field predict_cpu)" "$(field test_acc)" "" "$rss"
		best "${one[@]}" "$m1" fit --learner perceptron --epochs 20 --data "$tr6" --test "$te6" --quiet --model "$out/$t.perc.json"
		read -r c w rss <"$out/t"
		row "$t" "perc." "mark1 fit (with test predictions)" "$c" "$w" "" "$(grep -o 'test accuracy [0-9.]*' "$out/o" | cut -d' ' -f3)" "" "$rss"
		row "$t" "perc." "  ÷ Perceptron (CPU)" "$(ratio "$c" "$skp")" "" "" "" "" ""
	fi
done

if [[ -n $growth ]]; then
	top=${growth##* }
	mk fashion10-$top "$top" 10000
	g=$(<"$out/fashion10-$top.gamma")
	echo "== growth, Fashion 10 classes, gamma $g (of the $top rows) $(uptime)" >&2
	gfmt='%-8s %10s %10s %10s %10s %8s %8s\n'
	: >"$out/growth.dat"
	grows=("$(printf "$gfmt" rows "SVC fit" "mark1 fit" "ratio" "svmbench" "SVC MB" "mark1 MB")")
	for n in $growth; do
		head -n "$n" "$out/fashion10-$top-train.6g.libsvm" >"$out/g$n.libsvm"
		timed "${one[@]}" $py "$here/sk.py" svc "$out/g$n.libsvm" - "$g" 10; read -r _ _ srss <"$out/t"; s=$(field fit_cpu)
		timed "${one[@]}" "$m1" fit --data "$out/g$n.libsvm" --gamma "$g" --C 10 --quiet --model "$out/g$n.json"; read -r m _ mrss <"$out/t"
		timed "${one[@]}" "$sb" train --solver smo --gamma "$g" --c 10 --eps 0.001 --m 100 --threads 1 --train-acc=false "$out/g$n.libsvm"; b=$(field train_cpu)
		grows+=("$(printf "$gfmt" "$n" "$s" "$m" "$(ratio "$m" "$s")" "$b" "$srss" "$mrss")"); echo "${grows[-1]}" >&2
		echo "$n $s $m $b" >>"$out/growth.dat"
	done
	# least-squares slope of log(time) on log(rows): the growth exponent
	exps=$(tail -n "$(wc -w <<<"$growth")" "$out/growth.dat" | awk '{ x = log($1); for (k = 2; k <= 4; k++) { y[k] = log($k); sy[k] += y[k]; sxy[k] += x * y[k] } sx += x; sxx += x * x; n++ }
		END { for (k = 2; k <= 4; k++) printf "%.2f ", (n * sxy[k] - sx * sy[k]) / (n * sxx - sx * sx) }')
	read -r e1 e2 e3 <<<"$exps"
	grows+=("exponent (CPU s ∝ rows^e): SVC $e1, mark1 fit $e2, svmbench $e3")
fi
echo "load after: $(uptime)" >&2
echo
printf "$fmt" task what who "fit CPU" "fit wall" "pred CPU" "acc %" SVs "RSS MB"
printf '%s\n' "${rows[@]}"
[[ -z $growth ]] || printf '%s\n' "" "growth (fit CPU s, one core, 6-digit libsvm, first N training rows):" "${grows[@]}"
