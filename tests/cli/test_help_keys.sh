#!/bin/sh
# `clustersim help keys`: the scenario keys from the key table the reader
# checks against; the committed docs/reference/scenario-keys.md is its
# Markdown output, so the page cannot drift from the reader.
. "$TOP/tests/cli/lib.sh"
page="$TOP/docs/reference/scenario-keys.md"

# the committed page is the program's output, byte for byte
expect_status 0 "$CLUSTERSIM" help keys --markdown &&
	{ cmp -s "$TMP/out" "$page" && ok ||
		fail "docs/reference/scenario-keys.md differs from 'clustersim help keys --markdown' (regenerate it): $(diff "$page" "$TMP/out" | head -5)"; }

# a few exact lines of the page
for line in \
	'| workload.parallelism.tp | training, finetune | integer or "auto" | 1 to 1,024 | auto | GPUs | tensor parallelism |' \
	'| workload.serving.scheduler.block_tokens | inference | integer | 1 to 1,024 | the engine'"'"'s: 16 (vllm-v0, vllm-v1), 32 (trtllm), 1 (sglang) | tokens | tokens per KV-cache block (vLLM'"'"'s --block-size, TensorRT-LLM'"'"'s tokens_per_block, SGLang'"'"'s --page-size) |' \
	'| monte_carlo.trials | training, finetune, collective, fleet | integer | 1 to 1,000,000 | 100 | trials | seeded trials for whole-run estimates (P50, P90) |' \
	'## `workload.fleet.jobs[].arrival`'; do
	grep -qxF "$line" "$page" && ok || fail "the page lacks the line: $line"
done

# the plain table: a header, then one line per key
expect_status 0 "$CLUSTERSIM" help keys &&
	{ head -1 "$TMP/out" | grep -q '^KEY  *KINDS  *TYPE  *RANGE  *DEFAULT  *UNIT  *MEANING$' && ok ||
		fail "plain header: $(head -1 "$TMP/out")"; }
rows=$(grep '^| ' "$page" | grep -vc '^| key |\|^| --- |')
[ "$(($(wc -l <"$TMP/out") - 1))" -eq "$rows" ] && ok || fail "plain rows $(wc -l <"$TMP/out") - 1, page rows $rows"
grep -q '^candidates\[\]\.price\.billing_s  .*  1 to 31,622,400  ' "$TMP/out" && ok || fail "plain billing_s row"

# KIND keeps the keys that kind accepts
expect_status 0 "$CLUSTERSIM" help keys inference &&
	{ grep -q '^workload\.serving\.tp ' "$TMP/out" && ! grep -q '^workload\.parallelism\.' "$TMP/out" &&
		! grep -q '^monte_carlo\.' "$TMP/out" && ok || fail "help keys inference: $(head -3 "$TMP/out")"; }
expect_status 0 "$CLUSTERSIM" help keys fleet --markdown &&
	{ grep -q '^# Scenario keys: fleet$' "$TMP/out" && grep -q '^| workload\.fleet\.duration_h |' "$TMP/out" &&
		! grep -q 'workload\.serving\.' "$TMP/out" && ok || fail "help keys fleet --markdown"; }

# an unknown kind: one line, exit 2
expect_status 2 "$CLUSTERSIM" help keys trainig &&
	{ [ "$(wc -l <"$TMP/err")" -eq 1 ] && [ ! -s "$TMP/out" ] &&
		grep -qxF "clustersim: help keys: no workload kind 'trainig' (training, finetune, inference, collective or fleet) (see 'clustersim help keys --help')" "$TMP/err" &&
		ok || fail "unknown kind: $(cat "$TMP/err")"; }
expect_status 2 "$CLUSTERSIM" help keys training inference
expect_status 0 "$CLUSTERSIM" help keys --help && { grep -q '^usage: clustersim help keys' "$TMP/out" && ok || fail "usage"; }
finish
