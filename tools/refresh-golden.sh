#!/bin/sh
# refresh-golden.sh [BUILD]: rewrite tests/golden/*.out from the current
# binary. Run only when an output change is intended, and review `git diff`.
set -eu
build=${1:-build}
cd "$(dirname "$0")/.."
for a in tests/golden/*.args; do
	name=$(basename "$a" .args)
	eval "set -- $(cat "$a")"
	"$build/clustersim" "$@" >"tests/golden/$name.out"
	echo "refreshed tests/golden/$name.out"
done
