#!/usr/bin/env bash
# Runs every speed comparison of mark1 against its peers on the same data and
# prints the ratios from one run:
#   1. the Mark I pipeline (photocells → A-units → R-units → motors), Go benchmark;
#   2. the perceptron vs scikit-learn's Perceptron        (bench/perceptron/run.sh);
#   3. the kernel SVM vs LIBSVM svm-train, the linear SVM vs LIBLINEAR (bench/svm/run.sh).
# Peers come from Debian: libsvm-tools, liblinear-tools, python3-sklearn. Set
# INSTALL=1 to install them with apt-get; QUICK=1 for smaller data.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${INSTALL:-0}" = 1 ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libsvm-tools liblinear-tools python3-sklearn
fi
missing=""
command -v svm-train >/dev/null || missing="$missing libsvm-tools"
command -v train >/dev/null || missing="$missing liblinear-tools"
/usr/bin/python3 -c 'import sklearn' 2>/dev/null || missing="$missing python3-sklearn"
if [ -n "$missing" ]; then
  echo "missing peers:$missing (run with INSTALL=1, or apt-get install them)" >&2
  exit 1
fi

echo "== 1. Mark I pipeline, cards per second on one core (target: a 60,000-card epoch in < 1 s)"
GOMAXPROCS=1 go test ./learning -run '^$' -bench 'Presentation' -benchtime 2s | grep -E 'Benchmark|cards/s' |
  awk '{ for (i = 1; i <= NF; i++) if ($i == "cards/s") printf "  %-32s %8.0f cards/s   60k epoch %.2f s\n", $1, $(i-1), 60000 / $(i-1) }'

echo
echo "== 2. perceptron vs scikit-learn"
bash bench/perceptron/run.sh

echo
echo "== 3. SVMs vs LIBSVM and LIBLINEAR"
bash bench/svm/run.sh
