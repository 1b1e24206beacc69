# A run whose tasks all wait for each other (examples/deadlock: two
# workers each wait for the other first, the master for both) is reported
# within a few seconds, each task with its call and last event, and ended
# with exit 3, on record and on replay; -no-deadlock-stop reports it and
# waits on; a run that waits 3 s for a busy worker (-ok) is not called
# deadlocked, nor is a pvm_trecv before its timeout; a barrier that
# cannot be passed is a deadlock too, and so is a pvm_reduce that waits
# for members that never take part; a replay
# of logs edited into a circle of waits for recorded messages names the
# messages, also while another task still runs; a master whose last
# event is a pvm_mcast is reported with its destinations.
# Nothing is left running.
. "$(dirname "$0")/../lib.sh"
D=$B/examples/deadlock

# expect_report WHAT: err holds the report of the three blocked tasks
expect_report() {
	expect_grep "$1: reported" err "^pangaea: error: deadlock: every task is blocked:$"
	expect_grep "$1: the master's call" err \
		"^  task 1 \(.*deadlock on .*\) in pvm_recv\(from any, tag 5\) since [0-9.]+ s, .*last event #3 send to=1002 tag=1"
	expect_grep "$1: worker 1's call" err \
		"^  task 1001 \(.*\) in pvm_recv\(from task 1002, tag 2\) since [0-9.]+ s, .*last event #1 pvm_recv from=1 "
	expect_grep "$1: worker 2's call" err \
		"^  task 1002 \(.*\) in pvm_recv\(from task 1001, tag 2\) since [0-9.]+ s, "
}

start=$(date +%s%N)
pg -log -logdir rec "$D"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
expect_eq "record: exit 3" "$(cat rc)" 3
expect_report record
[ "$ms" -lt 10000 ] && pass "record: ended in $ms ms" || fail "record: took $ms ms"
expect_grep "record: run.info says why" rec/run.info "^diverged deadlock: every task"
perm=$(stat -c %a rec/task-1001.state)
expect_eq "record: the state file is private" "$perm" 600

start=$(date +%s%N)
pg -replay -logdir rec
ms=$(( ($(date +%s%N) - start) / 1000000 ))
expect_eq "replay: exit 3" "$(cat rc)" 3
expect_report replay
[ "$ms" -lt 10000 ] && pass "replay: ended in $ms ms" || fail "replay: took $ms ms"
grep -q "diverged" err && fail "replay: called a divergence" || pass "replay: no divergence"

# a pvm_trecv with a timeout is no deadlock until it ends: the master
# waits 4 s, gives up and ends; then the two workers are deadlocked
start=$(date +%s%N)
pg -log -logdir tr "$D" -trecv 4
ms=$(( ($(date +%s%N) - start) / 1000000 ))
expect_eq "trecv: exit 3" "$(cat rc)" 3
expect_grep "trecv: the master's wait ended" out "^deadlock: no answer in 4 s$"
[ "$ms" -ge 4000 ] && [ "$ms" -lt 10000 ] && pass "trecv: reported after the timeout ($ms ms)" ||
	fail "trecv: reported after $ms ms"
expect_grep "trecv: the workers" err "^  task 1002 .* in pvm_recv\(from task 1001, tag 2\)"
grep -q "^  task 1 " err && fail "trecv: the ended master was listed" || pass "trecv: the master is not listed"

# a barrier that can never be passed (for 4 tasks, 3 in the group)
for mode in log replay; do
	if [ $mode = log ]; then pg -log -logdir bar "$D" -barrier
	else pg -replay -logdir bar; fi
	expect_eq "barrier, $mode: exit 3" "$(cat rc)" 3
	expect_grep "barrier, $mode: reported" err "^pangaea: error: deadlock: every task is blocked:$"
	expect_grep "barrier, $mode: the master's call and group" err \
		"^  task 1 .* in pvm_barrier\(\"deadlock\", 4\) since [0-9.]+ s, last event #4 pvm_joingroup"
	expect_grep "barrier, $mode: worker 2's" err "^  task 1002 .* in pvm_barrier\(\"deadlock\", 4\)"
done

# the master's last event is a pvm_mcast: the report names its
# destinations (the launcher crashed on them, with no run.info written)
for mode in log replay; do
	if [ $mode = log ]; then pg -log -logdir mc "$D" -mcast
	else pg -replay -logdir mc; fi
	expect_eq "mcast, $mode: exit 3" "$(cat rc)" 3
	expect_grep "mcast, $mode: the master's last event" err \
		"^  task 1 .* in pvm_recv\(from any, tag 5\) since [0-9.]+ s, last event #4 pvm_mcast to=\[1001 1002\] tag=4 "
	expect_grep "mcast, $mode: run.info says why" mc/run.info "^diverged deadlock: every task"
done

# a pvm_reduce whose members never take part (they wait for each other)
for mode in log replay; do
	if [ $mode = log ]; then pg -log -logdir red "$D" -reduce
	else pg -replay -logdir red; fi
	expect_eq "reduce, $mode: exit 3" "$(cat rc)" 3
	expect_grep "reduce, $mode: the master's call" err \
		"^  task 1 .* in pvm_reduce\(from task 100[12], tag 7\) since [0-9.]+ s, last event #[0-9]+ pvm_gettid"
	expect_grep "reduce, $mode: worker 1's" err "^  task 1001 .* in pvm_recv\(from task 1002, tag 2\)"
done

# -no-deadlock-stop: reported, and the run waits on until interrupted
timeout 60 "$PANGAEA" -log -no-deadlock-stop -logdir rec2 "$D" >out 2>err &
pid=$!
for _ in $(seq 100); do grep -q "every task is blocked" err && break; sleep 0.1; done
expect_grep "-no-deadlock-stop: reported" err "^pangaea: error: deadlock: every task is blocked:$"
expect_grep "-no-deadlock-stop: says it waits" err "no-deadlock-stop: the run waits on"
sleep 2
kill -0 $pid 2>/dev/null && pass "-no-deadlock-stop: still running 2 s later" ||
	fail "-no-deadlock-stop: the launcher ended"
kill -INT $pid
wait $pid; echo $? >rc
expect_eq "-no-deadlock-stop: ^C ends it (exit 2)" "$(cat rc)" 2

# a run whose tasks wait 3 s for a worker that computes is not called
# deadlocked
pg -log -logdir ok "$D" -ok
expect_eq "-ok: exit 0" "$(cat rc)" 0
expect_grep "-ok: done" out "^deadlock: done$"
grep -q deadlock: err && fail "-ok: a deadlock was reported" || pass "-ok: no report"

# The -ok recording edited into a circle: run without -ok (task-0.exec),
# worker 1's log receives worker 2's message before sending its own (its
# records 2 and 3 swapped).  Every receive still names a send that exists
# (the check lets it through), but each worker waits for the other's.
# (Clock and calibration records, no events, stay where they are.)
# swap_1001 DIR: swaps records 2 and 3 of DIR/task-1001.comm, rewritten
# first as comm log version 6 (each record stands alone there; version 7
# codes peers, ids and times against the records before)
swap_1001() {
"$B/tests/commconv" 6 "$1/task-1001.comm" || fail "commconv"
python3 - "$1/task-1001.comm" <<'PY'
import sys
path = sys.argv[1]
d = open(path, 'rb').read()
hl = pos = int.from_bytes(d[12:16], 'little')
def skip(p):
    while d[p] & 0x80: p += 1
    return p + 1
recs = []
while pos < len(d) and d[pos] != 0:  # kind, then varints (end: 3;
    q = pos + 1                      # clock 16: 3, calib 17: 1)
    for _ in range({6: 3, 16: 3, 17: 1}.get(d[pos], 6)): q = skip(q)
    recs.append(d[pos:q]); pos = q
ev = [i for i, r in enumerate(recs) if r[0] < 16]  # events only
recs[ev[1]], recs[ev[2]] = recs[ev[2]], recs[ev[1]]
open(path, 'wb').write(d[:hl] + b''.join(recs) + d[pos:])
PY
}
cp -r ok cyc
sed -i 's/argv=\["-ok"\]/argv=[]/' cyc/task-0.exec
swap_1001 cyc
pg -replay -logdir cyc
expect_eq "circle of waits: exit 3" "$(cat rc)" 3
expect_grep "circle of waits: worker 1 names the message" err \
	"^  task 1001 .* in pvm_recv\(from task 1002, tag 2\) .*waiting for message 1 of task 1002 \(blocked\)"
expect_grep "circle of waits: worker 2 names the message" err \
	"^  task 1002 .* waiting for message 1 of task 1001 \(blocked\)"

# The same circle while the master still works (-busy: 5 s without a PVM
# call): only the two workers are stuck, each waiting for the other's
# recorded message: reported while the master runs
pg -log -logdir busy "$D" -ok -busy
expect_eq "-ok -busy: exit 0" "$(cat rc)" 0
cp -r busy cyc2
sed -i 's/argv=\["-ok" "-busy"\]/argv=["-busy"]/' cyc2/task-0.exec
swap_1001 cyc2
start=$(date +%s%N)
pg -replay -logdir cyc2
ms=$(( ($(date +%s%N) - start) / 1000000 ))
expect_eq "circle, master busy: exit 3" "$(cat rc)" 3
expect_grep "circle, master busy: reported" err \
	"^pangaea: error: deadlock: tasks wait for messages that no live task will send:$"
expect_grep "circle, master busy: worker 1 named" err \
	"^  task 1001 .* waiting for message 1 of task 1002 \(blocked\)"
grep -q "^  task 1 " err && fail "circle, master busy: the running master was listed" ||
	pass "circle, master busy: the master is not listed"
[ "$ms" -lt 4500 ] && pass "circle, master busy: reported in $ms ms, before the master's 5 s" ||
	fail "circle, master busy: took $ms ms"
expect_no_leftovers
finish
