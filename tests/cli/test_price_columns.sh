#!/bin/sh
# The price row a cost used, on every priced row of run, plan and sweep:
# `provider` (the catalog price's; empty for a price the scenario gives
# without one) and `price_type`; both empty where there is no price. plan
# has price_type once, where its rows have always had it.
. "$TOP/tests/cli/lib.sh"

cat >"$TMP/cat.json" <<'JSON'
{ "prices": [
    { "provider": "acme", "offering": "a8", "gpu": "H100-SXM", "gpus_per_instance": 8, "type": "on-demand",
      "usd_per_gpu_hour": 2.0, "observed": "2026-11-01", "source": "a test's own price" },
    { "provider": "acme", "offering": "a8", "gpu": "H100-SXM", "gpus_per_instance": 8, "type": "spot",
      "usd_per_gpu_hour": 1.0, "observed": "2026-11-01", "source": "a test's own price" } ] }
JSON
cat >"$TMP/s.json" <<'JSON'
{ "name": "p", "seed": 1,
  "workload": { "kind": "training", "model": "llama3-8b", "precision": "bf16", "seq_len": 4096,
                "global_batch_tokens": 4194304, "tokens": 1e10, "parallelism": { "tp": 1, "pp": 1, "dp": "auto" } },
  "candidates": [
    { "name": "od", "gpu": "H100-SXM", "gpus_per_node": 8, "nodes": 1, "nic": "ib-ndr", "nics_per_node": 8,
      "price": { "provider": "acme" } },
    { "name": "spot", "gpu": "H100-SXM", "gpus_per_node": 8, "nodes": 1, "price": { "provider": "acme", "type": "spot" } },
    { "name": "own", "gpu": "H100-SXM", "gpus_per_node": 8, "nodes": 1, "price": { "usd_per_gpu_hour": 3 } },
    { "name": "none", "gpu": "H100-SXM", "gpus_per_node": 8, "nodes": 1 } ] }
JSON
rows_want='candidate,provider,price_type
od,acme,on-demand
spot,acme,spot
own,,on-demand
none,,'
for mode in "" --dry-run; do
	status_is 0 "$CLUSTERSIM" run "$TMP/s.json" $mode --catalog "$TMP/cat.json" --format csv \
		--columns candidate,provider,price_type && [ "$(cat "$TMP/out")" = "$rows_want" ] && ok ||
		fail "run $mode: $(cat "$TMP/out")"
done
# plan: one price_type column, after why as before; provider with run's columns
status_is 0 "$CLUSTERSIM" plan "$TMP/s.json" --catalog "$TMP/cat.json" --format csv --show all -o "$TMP/plan.csv" &&
	ok || fail "plan"
head -1 "$TMP/plan.csv" | tr , '\n' >"$TMP/cols"
[ "$(grep -cx price_type "$TMP/cols")" -eq 1 ] && [ "$(grep -cx provider "$TMP/cols")" -eq 1 ] &&
	[ "$(grep -A1 -x why "$TMP/cols")" = "why
price_type" ] && ok || fail "plan's columns: $(head -1 "$TMP/plan.csv")"
"$CLUSTERSIM" plan "$TMP/s.json" --catalog "$TMP/cat.json" --format csv --show all --columns candidate,provider,price_type \
	2>/dev/null | sed 1d | sort >"$TMP/pp"
[ "$(cat "$TMP/pp")" = "none,,on-demand
od,acme,on-demand
own,,on-demand
spot,acme,spot" ] && ok || fail "plan's provider and price_type: $(cat "$TMP/pp")"
# sweep: the rows carry them too
cat >"$TMP/sw.json" <<JSON
{ "base": "s.json", "axes": { "candidates[0].nodes": [1, 2] } }
JSON
status_is 0 "$CLUSTERSIM" sweep "$TMP/sw.json" --catalog "$TMP/cat.json" -o "$TMP/sw.csv" && ok || fail "sweep"
head -1 "$TMP/sw.csv" | tr , '\n' | grep -qx provider && [ "$(grep -c ',acme,on-demand,' "$TMP/sw.csv")" -eq 2 ] && ok ||
	fail "sweep rows: $(cut -c1-200 "$TMP/sw.csv")"
finish
