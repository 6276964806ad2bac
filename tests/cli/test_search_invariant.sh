#!/bin/sh
# The plan search never loses to a plan a user could state: for every
# training and finetune scenario under scenarios/validation/ and
# scenarios/examples/ that states its parallelism, the same scenario with
# every searched field (tp, pp, vpp, dp, cp, ep, zero, micro_batch,
# recompute) set to "auto" gives, for each candidate whose stated plan is
# ok, an ok plan with at least the stated plan's tokens/s (the batch is the
# scenario's, so tokens/s orders whole-run time too).
#
# Full set (CHECK=full): every file (about a minute, more under the
# sanitizers); quick set (make check): the four that a habit-bound search
# lost (BLOOM's pp 12, MT-NLG's pp 35, the Mixtral vpp 7 row and a LoRA row
# with cp 2 and no recompute). CLUSTERSIM_INVARIANT_FILES names others.
. "$TOP/tests/cli/lib.sh"
cd "$TOP" || exit 1
C=$CLUSTERSIM

if [ -n "${CLUSTERSIM_INVARIANT_FILES:-}" ]; then
	files=$CLUSTERSIM_INVARIANT_FILES
elif full; then
	files=$(ls scenarios/validation/*.json scenarios/examples/*.json)
else
	files="scenarios/validation/bloom_176b_a100_384.json scenarios/validation/sc21_t1_529.6B.json
	       scenarios/validation/moezoo_mixtral_8x22b_h100_128.json
	       scenarios/validation/mlperf_v4.0_NVIDIA_eos_n8_ngc24.04_nemo_llama2_70b_lora.json"
fi
auto=""
for k in tp pp vpp dp cp ep zero micro_batch recompute; do
	auto="$auto --set workload.parallelism.$k=auto"
done
cols=candidate,status,tp,pp,vpp,dp,cp,ep,zero,micro_batch,recompute,tokens_per_s
checked=0
for f in $files; do
	grep -q '"kind": *"\(training\|finetune\)"' "$f" || continue
	grep -q '"parallelism": *{' "$f" || continue
	"$C" run "$f" --format csv --columns "$cols" >"$TMP/stated" 2>/dev/null
	# shellcheck disable=SC2086
	"$C" run "$f" $auto --format csv --columns "$cols" >"$TMP/auto" 2>/dev/null
	# candidate names may hold commas inside quotes: compare rows by position
	awk -F, -v file="$f" '
		NR == FNR { if (FNR > 1) { st[FNR] = $2; tps[FNR] = $NF; line[FNR] = $0 } next }
		FNR > 1 && st[FNR] == "ok" {
			if ($2 != "ok" || $NF + 0 < tps[FNR] * (1 - 1e-9))
				printf "LOSS %s: stated %s; auto %s\n", file, line[FNR], $0
			else
				printf "ok\n"
		}' "$TMP/stated" "$TMP/auto" >"$TMP/cmp"
	while IFS= read -r l; do
		case "$l" in
		ok) ok ;;
		*) fail "$l" ;;
		esac
	done <"$TMP/cmp"
	checked=$((checked + 1))
done
[ "$checked" -gt 0 ] && ok || fail "no scenario states its parallelism"

# Llama 3.1 405B on 16,384 H100: the whole parallelism "auto" (levers too:
# pipeline_split, free_stage_input, recompute modules) reaches at least the
# tokens/s and MFU of the plan Meta ran (tp 8 pp 16, interleaved,
# embedding+loss in the split, stage inputs freed early) in the same model.
f=scenarios/validation/llama3_405b_t4_16384_cp1.json
"$C" run "$f" --format csv --columns tokens_per_s,mfu >"$TMP/stated" 2>/dev/null
"$C" run "$f" --set workload.parallelism=auto --format csv \
	--columns tokens_per_s,mfu,status,pipeline_split,free_stage_input,numerics >"$TMP/auto" 2>/dev/null
paste -d, "$TMP/stated" "$TMP/auto" | awk -F, 'NR == 2 && $5 == "ok" && $3 >= $1 && $4 >= $2 { found = 1 } END { exit !found }' &&
	ok || fail "405B auto: $(cat "$TMP/stated" "$TMP/auto")"
# levers that save memory at no cost are taken; numerics stay Megatron's
# unless workload.search_numerics names them, and then the row says so
tail -1 "$TMP/auto" | grep -q ',true,$' && ok || fail "405B auto levers: $(tail -1 "$TMP/auto")"
"$C" run "$f" --set workload.parallelism=auto \
	--set 'workload.search_numerics=["grad_reduce_bf16","optimizer_moments_bf16"]' --format csv \
	--columns numerics,reason,tokens_per_s >"$TMP/num" 2>/dev/null
sed -n 2p "$TMP/num" | grep -q '^grad_reduce_bf16+optimizer_moments_bf16,".*numerics changed as search_numerics allows: grad_reduce_bf16+optimizer_moments_bf16' &&
	ok || fail "search_numerics: $(cat "$TMP/num")"
# allowing more never loses: the numerics search is at least as fast
paste -d, "$TMP/auto" "$TMP/num" | awk -F, 'NR == 2 { exit !($NF >= $1) }' && ok || fail "numerics lost"
finish
