#!/bin/sh
# fuzz.sh DIR SECONDS: run every fuzz target built in DIR (by `make fuzz`) for
# SECONDS each, from the seed corpus in DIR/seeds (every file of scenarios/
# and tests/bad, and the golden CSV outputs) plus what earlier runs found in
# DIR/corpus/TARGET. A crash, leak, sanitizer report or timeout leaves its
# input in DIR/crashes/ and makes the script exit 1; reproduce it with
# `DIR/TARGET DIR/crashes/FILE`. Prints one line per target: executions and
# the result.
set -u
dir=${1:?usage: fuzz.sh DIR SECONDS}
seconds=${2:-60}
top=$(cd "$(dirname "$0")/.." && pwd)
failed=0
mkdir -p "$dir/crashes"

for bin in "$dir"/fuzz_*; do
	[ -x "$bin" ] || continue
	name=$(basename "$bin")
	case "$name" in
	fuzz_catalog) max_len=81920 ;;  # the built-in catalog files are up to 72 KB
	*) max_len=16384 ;;
	esac
	mkdir -p "$dir/corpus/$name"
	log="$dir/$name.log"
	"$bin" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
		-dict="$top/tests/fuzz/json.dict" -print_final_stats=1 \
		-artifact_prefix="$dir/crashes/$name-" "$dir/corpus/$name" "$dir/seeds" >"$log" 2>&1
	status=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	if [ "$status" -eq 0 ]; then
		printf '%-20s %10s executions in %ss, no crash\n' "$name" "${execs:-?}" "$seconds"
	else
		printf '%-20s FAILED (exit %d) after %s executions; see %s\n' "$name" "$status" "${execs:-?}" "$log"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|artifact_prefix|Test unit written)' "$log" | head -8
		failed=$((failed + 1))
	fi
done
[ "$failed" -eq 0 ]
