#!/bin/sh
# A sweep through a real, one-node Slurm (docs/howto/slurm-one-node.md says how to run one by hand): start
# munged (unless one runs), slurmctld and slurmd on this host with a
# configuration of the test's own (its own ports, state and logs in a
# temporary folder), run tools/sweep-slurm.sh (an array job of 4 shards and
# a merge job that depends on it), and compare the merged file with the
# unsharded sweep byte for byte. Skipped, with exit 0 and a line saying why,
# when Slurm or munge is not installed or the test is not run as root;
# under CI (CI=true, where .ci/run installs them) a skip is a failure.
. "$TOP/tests/cli/lib.sh"
C=$CLUSTERSIM

skip() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL: $* (CI installs Slurm and runs as root: this test must run there)"
		exit 1
	fi
	echo "skipped: $*"
	exit 0
}

for tool in slurmctld slurmd sbatch scontrol sinfo munged munge; do
	if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$tool" ]; then
		skip "$tool is not installed (apt-get install slurmctld slurmd slurm-client munge)"
	fi
done
if [ "$(id -u)" -ne 0 ]; then
	skip "starting slurmd needs root"
fi
PATH=$PATH:/usr/sbin
# One such Slurm at a time on this host (fixed ports; two checkouts testing at once).
if command -v flock >/dev/null 2>&1; then
	exec 9>/tmp/clustersim-test-slurm.lock
	flock -w 300 9 || skip "another Slurm test held the lock for 300 s"
fi

started_munged=0
cleanup() {
	for pidfile in "$TMP/slurmd.pid" "$TMP/slurmctld.pid"; do
		[ -s "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null
	done
	sleep 1
	for pidfile in "$TMP/slurmd.pid" "$TMP/slurmctld.pid"; do
		[ -s "$pidfile" ] && kill -9 "$(cat "$pidfile")" 2>/dev/null
	done
	if [ "$started_munged" -eq 1 ] && [ -s /run/munge/munged.pid ]; then
		kill "$(cat /run/munge/munged.pid)" 2>/dev/null
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# munge: a key, the socket folder, and the daemon as the munge user.
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
	if [ ! -s /etc/munge/munge.key ]; then
		mkdir -p /etc/munge
		dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null
		chown munge:munge /etc/munge/munge.key
		chmod 400 /etc/munge/munge.key
	fi
	mkdir -p /run/munge
	chown munge:munge /run/munge
	su -s /bin/sh munge -c /usr/sbin/munged || { fail "munged did not start"; finish; }
	started_munged=1
	sleep 1
fi
munge -n | unmunge >/dev/null 2>&1 && ok || { fail "munge does not work"; finish; }

host=$(hostname)
mem_mib=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.8 }' /proc/meminfo)
mkdir -p "$TMP/state" "$TMP/spool"
cat >"$TMP/slurm.conf" <<EOF
ClusterName=clustersimtest
SlurmctldHost=$host
SlurmctldPort=46817
SlurmdPort=46818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/slurmctld.pid
SlurmdPidFile=$TMP/slurmd.pid
SlurmctldLogFile=$TMP/slurmctld.log
SlurmdLogFile=$TMP/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
NodeName=$host CPUs=$(nproc) RealMemory=$mem_mib State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$TMP/slurm.conf"
slurmctld -f "$SLURM_CONF" || { fail "slurmctld did not start"; finish; }
slurmd -f "$SLURM_CONF" || { fail "slurmd did not start"; cat "$TMP/slurmd.log"; finish; }
n=0
while [ "$n" -lt 60 ] && ! sinfo -h -o '%T' 2>/dev/null | grep -qx idle; do
	sleep 0.5
	n=$((n + 1))
done
sinfo -h -o '%T' | grep -qx idle && ok || { fail "node not idle: $(sinfo -h -o '%T' 2>&1)"; tail -5 "$TMP/slurmctld.log"; finish; }

# The sweep on 4 array tasks, merged by a dependent job; -w waits for it.
s="$TOP/scenarios/examples/sweep-nccl.json"
"$C" sweep "$s" -o "$TMP/whole.csv" || fail "unsharded sweep"
CLUSTERSIM="$C" timeout 120 sh "$TOP/tools/sweep-slurm.sh" -n 4 -d "$TMP/parts" -w "$s" "$TMP/merged.csv" \
	--time=5 >"$TMP/submit.log" 2>&1
st=$?
[ "$st" -eq 0 ] && ok || { fail "sweep-slurm.sh: exit $st"; cat "$TMP/submit.log"; cat "$TMP/parts"/*.log 2>/dev/null | head -20; finish; }
[ "$(ls "$TMP/parts"/part-*.csv | wc -l)" -eq 4 ] && ok || fail "$(ls "$TMP/parts"/part-*.csv | wc -l) part files, wanted 4"
# Task I held the points k = I mod 4: its part has 3 points of 7 rows.
for i in 0 1 2 3; do
	ids=$(sed 1d "$TMP/parts/part-$i.csv" | cut -d, -f3 | uniq | tr '\n' ' ')
	[ "$ids" = "$i $((i + 4)) $((i + 8)) " ] && ok || fail "part $i holds points $ids"
done
cmp -s "$TMP/merged.csv" "$TMP/whole.csv" && ok || fail "Slurm-merged sweep differs from the unsharded one"
# Each task's log says first how to resume it by hand (a task killed with
# SIGKILL has no time to say it later), and the command it gives works; no
# journal is left once a task has finished.
for i in 0 1 2 3; do
	log=$(ls "$TMP/parts"/shard-*_$i.log 2>/dev/null | head -1)
	hint=$(sed -n "s/^sweep-slurm.sh: shard $i\/4 (job [0-9]*_$i); if it stops before it ends, its finished points are kept: requeue it (scontrol requeue [0-9]*_$i) or resume it with: //p" "$log" 2>/dev/null)
	[ -n "$hint" ] && ok || fail "shard $i's log has no resume line: $(head -3 "$log" 2>/dev/null)"
	[ ! -e "$TMP/parts/part-$i.csv.partial" ] && ok || fail "part-$i.csv.partial left after the task ended"
done
cp "$TMP/parts/part-2.csv" "$TMP/part-2.keep"
head -n 8 "$TMP/part-2.keep" >"$TMP/parts/part-2.csv.partial"
rm "$TMP/parts/part-2.csv"
hint=$(sed -n 's/^sweep-slurm.sh: shard 2\/4 .* or resume it with: //p' "$TMP/parts"/shard-*_2.log | head -1)
eval "$hint" 2>"$TMP/err" && cmp -s "$TMP/parts/part-2.csv" "$TMP/part-2.keep" &&
	grep -q "resuming '$TMP/parts/part-2.csv.partial': kept 1 of 3 points, computing 2" "$TMP/err" && ok ||
	fail "the log's resume command: $hint: $(cat "$TMP/err")"
# The merge job started only after every array task had ended.
array=$(sed -n 's/^shards: job //p' "$TMP/submit.log")
merge=$(cat "$TMP/parts/merge.jobid" 2>/dev/null)
last_end=$(scontrol show job "$array" -o 2>/dev/null | sed -n 's/.* EndTime=\([^ ]*\).*/\1/p' | sort | tail -1)
merge_start=$(scontrol show job "$merge" -o 2>/dev/null | sed -n 's/.* StartTime=\([^ ]*\).*/\1/p')
ntasks=$(scontrol show job "$array" -o 2>/dev/null | grep -c 'JobState=COMPLETED')
[ "$ntasks" -eq 4 ] && ok || fail "$ntasks array tasks COMPLETED, wanted 4"
[ -n "$last_end" ] && [ -n "$merge_start" ] && ! expr "$merge_start" \< "$last_end" >/dev/null && ok ||
	fail "merge job started at '$merge_start', before the last shard ended at '$last_end'"
finish
