#!/bin/sh
# run.sh BUILD: run every test: the cmocka unit tests, then the command-line
# tests in tests/cli (each a shell script given $CLUSTERSIM). They run
# TEST_JOBS at a time (default: the number of processors), the slowest
# first; each one's output is kept and printed in a fixed order afterwards:
# one line per test binary or script (the whole log of a failure) and a
# summary of how many passed, were skipped (a script whose last line is
# "skipped: WHY": it did not apply here; each is named) and failed. Exits 1
# if anything failed.
#
# CHECK=full (make check-full, CI) runs each script's slow cases too; the
# default is make check's quick set (tests/cli/lib.sh: full).
set -u
build=${1:-build}
CLUSTERSIM=$(cd "$(dirname "$build/clustersim")" && pwd)/clustersim
export CLUSTERSIM
top=$(cd "$(dirname "$0")/.." && pwd)
export TOP="$top"
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT INT TERM

# The list, one path a line: the slowest command-line scripts and unit
# binaries first (so that the runners finish together), then the other
# scripts, then the other unit binaries.
list="$logs/list"
slow="test_plan test_sweep_files test_sweep test_reliability test_demo test_trace test_output test_plot
      test_odd test_bad_inputs test_whole_run test_serving test_slurm"
slow_units="test_run test_plan test_csvmerge test_validation test_serve_sim test_plan_disagg"
{
	for n in $slow; do
		[ -f "$top/tests/cli/$n.sh" ] && echo "$top/tests/cli/$n.sh"
	done
	for n in $slow_units; do
		[ -x "$build/tests/$n" ] && echo "$build/tests/$n"
	done
} >"$list"
for t in "$top"/tests/cli/test_*.sh "$build"/tests/test_*; do
	case "$t" in *.sh) ;; *) [ -x "$t" ] || continue ;; esac
	grep -qxF "$t" "$list" || echo "$t"
done >>"$list"

# one test: its output to $logs/NAME.log, its exit status to $logs/NAME.rc
export logs
xargs -P "$jobs" -I{} sh -c '
	t=$1
	name=$(basename "$t")
	case "$t" in
	*.sh) sh "$t" >"$logs/$name.log" 2>&1 ;;
	*) "$t" >"$logs/$name.log" 2>&1 ;;
	esac
	echo $? >"$logs/$name.rc"
' sh {} <"$list"

failed=0
passed=0
skipped=0
skips=""
# report units first, then scripts, as before
for t in $(grep -v '\.sh$' "$list" | sort) $(grep '\.sh$' "$list" | sort); do
	name=$(basename "$t")
	rc=$(cat "$logs/$name.rc" 2>/dev/null || echo 1)
	last=$(tail -1 "$logs/$name.log" 2>/dev/null)
	# a script passes only through lib.sh's finish, having checked something
	case "$t:$rc:$last" in
	*.sh:0:skipped:* | *.sh:0:[1-9]*" checks passed") ;;
	*.sh:0:*) echo "(exit 0, but the last line is not 'N checks passed' with N > 0 nor 'skipped: WHY')" >>"$logs/$name.log"; rc=1 ;;
	esac
	if [ "$rc" -ne 0 ]; then
		printf '%-36s FAILED\n' "$name"
		cat "$logs/$name.log"
		failed=$((failed + 1))
		continue
	fi
	case "$t" in
	*.sh)
		printf '%-36s %s\n' "$name" "$last"
		case "$last" in
		skipped:*)
			skipped=$((skipped + 1))
			skips="$skips${skips:+; }$name (${last#skipped: })"
			continue
			;;
		esac
		;;
	*) printf '%-36s %s\n' "$name" "$(grep -E '^\[  PASSED  \]' "$logs/$name.log" | tail -1)" ;;
	esac
	passed=$((passed + 1))
done

echo "tests (${CHECK:-quick} set): $passed passed, $skipped skipped${skips:+: $skips}, $failed failed"
[ "$failed" -eq 0 ]
