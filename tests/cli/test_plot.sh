#!/bin/sh
# clustersim plot: every chart kind as PNG and SVG from results the real
# run and sweep commands write (a PNG's signature and a size no empty
# picture has; an SVG's header and its title), the script naming the
# columns it charts, empty and all-oom files refused, a missing column
# named, and a missing or failing gnuplot keeping the script and any
# earlier image. The rendering checks are skipped when gnuplot is not
# installed, except under CI (CI=true), where tools/install-deps.sh
# installs it and a skip is a failure.
#
# The quick set (make check) leaves to the full one (CHECK=full): gnuplot
# run by hand on the script of every chart kind of hostile text (quick: on
# the pareto chart's; plot itself renders every kind in both sets).
. "$TOP/tests/cli/lib.sh"
cd "$TOP" || exit 1
C=$CLUSTERSIM

have_gnuplot=true
if ! command -v gnuplot >/dev/null 2>&1; then
	if [ "${CI:-}" = true ]; then
		echo "FAIL: gnuplot is not installed (CI installs gnuplot-nox: tools/install-deps.sh)"
		exit 1
	fi
	echo "note: gnuplot is not installed: the rendering checks are skipped"
	have_gnuplot=false
fi

# results from the real commands: a whole run (training), a node-count
# sweep (scaling), an arrival-rate sweep (serving)
# (at the prices the pareto checks below were written for: tests/fixtures/prices/README.md)
"$C" run scenarios/examples/llama3-70b-whole-run.json --catalog "$TOP/tests/fixtures/prices/before-2026-12.json" \
	--format csv -o "$TMP/whole.csv" 2>/dev/null
"$C" sweep scenarios/examples/sweep-llama3-70b.json -o "$TMP/sweep.csv" 2>/dev/null
"$C" sweep scenarios/examples/sweep-llama3.1-8b-rate.json -o "$TMP/rate.csv" 2>/dev/null
# a fleet's rows (a replayed trace: every team has jobs; three teams) and its utilization series
"$C" run scenarios/examples/fleet-sacct-replay.json --format csv -o "$TMP/fleet.csv" 2>/dev/null
"$C" run scenarios/examples/fleet-three-teams.json --format csv -o "$TMP/three.csv" --series "$TMP/series.csv" 2>/dev/null
for f in whole sweep rate fleet three series; do
	[ -s "$TMP/$f.csv" ] && ok || fail "results $f.csv were not written"
done

# png_ok FILE: the PNG signature (89 50 4e 47 0d 0a 1a 0a) and over 20 kB
# (an empty 1600 x 1000 frame with axes is about 10 kB)
png_ok() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] &&
		[ "$(wc -c <"$1")" -gt 20000 ]
}
png_sig() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]
}
# svg_ok FILE TITLE: an XML or SVG header and the title as text
svg_ok() {
	head -c 5 "$1" | grep -q '^<?xml\|^<svg' && grep -qF "$2" "$1" && [ "$(wc -c <"$1")" -gt 5000 ]
}

# kind, results, extra options, the columns line the script must carry, the title
check_kind() {
	kind=$1 res=$2 opts=$3 cols=$4 title=$5
	for ext in png svg; do
		img="$TMP/$kind.$ext"
		if $have_gnuplot; then
			expect_status 0 "$C" plot "$TMP/$res.csv" --chart "$kind" $opts -o "$img" || continue
			if [ $ext = png ]; then
				png_ok "$img" && ok || fail "$kind: $img is not a PNG of a chart"
			else
				svg_ok "$img" "$title" && ok || fail "$kind: $img is not an SVG titled '$title'"
			fi
		else
			expect_status 0 "$C" plot "$TMP/$res.csv" --chart "$kind" $opts -o "$img" --script-only || continue
		fi
		# nothing on standard error: no row left out, no gnuplot warning
		[ ! -s "$TMP/err" ] && ok || fail "$kind $ext: messages: $(head -3 "$TMP/err")"
		grep -qxF "# columns: $cols" "$TMP/$kind.gp" && ok || fail "$kind: the script does not chart '$cols'"
		[ ! -e "$TMP/$kind.gp.tmp" ] && ! ls -A "$TMP" | grep -q -e '\.tmp\.' -e '\.clustersim-.*\.tmp$' && ok || fail "$kind: a temporary was left"
	done
}

check_kind pareto whole "--deadline-h 2000 --budget-usd 1500000" \
	"x wall_time_p50_h, y cost_usd_p50, label candidate, group gpu" "Wall time and cost, Pareto front: llama3-70b-whole-run"
check_kind breakdown sweep "" \
	"y frac_compute, frac_comm_exposed, frac_bubble, frac_checkpoint, frac_lost_to_failures, frac_idle, label candidate" \
	"Where held GPU time goes: llama3-70b-pretrain"
check_kind scaling sweep "" "x gpus, y tokens_per_s, label candidate, group gpu" "Scaling with GPU count: llama3-70b-pretrain"
check_kind latency rate "--slo-ttft-ms 500 --slo-tpot-ms 50" \
	"x rate_per_s, y ttft_p50_ms, ttft_p99_ms, tpot_p50_ms, tpot_p99_ms, label candidate, group candidate" \
	"Serving latency against load: llama3.1-8b-serving"
check_kind cost whole "" "y usd_per_mtok, label candidate" "Cost per million tokens: llama3-70b-whole-run"
check_kind scatter sweep "--x gpus --y mfu --group gpu" "x gpus, y mfu, label candidate, group gpu" \
	"mfu against gpus: llama3-70b-pretrain"

check_kind waits fleet "" "y queue_wait_p50_h, queue_wait_p90_h, queue_wait_p99_h, label team" \
	"Queue wait per team: fleet-sacct-replay"
check_kind team-cost three "" "y usd_total, idle_usd, label team" "Dollars per team: fleet-three-teams"
check_kind utilization series "" "x time_h, y allocated_frac, busy_frac, queued_jobs, label candidate, group candidate" \
	"Utilization over time: series.csv"

# waits: one bar per team row (2 candidates x 3 teams; not the fleet's nor
# the class's rows), its segment ends the row's P50, P90, P99
sed -n '/^\$bars0 << EOD$/,/^EOD$/p' "$TMP/waits.gp" | grep '^"' >"$TMP/wbars"
# (the rows again with only the columns compared: no quoted reason with commas)
"$C" run scenarios/examples/fleet-sacct-replay.json --format csv -o "$TMP/fleet-w.csv" \
	--columns candidate,team,class,queue_wait_p50_h,queue_wait_p90_h,queue_wait_p99_h 2>/dev/null
awk -F, 'NR > 1 && $2 != "" && $3 == "" { print $4, $5, $6 }' "$TMP/fleet-w.csv" >"$TMP/wwant"
[ "$(wc -l <"$TMP/wbars")" -eq 6 ] && [ "$(sed 's/^"[^"]*" [0-9]* 0 //; s/ ".*//' "$TMP/wbars")" = "$(cat "$TMP/wwant")" ] && ok ||
	fail "waits bars: $(cat "$TMP/wbars") want $(cat "$TMP/wwant")"
# team-cost: each candidate's team bars end at its teams' usd_total, which add up to the fleet's
sed -n '/^\$bars0 << EOD$/,/^EOD$/p' "$TMP/team-cost.gp" | grep '^"' >"$TMP/cbars"
"$C" run scenarios/examples/fleet-three-teams.json --format csv -o "$TMP/three-c.csv" \
	--columns candidate,team,status,usd_total 2>/dev/null
awk -F, 'NR > 1 && $3 == "ok" && $2 == "" { print $1, $4 }' "$TMP/three-c.csv" | sort >"$TMP/cfleet"
awk '{ split($0, q, "\""); split(q[2], n, " / "); split(q[3], v, " "); sum[n[1]] += v[3] }
	END { for (k in sum) print k, sum[k] }' "$TMP/cbars" | sort >"$TMP/csum"
[ "$(wc -l <"$TMP/cbars")" -eq 6 ] && awk 'NR == FNR { w[$1 " " $2 " " $3] = $4; next }
	{ k = $1 " " $2 " " $3; if (!(k in w) || ($4 - w[k]) ^ 2 > (1e-5 * w[k]) ^ 2) bad = 1; n++ }
	END { exit bad || n != 2 }' "$TMP/cfleet" "$TMP/csum" && ok || fail "team-cost bars: $(cat "$TMP/cbars") fleet $(cat "$TMP/cfleet")"
# utilization: every row of the series is drawn
[ "$(grep -c '^[0-9]' "$TMP/utilization.gp")" -eq "$(($(wc -l <"$TMP/series.csv") - 1))" ] && ok ||
	fail "utilization: rows drawn != series rows"
# a file with no team rows: said, nothing written
status_is 2 "$C" plot "$TMP/whole.csv" --chart waits -o "$TMP/nw.png" && [ ! -e "$TMP/nw.gp" ] && grep -q "no column 'queue_wait_p50_h'" "$TMP/err" &&
	ok || fail "waits without a team column: $(cat "$TMP/err")"

# the pareto script: the unsupported spot row is left out; the 16 x Nebius
# H200 run is cheaper than 16 x p5 at about the same time, so p5 is not on
# the front; 32 x Nebius H100 (fastest and cheapest) is
grep -q "16 x p5en spot" "$TMP/pareto.gp" && fail "pareto: the unsupported row is drawn" || ok
sed -n '/^\$front0 << EOD$/,/^EOD$/p' "$TMP/pareto.gp" >"$TMP/front"
[ "$(grep -c '^[0-9]' "$TMP/front")" -eq 1 ] && grep -q "^1317.18 994735$" "$TMP/front" && ok ||
	fail "pareto front: $(cat "$TMP/front")"
# the cost chart leaves out the rows without a price and says so
status_is 0 "$C" plot "$TMP/sweep.csv" --chart cost -o "$TMP/c2.png" --script-only &&
	grep -q "left out 4 of the 48 rows with status ok: no value in 'usd_per_mtok'" "$TMP/err" && ok ||
	fail "cost: unpriced rows are not reported: $(cat "$TMP/err")"

# the default image is beside the results, named for the chart
status_is 0 "$C" plot "$TMP/whole.csv" --chart cost --script-only && [ -s "$TMP/whole-cost.gp" ] &&
	grep -q "outfile = '$TMP/whole-cost.png'" "$TMP/whole-cost.gp" && ok || fail "default -o"
# --script-only writes the script and no image; gnuplot renders it as is
status_is 0 "$C" plot "$TMP/whole.csv" --chart pareto -o "$TMP/so.png" --script-only &&
	[ -s "$TMP/so.gp" ] && [ ! -e "$TMP/so.png" ] && ok || fail "--script-only"
if $have_gnuplot; then
	(cd "$TMP" && gnuplot so.gp) 2>"$TMP/gperr" && png_ok "$TMP/so.png" && [ ! -s "$TMP/gperr" ] && ok ||
		fail "gnuplot so.gp: $(head -3 "$TMP/gperr")"
fi
# serving's cost chart: per million output tokens, said in its title and legend; --y
# usd_per_mtok_total says prompt and output tokens; an older file's usd_per_mtok (no
# usd_per_mtok_output column) is per million output tokens too
status_is 0 "$C" plot "$TMP/rate.csv" --chart cost -o "$TMP/sc.png" --script-only &&
	grep -qx "# columns: y usd_per_mtok_output, label candidate" "$TMP/sc.gp" &&
	grep -q "^set title 'Cost per million output tokens: llama3.1-8b-serving' " "$TMP/sc.gp" &&
	grep -q "with boxxyerror lt 1 title 'Cost per million output tokens'" "$TMP/sc.gp" && ok ||
	fail "serving cost chart: $(grep title "$TMP/sc.gp")"
status_is 0 "$C" plot "$TMP/rate.csv" --chart cost --y usd_per_mtok_total -o "$TMP/st.png" --script-only &&
	grep -q "^set title 'Cost per million prompt and output tokens: " "$TMP/st.gp" && ok ||
	fail "serving cost chart, all tokens: $(grep title "$TMP/st.gp")"
# (the header renamed: the file has no usd_per_mtok_output column)
sed '1s/,usd_per_mtok_output/,renamed_usd_per_mtok_output/' "$TMP/rate.csv" >"$TMP/old-rate.csv"
status_is 0 "$C" plot "$TMP/old-rate.csv" --chart cost -o "$TMP/so2.png" --script-only &&
	grep -qx "# columns: y usd_per_mtok, label candidate" "$TMP/so2.gp" &&
	grep -q "^set title 'Cost per million output tokens: " "$TMP/so2.gp" && ok ||
	fail "an older serving file's cost chart: $(grep -e title -e columns "$TMP/so2.gp")"
# --color-by: the pareto and cost charts, one colour per provider or price type (each a
# legend entry); anything else is a usage error and writes nothing
for k in pareto cost; do
	status_is 0 "$C" plot "$TMP/whole.csv" --chart $k --color-by provider -o "$TMP/cb-$k.png" &&
		grep -q "group provider" "$TMP/cb-$k.gp" && ok || fail "--color-by provider, $k: $(cat "$TMP/err")"
	if $have_gnuplot; then
		png_ok "$TMP/cb-$k.png" && ok || fail "--color-by provider, $k: no PNG"
	fi
done
providers=$("$C" run scenarios/examples/llama3-70b-whole-run.json --format csv --columns provider 2>/dev/null | sed 1d | sort -u | wc -l)
[ "$(grep -c 'with boxxyerror lt [0-9]* title' "$TMP/cb-cost.gp")" -eq "$providers" ] && ok ||
	fail "--color-by provider: one bar clause per provider ($providers)"
for bad in "--color-by gpu" "--color-by provider --group gpu" "--color-by price_type --chart-dummy"; do
	case $bad in
	*dummy) set -- --color-by price_type --chart latency ;;
	*) set -- $bad --chart cost ;;
	esac
	status_is 2 "$C" plot "$TMP/rate.csv" "$@" -o "$TMP/cbad.png" && [ ! -e "$TMP/cbad.gp" ] && ok ||
		fail "plot $*: wanted exit 2 and nothing written"
done
# --xlabel and --ylabel: the text as it is, quoted; a control character refused
status_is 0 "$C" plot "$TMP/whole.csv" --chart pareto --xlabel "Days (it's 'quoted')" --ylabel 'Dollars `x`' \
	-o "$TMP/xl.png" --script-only &&
	grep -qxF "set xlabel 'Days (it'.\"\\047\".'s '.\"\\047\".'quoted'.\"\\047\".')'" "$TMP/xl.gp" &&
	grep -qxF "set ylabel 'Dollars \`x\`'" "$TMP/xl.gp" && ok || fail "--xlabel, --ylabel: $(grep label "$TMP/xl.gp" | head -3)"
status_is 2 "$C" plot "$TMP/whole.csv" --chart pareto --xlabel "$(printf 'a\nb')" -o "$TMP/xn.png" &&
	[ ! -e "$TMP/xn.gp" ] && grep -q -- "--xlabel" "$TMP/err" && ok || fail "--xlabel with a newline: $(cat "$TMP/err")"
# the waits chart draws the fleet's P90 objective (fleet-sacct-replay: 1 h)
grep -q "\$objective using 1:2 with lines .* title 'objective: P90 wait 1 h'" "$TMP/waits.gp" && ok ||
	fail "waits: no objective line: $(tail -3 "$TMP/waits.gp")"
# the default labels: words and units
grep -qxF "set xlabel 'Wall time, P50 (h)'" "$TMP/so.gp" && grep -qxF "set ylabel 'Cost, P50 (USD)'" "$TMP/so.gp" && ok ||
	fail "pareto's labels in words: $(grep label "$TMP/so.gp" | head -2)"
# results on standard input need -o
status_is 0 "$C" plot - --chart cost -o "$TMP/stdin.png" --script-only <"$TMP/whole.csv" &&
	grep -q "Cost per million tokens: llama3-70b-whole-run" "$TMP/stdin.gp" && ok || fail "results from stdin"
status_is 2 "$C" plot - --chart cost <"$TMP/whole.csv" && grep -q "needed when the results come from standard input" "$TMP/err" &&
	ok || fail "stdin without -o"

# nothing to chart: a header only, all oom, a missing column, a bad cell (exit 2, nothing written)
head -1 "$TMP/whole.csv" >"$TMP/empty.csv"
status_is 2 "$C" plot "$TMP/empty.csv" --chart pareto -o "$TMP/e.png" &&
	grep -q "results '$TMP/empty.csv': no rows to chart" "$TMP/err" && [ ! -e "$TMP/e.png" ] && [ ! -e "$TMP/e.gp" ] &&
	ok || fail "empty results: $(cat "$TMP/err")"
printf 'scenario,candidate,row_id,seed,status,reason,gpu,wall_time_p50_h,cost_usd_p50\ns,a,0,1,oom,"needs 99 GiB",H100-SXM,,\ns,b,1,1,oom,"needs 99 GiB",H100-SXM,,\n' >"$TMP/oom.csv"
for kind in pareto cost breakdown; do
	status_is 2 "$C" plot "$TMP/oom.csv" --chart $kind -o "$TMP/o.svg" &&
		[ ! -e "$TMP/o.svg" ] && [ ! -e "$TMP/o.gp" ] && ok || { fail "$kind of all-oom: $(cat "$TMP/err")"; continue; }
	[ $kind = pareto ] && { grep -q "no row has status ok, nothing to chart (2 rows: 2 oom)" "$TMP/err" && ok || fail "all-oom message: $(cat "$TMP/err")"; }
done
status_is 2 "$C" plot "$TMP/rate.csv" --chart pareto -o "$TMP/m.png" &&
	grep -q "results '$TMP/rate.csv': no column 'wall_time_p50_h'" "$TMP/err" && ok || fail "missing column: $(cat "$TMP/err")"
status_is 2 "$C" plot "$TMP/whole.csv" --chart scatter --x gpus --y nosuch -o "$TMP/m.png" &&
	grep -q "no column 'nosuch' (given to --y)" "$TMP/err" && ok || fail "missing --y column"
status_is 2 "$C" plot "$TMP/whole.csv" --chart bars -o "$TMP/m.png" && grep -q "chart must be pareto" "$TMP/err" && ok ||
	fail "unknown chart"
status_is 2 "$C" plot "$TMP/whole.csv" --chart cost -o "$TMP/m.pdf" && grep -q "must end in .png or .svg" "$TMP/err" && ok ||
	fail "unknown image type"
status_is 2 "$C" plot "$TMP/whole.csv" --chart pareto --deadline-h -3 && ok || fail "negative deadline"
# never over the input
cp "$TMP/whole.csv" "$TMP/keep.csv"
status_is 2 "$C" plot "$TMP/whole.csv" --chart cost -o "$TMP/whole.csv" && cmp -s "$TMP/whole.csv" "$TMP/keep.csv" &&
	ok || fail "-o the input"

# ---- input that must never run, crash, hang or abort (docs/howto/charts.md, "Bounds and safety")

# a header cell with a newline then a gnuplot command: the breakdown picks
# every frac_ column itself and wrote the name raw into a comment, so the
# rest ran (system() runs a shell). Refused: exit 2, one line naming the
# file and the column, nothing written, nothing run
printf 'candidate,status,frac_compute,"frac_x\nsystem(""touch %s/pwned"")"\na,ok,0.5,0.5\n' "$TMP" >"$TMP/inj.csv"
for so in "" --script-only; do
	status_is 2 "$C" plot "$TMP/inj.csv" --chart breakdown -o "$TMP/inj.png" $so &&
		[ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		grep -qF "results '$TMP/inj.csv': column \"frac_x\\x0asystem(" "$TMP/err" &&
		grep -q "a control character (byte 0x0a at offset 6) in the name, which plot refuses" "$TMP/err" &&
		[ ! -e "$TMP/inj.gp" ] && [ ! -e "$TMP/inj.png" ] && [ ! -e "$TMP/pwned" ] && ok ||
		fail "header injection ($so): $(cat "$TMP/err")"
done
# the same name given to --y, a carriage return in --group: refused
status_is 2 "$C" plot "$TMP/inj.csv" --chart scatter --x frac_compute --y "$(printf 'frac_x\nsystem("touch %s/pwned")' "$TMP")" \
	-o "$TMP/inj.png" && grep -q '^clustersim: --y "frac_x\\x0asystem' "$TMP/err" && [ ! -e "$TMP/pwned" ] && ok ||
	fail "--y with a newline: $(cat "$TMP/err")"
status_is 2 "$C" plot "$TMP/inj.csv" --chart scatter --x frac_compute --y frac_compute --group "$(printf 'g\r')" \
	-o "$TMP/inj.png" && grep -q "control character (byte 0x0d" "$TMP/err" && ok || fail "--group with a CR"

# text gnuplot treats specially, in every place a cell or a name can reach
# (labels, groups, the title's scenario, column names without control
# characters): each chart renders (exit 0), by plot and by gnuplot run by
# hand on the script plot wrote (quick set: the pareto chart's), and no
# command in it runs
{
	printf 'scenario,candidate,status,gpu,gpus,rate_per_s,"a`date>%s/pwned-bq`@outfile",frac_compute,' "$TMP"
	printf '"frac_x'"'"'y"\n'
	printf '"s\nsystem(""touch %s/pwned-nl"")",' "$TMP"
	printf '"'"'"'c1 @outfile\nEOD\nsystem(""touch %s/pwned-eod"")",ok,' "$TMP"
	printf '"g\\"" `touch %s/pwned-g` #'"''"'",8,1,2,0.5,0.5\n' "$TMP"
	printf '"s\nsystem(""touch %s/pwned-nl"")",c2'"''"'\\,ok,"EOD",16,2,3,0.6,0.4\n' "$TMP"
} >"$TMP/evil.csv"
for spec in "pareto --x gpus --y rate_per_s" "breakdown" "scaling --y rate_per_s" \
	"latency --y a\`date>$TMP/pwned-bq\`@outfile" "cost --y rate_per_s" \
	"scatter --x gpus --y frac_x'y --group candidate" "waits --x candidate --y rate_per_s" \
	"team-cost --x candidate --y rate_per_s" "utilization --x gpus --y frac_compute,rate_per_s"; do
	kind=${spec%% *}
	set -- $spec
	shift
	# (word splitting keeps the backquoted column name whole: no space in it)
	# (a PNG, of any size: the long labels squeeze some bar charts)
	if $have_gnuplot; then
		status_is 0 "$C" plot "$TMP/evil.csv" --chart "$kind" "$@" -o "$TMP/evil-$kind.png" &&
			png_sig "$TMP/evil-$kind.png" && ok || fail "$kind of hostile text: $(head -3 "$TMP/err")"
		if full || [ "$kind" = pareto ]; then
			rm -f "$TMP/evil-$kind.png"
			(cd "$TMP" && gnuplot "evil-$kind.gp") >/dev/null 2>"$TMP/gperr" && png_sig "$TMP/evil-$kind.png" && ok ||
				fail "gnuplot evil-$kind.gp: $(head -3 "$TMP/gperr")"
		fi
	else
		status_is 0 "$C" plot "$TMP/evil.csv" --chart "$kind" "$@" -o "$TMP/evil-$kind.png" --script-only && ok ||
			fail "$kind of hostile text"
	fi
done
ls "$TMP" | grep -q pwned && fail "a command from the input ran: $(ls "$TMP" | grep pwned)" || ok
# the quote came through as text: gnuplot's SVG has the names as they are
if $have_gnuplot; then
	status_is 0 "$C" plot "$TMP/evil.csv" --chart pareto --x gpus --y rate_per_s -o "$TMP/evil.svg" &&
		grep -qF "c2''\\" "$TMP/evil.svg" && grep -qF "'c1 @outfile EOD system(\"touch $TMP/pwned-eod\")" "$TMP/evil.svg" &&
		ok || fail "pareto names in the SVG"
fi

# a name that starts with a quote or holds two made gnuplot fail (its
# scanner ends a string at such a '')
printf "candidate,status,gpu,wall_time_p50_h,cost_usd_p50\n'a,ok,'H100,1,2\nb''c,ok,'H100,2,1\n" >"$TMP/quotes.csv"
if $have_gnuplot; then
	status_is 0 "$C" plot "$TMP/quotes.csv" --chart pareto -o "$TMP/quotes.svg" &&
		grep -q ">'a<" "$TMP/quotes.svg" && grep -q ">b''c<" "$TMP/quotes.svg" && ok ||
		fail "names with quotes: $(head -3 "$TMP/err")"
fi

# an image whose name starts with '|': gnuplot's `set output '|cmd'` would
# run cmd; the script names './|...' (run by hand here, from its folder)
mkdir "$TMP/pipe"
cp "$TMP/whole.csv" "$TMP/pipe/whole.csv"
(cd "$TMP/pipe" && "$C" plot whole.csv --chart cost -o '|touch pwned-pipe.png' --script-only) 2>"$TMP/err" &&
	grep -qxF "if (!exists(\"outfile\")) outfile = './|touch pwned-pipe.png'" "$TMP/pipe/|touch pwned-pipe.gp" && ok ||
	fail "an image starting with |: $(cat "$TMP/err")"
if $have_gnuplot; then
	(cd "$TMP/pipe" && gnuplot '|touch pwned-pipe.gp') 2>/dev/null
	[ ! -e "$TMP/pipe/pwned-pipe.png" ] && png_ok "$TMP/pipe/|touch pwned-pipe.png" && ok ||
		fail "gnuplot wrote through a pipe"
fi

# an image named "-...": its script "-....gp" went to gnuplot as an option
if $have_gnuplot; then
	(cd "$TMP/pipe" && "$C" plot whole.csv --chart cost -o -dash.png) >"$TMP/out" 2>"$TMP/err" &&
		png_ok "$TMP/pipe/-dash.png" && ok || fail "an image named -dash.png: $(cat "$TMP/err")"
fi

# a --y of 2000 characters overflowed a stack buffer in the latency chart
# (a crash); the whole name is its axis label now
long=$(printf '%02000d' 0 | tr 0 a)_p50_ms
printf 'candidate,status,rate_per_s,%s\na,ok,1,2\na,ok,2,3\n' "$long" >"$TMP/long.csv"
status_is 0 "$C" plot "$TMP/long.csv" --chart latency --y "$long" -o "$TMP/long.png" --script-only &&
	grep -qxF "set ylabel '$long'" "$TMP/long.gp" && ok || fail "a long --y: $(head -3 "$TMP/err")"

# a denormal on a log axis looped forever; 1e300 is charted, 1.7e308 and
# --deadline-h 1.797e308 (a range or a tick past them overflowed to
# infinity: an assertion, exit 134) are refused
printf 'candidate,status,wall_time_p50_h,cost_usd_p50\na,ok,5e-324,1\nb,ok,1e-320,1e300\nc,ok,1,1e-300\n' >"$TMP/tiny.csv"
for kind in pareto scatter; do
	o=""
	[ $kind = scatter ] && o="--x wall_time_p50_h --y cost_usd_p50"
	if $have_gnuplot; then
		status_is 0 timeout 60 "$C" plot "$TMP/tiny.csv" --chart $kind $o -o "$TMP/tiny-$kind.png" &&
			png_ok "$TMP/tiny-$kind.png" && ok || fail "$kind of denormals: $(head -3 "$TMP/err")"
	else
		status_is 0 timeout 60 "$C" plot "$TMP/tiny.csv" --chart $kind $o -o "$TMP/tiny-$kind.png" --script-only && ok ||
			fail "$kind of denormals"
	fi
done
printf 'candidate,status,wall_time_p50_h,cost_usd_p50\na,ok,1.7e308,1\n' >"$TMP/huge.csv"
status_is 2 "$C" plot "$TMP/huge.csv" --chart pareto -o "$TMP/huge.png" &&
	grep -qF "results '$TMP/huge.csv': line 2: column 'wall_time_p50_h': \"1.7e308\" is too large to chart (at most 1e300 in magnitude)" "$TMP/err" &&
	ok || fail "a cell of 1e308: $(cat "$TMP/err")"
status_is 2 "$C" plot "$TMP/whole.csv" --chart pareto --deadline-h 1.797e308 -o "$TMP/huge.png" &&
	grep -qF -- "--deadline-h: 1.797e+308 is too large to chart (at most 1e300)" "$TMP/err" && ok ||
	fail "--deadline-h 1.797e308: $(cat "$TMP/err")"

# input of no end: /dev/zero (one endless line) stops at the CSV line
# bound (csvreader, 1 MiB), in bounded memory (1 GB of address space where
# the build has no sanitizer, which reserves more)
(
	ldd "$C" 2>/dev/null | grep -q 'libasan\|libubsan' || ulimit -v 1000000
	exec timeout 60 "$C" plot /dev/zero --chart cost -o "$TMP/zero.png"
) >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "results '/dev/zero': line 1: " "$TMP/err" && [ ! -e "$TMP/zero.gp" ] && ok ||
	fail "/dev/zero: $(head -3 "$TMP/err")"

# no gnuplot: exit 1, the script kept, the way to render it said; a
# failing gnuplot leaves the earlier image as it was
status_is 1 env CLUSTERSIM_GNUPLOT="$TMP/no-such-gnuplot" "$C" plot "$TMP/whole.csv" --chart cost -o "$TMP/ng.png" &&
	[ -s "$TMP/ng.gp" ] && [ ! -e "$TMP/ng.png" ] && grep -q "render it with 'gnuplot $TMP/ng.gp'" "$TMP/err" &&
	[ "$(wc -l <"$TMP/err")" -eq 1 ] && ok || fail "missing gnuplot: $(cat "$TMP/err")"
status_is 1 env PATH=/nonexistent "$C" plot "$TMP/whole.csv" --chart cost -o "$TMP/np.png" &&
	[ -s "$TMP/np.gp" ] && grep -q "cannot run gnuplot 'gnuplot' (from PATH)" "$TMP/err" && ok || fail "gnuplot not on PATH: $(cat "$TMP/err")"
if $have_gnuplot; then
	cp "$TMP/cost.png" "$TMP/before.png"
	status_is 1 env CLUSTERSIM_GNUPLOT=false "$C" plot "$TMP/whole.csv" --chart cost -o "$TMP/cost.png" &&
		cmp -s "$TMP/cost.png" "$TMP/before.png" && grep -q "gnuplot 'false' failed" "$TMP/err" &&
		! ls -A "$TMP" | grep -q -e 'cost.png.tmp' -e '^\.cost\.png\.clustersim-' && ok || fail "failing gnuplot: $(cat "$TMP/err")"
fi
finish
