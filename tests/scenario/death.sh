# A run never hangs in silence when one of its tasks dies: the launcher
# says at once which task died and how (the signal of a SIGKILL too, from
# PVM's TEV_ENDTASK trace event), ends the run (exit 2) unless a living
# task watches the dead one with pvm_notify, and leaves nothing behind.  A
# launcher killed outright has its run ended and its private VM halted by
# the coordinator.
. "$(dirname "$0")/../lib.sh"
S=$B/examples/sor
W=$B/examples/watcher

# now_ms: milliseconds since the epoch
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# worker_pid PROGRAM: the pid of a task of PROGRAM started without
# arguments (a spawned worker), among this test's processes.
worker_pid() {
	local p args
	for p in $(test_pids -x "$1"); do
		args=$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)
		[ "$args" = "$1 " ] && { echo "$p"; return; }
	done
}

# vm_files_gone: whether the test VM's address file and log are gone.
vm_files_gone() {
	[ ! -e "$PVM_TMP/pvmd.$(id -u).$VMID" ] && [ ! -e "$PVM_TMP/pvml.$(id -u).$VMID" ]
}

# 1. a worker of sor SIGKILLed in the middle of the run
timeout 60 "$PANGAEA" -log -logdir sor "$S" 4 160 15000 >out 2>err &
pid=$!
sleep 1.5
w=$(worker_pid "$S")
[ -n "$w" ] && pass "found a sor worker" || fail "no sor worker running"
[ -n "$w" ] && kill -9 "$w"
t0=$(now_ms)
wait $pid; echo $? >rc
t=$(( $(now_ms) - t0 ))
expect_eq "killed worker: launcher exits 2" "$(cat rc)" 2
[ "$t" -le 5000 ] && pass "killed worker: the run ended ${t} ms after the kill" ||
	fail "killed worker: the run took ${t} ms to end"
expect_grep "killed worker: named with its signal at once" err \
	"^pangaea: error: task 100[1-3] \(sor on [^)]*\) was killed by signal 9 \(Killed\) at [0-9]+\.[0-9]+ s$"
expect_grep "killed worker: the run is stopped" err \
	"no task of the run watches task 100[1-3] \(pvm_notify\): stopping the run"
expect_eq "killed worker: said once, not again in the final report" \
	"$(grep -cE '^pangaea: error: task [0-9]+ \(' err)" 1
grep -q "sor: checksum" out && fail "killed worker: sor finished anyway" ||
	pass "killed worker: sor did not finish"
vm_files_gone && pass "killed worker: the VM's files are gone" ||
	fail "killed worker: the VM's files are left"
expect_no_leftovers

# 1b. the same in a replay (of a complete recording)
pg -log -logdir sor6k "$S" 4 160 6000
expect_eq "sor recording exits 0" "$(cat rc)" 0
timeout 60 "$PANGAEA" -replay -logdir sor6k >out 2>err &
pid=$!
w=
for _ in $(seq 100); do w=$(worker_pid "$S"); [ -n "$w" ] && break; sleep 0.1; done
sleep 0.3
[ -n "$w" ] && kill -9 "$w"
wait $pid; echo $? >rc
expect_eq "replay, killed worker: launcher exits 2" "$(cat rc)" 2
expect_grep "replay, killed worker: named with its signal" err \
	"^pangaea: error: task 100[1-3] \(sor on [^)]*\) was killed by signal 9 \(Killed\) at [0-9.]+ s$"
expect_grep "replay, killed worker: the run is stopped" err "stopping the run"
expect_no_leftovers

# 2. a worker exits without pangaea_exit while its master waits for it
t0=$(now_ms)
pg -log -logdir noexit "$W" -nowatch -exit 3 2
t=$(( $(now_ms) - t0 ))
expect_eq "exit without pangaea_exit: launcher exits 2" "$(cat rc)" 2
expect_grep "exit without pangaea_exit: named at once" err \
	"^pangaea: error: task 1002 \(watcher on [^)]*\) exited with status 4 without calling pangaea_exit\(\) at [0-9.]+ s$"
expect_grep "exit without pangaea_exit: the run is stopped" err "stopping the run"
expect_grep "exit without pangaea_exit: the waiting master is stopped" err \
	"stopped the 1 other running task\(s\) of the run"
[ "$t" -le 10000 ] && pass "exit without pangaea_exit: ended in ${t} ms" ||
	fail "exit without pangaea_exit: took ${t} ms"
expect_no_leftovers

# 2b. the master watched its workers but cancelled it (PvmNotifyCancel):
#     a dead worker hangs it again, so the launcher must stop the run
pg -log -logdir cancelled "$W" -cancel 3 2
expect_eq "cancelled watch: launcher exits 2" "$(cat rc)" 2
expect_grep "cancelled watch: the death is nobody's business now" err \
	"no task of the run watches task 1002 \(pvm_notify\): stopping the run"
expect_no_leftovers

# 3. the master watches its workers (pvm_notify): a worker's death is
#    said, the run goes on and ends with the program's own result
pg -log -logdir watched "$W" 4 2
expect_eq "watched death: launcher exits 0" "$(cat rc)" 0
expect_grep "watched death: named" err \
	"^pangaea: error: task 1002 \(watcher on [^)]*\) was killed by signal 9 \(Killed\) at [0-9.]+ s$"
expect_grep "watched death: the run goes on" err \
	"task 1 watches task 1002 \(pvm_notify\): the run goes on"
expect_grep "watched death: the master saw the death" out \
	"^watcher: worker 2 died without answering$"
expect_grep "watched death: the program's own result" out \
	"^watcher: 3 of 4 workers answered, sum=26$"
grep -q "stopping the run" err && fail "watched death: the run was stopped" ||
	pass "watched death: the run was not stopped"
cp out watched.out
pg -replay -logdir watched -out watched.rep
expect_eq "watched death: its replay exits 0" "$(cat rc)" 0
cmp -s out watched.out && pass "watched death: the replay prints the same" ||
	fail "watched death: the replay prints otherwise"
expect_grep "watched death: the replay reproduces it" err \
	"replay reproduced all [0-9]+ events of 5 tasks"
expect_no_leftovers

# 4. the launcher itself SIGKILLed: the coordinator ends the run and halts
#    the private VM; nothing is left within seconds
timeout 60 "$PANGAEA" -log -logdir orphan "$S" 4 160 15000 >out 2>err &
pid=$!
sleep 1.5
pvmd=
for p in $(test_pids); do
	[ "$(cat "/proc/$p/comm" 2>/dev/null)" = pvmd ] && pvmd=$p
done
[ -n "$pvmd" ] && pass "launcher killed: found the private pvmd" ||
	fail "launcher killed: no private pvmd"
launcher=$(test_pids -x "$PANGAEA")
[ -n "$launcher" ] && kill -9 $launcher
wait $pid 2>/dev/null
for _ in $(seq 100); do
	[ -z "$(test_pids)" ] && vm_files_gone && break
	sleep 0.1
done
[ -z "$(test_pids)" ] && pass "launcher killed: no task, coordinator or pvmd left" ||
	{ fail "launcher killed: left running:"; describe_pids $(test_pids); }
vm_files_gone && pass "launcher killed: the VM's address file and log are gone" ||
	fail "launcher killed: the VM's files are left"
left=$(ls $PVM_TMP/pvmtmp"$(printf %06d "${pvmd:-0}")".* 2>/dev/null)
[ -z "$left" ] && pass "launcher killed: no pvmtmp file of the pvmd left" ||
	fail "launcher killed: left $left"
expect_no_leftovers

# 5. the same in a virtual machine the launcher joined: the coordinator
#    kills the run's tasks and leaves the machine running
printf '* ep=%s\n%s\n' "$B/examples" "$(hostname)" >hosts
echo quit | timeout 20 pvm hosts >/dev/null 2>&1
timeout 60 "$PANGAEA" -log -logdir joined "$S" 4 160 15000 >out 2>err &
pid=$!
sleep 1.5
expect_grep "joined VM: the launcher joined it" err "joined the running virtual machine"
launcher=$(test_pids -x "$PANGAEA")
[ -n "$launcher" ] && kill -9 $launcher
wait $pid 2>/dev/null
for _ in $(seq 100); do
	[ -z "$(test_pids -x "$S")$(test_pids -x "$B/bin/pangaea-coord")" ] && break
	sleep 0.1
done
[ -z "$(test_pids -x "$S")" ] && pass "joined VM: the run's tasks are gone" ||
	fail "joined VM: sor tasks left"
[ -z "$(test_pids -x "$B/bin/pangaea-coord")" ] && pass "joined VM: the coordinator is gone" ||
	fail "joined VM: the coordinator is left"
[ -e "$PVM_TMP/pvmd.$(id -u).$VMID" ] && pass "joined VM: the machine still runs" ||
	fail "joined VM: the machine was halted"
vm_halt
expect_no_leftovers
finish
