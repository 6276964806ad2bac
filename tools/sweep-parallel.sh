#!/bin/sh
# sweep-parallel.sh: run a sweep as N shards with GNU parallel, then merge.
#
#   tools/sweep-parallel.sh [-n SHARDS] [-j JOBS] [-d DIR] SWEEP.json OUT.csv
#
#   -n SHARDS  shards to run at once (default: the number of CPUs)
#   -j JOBS    worker processes inside each shard (default 1)
#   -d DIR     keep the part files and logs in DIR (default: a temporary
#              folder that is removed on success); rerunning with the same DIR
#              resumes each shard where it stopped (clustersim sweep --resume)
#
# Writes OUT.csv with the same bytes as `clustersim sweep SWEEP.json -o
# OUT.csv`. Shard I writes DIR/part-I.csv and its standard error to
# DIR/part-I.log, whose first line is the command that resumes it alone, so
# a shard that dies (killed by the OOM killer or with its machine) says in
# its log how to continue it: its finished points are in DIR/part-I.csv or
# DIR/part-I.csv.partial, which --resume reads. Options for GNU parallel
# itself go in the PARALLEL environment variable (for example
# PARALLEL='-S host1,host2' to spread shards over machines that see the same
# files). The clustersim used is $CLUSTERSIM, else the one on PATH, else
# build/clustersim. Exit status: 0 ok, 1 a shard or the merge failed, 2 bad
# usage.
set -eu

usage() {
	sed -n 's|^#   \(tools/.*\)|usage: \1|p' "$0" >&2
	exit 2
}

top=$(cd "$(dirname "$0")/.." && pwd)
shards=$(nproc 2>/dev/null || echo 2)
jobs=1
dir=""
while getopts n:j:d:h opt; do
	case "$opt" in
	n) shards=$OPTARG ;;
	j) jobs=$OPTARG ;;
	d) dir=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
sweep=$1
out=$2
case "$shards" in '' | *[!0-9]* | 0) echo "sweep-parallel.sh: -n needs a positive number" >&2; exit 2 ;; esac
case "$jobs" in '' | *[!0-9]* | 0) echo "sweep-parallel.sh: -j needs a positive number" >&2; exit 2 ;; esac
command -v parallel >/dev/null 2>&1 || { echo "sweep-parallel.sh: GNU parallel is not installed" >&2; exit 1; }

if [ -n "${CLUSTERSIM:-}" ]; then
	cs=$CLUSTERSIM
elif command -v clustersim >/dev/null 2>&1; then
	cs=$(command -v clustersim)
else
	cs=$top/build/clustersim
fi
[ -x "$cs" ] || { echo "sweep-parallel.sh: no clustersim at '$cs' (set CLUSTERSIM)" >&2; exit 1; }

keep=1
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	keep=0
fi
mkdir -p "$dir"

# quote WORD: WORD as one single-quoted shell word.
quote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# The shard job: shard.sh I resumes shard I from its own part, so an
# interrupted or killed run loses nothing; its log says first how to resume
# it alone (@I@ in the command stands for the shard).
resume="$(quote "$cs") sweep $(quote "$sweep") --shard @I@/$shards --jobs $jobs --resume -o $(quote "$dir/part-")@I@.csv"
cat >"$dir/shard.sh" <<EOF
#!/bin/sh
i=\$1
log=$(quote "$dir")/part-\$i.log
resume=\$(printf '%s' $(quote "$resume") | sed "s/@I@/\$i/g")
echo "sweep-parallel.sh: shard \$i/$shards; to resume it alone: \$resume" >>"\$log"
eval "\$resume" 2>>"\$log"
st=\$?
[ \$st -eq 0 ] || echo "sweep-parallel.sh: shard \$i/$shards failed (exit \$st); its finished points are kept: resume it with: \$resume" >>"\$log"
exit \$st
EOF
last=$((shards - 1))
if ! seq 0 "$last" | parallel --will-cite --halt now,fail=1 -j "$shards" sh "$dir/shard.sh" "{}"; then
	echo "sweep-parallel.sh: a shard failed; the parts and logs are in $dir: rerun with -d $(quote "$dir") to resume every shard" >&2
	grep -h "failed (exit" "$dir"/part-*.log >&2 2>/dev/null
	exit 1
fi
set --
i=0
while [ "$i" -lt "$shards" ]; do
	set -- "$@" "$dir/part-$i.csv"
	i=$((i + 1))
done
"$cs" merge "$@" -o "$out"
[ "$keep" -eq 1 ] || rm -rf "$dir"
