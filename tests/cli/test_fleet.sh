#!/bin/sh
# Fleet sizing from the command line, on the README's two examples: a fleet
# gives its row, one per team and one per job class; the teams' and the
# classes' GPU-hours and dollars each add up to the fleet's; a job that
# never waits waits exactly 0; run --series writes the utilization over
# time, whose mean over the window is the row's utilization; a replayed trace holds exactly the GPU-hours its rows say; the
# sized node count meets the P90 wait objective and one node fewer does not
# (each run as its own candidate); the same seed gives the same bytes; a bad
# trace row stops the run (exit 2, one line naming the trace and its line);
# the objective holds for every job class, not only per team (and the
# scenario may say otherwise); a candidate too small for the jobs still
# gets the sizing answer; partition_teams and a stated team decide an
# sacct job's team over its Partition.
. "$TOP/tests/cli/lib.sh"

ex="$TOP/scenarios/examples"
cols=candidate,team,status,jobs_done,gpu_hours,usd_total,held_gpu_hours,idle_gpu_hours,utilization,queue_wait_p90_h,meets_objective,sized_nodes,nodes,class,idle_usd

# conserved FILE: for each ok candidate, the sum over its team rows (and
# over its class rows) of gpu_hours, usd_total and idle_usd equals the
# fleet row's (to CSV's six digits), utilization = gpu_hours / held and
# idle = held - gpu_hours, never above 1
conserved() {
	awk -F, 'NR > 1 && $3 == "ok" {
		if ($2 == "") { c = $1; order[++n] = c; gh[c] = $5; usd[c] = $6; held[c] = $7; idle[c] = $8; u[c] = $9; iu[c] = $15 }
		else if ($14 == "") { tgh[$1] += $5; tusd[$1] += $6; tiu[$1] += $15; teams[$1]++ }
		else { cgh[$1] += $5; cusd[$1] += $6; ciu[$1] += $15; classes[$1]++ }
	} END {
		for (i = 1; i <= n; i++) {
			c = order[i]
			if (teams[c] == 0) { print c ": no team rows"; bad = 1 }
			if (classes[c] == 0) { print c ": no class rows"; bad = 1 }
			if ((tgh[c] - gh[c]) ^ 2 > (1e-5 * gh[c]) ^ 2) { print c ": team GPU-hours " tgh[c] " != " gh[c]; bad = 1 }
			if ((tusd[c] - usd[c]) ^ 2 > (1e-5 * usd[c]) ^ 2) { print c ": team dollars " tusd[c] " != " usd[c]; bad = 1 }
			if ((cgh[c] - gh[c]) ^ 2 > (1e-5 * gh[c]) ^ 2) { print c ": class GPU-hours " cgh[c] " != " gh[c]; bad = 1 }
			if ((cusd[c] - usd[c]) ^ 2 > (1e-5 * usd[c]) ^ 2) { print c ": class dollars " cusd[c] " != " usd[c]; bad = 1 }
			if ((tiu[c] - iu[c]) ^ 2 > (1e-5 * iu[c]) ^ 2 || (ciu[c] - iu[c]) ^ 2 > (1e-5 * iu[c]) ^ 2) { print c ": idle dollars " tiu[c] ", " ciu[c] " != " iu[c]; bad = 1 }
			# the idle share is the idle GPU-hours at the held hours rate
			if ((iu[c] - usd[c] * idle[c] / held[c]) ^ 2 > (1e-5 * usd[c]) ^ 2) { print c ": idle_usd " iu[c]; bad = 1 }
			if ((held[c] - gh[c] - idle[c]) ^ 2 > (1e-5 * held[c]) ^ 2) { print c ": held != allocated + idle"; bad = 1 }
			if ((u[c] - gh[c] / held[c]) ^ 2 > 1e-10 || u[c] > 1) { print c ": utilization " u[c]; bad = 1 }
		}
		exit bad || n == 0
	}' "$1"
}

# sized FILE CANDIDATE_INDEX SCENARIO: run the scenario with candidate i at
# its row's sized_nodes and at one node fewer: the first meets the
# objective, the second does not (or cannot hold the jobs at all)
sized() {
	n=$(awk -F, -v c="$2" 'NR > 1 && $2 == "" && $3 == "ok" { if (k++ == c) print $12 }' "$1")
	if [ -z "$n" ]; then
		fail "$3: candidate $2 has no sized_nodes"
		return
	fi
	expect_status 0 "$CLUSTERSIM" run "$3" --format csv --columns "$cols" --set "candidates[$2].nodes=$n" ||
		return
	awk -F, -v n="$n" 'NR > 1 && $2 == "" && $13 == n { found = 1; exit !($3 == "ok" && $11 == "true") }
		END { exit !found }' "$TMP/out" && ok || fail "$3: $n nodes do not meet the objective: $(cat "$TMP/out")"
	m=$((n - 1))
	"$CLUSTERSIM" run "$3" --format csv --columns "$cols" --set "candidates[$2].nodes=$m" >"$TMP/out" 2>"$TMP/err"
	awk -F, -v n="$m" 'NR > 1 && $2 == "" && $13 == n { found = 1; exit !($3 == "invalid" || $11 == "false") }
		END { exit !found }' "$TMP/out" && ok || fail "$3: $m nodes (one fewer) meet the objective too: $(cat "$TMP/out")"
}

# (a) three teams on 32, 48 and 64 nodes
status_is 0 "$CLUSTERSIM" run "$ex/fleet-three-teams.json" --format csv --columns "$cols" && ok || fail "three teams"
cp "$TMP/out" "$TMP/three.csv"
# 3 candidates x (the fleet + 3 teams + 3 classes) rows
[ "$(awk 'END { print NR }' "$TMP/three.csv")" -eq 22 ] && ok || fail "three teams: rows: $(cat "$TMP/three.csv")"
# 32 nodes cannot hold the 256-GPU run beside the service: invalid, with the sizing answer
# the ok candidates give (the same jobs), in its column and its reason
grep -q '^32 x H100,,invalid,' "$TMP/three.csv" && ok || fail "32 nodes: $(cat "$TMP/three.csv")"
awk -F, 'NR > 1 && $2 == "" { s[$3 == "ok" ? "ok" : $1] = $12 } END { exit !(s["32 x H100"] != "" && s["32 x H100"] == s["ok"]) }' \
	"$TMP/three.csv" && ok || fail "32 nodes: no sizing answer: $(cat "$TMP/three.csv")"
"$CLUSTERSIM" run "$ex/fleet-three-teams.json" --format csv --columns candidate,team,reason 2>/dev/null |
	grep -q '^32 x H100,,"needs at least 35 nodes (the largest job asks for 256 GPUs beside the services. nodes), the candidate has 32; 99 nodes of this type meet the P90 wait objective of 24 h for every class and team (sized_nodes)"$' &&
	ok || fail "32 nodes: reason"
# each class row names its class and its team, in the classes' order
[ "$(awk -F, 'NR > 1 && $1 == "48 x H100" && $14 != "" { printf "%s:%s ", $14, $2 }' "$TMP/three.csv")" = \
	"pretrain-70b:research lora-70b:applied chat-70b:product " ] && ok || fail "class rows: $(cat "$TMP/three.csv")"
# the fine-tunes never wait: exactly 0, not a rounding error of the clock
[ "$(awk -F, 'NR > 1 && $1 == "48 x H100" && $14 == "lora-70b" { print $10 }' "$TMP/three.csv")" = 0 ] && ok ||
	fail "lora-70b waits: $(cat "$TMP/three.csv")"
# --series: one row per bucket of each ok candidate; over the window (48 h
# to 720 h, 1 h buckets) the allocated fraction's mean is the utilization
status_is 0 "$CLUSTERSIM" run "$ex/fleet-three-teams.json" --format csv --columns "$cols" --series "$TMP/series.csv" && ok ||
	fail "--series"
[ "$(head -1 "$TMP/series.csv")" = "time_h,candidate,allocated_frac,busy_frac,queued_jobs" ] && ok || fail "series header"
for cand in "48 x H100" "64 x H100"; do
	awk -F, -v c="$cand" 'NR == FNR { if (FNR > 1 && $1 == c && $2 == "") u = $9; next }
		FNR > 1 && $2 == c && $1 >= 48 && $1 < 720 { s += $3; n++; if ($3 > 1 || $4 > $3 + 1e-6) bad = 1 }
		END { exit bad || n != 672 || (s / n - u) ^ 2 > (1e-5 * u) ^ 2 }' "$TMP/out" "$TMP/series.csv" && ok ||
		fail "series of $cand: mean allocated over the window != utilization"
done
grep -q '^[0-9.]*,32 x H100,' "$TMP/series.csv" && fail "series of the invalid candidate" || ok
# refused: the scenario, a trace, the -o file, another kind, --dry-run (exit 2, nothing written)
status_is 2 "$CLUSTERSIM" run "$ex/fleet-three-teams.json" --series "$ex/fleet-three-teams.json" && ok || fail "--series the scenario"
status_is 2 "$CLUSTERSIM" run "$ex/fleet-three-teams.json" --series "$TMP/s2.csv" -o "$TMP/s2.csv" &&
	[ ! -e "$TMP/s2.csv" ] && ok || fail "--series the -o file"
status_is 2 "$CLUSTERSIM" run "$ex/fleet-three-teams.json" --series "$TMP/s3.csv" --dry-run && [ ! -e "$TMP/s3.csv" ] && ok ||
	fail "--series --dry-run"
status_is 2 "$CLUSTERSIM" run "$ex/llama3-70b-whole-run.json" --series "$TMP/s4.csv" && grep -q "writes a fleet" "$TMP/err" &&
	[ ! -e "$TMP/s4.csv" ] && ok || fail "--series of a training run: $(cat "$TMP/err")"
conserved "$TMP/three.csv" && ok || fail "three teams: not conserved: $(cat "$TMP/three.csv")"
# every candidate runs the same jobs (common random numbers): the same GPU-hours and sizing answer
awk -F, 'NR > 1 && $2 == "" && $3 == "ok" { g[$5]++; s[$12]++ } END { exit !(length(g) == 1 && length(s) == 1) }' \
	"$TMP/three.csv" && ok || fail "three teams: candidates ran different jobs: $(cat "$TMP/three.csv")"
sized "$TMP/three.csv" 0 "$ex/fleet-three-teams.json"

# (b) a synthetic sacct export on the nodes it ran on and on 30% fewer
status_is 0 "$CLUSTERSIM" run "$ex/fleet-sacct-replay.json" --format csv --columns "$cols" && ok || fail "sacct replay"
cp "$TMP/out" "$TMP/sacct.csv"
conserved "$TMP/sacct.csv" && ok || fail "sacct replay: not conserved: $(cat "$TMP/sacct.csv")"
# the GPU-hours are the trace's own: sum of gres/gpu x (End - Start) over its jobs (not steps)
want=$(awk -F'|' '
	function days(y, m, d) { if (m <= 2) y--; era = int(y / 400); yoe = y - era * 400
		doy = int((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
		return era * 146097 + yoe * 365 + int(yoe / 4) - int(yoe / 100) + doy }
	function t(s) { dd = days(substr(s, 1, 4) + 0, substr(s, 6, 2) + 0, substr(s, 9, 2) + 0)
		return dd * 86400 + substr(s, 12, 2) * 3600 + substr(s, 15, 2) * 60 + substr(s, 18, 2) }
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	index($col["JobID"], ".") == 0 && $col["Start"] ~ /^2/ && $col["End"] ~ /^2/ &&
	match($col["AllocTRES"], /gres\/gpu=[0-9]+/) {
		g = substr($col["AllocTRES"], RSTART + 9, RLENGTH - 9); sum += g * (t($col["End"]) - t($col["Start"])); n++
	} END { printf "%d %.6f\n", n, sum / 3600 }' "$ex/fleet-sacct-synthetic.txt")
awk -F, -v want="$want" 'BEGIN { split(want, w, " ") }
	NR > 1 && $2 == "" { k++; if ($3 != "ok" || $4 != w[1] || ($5 - w[2]) ^ 2 > (1e-5 * w[2]) ^ 2) bad = 1 }
	END { exit bad || k != 2 }' "$TMP/sacct.csv" && ok ||
	fail "sacct replay: wanted $want (jobs, GPU-hours) on both candidates: $(cat "$TMP/sacct.csv")"
# the steps, the CPU-only job and the two that never ran are said
status_is 0 "$CLUSTERSIM" run "$ex/fleet-sacct-replay.json" --format csv --columns candidate,team,reason && ok ||
	fail "sacct replay reasons"
[ "$(grep -c 'the trace.s 292 job steps, 1 jobs without GPUs and 2 jobs never started or not ended are not replayed' "$TMP/out")" -eq 10 ] &&
	ok || fail "sacct replay: skipped rows not said: $(cat "$TMP/out")"
# 30% fewer nodes never shorten the P90 wait
awk -F, 'NR > 1 && $2 == "" { p[$13] = $10 } END { exit !(p[11] >= p[16]) }' "$TMP/sacct.csv" && ok ||
	fail "sacct replay: fewer nodes, shorter waits: $(cat "$TMP/sacct.csv")"
sized "$TMP/sacct.csv" 1 "$ex/fleet-sacct-replay.json"

# (a2) the objective holds for every class, not only per team: with the
# fine-tunes in research too, research's P90 over its 156 jobs is 0 while its
# 10 pre-training runs wait 184 h at P90; the verdict is false and names the
# class, and the sizing answer (its nodes meet it, one fewer does not) is the
# same 98 nodes as when the classes were teams of their own
sed 's/"team": "applied"/"team": "research"/' "$ex/fleet-three-teams.json" >"$TMP/two.json"
status_is 0 "$CLUSTERSIM" run "$TMP/two.json" --format csv --columns "$cols" && ok || fail "two classes in one team"
cp "$TMP/out" "$TMP/two.csv"
awk -F, 'NR > 1 && $1 == "48 x H100" { k = $2 "/" $14; w[k] = $10; m[k] = $11; s[k] = $12 }
	END { exit !(w["/"] == 0 && m["/"] == "false" && s["/"] == 99 && w["research/"] == 0 && m["research/"] == "true" &&
		     w["research/pretrain-70b"] > 24 && m["research/pretrain-70b"] == "false" && m["research/lora-70b"] == "true") }' \
	"$TMP/two.csv" && ok || fail "two classes in one team: $(cat "$TMP/two.csv")"
"$CLUSTERSIM" run "$TMP/two.json" --format csv --columns candidate,team,reason 2>/dev/null |
	grep -q '^48 x H100,,"the P90 wait objective of 24 h is not met: class ""pretrain-70b"" waits 184 h at P90; 99 nodes' &&
	ok || fail "two classes in one team: reason"
sized "$TMP/two.csv" 1 "$TMP/two.json"
# the user may say otherwise: applies_to "fleet" checks the P90 over all jobs only
status_is 0 "$CLUSTERSIM" run "$TMP/two.json" --format csv --columns "$cols" --set 'workload.fleet.objective.applies_to="fleet"' && ok ||
	fail "applies_to fleet"
awk -F, 'NR > 1 && $1 == "48 x H100" && $2 == "" { exit !($11 == "true" && $12 < 98) }' "$TMP/out" && ok ||
	fail "applies_to fleet: $(cat "$TMP/out")"

# (b2) sacct teams: partition_teams maps the partitions; the mapped team
# holds exactly the jobs and GPU-hours of the partitions mapped to it; a
# stated team takes the partitions the map leaves; a bad map is exit 2
tcols=candidate,team,class,jobs_done,gpu_hours
"$CLUSTERSIM" run "$ex/fleet-sacct-replay.json" --format csv --columns "$tcols" >"$TMP/p0.csv" 2>/dev/null
status_is 0 "$CLUSTERSIM" run "$ex/fleet-sacct-replay.json" --format csv --columns "$tcols" \
	--set 'workload.fleet.jobs[0].partition_teams={"interactive":"research","prod":"product"}' && ok || fail "partition_teams"
awk -F, 'NR == FNR { if (FNR > 1 && $3 == "") { j[$1 "/" $2] = $4; g[$1 "/" $2] = $5 } next }
	FNR > 1 && $3 == "" && $2 != "" { n++; k = $1 "/" $2; c = $1 "/"
		want_j = $2 == "research" ? j[c "research"] + j[c "interactive"] : j[c "prod"]
		want_g = $2 == "research" ? g[c "research"] + g[c "interactive"] : g[c "prod"]
		if (($2 != "research" && $2 != "product") || $4 != want_j || ($5 - want_g) ^ 2 > (1e-5 * want_g) ^ 2) bad = 1 }
	END { exit bad || n != 4 }' "$TMP/p0.csv" "$TMP/out" && ok || fail "partition_teams: $(cat "$TMP/out")"
status_is 0 "$CLUSTERSIM" run "$ex/fleet-sacct-replay.json" --format csv --columns "$tcols" \
	--set 'workload.fleet.jobs[0].team="ops"' --set 'workload.fleet.jobs[0].partition_teams={"prod":"product"}' && ok ||
	fail "stated team and partition_teams"
[ "$(awk -F, 'NR > 1 && $1 ~ /^16/ && $3 == "" && $2 != "" { printf "%s:%s ", $2, $4 }' "$TMP/out")" = "ops:110 product:36 " ] &&
	ok || fail "stated team and partition_teams: $(cat "$TMP/out")"
status_is 2 "$CLUSTERSIM" run "$ex/fleet-sacct-replay.json" -o "$TMP/pt.csv" --set 'workload.fleet.jobs[0].partition_teams={"prd":"product"}' && ok ||
	fail "partition_teams: unknown partition"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && [ ! -e "$TMP/pt.csv" ] &&
	grep -q "fleet-sacct-replay.json': workload.fleet.jobs\[0\].partition_teams.prd: no job the trace replays is in partition \"prd\" (its partitions: " "$TMP/err" &&
	ok || fail "partition_teams: unknown partition: $(cat "$TMP/err")"

# same seed, same bytes
"$CLUSTERSIM" run "$ex/fleet-three-teams.json" --format csv >"$TMP/a.csv" 2>/dev/null
"$CLUSTERSIM" run "$ex/fleet-three-teams.json" --format csv >"$TMP/b.csv" 2>/dev/null
cmp -s "$TMP/a.csv" "$TMP/b.csv" && ok || fail "two runs differ"

# -o may not be the trace; a bad trace row is exit 2 with its line
cp "$ex/fleet-sacct-synthetic.txt" "$TMP/jobs.txt"
sed 's/"fleet-sacct-synthetic.txt"/"jobs.txt"/' "$ex/fleet-sacct-replay.json" >"$TMP/replay.json"
status_is 2 "$CLUSTERSIM" run "$TMP/replay.json" -o "$TMP/jobs.txt" && ok || fail "-o over the trace"
grep -q 'job trace' "$TMP/err" && cmp -s "$TMP/jobs.txt" "$ex/fleet-sacct-synthetic.txt" && ok ||
	fail "-o over the trace: $(cat "$TMP/err")"
status_is 2 "$CLUSTERSIM" run "$TMP/replay.json" --series "$TMP/jobs.txt" && ok || fail "--series over the trace"
grep -q 'job trace' "$TMP/err" && cmp -s "$TMP/jobs.txt" "$ex/fleet-sacct-synthetic.txt" && ok ||
	fail "--series over the trace: $(cat "$TMP/err")"
sed '2s/gres\/gpu=1,/gres\/gpu=x,/' "$ex/fleet-sacct-synthetic.txt" >"$TMP/jobs.txt"
status_is 2 "$CLUSTERSIM" run "$TMP/replay.json" -o "$TMP/res.csv" && ok || fail "bad trace row"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "workload.fleet.jobs\[0\].arrival.trace: trace '.*jobs.txt': line 2: AllocTRES" "$TMP/err" &&
	[ ! -e "$TMP/res.csv" ] && ok || fail "bad trace row: $(cat "$TMP/err")"
# (c) the top of the documented ranges, on the engine's int64 nanosecond
# clock (292 years): each used to overflow the run's cap (11 windows) and
# run no job at all, with status ok and utilization 0
fleet() { # FILE DURATION_H JOBS...: a fleet of 2 nodes of 8 GPUs at $2
	f=$1
	d=$2
	shift 2
	printf '{ "name": "edge", "seed": 5, "workload": { "kind": "fleet", "fleet": { "duration_h": %s, "jobs": [ %s ] } },\n' "$d" "$*" >"$f"
	printf '  "candidates": [ { "name": "c", "preset": "dgx-h100", "nodes": 2, "price": { "usd_per_gpu_hour": 2 } } ] }\n' >>"$f"
}
ecols=team,status,jobs_submitted,jobs_done,gpu_hours,held_gpu_hours,utilization,reason
# duration_h 1e6 h, its maximum: 8-GPU jobs of 100 h at 0.001 an hour on 16 GPUs: every job
# is done, utilization = jobs x 800 GPU-h / 1.6e7 held (within one job: the last may run past
# the window) and near lambda d g / G = 0.05 (4 standard errors of ~1000 jobs)
fleet "$TMP/long.json" 1000000 '{ "name": "a", "arrival": { "process": "poisson", "rate_per_h": 0.001 }, "gpus": 8, "duration_s": 360000 }'
status_is 0 "$CLUSTERSIM" run "$TMP/long.json" --format csv --columns "$ecols" && ok || fail "duration_h 1e6"
awk -F, 'NR == 2 { n = $3; u = $7
	exit !($2 == "ok" && n > 800 && $4 == n && (u - n * 5e-5) ^ 2 <= (5e-5) ^ 2 && (u - 0.05) ^ 2 <= (4 * 0.05 / sqrt(1000)) ^ 2 &&
	       $6 == 16000000) }' "$TMP/out" && ok || fail "duration_h 1e6: $(cat "$TMP/out")"
# a CSV job submitted at 9e8 s (submit_s goes to 1e9): both jobs done, 2 x 8 GPU-hours in the
# window, which reaches the last submission
printf 'submit_s,gpus,duration_s\n0,8,3600\n900000000,8,3600\n' >"$TMP/late.csv"
fleet "$TMP/late.json" 10 '{ "name": "t", "arrival": { "process": "trace", "trace": "late.csv" } }'
status_is 0 "$CLUSTERSIM" run "$TMP/late.json" --format csv --columns "$ecols" && ok || fail "late CSV job"
awk -F, 'NR == 2 { exit !($2 == "ok" && $3 == 2 && $4 == 2 && $5 == 8 && $6 == 4000000) }' "$TMP/out" && ok ||
	fail "late CSV job: $(cat "$TMP/out")"
# an sacct trace spanning 1e9 s, its maximum (1990-01-01 to 2021-09-09T01:46:40): both jobs
# done; the second, submitted at the window's end, holds no GPU-hour inside it
printf 'JobID|Submit|Start|End|AllocTRES\n1|1990-01-01T00:00:00|1990-01-01T00:00:00|1990-01-01T01:00:00|gres/gpu=8\n2|2021-09-09T01:46:40|2021-09-09T01:46:40|2021-09-09T02:46:40|gres/gpu=8\n' >"$TMP/span.sacct"
fleet "$TMP/span.json" 10 '{ "name": "t", "arrival": { "process": "trace", "trace": "span.sacct", "format": "sacct" } }'
status_is 0 "$CLUSTERSIM" run "$TMP/span.json" --format csv --columns "$ecols" && ok || fail "sacct span 1e9 s"
awk -F, 'NR == 2 { exit !($2 == "ok" && $3 == 2 && $4 == 2 && $5 == 8) }' "$TMP/out" && ok || fail "sacct span: $(cat "$TMP/out")"
# a second more is refused, with the file, the line and the value (exit 2, nothing written)
sed -i 's/2021-09-09T01:46:40|2021-09-09T01:46:40/2021-09-09T01:46:41|2021-09-09T01:46:41/' "$TMP/span.sacct"
status_is 2 "$CLUSTERSIM" run "$TMP/span.json" -o "$TMP/span.csv" && ok || fail "sacct span over 1e9 s"
grep -q "workload.fleet.jobs\[0\].arrival.trace: trace '.*span.sacct': line 3: Submit 2021-09-09T01:46:41 is 1000000001 s (31.7 years) after the first, 1990-01-01T00:00:00 at line 2: a trace may span at most 1000000000 s" "$TMP/err" &&
	[ ! -e "$TMP/span.csv" ] && ok || fail "sacct span over 1e9 s: $(cat "$TMP/err")"

# (d) sacct times that do not exist are refused with the file, the line and the value
for bad in "2024-02-31T00:00:00:February 2024 has 29 days" "2023-02-29T12:00:00:February 2023 has 28 days" \
	"2024-03-01T24:00:00:the hour runs from 00 to 23" "2024-03-01T12:60:00:a minute runs from 00 to 59" \
	"2024-03-01T12:00:60:a second runs from 00 to 59"; do
	t=${bad%%:[a-zA-Z]*}
	why=${bad#"$t":}
	printf 'JobID|Submit|Start|End|AllocTRES\n1|2023-01-01T00:00:00|2023-01-01T00:00:00|2023-01-01T01:00:00|gres/gpu=8\n2|2023-01-01T00:00:00|2023-01-01T00:00:00|%s|gres/gpu=8\n' "$t" >"$TMP/date.sacct"
	fleet "$TMP/date.json" 10 '{ "name": "t", "arrival": { "process": "trace", "trace": "date.sacct", "format": "sacct" } }'
	status_is 2 "$CLUSTERSIM" run "$TMP/date.json" && ok || { fail "End $t"; continue; }
	grep -q "trace '.*date.sacct': line 3: End: \"$t\" is not a valid time: $why" "$TMP/err" && ok || fail "End $t: $(cat "$TMP/err")"
done

# (e) the jobs a fleet asks for: at most 10,000,000 (1e6 jobs/h over 1e6 h asked for 1e12
# and ran out of memory drawing them), refused at once with the figures
fleet "$TMP/many.json" 1000000 '{ "name": "a", "arrival": { "process": "poisson", "rate_per_h": 1000000 }, "gpus": 8, "duration_s": 60 }'
status_is 2 "$CLUSTERSIM" run "$TMP/many.json" && ok || fail "1e12 jobs"
grep -q "workload.fleet.jobs\[0\].arrival.rate_per_h: 1e+06 jobs/h over duration_h 1e+06 h is 1e+12 jobs (1e+12 with the other classes), more than the 10000000 a fleet may simulate" "$TMP/err" &&
	ok || fail "1e12 jobs: $(cat "$TMP/err")"
# their memory: 5e6 jobs at 1 KB each under a 1 GB address-space limit (not under a
# sanitizer, whose shadow memory needs more than any such limit)
fleet "$TMP/mem.json" 5000 '{ "name": "a", "arrival": { "process": "poisson", "rate_per_h": 1000 }, "gpus": 8, "duration_s": 60 }'
if (ulimit -v 1000000 && "$CLUSTERSIM" --version) >/dev/null 2>&1; then
	(ulimit -v 1000000 && exec "$CLUSTERSIM" run "$TMP/mem.json") >"$TMP/out" 2>"$TMP/err"
	[ $? -eq 2 ] && grep -q "workload.fleet.jobs: 5e+06 jobs would need about 5.12 GB (1024 bytes each), more than the .* GB of the room left under the address-space limit (RLIMIT_AS, ulimit -v)" "$TMP/err" &&
		ok || fail "5e6 jobs in 1 GB: $(cat "$TMP/err")"
fi
# (f) a commitment against on-demand for the job mix (the example
# fleet-commitment.json): a fleet on GCP's a3 3-year committed price says the
# break-even utilization, committed / on-demand (the catalog's first
# a3-highgpu-8g rows of each type), and the share this job mix uses (the
# row's utilization), each to 0.1%, and which is the cheaper
"$CLUSTERSIM" catalog prices --format csv --columns provider,offering,type,term,usd_per_gpu_hour >"$TMP/commit-prices.csv"
od=$(awk -F, '$1 == "gcp" && $2 == "a3-highgpu-8g" && $3 == "on-demand" { print $5; exit }' "$TMP/commit-prices.csv")
rs=$(awk -F, '$1 == "gcp" && $2 == "a3-highgpu-8g" && $3 == "reserved" && $4 == "3y" { print $5; exit }' "$TMP/commit-prices.csv")
status_is 0 "$CLUSTERSIM" run "$ex/fleet-commitment.json" --format csv --columns candidate,team,class,utilization,reason && ok || fail "commitment fleet"
want=$(awk -F, -v od="$od" -v rs="$rs" 'NR == 2 { printf "above %.1f%% use of its hours; this job mix uses %.1f%% of the 64 GPUs", 100 * rs / od, 100 * $4 }' "$TMP/out")
grep -qF "a 3y commitment at \$$rs/GPU-h beats on-demand at \$" "$TMP/out" && grep -qF "$want" "$TMP/out" &&
	grep -q "the commitment the cheaper" "$TMP/out" && ok || fail "commitment break-even ($want): $(cat "$TMP/out")"
finish
