#!/bin/sh
# Makes the pictures of docs/limits.md and README.md's "The limits" with the
# commands they list, run in docs/limits. Run from the repository's root:
# sh docs/limits/make.sh
set -e
go build -o /tmp/mark1-limits ./cmd/mark1
m=/tmp/mark1-limits
cd docs/limits
$m limits vc --png vc.png
$m capacity --d 10 --png capacity.png
