# Selective logging: static (pangaea_suspend around heartbeats) and at run
# time (-select) shrink the logs; the selected events replay; a replay
# asked for another selection is refused.
. "$(dirname "$0")/../lib.sh"
X=$B/examples/pollers
R=$B/examples/racy

# static: heartbeats are neither logged nor replayed
pg -log -logdir beats "$X" -mode nrecv -w 3 -m 4 -heartbeats
expect_eq "heartbeats recording exits 0" "$(cat rc)" 0
mv out beats.out
expect_grep "12 heartbeats got through" beats.out '12 heartbeats'
n=$($TRACE dump beats | grep -c 'tag=50 ' || true)
expect_eq "no heartbeat in the logs" "$n" 0
for j in 1 2 3; do
	pg -replay -logdir beats -out "beats.r$j" -delay 1500
	expect_eq "heartbeats replay $j exits 0" "$(cat rc)" 0
	cmp -s out beats.out && pass "heartbeats replay $j: same output" || { fail "heartbeats replay $j differs"; diff beats.out out | head; }
done

# run time: only task 1, only tag 1
pg -log -logdir all "$R" -w 3 -m 6
expect_eq "full recording exits 0" "$(cat rc)" 0
pg -log -logdir sel -select "tag=1 ltid=1" "$R" -w 3 -m 6
expect_eq "selected recording exits 0" "$(cat rc)" 0
mv out sel.out
a=$($TRACE dump all | grep -c '^  #')
s=$($TRACE dump sel | grep -c '^  #')
[ "$s" -lt "$a" ] && pass "selection shrinks the log ($a -> $s events)" || fail "selection did not shrink the log ($a -> $s)"
$TRACE dump -task 1 sel >d
expect_grep "the selection is in the log header" d 'selection tag=1 ltid=1'
n=$(grep -c 'recv from=100[1-3] msg=[0-9]* tag=1 ' d)
expect_eq "task 1's 18 receives of tag 1 are logged" "$n" 18
n=$(grep -c 'send .*tag=99 ' d || true)
expect_eq "its tag-99 sends are not" "$n" 0
n=$($TRACE dump -task 1002 sel | grep -c ' send ' || true)
expect_eq "task 1002 logs no sends" "$n" 0
expect_grep "run.info says what was selected" sel/run.info '^select tag=1 ltid=1$'
rm -f sel/trace.db
$TRACE dump --merged sel >merged
n=$(grep -A1 'task 1 #[0-9]* recv from=100[1-3] ' merged | grep -c 'unmatched: the other side was not selected')
expect_eq "the merged dump marks task 1's 18 receives as unmatched by selection" "$n" 18
# (that was from the logs: no import; imported, it prints the same)
[ -e sel/trace.db ] && fail "dump --merged imported the logs" ||
	pass "dump --merged reads the logs, no import"
$TRACE import sel >/dev/null
$TRACE dump --merged sel >merged.db
cmp -s merged merged.db && pass "dump --merged: the same from the logs and imported" ||
	fail "dump --merged differs once imported: $(diff merged merged.db | head -3)"
for j in 1 2 3; do
	pg -replay -logdir sel -out "sel.r$j" -delay 1500
	expect_eq "selected replay $j exits 0" "$(cat rc)" 0
	cmp -s out sel.out && pass "selected replay $j: same order" || { fail "selected replay $j differs"; diff sel.out out | head; }
done
pg -replay -logdir sel -select "tag=2"
expect_eq "another selection is refused" "$(cat rc)" 1
expect_grep "... clearly" err 'refusing to replay: the recording in sel was made with -select "tag=1 ltid=1", not "tag=2"'
pg -log -logdir bad -select "colour=red" "$R"
expect_eq "a bad selection is refused" "$(cat rc)" 1
expect_grep "... naming it" err "bad selection 'colour=red'"
expect_no_leftovers
finish
