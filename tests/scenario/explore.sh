# pangaea -explore: from one clean recording of racy -w 3 -crash (the
# master survived), exploring the other orders of its racing receives
# finds the crash (the last worker's message first) every time; the run
# is kept as a recording that crashes again on every replay; the table
# names it; exit 4.  With the order masked out of the output
# (PANGAEA_OUTPUT_MASK), the other runs have the recording's outcome;
# without the mask they differ in output.  -from explores one receive's
# subtree only; -explore PROGRAM records first.  A recording that
# crashed (or exited non-zero): a run failing the same way is the same
# outcome.  Nothing is left running.
. "$(dirname "$0")/../lib.sh"
R=$B/examples/racy
MASK='worker=[0-9] seq=[0-9]|digest=[0-9a-f]+'

# clean_crash_rec DIR: a recording of racy -w 3 -crash in which the
# master survived (a few tries); 0 or 1
clean_crash_rec() {
	local i
	for i in $(seq 20); do
		rm -rf "$1"
		pg -log -logdir "$1" "$R" -w 3 -crash
		[ "$(cat rc)" = 0 ] && return 0
	done
	return 1
}

# 1. three attempts, each from its own clean recording
found=0
for a in 1 2 3; do
	if ! clean_crash_rec "c$a"; then
		fail "attempt $a: no clean recording in 20 tries"
		continue
	fi
	PANGAEA_OUTPUT_MASK=$MASK timeout 300 "$PANGAEA" -explore -budget 30 \
		-timeout 60 -logdir "c$a" >out 2>err
	rc=$?
	dir=$(sed -n 's/^  crash: task 1, signal 11 .*replay: pangaea -replay -logdir \(.*\)$/\1/p' out)
	if [ "$rc" = 4 ] && [ -n "$dir" ] && [ -d "$dir" ]; then
		found=$((found + 1))
		runs=$(grep -c '^pangaea: explore: run ' err)
		echo "   attempt $a: crash found, $runs run(s) in all, kept in $dir"
		echo "   attempt $a: $(grep -m1 'crash:' err)"
		# the first receive's alternatives come first, the last
		# worker's last: run 2
		n=$(sed -n 's|^pangaea: explore: run \([0-9]*\)/30: 1:[0-9]*=1003:1: crash: .*|\1|p' err)
		[ "$n" = 2 ] && pass "attempt $a: the crash is run 2" ||
			fail "attempt $a: the crash came at run '$n'"
	else
		fail "attempt $a: exit $rc, no crash kept:"; cat out err | head -20
	fi
done
expect_eq "the crash found from a clean recording in 3 of 3 attempts" "$found" 3
expect_grep "the table: the other runs have the recording's outcome" out \
	"^  same outcome as the recording +[0-9]+ run\(s\)"
expect_grep "the table: how many runs" out "^explored [0-9]+ what-if run\(s\) of .*: 2 outcome\(s\)$"
expect_grep "progress on stderr: runs done / budget" err "^pangaea: explore: run 1/30: 1:[0-9]+=100[1-3]:[0-9]+: "
# only runs that differ are kept: the crash's folder and its output files
kept=$(ls c3.explore | grep -cv '\.std\(out\|err\)$')
expect_eq "only the differing run is kept" "$kept" 1

# 2. the kept run crashes again, every replay
for j in 1 2; do
	pg -replay -logdir "$dir" -out "kept.r$j"
	expect_eq "the kept run, replay $j: exit 2" "$(cat rc)" 2
	expect_grep "the kept run, replay $j: the master's SIGSEGV" err \
		"^pangaea: error: task 1 \(racy on [^)]*\) was killed by signal 11"
	expect_grep "the kept run, replay $j: the bad order" out "^racy: recv worker=3 seq=1$"
done
expect_no_leftovers

# 3. an earlier exploration's runs stay: a new one numbers its runs after
# them (without the mask, the first run's output differs: kept)
timeout 60 "$PANGAEA" -explore -budget 1 -logdir c3 >out 2>err
expect_eq "a second exploration: exit 4" "$?" 4
[ -d c3.explore/002 ] && [ -d c3.explore/003 ] && [ ! -e c3.explore/001 ] &&
	pass "a second exploration: run 003 kept beside the first one's 002" ||
	fail "a second exploration: $(ls c3.explore | tr '\n' ' ')"
expect_grep "a second exploration: the table names it" out "replay: pangaea -replay -logdir .*/c3.explore/003$"

timeout 60 "$PANGAEA" -explore -budget 1 -logdir nosuch >out 2>err
expect_eq "no recording: exit 1" "$?" 1
[ ! -e nosuch.explore ] && pass "no recording: no folder left" ||
	fail "no recording: nosuch.explore left"

# 4. without the mask, the order shows in the output: the runs differ
rm -rf c1.explore
timeout 300 "$PANGAEA" -explore -budget 4 -from 1:6 -logdir c1 >out 2>err
expect_eq "-from 1:6, no mask: exit 4" "$?" 4
expect_grep "-from 1:6, no mask: the output differs" out "^  different output \(task 1\) +4 run\(s\)"
grep '^pangaea: explore: run ' err | grep -v ': 1:6=' >/dev/null &&
	fail "-from 1:6: a run whose first swap is elsewhere" ||
	pass "-from 1:6: every run's first swap is at 1:6"

# 5. -explore PROGRAM: records first, then explores (racy without -crash)
PANGAEA_OUTPUT_MASK=$MASK timeout 300 "$PANGAEA" -explore -budget 3 \
	-logdir p "$R" -w 2 >out 2>err
expect_eq "-explore PROGRAM, masked: exit 0" "$?" 0
expect_grep "-explore PROGRAM: recorded first" err "^pangaea: explore: recorded (.*/)?p \(exit 0"
expect_grep "-explore PROGRAM: 3 runs, all like the recording" out \
	"^  same outcome as the recording +3 run\(s\)"
[ -e p/run.info ] && pass "-explore PROGRAM: its recording is kept" ||
	fail "-explore PROGRAM: no recording in p"
expect_no_leftovers

# 6. every kind of outcome: examples/fates deadlocks, hangs or prints
# something else unless worker 1 comes first (as it nearly always does)
for i in $(seq 10); do
	rm -rf f
	pg -log -logdir f "$B/examples/fates"
	[ "$(cat rc)" = 0 ] && [ "$(cat out)" = "fates: done" ] && break
done
expect_eq "fates: a recording with worker 1 first" "$(cat rc):$(cat out)" "0:fates: done"
timeout 300 "$PANGAEA" -explore -budget 8 -timeout 5 -logdir f >out 2>err
expect_eq "fates: exit 4" "$?" 4
expect_grep "fates: the deadlock" out "^  deadlock +1 run\(s\)  swaps: 1:6=1002:1  replay: pangaea -replay -logdir .*/f.explore/[0-9]{3}$"
expect_grep "fates: the hang, ended by -timeout" out "^  time out \(over 5 s\) +1 run\(s\)  swaps: 1:6=1003:1  replay: "
expect_grep "fates: the other output" out "^  different output \(task 1\) +[0-9]+ run\(s\)  swaps: 1:6=1004:1  replay: "
expect_grep "fates: later swaps change nothing" out "^  same outcome as the recording +[0-9]+ run\(s\)"
expect_grep "fates: a second swap, in a run of the first" err "^pangaea: explore: run [0-9]/8: 1:6=1004:1 then 1:[0-9]+=100[1-3]:1: "
dl=$(sed -n 's/^  deadlock .*replay: pangaea -replay -logdir //p' out)
pg -replay -logdir "$dl" -out dl.r
expect_eq "fates: the kept deadlock deadlocks again on replay (exit 3)" "$(cat rc)" 3
expect_grep "fates: the replay says it" err "deadlock"
expect_no_leftovers

# 7. a recording that failed: tests/anytag's master dies of SIGSEGV (or
# exits with status 3) after its any-tag receives in every order, so
# every run that fails the same way (task 1, signal 11 / status 3) has
# the recording's outcome, though its output (the order) differs
for how in "-crash:signal 11" "-exit 3:exit status 3"; do
	rm -rf a a.explore
	pg -log -logdir a "$B/tests/anytag" 3 ${how%%:*}
	expect_grep "anytag ${how%%:*}: the recording failed (${how#*:})" a/run.info \
		"^task 1 .* end=[23]/(11|3) "
	timeout 300 "$PANGAEA" -explore -budget 10 -timeout 60 -logdir a >out 2>err
	expect_eq "anytag ${how%%:*}: every run failed as the recording did: exit 0" "$?" 0
	expect_grep "anytag ${how%%:*}: all 5 other orders run" out \
		"^explored 5 what-if run\(s\) of .*/a: 1 outcome\(s\)$"
	expect_grep "anytag ${how%%:*}: the same outcome" out \
		"^  same outcome as the recording +5 run\(s\)"
	expect_eq "anytag ${how%%:*}: no run kept" "$(ls a.explore | grep -c '^[0-9]*$')" 0
done
expect_no_leftovers
finish
