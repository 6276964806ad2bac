# Helpers for the command-line tests; sourced with $CLUSTERSIM and $TOP set.
set -u
fails=0
checks=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Every check is counted exactly once: by one call of ok (passed) or of
# fail (failed), or by one call of expect_status, which is both. A check
# that chains a status with more conditions uses status_is, which counts
# nothing:  status_is 0 CMD... && grep -q X "$TMP/out" && ok || fail "what"
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

ok() {
	checks=$((checks + 1))
}

# status_is WANT CMD...: run CMD, keep its stdout/stderr in $TMP/out and
# $TMP/err; true if it exited WANT, else say what it did and return 1.
# Counts nothing: the caller's ok or fail counts the check.
status_is() {
	want=$1
	shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	[ "$got" -eq "$want" ] && return 0
	echo "  exit $got, wanted $want: $*"
	sed 's/^/  stderr: /' "$TMP/err" | head -5
	return 1
}

# expect_status WANT CMD...: one whole check (counted once): CMD exits WANT.
# Its status is returned, for '|| continue' or '|| return'; never follow it
# with ok or fail (use status_is for that).
expect_status() {
	if status_is "$@" >"$TMP/.why"; then
		ok
		return 0
	fi
	fail "$(sed -n '1s/^  //p' "$TMP/.why")"
	sed 1d "$TMP/.why"
	return 1
}

# skip REASON: the whole script does not apply here: say why on its last
# line (tests/run.sh counts it as skipped, not passed) and exit 0.
skip() {
	echo "skipped: $*"
	exit 0
}

# full: true in the full set (CHECK=full: make check-full, CI), false in
# make check's quick set. A script runs its slow cases (repetitions, big
# sweeps, every file of a corpus) only when full, and says in its header
# what the quick set leaves to the full one.
full() {
	[ "${CHECK:-quick}" = full ]
}

# columns FILE COL,COL...: FILE's named columns (a results CSV, tools/csv.awk
# reads its quoted fields), as --columns COL,COL... would have written them:
# the rows of a run already written, without running it again.
columns() {
	awk -v want="$2" -f "$TOP/tools/csv.awk" -f /dev/stdin "$1" <<'AWK'
	function q(s) { if (s ~ /[",]/) { gsub(/"/, "\"\"", s); s = "\"" s "\"" } return s }
	NR == 1 { n = split_csv($0, h); for (i = 1; i <= n; i++) col[h[i]] = i; k = split(want, w, ",")
		  for (i = 1; i <= k; i++) if (!(w[i] in col)) { print "columns: no column " w[i] > "/dev/stderr"; exit 2 } }
	{ split_csv($0, v); line = ""
	  for (i = 1; i <= k; i++) line = line (i > 1 ? "," : "") q(NR == 1 ? w[i] : v[col[w[i]]])
	  print line }
AWK
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

# finish: the last line says how many checks passed, or how many of all
# failed; exit 1 on any failure.
finish() {
	if [ "$fails" -gt 0 ]; then
		echo "$fails of $((checks + fails)) checks failed"
		exit 1
	fi
	echo "$checks checks passed"
	exit 0
}
