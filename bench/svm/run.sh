#!/usr/bin/env bash
# Compare mark1's SVMs with LIBSVM (svm-train) and LIBLINEAR (liblinear-train,
# upstream's "train") on retina-like data, from one run: same C, kernel,
# tolerance and cache. Needs Go and Debian's libsvm-tools and liblinear-tools.
#
#   bench/svm/run.sh            # the full table (a few minutes: LIBSVM is slow)
#   QUICK=1 bench/svm/run.sh    # smaller data sets
#
# Times are seconds of reading the file and training, wall clock and CPU
# (user+system): for the peers the whole svm-train / liblinear-train process
# (which also writes a model file), for us svmbench's read+train time (its
# prediction pass for the accuracies is not counted; the peers' svm-predict
# runs are not either). On a busy machine the CPU ratio is the steadier one.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-${TMPDIR:-/tmp}/mark1-svmbench}
mkdir -p "$out"
for t in svm-train svm-predict liblinear-train liblinear-predict; do
	command -v $t >/dev/null || { echo "run.sh: $t not found (apt-get install libsvm-tools liblinear-tools)" >&2; exit 1; }
done
(cd "$here/../.." && go build -o "$out/svmbench" ./bench/svm/svmbench)
sb="$out/svmbench"

if [[ -n "${QUICK:-}" ]]; then nk=3000 ng=2000 nl=20000; else nk=10000 ng=5000 nl=100000; fi
gen() { # name n extra-flags...
	local name=$1 n=$2; shift 2
	[[ -s "$out/$name-train.libsvm" && -s "$out/$name-test.libsvm" && "$(wc -l <"$out/$name-train.libsvm")" == "$n" ]] && return
	"$sb" gen --n "$n" --seed 1 "$@" -o "$out/$name-train.libsvm"
	"$sb" gen --n $((n / 5)) --seed 1 --sample-seed 99 "$@" -o "$out/$name-test.libsvm"
}
gen retina "$nk"
gen grey "$ng" --grey
gen big "$nl"

timed() { # file cmd...: runs cmd, stdout to the caller, "wall cpu" to file
	local f=$1; shift
	/usr/bin/time -f '%e %U %S' -o "$f.t" "$@"
	awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$f.t" >"$f"
}
acc() { sed -n 's/^Accuracy = \([0-9.]*\)%.*/\1/p'; }
field() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p"; }

rows=()
fmt='%-36s %-15s %11s %11s %13s %16s %16s %6s %6s %13s %13s'
row() { rows+=("$(printf "$fmt" "$@")"); }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

# kernel: name data sigma C
kernel_case() {
	local name=$1 data=$2 sigma=$3 c=$4
	local g; g=$(awk -v s="$sigma" 'BEGIN { printf "%.17g", 1 / (2 * s * s) }')
	local tr="$out/$data-train.libsvm" te="$out/$data-test.libsvm" m="$out/$data.model"
	local log pw pc
	log=$(timed "$out/t" svm-train -s 0 -t 2 -g "$g" -c "$c" -e 0.001 -m 100 "$tr" "$m")
	read -r pw pc <"$out/t"
	local pobj; pobj=$(sed -n 's/^obj = \([^,]*\),.*/\1/p' <<<"$log" | head -1)
	local pnsv; pnsv=$(sed -n 's/^Total nSV = //p' <<<"$log")
	local ptr; ptr=$(svm-predict "$tr" "$m" "$out/pred" | acc)
	local pte; pte=$(svm-predict "$te" "$m" "$out/pred" | acc)
	local ours; ours=$("$sb" train --solver smo --kernel "gaussian:sigma=$sigma" --c "$c" --eps 0.001 --m 100 --test "$te" "$tr")
	local ow oc; ow=$(field total_s <<<"$ours"); oc=$(field cpu_s <<<"$ours")
	row "$name" "svm-train" "$pw/$pc" "$ow/$oc" "$(ratio "$ow" "$pw")/$(ratio "$oc" "$pc")" \
		"$pobj" "$(field obj <<<"$ours" | cut -d, -f1)" "$pnsv" "$(field nSV <<<"$ours")" \
		"$ptr/$pte" "$(field train_acc <<<"$ours")/$(field test_acc <<<"$ours")"
}

# linear: name data solver(3|1) C
linear_case() {
	local name=$1 data=$2 s=$3 c=$4
	local loss=hinge; [[ $s == 1 ]] && loss=squared-hinge
	local tr="$out/$data-train.libsvm" te="$out/$data-test.libsvm" m="$out/$data.lmodel"
	local log pw pc
	log=$(timed "$out/t" liblinear-train -s "$s" -c "$c" -e 0.1 -B 1 "$tr" "$m")
	read -r pw pc <"$out/t"
	local pobj; pobj=$(sed -n 's/^Objective value = //p' <<<"$log" | head -1)
	local pnsv; pnsv=$(sed -n 's/^nSV = //p' <<<"$log" | head -1)
	local ptr; ptr=$(liblinear-predict "$tr" "$m" "$out/pred" | acc)
	local pte; pte=$(liblinear-predict "$te" "$m" "$out/pred" | acc)
	local ours; ours=$("$sb" train --solver linear --loss "$loss" --c "$c" --eps 0.1 --B 1 --test "$te" "$tr")
	local ow oc; ow=$(field total_s <<<"$ours"); oc=$(field cpu_s <<<"$ours")
	row "$name" "liblinear -s $s" "$pw/$pc" "$ow/$oc" "$(ratio "$ow" "$pw")/$(ratio "$oc" "$pc")" \
		"$pobj" "$(field obj <<<"$ours" | cut -d, -f1)" "$pnsv" "$(field nSV <<<"$ours")" \
		"$ptr/$pte" "$(field train_acc <<<"$ours")/$(field test_acc <<<"$ours")"
}

kernel_case "rbf σ=6 C=1, retina 0/1 n=$nk" retina 6 1
kernel_case "rbf σ=4 C=10, grey n=$ng" grey 4 10
linear_case "hinge C=0.1, retina 0/1 n=$nl" big 3 0.1
linear_case "sq. hinge C=0.1, retina 0/1 n=$nl" big 1 0.1

echo "# $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(go version | cut -d' ' -f3)"
printf "$fmt\n" case peer "peer s" "ours s" "ratio" "peer obj" "ours obj" "p nSV" "o nSV" "peer acc%" "ours acc%"
printf '%s\n' "${rows[@]}"
echo "(s = wall/CPU seconds; ratio = ours/peer, wall/CPU; acc% = training/test accuracy; obj = dual objective of the first machine)"
