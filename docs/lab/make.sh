#!/bin/sh
# Makes the pictures of README.md's "The notes, runnable" with the commands
# the README lists, run in docs/lab. Run from the repository's root:
# sh docs/lab/make.sh
set -e
go build -o /tmp/mark1-lab ./cmd/mark1
m=/tmp/mark1-lab
cd docs/lab
$m lab --example notes-004 --view notes --step 5 --png notes-004.png
$m lab --example notes-004 --view w --gif notes-004-w.gif --delay 100
$m lab --example pizza-001 --view w --png pizza-001-dual.png
$m lab --example pizza-001 --view risk --png pizza-001-risk.png
$m lab --example narrow-slice --view paths --png narrow-slice-paths.png
$m lab --example needs-bias --bias --view bias --png needs-bias-3d.png
$m lab --example needs-bias --bias --view theorem --png needs-bias-theorem.png
$m lab --example xor --learner kernel-perceptron --kernel poly:d=2,gamma=1 --png xor-kernel.png
$m lab --example rings --learner svm --kernel gaussian:sigma=1 --png rings-svm.png
$m lab --example overlap --learner svm --view margin --png overlap-margin.png
