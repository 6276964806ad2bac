#!/bin/sh
# Numeric safety at the edges of what the loader accepts: the smallest
# model, one GPU, one token; a huge cluster; tiny and huge collectives.
# Every run succeeds (exit 0) and no NaN or infinity reaches any output.
. "$TOP/tests/cli/lib.sh"

check() {
	name=$1
	shift
	for fmt in csv json; do
		"$CLUSTERSIM" "$@" --format $fmt >"$TMP/out" 2>"$TMP/err"
		st=$?
		if [ $st -ne 0 ]; then
			fail "$name ($fmt): exit $st: $(cat "$TMP/err")"
			continue
		fi
		if grep -qiE '(^|[,:[ ])-?(nan|inf|infinity)([,}\n ]|$)' "$TMP/out"; then
			fail "$name ($fmt): a non-finite number in the output"
			continue
		fi
		ok
	done
}

cat >"$TMP/tiny.json" <<'JSON'
{ "workload": { "kind": "training",
    "model": { "layers": 1, "hidden": 1, "heads": 1, "ffn": 1, "mlp": "swiglu", "vocab": 1 },
    "seq_len": 1, "global_batch_tokens": 1, "tokens": 1,
    "parallelism": { "tp": 1, "pp": 1, "vpp": 1, "cp": 1, "ep": 1, "zero": 0, "micro_batch": 1,
                     "schedule": "1f1b", "recompute": "none", "sequence_parallel": false } },
  "candidates": [ { "name": "one L4", "gpu": "L4", "gpus_per_node": 1, "price": { "usd_per_gpu_hour": 0.0001 } } ] }
JSON
check "smallest model" run "$TMP/tiny.json"
check "smallest model, zb-h1" run "$TMP/tiny.json" --set workload.parallelism.schedule=zb-h1
check "smallest model, auto plan" run "$TMP/tiny.json" --set 'workload.parallelism="auto"'
check "smallest model, full mode" run "$TMP/tiny.json" --set workload.mode=full

cat >"$TMP/huge.json" <<'JSON'
{ "workload": { "kind": "training", "model": "llama3-405b", "seq_len": 131072,
    "global_batch_tokens": 137438953472, "tokens": 1e17,
    "parallelism": { "tp": 8, "pp": 16, "vpp": 1, "cp": 16, "ep": 1, "zero": 3, "micro_batch": 1,
                     "schedule": "1f1b", "recompute": "full", "sequence_parallel": true } },
  "candidates": [ { "name": "a million GPUs", "gpu": "B200", "nodes": 131072, "nic": "ib-xdr",
                    "price": { "usd_per_gpu_hour": 10000 } } ] }
JSON
check "huge run" run "$TMP/huge.json"

cat >"$TMP/coll.json" <<'JSON'
{ "workload": { "kind": "collective", "collective": { "op": "all_reduce", "bytes": [1, 1099511627776] } },
  "candidates": [ { "name": "one node", "preset": "dgx-h100" },
                  { "name": "many nodes", "preset": "dgx-h100", "nodes": 100000 } ] }
JSON
for op in all_reduce reduce_scatter all_gather all_to_all broadcast send_recv; do
	check "collective $op" run "$TMP/coll.json" --set workload.collective.op=$op
done
check "catalog" catalog gpus
finish
