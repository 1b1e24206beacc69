# A log folder on a full disk (a 256 KiB tmpfs): a recording, a replay's
# output and the launcher's own log stop at once with "cannot write its
# log: No space left on device" naming the task, exit 2, no SIGBUS in the
# mapped log, nothing left running, and what did fit is readable.
. "$(dirname "$0")/../lib.sh"
S=$B/examples/sor
SOR_RE='task [0-9]+ \(.*sor on [^)]*\): cannot write its log: No space left on device'

# (unmounted before lib.sh's cleanup removes $T)
trap 'umount "$T/full" 2>/dev/null; cleanup' EXIT
mkdir full
if ! mount -t tmpfs -o size=256k tmpfs full 2>mount.err; then
	skip "disk full" "cannot mount a tmpfs here: $(cat mount.err)"
	finish
	exit
fi

# ended_full WHAT SECS RE: the launcher's run (WHAT) ended in SECS
# seconds, at once, with exit status 2 and RE on its stderr
ended_full() {
	expect_eq "$1: exit 2" "$(cat rc)" 2
	expect_grep "$1: names what it could not write and the error" err "$3"
	[ "$2" -lt 20 ] && pass "$1: ends at once ($2 s)" || fail "$1: took $2 s"
}

# checks the run of the launcher that ended with exit status RC in SECS
# seconds and logged into DIR (WHAT names it)
check_full_run() {
	local what=$1 dir=$2 secs=$3
	ended_full "$what" "$secs" "$SOR_RE"
	if grep -Eqi 'signal 7|bus error|SIGBUS' err out; then
		fail "$what: a SIGBUS"; grep -Ei 'signal 7|bus error|SIGBUS' err out | head -3
	else pass "$what: no SIGBUS"; fi
	$TRACE dump "$dir" >d 2>derr; echo $? >drc
	expect_eq "$what: dump reads what fit" "$(cat drc)" 0
	[ "$(grep -Ec '^  #[0-9]+ (send|recv|mcast) ' d)" -gt 100 ] &&
		pass "$what: the events that fit are there" ||
		fail "$what: $(grep -Ec '^  #[0-9]+ ' d) events readable"
	grep -q 'end signal 7' d && fail "$what: a task logged SIGBUS" ||
		pass "$what: no task died of SIGBUS"
	# the task that could not write stopped logging: no end record after a gap
	ltid=$(sed -En 's/.*task ([0-9]+) \(.*cannot write its log.*/\1/p' err | head -1)
	$TRACE dump -task "$ltid" "$dir" >t
	expect_grep "$what: task $ltid's log ends without an end record" t \
		"log ends here: no end record"
}

start=$(date +%s)
pg -log -logdir full/rec "$S" 4 160 15000
check_full_run "record" full/rec $(($(date +%s) - start))
expect_no_leftovers

# a replay whose output folder is full
rm -rf full/rec
pg -log -logdir rec "$S" 4 160 1000
expect_eq "recording to replay exits 0" "$(cat rc)" 0
start=$(date +%s)
pg -replay -logdir rec -out full/rep
check_full_run "replay" full/rep $(($(date +%s) - start))
expect_no_leftovers
# the launcher's own log (task 0's exec log): a spawn line longer than
# the one page left on the disk
rm -rf full/rep
mkdir full/rec0
dd if=/dev/zero of=full/filler bs=4k 2>/dev/null
truncate -s -8192 full/filler  # a page for the lock file, one for the log
args=$(for i in $(seq 600); do printf 'arg%04d ' "$i"; done)
start=$(date +%s)
pg -log -logdir full/rec0 "$S" 4 160 1000 $args
ended_full "launcher's log" $(($(date +%s) - start)) \
	"task 0 \(the launcher\): cannot write its log: No space left on device"
expect_no_leftovers
rm -f full/filler

# output.log on a full disk: tests/outprint's worker prints 3000 lines of
# 280 bytes (840 kB) into a 256 KiB folder.  The launcher names the file
# and the error, the run stops (exit 2), and output.log keeps every line
# it had taken, whole: it reads back as the first lines the launcher
# relayed to its standard output, in order.
python3 -c "print('x' * 250)" >line
start=$(date +%s)
pg -log -logdir full/out "$B/tests/outprint" "$T/line" 3000
ended_full output.log $(($(date +%s) - start)) \
	"cannot write .*/full/out/output\.log: No space left on device: the run stops; the lines written before are kept"
$TRACE dump --output full/out >d 2>derr; echo $? >drc
expect_eq "output.log: dump --output reads it (no record cut by the full disk)" "$(cat drc) $(cat derr)" "0 "
sed -n '2,$p' d | sed -E 's/^  task [0-9]+ [0-9.]+ (line|part) //' >dt
n=$(wc -l <dt)
[ "$n" -gt 100 ] && [ "$n" -lt 3000 ] && pass "output.log: kept $n lines of the 3005" ||
	fail "output.log: $n lines kept"
head -n "$n" out | cmp -s - dt && pass "output.log: its lines are the first $n the run printed, in order" ||
	fail "output.log: its lines differ from what the run printed"
expect_grep "output.log: the worker's lines that fit, numbered from 1" dt "^outprint: line 1 of 3000: x{250}$"
expect_no_leftovers
rm -rf full/out

umount full && pass "tmpfs unmounted" || fail "tmpfs still busy"
leftover=$(ls -d $PVM_TMP/pvmd.$(id -u).$VMID $PVM_TMP/pvml.$(id -u).$VMID 2>/dev/null)
expect_eq "nothing of the runs left in /tmp" "$leftover" ""
finish
