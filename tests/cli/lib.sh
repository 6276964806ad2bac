# Helpers for the command-line tests; sourced with $CLUSTERSIM and $TOP set.
set -u
fails=0
checks=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

ok() {
	checks=$((checks + 1))
}

# expect_status WANT CMD...: run, keep stdout/stderr in $TMP/out, $TMP/err
expect_status() {
	want=$1
	shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "exit $got, wanted $want: $*"
		sed 's/^/  stderr: /' "$TMP/err" | head -5
		return 1
	fi
	ok
	return 0
}

# write_slow_sweep FILE: a sweep slow enough to interrupt: 60 points of an
# all-to-all simulated as flows over an oversubscribed fat tree (about a
# second in all).
write_slow_sweep() {
	{
		printf '{ "base": { "name": "slow", "workload": { "kind": "collective", "collective": { "op": "all_to_all",\n'
		printf '  "bytes": [67108864], "fidelity": "flows" } }, "candidates": [ { "name": "c", "preset": "dgx-h100", "nodes": 16,\n'
		printf '  "topology": { "kind": "fat-tree", "oversubscription": 2, "nodes_per_leaf": 4 } } ] },\n  "axes": { "seed": ['
		seq -s, 0 59 | tr -d '\n'
		printf '] } }\n'
	} >"$1"
}

# wait_for_temp_rows NAME [ROWS]: until ROWS rows (default 1) reach
# $TMP/NAME's journal ($TMP/NAME.partial, where a sweep writes CSV as its
# points finish) or its temporary file (.NAME.clustersim-PID-RANDOM.tmp),
# at most 10 s: the moment to interrupt a sweep writing -o $TMP/NAME, before
# its end whatever the speed of the machine.
wait_for_temp_rows() {
	n=0
	want=$((${2:-1} + 1))
	while [ $n -lt 1000 ]; do
		got=$(find "$TMP" -maxdepth 1 \( -name "$1.partial" -o -name ".$1.clustersim-*.tmp" \) -exec cat {} + 2>/dev/null | wc -l)
		[ "$got" -ge "$want" ] && break
		sleep 0.01
		n=$((n + 1))
	done
}

finish() {
	if [ "$fails" -gt 0 ]; then
		echo "$fails of $checks checks failed"
		exit 1
	fi
	echo "$checks checks passed"
	exit 0
}
