#!/bin/sh
# sweep-parallel.sh: run a sweep as N shards with GNU parallel, then merge.
#
#   tools/sweep-parallel.sh [-n SHARDS] [-j JOBS] [-d DIR] SWEEP.json OUT.csv
#
#   -n SHARDS  shards to run at once (default: the number of CPUs)
#   -j JOBS    worker processes inside each shard (default 1)
#   -d DIR     keep the part files in DIR (default: a temporary folder that is
#              removed on success); rerunning with the same DIR resumes each
#              shard where it stopped (clustersim sweep --resume)
#
# Writes OUT.csv with the same bytes as `clustersim sweep SWEEP.json -o
# OUT.csv`. Options for GNU parallel itself go in the PARALLEL environment
# variable (for example PARALLEL='-S host1,host2' to spread shards over
# machines that see the same files). The clustersim used is $CLUSTERSIM, else
# the one on PATH, else build/clustersim. Exit status: 0 ok, 1 a shard or the
# merge failed, 2 bad usage.
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

# Each shard resumes from its own part, so an interrupted run loses nothing.
last=$((shards - 1))
if ! seq 0 "$last" | parallel --will-cite --halt now,fail=1 -j "$shards" \
	"$cs" sweep "$sweep" --shard "{}/$shards" --jobs "$jobs" --resume -o "$dir/part-{}.csv"; then
	echo "sweep-parallel.sh: a shard failed; the parts are in $dir" >&2
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
