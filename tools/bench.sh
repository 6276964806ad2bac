#!/bin/sh
# bench.sh BUILD: print the speed figures recorded in docs/history/performance.md.
# Figures only: nothing here passes or fails on time.
set -eu
build=${1:-build}
echo "machine: $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //')"
echo "date: $(date -u +%Y-%m-%d)"
for b in "$build"/bench/bench_*; do
	[ -x "$b" ] || continue
	echo
	echo "== $(basename "$b")"
	"$b"
done
