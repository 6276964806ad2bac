#!/bin/sh
# valgrind.sh BUILD: every unit test binary in BUILD/tests and a few commands
# of BUILD/clustersim (run of examples, catalog, a bad input, sweep with one
# and two worker processes, --resume, merge, measurements, calibrate, plan on
# its overlay, import) under valgrind memcheck. Any
# memory error or definitely/indirectly lost block fails the run, as does an
# exit status other than the one each command must give. Needs a build
# without SANITIZE (ASan and valgrind do not mix).
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
ex="$top/scenarios/examples"
C="$build/clustersim"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
n=0

# vg WANT NAME CMD...: run CMD under valgrind; it must exit WANT and valgrind
# must report nothing (its own error exit status is 101, never WANT).
vg() {
	want=$1
	name=$2
	shift 2
	n=$((n + 1))
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=101 \
		--log-file="$tmp/vg.%p" "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -ne "$want" ] || [ -n "$(cat "$tmp"/vg.* 2>/dev/null)" ]; then
		printf '%-40s FAILED (exit %d, wanted %d)\n' "$name" "$got" "$want"
		cat "$tmp"/vg.* 2>/dev/null | head -40
		head -5 "$tmp/err"
		failed=$((failed + 1))
	else
		printf '%-40s ok\n' "$name"
	fi
	rm -f "$tmp"/vg.*
}

command -v valgrind >/dev/null 2>&1 || { echo "valgrind.sh: valgrind is not installed" >&2; exit 2; }

for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	vg 0 "$(basename "$t")" "$t"
done

vg 0 "run nccl-allreduce" "$C" run "$ex/nccl-allreduce.json" --format csv
vg 0 "run alltoall (flows)" "$C" run "$ex/alltoall-oversubscribed.json" --format json
vg 0 "run llama3-70b (training)" "$C" run "$ex/llama3-70b-pretrain.json" --format csv -o "$tmp/llama.csv"
vg 0 "run --dry-run --set" "$C" run "$ex/llama3-70b-pretrain.json" --dry-run --set 'candidates[0].nodes=3'
vg 0 "catalog" "$C" catalog
vg 0 "catalog gpus --format json" "$C" catalog gpus --format json
vg 2 "run of a bad input" "$C" run "$top/tests/bad/unknown-gpu.json"
vg 2 "run of a missing file" "$C" run "$tmp/nope.json"
vg 0 "sweep --jobs 1" "$C" sweep "$ex/sweep-nccl.json" -o "$tmp/s1.csv"
vg 0 "sweep --jobs 2 (forked workers)" "$C" sweep "$ex/sweep-nccl.json" --jobs 2 -o "$tmp/s2.csv"
vg 0 "sweep of training, --format table" "$C" sweep "$ex/sweep-llama3-70b.json" --format table
head -c 4000 "$tmp/s1.csv" >"$tmp/cut.csv"
vg 0 "sweep --resume" "$C" sweep "$ex/sweep-nccl.json" --resume -o "$tmp/cut.csv"
vg 0 "sweep --shard 0/2" "$C" sweep "$ex/sweep-nccl.json" --shard 0/2 -o "$tmp/p0.csv"
vg 0 "sweep --shard 1/2" "$C" sweep "$ex/sweep-nccl.json" --shard 1/2 -o "$tmp/p1.csv"
vg 0 "merge" "$C" merge "$tmp/p1.csv" "$tmp/p0.csv" -o "$tmp/m.csv"
printf '{ "base": "%s", "axes": { "candidates[0].nodes": [1, 0] } }\n' "$ex/nccl-allreduce.json" >"$tmp/inv.json"
vg 0 "sweep with an invalid point" "$C" sweep "$tmp/inv.json" --format csv
printf 'row_id,x\n0,1\n' >"$tmp/other.csv"
vg 2 "merge of mismatched headers" "$C" merge "$tmp/p0.csv" "$tmp/other.csv"
vg 2 "sweep of a bad sweep file" "$C" sweep "$top/tests/bad/unknown-gpu.json"
cal="$ex/calibrate"
vg 0 "run gemm" "$C" run "$ex/gemm-bf16-shapes.json" --format csv
vg 1 "validate nccl-tests --on" "$C" validate "$cal/nccl-tests.txt" --on "$cal/my-cluster.json" --format csv
vg 0 "calibrate -o" "$C" calibrate "$cal/my-training-runs.jsonl" "$cal/nccl-tests.txt" --on "$cal/my-cluster.json" \
	-o "$tmp/cal.json"
vg 0 "plan --catalog overlay" "$C" plan "$cal/plan-a3mega.json" --catalog "$tmp/cal.json"
vg 0 "import hf" "$C" import hf "$top/tests/fixtures/import/deepseek-ai--DeepSeek-V3.json"
vg 0 "import megatron --file" "$C" import megatron --file "$top/tests/fixtures/import/megatron-gpt3-175b.args"
vg 2 "import megatron, a value missing" "$C" import megatron --tensor-model-parallel-size

for f in s1 s2 cut m; do
	cmp -s "$tmp/$f.csv" "$tmp/s1.csv" || { echo "valgrind.sh: $f.csv differs from s1.csv"; failed=$((failed + 1)); }
done
echo "valgrind: $n runs, $failed failed"
[ "$failed" -eq 0 ]
