#!/bin/sh
# Every file in tests/bad must be rejected: exit status 2, exactly one line on
# standard error that starts with "clustersim: " and contains the text listed
# in tests/bad/EXPECTED, nothing on standard output, no result file written
# (and no temporary file left beside it), and never a crash. (The corpus
# loop reads the message with the shell's own read and case, not grep and
# wc: a process per check for 117 files was most of this script's time.)
. "$TOP/tests/cli/lib.sh"

bad="$TOP/tests/bad"
n=0
while IFS="	" read -r file expect; do
	case "$file" in "#"*|"") continue ;; esac
	n=$((n + 1))
	out="$TMP/result-$n.csv"
	"$CLUSTERSIM" run "$bad/$file" -o "$out" >"$TMP/out" 2>"$TMP/err"
	status=$?
	if [ "$status" -ne 2 ]; then
		fail "$file: exit $status, wanted 2"
		head -3 "$TMP/err"
		continue
	fi
	# exactly one line (ended by a newline): the first read succeeds, the second finds nothing
	msg="" rest=""
	{ IFS= read -r msg && ! IFS= read -r rest && [ -z "$rest" ]; } <"$TMP/err"
	lines=$?
	if [ "$lines" -ne 0 ]; then
		fail "$file: $(wc -l <"$TMP/err") lines on stderr, wanted 1"
		head -3 "$TMP/err"
		continue
	fi
	case $msg in
	"clustersim: "*) ;;
	*)
		fail "$file: message lacks the program prefix: $msg"
		continue
		;;
	esac
	case $msg in
	*"$expect"*) ;;
	*)
		fail "$file: message does not contain '$expect': $msg"
		continue
		;;
	esac
	set -- "$TMP/.result-$n.csv.clustersim-"*
	if [ -s "$TMP/out" ] || [ -e "$out" ] || [ -e "$1" ]; then
		fail "$file: wrote output despite the error"
		continue
	fi
	ok
done <"$bad/EXPECTED"

# Every file in the corpus is listed, so none is silently skipped.
listed=$(cut -f1 "$bad/EXPECTED")
for f in "$bad"/*; do
	b=${f##*/}
	[ "$b" = EXPECTED ] && continue
	case "
$listed
" in
	*"
$b
"*) ok ;;
	*) fail "$b is not listed in tests/bad/EXPECTED" ;;
	esac
done
[ "$n" -ge 30 ] && ok || fail "only $n bad inputs; the corpus must hold at least 30"

# ---- bounds on every input (docs/reference/limits.md) ---------------------------------
# A command that reads an input without end (/dev/zero, a line that never
# ends) stops at the input's bound: exit 2 at once, one line naming the
# file, the line and the bound. It runs under a 200 MB address-space limit
# (not in sanitizer builds, which reserve far more for themselves) and a
# 20 s timeout: before the bounds, it grew until the limit and then said
# "an empty file", or never ended.
if ldd "$CLUSTERSIM" 2>/dev/null | grep -q libasan; then
	bounded() { timeout 20 "$@"; }
else
	bounded() { (ulimit -v 200000; timeout 20 "$@"); }
fi

# one_error WANT TEXT CMD...: exit WANT, one line on stderr holding TEXT
one_error() {
	want=$1 text=$2
	shift 2
	if status_is "$want" "$@" && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -qF -- "$text" "$TMP/err"; then
		ok
	else
		fail "$*: wanted exit $want and one line with '$text', got: $(head -3 "$TMP/err")"
	fi
}

line_bound="line 1: a line longer than 1048576 bytes, the bound on a CSV line"
one_error 2 "part '/dev/zero': $line_bound" bounded "$CLUSTERSIM" merge /dev/zero
one_error 2 "results '/dev/zero': $line_bound" bounded "$CLUSTERSIM" plot /dev/zero --chart pareto -o "$TMP/z.png" --script-only
one_error 2 "scenario '/dev/zero': file is larger than 67108864 bytes (64 MiB), the bound on a JSON input" \
	bounded "$CLUSTERSIM" run /dev/zero
one_error 2 "catalog '/dev/zero': file is larger than 67108864 bytes (64 MiB)" bounded "$CLUSTERSIM" catalog --catalog /dev/zero
# a JSON text within the bound whose tree does not fit in memory (5 million
# array elements, some 240 MB as jansson builds them): out of memory, exit
# 1, never "line -1, column -1" as a defect of the file (exit 2)
if ! ldd "$CLUSTERSIM" 2>/dev/null | grep -q libasan; then
	{ printf '{"description": ['; yes '0,' | head -n 5000000 | tr -d '\n'; printf '0]}\n'; } >"$TMP/huge.json"
	one_error 1 "scenario '$TMP/huge.json': out of memory while parsing the JSON ($(wc -c <"$TMP/huge.json") bytes)" \
		bounded "$CLUSTERSIM" run "$TMP/huge.json"
	rm -f "$TMP/huge.json"
fi
# a long line that does end: named with its line number
{ echo "scenario,row_id,x"; echo "s,0,1"; head -c 1048577 /dev/zero | tr '\0' x; echo; } >"$TMP/long.csv"
one_error 2 "part '$TMP/long.csv': line 3: a line longer than 1048576 bytes" bounded "$CLUSTERSIM" merge "$TMP/long.csv"
one_error 2 "results '$TMP/long.csv': line 3: a line longer than 1048576 bytes" \
	bounded "$CLUSTERSIM" plot "$TMP/long.csv" --chart scatter --x x --y x -o "$TMP/z.png" --script-only
{ echo "arrival_s,prompt_tokens,output_tokens"; echo "0,10,10"; head -c 1048577 /dev/zero | tr '\0' 1; echo ",10,10"; } >"$TMP/requests.csv"
printf '{"workload": {"kind": "inference", "model": "llama3-8b", "serving": {"arrival": {"process": "trace", "trace": "requests.csv"}, "prompt_tokens": 1000, "output_tokens": 200}}, "candidates": [{"preset": "dgx-h100"}]}\n' >"$TMP/serve.json"
one_error 2 "trace '$TMP/requests.csv': line 3: a line longer than 1048576 bytes, the bound on a trace's line" \
	bounded "$CLUSTERSIM" run "$TMP/serve.json"

# merge - copies standard input to a temporary file: /dev/zero stops it at
# its first line, and whether merge fails, ends or is stopped (SIGTERM while
# it reads a slow pipe), $TMPDIR keeps nothing: the file never had a name
# after it was made. It used to write 14 GB in 30 s and leave it there.
mkdir "$TMP/tmpdir"
one_error 2 "part '<stdin>': $line_bound" bounded env TMPDIR="$TMP/tmpdir" "$CLUSTERSIM" merge - </dev/zero
[ -z "$(ls -A "$TMP/tmpdir")" ] && ok || fail "merge - </dev/zero left $(ls -A "$TMP/tmpdir") in \$TMPDIR"
printf 'scenario,row_id,x\ns,1,a\ns,0,b\n' | TMPDIR="$TMP/tmpdir" "$CLUSTERSIM" merge - >"$TMP/out" 2>"$TMP/err" &&
	[ "$(cat "$TMP/out" | tr '\n' ' ')" = "scenario,row_id,x s,0,b s,1,a " ] && [ -z "$(ls -A "$TMP/tmpdir")" ] &&
	ok || fail "merge - of an unsorted part: $(cat "$TMP/out" "$TMP/err"), left: $(ls -A "$TMP/tmpdir")"
mkfifo "$TMP/fifo"
TMPDIR="$TMP/tmpdir" "$CLUSTERSIM" merge - -o "$TMP/slow.csv" <"$TMP/fifo" 2>/dev/null &
pid=$!
exec 3>"$TMP/fifo"
printf 'scenario,row_id,x\ns,0,a\n' >&3
# until merge holds its temporary file open (at most 10 s)
i=0
while ! ls -l "/proc/$pid/fd" 2>/dev/null | grep -qF "$TMP/tmpdir/" && [ $i -lt 1000 ]; do
	sleep 0.01
	i=$((i + 1))
done
ls -l "/proc/$pid/fd" 2>/dev/null | grep -qF "$TMP/tmpdir/" && ok || fail "merge - never opened a file in \$TMPDIR"
kill -TERM "$pid"
{ wait "$pid"; } 2>/dev/null
exec 3>&-
[ -z "$(ls -A "$TMP/tmpdir")" ] && ok || fail "merge - stopped by SIGTERM left $(ls -A "$TMP/tmpdir") in \$TMPDIR"
[ ! -e "$TMP/slow.csv" ] && ok || fail "merge - stopped by SIGTERM wrote its result"

# sweep --resume reads its results in salvage mode: a line over the bound
# ends what it keeps (the points after are computed again), never the run.
printf '{"base": {"workload": {"kind": "collective", "collective": {"op": "all_reduce", "bytes": 1048576}}, "candidates": [{"preset": "dgx-h100"}]}, "axes": {"seed": [1, 2, 3, 4]}}\n' >"$TMP/sw.json"
"$CLUSTERSIM" sweep "$TMP/sw.json" -o "$TMP/sw-full.csv" 2>/dev/null && ok || fail "sweep"
{ head -3 "$TMP/sw-full.csv"; head -c 2097152 /dev/zero | tr '\0' x; echo; } >"$TMP/sw-cut.csv"
bounded "$CLUSTERSIM" sweep "$TMP/sw.json" --resume -o "$TMP/sw-cut.csv" 2>"$TMP/err" &&
	cmp -s "$TMP/sw-cut.csv" "$TMP/sw-full.csv" && ok || fail "sweep --resume over a line past the bound: $(cat "$TMP/err")"

# --set: a value that starts like JSON ({, [ or ") and is not JSON is an
# error naming the path, the value and the JSON error; it used to become a
# string. Other text stays a string.
ex="$TOP/scenarios/examples/nccl-allreduce.json"
one_error 2 "--set name: the value \"{\\\"a\\\": 1, \\\"a\\\": 2}\" starts like JSON but is not JSON: column 12: duplicate object key" \
	"$CLUSTERSIM" run "$ex" --dry-run --set 'name={"a": 1, "a": 2}'
one_error 2 "--set name: the value \"\\\"a\\\\u0000b\\\"\" starts like JSON but is not JSON: column 10: a \\u0000 (NUL) escape is not allowed" \
	"$CLUSTERSIM" run "$ex" --dry-run --set 'name="a\u0000b"'
one_error 2 "--set candidates[0]: the value \"[draft\" starts like JSON but is not JSON" \
	"$CLUSTERSIM" run "$ex" --dry-run --set 'candidates[0]=[draft'
"$CLUSTERSIM" run "$ex" --dry-run --format csv --set 'name=draft run' | sed -n 2p | cut -d, -f1 | grep -qx 'draft run' &&
	ok || fail "--set name=draft run is a string"
"$CLUSTERSIM" run "$ex" --dry-run --format csv --set 'name="[draft]"' | sed -n 2p | cut -d, -f1 | grep -qx '\[draft\]' &&
	ok || fail "--set name=\"[draft]\" is a string"

# A catalog file gives each entry once (a name or an alias of one entry
# twice is an error naming the file, the path and the name); a later file
# overrides an entry of the built-in catalog or of an earlier file.
printf '{"gpus": [{"name": "H100-SXM", "mamf_bf16": 0.7}, {"name": "h100", "mamf_bf16": 0.6}]}\n' >"$TMP/dup.json"
one_error 2 "catalog '$TMP/dup.json': gpus[1].name: \"h100\" names the same entry as gpus[0] (\"H100-SXM\"): give each entry once in a file" \
	"$CLUSTERSIM" catalog gpus --catalog "$TMP/dup.json"
printf '{"presets": [{"name": "dgx-h100"}, {"name": "dgx-h100"}]}\n' >"$TMP/dup.json"
one_error 2 "catalog '$TMP/dup.json': presets[1].name: \"dgx-h100\" is also the name of presets[0]" \
	"$CLUSTERSIM" run "$ex" --dry-run --catalog "$TMP/dup.json"
printf '{"gpus": [{"name": "H100-SXM", "tflops_bf16": 900}]}\n' >"$TMP/over1.json"
printf '{"gpus": [{"name": "h100", "tflops_bf16": 800}]}\n' >"$TMP/over2.json"
status_is 0 "$CLUSTERSIM" catalog gpus --format csv --catalog "$TMP/over1.json" --catalog "$TMP/over2.json" &&
	grep '^H100-SXM,' "$TMP/out" | grep -q ',800,' && ok || fail "a later catalog file overrides: $(grep '^H100-SXM,' "$TMP/out")"
finish
