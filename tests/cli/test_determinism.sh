#!/bin/sh
# Determinism: the same scenario and seed give the same bytes on every run,
# and a sweep's bytes depend neither on --jobs nor on how it is sharded
# (1 shard, 3 shards merged, 4 shards merged), nor on being resumed.
#
# The quick set (make check) leaves to the full one (CHECK=full): each
# format's sweep with --jobs 3 (quick: --jobs 1 and 2; the third shard of
# three runs with --jobs 3) and the layout of 4 shards (quick: 3).
. "$TOP/tests/cli/lib.sh"
ex="$TOP/scenarios/examples"
C=$CLUSTERSIM

# Two runs of each example (analytic collectives, flows, training) with a
# fixed seed.
for sc in nccl-allreduce alltoall-oversubscribed llama3-70b-pretrain; do
	"$C" run "$ex/$sc.json" --format csv --seed 11 >"$TMP/$sc.1" && ok || fail "run $sc"
	"$C" run "$ex/$sc.json" --format csv --seed 11 >"$TMP/$sc.2" && ok || fail "run $sc again"
	[ -s "$TMP/$sc.1" ] && cmp -s "$TMP/$sc.1" "$TMP/$sc.2" && ok || fail "$sc: two runs differ"
	"$C" run "$ex/$sc.json" --format json --seed 11 >"$TMP/$sc.j1" && ok || fail "run $sc --format json"
	"$C" run "$ex/$sc.json" --format json --seed 11 >"$TMP/$sc.j2" && ok || fail "run $sc --format json again"
	[ -s "$TMP/$sc.j1" ] && cmp -s "$TMP/$sc.j1" "$TMP/$sc.j2" && ok || fail "$sc: two JSON runs differ"
done
[ "$(cut -d, -f4 "$TMP/llama3-70b-pretrain.1" | sed 1d | sort -u)" = 11 ] && ok || fail "--seed not in every row"

for sw in sweep-nccl sweep-llama3-70b; do
	s="$ex/$sw.json"
	"$C" sweep "$s" -o "$TMP/$sw.ref" && ok || fail "$sw"
	n=$(($(wc -l <"$TMP/$sw.ref") - 1))
	[ "$n" -ge 60 ] && ok || fail "$sw: only $n rows"
	"$C" sweep "$s" -o "$TMP/$sw.again"
	cmp -s "$TMP/$sw.ref" "$TMP/$sw.again" && ok || fail "$sw: two runs differ"

	# --jobs 1, 2, 3: same CSV, table and JSON bytes.
	jobs="2"
	full && jobs="2 3"
	for fmt in csv table json; do
		"$C" sweep "$s" --format "$fmt" --jobs 1 -o "$TMP/$sw.$fmt.1" && ok || fail "$sw --format $fmt"
		for j in $jobs; do
			"$C" sweep "$s" --format "$fmt" --jobs "$j" -o "$TMP/$sw.$fmt.$j" && ok || fail "$sw --jobs $j"
			cmp -s "$TMP/$sw.$fmt.1" "$TMP/$sw.$fmt.$j" && ok || fail "$sw --format $fmt: --jobs $j differs from --jobs 1"
		done
	done
	cmp -s "$TMP/$sw.csv.1" "$TMP/$sw.ref" && ok || fail "$sw: --format csv differs from the default for -o"

	# Shard layouts, with a different --jobs in each shard.
	layouts=3
	full && layouts="3 4"
	for layout in $layouts; do
		parts=""
		i=0
		while [ "$i" -lt "$layout" ]; do
			"$C" sweep "$s" --shard "$i/$layout" --jobs $((i % 3 + 1)) -o "$TMP/$sw.$layout.$i" && ok || fail "$sw shard $i/$layout"
			parts="$parts $TMP/$sw.$layout.$i"
			i=$((i + 1))
		done
		# shellcheck disable=SC2086
		"$C" merge $parts -o "$TMP/$sw.merged$layout" && ok || fail "$sw merge of $layout shards"
		cmp -s "$TMP/$sw.merged$layout" "$TMP/$sw.ref" && ok || fail "$sw: $layout shards merged differ from 1 shard"
		# The shards' row counts add up to the whole: no point lost or doubled.
		total=0
		for p in $parts; do total=$((total + $(wc -l <"$p") - 1)); done
		[ "$total" -eq "$n" ] && ok || fail "$sw: $layout shards hold $total rows, the sweep $n"
	done

	# Resumed from a file cut in the middle of a row.
	head -c $(($(wc -c <"$TMP/$sw.ref") * 2 / 3)) "$TMP/$sw.ref" >"$TMP/$sw.cut"
	"$C" sweep "$s" --resume --jobs 2 -o "$TMP/$sw.cut" 2>/dev/null && ok || fail "$sw --resume"
	cmp -s "$TMP/$sw.cut" "$TMP/$sw.ref" && ok || fail "$sw: resumed file differs"
done
finish
