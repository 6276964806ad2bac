#!/bin/sh
# clustersim sweep's shard from each scheduler's array-task variables (Slurm,
# Kubernetes Indexed Jobs, AWS Batch, Google Cloud Batch, Cloud Run jobs):
# for each, the N tasks' parts are byte for byte the --shard I/N parts,
# together hold every row of the unsharded sweep once, merge into its exact
# bytes, and each task says on standard error which variables set its shard;
# --shard wins over them; every bad value (an index without its count, a
# count without its index, not a number, out of range, two schedulers that
# disagree) is one line naming the variable and value, exit 2, nothing
# written. Then the commands of docs/howto/kubernetes-indexed-job.md, taken
# from the page (the manifest's sweep and merge args, its completions and
# JOB_COMPLETIONS, the AWS Batch, Cloud Batch and Cloud Run command lines),
# run with each task's variables and merged, give the unsharded sweep.
# Quick and full sets are the same (the sweep takes well under a second).
. "$TOP/tests/cli/lib.sh"
C=$CLUSTERSIM
s="$TOP/scenarios/examples/sweep-nccl.json"
doc="$TOP/docs/howto/kubernetes-indexed-job.md"

# The test may itself run inside an array task or a pod: start clean.
pairs="SLURM_ARRAY_TASK_ID:SLURM_ARRAY_TASK_COUNT JOB_COMPLETION_INDEX:JOB_COMPLETIONS
       AWS_BATCH_JOB_ARRAY_INDEX:AWS_BATCH_JOB_ARRAY_SIZE BATCH_TASK_INDEX:BATCH_TASK_COUNT
       CLOUD_RUN_TASK_INDEX:CLOUD_RUN_TASK_COUNT"
for p in $pairs; do
	unset "${p%%:*}" "${p##*:}"
done

N=5  # 12 points: shards of 3, 3, 2, 2, 2 points
expect_status 0 "$C" sweep "$s" -o "$TMP/whole.csv" || exit 1
i=0
while [ "$i" -lt "$N" ]; do
	"$C" sweep "$s" --shard "$i/$N" -o "$TMP/ref-$i.csv" || fail "--shard $i/$N"
	i=$((i + 1))
done
sed 1d "$TMP/whole.csv" | sort >"$TMP/whole.rows"

# ---- each scheduler's variables --------------------------------------------
for p in $pairs; do
	iv=${p%%:*}
	cv=${p##*:}
	mkdir "$TMP/$iv"
	i=0
	while [ "$i" -lt "$N" ]; do
		env "$iv=$i" "$cv=$N" "$C" sweep "$s" -o "$TMP/$iv/part-$i.csv" >"$TMP/out" 2>"$TMP/err"
		st=$?
		[ "$st" -eq 0 ] && cmp -s "$TMP/$iv/part-$i.csv" "$TMP/ref-$i.csv" && ok ||
			fail "$iv=$i $cv=$N: exit $st, or its part differs from --shard $i/$N: $(cat "$TMP/err")"
		[ "$(cat "$TMP/err")" = "sweep: shard $i/$N from $iv and $cv (--shard none runs every point)" ] &&
			[ ! -s "$TMP/out" ] && ok || fail "$iv=$i: said '$(cat "$TMP/err")'"
		i=$((i + 1))
	done
	# concatenated, the parts hold each row of the whole sweep exactly once
	for f in "$TMP/$iv"/part-*.csv; do sed 1d "$f"; done | sort >"$TMP/$iv/rows"
	cmp -s "$TMP/$iv/rows" "$TMP/whole.rows" && ok || fail "$iv: the parts' rows are not the whole sweep's rows once each"
	"$C" merge "$TMP/$iv"/part-*.csv -o "$TMP/$iv/merged.csv" && cmp -s "$TMP/$iv/merged.csv" "$TMP/whole.csv" &&
		ok || fail "$iv: merged parts differ from the unsharded sweep"
	# --shard wins, and --shard none runs every point and says nothing
	env "$iv=1" "$cv=$N" "$C" sweep "$s" --shard "3/$N" -o "$TMP/$iv/over.csv" 2>"$TMP/err" &&
		cmp -s "$TMP/$iv/over.csv" "$TMP/ref-3.csv" && [ ! -s "$TMP/err" ] && ok || fail "$iv: --shard 3/$N does not win"
	env "$iv=1" "$cv=$N" "$C" sweep "$s" --shard none -o "$TMP/$iv/none.csv" 2>"$TMP/err" &&
		cmp -s "$TMP/$iv/none.csv" "$TMP/whole.csv" && [ ! -s "$TMP/err" ] && ok || fail "$iv: --shard none"
done

# Two schedulers that agree: the shard, both said.
CLOUD_RUN_TASK_INDEX=2 CLOUD_RUN_TASK_COUNT=5 JOB_COMPLETION_INDEX=2 JOB_COMPLETIONS=5 \
	"$C" sweep "$s" -o "$TMP/both.csv" 2>"$TMP/err" && cmp -s "$TMP/both.csv" "$TMP/ref-2.csv" &&
	[ "$(cat "$TMP/err")" = "sweep: shard 2/5 from JOB_COMPLETION_INDEX and JOB_COMPLETIONS; CLOUD_RUN_TASK_INDEX and CLOUD_RUN_TASK_COUNT (--shard none runs every point)" ] &&
	ok || fail "two agreeing schedulers: $(cat "$TMP/err")"
# A bad variable does not matter under --shard (it is not read).
JOB_COMPLETION_INDEX=x "$C" sweep "$s" --shard 1/5 -o "$TMP/ign.csv" 2>"$TMP/err" && cmp -s "$TMP/ign.csv" "$TMP/ref-1.csv" &&
	ok || fail "--shard with a bad JOB_COMPLETION_INDEX: $(cat "$TMP/err")"

# ---- bad variables: exit 2, one line naming the variable and value, nothing written
bad_env() {  # bad_env NAME 'TEXT' VAR=VALUE...
	name=$1; text=$2; shift 2
	printf 'kept\n' >"$TMP/kept-$name.csv"
	env "$@" "$C" sweep "$s" -o "$TMP/bad-$name.csv" >"$TMP/out" 2>"$TMP/err"
	st=$?
	if [ "$st" -ne 2 ]; then fail "$name: exit $st, wanted 2"; return; fi
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || { fail "$name: $(wc -l <"$TMP/err") lines on stderr"; return; }
	grep -qF -- "$text" "$TMP/err" || { fail "$name: '$(cat "$TMP/err")' lacks '$text'"; return; }
	[ ! -s "$TMP/out" ] && [ -z "$(ls -A "$TMP" | grep "bad-$name")" ] || { fail "$name: wrote something"; return; }
	# a file the user has is left as it was
	env "$@" "$C" sweep "$s" -o "$TMP/kept-$name.csv" >/dev/null 2>&1
	[ "$(cat "$TMP/kept-$name.csv")" = kept ] && [ -z "$(ls -A "$TMP" | grep "kept-$name.csv.")" ] ||
		{ fail "$name: changed an existing -o file"; return; }
	ok
}
for p in $pairs; do
	iv=${p%%:*}
	cv=${p##*:}
	bad_env "$iv-alone" "$iv=\"1\" is set without $cv" "$iv=1"
	bad_env "$cv-alone" "$cv=\"4\" is set without $iv" "$cv=4"
	bad_env "$iv-range" "$iv=\"4\" is not a shard from 0 to 3 ($cv=\"4\";" "$iv=4" "$cv=4"
	bad_env "$iv-negative" "$iv=\"-1\" is not a shard from 0 to 3" "$iv=-1" "$cv=4"
	bad_env "$iv-letters" "$cv=\"four\" is not a shard count from 1 to 1000000" "$iv=0" "$cv=four"
	bad_env "$iv-empty" "$iv=\"\" is not a shard from 0 to 3" "$iv=" "$cv=4"
	bad_env "$iv-zero" "$cv=\"0\" is not a shard count from 1 to 1000000" "$iv=0" "$cv=0"
	bad_env "$iv-huge" "$cv=\"18446744073709551617\" is not a shard count" "$iv=0" "$cv=18446744073709551617"
	bad_env "$iv-real" "$iv=\"1.5\" is not a shard from 0 to 3" "$iv=1.5" "$cv=4"
done
bad_env k8s-hint "Kubernetes sets no count: set JOB_COMPLETIONS to the Job's spec.completions" JOB_COMPLETION_INDEX=0
bad_env k8s-indexed "run it in an Indexed Job, completionMode: Indexed" JOB_COMPLETIONS=4
bad_env slurm-hint "submit the array as --array=0-3" SLURM_ARRAY_TASK_ID=7 SLURM_ARRAY_TASK_COUNT=4
bad_env disagree 'two schedulers name different shards: SLURM_ARRAY_TASK_ID="1" and SLURM_ARRAY_TASK_COUNT="3" (shard 1/3) but JOB_COMPLETION_INDEX="2" and JOB_COMPLETIONS="3" (shard 2/3)' \
	SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=3 JOB_COMPLETION_INDEX=2 JOB_COMPLETIONS=3
bad_env disagree-count 'AWS_BATCH_JOB_ARRAY_INDEX="1" and AWS_BATCH_JOB_ARRAY_SIZE="4" (shard 1/4) but BATCH_TASK_INDEX="1" and BATCH_TASK_COUNT="3" (shard 1/3)' \
	AWS_BATCH_JOB_ARRAY_INDEX=1 AWS_BATCH_JOB_ARRAY_SIZE=4 BATCH_TASK_INDEX=1 BATCH_TASK_COUNT=3
bad_env control 'BATCH_TASK_COUNT="3\x0a" is not a shard count' BATCH_TASK_INDEX=0 "BATCH_TASK_COUNT=3
"

# ---- the how-to page's commands --------------------------------------------
# block N of the page's ```yaml blocks
yaml_block() {
	awk -v want="$1" '/^```yaml$/ { n++; on = (n == want); next } /^```$/ { on = 0 } on' "$doc"
}
yaml_block 1 >"$TMP/job.yaml"
yaml_block 2 >"$TMP/merge.yaml"
grep -qx '  completionMode: Indexed' "$TMP/job.yaml" && ok || fail "the manifest is not an Indexed Job"
completions=$(sed -n 's/^  completions: \([0-9][0-9]*\)$/\1/p' "$TMP/job.yaml")
jc=$(awk '/- name: JOB_COMPLETIONS/ { getline; gsub(/[^0-9]/, ""); print }' "$TMP/job.yaml")
[ -n "$completions" ] && [ "$completions" = "$jc" ] && ok ||
	fail "the manifest's completions ($completions) and JOB_COMPLETIONS ($jc) differ"
sweep_cmd=$(sed -n 's/^        - \(exec clustersim sweep .*\)$/\1/p' "$TMP/job.yaml")
merge_cmd=$(sed -n 's/^        - \(exec clustersim merge .*\)$/\1/p' "$TMP/merge.yaml")
[ -n "$sweep_cmd" ] && [ -n "$merge_cmd" ] && ok || fail "no sweep or merge args in the page's manifests"
source=$(sed -n 's/^kubectl create configmap clustersim-sweep --from-file=sweep.json=\([^ ]*\)$/\1/p' "$doc")
[ -f "$TOP/$source" ] && ok || fail "the page's ConfigMap file '$source' is not in the checkout"

# The page's absolute paths (/sweep, /results) moved under $TMP; clustersim on the PATH.
mkdir -p "$TMP/bin" "$TMP/k8s/sweep" "$TMP/k8s/results"
ln -s "$C" "$TMP/bin/clustersim"
cp "$TOP/$source" "$TMP/k8s/sweep/sweep.json"
"$C" sweep "$TMP/k8s/sweep/sweep.json" -o "$TMP/k8s/whole.csv" || fail "the page's sweep, unsharded"
local_cmd() {  # the page's command with its folders under $TMP/k8s
	printf '%s\n' "$1" | sed "s| /sweep/| $TMP/k8s/sweep/|g; s| /results/| $TMP/k8s/results/|g"
}
i=0
while [ "$i" -lt "$completions" ]; do
	PATH="$TMP/bin:$PATH" JOB_COMPLETION_INDEX=$i JOB_COMPLETIONS=$jc sh -c "$(local_cmd "$sweep_cmd")" 2>"$TMP/err" &&
		[ "$(cat "$TMP/err")" = "sweep: shard $i/$completions from JOB_COMPLETION_INDEX and JOB_COMPLETIONS (--shard none runs every point)" ] &&
		[ -s "$TMP/k8s/results/part-$i.csv" ] && ok || fail "the page's sweep args, index $i: $(cat "$TMP/err")"
	i=$((i + 1))
done
# a pod replaced with the same index runs the same command: its part stays as it was
cp "$TMP/k8s/results/part-1.csv" "$TMP/k8s/part-1.before"
PATH="$TMP/bin:$PATH" JOB_COMPLETION_INDEX=1 JOB_COMPLETIONS=$jc sh -c "$(local_cmd "$sweep_cmd")" 2>/dev/null &&
	cmp -s "$TMP/k8s/results/part-1.csv" "$TMP/k8s/part-1.before" && ok || fail "the page's sweep args, index 1 run again"
PATH="$TMP/bin:$PATH" sh -c "$(local_cmd "$merge_cmd")" && cmp -s "$TMP/k8s/results/sweep.csv" "$TMP/k8s/whole.csv" &&
	ok || fail "the page's merge of its parts differs from the unsharded sweep"

# The AWS Batch, Cloud Batch and Cloud Run command lines: each with its own
# variables, 4 tasks, merged.
for p in AWS_BATCH_JOB_ARRAY_INDEX:AWS_BATCH_JOB_ARRAY_SIZE BATCH_TASK_INDEX:BATCH_TASK_COUNT \
	CLOUD_RUN_TASK_INDEX:CLOUD_RUN_TASK_COUNT; do
	iv=${p%%:*}
	cv=${p##*:}
	cmd=$(grep -o "exec clustersim sweep /results/sweep.json --resume -o /results/part-\\\$$iv\\.csv" "$doc" | head -1)
	[ -n "$cmd" ] || { fail "no $iv command line in the page"; continue; }
	rm -rf "$TMP/k8s/results"
	mkdir "$TMP/k8s/results"
	cp "$TOP/$source" "$TMP/k8s/results/sweep.json"
	i=0
	while [ "$i" -lt 4 ]; do
		PATH="$TMP/bin:$PATH" env "$iv=$i" "$cv=4" sh -c "$(local_cmd "$cmd")" 2>/dev/null || fail "$iv=$i: $cmd"
		i=$((i + 1))
	done
	PATH="$TMP/bin:$PATH" sh -c "$(local_cmd "$merge_cmd")" && cmp -s "$TMP/k8s/results/sweep.csv" "$TMP/k8s/whole.csv" &&
		ok || fail "the page's $iv command line: the merged parts differ from the unsharded sweep"
done

finish
