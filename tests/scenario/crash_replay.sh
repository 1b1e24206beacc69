# racy -crash: record until the crash is caught; 10 of 10 replays crash the
# same way (100 in make check-long); a recording without the crash
# replays without it.
. "$(dirname "$0")/../lib.sh"
R=$B/examples/racy

crash= clean=
for try in $(seq 1 60); do
	# two workers: the crash needs the last-started worker first, which
	# with three happened in 1 run of 20 under ASan (CI missed it in 60)
	pg -log -logdir "try$try" "$R" -w 2 -m 5 -crash
	if [ "$(cat rc)" = 2 ] && [ -z "$crash" ]; then
		crash=try$try; cp out crash.out; cp err crash.err
	elif [ "$(cat rc)" = 0 ] && [ -z "$clean" ]; then
		clean=try$try; cp out clean.out
	fi
	[ -n "$crash" ] && [ -n "$clean" ] && break
done
[ -n "$crash" ] && pass "crash caught on $crash" || { fail "no crash in 60 runs"; finish; exit; }
[ -n "$clean" ] && pass "a clean run on $clean" || fail "no clean run in 60 runs"
expect_grep "launcher names the crash" crash.err "task 1 \(.*racy on .*\) was killed by signal 11 \(Segmentation fault\)"
$TRACE dump -task 1 "$crash" >d
expect_grep "the master's log ends with the signal" d "end signal 11 "

same=0 N=$((10 * SOAK))
for j in $(seq 1 $N); do
	pg -replay -logdir "$crash" -out "crep$j" -delay 1000
	if [ "$(cat rc)" = 2 ] && cmp -s out crash.out &&
	   grep -q "task 1 (.*racy on .*) was killed by signal 11 (Segmentation fault)" err; then
		same=$((same + 1))
	else
		echo "   replay $j: exit $(cat rc)"; head -3 err
	fi
done
expect_eq "$N of $N replays crash the same way" "$same" "$N"
$TRACE verify "$crash" crep1 >v
expect_grep "the crashed replay's log matches the recording" v "^identical"

if [ -n "$clean" ]; then
	for j in 1 2 3; do
		pg -replay -logdir "$clean" -out "ok$j" -delay 1000
		expect_eq "clean recording, replay $j: exit 0" "$(cat rc)" 0
		cmp -s out clean.out && pass "clean replay $j: same output" || fail "clean replay $j: output differs"
	done
else
	skip_ok "3 replays of a clean recording" "no clean run recorded"
fi
expect_no_leftovers
finish
