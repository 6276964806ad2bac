#!/bin/sh
# Warnings a person reads once: one line per distinct stale or undated
# price, however many candidates or searched shapes use it (naming the
# first and how many more), none when a command only lists its columns;
# and a fleet's reason said once in a table (on the fleet's row), while
# CSV keeps it on every row for scripts.
. "$TOP/tests/cli/lib.sh"

# A catalog of three prices: one observed over a year before as_of, one
# undated, one recent (a test's own figures, not anyone's price list).
cat >"$TMP/cat.json" <<'JSON'
{ "as_of": "2026-12-01",
  "prices": [
    { "provider": "acme", "offering": "a8", "gpu": "H100-SXM", "gpus_per_instance": 8, "type": "on-demand",
      "usd_per_gpu_hour": 2.0, "observed": "2024-06-01", "source": "a test's own price" },
    { "provider": "zeta", "offering": "z8", "gpu": "H100-SXM", "gpus_per_instance": 8, "type": "on-demand",
      "usd_per_gpu_hour": 2.5, "observed": "", "source": "a test's own price" },
    { "provider": "newco", "offering": "n8", "gpu": "H100-SXM", "gpus_per_instance": 8, "type": "on-demand",
      "usd_per_gpu_hour": 3.0, "observed": "2026-11-01", "source": "a test's own price" } ] }
JSON
# nine candidates: three node counts at each of the three prices
{
	printf '{"name": "w", "seed": 1, "workload": {"kind": "training", "model": "llama3-8b", "precision": "bf16", '
	printf '"seq_len": 4096, "global_batch_tokens": 4194304, "tokens": 1e10, '
	printf '"parallelism": {"tp": 1, "pp": 1, "dp": "auto"}}, "candidates": ['
	sep=""
	for p in acme zeta newco; do
		for n in 1 2 4; do
			printf '%s{"name": "%s x %s", "gpu": "H100-SXM", "gpus_per_node": 8, "nodes": %s, "nic": "ib-ndr", ' \
				"$sep" "$n" "$p" "$n"
			printf '"nics_per_node": 8, "price": {"provider": "%s"}}' "$p"
			sep=", "
		done
	done
	printf ']}\n'
} >"$TMP/nine.json"

for cmd in run plan; do
	status_is 0 "$CLUSTERSIM" $cmd "$TMP/nine.json" --catalog "$TMP/cat.json" --format csv -o "$TMP/$cmd.csv" &&
		ok || fail "$cmd on nine candidates"
	grep '^clustersim: warning:' "$TMP/err" >"$TMP/w"
	# two prices are old or undated: two lines (not six, one per candidate using them)
	[ "$(wc -l <"$TMP/w")" -eq 2 ] && ok || fail "$cmd: $(wc -l <"$TMP/w") warning lines, wanted 2: $(cat "$TMP/w")"
	grep -qx "clustersim: warning: the acme a8 on-demand price (a test's own price) was observed 2024-06-01, over a year before the catalog's as_of 2026-12-01 (candidate '1 x acme' and 2 more)" "$TMP/w" &&
		ok || fail "$cmd: the old price's line: $(cat "$TMP/w")"
	grep -qx "clustersim: warning: the zeta z8 on-demand price (a test's own price) has no observation date, so its age is unknown (candidate '1 x zeta' and 2 more)" "$TMP/w" &&
		ok || fail "$cmd: the undated price's line: $(cat "$TMP/w")"
	! grep -q newco "$TMP/w" && ok || fail "$cmd: a recent price warned about"
	# --columns help lists the columns and says nothing else
	status_is 0 "$CLUSTERSIM" $cmd "$TMP/nine.json" --catalog "$TMP/cat.json" --columns help &&
		[ ! -s "$TMP/err" ] && ok || fail "$cmd --columns help: $(head -3 "$TMP/err")"
done

# A search's shapes (plan): the candidates' prices are said once by the
# candidates, never again for the shapes made from them.
sed 's/"candidates": \[/"search": {"nodes": [1, 2, 4, 8]}, "candidates": [/' "$TMP/nine.json" >"$TMP/search.json"
status_is 0 "$CLUSTERSIM" plan "$TMP/search.json" --catalog "$TMP/cat.json" --format csv -o "$TMP/s.csv" &&
	[ "$(grep -c '^clustersim: warning:' "$TMP/err")" -eq 2 ] && ok ||
	fail "plan over a search: $(grep -c '^clustersim: warning:' "$TMP/err") warning lines, wanted 2"
# the built-in catalog's searched presets: each warned price on one line
status_is 0 "$CLUSTERSIM" plan scenarios/examples/llama3-70b-plan.json --format csv -o "$TMP/p.csv" && ok ||
	fail "plan llama3-70b-plan"
grep '^clustersim: warning:' "$TMP/err" | sed 's/ ([a-z]* .*)$//' >"$TMP/texts"
[ "$(sort "$TMP/texts" | uniq -d | wc -l)" -eq 0 ] && ok || fail "a price warned twice: $(sort "$TMP/texts" | uniq -d)"

# A fleet's reason: once in a table, on the fleet's row; every row in CSV.
f=scenarios/examples/fleet-three-teams.json
status_is 0 "$CLUSTERSIM" run $f --format csv --columns candidate,team,class,reason -o "$TMP/fleet.csv" && ok ||
	fail "fleet csv"
# (the table's reason first: a row with one starts with it, one without with spaces)
status_is 0 "$CLUSTERSIM" run $f --format table --columns reason,candidate,team,class && ok || fail "fleet table"
# (the reasons, in CSV: the fleet rows' and how many rows there are)
rows=$(sed 1d "$TMP/fleet.csv" | wc -l)
fleet_rows=$(sed 1d "$TMP/fleet.csv" | grep -c '^[^,]*,,,')
[ "$rows" -gt "$fleet_rows" ] && [ "$fleet_rows" -gt 0 ] && ok || fail "fleet rows: $rows rows, $fleet_rows fleets"
# every CSV row has a reason; in the table only the fleet rows do
[ "$(sed 1d "$TMP/fleet.csv" | grep -c ',$')" -eq 0 ] && ok || fail "a CSV row without its reason"
reasons_in_table=$(sed 1d "$TMP/out" | grep -c '^[^ ]')
[ "$reasons_in_table" -eq "$fleet_rows" ] && ok ||
	fail "the table says the reason $reasons_in_table times, wanted once per fleet ($fleet_rows): $(cat "$TMP/out")"

finish
