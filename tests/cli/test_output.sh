#!/bin/sh
# Output for people and for scripts: the table's default columns and units,
# --columns help and all, JSON types, JSONL (run and a streamed sweep), and
# CSV/JSON keeping every column. (The exact tables are golden files:
# tests/golden/*-table.args.)
. "$TOP/tests/cli/lib.sh"
cd "$TOP" || exit 1
ex=scenarios/examples/llama3-70b-pretrain.json
whole=scenarios/examples/llama3-70b-whole-run.json
sw=scenarios/examples/sweep-nccl.json

# a table: the short default set, with dollars, percents and days
status_is 0 "$CLUSTERSIM" run "$ex" --format table &&
	head -1 "$TMP/out" | grep -q '^candidate  *status  *gpus  *tp  *pp  *dp  *step_time_s  *tokens_per_s  *mfu  *wall_time_p50_h  *cost_usd_p50  *reason$' &&
	grep -q '^16 x p5 on-demand .* 40\.3%  *109\.1 d  *\$2,306,829 *$' "$TMP/out" && ok || fail "default table columns and units"
# a status other than ok stays visible, with its reason
grep -q '16 x p5en spot  *unsupported .*spot preemptions' "$TMP/out" && ok || fail "unsupported row in the default table"
status_is 0 "$CLUSTERSIM" run "$whole" --format table &&
	grep -q '16 x p5en spot  *unsupported .*spot preemptions' "$TMP/out" && ok || fail "whole-run table shows the spot row unsupported"

# --columns all: every column, the same as CSV's header
"$CLUSTERSIM" run "$ex" --format csv >"$TMP/all.csv" 2>/dev/null
ncsv=$(head -1 "$TMP/all.csv" | tr ',' '\n' | wc -l)
status_is 0 "$CLUSTERSIM" run "$ex" --format table --columns all &&
	[ "$(head -1 "$TMP/out" | wc -w)" -eq "$ncsv" ] && ok || fail "--columns all"
# CSV (piped), JSON and -o FILE keep every column
status_is 0 "$CLUSTERSIM" run "$ex" && cmp -s "$TMP/out" "$TMP/all.csv" && ok || fail "piped output is the full CSV"
status_is 0 "$CLUSTERSIM" run "$ex" -o "$TMP/o.csv" && cmp -s "$TMP/o.csv" "$TMP/all.csv" && ok || fail "-o FILE is the full CSV"
status_is 0 "$CLUSTERSIM" run "$ex" --format table -o "$TMP/o.txt" &&
	[ "$(head -1 "$TMP/o.txt" | wc -w)" -eq "$ncsv" ] && ok || fail "-o FILE table keeps every column"
tail -1 "$TMP/all.csv" | grep -q ',bf16,448,48\.109,141,2594,,,,,,,4\.47249,,core_attn,16777216,layers,false,,,on-demand,0,0,0,1162112,1162112,3\.5,3\.5$' && ok || fail "mem_per_gpu_gib and gpu_memory_gib, then billed_h, then the objective's four (empty), then the data wait's two (empty, no data block), then t_straggler_s, then expert_tp (empty: a dense model), then recompute_modules (the default, core_attn), then global_batch_tokens, pipeline_split (layers), free_stage_input (false) and numerics (none), then provider (empty: the scenario's own price) and price_type, then storage_usd_p50/p90 and storage_tb (0: no checkpoint held) and total_usd_p50/p90 (the cost), then usd_per_gpu_hour_p10/p90 (the scenario's price: no band), at the end"

# --columns help: every column, each with a unit and a meaning; exits 0
status_is 0 "$CLUSTERSIM" run "$ex" --columns help && ok || fail "--columns help status"
head -1 "$TMP/all.csv" | tr ',' '\n' >"$TMP/cols"
n=0
while read -r c; do
	line=$(grep "^$c  " "$TMP/out")
	set -- $line
	if [ $# -ge 3 ] && [ "$2" != "-" ]; then n=$((n + 1)); else fail "--columns help: '$c' has no unit"; fi
done <"$TMP/cols"
[ "$n" -eq "$ncsv" ] && ok || fail "--columns help lists $n of $ncsv columns"
grep -q '^mem_per_gpu_gib  *GiB (2^30 bytes)' "$TMP/out" && grep -q '^mfu  *fraction' "$TMP/out" &&
	grep -q '^cost_usd_p50  *USD' "$TMP/out" && ok || fail "--columns help units"
status_is 0 "$CLUSTERSIM" run "$whole" --columns help && ok || fail "--columns help exits 0 when no row would be ok"
status_is 0 "$CLUSTERSIM" run scenarios/examples/nccl-allreduce.json --columns help &&
	grep -q '^busbw_GBps  *GB/s' "$TMP/out" && ok || fail "--columns help for a collective"

# JSON: booleans, integers, reals
status_is 0 "$CLUSTERSIM" run "$ex" --format json &&
	python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
r = rows[0]
assert r["sequence_parallel"] is True, r["sequence_parallel"]
for k in ("steps", "micro_batches", "gpus", "tp", "pp", "dp", "row_id", "seed", "plans_tried"):
    assert type(r[k]) is int, (k, r[k])
for k in ("mfu", "step_time_s", "mem_per_gpu_gib", "gpu_memory_gib"):
    assert type(r[k]) is float, (k, r[k])
assert rows[1]["wall_time_p50_h"] is None
' "$TMP/out" && ok || fail "JSON types"

# JSONL: one object a line, the same rows as JSON
expect_status 0 "$CLUSTERSIM" run "$ex" --format json && mv "$TMP/out" "$TMP/run.json"
status_is 0 "$CLUSTERSIM" run "$ex" --format jsonl &&
	python3 -c '
import json, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "", "ends with a newline"
rows = [json.loads(l) for l in lines[:-1]]
assert all(isinstance(r, dict) for r in rows)
assert rows == json.load(open(sys.argv[2]))
' "$TMP/out" "$TMP/run.json" && ok || fail "run --format jsonl"

# sweep: JSONL streams one object a line, the CSV's rows; --columns
"$CLUSTERSIM" sweep "$sw" >"$TMP/sw.csv" 2>/dev/null
status_is 0 "$CLUSTERSIM" sweep "$sw" --format jsonl --jobs 2 &&
	python3 -c '
import csv, json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
want = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == len(want) > 0, (len(rows), len(want))
for r, w in zip(rows, want):
    assert list(r) == list(w)
    assert r["sweep_fingerprint"] == w["sweep_fingerprint"] and str(r["row_id"]) == w["row_id"]
' "$TMP/out" "$TMP/sw.csv" && ok || fail "sweep --format jsonl"
mv "$TMP/out" "$TMP/stdout.jsonl"
status_is 0 "$CLUSTERSIM" sweep "$sw" --format jsonl -o "$TMP/sw.jsonl" &&
	cmp -s "$TMP/sw.jsonl" "$TMP/stdout.jsonl" && ok || fail "sweep jsonl -o FILE"
status_is 0 "$CLUSTERSIM" sweep "$sw" --columns 'row_id,set:candidates[0].preset,bytes,busbw_GBps,sweep_fingerprint' &&
	head -1 "$TMP/out" | grep -qx 'row_id,set:candidates\[0\].preset,bytes,busbw_GBps,sweep_fingerprint' &&
	[ "$(wc -l <"$TMP/out")" -eq "$(wc -l <"$TMP/sw.csv")" ] && ok || fail "sweep --columns"
status_is 0 "$CLUSTERSIM" sweep "$sw" --columns help &&
	grep -q '^sweep_fingerprint  *hex' "$TMP/out" && grep -q '^set:candidates\[0\].nodes ' "$TMP/out" &&
	ok || fail "sweep --columns help"
status_is 2 "$CLUSTERSIM" sweep "$sw" --columns row_id,nope && grep -q "no column named 'nope'" "$TMP/err" &&
	ok || fail "sweep --columns with an unknown column"
status_is 2 "$CLUSTERSIM" sweep "$sw" --columns row_id -o "$TMP/r.csv" --resume && ok || fail "--resume refuses --columns"
status_is 0 "$CLUSTERSIM" sweep "$sw" --columns all && cmp -s "$TMP/out" "$TMP/sw.csv" && ok || fail "sweep --columns all"

# an oom reason in GiB with both numbers, and in GB
status_is 1 "$CLUSTERSIM" run "$ex" --set workload.parallelism.tp=1 --set workload.parallelism.pp=1 \
	--columns candidate,status,reason &&
	grep -q '^16 x p5 on-demand,oom,"needs [0-9.]* GiB per GPU (.*) but one H100-SXM has 80.0 GiB ([0-9.]* GB of 85.9 GB)"' "$TMP/out" &&
	ok || fail "oom reason in GiB"
# a searched plan says what was searched
status_is 0 "$CLUSTERSIM" run "$ex" --set 'workload.parallelism="auto"' --columns reason --format csv &&
	grep -q 'fastest of [0-9]* plans searched (tp, pp, vpp, pipeline_split, cp, zero, micro-batch, recompute with its modules); [0-9]* of them did not fit in memory' "$TMP/out" &&
	ok || fail "search reason"

# ---- output files ------------------------------------------------------------
tr="$TMP/tr.json"
cat >"$tr" <<'JSON'
{ "workload": { "kind": "training", "model": "llama3-8b", "seq_len": 4096, "global_batch_tokens": 32768,
    "parallelism": { "tp": 8, "pp": 2, "vpp": 1, "cp": 1, "ep": 1, "zero": 1, "micro_batch": 1,
                     "schedule": "1f1b", "recompute": "selective", "sequence_parallel": true } },
  "candidates": [ { "name": "two", "preset": "dgx-h100", "nodes": 2 } ] }
JSON
"$CLUSTERSIM" run "$tr" --format csv >"$TMP/tr.csv" 2>/dev/null && ok || fail "run tr.json"

# A link to /dev/null, to a fifo, to /proc/self/fd/1: written through, the
# link stays a link (and the fifo a fifo).
ln -s /dev/null "$TMP/null.csv"
for cmd in run sweep; do
	if [ $cmd = run ]; then in=$tr; else in=$sw; fi
	status_is 0 "$CLUSTERSIM" $cmd "$in" -o "$TMP/null.csv" && [ -L "$TMP/null.csv" ] &&
		[ "$(readlink "$TMP/null.csv")" = /dev/null ] && [ -c /dev/null ] &&
		[ -z "$(ls -A "$TMP" | grep '^\.null\.csv\|^null\.csv\.')" ] && ok || fail "$cmd -o a link to /dev/null: $(ls -l "$TMP/null.csv")"
done
mkfifo "$TMP/fifo"
ln -s fifo "$TMP/fifo.csv"
cat "$TMP/fifo" >"$TMP/fifo.got" &
reader=$!
expect_status 0 "$CLUSTERSIM" run "$tr" -o "$TMP/fifo.csv"
wait "$reader"
cmp -s "$TMP/fifo.got" "$TMP/tr.csv" && [ -L "$TMP/fifo.csv" ] && [ -p "$TMP/fifo" ] && ok ||
	fail "-o a link to a fifo: $(ls -l "$TMP/fifo.csv" "$TMP/fifo")"
ln -s /proc/self/fd/1 "$TMP/self.csv"
"$CLUSTERSIM" run "$tr" -o "$TMP/self.csv" >"$TMP/self.got" 2>"$TMP/err" && [ -L "$TMP/self.csv" ] &&
	cmp -s "$TMP/self.got" "$TMP/tr.csv" && ok || fail "-o a link to /proc/self/fd/1: $(ls -l "$TMP/self.csv"; cat "$TMP/err")"
# /dev/stdout redirected to a file: written there, /dev/stdout stays a link.
# (In a mount namespace of its own when one can be made, so that a binary
# with the bug replaces a /dev/stdout of its own, not this machine's.)
devstdout() {
	if unshare -m sh -c 'mount -t tmpfs tmpfs /dev && ln -s /proc/self/fd/1 /dev/stdout' 2>/dev/null; then
		unshare -m sh -c 'mount -t tmpfs tmpfs /dev && ln -s /proc/self/fd/1 /dev/stdout &&
			"$0" run "$1" -o /dev/stdout 2>/dev/null; st=$?; [ -L /dev/stdout ] || exit 99; exit $st' "$CLUSTERSIM" "$tr"
	else
		"$CLUSTERSIM" run "$tr" -o /dev/stdout 2>/dev/null && [ -L /dev/stdout ]
	fi
}
devstdout >"$TMP/stdout.got"
st=$?
[ "$st" -eq 0 ] && cmp -s "$TMP/stdout.got" "$TMP/tr.csv" && ok || fail "-o /dev/stdout into a file: exit $st"
devstdout >>"$TMP/stdout.got"
[ "$(wc -l <"$TMP/stdout.got")" -eq "$((2 * $(wc -l <"$TMP/tr.csv")))" ] && ok || fail "-o /dev/stdout >> FILE truncated it"

# A link to a regular file: the file it points to is replaced, the link stays.
mkdir "$TMP/real"
printf 'old\n' >"$TMP/real/r.csv"
ln -s real/r.csv "$TMP/link.csv"
status_is 0 "$CLUSTERSIM" run "$tr" -o "$TMP/link.csv" && [ -L "$TMP/link.csv" ] && cmp -s "$TMP/real/r.csv" "$TMP/tr.csv" &&
	[ "$(ls -A "$TMP/real")" = r.csv ] && ok || fail "-o a link to a file: $(ls -lA "$TMP/link.csv" "$TMP/real")"

# Temporaries: a user's FILE.tmp.abcdef (the old pattern) is never taken for one.
printf 'mine\n' >"$TMP/u.csv.tmp.abcdef"
status_is 0 "$CLUSTERSIM" run "$tr" -o "$TMP/u.csv" && status_is 0 "$CLUSTERSIM" run "$tr" -o "$TMP/u.csv" &&
	[ "$(cat "$TMP/u.csv.tmp.abcdef" 2>/dev/null)" = mine ] && ok || fail "a user's u.csv.tmp.abcdef was removed"

# SIGINT or SIGTERM while the output is written (sent from inside fsync,
# just before the rename: a shim preloaded) ends the command and removes its
# temporary: run, plan, trace and merge.
cat >"$TMP/shim.c" <<'SHIM'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
int fsync(int fd)
{
	static int (*real)(int);
	const char *sig = getenv("SHIM_SIGNAL");
	if (sig != NULL)
		kill(getpid(), atoi(sig));
	if (real == NULL)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	return real(fd);
}
SHIM
printf 'scenario,row_id\na,1\nb,0\n' >"$TMP/part.csv"
if ${CC:-cc} -shared -fPIC -o "$TMP/shim.so" "$TMP/shim.c" -ldl 2>/dev/null; then
	for sig in 2 15; do
		for cmd in run plan trace merge; do
			rm -rf "$TMP/sig"
			mkdir "$TMP/sig"
			case $cmd in merge) in=$TMP/part.csv ;; *) in=$tr ;; esac
			SHIM_SIGNAL=$sig LD_PRELOAD="$TMP/shim.so" ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
				"$CLUSTERSIM" $cmd "$in" -o "$TMP/sig/out" >/dev/null 2>&1
			st=$?
			[ "$st" -eq $((128 + sig)) ] && [ -z "$(ls -A "$TMP/sig")" ] && ok ||
				fail "$cmd killed by signal $sig while writing: exit $st, left: $(ls -A "$TMP/sig" | tr '\n' ' ')"
		done
	done
else
	echo "note: no C compiler for the fsync shim: signal checks skipped"
fi

# -o never replaces a file the scenario names: a request trace, a job trace,
# a catalog (the scenario's or --catalog): run, plan and trace refuse it with
# one line naming both, before computing anything (exit 2).
mkdir "$TMP/in"
printf 'arrival_s,prompt_tokens,output_tokens\n0,100,10\n0.5,2000,40\n' >"$TMP/in/reqs.csv"
cat >"$TMP/in/serve.json" <<'JSON'
{ "workload": { "kind": "inference", "model": "llama3.1-8b",
    "serving": { "arrival": { "process": "trace", "trace": "reqs.csv" }, "prompt_tokens": 1, "output_tokens": 1 } },
  "candidates": [ { "name": "one", "gpu": "H100-SXM", "gpus_per_node": 1 } ] }
JSON
cp "$TOP/scenarios/examples/fleet-sacct-replay.json" "$TOP/scenarios/examples/fleet-sacct-synthetic.txt" "$TMP/in/"
printf '{ "gpus": [ { "name": "H100-SXM", "mamf_bf16": 0.7 } ] }\n' >"$TMP/in/cat.json"
sed 's/^{ "workload"/{ "catalog": "cat.json", "workload"/' "$tr" >"$TMP/in/tr.json"
ln -s reqs.csv "$TMP/in/reqs-link.csv"
refused() {  # refused WHAT OUT CMD ARGS...: exit 2, one line, OUT unchanged
	what=$1 out=$2
	shift 2
	cp "$out" "$TMP/keep"
	status_is 2 "$CLUSTERSIM" "$@" -o "$out" && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		grep -q "refusing to write results to '$out': it is the $what '" "$TMP/err" && cmp -s "$out" "$TMP/keep" &&
		ok || fail "$* -o $out: $(cat "$TMP/err")"
}
for cmd in run plan; do
	refused "request trace" "$TMP/in/reqs.csv" $cmd "$TMP/in/serve.json"
	refused "request trace" "$TMP/in/reqs-link.csv" $cmd "$TMP/in/serve.json"
	refused "job trace" "$TMP/in/fleet-sacct-synthetic.txt" $cmd "$TMP/in/fleet-sacct-replay.json"
done
for cmd in run plan trace; do
	refused "catalog file" "$TMP/in/cat.json" $cmd "$TMP/in/tr.json"
	refused "catalog file" "$TMP/in/cat.json" $cmd "$tr" --catalog "$TMP/in/cat.json"
	refused "input file" "$TMP/in/tr.json" $cmd "$TMP/in/tr.json"
done
finish
