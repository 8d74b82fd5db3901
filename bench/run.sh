#!/usr/bin/env bash
# Runs every speed comparison of mark1 against its peers on the same data and
# prints the ratios from one run:
#   1. the Mark I pipeline (photocells → A-units → R-units → motors), Go benchmark;
#   2. the perceptron vs scikit-learn's Perceptron        (bench/perceptron/run.sh);
#   3. the kernel SVM vs LIBSVM svm-train, the linear SVM vs LIBLINEAR (bench/svm/run.sh);
#   4. every learner vs scikit-learn, LIBSVM and LIBLINEAR on 20x20 Fashion-MNIST
#      (bench/real/run.sh; FULL=1 adds the 60k case).
# Peers come from Debian: libsvm-tools, liblinear-tools, python3-sklearn,
# dataset-fashion-mnist; missing ones are installed with apt-get (INSTALL=0
# turns that off). QUICK=1 uses smaller data in parts 2 and 3.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=""
command -v svm-train >/dev/null || missing="$missing libsvm-tools"
command -v liblinear-train >/dev/null || command -v train >/dev/null || missing="$missing liblinear-tools"
/usr/bin/python3 -c 'import sklearn' 2>/dev/null || missing="$missing python3-sklearn"
[ -d /usr/share/datasets/fashion-mnist ] || missing="$missing dataset-fashion-mnist"
[ -x /usr/bin/time ] || missing="$missing time"
if [ -n "$missing" ]; then
  if [ "${INSTALL:-1}" = 0 ]; then
    echo "missing peers:$missing (apt-get install them, or run without INSTALL=0)" >&2
    exit 1
  fi
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
fi

echo "== 1. Mark I pipeline, cards per second on one core (target: a 60,000-card epoch in < 1 s)"
GOMAXPROCS=1 go test ./machine -run '^$' -bench 'Presentation' -benchtime 2s | grep -E 'Benchmark|cards/s' |
  awk '{ for (i = 1; i <= NF; i++) if ($i == "cards/s") printf "  %-32s %8.0f cards/s   60k epoch %.2f s\n", $1, $(i-1), 60000 / $(i-1) }'

echo
echo "== 2. perceptron vs scikit-learn"
bash bench/perceptron/run.sh

echo
echo "== 3. SVMs vs LIBSVM and LIBLINEAR"
bash bench/svm/run.sh

echo
echo "== 4. every learner vs scikit-learn, LIBSVM and LIBLINEAR on 20x20 Fashion-MNIST"
bash bench/real/run.sh
