#!/bin/sh
# demo.sh [CLUSTERSIM] [-o DIR]: make demo's answer to a renter's question,
# after the build: which cluster to rent to pre-train Llama 3 70B on 1T tokens
# within 30 days and $1.1M (scenarios/examples/rent-llama3-70b.json)?
#
# Prints, in order: (1) the comparison of the candidates (plan, step time,
# MFU, wall time and cost at P50 and P90, deadline and budget met), (2)
# clustersim plan's verdicts and why, (3) clustersim validate's summary, (4)
# the charts written to DIR (default out/ at the top of the checkout), their
# paths and what each shows. DIR is created if missing; the demo writes only
# files named demo-* there (each through clustersim's atomic writes, so a
# rerun replaces exactly those). Without gnuplot (or CLUSTERSIM_GNUPLOT naming
# no program) it writes the chart scripts, says how to render them, and still
# exits 0. About 2 s on 2 cores.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=
dir=
while [ $# -gt 0 ]; do
	case $1 in
	-o) [ $# -ge 2 ] || { echo "demo.sh: -o needs a directory" >&2; exit 2; }
	    dir=$2; shift 2 ;;
	-*) echo "usage: demo.sh [CLUSTERSIM] [-o DIR]" >&2; exit 2 ;;
	*)  bin=$1; shift ;;
	esac
done
bin=${bin:-$top/build/clustersim}
dir=${dir:-$top/out}
# absolute paths: the commands below run from the top of the checkout
case $bin in /*) ;; */*) bin=$(pwd)/$bin ;; esac
case $dir in /*) ;; *) dir=$(pwd)/$dir ;; esac
# the directory as the caller would type it (out/... for make demo)
show=${dir#"$(pwd)"/}
if [ -e "$dir" ] && [ ! -d "$dir" ]; then
	echo "demo.sh: '$dir' exists and is not a directory; give another with -o DIR" >&2
	exit 2
fi
mkdir -p "$dir"
cd "$top"

ex=scenarios/examples/rent-llama3-70b.json
sw=scenarios/examples/sweep-llama3.1-8b-rate.json
err=$(mktemp)
trap 'rm -f "$err" "$err.plan"' EXIT

echo "== clustersim $("$bin" --version | cut -d' ' -f2): which cluster to rent to pre-train Llama 3 70B on 1T tokens"
echo "   within 720 h (30 days) and \$1,100,000? ($ex)"
echo

echo "== (1) the candidates compared: plan, one step, the whole run with failures (P50, P90 of 20 trials)"
"$bin" run "$ex" --format csv -o "$dir/demo-runs.csv" 2>"$err"
# the table from the columns it needs, read by name from the rows just
# written (RFC 4180 fields: a quoted one may hold commas and doubled
# quotes: tools/csv.awk): hours and dollars as plan's lines write them
awk -f "$top/tools/csv.awk" -f /dev/stdin "$dir/demo-runs.csv" <<'AWK'
	function usd(x,   s, r) {
		s = sprintf("%.0f", x); r = ""
		while (length(s) > 3) { r = "," substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) }
		return "$" s r
	}
	function yn(b) { return b == "true" ? "yes" : b == "false" ? "no" : "-" }
	function c(name) { return v[col[name]] }
	function stor(x) { return x == "" ? "-" : x < 1000 ? sprintf("$%.0f", x) : usd(x) }
	BEGIN { f = "%-20s %5s  %-16s  %8s  %6s  %-16s  %-25s  %-11s  %-14s %s\n"
		printf f, "candidate", "gpus", "plan tp/pp/cp/dp", "step (s)", "MFU", "wall P50/P90 (h)", "cost P50/P90", "storage P50", "meets deadline", "meets budget" }
	NR == 1 { n = split_csv($0, h); for (k = 1; k <= n; k++) col[h[k]] = k; next }
	{
		split_csv($0, v)
		if (c("status") != "ok") { printf "%-20s %5s  %s\n", c("candidate"), c("gpus"), c("status"); next }
		printf f, c("candidate"), c("gpus"), c("tp") "/" c("pp") "/" c("cp") "/" c("dp"),
			sprintf("%.1f", c("step_time_s")), sprintf("%.1f%%", 100 * c("mfu")),
			sprintf("%5.0f / %-5.0f", c("wall_time_p50_h"), c("wall_time_p90_h")),
			sprintf("%11s / %s", usd(c("cost_usd_p50")), usd(c("cost_usd_p90"))),
			stor(c("storage_usd_p50")), yn(c("meets_deadline_p50")), yn(c("meets_budget_p50")) }
AWK
echo "(P50 and P90 over 20 Monte Carlo trials of failures at Llama 3's rate, asynchronous checkpoints,"
echo " and the price's band: its age since observed, a marketplace's spread;"
echo " deadline and budget: met at P50; storage: the checkpoint held on its tier for the run, at the tier's"
echo " price, not in the cost column (-: the catalog has no price for that tier); all columns: $show/demo-runs.csv)"
# the price warnings, once each (they name every candidate of a provider)
if [ -s "$err" ]; then
	echo "prices to check before renting:"
	sed -e 's/^clustersim: warning: //' -e "s/^candidate '[^']*': //" "$err" | sort -u | sed 's/^/  /'
fi
echo

echo "== (2) the answer (clustersim plan)"
"$bin" plan "$ex" --format csv -o "$dir/demo-plan.csv" 2>"$err.plan"
grep '^plan: ' "$err.plan" || true
echo "(run and plan give every candidate the same failure draws, so the figures here are those of (1))"
echo

echo "== (3) how close the model comes to published runs (clustersim validate)"
{ "$bin" validate --format csv >/dev/null; } 2>&1  # its summary is on standard error
echo

echo "== (4) the charts"
"$bin" sweep "$sw" -o "$dir/demo-serving.csv" 2>/dev/null
gp=${CLUSTERSIM_GNUPLOT:-gnuplot}
only=
if ! command -v "$gp" >/dev/null 2>&1; then
	only=--script-only
fi
w=$((${#show} + 20))
# chart KIND RESULTS WHAT [OPTIONS...]: one chart, its path and what it shows
chart() {
	kind=$1 res=$2 what=$3
	shift 3
	"$bin" plot "$dir/$res" --chart "$kind" -o "$dir/demo-$kind.png" $only "$@"
	if [ -z "$only" ]; then
		printf "  %-${w}s %s\n" "$show/demo-$kind.png" "$what"
	else
		printf "  %-${w}s %s\n" "$show/demo-$kind.gp" "$what"
	fi
}
chart pareto demo-runs.csv "wall time against cost, the Pareto front circled, the deadline and budget lines" \
	--deadline-h 720 --budget-usd 1100000
chart breakdown demo-runs.csv "where each candidate's held GPU time goes (compute, exposed communication, bubble, ...)"
chart scaling demo-runs.csv "tokens/s against GPUs per GPU type, beside ideal linear scaling"
chart cost demo-runs.csv "dollars per million training tokens, cheapest first"
chart latency demo-serving.csv "serving Llama 3.1 8B on one L40S, H100, H200: TTFT and TPOT P50/P99 against requests/s, the SLO" \
	--slo-ttft-ms 500 --slo-tpot-ms 50
echo "  (the results they chart: $show/demo-runs.csv, demo-plan.csv, demo-serving.csv)"
if [ -n "$only" ]; then
	echo "note: gnuplot is not installed ('$gp' not found), so the charts are not drawn: the scripts above"
	echo "      hold their data. Install it (Debian: sudo apt-get install gnuplot-nox, or make deps) and run"
	echo "      gnuplot $show/demo-pareto.gp (and the others), or rerun make demo."
fi
echo
echo "Next: the whole market (14 instance types at 1 to 128 nodes, 168 shapes):"
echo "  ${bin#"$top"/} plan scenarios/examples/llama3-70b-plan.json --budget-usd 1100000"
