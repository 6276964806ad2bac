#!/bin/sh
# clustersim import: real Hugging Face configs give their published
# parameter totals (within 2%), Megatron-LM and vllm serve argument lists
# map to the exact keys expected, every fragment loads and runs in a
# scenario, and bad input is a one-line error, exit 2, nothing written.
. "$TOP/tests/cli/lib.sh"
FIX=$TOP/tests/fixtures/import

# A published total (and active) in billions, within 2%: the counts on
# standard error ("N.NNB parameters, M.MMB active (clustersim's count)").
while read -r file total active; do
	if status_is 0 "$CLUSTERSIM" import hf "$FIX/$file.json" &&
	   awk -v t="$total" -v a="$active" '
		/clustersim.s count/ {
			sub(/.*: /, ""); split($0, w, " ")
			got_t = w[1] + 0; got_a = (w[4] == "active") ? w[3] + 0 : got_t
			if ((got_t - t) / t > 0.02 || (t - got_t) / t > 0.02) { print "total " got_t " vs " t; exit 1 }
			if (a != "-" && ((got_a - a) / a > 0.02 || (a - got_a) / a > 0.02)) { print "active " got_a " vs " a; exit 1 }
			found = 1
		}
		END { exit found ? 0 : 1 }' "$TMP/err"; then
		ok
	else
		fail "import hf $file: not within 2% of $total B (active $active B): $(grep count "$TMP/err")"
	fi
done <<'EOF2'
meta-llama--Meta-Llama-3.1-8B 8 -
meta-llama--Meta-Llama-3.1-70B 70 -
meta-llama--Meta-Llama-3.1-405B 405 -
mistralai--Mixtral-8x7B-v0.1 46.7 12.9
mistralai--Mixtral-8x22B-v0.1 141 39
Qwen--Qwen3-32B 32.8 -
Qwen--Qwen3-235B-A22B 235 22
deepseek-ai--DeepSeek-V3 671 37
EOF2

# The entry written is exactly the config's shape (DeepSeek-V3: MLA, MoE
# with a shared expert, 3 dense layers, one MTP module).
status_is 0 "$CLUSTERSIM" import hf "$FIX/deepseek-ai--DeepSeek-V3.json" --name dsv3 &&
	tr -d ' \n' <"$TMP/out" | grep -q '"name":"dsv3".*"layers":61,"hidden":7168,"heads":128,"kv_heads":128,"ffn":18432,"vocab":129280,"mlp":"swiglu","head_dim":128,"q_lora_rank":1536,"kv_lora_rank":512,"qk_rope_dim":64,"mtp_layers":1,"experts":256,"experts_active":8,"expert_ffn":2048,"shared_experts":1,"dense_layers":3,"tied_embeddings":false,"max_seq_len":163840' &&
	ok || fail "import hf DeepSeek-V3: the entry's fields"
# What is not modelled is said, not dropped.
grep -q 'not modelled: rope_scaling' "$TMP/err" && grep -q 'not modelled: quantization_config' "$TMP/err" &&
	ok || fail "import hf DeepSeek-V3: rope_scaling and quantization_config not listed"

# An hf fragment is a catalog: a scenario names the model and runs.
status_is 0 "$CLUSTERSIM" import hf "$FIX/meta-llama--Meta-Llama-3.1-8B.json" -o "$TMP/l8.json" &&
	[ ! -s "$TMP/out" ] && ok || fail "import hf -o: the fragment to the file only"
# Same input, same bytes.
"$CLUSTERSIM" import hf "$FIX/meta-llama--Meta-Llama-3.1-8B.json" 2>/dev/null | cmp -s - "$TMP/l8.json" &&
	ok || fail "import hf: standard output and -o differ"

# The Megatron-LM GPT-3 175B example's arguments: exactly these keys.
status_is 0 "$CLUSTERSIM" import megatron --file "$FIX/megatron-gpt3-175b.args" &&
	cmp -s "$TMP/out" "$FIX/megatron-gpt3-175b.expected.json" && ok ||
	fail "import megatron GPT-3 175B: not the expected fragment"
grep -q 'not modelled: --step-batch-size-schedule 0:16 2.4B:320' "$TMP/err" &&
	grep -q 'Megatron-LM defaults written: cp 1, ep 1, zero 0' "$TMP/err" &&
	grep -q 'model not written: it needs' "$TMP/err" && ok ||
	fail "import megatron GPT-3 175B: the notes"

# A Llama-3-8B-like launch line with the model's shape (the arguments of
# Megatron-LM's examples/llama/train_llama3_8b_h100_fp8.sh, expanded).
MG="--num-layers 32 --hidden-size 4096 --ffn-hidden-size 14336 --num-attention-heads 32 --group-query-attention
 --num-query-groups 8 --swiglu --untie-embeddings-and-output-weights --vocab-size 128256 --seq-length 8192
 --micro-batch-size 1 --global-batch-size 128 --bf16 --fp8-format hybrid --tensor-model-parallel-size 2
 --pipeline-model-parallel-size 4 --num-layers-per-virtual-pipeline-stage 4 --sequence-parallel
 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather --recompute-granularity selective
 --recompute-modules core_attn mlp --attention-dropout 0.0 --hidden-dropout 0.0"
# shellcheck disable=SC2086
status_is 0 "$CLUSTERSIM" import megatron $MG && cp "$TMP/out" "$TMP/mg.json" &&
	tr -d ' \n' <"$TMP/out" | grep -q '"model":{"layers":32,"hidden":4096,"heads":32,"kv_heads":8,"ffn":14336,"mlp":"swiglu","vocab":128256,"tied_embeddings":false,"dropout":false},"precision":"fp8","seq_len":8192,"global_batch_tokens":1048576,"parallelism":{"tp":2,"pp":4,"cp":1,"ep":1,"vpp":2,"schedule":"interleaved","zero":1,"micro_batch":1,"sequence_parallel":true,"overlap_param_gather":true,"recompute":"selective","recompute_modules":\["core_attn","mlp"\]}' &&
	grep -q 'not modelled: --overlap-grad-reduce' "$TMP/err" && ok ||
	fail "import megatron: the Llama-3-8B-like line's keys"
# The same words in a file, with continuations and comments: the same bytes.
printf '%s\n' "# launch arguments" "$(echo "$MG" | sed 's/$/ \\/')" "  # done" >"$TMP/mg.args"
status_is 0 "$CLUSTERSIM" import megatron --file "$TMP/mg.args" && cmp -s "$TMP/out" "$TMP/mg.json" && ok ||
	fail "import megatron --file: not the command line's fragment"

# A fragment merged into a minimal scenario loads and runs.
{ printf '{"name": "m", "candidates": [{"name": "c", "preset": "dgx-h100", "nodes": 4}],\n'; tail -c +2 "$TMP/mg.json"; } >"$TMP/mg-scenario.json"
status_is 0 "$CLUSTERSIM" run "$TMP/mg-scenario.json" --format csv --columns status,tp,pp,vpp,dp &&
	grep -q '^ok,2,4,2,4$' "$TMP/out" && ok || fail "import megatron: the merged scenario does not run as tp 2 pp 4 vpp 2"

# A real launch script of vLLM's OpenAI server: the fragment and the notes.
status_is 0 "$CLUSTERSIM" import vllm --file "$FIX/vllm-run-model-server.sh" &&
	tr -d ' \n' <"$TMP/out" | grep -qx '{"workload":{"kind":"inference","precision":"fp16","serving":{"engine":"vllm-v1","tp":2,"kv_precision":"fp8"}}}' &&
	grep -q "not written: model './model/checkpoint-5500_merged'" "$TMP/err" &&
	grep -q 'not modelled: --max-model-len 512' "$TMP/err" && grep -q 'not modelled: --served-model-name pacer' "$TMP/err" &&
	ok || fail "import vllm --file run_model_server.sh: the fragment or its notes"

# --into: the scenario with the fragment merged in, the rest kept.
status_is 0 "$CLUSTERSIM" import megatron --into "$TOP/scenarios/examples/llama3-70b-pretrain.json" \
	--tensor-model-parallel-size 4 --pipeline-model-parallel-size 2 --bf16 &&
	tr -d ' \n' <"$TMP/out" | grep -q '"model":"llama3-70b",.*"parallelism":{"tp":4,"pp":2,' &&
	grep -q '"name": "llama3-70b-pretrain"' "$TMP/out" && ok || fail "import megatron --into: not merged"

# vllm serve arguments, as the vLLM docs write them.
status_is 0 "$CLUSTERSIM" import vllm vllm serve meta-llama/Llama-3.1-8B --dtype bfloat16 -tp 1 --max-num-seqs 64 \
	--max-num-batched-tokens 4096 --gpu-memory-utilization 0.85 --kv-cache-dtype fp8 --enable-chunked-prefill \
	--no-enable-prefix-caching --block-size 32 --port 8000 &&
	tr -d ' \n' <"$TMP/out" | grep -q '{"workload":{"kind":"inference","precision":"bf16","serving":{"engine":"vllm-v1","tp":1,"gpu_memory_fraction":0.85,"kv_precision":"fp8","prefix_cache_hit":0,"scheduler":{"max_seqs":64,"max_batch_tokens":4096,"chunked_prefill":true,"block_tokens":32}}}}' &&
	grep -q "not written: model 'meta-llama/Llama-3.1-8B'" "$TMP/err" && grep -q 'not modelled: --port 8000' "$TMP/err" &&
	ok || fail "import vllm: the keys"
cp "$TMP/out" "$TMP/v.json"
{ printf '{"name": "v", "candidates": [{"name": "c", "preset": "crusoe-8x-h100", "gpus_per_node": 1}],\n'; tail -c +2 "$TMP/v.json"; } |
	sed 's/"kind": "inference",/"kind": "inference", "model": "meta-llama--Meta-Llama-3.1-8B",/; s/"engine": "vllm-v1",/"engine": "vllm-v1", "prompt_tokens": 500, "output_tokens": 100, "duration_s": 60, "arrival": {"process": "poisson", "rate_per_s": 2},/' >"$TMP/v-scenario.json"
status_is 0 "$CLUSTERSIM" run "$TMP/v-scenario.json" --catalog "$TMP/l8.json" --format csv --columns status,tp &&
	grep -q '^ok,1$' "$TMP/out" && ok || fail "import vllm + hf: the merged scenario does not run"

# Bad input: one line naming the file and line (or argument N) and the
# value, exit 2, nothing written.
bad() {  # bad PATTERN CMD...: exit 2, one line matching PATTERN, -o not written
	pat=$1
	shift
	rm -f "$TMP/never.json"
	if status_is 2 "$@" -o "$TMP/never.json" && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q -- "$pat" "$TMP/err" &&
	   [ ! -e "$TMP/never.json" ] && [ ! -s "$TMP/out" ]; then
		ok
	else
		fail "bad input ($*): wanted one line matching '$pat', got: $(cat "$TMP/err")"
	fi
}
bad "argument 3: --tensor-model-parallel-size needs a value, got the end" \
	"$CLUSTERSIM" import megatron --num-layers 2 --tensor-model-parallel-size
bad "argument 1: --tensor-model-parallel-size needs a value, got the next option" \
	"$CLUSTERSIM" import megatron --tensor-model-parallel-size --bf16
bad "argument 2: --pipeline-model-parallel-size: expected a whole number .* got 'four'" \
	"$CLUSTERSIM" import megatron --pipeline-model-parallel-size four
bad "argument 2: --recompute-granularity: 'partial' is not one of Megatron-LM's choices (full selective)" \
	"$CLUSTERSIM" import megatron --recompute-granularity partial
printf -- '--num-layers 32 \\\n  --tensor-model-parallel-size $TP_SIZE\n' >"$TMP/var.args"
bad "arguments '$TMP/var.args' line 2: '\$TP_SIZE' holds a shell variable" \
	"$CLUSTERSIM" import megatron --file "$TMP/var.args"
printf -- '--num-layers 32\n--split "99,1,0\n' >"$TMP/quote.args"
bad "line 2: unterminated \" quote" "$CLUSTERSIM" import megatron --file "$TMP/quote.args"
printf -- '--num-layers 32\n--bf16\000\n' >"$TMP/binary.args"
bad "arguments '$TMP/binary.args' line 2: control byte 0x00: not a text file" "$CLUSTERSIM" import megatron --file "$TMP/binary.args"
bad "'--max-num-seqs': .*\|--max-num-seqs: expected a whole number from 1 .* got 'many'" \
	"$CLUSTERSIM" import vllm --max-num-seqs many
bad "--quantization: 'awq' is not modelled" "$CLUSTERSIM" import vllm -q awq
printf '{"model_type": "mamba", "hidden_size": 768}\n' >"$TMP/mamba.json"
bad "config '$TMP/mamba.json': model_type: unknown architecture 'mamba'" "$CLUSTERSIM" import hf "$TMP/mamba.json"
sed '/"hidden_size"/d' "$FIX/meta-llama--Meta-Llama-3.1-8B.json" >"$TMP/nohidden.json"
bad "config '$TMP/nohidden.json': hidden_size: missing" "$CLUSTERSIM" import hf "$TMP/nohidden.json"
sed 's/"num_hidden_layers": 32/"num_hidden_layers": "32"/' "$FIX/meta-llama--Meta-Llama-3.1-8B.json" >"$TMP/strlayers.json"
bad "num_hidden_layers: expected a whole number .* got \"32\"" "$CLUSTERSIM" import hf "$TMP/strlayers.json"
head -c 300 "$FIX/meta-llama--Meta-Llama-3.1-8B.json" >"$TMP/truncated.json"
bad "config '$TMP/truncated.json'.*line" "$CLUSTERSIM" import hf "$TMP/truncated.json"
# A benchmark's JSON (another tool's) is not a config.
printf '{"date": "20250101-000000", "backend": "vllm", "request_throughput": 1.5}\n' >"$TMP/bench.json"
bad "config '$TMP/bench.json': model_type: missing" "$CLUSTERSIM" import hf "$TMP/bench.json"
bad "import: unknown kind 'sglang'" "$CLUSTERSIM" import sglang --tp 2

# -o never replaces an input.
cp "$FIX/meta-llama--Meta-Llama-3.1-8B.json" "$TMP/in.json"
status_is 2 "$CLUSTERSIM" import hf "$TMP/in.json" -o "$TMP/in.json" &&
	cmp -s "$TMP/in.json" "$FIX/meta-llama--Meta-Llama-3.1-8B.json" && ok || fail "import hf -o INPUT: not refused"
status_is 2 "$CLUSTERSIM" import megatron --file "$TMP/mg.args" -o "$TMP/mg.args" && ok ||
	fail "import megatron -o ARGFILE: not refused"
finish
