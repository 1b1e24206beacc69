# What-if replay (-replay -swap LTID:EVENT=SENDER:MSGID): a recording of
# racy -w 3 is replayed up to the master's first wildcard receive, which
# is handed another worker's message; from there the master runs free and
# is recorded into -out.  Its first arrival is the one chosen, the run
# exits 0 (no divergence said of the free part), says where the master
# left the recording, and -out replays exactly.  Swaps that are not a
# racing alternative are refused with the valid ones.  With -crash, the
# swap that puts the last worker first crashes the master (exit 2), and
# so does every replay of that what-if.  Also: polls, pvm_kill, a spawn
# tree, the viewer.  Nothing is left running.
. "$(dirname "$0")/../lib.sh"
R=$B/examples/racy

# first_worker FILE: the worker number of the master's first arrival
first_worker() { sed -n 's/^racy: recv worker=\([0-9]\) seq=1$/\1/p;T;q' "$1"; }

# 1. a recording, and the racing alternatives of the master's first receive
pg -log -logdir rec "$R" -w 3
expect_eq "recording exits 0" "$(cat rc)" 0
cp out rec.out
ev=$($TRACE dump rec | sed -n '/^task 1 /,/^task/s/^  #\([0-9]*\) recv .*/\1/p' | head -1)
got=$(first_worker rec.out)
[ -n "$ev" ] && [ -n "$got" ] && pass "the master's first receive is event $ev (worker $got)" ||
	fail "no first receive in the recording"

# 2. swapping in the message it got anyway is refused, with the valid ones
pg -replay -swap "1:$ev=100$got:1" -logdir rec -out no1
expect_eq "a non-alternative: exit 1" "$(cat rc)" 1
expect_eq "a non-alternative: one line" "$(wc -l <err)" 1
expect_grep "a non-alternative: the valid ones listed" err \
	"^pangaea: error: -swap 1:$ev=100$got:1: not a racing alternative .*valid:( 100[1-3]:1){2}$"
alts=$(sed -n 's/.*valid: //p' err)
case " $alts " in *" 100$got:1 "*) fail "the message it got is listed as an alternative: $alts" ;;
		 *) pass "the message it got is not an alternative" ;; esac
pg -replay -swap "1:$ev=100$got:2" -logdir rec -out no2
expect_eq "a later message of one sender (FIFO): refused" "$(cat rc)" 1
pg -replay -swap "1:2=1001:1" -logdir rec -out no3
expect_eq "a send event: refused" "$(cat rc)" 1
expect_grep "a send event: said" err "not a racing alternative of that event \(no racing receive there\); valid: none$"
a1=${alts%% *}
pg -replay -swap "1:$((ev + 1))=1:999" -logdir rec -out no4
a2=$(sed -n 's/.*valid: \([^ ]*\).*/\1/p' err)
pg -replay -swap "1:$ev=$a1" -swap "1:$((ev + 1))=$a2" -logdir rec -out no4
expect_eq "a swap causally after another: refused" "$(cat rc)" 1
expect_grep "a swap causally after another: said" err \
	"^pangaea: error: -swap: the receive 1:$ev is in the causal past of another swap$"
[ ! -e no1 ] && [ ! -e no2 ] && [ ! -e no3 ] && [ ! -e no4 ] && pass "refused swaps leave no folder" ||
	fail "a refused swap left a folder"

# 3. each alternative: the master's first arrival is the chosen worker
for a in $alts; do
	w=${a#100}; w=${w%%:*}
	pg -replay -swap "1:$ev=$a" -logdir rec -out "w$w"
	expect_eq "swap to $a: exits 0 (the free part is no divergence)" "$(cat rc)" 0
	expect_eq "swap to $a: the master's first arrival is worker $w" \
		"$(first_worker out)" "$w"
	expect_grep "swap to $a: says where the master left the recording" err \
		"^pangaea: what-if: task 1 leaves the recording after event $ev of [0-9]+$"
	expect_grep "swap to $a: -out is a recording" err \
		"^pangaea: what-if run recorded [0-9]+ events of 4 tasks in .*/w$w "
	grep -q "error" err && { fail "swap to $a: an error:"; cat err; } ||
		pass "swap to $a: no error said"
	cp out "w$w.out"
	ok=$(replays_identical "w$w" 2 0)
	expect_eq "swap to $a: its -out replays exactly, twice" "$ok" 2
	$TRACE import "w$w" >/dev/null 2>&1
	expect_eq "swap to $a: pangaea-trace imports its -out" "$?" 0
done
if command -v Xvfb >/dev/null; then
	view_test whatif
	view --snapshot "$SHOTS/whatif-out.png" "w$w"
	expect_eq "the viewer draws a what-if's -out" "$(cat vrc)" 0
	[ -s "$SHOTS/whatif-out.png" ] && pass "the viewer's picture of it" ||
		fail "no picture of the what-if's -out"
else
	skip "the viewer on a what-if's -out" "no Xvfb"
fi
expect_no_leftovers

# 4. -crash: a clean recording (the master survives), the bad order chosen
for i in $(seq 10); do
	rm -rf crec
	pg -log -logdir crec "$R" -w 3 -crash
	[ "$(cat rc)" = 0 ] && break
done
expect_eq "a clean -crash recording" "$(cat rc)" 0
cev=$($TRACE dump crec | sed -n '/^task 1 /,/^task/s/^  #\([0-9]*\) recv .*/\1/p' | head -1)
if [ "$(first_worker out)" = 3 ]; then
	skip_ok "-crash what-if" "the recording's first arrival is worker 3 and it did not crash"
else
	pg -replay -swap "1:$cev=1003:1" -logdir crec -out cw
	expect_eq "-crash, last worker first: exit 2" "$(cat rc)" 2
	expect_grep "-crash: the master's crash is said" err \
		"^pangaea: error: task 1 \(racy on [^)]*\) was killed by signal 11"
	expect_grep "-crash: the bad order" out "^racy: recv worker=3 seq=1$"
	for j in 1 2; do
		pg -replay -logdir cw -out "cw.r$j"
		expect_eq "-crash: replay $j of the what-if crashes again (exit 2)" "$(cat rc)" 2
		expect_grep "-crash: replay $j: signal 11 again" err "killed by signal 11"
	done
fi
expect_no_leftovers

# 4b. polls: racy -poll takes the messages with pvm_nrecv; after the swap
# its polls are real, recorded, and replayed exactly
pg -log -logdir prec "$R" -w 3 -poll
expect_eq "-poll: recording exits 0" "$(cat rc)" 0
pev=$($TRACE dump prec | sed -n '/^task 1 /,/^task/s/^  #\([0-9]*\) recv .*via=pvm_nrecv.*/\1/p' | head -1)
pgot=$(first_worker out)
pa=1001:1; [ "$pgot" = 1 ] && pa=1002:1
pg -replay -swap "1:$pev=$pa" -logdir prec -out pw
expect_eq "-poll, swap to $pa at the first successful nrecv: exit 0" "$(cat rc)" 0
expect_eq "-poll, swap to $pa: the master's first arrival" "$(first_worker out)" "${pa:3:1}"
cp out pw.out
ok=$(replays_identical pw 2 0)
expect_eq "-poll, swap to $pa: its -out (real polls) replays exactly, twice" "$ok" 2
expect_no_leftovers

# 5. pvm_kill in a what-if (examples/killer: the master kills the slave
# that answers first in round 4 of 6): every first arrival of round 1
# swapped, the kill of a slave that runs free is not held back waiting
# for it to reach the end of its recording (it never would)
pg -log -logdir krec "$B/examples/killer" 4 6
expect_eq "killer: recording exits 0" "$(cat rc)" 0
pg -replay -swap "1:6=1:999" -logdir krec -out kno
kalts=$(sed -n 's/.*valid: //p' err)
[ -n "$kalts" ] && pass "killer: the master's first receive races: $kalts" ||
	fail "killer: no alternatives at 1:6"
for a in $kalts; do
	pg -replay -swap "1:6=$a" -logdir krec -out "k$a"
	expect_eq "killer, swap to $a: exit 0" "$(cat rc)" 0
	grep -q "has not come to the end of its recording" err &&
		{ fail "killer, swap to $a: a kill held back:"; grep error err; } ||
		pass "killer, swap to $a: no kill held back"
done
expect_no_leftovers

# 6. a spawn tree (examples/nested): C (1001001, A's child) swapped in
# first at the master; A replays only its spawn of C, and C, whose own
# send is in the cut, is handed replay mode (not A's free mode) and
# replays it
for i in $(seq 10); do
	rm -rf nrec
	pg -log -logdir nrec "$B/examples/nested"
	grep -q "^nested: first=B$" out && break
done
expect_grep "nested: a recording with B first" out "^nested: first=B$"
pg -replay -swap 1:3=1001001:1 -logdir nrec -out nw
expect_eq "nested, swap to C: exit 0" "$(cat rc)" 0
expect_grep "nested, swap to C: C first" out "^nested: first=C$"
expect_grep "nested: A leaves the recording after its spawn" err \
	"^pangaea: what-if: task 1001 leaves the recording after event 1 of"
expect_grep "nested: C is handed replay mode by A" <($TRACE dump nw) \
	"^task 1001001 .*, replay, "
cp out nw.out
ok=$(replays_identical nw 2 0)
expect_eq "nested: its -out replays exactly, twice" "$ok" 2
expect_no_leftovers
finish
