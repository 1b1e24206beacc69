# A replay that does something else than the recording is stopped with a
# report (task, event number, expected, actual), exit 3, nothing left
# running.  Editing a host in an execution log moves (here: fails to move)
# a task.
. "$(dirname "$0")/../lib.sh"
R=$B/examples/racy

pg -log -logdir rec "$R" -w 3 -m 6
expect_eq "record exits 0" "$(cat rc)" 0

pg -replay -logdir rec "$R" -w 3 -m 6 -t 2
expect_eq "diverging replay exits 3" "$(cat rc)" 3
expect_grep "divergence report" err "replay diverged: task [0-9]+ \(.*racy on .*\), event [0-9]+: the log expects .*; the program (did|called|spawned) "
expect_no_leftovers
# verify of that replay names the divergence it found, with the
# replay's own report, not only how many tasks each run has
$TRACE verify rec rec.replay-1 >v
expect_grep "verify names the first differing event and the report" v \
	"^different: task [0-9]+, event [0-9]+: rec has .*, .*rec\.replay-1 has .* \(.*rec\.replay-1 says: replay diverged: task [0-9]+ .*event [0-9]+: the log expects .*\)$"

pg -replay -logdir rec "$R" -w 3 -m 7
expect_eq "a replay that sends more than recorded exits 3" "$(cat rc)" 3
expect_grep "names what ran past the log" err "replay diverged: task [0-9]+ .*"
expect_no_leftovers

# Move task 1002 to a host that does not exist: replay says it cannot.
cp -r rec moved
sed -i 's/ 1002@[^] ]*/ 1002@no-such-host/' moved/task-1.exec
grep -q '1002@no-such-host' moved/task-1.exec && pass "exec log edited by hand" || fail "edit failed"
pg -replay -logdir moved
expect_eq "replay on a missing host: refused, exit 1" "$(cat rc)" 1
expect_grep "names task, host and the exec log" err "^pangaea: error: refusing to replay: task 1002 \(racy\) was recorded on host no-such-host, which is not in the virtual machine \(its hosts: [^)]+\): add no-such-host to it, or move the task to one of them in moved/task-1\.exec$"
[ -s out ] && fail "missing host: a task ran: $(head -1 out)" ||
	pass "missing host: refused before any task started"
# The launcher's own spawn (task-0.exec) moved to a missing host: refused
# the same way.
cp -r rec moved0
sed -i 's/\[1@[^] ]*/[1@no-such-host/' moved0/task-0.exec
pg -replay -logdir moved0
expect_eq "task 1 on a missing host: exit 1" "$(cat rc)" 1
expect_grep "... names task 1, the host and task-0.exec" err "refusing to replay: task 1 \(racy\) was recorded on host no-such-host, .* in moved0/task-0\.exec$"
expect_no_leftovers
# And back to this host, spelled as the VM knows it: replay works.
cp -r rec back
sed -i "s/ 1002@[^] ]*/ 1002@$(hostname)/" back/task-1.exec
pg -replay -logdir back
expect_eq "replay with the host written out exits 0" "$(cat rc)" 0
expect_no_leftovers
finish
