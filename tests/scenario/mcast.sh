# pvm_mcast and pvm_bcast as PVM does them (examples/mcaster): the caller
# and repeated tids left out of a multicast, one message with one id for
# all its receivers, a list with a bad tid sending nothing, a broadcast to
# a group with no other member (PvmNoInst) or to no group: the same return
# codes and the same deliveries as the program built on plain PVM, and
# every recording replayed identically, with and without delays.
. "$(dirname "$0")/../lib.sh"
M=$B/examples/mcaster
SRC=$TOP/examples/mcaster/mcaster.c
# (under AddressSanitizer: the tasks' output, compared line by line, must
# not end in LeakSanitizer's count of suppressed libpvm leaks, which
# varies with direct routes)
export LSAN_OPTIONS="$LSAN_OPTIONS:print_suppressions=0"

# 1. the same program on plain PVM, in a machine of our own whose
#    group server can be found
cc -std=c11 -O2 -DMCASTER_PLAIN -o "$T/mcaster-plain" "$SRC" -lgpvm3 -lpvm3 ||
	fail "the plain PVM build of mcaster.c"
printf '* ep=/usr/lib/pvm3/lib:%s\n%s\n' "$T" "$(hostname)" >hosts
echo quit | timeout 20 pvm hosts >/dev/null 2>&1
timeout 30 "$T/mcaster-plain" 3 >plain.out 2>plain.err
expect_eq "plain PVM: mcaster exits 0" "$?" 0
vm_halt
grep '^mcaster:' plain.out >plain.lines
expect_grep "plain PVM: the caller and repeats are left out" plain.lines \
	'^mcaster: A got 4: 1 10 11 12 \(0 from itself\)$'
expect_grep "plain PVM: the broadcast to a solo group is PvmNoInst" \
	plain.lines '^mcaster: bcast solo = -21$'
expect_grep "plain PVM: a send to -5 is PvmBadParam" \
	plain.lines '^mcaster: send -5 = -2$'

# (and with direct task-to-task routes, over which PVM's pvmmcast sends
# rather than through the pvmd)
echo quit | timeout 20 pvm hosts >/dev/null 2>&1
timeout 30 "$T/mcaster-plain" -direct 3 >plaind.out 2>plaind.err
expect_eq "plain PVM, direct routes: mcaster exits 0" "$?" 0
vm_halt
grep '^mcaster:' plaind.out >plain4.lines
expect_grep "plain PVM, direct routes: A got the route opener and one of each" \
	plain4.lines '^mcaster: A got 5: 0 1 10 11 12 \(0 from itself\)$'

# 2. recorded: the same codes and deliveries; replayed identically
#    (recording 4: with direct routes)
for i in 1 2 3 4; do
	start=$(date +%s%N)
	args=3 want=plain.lines
	[ "$i" = 4 ] && args="-direct 3" want=plain4.lines
	pg -log -logdir "rec$i" "$M" $args
	ms=$((($(date +%s%N) - start) / 1000000))
	expect_eq "recording $i exits 0" "$(cat rc)" 0
	[ "$ms" -lt 30000 ] && pass "recording $i ends in ${ms} ms" ||
		fail "recording $i took ${ms} ms"
	mv out "rec$i.out"
	grep '^mcaster:' "rec$i.out" >"rec$i.lines"
	if cmp -s "$want" "rec$i.lines"; then
		pass "recording $i: the same codes and deliveries as plain PVM"
	else
		fail "recording $i differs from plain PVM:"
		diff "$want" "rec$i.lines" | sed 's/^/    | /'
	fi
	expect_eq "recording $i: 3 of 3 replays identical" \
		"$(replays_identical "rec$i" 3 0)" 3
	expect_eq "recording $i: 2 of 2 replays with -delay 2000 identical" \
		"$(replays_identical "rec$i" 2 2000)" 2
done

# 3. what the log says: one multicast per call, its receivers as PVM
#    found them, one id for all of them
$TRACE dump rec1 >d
expect_grep "a failed broadcast is logged with PVM's code" d \
	'group bcast\("solo", 43\) = -21 '
expect_grep "... so is one to no group" d 'group bcast\("nosuch", 43\) = -19 '
expect_grep "the multicast names A, B and the tid of no task once" d \
	'mcast to=\[1001 1002 -1\] tag=40 msg=1 '
expect_grep "a multicast to [B B] is one to B" d 'mcast to=\[1002\] tag=40 msg=2 '
expect_eq "multicasts that send nothing are not logged" \
	"$(grep -c ' mcast ' d)" 6
expect_eq "each receiver takes message 1 of task 1 once" \
	"$(grep -c 'recv from=1 msg=1 tag=40 ' d)" 2
sed -n 's/.*recv from=1 msg=\([0-9]*\) tag=4[01] .*/\1/p' d | sort -n |
	uniq -c | awk '{ printf " %s:%s", $2, $1 }' >ids
expect_eq "one id per multicast, taken once by each of its receivers" \
	"$(cat ids)" " 1:2 2:1 3:2 4:2 5:2 6:2"
$TRACE check rec1 >chk 2>&1
expect_eq "the logs of the recording agree" "$?" 0
# over direct routes too, every message a worker took carries its id
$TRACE dump rec4 >d4
expect_eq "direct routes: the workers took 13 messages of the master" \
	"$(grep -c 'recv from=1 msg=[1-9][0-9]* tag=4[01] ' d4)" 13
$TRACE check rec4 >chk4 2>&1
expect_eq "direct routes: the logs of the recording agree" "$?" 0

# 4. a replay whose program broadcasts to another group where the log has
#    the failed broadcast diverges there, with the usual report
pg -replay -logdir rec1 -out bad "$M" 3 other
expect_eq "a replay broadcasting elsewhere exits 3" "$(cat rc)" 3
expect_grep "... and names the recorded failed broadcast" err \
	'event 3: the log expects pvm_bcast\("solo", 43\) = -21; the program called pvm_bcast\("other", 43\)'
expect_no_leftovers
finish
