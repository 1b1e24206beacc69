# The monitor-overhead correction on a real run (issue 14, section 3):
# sor -time 4 100 recorded (its own time of its receives is the trace's); each task calibrated its cost per logged call; the
# import with --correct-overhead says what it took off, marks the
# database, moves no event later than its raw time (a consistent trace),
# shortens the run, keeps every receive after its send, and leaves the
# raw times in t0_raw/t1_raw; an import without it gives the uncorrected
# times back.  The master's events before its first receive (nothing
# holds them) move by exactly the calibrated cost per event before them,
# and the calibration's scratch log is not left in the folder.
. "$(dirname "$0")/../lib.sh"

pg -log -logdir rec "$B/examples/sor" -time 4 100
expect_eq "record: exit 0" "$(cat rc)" 0
"$TRACE" import --sync offset rec >plain.out 2>&1
# sor -time's own span (its first receive's return to its last's) is the
# trace's between the same events, to 1 ms
own=$(sed -n 's/^elapsed \([0-9]*\)$/\1/p' out)
span=$("$TRACE" sql rec "SELECT MAX(t1) - MIN(t1) FROM events WHERE ltid = 1
	AND kind = 'recv'")
[ -n "$own" ] && [ "${span:-0}" -gt 0 ] &&
	[ $(( own > span ? own - span : span - own )) -lt 1000000 ] &&
	pass "sor -time: $own ns, the trace $span ns" ||
	fail "sor -time said '$own' ns, the trace '$span' ns"
"$TRACE" sql --csv rec "SELECT id, t0, t1 FROM events ORDER BY id" >before.csv
"$TRACE" import --sync offset --correct-overhead rec >imp.out 2>&1
expect_eq "import --correct-overhead: exit 0" "$?" 0
expect_grep "the summary names the cost" imp.out \
	"^overhead corrected: [0-9]+ events, up to [1-9][0-9]* ns an event, smallest latency [0-9]+ ns; the run ends 0\.[0-9]+ s earlier$"
expect_eq "meta says so" \
	"$("$TRACE" sql rec "SELECT value FROM meta WHERE key = 'overhead'")" corrected
"$TRACE" sql --csv rec "SELECT id, t0, t1 FROM events ORDER BY id" >after.csv
expect_eq "no event later than raw, none ending before it starts" \
	"$(paste -d, before.csv after.csv | awk -F, '$5 > $2 || $6 > $3 || $5 > $6 {n++} END {print n + 0}')" 0
moved=$(paste -d, before.csv after.csv | awk -F, '$5 < $2 {n++} END {print n + 0}')
[ "$moved" -gt 0 ] && pass "corrected: $moved events earlier" || fail "corrected: no event moved"
expect_eq "every receive after its send" \
	"$("$TRACE" sql rec "SELECT COUNT(*) FROM messages WHERE t_recv < t_send")" 0
# the master's spawn ends one cost earlier: that is its calibration C;
# its next events, till its first receive, start k*C earlier, end (k+1)*C
# earlier (or at their start, when shorter than that)
c=$("$TRACE" sql rec "SELECT t1_raw - t1 FROM events WHERE ltid = 1 AND seq = 1")
up=$(sed -n 's/.* up to \([0-9]*\) ns an event.*/\1/p' imp.out)
[ "${c:-0}" -gt 0 ] && [ "$c" -le "${up:-0}" ] &&
	pass "the master's calibration: $c ns (up to $up)" ||
	fail "the master's spawn moved by '$c' ns (up to '$up')"
expect_eq "the master's first sends moved by k calibrations" \
	"$("$TRACE" sql rec "SELECT COUNT(*) FROM events WHERE ltid = 1 AND
		seq > 1 AND seq < (SELECT MIN(seq) FROM events WHERE ltid = 1
		AND kind = 'recv') AND (t0_raw - t0 != (seq - 1) * $c OR
		(t1_raw - t1 != seq * $c AND t1 != t0))")" 0
expect_eq "it had such sends" "$("$TRACE" sql rec "SELECT COUNT(*) FROM
	events WHERE ltid = 1 AND kind = 'send' AND seq < (SELECT MIN(seq)
	FROM events WHERE ltid = 1 AND kind = 'recv')")" 4
expect_eq "no calibration scratch log left" "$(ls rec | grep -c calib)" 0
expect_eq "raw times kept" \
	"$("$TRACE" sql rec "SELECT COUNT(*) FROM events WHERE t0_raw IS NULL OR t0 > t0_raw")" 0
"$TRACE" import --sync offset rec >/dev/null 2>&1
"$TRACE" sql --csv rec "SELECT id, t0, t1 FROM events ORDER BY id" >again.csv
cmp -s before.csv again.csv && pass "a plain import gives the uncorrected times back" ||
	fail "a plain import did not give the uncorrected times back"
expect_no_leftovers
finish
