# Pangaea's own messages never reach the app, not even pvm_recv(-1, -1);
# the top task sees PvmNoParent and its argv unchanged; MPMD runs work;
# a replay of the run reproduces it.
. "$(dirname "$0")/../lib.sh"
C=$B/tests/ctxcheck

pg -log -logdir rec "$C" 4 5 'a b"c'
expect_eq "record exits 0" "$(cat rc)" 0
expect_grep "no Pangaea message reached the app" out "^ctxcheck: ok: 20 app messages, nothing else$"
expect_grep "launcher counts the events" err "recorded [0-9]+ events of 5 tasks"

pg -replay -logdir rec -out rep -delay 500
expect_eq "replay exits 0" "$(cat rc)" 0
expect_grep "replay output" out "^ctxcheck: ok: 20 app messages, nothing else$"
expect_grep "replay matches" err "replay reproduced all [0-9]+ events of 5 tasks"
$TRACE verify rec rep >v; expect_grep "pangaea-trace verify agrees" v "^identical"

# MPMD: two programs, tasks 1 and 2, each with its children.
pg -log -logdir mpmd "$C" 2 : "$C" 3
expect_eq "mpmd exits 0" "$(cat rc)" 0
expect_eq "mpmd: both programs ran" "$(grep -c '^ctxcheck: ok' out)" 2
for f in task-1 task-2 task-1001 task-1002 task-2001 task-2003; do
	[ -s "mpmd/$f.comm" ] && pass "mpmd: $f logged" || fail "mpmd: no $f.comm"
done
$TRACE dump mpmd >d
expect_grep "task 2's children are 2001..2003" d "spawn #1 started=3 3 x .*ctxcheck -> 2001@.* 2002@.* 2003@"
expect_no_leftovers
finish
