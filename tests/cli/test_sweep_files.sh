#!/bin/sh
# clustersim sweep and the files it reads and writes: each check is the
# reproduction of a failure once seen. Results never replace an input
# (the base scenario, a catalog it names); an interrupted run never replaces
# finished results with fewer; --resume continues only this program's CSV of
# this very sweep (the sweep_fingerprint column), keeps only complete points
# (each row it yields, once) and streams files of any size; an invalid base
# is bad input; an unwritable -o is a runtime failure.
#
# The quick set (make check) leaves to the full one (CHECK=full): the
# interrupted rerun with --jobs 1 (quick: --jobs 2; test_sweep interrupts
# --jobs 1) and the memory bound of --resume on a 4,000-point file (6.; a
# smaller file would fit the bound even if read whole, so quick has no
# cheaper stand-in; the quick set resumes small files in 3.-5.).
. "$TOP/tests/cli/lib.sh"
C=$CLUSTERSIM
s="$TOP/scenarios/examples/sweep-nccl.json"

"$C" sweep "$s" -o "$TMP/nccl.csv" && ok || fail "sweep-nccl"

# ---- the fingerprint: a last column, the same for every shard and --jobs ---
head -1 "$TMP/nccl.csv" | grep -q ',set:candidates\[0\]\.nodes,sweep_fingerprint$' && ok || fail "no sweep_fingerprint column: $(head -1 "$TMP/nccl.csv")"
fp=$(sed -n 2p "$TMP/nccl.csv" | awk -F, '{ print $NF }')
echo "$fp" | grep -qx '[0-9a-f]\{16\}' && ok || fail "fingerprint '$fp' is not 16 hex digits"
[ "$(sed 1d "$TMP/nccl.csv" | awk -F, '{ print $NF }' | sort -u)" = "$fp" ] && ok || fail "rows of one sweep carry different fingerprints"
"$C" sweep "$s" --shard 1/3 --jobs 2 -o "$TMP/p1.csv" && [ "$(sed 1d "$TMP/p1.csv" | awk -F, '{ print $NF }' | sort -u)" = "$fp" ] &&
	ok || fail "a shard's fingerprint differs"
for other in "--seed 5" "--dry-run" "--set candidates[0].nodes=3"; do
	# shellcheck disable=SC2086
	f2=$("$C" sweep "$s" $other --format csv | sed -n 2p | awk -F, '{ print $NF }')
	[ -n "$f2" ] && [ "$f2" != "$fp" ] && ok || fail "$other: same fingerprint $f2"
done

# ---- 1. -o naming an input: refused before computing ------------------------
mkdir "$TMP/in"
cat >"$TMP/in/base.json" <<'EOF'
{ "name": "b", "catalog": "cat.json",
  "workload": { "kind": "collective", "collective": { "op": "all_reduce", "bytes": [8] } },
  "candidates": [ { "name": "a", "preset": "dgx-h100", "nodes": 1 } ] }
EOF
printf '{ "gpus": [ { "name": "H100-SXM", "mamf_bf16": 0.7 } ] }\n' >"$TMP/in/cat.json"
printf '{ "base": "base.json", "axes": { "candidates[0].nodes": [1, 2] } }\n' >"$TMP/in/sw.json"
cp "$TMP/in/base.json" "$TMP/base.keep"
cp "$TMP/in/cat.json" "$TMP/cat.keep"
status_is 2 "$C" sweep "$TMP/in/sw.json" -o "$TMP/in/base.json" &&
	[ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "'$TMP/in/base.json'.*scenario" "$TMP/err" &&
	cmp -s "$TMP/in/base.json" "$TMP/base.keep" && ok || fail "-o the base scenario: $(cat "$TMP/err")"
cp "$TMP/base.keep" "$TMP/in/base.json"
status_is 2 "$C" sweep "$TMP/in/sw.json" -o "$TMP/in/cat.json" &&
	[ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "'$TMP/in/cat.json'.*catalog" "$TMP/err" &&
	cmp -s "$TMP/in/cat.json" "$TMP/cat.keep" && ok || fail "-o a catalog the base names: $(cat "$TMP/err")"
ln -s base.json "$TMP/in/link.json"
status_is 2 "$C" sweep "$TMP/in/sw.json" -o "$TMP/in/link.json" --resume &&
	cmp -s "$TMP/in/base.json" "$TMP/base.keep" && ok || fail "--resume -o a link to the base"
status_is 2 "$C" sweep "$TMP/in/sw.json" -o "$TMP/in/cat.json" --catalog "$TMP/in/cat.json" &&
	cmp -s "$TMP/in/cat.json" "$TMP/cat.keep" && ok || fail "-o a --catalog file"

# ---- 2. interrupted over an existing file: FILE stays, FILE.partial --------
write_slow_sweep "$TMP/slow.json"
"$C" sweep "$TMP/slow.json" -o "$TMP/full.csv" --jobs 2 && ok || fail "slow sweep"
# interrupt NAME ARGS...: run the slow sweep with -o $TMP/NAME and stop it
# with SIGTERM once its first rows reach the temporary file; status in $st.
interrupt() {
	name=$1
	shift
	"$C" sweep "$TMP/slow.json" -o "$TMP/$name" "$@" 2>"$TMP/err" &
	pid=$!
	wait_for_temp_rows "$name"
	kill -TERM "$pid"
	wait "$pid"
	st=$?
}
jobs_list=2
full && jobs_list="1 2"
for jobs in $jobs_list; do
	cp "$TMP/full.csv" "$TMP/done.csv"
	rm -f "$TMP/done.csv.partial"
	interrupt done.csv --jobs $jobs
	[ "$st" -eq 1 ] && cmp -s "$TMP/done.csv" "$TMP/full.csv" && ok ||
		fail "interrupted rerun (--jobs $jobs): exit $st, FILE $(wc -l <"$TMP/done.csv") lines: $(cat "$TMP/err")"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "'$TMP/done.csv' is unchanged.*'$TMP/done.csv.partial'.*--resume" "$TMP/err" &&
		ok || fail "interrupted rerun message: $(cat "$TMP/err")"
	rows=$(($(wc -l <"$TMP/done.csv.partial") - 1))
	[ "$rows" -ge 0 ] && [ "$rows" -lt 60 ] && [ -z "$(ls -A "$TMP" | grep '^done.csv.*tmp\|^\.done\.csv')" ] && ok || fail "partial file: $rows rows"
	"$C" sweep "$TMP/slow.json" -o "$TMP/done.csv.partial" --resume 2>/dev/null &&
		cmp -s "$TMP/done.csv.partial" "$TMP/full.csv" && ok || fail "resume from the partial file"
done
# --resume interrupted: FILE keeps every point it held complete.
sed 1d "$TMP/full.csv" | awk -F, '$3 % 2 == 1' >"$TMP/odd"
{ head -1 "$TMP/full.csv"; cat "$TMP/odd"; } >"$TMP/res.csv"
interrupt res.csv --resume
[ "$st" -eq 1 ] && grep -q "interrupted: '$TMP/res.csv' holds [0-9]* of its 60 points" "$TMP/err" && ok || fail "interrupted resume: exit $st, $(cat "$TMP/err")"
sed 1d "$TMP/res.csv" | awk -F, '$3 % 2 == 1' | cmp -s - "$TMP/odd" && ok || fail "interrupted resume lost kept points"
"$C" sweep "$TMP/slow.json" -o "$TMP/res.csv" --resume 2>/dev/null && cmp -s "$TMP/res.csv" "$TMP/full.csv" && ok || fail "resume after an interrupted resume"

# ---- 3. --resume onto what is not this sweep's CSV: exit 2, untouched -----
printf 'PK\003\004\000\001binary\nmore\n' >"$TMP/bin.csv"
cp "$TMP/bin.csv" "$TMP/bin.keep"
status_is 2 "$C" sweep "$s" --resume -o "$TMP/bin.csv" && grep -q "'$TMP/bin.csv'" "$TMP/err" &&
	cmp -s "$TMP/bin.csv" "$TMP/bin.keep" && ok || fail "--resume onto a binary file: $(cat "$TMP/err")"
{ head -1 "$TMP/nccl.csv" | sed 's/$/,extra/'; sed 1d "$TMP/nccl.csv"; } >"$TMP/wide.csv"
cp "$TMP/wide.csv" "$TMP/wide.keep"
status_is 2 "$C" sweep "$s" --resume -o "$TMP/wide.csv" && grep -q "'$TMP/wide.csv'" "$TMP/err" &&
	cmp -s "$TMP/wide.csv" "$TMP/wide.keep" && ok || fail "--resume onto another header"
printf 'hello\n' >"$TMP/text.csv"
status_is 2 "$C" sweep "$s" --resume -o "$TMP/text.csv" && [ "$(cat "$TMP/text.csv")" = hello ] && ok || fail "--resume onto a text file"
: >"$TMP/empty.csv"
"$C" sweep "$s" --resume -o "$TMP/empty.csv" && cmp -s "$TMP/empty.csv" "$TMP/nccl.csv" && ok || fail "--resume onto an empty file"

# ---- 4. --resume of another sweep's rows: refused, or the rows recomputed --
head -n 40 "$TMP/nccl.csv" >"$TMP/cut.csv"
cp "$TMP/cut.csv" "$TMP/cut.keep"
for other in "--seed 5" "--set candidates[0].nodes=3"; do
	# shellcheck disable=SC2086
	status_is 2 "$C" sweep "$s" $other --resume -o "$TMP/cut.csv" && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		grep -q "'$TMP/cut.csv'.*computed from another sweep (fingerprint $fp, this sweep [0-9a-f]\{16\})" "$TMP/err" &&
		cmp -s "$TMP/cut.csv" "$TMP/cut.keep" && ok || fail "--resume $other: $(cat "$TMP/err")"
done
# --dry-run writes other columns: the header already differs.
status_is 2 "$C" sweep "$s" --dry-run --resume -o "$TMP/cut.csv" && grep -q "'$TMP/cut.csv'.*holds other results" "$TMP/err" &&
	cmp -s "$TMP/cut.csv" "$TMP/cut.keep" && ok || fail "--resume --dry-run: $(cat "$TMP/err")"
printf '{ "base": "%s", "axes": { "candidates[0].preset": ["dgx-a100", "dgx-h100", "aws-p5.48xlarge"], "candidates[0].nodes": [1, 2, 4, 9] } }\n' \
	"$TOP/scenarios/examples/nccl-allreduce.json" >"$TMP/other-axes.json"
status_is 2 "$C" sweep "$TMP/other-axes.json" --resume -o "$TMP/cut.csv" && grep -q "computed from another sweep" "$TMP/err" &&
	ok || fail "--resume with other axis values: $(cat "$TMP/err")"
# A row whose seed or set: cell disagrees with its point is computed again.
sed '3s/^\([^,]*,[^,]*,0\),[0-9]*,/\1,999,/; 17s/,dgx-h100,4\(,\|$\)/,dgx-h100,7\1/' "$TMP/nccl.csv" >"$TMP/edit.csv"
cmp -s "$TMP/edit.csv" "$TMP/nccl.csv" && fail "the edit changed nothing"
"$C" sweep "$s" --resume -o "$TMP/edit.csv" 2>"$TMP/err" && cmp -s "$TMP/edit.csv" "$TMP/nccl.csv" &&
	grep -q "kept 10 of 12 points, computing 2" "$TMP/err" && ok || fail "rows with another seed or value kept: $(cat "$TMP/err")"

# ---- 5. a point with a row missing or twice is computed again -------------
# Point 3 is lines 23-29; point 2 lines 16-22.
sed '2s/,ok,,/,ok,kept-mark,/; 25d' "$TMP/nccl.csv" >"$TMP/miss.csv"
"$C" sweep "$s" --resume -o "$TMP/miss.csv" 2>"$TMP/err"
sed '2s/,ok,kept-mark,/,ok,,/' "$TMP/miss.csv" | cmp -s - "$TMP/nccl.csv" && grep -q kept-mark "$TMP/miss.csv" &&
	grep -q "kept 11 of 12 points, computing 1" "$TMP/err" && ok || fail "a point with a row missing was kept: $(cat "$TMP/err")"
sed '25p' "$TMP/nccl.csv" >"$TMP/twice.csv"
"$C" sweep "$s" --resume -o "$TMP/twice.csv" 2>"$TMP/err" && cmp -s "$TMP/twice.csv" "$TMP/nccl.csv" &&
	ok || fail "a point with a row twice: $(wc -l <"$TMP/twice.csv") lines, $(cat "$TMP/err")"
# A whole file given twice (cat FILE FILE) keeps each point once.
{ cat "$TMP/nccl.csv"; sed 1d "$TMP/nccl.csv"; } >"$TMP/cat.csv"
"$C" sweep "$s" --resume -o "$TMP/cat.csv" 2>"$TMP/err" && cmp -s "$TMP/cat.csv" "$TMP/nccl.csv" &&
	grep -q "kept 12 of 12 points, computing 0" "$TMP/err" && ok || fail "a file twice: $(cat "$TMP/err")"
# Rows out of candidate order are not the rows the point yields.
sed -n '1,22p' "$TMP/nccl.csv" >"$TMP/swap.csv"
sed -n '24p;23p;25,$p' "$TMP/nccl.csv" >>"$TMP/swap.csv"
"$C" sweep "$s" --resume -o "$TMP/swap.csv" 2>/dev/null && cmp -s "$TMP/swap.csv" "$TMP/nccl.csv" && ok || fail "rows out of order kept"
# A collective listing a size twice yields that row twice: the point is complete.
printf '{ "base": { "name": "d", "workload": { "kind": "collective", "collective": { "op": "all_reduce", "bytes": [8, 8, 64] } },
  "candidates": [ { "name": "a", "preset": "dgx-h100", "nodes": 1 } ] }, "axes": { "seed": [1, 2] } }\n' >"$TMP/dupsize.json"
"$C" sweep "$TMP/dupsize.json" -o "$TMP/dupsize.csv" && cp "$TMP/dupsize.csv" "$TMP/dupsize.full"
"$C" sweep "$TMP/dupsize.json" --resume -o "$TMP/dupsize.csv" 2>"$TMP/err" && cmp -s "$TMP/dupsize.csv" "$TMP/dupsize.full" &&
	grep -q "kept 2 of 2 points" "$TMP/err" && ok || fail "a size listed twice: $(cat "$TMP/err")"

# ---- 6. --resume streams: memory does not grow with the file --------------
# (full set only)
if full && [ -x /usr/bin/time ]; then
	{
		printf '{ "base": { "name": "big", "workload": { "kind": "collective", "collective": { "op": "all_reduce",\n'
		printf '    "bytes": { "min": 1, "max": 1073741824, "factor": 2 } } },\n  "candidates": ['
		printf ' { "name": "a", "preset": "dgx-h100", "nodes": 1 }, { "name": "b", "preset": "dgx-a100", "nodes": 2 },'
		printf ' { "name": "c", "preset": "dgx-h100", "nodes": 4 }, { "name": "d", "preset": "dgx-a100", "nodes": 8 } ] },\n  "axes": { "seed": ['
		seq -s, 0 3999 | tr -d '\n'
		printf '] } }\n'
	} >"$TMP/big.json"
	"$C" sweep "$TMP/big.json" --jobs 4 -o "$TMP/big.csv" && ok || fail "big sweep"
	cp "$TMP/big.csv" "$TMP/big.full"
	# (Under AddressSanitizer, freed memory waits in a quarantine of 256 MiB by default.)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=1 \
		/usr/bin/time -f '%M' -o "$TMP/rss" "$C" sweep "$TMP/big.json" --resume -o "$TMP/big.csv" 2>"$TMP/err" && ok || fail "big resume: $(cat "$TMP/err")"
	rss=$(tail -1 "$TMP/rss")
	size=$(($(wc -c <"$TMP/big.csv") / 1024))
	[ "$rss" -lt 40000 ] && ok || fail "resuming a $size KiB file took $rss KiB"
	cmp -s "$TMP/big.csv" "$TMP/big.full" && ok || fail "big resume changed the file"
fi

# ---- 7. an invalid base is bad input ----------------------------------------
printf '{ "base": { "name": "inv", "workload": { "kind": "collective", "collective": { "op": "all_reduce", "bytes": [8] } },
  "candidates": [ { "name": "a", "preset": "dgx-h100", "nodes": 0 } ] }, "axes": { "seed": [1, 2, 3] } }\n' >"$TMP/invbase.json"
status_is 2 "$C" sweep "$TMP/invbase.json" -o "$TMP/invbase.csv" && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	grep -q "candidates\[0\]\.nodes: expected an integer from 1 to 1000000, got 0" "$TMP/err" && [ ! -e "$TMP/invbase.csv" ] &&
	ok || fail "invalid base: $(cat "$TMP/err")"
status_is 2 "$C" sweep "$s" --set 'workload.collective.op="nope"' --format csv && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	grep -q 'workload\.collective\.op' "$TMP/err" && [ ! -s "$TMP/out" ] && ok || fail "--set making the base invalid: $(cat "$TMP/err")"
# A base the axes complete is not refused: a point that loads runs.
printf '{ "base": { "name": "tpl", "workload": { "kind": "collective", "collective": { "op": "all_reduce", "bytes": [8] } },
  "candidates": [ { "name": "a", "preset": "dgx-h100", "nodes": 0 } ] }, "axes": { "candidates[0].nodes": [1, 2] } }\n' >"$TMP/tpl.json"
status_is 0 "$C" sweep "$TMP/tpl.json" --format csv && [ "$(grep -c ',ok,' "$TMP/out")" -eq 2 ] && ok || fail "a base completed by its axes"

# ---- 8. --resume -o DIR is a runtime failure, as for every command --------
mkdir "$TMP/dir.csv"
status_is 1 "$C" sweep "$s" --resume -o "$TMP/dir.csv" && grep -q "cannot write '$TMP/dir.csv'" "$TMP/err" && ok || fail "--resume -o DIR: $(cat "$TMP/err")"

# ---- 9. -o never replaces a file any input names, at any depth --------------
# The base's request trace and job trace, a catalog or a trace named by an
# axis or zip value (through a link too), and -o whose journal FILE.partial
# is one: exit 2, one line naming the output and the input, nothing changed.
d="$TMP/deep"
mkdir "$d"
printf 'arrival_s,prompt_tokens,output_tokens\n0,100,10\n0.5,200,40\n' >"$d/reqs.csv"
cp "$d/reqs.csv" "$d/reqs2.partial"
cat >"$d/serve.json" <<'EOF'
{ "name": "serve", "workload": { "kind": "inference", "model": "llama3.1-8b",
    "serving": { "arrival": { "process": "trace", "trace": "reqs.csv" }, "prompt_tokens": 1, "output_tokens": 1 } },
  "candidates": [ { "name": "one", "gpu": "H100-SXM", "gpus_per_node": 1 } ] }
EOF
cp "$TOP/scenarios/examples/fleet-sacct-replay.json" "$TOP/scenarios/examples/fleet-sacct-synthetic.txt" "$d/"
cp "$d/fleet-sacct-synthetic.txt" "$d/jobs2.txt"
printf '{ "gpus": [ { "name": "H100-SXM", "mamf_bf16": 0.7 } ] }\n' >"$d/axcat.json"
ln -s axcat.json "$d/cat-link.json"
printf '{ "base": "serve.json", "axes": { "seed": [1, 2] } }\n' >"$d/sw-base.json"
printf '{ "base": "fleet-sacct-replay.json", "axes": { "seed": [1] } }\n' >"$d/sw-fleet.json"
printf '{ "base": "serve.json", "axes": { "catalog": ["axcat.json"] } }\n' >"$d/sw-axcat.json"
printf '{ "base": "serve.json", "zip": [ { "workload.serving.arrival.trace": ["reqs.csv", "reqs2.partial"], "seed": [1, 2] } ] }\n' >"$d/sw-axtrace.json"
printf '{ "base": "fleet-sacct-replay.json", "axes": { "workload.fleet.jobs[0].arrival": [ { "process": "trace", "trace": "jobs2.txt", "format": "sacct" } ] } }\n' >"$d/sw-axjobs.json"
refused() {  # refused WHAT SWEEP OUT [SHOWN]: exit 2, one line naming SHOWN (default OUT) and WHAT, nothing changed
	what=$1 sw=$2 out=$3 shown=${4:-$3}
	cp "$shown" "$TMP/keep"
	status_is 2 "$C" sweep "$sw" -o "$out" && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		grep -q "refusing to write results to '$shown': it is the $what '$d/" "$TMP/err" && cmp -s "$shown" "$TMP/keep" &&
		[ -z "$(ls -A "$d" | grep '^\.')" ] && ok || fail "sweep $(basename "$sw") -o $(basename "$out") ($what): $(cat "$TMP/err")"
}
refused "request trace" "$d/sw-base.json" "$d/reqs.csv"
refused "job trace" "$d/sw-fleet.json" "$d/fleet-sacct-synthetic.txt"
refused "catalog" "$d/sw-axcat.json" "$d/axcat.json"
refused "catalog" "$d/sw-axcat.json" "$d/cat-link.json"
refused "request trace" "$d/sw-axtrace.json" "$d/reqs.csv"
refused "request trace" "$d/sw-axtrace.json" "$d/reqs2.partial"
refused "job trace" "$d/sw-axjobs.json" "$d/jobs2.txt"
refused "request trace" "$d/sw-axtrace.json" "$d/reqs2" "$d/reqs2.partial"  # its journal
refused "base scenario" "$d/sw-base.json" "$d/serve.json"

# ---- 10. the fingerprint covers the contents of the files the points read ---
# --resume after a catalog, a --catalog file or a trace changed is refused
# (FILE untouched); with the old contents back it resumes.
f="$TMP/fp"
mkdir "$f"
cp "$TMP/in/base.json" "$f/base.json"
printf '{ "gpus": [ { "name": "H100-SXM", "mamf_bf16": 0.7 } ] }\n' >"$f/cat.json"
printf '{ "gpus": [ { "name": "A100-80GB-SXM", "mamf_bf16": 0.7 } ] }\n' >"$f/extra.json"
printf '{ "base": "base.json", "axes": { "candidates[0].nodes": [1, 2] } }\n' >"$f/sw.json"
"$C" sweep "$f/sw.json" -o "$f/out.csv" --catalog "$f/extra.json" && ok || fail "sweep with catalogs"
cp "$f/out.csv" "$f/out.keep"
changed() {  # changed FILE NEW-TEXT SWEEP-ARGS...: resume refused while FILE holds NEW-TEXT
	file=$1 text=$2
	shift 2
	cp "$file" "$TMP/old"
	printf '%s\n' "$text" >"$file"
	status_is 2 "$C" sweep "$@" --resume && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		grep -q "computed from another sweep (fingerprint [0-9a-f]\{16\}, this sweep [0-9a-f]\{16\}): .*contents of a catalog or trace it reads" "$TMP/err" &&
		cmp -s "$f/out.csv" "$f/out.keep" && ok || fail "--resume after '$(basename "$file")' changed: $(cat "$TMP/err")"
	cp "$TMP/old" "$file"
}
changed "$f/cat.json" '{ "gpus": [ { "name": "H100-SXM", "mamf_bf16": 0.6 } ] }' "$f/sw.json" -o "$f/out.csv" --catalog "$f/extra.json"
changed "$f/extra.json" '{ "gpus": [ { "name": "A100-80GB-SXM", "mamf_bf16": 0.5 } ] }' "$f/sw.json" -o "$f/out.csv" --catalog "$f/extra.json"
"$C" sweep "$f/sw.json" -o "$f/out.csv" --catalog "$f/extra.json" --resume 2>"$TMP/err" && cmp -s "$f/out.csv" "$f/out.keep" &&
	grep -q "kept 2 of 2 points, computing 0" "$TMP/err" && ok || fail "--resume with the same contents: $(cat "$TMP/err")"
"$C" sweep "$d/sw-axtrace.json" -o "$f/tr.csv" && ok || fail "sweep of traces"
cp "$f/tr.csv" "$f/out.keep"
cp "$f/tr.csv" "$f/out.csv"
changed "$d/reqs2.partial" "$(printf 'arrival_s,prompt_tokens,output_tokens\n0,100,10\n0.5,300,40')" "$d/sw-axtrace.json" -o "$f/out.csv"

# ---- 11. FILE.partial that is not a sweep's results is never replaced ------
printf 'my notes\n' >"$TMP/w.csv.partial"
status_is 1 "$C" sweep "$s" -o "$TMP/w.csv" && grep -q "cannot write '$TMP/w.csv': '$TMP/w.csv.partial' is in the way" "$TMP/err" &&
	[ "$(cat "$TMP/w.csv.partial")" = "my notes" ] && [ ! -e "$TMP/w.csv" ] && ok || fail "FILE.partial in the way: $(cat "$TMP/err")"

# ---- 12. -o a link to a file: the file is replaced, the link stays ---------
mkdir "$TMP/real"
printf 'old\n' >"$TMP/real/n.csv"
ln -s real/n.csv "$TMP/n-link.csv"
status_is 0 "$C" sweep "$s" -o "$TMP/n-link.csv" && [ -L "$TMP/n-link.csv" ] && cmp -s "$TMP/real/n.csv" "$TMP/nccl.csv" &&
	[ "$(ls -A "$TMP/real")" = n.csv ] && ok || fail "sweep -o a link: $(ls -lA "$TMP/n-link.csv" "$TMP/real")"
head -n 30 "$TMP/nccl.csv" >"$TMP/real/n.csv"
status_is 0 "$C" sweep "$s" -o "$TMP/n-link.csv" --resume && [ -L "$TMP/n-link.csv" ] && cmp -s "$TMP/real/n.csv" "$TMP/nccl.csv" &&
	grep -q "kept 4 of 12 points" "$TMP/err" && [ "$(ls -A "$TMP/real")" = n.csv ] && ok || fail "sweep --resume -o a link: $(cat "$TMP/err")"
finish
