#!/bin/sh
# Reliability (files a user has are never lost or mixed): each check is the
# reproduction of a failure once seen.
#
# The quick set (make check) leaves to the full one (CHECK=full): the
# second writer against a first sweep of 40 points of plan searches (quick:
# 16 points), and the streaming merge of the 100 MB part under 120 MB, in
# sorted order and reversed (quick merges a 57 MB part under 56 MiB, in
# reverse order, the path through sorted runs in temporary files).
. "$TOP/tests/cli/lib.sh"
ex="$TOP/scenarios/examples/nccl-allreduce.json"

# A sweep slow enough to interrupt: 160 points of plan searches.
cat >"$TMP/slow.json" <<'JSON'
{ "base": { "name": "slow", "workload": { "kind": "training", "model": "llama3-70b", "seq_len": 4096,
      "global_batch_tokens": 4194304, "parallelism": "auto" },
    "candidates": [ { "name": "c", "preset": "dgx-h100", "nodes": 8 } ] },
  "axes": { "candidates[0].nodes": [1, 2, 4, 8, 16, 32, 64, 128], "workload.seq_len": [1024, 2048, 4096, 8192],
            "workload.global_batch_tokens": [1048576, 2097152, 4194304, 8388608, 16777216] } }
JSON

# wait_for_file FILE: until it exists (at most 10 s)
wait_for_file() {
	i=0
	while [ ! -e "$1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}

# SIGTERM while a worker is stopped (SIGSTOP): the pool ends its workers and
# the sweep exits, instead of waiting forever for the stopped one.
"$CLUSTERSIM" sweep "$TMP/slow.json" --jobs 2 -o "$TMP/stopped.csv" >/dev/null 2>"$TMP/err" &
pid=$!
i=0
while [ -z "$(pgrep -P $pid 2>/dev/null | head -1)" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
for w in $(pgrep -P $pid); do kill -STOP "$w"; done
sleep 0.2
kill -TERM $pid
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 $pid 2>/dev/null; then
	fail "sweep still running 10 s after SIGTERM with a stopped worker"
	pkill -KILL -P $pid; kill -KILL $pid
else
	ok
fi
wait $pid 2>/dev/null
[ -z "$(pgrep -P $pid 2>/dev/null)" ] && ok || fail "workers left behind"
# Two sweeps given the same -o: the second is refused while the first runs,
# and the first's results are whole (40 of the points, a few seconds; quick
# set: 16, about a second).
nodes='[1, 2, 4, 8, 16]' points=40
full || nodes='[1, 2]' points=16
sed -e "s/\[1, 2, 4, 8, 16, 32, 64, 128\]/$nodes/" -e 's/\[1048576, 2097152, 4194304, 8388608, 16777216\]/[1048576, 2097152]/' \
	"$TMP/slow.json" >"$TMP/slow40.json"
"$CLUSTERSIM" sweep "$TMP/slow40.json" --jobs 1 -o "$TMP/same.csv" 2>"$TMP/err1" &
pid=$!
i=0
while [ -z "$(ls "$TMP"/same.csv.partial 2>/dev/null)" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
status_is 1 "$CLUSTERSIM" sweep "$TMP/slow40.json" --jobs 1 -o "$TMP/same.csv" &&
	grep -q "another clustersim is writing it" "$TMP/err" && ok || fail "second writer: $(cat "$TMP/err")"
wait $pid && [ "$(wc -l <"$TMP/same.csv")" -eq $((points + 1)) ] && ok || fail "the first sweep's results: $(cat "$TMP/err1")"

# kill -9 leaves a temporary behind; the next run writing that file removes it.
"$CLUSTERSIM" sweep "$TMP/slow.json" --jobs 1 --format jsonl -o "$TMP/killed.csv" 2>/dev/null &
pid=$!
i=0
while [ -z "$(ls "$TMP"/.killed.csv.clustersim-*.tmp 2>/dev/null)" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
kill -KILL $pid
wait $pid 2>/dev/null
[ -n "$(ls "$TMP"/.killed.csv.clustersim-*.tmp 2>/dev/null)" ] && ok || fail "no temporary left by kill -9 (test setup)"
status_is 0 "$CLUSTERSIM" run "$ex" -o "$TMP/killed.csv" &&
	[ -z "$(ls "$TMP"/.killed.csv.clustersim-*.tmp 2>/dev/null)" ] && ok || fail "stale temporary not removed: $(ls "$TMP")"

# A name with an escape sequence and a bell reaches a table escaped, never
# raw; CSV keeps the bytes (quoted where needed): it is data, not a terminal.
printf '{"name":"esc","workload":{"kind":"collective","collective":{"op":"all_reduce","bytes":8}},"candidates":[{"name":"a\\u001b[31mred\\u0007","preset":"dgx-h100"}]}' >"$TMP/esc.json"
status_is 0 "$CLUSTERSIM" run "$TMP/esc.json" --format table --columns candidate,status &&
	! grep -q "$(printf '\033')" "$TMP/out" && grep -q 'a\\x1b\[31mred\\x07' "$TMP/out" && ok ||
	fail "control characters in a table: $(od -c "$TMP/out" | head -3)"
status_is 0 "$CLUSTERSIM" run "$TMP/esc.json" --format csv --columns candidate &&
	grep -q "$(printf '\033')" "$TMP/out" && ok || fail "CSV lost the name's bytes"
# trace of a plan that cannot run is bad input (exit 2), as run's rows
# would say; it used to exit 1 like a full disk.
status_is 2 "$CLUSTERSIM" trace "$TOP/scenarios/examples/llama3-70b-pretrain.json" --set workload.parallelism.tp=3 -o "$TMP/tr.json" &&
	grep -q "cannot run: invalid: tp x cp x pp = 12" "$TMP/err" && [ ! -e "$TMP/tr.json" ] && ok || fail "trace of an invalid plan: $(cat "$TMP/err")"
# --help and --version into a full disk or a closed descriptor are failures.
for args in "--help" "--version" "run --help" "help sweep"; do
	# shellcheck disable=SC2086
	"$CLUSTERSIM" $args >/dev/full 2>"$TMP/err"
	[ $? -eq 1 ] && grep -q "cannot write standard output" "$TMP/err" && ok || fail "$args > /dev/full: $(cat "$TMP/err")"
done
"$CLUSTERSIM" --version >&- 2>"$TMP/err"
[ $? -eq 1 ] && ok || fail "--version with standard output closed"

# --seed: digits only, the same with a space before or after; 2^63 is out
# of range, not "negative".
for seed in ' 5' '5 ' '+5'; do
	status_is 2 "$CLUSTERSIM" run "$ex" --dry-run --seed "$seed" && ok || fail "--seed '$seed' accepted"
done
status_is 2 "$CLUSTERSIM" run "$ex" --dry-run --seed 9223372036854775808 &&
	grep -q "expects an integer from 0 to 9223372036854775807" "$TMP/err" && ok || fail "--seed 2^63: $(cat "$TMP/err")"
# An integer too big for 64 bits given with --set is a number out of range,
# not a string.
status_is 2 "$CLUSTERSIM" run "$ex" --dry-run --set 'candidates[0].nodes=99999999999999999999' &&
	grep -q 'candidates\[0\].nodes: expected an integer from 1 to 1000000, got 1e+20' "$TMP/err" && ok ||
	fail "--set of a huge integer: $(cat "$TMP/err")"
# --columns naming a column twice is refused (CSV repeated it, JSON could not).
status_is 2 "$CLUSTERSIM" run "$ex" --columns op,bytes,op && grep -q "'op' is given twice" "$TMP/err" && ok ||
	fail "--columns op,bytes,op: $(cat "$TMP/err")"
# Results never replace an input: run, trace, sweep and merge refuse an -o
# that is (or links to) the scenario, the sweep file, a part or a catalog
# file, before computing, and leave the input as it was.
cp "$ex" "$TMP/in.json"
cp "$TOP/scenarios/examples/llama3-70b-pretrain.json" "$TMP/llama.json"
ln -s "$TMP/in.json" "$TMP/link.json"
printf '{ "gpus": [ { "name": "H100-SXM", "mamf_bf16": 0.7 } ] }\n' >"$TMP/cat.json"
cp "$TMP/cat.json" "$TMP/cat.orig"
sed 's|^{|{ "catalog": "cat.json",|' "$TMP/in.json" >"$TMP/named.json"
for args in "run $TMP/in.json -o $TMP/in.json" "run $TMP/in.json -o $TMP/link.json" "run $TMP/link.json -o $TMP/in.json" \
	    "trace $TMP/llama.json -o $TMP/llama.json" \
	    "run $TMP/in.json --catalog $TMP/cat.json -o $TMP/cat.json" "run $TMP/named.json -o $TMP/cat.json" \
	    "merge $TMP/in.json -o $TMP/in.json"; do
	# shellcheck disable=SC2086
	status_is 2 "$CLUSTERSIM" $args && grep -q "refusing to write results to" "$TMP/err" && ok ||
		fail "$args: $(cat "$TMP/err")"
done
cmp -s "$ex" "$TMP/in.json" && cmp -s "$TMP/cat.json" "$TMP/cat.orig" &&
	cmp -s "$TMP/llama.json" "$TOP/scenarios/examples/llama3-70b-pretrain.json" && ok || fail "an input was changed"
cp "$TOP/scenarios/examples/sweep-nccl.json" "$TMP/sw.json"
status_is 2 "$CLUSTERSIM" sweep "$TMP/sw.json" -o "$TMP/sw.json" && cmp -s "$TMP/sw.json" "$TOP/scenarios/examples/sweep-nccl.json" &&
	ok || fail "sweep -o its own file: $(cat "$TMP/err")"
# merge streams: a 100 MB part (sorted, as sweeps write them, and the same
# rows in reverse order, which goes through sorted runs in temporary files)
# merges in a process limited to 120 MB of address space; reading it whole
# ran out of memory. (Merging takes some 37 MB of address space whatever
# the part's size; the quick set's part is 57 MB under 56 MiB.) Sanitizer
# builds reserve far more address space for themselves, so the limit is
# checked on the plain build only.
case $CLUSTERSIM in
*build-san*) ;;
*)
	rows=800000 limit_kib=57344
	full && rows=1500000 limit_kib=122880
	awk -v n=$rows 'BEGIN { print "scenario,row_id,seed,status,reason,x,y,z"
		     for (i = 0; i < n; i++) printf "big-sweep-scenario,%d,42,ok,,%d.123456,some text here to pad,%d\n", i, i * 7, i % 13 }' >"$TMP/big.csv"
	# the same rows by row_id descending (what sort -t, -k2,2nr gives)
	{ head -1 "$TMP/big.csv"; tail -n +2 "$TMP/big.csv" | tac; } >"$TMP/big-rev.csv"
	parts=big-rev
	full && parts="big big-rev"
	for part in $parts; do
		(ulimit -v $limit_kib; "$CLUSTERSIM" merge "$TMP/$part.csv" -o "$TMP/merged-$part.csv") 2>"$TMP/err" &&
			cmp -s "$TMP/big.csv" "$TMP/merged-$part.csv" && ok || fail "streaming merge of $part.csv: $(cat "$TMP/err")"
	done
	rm -f "$TMP"/big*.csv "$TMP"/merged-big*.csv
	;;
esac
finish
