#!/bin/sh
# sweep-slurm.sh: run a sweep as a Slurm array job of N shards, then merge the
# parts in a job that starts when every shard has succeeded.
#
#   tools/sweep-slurm.sh [-n SHARDS] [-j JOBS] [-d DIR] [-w] SWEEP.json OUT.csv [SBATCH-OPTION...]
#
#   -n SHARDS  array tasks (default 4); task I runs shard I/SHARDS, from
#              SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT
#   -j JOBS    worker processes per task (--jobs, and --cpus-per-task; default 1)
#   -d DIR     folder for the job scripts, part files and logs (default:
#              OUT.csv's name with .parts); it must be visible to every node
#   -w         wait until the merge job ends; exit with its status
#   SBATCH-OPTION...  passed to both sbatch calls (--partition=debug --time=1:00:00 ...)
#
# Each task runs `clustersim sweep --resume`, so a requeued or preempted task
# continues its part instead of starting over: the finished points of a task
# that was killed (its time limit, the OOM killer, a lost node) are in
# DIR/part-I.csv or DIR/part-I.csv.partial, and its log DIR/shard-JOB_I.log
# says first how to resume it by hand, and again after a failure. Prints
# the two job ids. OUT.csv
# gets the same bytes as `clustersim sweep SWEEP.json -o OUT.csv`. The
# clustersim used is $CLUSTERSIM, else the one on PATH, else build/clustersim.
set -eu

usage() {
	sed -n 's|^#   \(tools/.*\)|usage: \1|p' "$0" >&2
	exit 2
}

abspath() {
	case "$1" in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s/%s\n' "$(pwd)" "$1" ;;
	esac
}

# quote WORD: WORD as one single-quoted shell word.
quote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

top=$(cd "$(dirname "$0")/.." && pwd)
shards=4
jobs=1
dir=""
wait=0
while getopts n:j:d:wh opt; do
	case "$opt" in
	n) shards=$OPTARG ;;
	j) jobs=$OPTARG ;;
	d) dir=$OPTARG ;;
	w) wait=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || usage
sweep=$(abspath "$1")
out=$(abspath "$2")
shift 2
case "$shards" in '' | *[!0-9]* | 0) echo "sweep-slurm.sh: -n needs a positive number" >&2; exit 2 ;; esac
case "$jobs" in '' | *[!0-9]* | 0) echo "sweep-slurm.sh: -j needs a positive number" >&2; exit 2 ;; esac
command -v sbatch >/dev/null 2>&1 || { echo "sweep-slurm.sh: sbatch is not installed" >&2; exit 1; }

if [ -n "${CLUSTERSIM:-}" ]; then
	cs=$(abspath "$CLUSTERSIM")
elif command -v clustersim >/dev/null 2>&1; then
	cs=$(command -v clustersim)
else
	cs=$top/build/clustersim
fi
[ -x "$cs" ] || { echo "sweep-slurm.sh: no clustersim at '$cs' (set CLUSTERSIM)" >&2; exit 1; }
[ -n "$dir" ] || dir="${out%.csv}.parts"
dir=$(abspath "$dir")
mkdir -p "$dir"

# The shard job: the shard comes from the array task's environment. Its log
# says first how to resume it outside Slurm (a kill -9 leaves no time to say
# it later), and again when it fails.
resume="$(quote "$cs") sweep $(quote "$sweep") --shard @I@/$shards --jobs $jobs --resume -o $(quote "$dir/part-")@I@.csv"
cat >"$dir/shard.sh" <<EOF
#!/bin/sh
i=\$SLURM_ARRAY_TASK_ID
resume=\$(printf '%s' $(quote "$resume") | sed "s/@I@/\$i/g")
echo "sweep-slurm.sh: shard \$i/$shards (job \${SLURM_ARRAY_JOB_ID:-?}_\$i); if it stops before it ends, its finished points are kept: requeue it (scontrol requeue \${SLURM_ARRAY_JOB_ID:-JOB}_\$i) or resume it with: \$resume" >&2
$(quote "$cs") sweep $(quote "$sweep") --jobs $jobs --resume -o $(quote "$dir")/part-\$i.csv
st=\$?
[ \$st -eq 0 ] || echo "sweep-slurm.sh: shard \$i/$shards failed (exit \$st); resume it with: \$resume" >&2
exit \$st
EOF
parts=""
i=0
while [ "$i" -lt "$shards" ]; do
	parts="$parts $(quote "$dir/part-$i.csv")"
	i=$((i + 1))
done
cat >"$dir/merge.sh" <<EOF
#!/bin/sh
exec $(quote "$cs") merge$parts -o $(quote "$out")
EOF

array=$(sbatch --parsable --job-name=clustersim-sweep --array=0-$((shards - 1)) \
	--cpus-per-task="$jobs" -o "$dir/shard-%A_%a.log" "$@" "$dir/shard.sh")
array=${array%%;*}
if [ "$wait" -eq 1 ]; then
	echo "shards: job $array"
	sbatch --parsable --wait --job-name=clustersim-merge --dependency=afterok:"$array" \
		--kill-on-invalid-dep=yes -o "$dir/merge-%j.log" "$@" "$dir/merge.sh" >"$dir/merge.jobid"
	echo "merge: job $(cat "$dir/merge.jobid") done: $out"
else
	merge=$(sbatch --parsable --job-name=clustersim-merge --dependency=afterok:"$array" \
		--kill-on-invalid-dep=yes -o "$dir/merge-%j.log" "$@" "$dir/merge.sh")
	echo "shards: job $array; merge: job ${merge%%;*} -> $out"
fi
