# A task killed by SIGKILL leaves a readable log up to its last event; the
# launcher names the dead tasks; a task that exits without pangaea_exit is
# named too.
. "$(dirname "$0")/../lib.sh"
K=$B/tests/killme

timeout 60 "$PANGAEA" -log -logdir rec "$K" 40 >out 2>err &
pid=$!
for _ in $(seq 100); do grep -q ready out 2>/dev/null && break; sleep 0.1; done
expect_grep "the run got going" out "^killme: ready 40$"
# the run's killme tasks, master and worker, by their environment (the
# killme tasks of other runs are not ours to kill)
pids=$(test_pids -x "$K")
expect_eq "found the run's two killme tasks" "$(echo $pids | wc -w)" 2
[ -n "$pids" ] && kill -9 $pids
wait $pid; echo $? >rc
expect_eq "launcher exits 2 when tasks died" "$(cat rc)" 2
expect_grep "launcher names the killed master" err "task 1 \(.*killme on .*\) was killed( by signal 9| \(no end record)"
expect_grep "launcher names the killed worker" err "task 1001 \(.*killme on .*\) was killed"
$TRACE dump -task 1001 rec >w
expect_eq "worker: all 40 sends readable" "$(grep -c ' send to=1 tag=1 ' w)" 40
expect_grep "worker: last send is message 40" w "#40 send to=1 tag=1 msg=40 "
expect_grep "worker: log says it ended abruptly" w "log ends here: no end record"
$TRACE dump -task 1 rec >m
expect_eq "master: all 40 receives readable" "$(grep -c ' recv from=1001 ' m)" 40

pg -log -logdir noexit "$K" noexit
expect_eq "no pangaea_exit: exit 2" "$(cat rc)" 2
expect_grep "no pangaea_exit: named" err "task 1 \(.*killme on .*\) exited with status 3 without calling pangaea_exit"
expect_grep "no pangaea_exit: output relayed" out "leaving without pangaea_exit"
expect_no_leftovers
finish
