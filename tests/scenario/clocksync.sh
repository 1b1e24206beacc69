# Clocks against a known truth (issue 14, section 4): two hosts of
# scripts/hosts.sh; h2's pvmd, and so every task it starts, runs under
# libfaketime with its clock 2 s ahead and 100 ppm fast (FAKETIME="+2
# x1.0001": CLOCK_REALTIME and CLOCK_MONOTONIC alike, one clock for the
# pvmd and its children).  A ping-pong (tests/progs/clockpp.c) between a master
# on h1, beside the coordinator whose clock is the reference, and a worker
# on h2 is recorded; its tasks print "truth" lines: their (faked)
# monotonic clock with the kernel's true time, read by a raw system call
# libfaketime does not see.  The clock samples in the logs give h2 an
# offset of -2 s and a drift of -100 ppm (within the drift bound: the
# largest round trip over the time between samples); every truth point
# mapped by the fit is within half the largest round trip of its host's
# kept samples (plus the drift bound past the last one) of its true time;
# the raw times have a message received before it was sent, the mapped
# ones none; on two hosts, h1's tasks (under the coordinator's pvmd)
# ping the coordinator as h2's do, their samples erring alike (on one
# host they read its clock: startup.sh).  Then the trace db's `--sync clc` (the clc engineer's, over
# these samples): no violation left, and the synchronised start of every
# event within the bound of its true time (from its task's truth points:
# the faked clock is a straight line of the true one).  Why a pvmd under libfaketime rather than tasks on one host
# with LD_PRELOAD: the fit is per host, so the skewed tasks need a host of
# their own, and a faked pvmd fakes all its tasks with one clock, as a
# real host's clock is one.
. "$(dirname "$0")/../lib.sh"
HOSTS="bash $TOP/scripts/hosts.sh"
# each host's /tmp is its own tmpfs, not a folder of this machine's
export PVM_TMP=/tmp
HD=$($HOSTS dir)
FT=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1

if [ ! -e "$FT" ]; then
	fail "no $FT (Debian package libfaketime, scripts/install-deps.sh)"
	finish
	exit
fi

halt_all() {
	[ -d "$HD/h1" ] &&
		$HOSTS run h1 sh -c 'echo halt | timeout 10 pvm' >/dev/null 2>&1
	$HOSTS down
	cleanup
}
trap halt_all EXIT

if ! $HOSTS up 2 2>up.err; then
	fail "hosts.sh up 2 (needs root, network and mount namespaces): $(cat up.err)"
	finish
	exit
fi
S=$HD/shared/$VMID
mkdir -p "$S" && cd "$S" || exit 1
# PVM_RSH: h2's pvmd with the skewed clock
cat >rsh <<EOT
#!/bin/sh
case "\$1" in h2) export LD_PRELOAD=$FT FAKETIME="+2 x1.0001"
	# (an ASan build's tasks then accept libfaketime before ASan's runtime)
	export ASAN_OPTIONS=verify_asan_link_order=0\${ASAN_OPTIONS:+:\$ASAN_OPTIONS} ;;
esac
exec $TOP/scripts/pvm-rsh "\$@"
EOT
chmod +x rsh
export PVM_RSH=$S/rsh
printf '* ep=%s\nh2\n' "$B/tests" >hostfile
$HOSTS run h1 sh -c "echo conf | timeout 30 pvm $S/hostfile" >conf 2>&1
expect_eq "vm: two hosts" "$(grep -c LINUX64 conf)" 2
$HOSTS run h2 sh -c 'date +%s' >h2.date
$HOSTS run h2 env LD_PRELOAD=$FT FAKETIME="+2 x1.0001" date +%s >h2.fake
[ $(($(cat h2.fake) - $(cat h2.date))) -ge 1 ] && pass "libfaketime: h2's faked clock is ahead" ||
	fail "libfaketime: no skew ($(cat h2.date) vs $(cat h2.fake))"

# record: master and coordinator on h1, the worker on h2; 200 round trips
# 10 ms apart (a run of ~2 s: the drift moves h2's offset by ~200 us)
# a clock sample every 0.5 s besides those at the start and the end,
# given to the launcher alone (it exports it to every task of the run):
# a piecewise fit
timeout 120 $HOSTS run h1 env PANGAEA_CLOCK_PERIOD=0.5 "$B/bin/pangaea" \
	-log -logdir "$S/rec" -coord h1 \
	-host h1 "$B/tests/clockpp" h2 200 10000 >out 2>err </dev/null
expect_eq "record: exit 0" "$?" 0
expect_eq "record: truth lines of both tasks" \
	"$(grep -o '^truth [0-9]*' out | sort -u | tr '\n' ' ')" "truth 1 truth 1001 "
"$TRACE" import --sync offset rec >/dev/null &&
	"$TRACE" sql --csv rec "SELECT src, dst, t_send, t_recv FROM messages
		WHERE unmatched IS NULL" >msgs.csv
"$B/tests/clockcheck" rec out msgs.csv >check
rc=$?
sed 's/^/    | /' check | grep -v '^    | task' | head -8
expect_eq "fit: every truth point within its bound" "$rc" 0
h2=$(grep '^host h2 ' check)
off=$(echo "$h2" | awk '{print $4}')
drift=$(echo "$h2" | awk '{print $6}')
dbound=$(echo "$h2" | awk '{print $16}')
[ "$(echo "$h2" | awk '{print $8}')" -ge 4 ] &&
	pass "fit: periodic samples ($(echo "$h2" | awk '{print $8}') kept on h2)" ||
	fail "fit: too few samples on h2: $h2"
# the offset at the first sample: -2 s, less the 100 ppm since h2's pvmd
# started its fake clock (under 60 s: 6 ms)
[ "$off" -le -2000000000 ] && [ "$off" -ge -2006000000 ] &&
	pass "fit: h2's offset $off ns (injected -2 s)" ||
	fail "fit: h2's offset $off ns, injected -2 s"
awk -v d="$drift" -v b="$dbound" 'BEGIN { t = -1e-4 / 1.0001;
	exit !(d - t <= b && t - d <= b) }' &&
	pass "fit: h2's drift $drift (injected -100 ppm, bound $dbound)" ||
	fail "fit: h2's drift $drift, injected -100 ppm, bound $dbound"
h1=$(grep '^host h1 ' check)
# (each kept sample is true within half its own round trip; h1's offset
# at its first kept sample is that sample's)
awk -v o="$(echo "$h1" | awk '{print $4}')" -v r="$(echo "$h1" | awk '{print $12}')" \
	'BEGIN { exit !(o <= r / 2 && -o <= r / 2) }' &&
	pass "fit: h1 (the coordinator's host) within half its largest round trip of 0" ||
	fail "fit: h1: $h1"
# (a ping through the pvmd and back takes 20 us and more, a read of the
# clock itself well under 10)
[ "$(echo "$h1" | awk '{print $10}')" -ge 10000 ] &&
	pass "on two hosts h1's samples are ping-pongs too ($(echo "$h1" | awk '{print $10}') ns at least)" ||
	fail "h1's samples took no round trip on two hosts: $h1"
v=$(grep '^messages ' check)
raw=$(echo "$v" | awk '{print $5}')
lin=$(echo "$v" | awk '{print $7}')
[ "${raw:-0}" -gt 0 ] && pass "raw times: $raw of $(echo "$v" | awk '{print $2}') messages received before sent" ||
	fail "raw times: no violation ($v)"
expect_eq "linear fit: no message received before it was sent" "$lin" 0

# the clc over the linear times
"$TRACE" import --sync clc rec >imp.out 2>&1
# (the clc starts from the linear times: its "before" counts theirs)
expect_grep "clc: no violation left" imp.out \
	"^times: clc \(clock condition violations: [0-9]+ before, 0 after"
expect_eq "clc: no receive before its send in the db" \
	"$("$TRACE" sql rec "SELECT COUNT(*) FROM messages WHERE t_recv < t_send")" 0
"$TRACE" sql --csv rec "SELECT ltid, t0_raw, t0 FROM events ORDER BY ltid, seq" >ev.csv
"$B/tests/clockcheck" rec out msgs.csv ev.csv >check2
rc=$?
grep '^events ' check2 | sed 's/^/    | /'
expect_eq "clc: every event's synchronised time within its bound of the truth" "$rc" 0

cd "$T" || exit 1
$HOSTS run h1 sh -c 'echo halt | timeout 10 pvm' >/dev/null 2>&1
$HOSTS down
[ -e "$HD" ] && fail "down: $HD is left" || pass "down: $HD removed"
expect_no_leftovers
finish
