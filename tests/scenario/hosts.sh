# A virtual machine of three hosts on this one computer
# (scripts/hosts.sh: a network namespace, hostname and /tmp each; pvmds
# started on the other hosts through PVM_RSH=scripts/pvm-rsh, talking UDP
# over the veths).  Pangaea records a program whose tasks PVM spreads
# over the three hosts (Debian's unmodified master1/slave1, through
# libpangaea.so), with the log folder on storage all hosts share (as NFS
# would); every replay starts each task on its recorded host and
# reproduces the run; a replay that needs a host the virtual machine has
# lost is refused before any task starts, naming the host, a task and the
# exec log to edit.  `hosts.sh down` leaves nothing behind.
. "$(dirname "$0")/../lib.sh"
MASTER=/usr/bin/master1

if [ ! -x "$MASTER" ]; then
	fail "no $MASTER (Debian package pvm-examples, scripts/install-deps.sh)"
	finish
	exit
fi

# 1. the hosts
if ! hosts_up 3; then
	finish
	exit
fi
pass "hosts.sh up 3"
expect_eq "hosts: listed" "$($HOSTS list | tr '\n' ' ')" "h1 h2 h3 "
expect_eq "hosts: own hostnames" \
	"$(for h in h1 h2 h3; do $HOSTS run $h hostname; done | tr '\n' ' ')" "h1 h2 h3 "
$HOSTS run h1 touch /tmp/only-on-h1
$HOSTS run h2 test -e /tmp/only-on-h1 && fail "hosts: h2 sees h1's /tmp" ||
	pass "hosts: /tmp is each host's own"
[ -e /tmp/only-on-h1 ] && fail "hosts: this machine sees h1's /tmp" || true
expect_eq "hosts: h3 known by name on h2" \
	"$($HOSTS run h2 getent hosts h3 | awk '{print $1}')" "10.77.${PANGAEA_HOSTS_CLUSTER:-0}.3"
$HOSTS run h2 test -x "$B/bin/pangaea" && pass "hosts: the build folder is shared" ||
	fail "hosts: h2 cannot see $B/bin/pangaea"

# 2. a three-host virtual machine, started on h1 from a host file
hosts_vm h2 h3
expect_eq "vm: three hosts in pvm's conf" "$(grep -c LINUX64 conf)" 3

# 3. record: master1 and nine slave1 spread over the hosts
pg -log -logdir rec "$MASTER" </dev/null
expect_eq "record: exit 0" "$(cat rc)" 0
expect_grep "record: joined the three-host VM" err "joined the running virtual machine"
expect_eq "record: the master got the nine answers" \
	"$(grep -c '^I got .* (expecting' out)" 9
hosts=$(grep -ho '[0-9]*@h[0-9]*' rec/task-*.exec | sed 's/.*@//' | sort -u | tr '\n' ' ')
expect_eq "record: tasks on every host (exec logs)" "$hosts" "h1 h2 h3 "
cp out rec.out

# 4. replay: each task on its recorded host, the same run
OUT_AS_SET=1
expect_eq "replay: 2 of 2 identical" "$(replays_identical rec 2 0)" 2
expect_eq "replay: 1 of 1 identical with -delay 2000" \
	"$(replays_identical rec 1 2000)" 1
h_rec=$(grep -o '[0-9]*@h[0-9]*' rec/task-1.exec | sort | tr '\n' ' ')
h_rep=$(grep -o '[0-9]*@h[0-9]*' rec.r1/task-1.exec | sort | tr '\n' ' ')
expect_eq "replay: the slaves ran on their recorded hosts" "$h_rep" "$h_rec"

# 5. logs kept on each task's own host (/tmp is each host's own): the
# launcher collects them after the run (through its beacons), each host
# keeps its tasks' logs for replay, the tools work from the launcher's
# folder; a host without its logs gets them shipped; a task moved to
# another host in the exec log takes its log along
printf '#!/bin/sh\nexec bash %s run h1 %s "$@"\n' "$TOP/scripts/hosts.sh" \
	"$TRACE" >trace-h1
chmod +x trace-h1
L=/tmp/pangaea-hl-$VMID
ncomm() { $HOSTS run "$1" sh -c "ls $L/task-*.comm 2>/dev/null | wc -l"; }
pg -log -logdir "$L" "$MASTER" </dev/null
expect_eq "own hosts: recording exits 0" "$(cat rc)" 0
expect_grep "own hosts: logs collected from the other hosts" err \
	"^pangaea: collected [0-9]+ log file\(s\) from host\(s\) h[23]( h[23])?$"
expect_eq "own hosts: the launcher's folder has all 10 tasks' logs" "$(ncomm h1)" 10
on2=$($HOSTS run h1 sh -c "grep -o '[0-9]*@h2' $L/task-1.exec | wc -l")
expect_eq "own hosts: h2 keeps just its tasks' logs" "$(ncomm h2)" "$on2"
cp out own.out
sort out >own.sorted
ok=0
for j in 1 2; do
	pg -replay -logdir "$L" -out "$L.r$j" </dev/null
	[ "$(cat rc)" = 0 ] && cmp -s <(sort out) own.sorted &&
		./trace-h1 verify "$L" "$L.r$j" >/dev/null 2>&1 && ok=$((ok + 1))
done
expect_eq "own hosts: 2 of 2 replays identical (verified from h1)" "$ok" 2
expect_eq "own hosts: the replays' logs collected too" \
	"$($HOSTS run h1 sh -c "ls $L.r2/task-*.comm | wc -l")" 10
for h in h2 h3; do $HOSTS run $h rm -rf "$L"; done
pg -replay -logdir "$L" -out "$L.r3" </dev/null
expect_eq "shipped: a replay after h2 and h3 lost their copies exits 0" \
	"$(cat rc) $(sort out | cmp -s - own.sorted && echo same)" "0 same"
expect_eq "shipped: h2 got its tasks' recorded logs back" "$(ncomm h2)" "$on2"
moved=$($HOSTS run h1 sh -c "grep -o '[0-9]*@h2' $L/task-1.exec | head -1 | sed 's/@h2//'")
$HOSTS run h1 sed -i "s/\b$moved@h2\b/$moved@h3/" "$L/task-1.exec"
pg -replay -logdir "$L" -out "$L.r4" </dev/null
expect_eq "moved: task $moved moved from h2 to h3 replays, exit 0" \
	"$(cat rc) $(sort out | cmp -s - own.sorted && echo same)" "0 same"
$HOSTS run h1 cat "$L.r4/task-1.exec" >moved.exec
expect_grep "moved: it ran on h3" moved.exec "\b$moved@h3\b"
$HOSTS run h3 test -e "$L/task-$moved.comm" &&
	pass "moved: its log was shipped to h3" || fail "moved: no log of task $moved on h3"

# 6. a host of the recording left the VM: refused before anything starts
$HOSTS run h1 sh -c "echo 'delete h3' | timeout 20 pvm" >/dev/null 2>&1
pg -replay -logdir rec -out rec.nohost </dev/null
expect_eq "no host: exit 1" "$(cat rc)" 1
expect_grep "no host: names the host, a task and the exec log" err \
	"^pangaea: error: refusing to replay: task [0-9]+ \([a-z0-9]+\) was recorded on host h3, which is not in the virtual machine \(its hosts: h1 h2\): add h3 to it, or move the task to one of them in .*/task-[0-9]+\.exec$"
[ -s out ] && fail "no host: a task ran: $(head -2 out)" ||
	pass "no host: no task started"
expect_eq "no host: said in one line" "$(grep -c error err)" 1

# 7. a host lost mid-run (its pvmd killed): PVM itself would notice only
# after minutes; the launcher's beacon on h3 falls silent, and the run
# ends within seconds, naming h3 and the tasks that were on it
$HOSTS run h1 sh -c "echo 'add h3' | timeout 30 pvm" >/dev/null 2>&1
expect_eq "lost: h3 back in the VM" \
	"$($HOSTS run h1 sh -c 'echo conf | timeout 10 pvm' 2>/dev/null | grep -c LINUX64)" 3
t0=$(date +%s%N)
pg -log -logdir lost "$B/examples/sor" 6 400 100000 </dev/null &
PG=$!
for _ in $(seq 200); do
	[ "$(ls lost/task-*.comm 2>/dev/null | wc -l)" -ge 6 ] && break
	sleep 0.1
done
on_h3=$(grep -ho '[0-9]*@h3' lost/task-*.exec | sed 's/@h3//' | sort -n | tr '\n' ' ')
[ -n "$on_h3" ] && pass "lost: tasks on h3: $on_h3" || fail "lost: no task on h3"
sleep 1
t1=$(date +%s%N)
kill_pvmd h3
wait $PG
tend=$(date +%s%N)
t=$(( (tend - t1) / 1000000 ))
expect_eq "lost: exit 2" "$(cat rc)" 2
expect_grep "lost: names the host and says why" err \
	"^pangaea: error: lost host h3: silent for [0-9]+ s \(its pvmd or its network is gone\); task\(s\) .* went with it: stopping the run$"
for l in $on_h3; do
	expect_grep "lost: names task $l" err "lost host h3: .*[ ,]$l \("
done
[ "$t" -le 15000 ] && pass "lost: the run ended ${t} ms after the pvmd's death" ||
	fail "lost: the run took ${t} ms to end after the pvmd's death"
# (the other hosts' pvmds may pass the launcher's kills late or not at
# all, and its other messages seconds late: the beacon's watchdog there
# ends the run's tasks 10 s after the sending of the launcher's last
# BEACON that reached it, which a late one cannot put off; the launcher
# stops its BEACONs when it takes the host as lost, about 5 s before
# its end: docs/INTERNALS.md §18)
while :; do
	left=$(for h in h1 h2 h3; do
		for p in $(ip netns pids "$($HOSTS netns $h)" 2>/dev/null); do
			tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline" |
				grep -q "examples/sor" && echo "$p@$h"
		done
	done)
	gone=$(( ($(date +%s%N) - tend) / 1000000 ))
	[ -z "$left" ] || [ "$gone" -gt 10000 ] && break
	sleep 0.1
done
[ -z "$left" ] && pass "lost: nothing of the run on any host ${gone} ms after its end" ||
	fail "lost: tasks of the run still on the hosts 10 s after its end:" $left
other=$(grep -ho '[0-9]*@h[12]' lost/task-*.exec | head -1 | sed 's/@.*//')
$TRACE dump lost 2>/dev/null | grep -q "ltid=$other\b\|task $other\b" &&
	pass "lost: the log of task $other (not on h3) reads" ||
	{ $TRACE dump lost >dump.err 2>&1; fail "lost: the logs of the others: $(tail -2 dump.err)"; }

# 8. nothing left: hosts, links, namespaces, processes
$HOSTS run h1 sh -c 'echo halt | timeout 10 pvm' >/dev/null 2>&1
cd "$T" || exit 1
$HOSTS down
expect_eq "down: no namespaces left" "$(ip netns list | grep -c "^$($HOSTS netns h)")" 0
ip link show "pgbr${PANGAEA_HOSTS_CLUSTER:-0}" >/dev/null 2>&1 && fail "down: the bridge is left" ||
	pass "down: no bridge left"
[ -e "$HD" ] && fail "down: $HD is left" || pass "down: $HD removed"
expect_no_leftovers
finish
