#!/bin/sh
# clustersim sweep and merge: point numbering and values, invalid points that
# do not stop a sweep, bad sweep files (exit 2, one message), shards and
# merge, --resume after a cut-short file (same bytes, kept rows not
# recomputed), an interrupted sweep that keeps its finished points, failed
# writes (exit 1, no file left).
#
# The quick set (make check) leaves to the full one (CHECK=full) the second
# --jobs of the interrupted and killed sweeps: quick interrupts --jobs 1
# (in-process) and kills --jobs 2 (a worker pool); full does both with each;
# and the 60-point sweep to a full disk (quick: the 12-point one, with
# --jobs 1 and 2).
. "$TOP/tests/cli/lib.sh"
ex="$TOP/scenarios/examples"
C=$CLUSTERSIM

status_is 0 "$C" sweep --help && grep -q "^usage: clustersim sweep SWEEP.json" "$TMP/out" && ok || fail "sweep --help"
status_is 0 "$C" merge --help && grep -q "^usage: clustersim merge PART.csv" "$TMP/out" && ok || fail "merge --help"
status_is 0 "$C" --help && grep -q "^  sweep " "$TMP/out" && grep -q "^  merge " "$TMP/out" && ok || fail "commands listed"

# ---- the examples ---------------------------------------------------------
# sweep-nccl: 3 presets x 4 node counts = 12 points, 7 sizes each; the last
# axis (nodes) varies fastest, so point 5 is dgx-a100 on 2 nodes.
status_is 0 "$C" sweep "$ex/sweep-nccl.json" -o "$TMP/nccl.csv" && ok || fail "sweep-nccl"
[ ! -s "$TMP/out" ] && [ ! -s "$TMP/err" ] && ok || fail "sweep -o wrote to stdout or printed progress off a terminal"
[ "$(wc -l <"$TMP/nccl.csv")" -eq 85 ] && ok || fail "sweep-nccl: $(wc -l <"$TMP/nccl.csv") lines, wanted 1 + 12 x 7"
head -1 "$TMP/nccl.csv" | grep -q ',nodes,set:candidates\[0\]\.preset,set:candidates\[0\]\.nodes,sweep_fingerprint$' && ok || fail "set: columns"
[ "$(cut -d, -f3 "$TMP/nccl.csv" | sed 1d | uniq -c | awk '$1 == 7' | wc -l)" -eq 12 ] && ok || fail "7 rows for each of 12 row_ids"
[ "$(cut -d, -f3 "$TMP/nccl.csv" | sed 1d | uniq | tr '\n' ' ')" = "0 1 2 3 4 5 6 7 8 9 10 11 " ] && ok || fail "row_ids not 0..11 in order"
awk -F, '$3 == 5' "$TMP/nccl.csv" | cut -d, -f9,16,17,18,19 | sort -u >"$TMP/p5"
[ "$(cat "$TMP/p5")" = "16,A100-80GB-SXM,2,dgx-a100,2" ] && ok || fail "point 5: $(cat "$TMP/p5")"
awk -F, '$3 == 11' "$TMP/nccl.csv" | cut -d, -f9,16,17,18,19 | sort -u >"$TMP/p11"
[ "$(cat "$TMP/p11")" = "64,H100-SXM,8,aws-p5.48xlarge,8" ] && ok || fail "point 11: $(cat "$TMP/p11")"
[ "$(grep -c ',ok,' "$TMP/nccl.csv")" -eq 84 ] && ok || fail "sweep-nccl: not every row ok"

# A point is exactly `run` with its --set values (but for row_id and set:);
# a relative base is found beside the sweep file.
mkdir "$TMP/dir"
cat >"$TMP/dir/cbase.json" <<'EOF'
{ "name": "cbase", "seed": 3,
  "workload": { "kind": "collective", "collective": { "op": "reduce_scatter", "bytes": { "min": 1024, "max": 1073741824, "factor": 32 } } },
  "candidates": [ { "name": "a", "preset": "dgx-h100", "nodes": 1 }, { "name": "b", "preset": "dgx-a100", "nodes": 2 } ] }
EOF
printf '{ "base": "cbase.json", "axes": { "candidates[1].preset": ["dgx-h100", "aws-p5.48xlarge"] },
  "zip": [ { "candidates[0].nodes": [2, 4], "workload.collective.op": ["all_gather", "all_to_all"] } ] }\n' >"$TMP/dir/cs.json"
"$C" sweep "$TMP/dir/cs.json" -o "$TMP/cs.csv" && ok || fail "sweep with a relative base"
[ "$(sed 1d "$TMP/cs.csv" | wc -l)" -eq 40 ] && ok || fail "relative base: $(sed 1d "$TMP/cs.csv" | wc -l) rows, wanted 4 points x 2 candidates x 5 sizes"
"$C" run "$TMP/dir/cbase.json" --format csv --set 'candidates[1].preset=aws-p5.48xlarge' \
	--set 'candidates[0].nodes=4' --set 'workload.collective.op="all_to_all"' | sed 1d | cut -d, -f1,2,4-17 >"$TMP/run3"
awk -F, '$3 == 3' "$TMP/cs.csv" | cut -d, -f1,2,4-17 >"$TMP/sweep3"
[ "$(wc -l <"$TMP/run3")" -eq 10 ] && cmp -s "$TMP/run3" "$TMP/sweep3" && ok || fail "sweep point 3 differs from run --set"
[ "$(awk -F, '$3 == 3' "$TMP/cs.csv" | cut -d, -f18-20 | sort -u)" = "aws-p5.48xlarge,4,all_to_all" ] && ok || fail "point 3's set: values"

# sweep-llama3-70b: 12 points x 5 candidates; candidate 0 takes the values.
status_is 0 "$C" sweep "$ex/sweep-llama3-70b.json" --format csv && ok || fail "sweep-llama3-70b"
[ "$(sed 1d "$TMP/out" | wc -l)" -eq 60 ] && ok || fail "sweep-llama3-70b: $(sed 1d "$TMP/out" | wc -l) rows, wanted 60"
"$C" sweep "$ex/sweep-llama3-70b.json" --dry-run --format csv | awk -F, '$2 == "16 x p5 on-demand" { print $3 ":" $8 }' | tr '\n' ' ' >"$TMP/nodes"
[ "$(cat "$TMP/nodes")" = "0:4 1:8 2:16 3:32 4:4 5:8 6:16 7:32 8:4 9:8 10:16 11:32 " ] && ok || fail "llama nodes by point: $(cat "$TMP/nodes")"

# ---- invalid points keep the sweep going ----------------------------------
cat >"$TMP/inv.json" <<'EOF'
{ "base": { "name": "inv", "seed": 5,
            "workload": { "kind": "collective", "collective": { "op": "all_gather", "bytes": [1024, 1048576] } },
            "candidates": [ { "name": "c", "preset": "dgx-h100", "nodes": 1 } ] },
  "axes": { "candidates[0].nodes": [1, 0, 2, "x"] } }
EOF
status_is 0 "$C" sweep "$TMP/inv.json" --format csv && ok || fail "sweep with invalid points"
[ "$(sed 1d "$TMP/out" | wc -l)" -eq 6 ] && ok || fail "invalid sweep: $(sed 1d "$TMP/out" | wc -l) rows, wanted 2 + 1 + 2 + 1"
[ "$(grep -c ',invalid,' "$TMP/out")" -eq 2 ] && [ "$(grep -c ',ok,' "$TMP/out")" -eq 4 ] && ok || fail "invalid sweep: statuses"
grep -q "^inv,,1,5,invalid,\"scenario '.*inv.json': candidates\[0\]\.nodes: expected an integer from 1 to 1000000, got 0\",,,,,,,,,,,,0,[0-9a-f]\{16\}$" "$TMP/out" && ok || fail "invalid row 1: $(sed -n 4p "$TMP/out")"
grep -q '^inv,,3,5,invalid,".*candidates\[0\]\.nodes: expected an integer from 1 to 1000000, got ""x""",,,,,,,,,,,,x,[0-9a-f]\{16\}$' "$TMP/out" && ok || fail "invalid row 3"
[ "$(awk -F, '$3 == 2' "$TMP/out" | cut -d, -f5,9,17 | sort -u)" = "ok,16,2" ] && ok || fail "point after an invalid one"

# No point valid: the six leading columns and the set: ones; a value that
# cannot be applied keeps the base's name and seed.
printf '{ "base": { "name": "inl", "seed": 9, "workload": { "kind": "collective", "collective": { "op": "all_reduce", "bytes": [8] } },
  "candidates": [ { "name": "a", "preset": "dgx-h100", "nodes": 1 } ] }, "axes": { "candidates[3].nodes": [1, 2] } }\n' >"$TMP/none.json"
status_is 0 "$C" sweep "$TMP/none.json" --format csv && ok || fail "sweep without a valid point"
nfp=$(sed -n 2p "$TMP/out" | awk -F, '{ print $NF }')
[ "$(cat "$TMP/out")" = "scenario,candidate,row_id,seed,status,reason,set:candidates[3].nodes,sweep_fingerprint
inl,,0,9,invalid,sweep '$TMP/none.json': --set candidates[3].nodes: index 3 is past the end (the array has 1),1,$nfp
inl,,1,9,invalid,sweep '$TMP/none.json': --set candidates[3].nodes: index 3 is past the end (the array has 1),2,$nfp" ] &&
	ok || fail "sweep without a valid point: $(cat "$TMP/out")"

# ---- bad sweep files and options: exit 2, one line naming file and path --
bad() {  # bad NAME 'TEXT' JSON [ARGS...]
	name=$1; text=$2; json=$3; shift 3
	printf '%s\n' "$json" >"$TMP/$name.json"
	"$C" sweep "$TMP/$name.json" "$@" -o "$TMP/$name.csv" >"$TMP/out" 2>"$TMP/err"
	st=$?
	if [ "$st" -ne 2 ]; then fail "$name: exit $st, wanted 2"; return; fi
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || { fail "$name: $(wc -l <"$TMP/err") lines on stderr"; return; }
	grep -qF -- "$text" "$TMP/err" || { fail "$name: '$(cat "$TMP/err")' lacks '$text'"; return; }
	[ ! -e "$TMP/$name.csv" ] && [ -z "$(ls -A "$TMP" | grep "^$name.csv.tmp\|^\.$name\.csv\.\|^$name\.csv\.partial")" ] ||
		{ fail "$name: wrote a file"; return; }
	ok
}
nb='"base": { "workload": { "kind": "collective", "collective": { "op": "all_reduce", "bytes": [8] } }, "candidates": [ { "preset": "dgx-h100", "nodes": 1, "name": "a" } ] }'
bad unknown-key "sweep '$TMP/unknown-key.json': (top level): unknown key \"axis\", did you mean \"axes\"?" "{ $nb, \"axis\": {} }"
bad no-base "sweep '$TMP/no-base.json': base: missing required key" '{ "axes": { "a": [1] } }'
bad base-number "base: expected a scenario file path or an inline scenario object, got 3" '{ "base": 3 }'
bad base-missing "sweep '$TMP/base-missing.json': base: scenario '$TMP/nope.json': cannot open: No such file or directory" '{ "base": "nope.json" }'
bad empty-axis "axes.\"candidates[0].nodes\": expected a non-empty array of values, got an array" "{ $nb, \"axes\": { \"candidates[0].nodes\": [] } }"
bad axis-scalar "axes.\"seed\": expected a non-empty array of values, got 4" "{ $nb, \"axes\": { \"seed\": 4 } }"
bad bad-path "axes.\"candidates[x].nodes\": not a --set path: bad index at offset 10" "{ $nb, \"axes\": { \"candidates[x].nodes\": [1] } }"
bad empty-key "axes.\"a..b\": not a --set path: an empty key at offset 2" "{ $nb, \"axes\": { \"a..b\": [1] } }"
bad path-twice "zip[0].\"seed\": the path is already varied by another axis" "{ $nb, \"axes\": { \"seed\": [1] }, \"zip\": [ { \"seed\": [2] } ] }"
bad zip-lengths "zip[0].\"name\": has 3 values but \"seed\" has 2: zipped lists advance together" "{ $nb, \"zip\": [ { \"seed\": [1, 2], \"name\": [\"a\", \"b\", \"c\"] } ] }"
bad zip-empty "zip[0]: expected a non-empty object of PATH: [values], got an object" "{ $nb, \"zip\": [ {} ] }"
ten='[0,1,2,3,4,5,6,7,8,9]'
bad too-many "axes: more than 10000000 points, the most a sweep may have: split it" "{ $nb, \"axes\": { \"a\": $ten, \"b\": $ten, \"c\": $ten, \"d\": $ten, \"e\": $ten, \"f\": $ten, \"g\": $ten, \"h\": [1, 2] } }"
bad syntax "sweep '$TMP/syntax.json': line " '{ "base": '
bad shard-range "--shard expects I/N with 0 <= I < N <= 1000000, or none, got '3/3'" "{ $nb }" --shard 3/3
bad shard-text "--shard expects I/N" "{ $nb }" --shard 1
bad jobs-zero "--jobs expects a number from 1 to 1024, got '0'" "{ $nb }" --jobs 0
bad resume-json "--resume works on CSV results, not --format json" "{ $nb }" --resume --format json
SLURM_ARRAY_TASK_ID=4 SLURM_ARRAY_TASK_COUNT=4 bad slurm-id 'SLURM_ARRAY_TASK_ID="4" is not a shard from 0 to 3' "{ $nb }"
status_is 2 "$C" sweep "$ex/sweep-nccl.json" --resume && grep -q -- "--resume needs -o FILE" "$TMP/err" && ok || fail "--resume without -o"
status_is 2 "$C" sweep && grep -q "missing SWEEP.json" "$TMP/err" && ok || fail "sweep without a file"
status_is 2 "$C" merge && grep -q "missing PART.csv" "$TMP/err" && ok || fail "merge without parts"

# A sweep without axes is its base: one point.
printf '{ %s }\n' "$nb" >"$TMP/one.json"
status_is 0 "$C" sweep "$TMP/one.json" --format csv && [ "$(sed 1d "$TMP/out" | cut -d, -f1-5)" = "one,a,0,0,ok" ] && ok || fail "sweep without axes"
# From standard input, with --seed and --set applied to every point.
status_is 0 "$C" sweep - --format csv --seed 77 --set 'name="piped"' <"$TMP/one.json" &&
	[ "$(sed 1d "$TMP/out" | cut -d, -f1-5)" = "piped,a,0,77,ok" ] && ok || fail "sweep from stdin with --seed/--set"

# ---- shards, SLURM variables and merge -------------------------------------
s="$ex/sweep-nccl.json"
for i in 0 1 2; do "$C" sweep "$s" --shard "$i/3" -o "$TMP/part$i.csv" && ok || fail "shard $i/3"; done
[ "$(sed 1d "$TMP/part1.csv" | cut -d, -f3 | uniq | tr '\n' ' ')" = "1 4 7 10 " ] && ok || fail "shard 1/3 holds points 1 4 7 10"
SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=3 "$C" sweep "$s" -o "$TMP/slurm1.csv" 2>"$TMP/err" &&
	cmp -s "$TMP/slurm1.csv" "$TMP/part1.csv" && ok || fail "SLURM_ARRAY_TASK_ID/COUNT as --shard"
grep -qx 'sweep: shard 1/3 from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (--shard none runs every point)' "$TMP/err" && ok ||
	fail "the shard taken from Slurm is not said: $(cat "$TMP/err")"
# --shard none: every point, even inside an array task, and nothing said.
SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=3 "$C" sweep "$s" --shard none -o "$TMP/slurm-none.csv" 2>"$TMP/err" &&
	cmp -s "$TMP/slurm-none.csv" "$TMP/nccl.csv" && [ ! -s "$TMP/err" ] && ok || fail "--shard none: $(cat "$TMP/err")"
SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_COUNT=3 "$C" sweep "$s" --shard 1/3 -o "$TMP/slurm2.csv" &&
	cmp -s "$TMP/slurm2.csv" "$TMP/part1.csv" && ok || fail "--shard wins over SLURM variables"
status_is 0 "$C" merge "$TMP/part2.csv" "$TMP/part0.csv" "$TMP/part1.csv" -o "$TMP/merged.csv" && ok || fail "merge"
cmp -s "$TMP/merged.csv" "$TMP/nccl.csv" && ok || fail "merged shards differ from the whole sweep"
"$C" merge "$TMP/part0.csv" "$TMP/part1.csv" "$TMP/part1.csv" "$TMP/part2.csv" "$TMP/nccl.csv" | cmp -s - "$TMP/nccl.csv" &&
	ok || fail "merge does not drop rows repeated across parts"
"$C" merge - <"$TMP/part0.csv" | cmp -s - "$TMP/part0.csv" && ok || fail "merge from standard input"
# More shards than points: the empty shards hold the header only.
"$C" sweep "$s" --shard 13/20 -o "$TMP/empty.csv" && [ "$(wc -l <"$TMP/empty.csv")" -eq 1 ] && ok || fail "empty shard"

# Rows repeated within one part are kept: a collective listing a size twice.
printf 'scenario,row_id,x\na,1,q\na,0,p\na,0,p\n' >"$TMP/dup.csv"
"$C" merge "$TMP/dup.csv" "$TMP/dup.csv" >"$TMP/out"
[ "$(cat "$TMP/out" | tr '\n' ' ')" = "scenario,row_id,x a,0,p a,0,p a,1,q " ] && ok || fail "merge of repeated rows: $(cat "$TMP/out" | tr '\n' ' ')"
# Quoting survives a merge byte for byte.
printf 'row_id,reason\n1,"a, ""b"""\n0," edge"\n2,\ttab\n' >"$TMP/q.csv"
printf 'row_id,reason\n0," edge"\n1,"a, ""b"""\n2,\ttab\n' >"$TMP/q-sorted.csv"
"$C" merge "$TMP/q.csv" | cmp -s - "$TMP/q-sorted.csv" && ok || fail "merge changed quoted fields"

# merge errors: exit 2, naming the file.
printf 'scenario,row_id,y\n' >"$TMP/other.csv"
status_is 2 "$C" merge "$TMP/part0.csv" "$TMP/other.csv" &&
	grep -q "merge: '$TMP/other.csv': the header has 3 columns, that of '$TMP/part0.csv' has 20" "$TMP/err" && ok || fail "merge of mismatched headers"
printf 'scenario,row_id,z\n' >"$TMP/other2.csv"
status_is 2 "$C" merge "$TMP/other.csv" "$TMP/other2.csv" &&
	grep -q "merge: '$TMP/other2.csv': the header differs from that of '$TMP/other.csv': column 3 is \"z\", not \"y\"" "$TMP/err" && ok || fail "merge of renamed column"
printf 'a,b\n1,2\n' >"$TMP/noid.csv"
status_is 2 "$C" merge "$TMP/noid.csv" && grep -q "no row_id column" "$TMP/err" && ok || fail "merge without row_id"
printf 'row_id,b\n1,2\n-1,3\n' >"$TMP/negid.csv"
status_is 2 "$C" merge "$TMP/negid.csv" && grep -q "'$TMP/negid.csv': line 3: row_id \"-1\" is not a non-negative integer" "$TMP/err" && ok || fail "merge with a bad row_id"
printf 'row_id,b\n1,2\n2\n' >"$TMP/short.csv"
status_is 2 "$C" merge "$TMP/short.csv" && grep -q "part '$TMP/short.csv': line 3: 1 fields, but the header has 2" "$TMP/err" && ok || fail "merge with a short row"
printf 'row_id,b\n1,2\n2,3' >"$TMP/cut.csv"
status_is 2 "$C" merge "$TMP/cut.csv" && grep -q "line 3: the last row has no newline at the end" "$TMP/err" && ok || fail "merge of a cut-short part"
printf 'row_id,b\n1,"2\n' >"$TMP/quote.csv"
status_is 2 "$C" merge "$TMP/quote.csv" && grep -q "a quoted field is not closed" "$TMP/err" && ok || fail "merge with an open quote"
: >"$TMP/empty-part.csv"
status_is 2 "$C" merge "$TMP/empty-part.csv" && grep -q "no header line (an empty file)" "$TMP/err" && ok || fail "merge of an empty file"
status_is 2 "$C" merge "$TMP/nope.csv" && grep -q "part '$TMP/nope.csv': cannot open: No such file" "$TMP/err" && ok || fail "merge of a missing file"
status_is 2 "$C" merge "$TMP/part0.csv" -o && grep -q "needs a value" "$TMP/err" && ok || fail "merge -o without a file"

# ---- --resume ----------------------------------------------------------------
# Cut the full results at byte counts that fall inside a row, at a row
# boundary inside a point, at a point boundary and in the header: resuming
# must give the whole file's bytes.
size=$(wc -c <"$TMP/nccl.csv")
rowend=$(head -n 10 "$TMP/nccl.csv" | wc -c)   # 9 rows: point 1 is cut after 2 of its 7
pointend=$(head -n 22 "$TMP/nccl.csv" | wc -c) # 21 rows: points 0-2 whole
for cut in 100 $rowend $pointend $((size / 2)) $((size - 1)) "$size"; do
	head -c "$cut" "$TMP/nccl.csv" >"$TMP/resume.csv"
	"$C" sweep "$s" --resume -o "$TMP/resume.csv" 2>"$TMP/err" && ok || fail "resume after $cut bytes"
	cmp -s "$TMP/resume.csv" "$TMP/nccl.csv" && ok || fail "resume after $cut bytes differs"
done
head -n "$((1 + 7 * 5))" "$TMP/nccl.csv" >"$TMP/resume.csv"
"$C" sweep "$s" --resume --jobs 2 -o "$TMP/resume.csv" 2>"$TMP/err"
cmp -s "$TMP/resume.csv" "$TMP/nccl.csv" && ok || fail "resume --jobs 2 differs"
# Points 0-4 are whole (each has its 7 rows, whole): they are kept.
grep -q "kept 5 of 12 points, computing 7" "$TMP/err" && ok || fail "resume note: $(cat "$TMP/err")"
rm -f "$TMP/resume.csv"
"$C" sweep "$s" --resume -o "$TMP/resume.csv" 2>"$TMP/err" && cmp -s "$TMP/resume.csv" "$TMP/nccl.csv" && ok || fail "resume without a file"
[ ! -s "$TMP/err" ] && ok || fail "resume without a file printed: $(cat "$TMP/err")"
# Kept rows are not computed again: a mark in a kept row survives.
head -n 15 "$TMP/nccl.csv" | sed '2s/,ok,,/,ok,kept-mark,/' >"$TMP/resume.csv"
"$C" sweep "$s" --resume -o "$TMP/resume.csv" 2>/dev/null
[ "$(grep -c kept-mark "$TMP/resume.csv")" -eq 1 ] && [ "$(wc -l <"$TMP/resume.csv")" -eq 85 ] && ok || fail "kept rows were recomputed"
# Rows of other shards are dropped; a shard resumes to its own bytes.
head -n 30 "$TMP/nccl.csv" >"$TMP/resume.csv"
"$C" sweep "$s" --shard 1/3 --resume -o "$TMP/resume.csv" 2>/dev/null
cmp -s "$TMP/resume.csv" "$TMP/part1.csv" && ok || fail "shard resume from the whole sweep's rows"
# A file with other columns is not overwritten.
cp "$TMP/dup.csv" "$TMP/resume.csv"
status_is 2 "$C" sweep "$s" --resume -o "$TMP/resume.csv" && grep -q "holds other results" "$TMP/err" &&
	cmp -s "$TMP/resume.csv" "$TMP/dup.csv" && ok || fail "resume onto other results"

# ---- interrupted: the points finished are kept, --resume finishes ---------
write_slow_sweep "$TMP/big.json"
"$C" sweep "$TMP/big.json" -o "$TMP/full-big.csv" && ok || fail "big sweep"
jobs_interrupted=1 jobs_killed=2
full && jobs_interrupted="1 2" jobs_killed="1 2"
for jobs in $jobs_interrupted; do
	rm -f "$TMP/int.csv"
	"$C" sweep "$TMP/big.json" --jobs "$jobs" -o "$TMP/int.csv" 2>"$TMP/err" &
	pid=$!
	# Stop it once its first rows reach the temporary file (stdio flushes
	# every 4 KiB, about 20 rows): well before the end whatever the speed
	# of the machine, where a fixed delay let a fast run finish first.
	wait_for_temp_rows "int.csv"
	kill -TERM "$pid"
	wait "$pid"
	st=$?
	[ "$st" -eq 1 ] && grep -q "interrupted: '$TMP/int.csv' holds the first [0-9]* of its 60 points; run the same command with --resume" "$TMP/err" &&
		ok || fail "interrupted sweep (--jobs $jobs): exit $st, $(cat "$TMP/err")"
	[ -z "$(ls -A "$TMP" | grep '^\.int\.csv\.clustersim-\|^int\.csv\.tmp\|^int\.csv\.partial')" ] && ok ||
		fail "interrupted sweep left a temporary file: $(ls -A "$TMP" | grep int.csv)"
	rows=$(($(wc -l <"$TMP/int.csv") - 1))
	[ "$rows" -lt 60 ] && [ "$(sed 1d "$TMP/int.csv" | cut -d, -f3 | tr '\n' ' ')" = "$(seq 0 $((rows - 1)) | tr '\n' ' ')" ] &&
		ok || fail "interrupted sweep kept rows of points $(sed 1d "$TMP/int.csv" | cut -d, -f3 | tr '\n' ' '), not the first ones"
	"$C" sweep "$TMP/big.json" --jobs "$jobs" -o "$TMP/int.csv" --resume 2>/dev/null && ok || fail "resume after interruption"
	cmp -s "$TMP/int.csv" "$TMP/full-big.csv" && ok || fail "resume after interruption (--jobs $jobs) differs"
done

# JSON (written at the end, through a temporary): SIGTERM and SIGHUP remove
# the temporary and leave nothing.
for sig in TERM HUP; do
	rm -f "$TMP/j.json"
	"$C" sweep "$TMP/big.json" --format json -o "$TMP/j.json" 2>"$TMP/err" &
	pid=$!
	n=0
	while ! ls -A "$TMP" | grep -q '^\.j\.json\.clustersim-' && [ $n -lt 500 ]; do
		sleep 0.01
		n=$((n + 1))
	done
	kill -$sig "$pid"
	wait "$pid" 2>/dev/null
	st=$?
	[ "$st" -ne 0 ] && [ -z "$(ls -A "$TMP" | grep '^\.j\.json\|^j\.json')" ] && ok ||
		fail "sweep --format json stopped by SIG$sig: exit $st, left $(ls -A "$TMP" | grep 'j\.json' | tr '\n' ' ')"
done

# ---- killed (SIGKILL: the OOM killer, a lost node, a hard time limit) -----
# The finished points are in FILE.partial the moment each one is written;
# --resume keeps them all (a mark put in a kept row survives: it was not
# computed again), computes only the rest, and gives the uninterrupted
# run's bytes.
for jobs in $jobs_killed; do
	rm -f "$TMP/k.csv" "$TMP/k.csv.partial"
	"$C" sweep "$TMP/big.json" --jobs "$jobs" -o "$TMP/k.csv" 2>"$TMP/err" &
	pid=$!
	wait_for_temp_rows "k.csv" 5
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	st=$?
	cp "$TMP/k.csv.partial" "$TMP/k.at-kill" 2>/dev/null
	kept=$(($(wc -l <"$TMP/k.at-kill") - 1))  # whole rows (one per point) after the header
	[ "$st" -eq 137 ] && [ "$kept" -ge 5 ] && [ "$kept" -lt 60 ] && [ ! -e "$TMP/k.csv" ] &&
		head -n "$((kept + 1))" "$TMP/full-big.csv" | cmp -s - "$TMP/k.at-kill" && ok ||
		fail "killed sweep (--jobs $jobs): exit $st, $kept points in k.csv.partial"
	sed '2s/,ok,,/,ok,kill-mark,/' "$TMP/k.at-kill" >"$TMP/k.csv.partial"
	"$C" sweep "$TMP/big.json" --jobs "$jobs" -o "$TMP/k.csv" --resume 2>"$TMP/err" && ok || fail "resume after kill -9: $(cat "$TMP/err")"
	grep -qx "sweep: resuming '$TMP/k.csv.partial': kept $kept of 60 points, computing $((60 - kept))" "$TMP/err" &&
		ok || fail "resume after kill -9 (--jobs $jobs, $kept points finished): $(cat "$TMP/err")"
	grep -q ',ok,kill-mark,' "$TMP/k.csv" && sed 's/,ok,kill-mark,/,ok,,/' "$TMP/k.csv" | cmp -s - "$TMP/full-big.csv" &&
		[ ! -e "$TMP/k.csv.partial" ] && [ -z "$(ls -A "$TMP" | grep '^\.k\.csv')" ] && ok ||
		fail "resume after kill -9 (--jobs $jobs) differs from the uninterrupted run"
done
# Killed while resuming: FILE keeps what it held, the journal the rest; the
# next --resume reads both.
sed 1d "$TMP/full-big.csv" | awk -F, '$3 % 2 == 0' >"$TMP/even"
{ head -1 "$TMP/full-big.csv"; cat "$TMP/even"; } >"$TMP/k.csv"
"$C" sweep "$TMP/big.json" -o "$TMP/k.csv" --resume 2>"$TMP/err" &
pid=$!
wait_for_temp_rows "k.csv" 35
kill -KILL "$pid"
wait "$pid" 2>/dev/null
"$C" sweep "$TMP/big.json" -o "$TMP/k.csv" --resume 2>"$TMP/err" && cmp -s "$TMP/k.csv" "$TMP/full-big.csv" &&
	grep -q "resuming '$TMP/k.csv' and '$TMP/k.csv.partial': kept [0-9]* of 60" "$TMP/err" && ok ||
	fail "resume after a killed resume: $(cat "$TMP/err")"
# A worker killed (the OOM killer takes the largest process): the sweep
# fails (exit 1), keeps the points written in FILE.partial and says so.
rm -f "$TMP/w.csv" "$TMP/w.csv.partial"
"$C" sweep "$TMP/big.json" --jobs 2 -o "$TMP/w.csv" 2>"$TMP/err" &
pid=$!
wait_for_temp_rows "w.csv" 5
kill -KILL $(pgrep -P "$pid") 2>/dev/null
wait "$pid"
st=$?
[ "$st" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	grep -q "sweep: worker [12] of 2 killed by signal 9 before sending point [0-9]*; the [0-9]* points written are in '$TMP/w.csv.partial': run the same command with --resume to finish" "$TMP/err" &&
	[ ! -e "$TMP/w.csv" ] && ok || fail "a worker killed: exit $st, $(cat "$TMP/err")"
"$C" sweep "$TMP/big.json" --jobs 2 -o "$TMP/w.csv" --resume 2>"$TMP/err" && cmp -s "$TMP/w.csv" "$TMP/full-big.csv" &&
	grep -q "resuming '$TMP/w.csv.partial': kept [1-9][0-9]* of 60" "$TMP/err" && ok || fail "resume after a worker was killed: $(cat "$TMP/err")"

# ---- tools/sweep-parallel.sh: a shard killed; its log says how to resume ---
if command -v parallel >/dev/null 2>&1; then
	cat >"$TMP/killer.sh" <<EOF
#!/bin/sh
# shard 1 of 3 dies at once of SIGKILL, as a shard the OOM killer takes
case " \$* " in *" --shard 1/3 "*) kill -KILL \$\$ ;; esac
exec "$C" "\$@"
EOF
	chmod +x "$TMP/killer.sh"
	CLUSTERSIM="$TMP/killer.sh" sh "$TOP/tools/sweep-parallel.sh" -n 3 -d "$TMP/pp" "$s" "$TMP/pp.csv" >/dev/null 2>"$TMP/err"
	st=$?
	[ "$st" -eq 1 ] && [ ! -e "$TMP/pp.csv" ] && grep -q "rerun with -d '$TMP/pp' to resume" "$TMP/err" &&
		grep -q "shard 1/3 failed (exit 137); its finished points are kept: resume it with: .* sweep .* --shard 1/3 .*--resume -o '$TMP/pp/part-'1.csv" "$TMP/pp/part-1.log" &&
		ok || fail "sweep-parallel.sh with a killed shard: exit $st, $(cat "$TMP/err" "$TMP/pp/part-1.log")"
	# the command the log gives resumes the shard
	cmd=$(sed -n 's/^sweep-parallel.sh: shard 1\/3; to resume it alone: //p' "$TMP/pp/part-1.log" | head -1 | sed "s|$TMP/killer.sh|$C|")
	eval "$cmd" 2>/dev/null && "$C" sweep "$s" --shard 1/3 | cmp -s - "$TMP/pp/part-1.csv" && ok || fail "the log's resume command: $cmd"
	CLUSTERSIM="$C" sh "$TOP/tools/sweep-parallel.sh" -n 3 -d "$TMP/pp" "$s" "$TMP/pp.csv" 2>"$TMP/err" &&
		cmp -s "$TMP/pp.csv" "$TMP/nccl.csv" && grep -q "kept 4 of 4 points, computing 0" "$TMP/pp/part-1.log" && ok ||
		fail "sweep-parallel.sh rerun: $(cat "$TMP/err")"
fi

# ---- failed writes: exit 1, nothing left behind ---------------------------
status_is 1 "$C" sweep "$s" -o "$TMP/no/such/dir/out.csv" && grep -q "cannot write '$TMP/no/such/dir/out.csv'" "$TMP/err" &&
	[ ! -d "$TMP/no" ] && ok || fail "sweep -o into a missing directory"
status_is 1 "$C" merge "$TMP/part0.csv" -o "$TMP/no/such/dir/out.csv" && ok || fail "merge -o into a missing directory"
if [ -w /dev/full ]; then
	for jobs in 1 2; do
		status_is 1 "$C" sweep "$s" --jobs $jobs -o /dev/full && grep -q "cannot write '/dev/full': No space left on device" "$TMP/err" &&
			ok || fail "sweep -o /dev/full (--jobs $jobs)"
	done
	if full; then
		status_is 1 "$C" sweep "$TMP/big.json" -o /dev/full && ok || fail "long sweep -o /dev/full"
	fi
	"$C" sweep "$s" >/dev/full 2>"$TMP/err"
	[ $? -eq 1 ] && grep -q "No space left" "$TMP/err" && ok || fail "sweep to stdout on /dev/full"
	status_is 1 "$C" merge "$TMP/part0.csv" -o /dev/full && ok || fail "merge -o /dev/full"
	[ -z "$(ls -A /dev | grep '^full\.tmp\|^\.full\.clustersim-\|^full\.partial')" ] && ok || fail "temporary file beside /dev/full"
fi
finish
