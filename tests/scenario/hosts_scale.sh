# 128 tasks over 4 hosts (issue 15 §3): the token ring examples/ring
# spread by PVM over a four-host virtual machine (scripts/hosts.sh), each
# task logging on its own host's /tmp.  The recording lasts over 5 s (the
# master pauses before its last round): the launcher must not take the
# tasks whose logs are on other hosts for uninstrumented ones.  It
# collects the logs of h2..h4, each host keeps just its own tasks' logs; a
# replay prints the same (the arrival orders of the wildcard receives
# included) and is verified identical; the import holds all 128 tasks on
# the four hosts.  A host lost while the master spawns leaves no task on
# the launcher's host.  The whole test stays under 120 s on a loaded
# machine.
. "$(dirname "$0")/../lib.sh"
N=128
ROUNDS=20

t_start=$(date +%s)
if ! hosts_up 4; then
	finish
	exit
fi
hosts_vm h2 h3 h4
expect_eq "vm: four hosts in pvm's conf" "$(grep -c LINUX64 conf)" 4

printf '#!/bin/sh\nexec %s run h1 %s "$@"\n' "$HOSTS" "$TRACE" >trace-h1
chmod +x trace-h1
L=/tmp/pangaea-hs-$VMID
on() { $HOSTS run "$1" sh -c "$2"; }

# 1. record: the ring over the four hosts, logs on each task's host
pg -log -logdir "$L" "$B/examples/ring" -r $ROUNDS -p 5500 $N </dev/null
expect_eq "record: exit 0" "$(cat rc)" 0
expect_eq "record: the ring went round $ROUNDS times" \
	"$(grep -c "^ring: round [0-9]* token=$((N * (N - 1) / 2)) " out)" $ROUNDS
expect_eq "record: the master counted $N tasks" \
	"$(sed -n 's/^ring: host .* tasks=//p' out | paste -sd+ | bc)" $N
expect_eq "record: tasks on each of the 4 hosts" \
	"$(sed -n 's/^ring: host \(h[0-9]\) tasks=[1-9][0-9]*$/\1/p' out | tr '\n' ' ')" \
	"h1 h2 h3 h4 "
expect_grep "record: logs collected from the three other hosts" err \
	"^pangaea: collected [0-9]+ log file\(s\) from host\(s\) h2 h3 h4$"
expect_grep "record: all $N tasks logged" err \
	"^pangaea: recorded [0-9]+ events of $N tasks in $L$"
grep -q "has not joined" err &&
	fail "record: tasks logging on their own hosts called not instrumented: $(grep -m1 'has not joined' err)" ||
	pass "record: no task on another host called not instrumented"
cp out rec.out
echo "info: record: $(sed -n 's/.* order=//p' out | sort -u | wc -l) arrival orders of the reports in $ROUNDS rounds"

# 2. each task's log on its own host: the exec logs say where each task
# ran; h2..h4 hold exactly the logs of their tasks, h1 all of them
on h1 "cat $L/task-*.exec" >all.exec
for h in h2 h3 h4; do
	want=$(grep -o "[0-9]*@$h\b" all.exec | sed 's/@.*//' | sort -n | tr '\n' ' ')
	got=$(on $h "cd $L && ls task-*.comm" | sed 's/task-\([0-9]*\)\.comm/\1/' |
		sort -n | tr '\n' ' ')
	[ -n "$want" ] && [ "$want" = "$got" ] &&
		pass "own host: $h holds the logs of its $(echo $want | wc -w) tasks, no other" ||
		fail "own host: $h holds logs of '$got', its tasks are '$want'"
done
expect_eq "own host: h1 has all $N tasks' logs after the collection" \
	"$(on h1 "ls $L/task-*.comm | wc -l")" $N

# 3. replay: every task on its recorded host, the same output, verified
pg -replay -logdir "$L" -out "$L.r1" </dev/null
expect_eq "replay: exit 0" "$(cat rc)" 0
cmp -s out rec.out && pass "replay: the same output (the arrival orders too)" ||
	{ fail "replay: another output:"; diff rec.out out | head -5; }
expect_eq "replay: every task on its recorded host" \
	"$(on h1 "cat $L.r1/task-*.exec" | grep -o '[0-9]*@h[0-9]' | sort | md5sum)" \
	"$(grep -o '[0-9]*@h[0-9]' all.exec | sort | md5sum)"
./trace-h1 verify "$L" "$L.r1" >verify.out 2>&1
expect_grep "replay: verified identical" verify.out \
	"^identical \([0-9]+ events, $N tasks\)$"

# 4. import: the trace database has every task, on the four hosts
./trace-h1 import "$L" >import.out 2>&1
expect_grep "import: done" import.out "^imported $((N + 1)) tasks, [0-9]+ events"
expect_eq "import: $N tasks of the program on 4 hosts in the database" \
	"$(./trace-h1 sql "$L" 'select count(*), count(distinct host) from tasks where ltid > 0')" \
	"$N|4"

# 5. a host lost while the master spawns: the coordinator is on h3, whose
# pvmd stops (SIGSTOP) while the master sleeps before its pvm_spawn; the
# tasks that start on h1 never reach the launcher (their SPAWNED waits
# for h3). The launcher takes h3 as lost and stops the run; the beacons
# end the run's processes on their hosts, the launcher those on its own
# (before, every such run left its tasks on h1, waiting: 250 of them a
# run at 1000 tasks, until h1's pvmd ran out of descriptors)
# (the master sleeps 2 s: h3 is stopped well before its spawn and taken
# as lost 4 s after, well after it)
rings_on() { host_pids "$1" ring | wc -l; }
pg -log -logdir "$L.lost" -coord h3 -host h1 "$B/examples/ring" -s 2000 12 </dev/null &
PG=$!
for _ in $(seq 100); do
	on h1 "test -e $L.lost/task-1.comm" && break
	sleep 0.1
done
P3=$(host_pids h3 pvmd)
kill -STOP $P3
wait $PG
expect_eq "lost in the spawn: exit 2" "$(cat rc)" 2
expect_grep "lost in the spawn: h3 and the coordinator lost" err \
	"^pangaea: error: lost host h3: .* the coordinator went with it: stopping the run$"
expect_grep "lost in the spawn: the launcher ended the tasks it never heard of" err \
	"^pangaea: ended [0-9]+ more task\(s\) of the run left on this host$"
for _ in $(seq 20); do [ "$(rings_on h1)" = 0 ] && break; sleep 0.1; done
expect_eq "lost in the spawn: no task of the run left on h1" "$(rings_on h1)" 0
kill -CONT $P3
kill -9 $P3

t=$(($(date +%s) - t_start))
[ "$t" -lt 120 ] && pass "done in $t s" || fail "took $t s (bound: 120 s)"

# 5. nothing left: the per-host /tmp goes with the hosts
on h1 'echo halt | timeout 10 pvm' >/dev/null 2>&1
cd "$T" || exit 1
$HOSTS down
expect_eq "down: no namespaces left" "$(ip netns list | grep -c "^$($HOSTS netns h)")" 0
expect_no_leftovers
finish
