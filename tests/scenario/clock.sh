# Clock reads and seeds replayed (pangaea_lib/clock): programs whose
# output depends on the clock at every step print, in replay, exactly
# the recording's lines, elapsed times included.
# - timebudget (plain PVM, the LD_PRELOAD path): workers send until a
#   time budget runs out, tags from rand() seeded by time(NULL) ^
#   getpid(); replayed 3 times (once with -delay 2000), each identical
#   line for line and called identical by pangaea-trace verify;
# - seeded (pangaea.h, the source path): every clock and seed call, the
#   seed taken before pangaea_init; replayed likewise;
# - PVM's timing example: its measured times replayed, exit 0 (it ends with exit(1): a note);
# - a replay that reads the clock more often than recorded stops with a
#   divergence naming the task and the read;
# - a what-if reads the recorded clock before its cut, the real after;
# - -select clock=off: no clock record, real clock in replay.
. "$(dirname "$0")/../lib.sh"
SD=$B/tests/seeded
# timebudget as a user builds it, without Pangaea (nor a sanitizer: the
# preloaded library must come first)
TB=$T/timebudget
cc -O2 -o "$TB" "$TOP/tests/progs/timebudget.c" -lpvm3 ||
	{ fail "timebudget does not build"; finish; exit; }

pg -log -logdir tb "$TB" -w 3 -ms 200
expect_eq "timebudget recording exits 0" "$(cat rc)" 0
mv out tb.out
expect_grep "... prints its elapsed time" tb.out '^elapsed [0-9]+\.[0-9]{6} s$'
n=$($TRACE dump tb | grep -c ' time gettimeofday = ' || true)
[ "$n" -gt 100 ] && pass "the log holds its clock reads ($n)" || fail "only $n clock reads in the log"
expect_grep "... and its workers' seeds" <($TRACE dump tb) ' seed srand = '
# each replay must print the recording's lines, elapsed time included
expect_eq "timebudget: 2 replays and 1 with -delay 2000 identical" \
	"$( (replays_identical tb 2 0; replays_identical tb 1 2000) | paste -sd+ | bc)" 3

pg -log -logdir sd "$SD" 3
expect_eq "seeded recording exits 0" "$(cat rc)" 0
mv out sd.out
expect_grep "... prints its workers' draws" sd.out '^worker 2:( -?[0-9]+){12}$'
expect_eq "seeded: 2 replays identical" "$(replays_identical sd 2 1000)" 2

# a replay that reads the clock more often than its recording: the
# master reads once more when the file "extra" exists (not in record)
pg -log -logdir more "$TB" -w 1 -ms 50 -extra "$T/extra"
expect_eq "a short recording exits 0" "$(cat rc)" 0
# (its reads before its end record: the elapsed time is read after
# pvm_exit, which writes it)
n=$($TRACE dump -task 1 more | sed -n '1,/^  #[0-9]* end /p' | grep -c ' time gettimeofday = ')
expect_grep "... its elapsed time read after its end record" \
	<($TRACE dump -task 1 more | sed -n '/^  #[0-9]* end /,$p') ' time gettimeofday = '
touch extra
pg -replay -logdir more
expect_eq "a replay reading the clock once more stops as diverged" "$(cat rc)" 3
expect_grep "... naming the task, the event and the read" err \
	"replay diverged: task 1 \(.*timebudget on [^)]*\), event [0-9]+: clock read or seed $((n + 1)): the log has no more before the task's end \($n recorded\); the program called gettimeofday"
rm extra

# -select clock=off: nothing of the clock logged; its replay reads the
# real clock: the messages replay, the printed readings differ, which the
# launcher says (exit 3)
pg -log -logdir off -select clock=off "$SD" 2
expect_eq "a recording with clock=off exits 0" "$(cat rc)" 0
mv out off.out
n=$($TRACE dump off | grep -cE '^     (time|seed) ' || true)
expect_eq "... logs no clock read nor seed" "$n" 0
expect_grep "... says so in run.info" off/run.info '^select clock=off$'
pg -replay -logdir off
cmp -s out off.out && fail "its replay printed the recording's readings" || pass "its replay read the real clock"
expect_eq "... which the launcher finds (exit 3)" "$(cat rc)" 3
expect_grep "... with every event the same" err \
	'the replay differs from its recording: task 1 printed .* although all [0-9]+ events were the same'
expect_grep "... and says so in the header" <($TRACE dump -task 1 off) 'selection clock=off'


# a what-if (-swap): the master's first receive takes another worker's
# message; its clock reads before the cut are the recording's, after it
# the real clock's (a free task records again)
pg -log -logdir wi "$TB" -w 2 -ms 30
expect_eq "a recording for a what-if exits 0" "$(cat rc)" 0
ev=$($TRACE dump wi | sed -n '/^task 1 /,/^task/s/^  #\([0-9]*\) recv .*/\1/p' | head -1)
pg -replay -swap "1:$ev=1001:999" -logdir wi -out no
alt=$(sed -n 's/.*valid: //p' err); alt=${alt%% *}
pg -replay -swap "1:$ev=$alt" -logdir wi -out wi.swap
expect_eq "the what-if ($alt first) exits 0" "$(cat rc)" 0
reads() { $TRACE dump -task 1 "$1" | grep ' time gettimeofday = '; }
expect_eq "... its master's first clock read is the recording's" \
	"$(reads wi.swap | head -1)" "$(reads wi | head -1)"
[ "$(reads wi.swap | tail -1)" != "$(reads wi | tail -1)" ] &&
	pass "... its last the real clock's" ||
	fail "the what-if's last clock read is the recording's"

# PVM's timing example (unmodified, LD_PRELOAD): the times it measured
# are replayed, every line the recording's, exit 0
if pvmex_build; then
	STATUS_NOTE=1 pvmex_case timing '^RTT Avg uSec' '' -- "$PX/timing"
fi
expect_no_leftovers
finish
