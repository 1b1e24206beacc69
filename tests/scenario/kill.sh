# A task that another task of the run ends with pvm_kill (PVM's `timing`
# example: the master kills its slave) is killed on purpose: the launcher
# says who killed whom, lets the run go on and exits 0.  Every replay
# kills the same slave at the same point of its log: it waits at the end
# of its recording for the replayed pvm_kill, not running past it (the
# killer waits, in turn, for its victim to get there), with or without
# random delays.  A task killed at once, before it joined the run, is a
# kill too: exit 0, logs that `check` finds consistent (it has none), and
# a replay that kills it again at once.  Nothing is left running.
. "$(dirname "$0")/../lib.sh"
K=$B/examples/killer

# now_ms: milliseconds since the epoch
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

KILLED="^pangaea: task 100[1-9] \(killer on [^)]*\) was killed by task 1 \(pvm_kill\) at [0-9]+\.[0-9]+ s$"

# 1. the master kills the slave that answered first in a middle round
t0=$(now_ms)
pg -log -logdir one "$K" 4 6
t=$(( $(now_ms) - t0 ))
expect_eq "one killed: recording exits 0" "$(cat rc)" 0
expect_grep "one killed: said as a kill, with the killer" err "$KILLED"
expect_eq "one killed: said once" "$(grep -c 'was killed by task' err)" 1
grep -Eq "error|stopping the run" err &&
	{ fail "one killed: an error or a stopped run:"; cat err; } ||
	pass "one killed: no error, the run went on"
expect_grep "one killed: the master went on to its end" out \
	"^killer: 6 rounds, victim [1-4], late answers [01], sum=[0-9]+$"
v=$(sed -n 's/^killer: killed slave \([0-9]\) in round 5$/\1/p' out)
[ -n "$v" ] && pass "one killed: the master names its victim" ||
	fail "one killed: no victim in the output"
expect_grep "one killed: the launcher names that very slave" err \
	"^pangaea: task 100$v \(killer on"
expect_grep "one killed: the kill is in the killer's log" \
	<($TRACE dump one 2>&1) "kill task=100$v "
expect_grep "one killed: run.info says who killed it" one/run.info \
	"killed by task 1 \(pvm_kill\)"
[ "$t" -le 20000 ] && pass "one killed: recorded in ${t} ms" ||
	fail "one killed: took ${t} ms"
cp out one.out
expect_no_leftovers

# 1b. the viewer shows the kill event's details (its call, the victim)
if command -v Xvfb >/dev/null && command -v sqlite3 >/dev/null; then
	$TRACE import one >/dev/null
	view_event_text one "$(sqlite3 one/trace.db \
		"SELECT id FROM events WHERE kind='kill'")"
	expect_eq "viewer: exits 0 on a kill event" "$?" 0
	expect_grep "viewer: the kill event's call and victim" result \
		"call pvm_kill, task ltid 1, .*killed ltid: 100$v"
else
	skip "viewer: the kill event's details" "no Xvfb or sqlite3"
fi

# 2. its replays: the same slave dies at the same point, every time
ok=$(replays_identical one 3 0)
expect_eq "one killed: 3 replays identical (exit 0, output, verify)" "$ok" 3
expect_grep "one killed: the replay says the kill too" err "$KILLED"
ok=$(replays_identical one 2 2000)
expect_eq "one killed: 2 replays with -delay 2000 identical" "$ok" 2
expect_no_leftovers

# 2b. the same with messages routed straight (PvmRouteDirect, as PVM's
#     timing does): the kill's notice to the launcher and the victim's
#     death notice come different ways, the kill is said all the same
pg -log -logdir direct "$K" -direct 4 6
expect_eq "direct routes: recording exits 0" "$(cat rc)" 0
expect_grep "direct routes: said as a kill" err "$KILLED"
grep -Eq "error|stopping the run" err &&
	{ fail "direct routes: an error or a stopped run:"; cat err; } ||
	pass "direct routes: no error"
cp out direct.out
# (the master and a slave print at once: their lines may interleave)
ok=$(OUT_AS_SET=1 replays_identical direct 2 0)
expect_eq "direct routes: 2 replays identical" "$ok" 2
ok=$(OUT_AS_SET=1 replays_identical direct 1 2000)
expect_eq "direct routes: a replay with -delay 2000 identical" "$ok" 1
expect_no_leftovers

# 2c. a kill of a tid that is no task of the run is logged and replayed
#     as it came, without the launcher waiting for a victim
pg -log -logdir foreign "$K" -foreign 2 3
expect_eq "no task killed: recording exits 0" "$(cat rc)" 0
expect_grep "no task killed: PVM's answer" out "^killer: a kill of no task: (refused|done)$"
expect_grep "no task killed: logged" <($TRACE dump foreign 2>&1) "kill task=-1 "
cp out foreign.out
t0=$(now_ms)
ok=$(replays_identical foreign 1 0)
t=$(( $(now_ms) - t0 ))
expect_eq "no task killed: its replay is identical" "$ok" 1
grep -q "has not come to the end" err &&
	fail "no task killed: the replayed kill waited for a victim" ||
	pass "no task killed: the replayed kill waited for nobody"
[ "$t" -le 8000 ] && pass "no task killed: replayed in ${t} ms" ||
	fail "no task killed: the replay took ${t} ms"
expect_no_leftovers

# 3. -all: the master also kills every other slave at the end
pg -log -logdir all "$K" -all 3 4
expect_eq "all killed: recording exits 0" "$(cat rc)" 0
expect_eq "all killed: each of the 3 slaves said killed" \
	"$(grep -cE "$KILLED" err)" 3
grep -Eq "error|stopping the run" err &&
	{ fail "all killed: an error or a stopped run:"; cat err; } ||
	pass "all killed: no error"
cp out all.out
ok=$(replays_identical all 2 0)
expect_eq "all killed: 2 replays identical" "$ok" 2
ok=$(replays_identical all 1 2000)
expect_eq "all killed: a replay with -delay 2000 identical" "$ok" 1
expect_no_leftovers

# 4. the victim took and answered its last token before it was killed
#    (-pause); replays with long random delays slow it down, so that the
#    replayed kill would often strike before it got there again: the
#    killer must wait for its victim to reach the end of its recording
pg -log -logdir slow "$K" -pause 100 2 3
expect_eq "slowed victim: recording exits 0" "$(cat rc)" 0
v=$(sed -n 's/^killer: killed slave \([0-9]\) in round 3$/\1/p' out)
n=$($TRACE dump slow 2>&1 | awk -v t="task 100$v " \
	'index($0, t) == 1 { f = 1; next } /^task / { f = 0 } f' |
	grep -c "send to=1 tag=2 ")
expect_eq "slowed victim: it answered all 3 tokens before it died" "$n" 3
cp out slow.out
t0=$(now_ms)
ok=$(replays_identical slow 3 300000)
t=$(( $(now_ms) - t0 ))
expect_eq "slowed victim: 3 replays with -delay 300000 identical" "$ok" 3
[ "$t" -le 60000 ] && pass "slowed victim: 3 replays in ${t} ms" ||
	fail "slowed victim: 3 replays took ${t} ms"
expect_no_leftovers

# 5. the victim stops calling PVM after its last event (-spin): in replay
#    it never asks to wait for its kill, and its killer must not wait for
#    it for ever: after 10 s the launcher says so and lets the kill go
pg -log -logdir spin "$K" -spin -pause 100 2 3
expect_eq "spinning victim: recording exits 0" "$(cat rc)" 0
expect_grep "spinning victim: said as a kill" err "$KILLED"
cp out spin.out
t0=$(now_ms)
ok=$(replays_identical spin 1 0)
t=$(( $(now_ms) - t0 ))
expect_eq "spinning victim: its replay is identical" "$ok" 1
expect_grep "spinning victim: the launcher says why the kill waited" err \
	"^pangaea: error: task 100[12] has not come to the end of its recording 10 s after task 1's pvm_kill of it: killing it now"
[ "$t" -ge 9000 ] && [ "$t" -le 30000 ] &&
	pass "spinning victim: the replay ended after the wait (${t} ms)" ||
	fail "spinning victim: the replay took ${t} ms"
expect_no_leftovers
# 6. the master spawns a slave and kills it at once, before it joins
#    (-early: the slave sleeps 10 s before its first call): it has no
#    log, which is no accident; the replay kills it again and compares
#    identical
pg -log -logdir early "$K" -early 2 3
expect_eq "killed before joining: recording exits 0" "$(cat rc)" 0
expect_grep "killed before joining: said as a kill" err \
	"^pangaea: task 1001 \(killer on [^)]*\) was killed by task 1 \(pvm_kill\)"
grep -Eq "error|without calling pangaea_exit" err &&
	{ fail "killed before joining: called an accident:"; cat err; } ||
	pass "killed before joining: no error"
[ ! -e early/task-1001.comm ] && pass "killed before joining: it has no log" ||
	fail "killed before joining: the slave joined before its kill"
$TRACE check early >ck 2>&1
expect_eq "killed before joining: check exit 0" "$?" 0
expect_grep "killed before joining: no contradiction" ck "^the logs of early agree$"
$TRACE import early >imp 2>&1
expect_eq "killed before joining: import exit 0" "$?" 0
cp out early.out
expect_eq "killed before joining: replays identical (also with delays)" \
	"$(replays_identical early 2 2000)" 2
expect_no_leftovers
finish
