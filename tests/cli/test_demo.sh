#!/bin/sh
# make demo's script (tools/demo.sh with the built binary, -o a temporary
# directory): its four sections in order; the table has one row per
# candidate with run's plan, wall time and deadline/budget verdicts; the
# answer is plan's own lines, and names the cheapest and the fastest
# candidate that meet both bounds in run's rows; the validation summary is
# validate's; without gnuplot the scripts and a note, exit 0; a rerun (with
# gnuplot) writes the same results, five PNG charts (signature, size) at the
# paths printed, keeps a user's files in the directory and adds nothing but
# the demo's files; -o naming a file is refused. The rendering checks are
# skipped when gnuplot is not installed, except under CI (CI=true), where a
# skip fails.
#
# The demo runs twice: first without gnuplot into a new directory, then
# again with it into the same one. The full set (CHECK=full) adds a third
# run, a second rerun with gnuplot: the same output and files. Run's
# columns are read from the rows the test's run wrote (lib.sh: columns).
. "$TOP/tests/cli/lib.sh"
cd "$TOP" || exit 1
C=$CLUSTERSIM
ex=scenarios/examples/rent-llama3-70b.json

have_gnuplot=true
if ! command -v gnuplot >/dev/null 2>&1; then
	if [ "${CI:-}" = true ]; then
		echo "FAIL: gnuplot is not installed (CI installs gnuplot-nox: tools/install-deps.sh)"
		exit 1
	fi
	echo "note: gnuplot is not installed: the rendering checks are skipped"
	have_gnuplot=false
fi

# the first run: without gnuplot, the scripts and a note saying how to draw
# them, exit 0
d=$TMP/a/out  # not there yet: the demo creates it
status_is 0 env CLUSTERSIM_GNUPLOT="$TMP/no-such-gnuplot" sh tools/demo.sh "$C" -o "$d" && ok || fail "demo without gnuplot"
cp "$TMP/out" "$TMP/demo1"
[ -d "$d" ] && ok || fail "the output directory was not created"
grep -q "^note: gnuplot is not installed ('$TMP/no-such-gnuplot' not found)" "$TMP/demo1" && ok || fail "no note without gnuplot"
grep -q "gnuplot $d/demo-pareto.gp" "$TMP/demo1" && ok || fail "the note does not say how to draw the charts"
for k in pareto breakdown scaling cost latency; do
	[ -s "$d/demo-$k.gp" ] && [ ! -e "$d/demo-$k.png" ] && ok || fail "without gnuplot: demo-$k.gp, no demo-$k.png"
done

# the sections, in order
n=$(grep -n '^== ([1-4]) ' "$TMP/demo1" | cut -d: -f2- | cut -c1-6 | tr '\n' ' ')
[ "$n" = "== (1) == (2) == (3) == (4) " ] && ok || fail "sections: '$n'"

# (1): a row per candidate: gpus, tp/pp/cp/dp, wall time P50 in hours and the
# two verdicts as run writes them
"$C" run "$ex" --format csv -o "$TMP/runs.csv" 2>/dev/null
cmp -s "$TMP/runs.csv" "$d/demo-runs.csv" && ok || fail "demo-runs.csv is not run's output"
columns "$TMP/runs.csv" candidate,gpus,tp,pp,cp,dp,wall_time_p50_h,meets_deadline_p50,meets_budget_p50 | tail -n +2 >"$TMP/cols"
[ "$(wc -l <"$TMP/cols")" -eq 11 ] && ok || fail "the scenario has $(wc -l <"$TMP/cols") candidates, not 11"
sed -n '/^== (1)/,/^== (2)/p' "$TMP/demo1" >"$TMP/sec1"
while IFS=, read -r name gpus tp pp cp dp wall dl bu; do
	want=$(awk -v n="$name" -v g="$gpus" -v p="$tp/$pp/$cp/$dp" -v w="$wall" -v dl="$dl" -v bu="$bu" 'BEGIN {
		y["true"] = "yes"; y["false"] = "no"
		printf "%s|%s|%s|%.0f|%s|%s", n, g, p, w, y[dl], y[bu] }')
	got=$(grep "^$name  " "$TMP/sec1" | awk -v n="$name" '{
		k = split(n, w, " ")   # the name is the first k fields
		printf "%s|%s|%s|%s|%s|%s", n, $(k + 1), $(k + 2), $(k + 5), $(NF - 1), $NF }')
	[ "$got" = "$want" ] && ok || fail "table row of '$name': '$got', wanted '$want'"
done <"$TMP/cols"

# (2): plan's answer as plan prints it, naming the cheapest (lowest P50
# cost) and the fastest (lowest P50 time) of the rows meeting both bounds
"$C" plan "$ex" --format csv -o "$TMP/plan.csv" >"$TMP/answer" 2>/dev/null
sed -n '/^== (2)/,/^== (3)/p' "$TMP/demo1" | sed '1d' | head -n "$(wc -l <"$TMP/answer")" >"$TMP/sec2"
cmp -s "$TMP/sec2" "$TMP/answer" && ok || fail "the answer is not plan's: $(diff "$TMP/sec2" "$TMP/answer" | head -4)"
cmp -s "$TMP/plan.csv" "$d/demo-plan.csv" && ok || fail "demo-plan.csv is not plan's output"
columns "$TMP/runs.csv" candidate,wall_time_p50_h,cost_usd_p50,meets_deadline_p50,meets_budget_p50 |
	awk -F, '$4 == "true" && $5 == "true"' >"$TMP/meet"
cheap=$(sort -t, -k3,3g "$TMP/meet" | head -1 | cut -d, -f1)
fast=$(sort -t, -k2,2g "$TMP/meet" | head -1 | cut -d, -f1)
grep -q "^cheapest that meets the deadline of 720 h and the budget of \$1,100,000: $cheap: " "$TMP/sec2" && ok ||
	fail "cheapest is not '$cheap': $(head -1 "$TMP/sec2")"
grep -q "^fastest that meets the deadline of 720 h and the budget of \$1,100,000: $fast: " "$TMP/sec2" && ok ||
	fail "fastest is not '$fast': $(sed -n 2p "$TMP/sec2")"
[ "$cheap" != "$fast" ] && ok || fail "the example should tell cheapest and fastest apart"
grep -q '^plan: 11 shapes, ' "$TMP/demo1" && ok || fail "plan's summary line"

# (3): validate's summary, as validate writes it on standard error
"$C" validate --format csv 2>"$TMP/val" >/dev/null
sed -n '/^== (3)/,/^== (4)/p' "$TMP/demo1" | grep '^validate: ' >"$TMP/sec3"
[ -s "$TMP/val" ] && cmp -s "$TMP/sec3" "$TMP/val" && ok || fail "validation summary: $(cat "$TMP/sec3")"

# a rerun, with gnuplot: the same results, a user's files kept, nothing else added
cp "$d/demo-serving.csv" "$TMP/serving.csv"
echo "mine" >"$d/notes.txt"
printf 'not a chart\n' >"$d/pareto.png"
status_is 0 sh tools/demo.sh "$C" -o "$d" && ok || fail "rerun"
cp "$TMP/out" "$TMP/demo2"
cmp -s "$d/demo-runs.csv" "$TMP/runs.csv" && cmp -s "$d/demo-plan.csv" "$TMP/plan.csv" &&
	cmp -s "$d/demo-serving.csv" "$TMP/serving.csv" && ok || fail "a rerun wrote other results"

# (4): five charts at the printed paths
png_ok() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] &&
		[ "$(wc -c <"$1")" -gt 20000 ]
}
charts="pareto breakdown scaling cost latency"
if $have_gnuplot; then
	for k in $charts; do
		grep -q "^  $d/demo-$k.png  *[a-z]" "$TMP/demo2" && ok || fail "path of the $k chart not printed"
		png_ok "$d/demo-$k.png" && ok || fail "demo-$k.png is not a PNG of a chart"
	done
	grep -q 'gnuplot is not installed' "$TMP/demo2" && fail "a note about gnuplot with gnuplot installed" || ok
fi
[ "$(cat "$d/notes.txt")" = mine ] && [ "$(cat "$d/pareto.png")" = "not a chart" ] && ok || fail "a user's file was changed"
want="demo-breakdown.gp demo-breakdown.png demo-cost.gp demo-cost.png demo-latency.gp demo-latency.png demo-pareto.gp demo-pareto.png demo-plan.csv demo-runs.csv demo-scaling.gp demo-scaling.png demo-serving.csv notes.txt pareto.png "
$have_gnuplot || want="demo-breakdown.gp demo-cost.gp demo-latency.gp demo-pareto.gp demo-plan.csv demo-runs.csv demo-scaling.gp demo-serving.csv notes.txt pareto.png "
files=$(ls -A "$d" | LC_ALL=C sort | tr '\n' ' ')
[ "$files" = "$want" ] && ok || fail "files in the output directory: $files"

# full set: a second rerun prints the same (but for plan's time on its
# summary line) and leaves the same files
if full; then
	status_is 0 sh tools/demo.sh "$C" -o "$d" && [ "$(grep -v '^plan: ' "$TMP/out")" = "$(grep -v '^plan: ' "$TMP/demo2")" ] && ok ||
		fail "a second rerun printed other output: $(diff "$TMP/demo2" "$TMP/out" | head -5)"
	[ "$(ls -A "$d" | LC_ALL=C sort | tr '\n' ' ')" = "$files" ] && ok || fail "a second rerun changed the files: $(ls -A "$d" | tr '\n' ' ')"
fi

# -o naming a file: refused, the file left as it was
echo keep >"$TMP/afile"
status_is 2 sh tools/demo.sh "$C" -o "$TMP/afile" && ok || fail "-o a file"
[ "$(cat "$TMP/afile")" = keep ] && ok || fail "-o a file changed it"

finish
