#!/bin/sh
# Commitments as price types the plan searches (search.price_types
# reserved-1y, reserved-3y): one shape per term per base, each priced from
# its own term's catalog row, a base without that term's row counted not in
# the catalog with the reason; a run on a commitment billed its held hours
# at the committed rate, with the reason saying what that assumes and what
# the whole term costs (docs/explanation/catalog.md, "Commitments").
. "$TOP/tests/cli/lib.sh"
ex="$TOP/scenarios/examples/llama3-8b-commit-plan.json"

# the catalog's rows the shapes must be priced from
"$CLUSTERSIM" catalog prices --format csv --columns provider,offering,type,term,usd_per_gpu_hour,status >"$TMP/prices.csv"
row() { awk -F, -v p="$1" -v o="$2" -v t="$3" -v k="$4" \
	'$1 == p && $2 == o && $3 == t && $4 == k && $6 != "superseded" { print $5; exit }' "$TMP/prices.csv"; }
a3_od=$(row gcp a3-highgpu-8g on-demand "")
a3_1y=$(row gcp a3-highgpu-8g reserved 1y)
a3_3y=$(row gcp a3-highgpu-8g reserved 3y)
p5_od=$(row aws p5.48xlarge on-demand "")
p5_3y=$(row aws p5.48xlarge reserved 3y)
p5_1y=$(row aws p5.48xlarge reserved 1y)
[ -n "$a3_od" ] && [ -n "$a3_1y" ] && [ -n "$a3_3y" ] && [ -n "$p5_od" ] && [ -n "$p5_3y" ] && [ -z "$p5_1y" ] && ok ||
	fail "catalog rows: a3 $a3_od/$a3_1y/$a3_3y p5 $p5_od/$p5_3y/'$p5_1y'"

# (a) 2 bases x 3 price types x 2 node counts = 12 shapes; p5 has no 1y row:
# its 2 reserved-1y shapes are not in the catalog, with the reason
status_is 0 "$CLUSTERSIM" plan "$ex" --show all --format csv --columns candidate,fate,fate_reason,reason && ok ||
	fail "plan"
cp "$TMP/out" "$TMP/reasons.csv"
grep -q '^plan: 12 shapes, .*2 not in the catalog' "$TMP/err" && ok || fail "shape count: $(cat "$TMP/err")"
# the reason said once, with the shapes it drops
[ "$(grep -c 'not in the catalog: ' "$TMP/err")" -eq 1 ] &&
	grep -qx "plan: not in the catalog: the catalog has no 1y reserved price for H100-SXM from aws; give usd_per_gpu_hour (shape '2 x aws-p5.48xlarge, reserved-1y' and 1 more)" "$TMP/err" &&
	ok || fail "unresolved said once: $(cat "$TMP/err")"
[ "$(grep -c ',unresolved,' "$TMP/reasons.csv")" -eq 2 ] &&
	grep -q '^"8 x aws-p5.48xlarge, reserved-1y",unresolved,price: the catalog has no 1y reserved price for H100-SXM from aws; give usd_per_gpu_hour,$' "$TMP/reasons.csv" &&
	ok || fail "p5 reserved-1y unresolved: $(grep reserved-1y "$TMP/reasons.csv")"
# the figures, without the names (they hold commas)
status_is 0 "$CLUSTERSIM" plan "$ex" --show all --format csv \
	--columns provider,nodes,price_type,usd_per_hour,billed_h,cost_usd_p50,fate && ok || fail "plan figures"
# each term its own row: usd_per_hour = the row's price x 64 GPUs (8 nodes), to 6 digits
price_is() {  # PROVIDER TYPE USD_PER_GPU_HOUR
	awk -F, -v p="$1" -v t="$2" -v u="$3" \
		'$1 == p && $2 == 8 && $3 == t { d = $4 - u * 64; if (d < 0) d = -d; found = d <= 1e-5 * u * 64 } END { exit !found }' \
		"$TMP/out" && ok || fail "$1 $2 at $3: $(cat "$TMP/out")"
}
price_is gcp on-demand "$a3_od"
price_is gcp reserved-1y "$a3_1y"
price_is gcp reserved-3y "$a3_3y"
price_is aws on-demand "$p5_od"
price_is aws reserved-3y "$p5_3y"
# billed its held hours at the committed rate: cost = usd_per_hour x billed_h
# (no failures: P50 is the one run), for every evaluated committed shape
awk -F, '$3 ~ /^reserved-/ && $7 == "evaluated" { n++; d = $6 - $4 * $5; if (d < 0) d = -d; if (d > 1e-4 * $6) bad++ }
	END { exit !(n == 5 && bad == 0) }' "$TMP/out" && ok || fail "committed cost = rate x held hours: $(cat "$TMP/out")"
# the reason: the held hours, the hours of the term left, the whole term's
# dollars for these GPUs (rate x 64 x 8766 h a year) and the break-even
# (committed / on-demand), from the catalog's figures
term_usd=$(awk -v r="$a3_1y" 'BEGIN { printf "%.0f", r * 64 * 8766 }' | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta')
even=$(awk -v r="$a3_1y" -v o="$a3_od" 'BEGIN { printf "%.1f", 100 * r / o }')
grep -F '"8 x gcp-a3-highgpu-8g, reserved-1y"' "$TMP/reasons.csv" | grep -F "commitment: billed the 1y reserved rate" |
	grep -F "h of the term's 8766 h are used elsewhere; the term costs \$$term_usd for these 64 GPUs whatever the use" |
	grep -qF "above $even% use of its hours" && ok || fail "1y reason (\$$term_usd, $even%): $(grep -F '8 x gcp-a3-highgpu-8g, reserved-1y' "$TMP/reasons.csv")"
even3=$(awk -v r="$p5_3y" -v o="$p5_od" 'BEGIN { printf "%.1f", 100 * r / o }')
grep -F '"8 x aws-p5.48xlarge, reserved-3y"' "$TMP/reasons.csv" | grep -F "of the term's 26298 h are used elsewhere" |
	grep -qF "above $even3% use" && ok || fail "3y reason ($even3%)"
# on-demand rows say nothing of a commitment
grep ', on-demand",' "$TMP/reasons.csv" | grep -q 'commitment' && fail "on-demand row with a commitment note" || ok

# (b) the answer names the commitment of each shape it picks on one
status_is 0 "$CLUSTERSIM" plan "$ex" --format csv && ok || fail "plan answer"
grep -q '^cheapest: .*reserved-3y: ' "$TMP/err" && grep -q '^2 x aws-p5.48xlarge, reserved-3y: commitment: billed the 3y reserved rate' "$TMP/err" &&
	ok || fail "answer: $(cat "$TMP/err")"

# (c) "reserved" alone keeps its meaning: the base's first reserved row
# (a3's 1y), its term in the price_type column
status_is 0 "$CLUSTERSIM" plan "$ex" --show all --format csv --columns provider,price_type,usd_per_hour,fate \
	--set 'search.price_types=["reserved"]' --set 'search.presets=["gcp-a3-highgpu-8g"]' --set 'search.nodes=[8]' &&
	ok || fail "plain reserved"
awk -F, -v u="$a3_1y" '$1 == "gcp" && $2 == "reserved-1y" { d = $3 - u * 64; if (d < 0) d = -d; f = d < 1e-4 }
	END { exit !f }' "$TMP/out" && ok || fail "plain reserved: $(cat "$TMP/out")"

# (d) run: a candidate's reserved price with a term shows it in price_type
status_is 0 "$CLUSTERSIM" run "$ex" --format csv --columns candidate,price_type \
	--set 'candidates[0].price={"type":"reserved","term":"3y"}' && ok || fail "run 3y"
grep -qx 'a3 on-demand,reserved-3y' "$TMP/out" && ok || fail "run price_type: $(cat "$TMP/out")"

# (e) a term the catalog does not spell: exit 2 naming the path and the value, nothing written
status_is 2 "$CLUSTERSIM" plan "$ex" --set 'search.price_types=["on-demand","reserved-2y"]' -o "$TMP/none.csv" && ok ||
	fail "reserved-2y"
grep -q "search.price_types\[1\]: expected on-demand, spot, reserved, reserved-1y, reserved-3y or capacity-block, got \"reserved-2y\"" "$TMP/err" &&
	[ ! -e "$TMP/none.csv" ] && ok || fail "reserved-2y message: $(cat "$TMP/err")"
status_is 2 "$CLUSTERSIM" plan "$ex" --set 'search.price_types=["reserved-"]' && ok || fail "reserved-"

# (f) a service on a commitment, priced per hour: the reason says it assumes
# every hour of the term used, and the term's dollars for its 8 GPUs
status_is 0 "$CLUSTERSIM" run "$TOP/scenarios/examples/llama3.1-8b-serving.json" --format csv --columns price_type,reason \
	--set 'candidates=[{"name":"a3 1y","preset":"gcp-a3-highgpu-8g","price":{"type":"reserved","term":"1y"}}]' && ok ||
	fail "serving 1y"
serve_usd=$(awk -v r="$a3_1y" 'BEGIN { printf "%.0f", r * 8 * 8766 }' | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta')
grep '^reserved-1y,' "$TMP/out" | grep -F "priced per hour at the 1y reserved rate" |
	grep -qF "the term costs \$$serve_usd for these 8 GPUs whatever the use" && ok || fail "serving reason (\$$serve_usd): $(cat "$TMP/out")"
# (g) a fleet at each term (fleet-commitment.json): each committed row names
# its term in price_type and its own break-even, committed / on-demand of
# the catalog rows, against the job mix's one use
status_is 0 "$CLUSTERSIM" run "$TOP/scenarios/examples/fleet-commitment.json" --format csv --columns team,price_type,reason &&
	ok || fail "fleet at each term"
even1=$(awk -v r="$a3_1y" -v o="$a3_od" 'BEGIN { printf "%.1f", 100 * r / o }')
even3=$(awk -v r="$a3_3y" -v o="$a3_od" 'BEGIN { printf "%.1f", 100 * r / o }')
od4=$(awk -v o="$a3_od" 'BEGIN { printf "%.4g", o }')
grep '^,reserved-1y,' "$TMP/out" | grep -qF "a 1y commitment at \$$a3_1y/GPU-h beats on-demand at \$$od4/GPU-h above $even1% use" &&
	grep '^,reserved-3y,' "$TMP/out" | grep -qF "a 3y commitment at \$$a3_3y/GPU-h beats on-demand at \$$od4/GPU-h above $even3% use" &&
	ok || fail "fleet terms ($even1%, $even3%): $(grep '^,' "$TMP/out")"
finish
