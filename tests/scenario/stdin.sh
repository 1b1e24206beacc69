# Standard input and output of the run's tasks.  The launcher gives its
# standard input to task 1 (the pvmd gives tasks /dev/null), records it in
# stdin.log and replays the recorded bytes whatever its own standard input
# is.  Task output is relayed by the launcher itself in bounded buffers: a
# task printing a huge line or partial lines cannot make it grow or crash
# (libpvm's pvm_catchout assembled lines without bound).
. "$(dirname "$0")/../lib.sh"
E=$B/tests/stdinecho
start=$(date +%s)

printf 'abc\ndef\n' | timeout 60 "$PANGAEA" -log -logdir rec "$E" >out 2>err
echo $? >rc
expect_eq "record with piped input: exit 0" "$(cat rc)" 0
expect_grep "task 1 read the first line" out "line 1: ABC$"
expect_grep "task 1 read the second line" out "line 2: DEF$"
expect_grep "task 1 saw the end of input" out "^stdinecho: eof after 2 lines$"
expect_grep "stdin.log: versioned, names task 1" rec/stdin.log "^pangaea-stdin 2 ltid=1$"
expect_grep "stdin.log: the end of input" rec/stdin.log "^eof$"
expect_eq "stdin.log: mode 0600" "$(stat -c %a rec/stdin.log)" 600
cp out rec.out

echo "something else" | timeout 60 "$PANGAEA" -replay -logdir rec >out 2>err
echo $? >rc
expect_eq "replay with another input: exit 0" "$(cat rc)" 0
expect_eq "replay with another input: same output" "$(cat out)" "$(cat rec.out)"
timeout 60 "$PANGAEA" -replay -logdir rec >out 2>err <&-
echo $? >rc
expect_eq "replay with stdin closed: exit 0" "$(cat rc)" 0
expect_eq "replay with stdin closed: same output" "$(cat out)" "$(cat rec.out)"
# the replay must not wait for its own input: one that never ends
mkfifo never
sleep 30 >never &
HELPERS="$HELPERS $!"
t0=$(date +%s)
timeout 60 "$PANGAEA" -replay -logdir rec >out 2>err <never
echo $? >rc
expect_eq "replay with an endless stdin: exit 0" "$(cat rc)" 0
expect_eq "replay with an endless stdin: same output" "$(cat out)" "$(cat rec.out)"
[ $(($(date +%s) - t0)) -lt 20 ] && pass "replay did not read its own stdin" ||
	fail "replay waited for its stdin"
cmp -s rec/stdin.log rec.replay-3/stdin.log && pass "the replay logs the same input" ||
	fail "the replay's stdin.log differs"

# an input still open when the run ends: no "eof" is recorded, and the
# replay gives the line and leaves the input open too
(printf 'first\nsecond\n'; sleep 3) | timeout 60 "$PANGAEA" -log -logdir open "$E" -one >out 2>err
echo "${PIPESTATUS[1]}" >rc
expect_eq "open input: exit 0" "$(cat rc)" 0
expect_grep "open input: one line read" out "^one line: first$"
[ "$(grep -c '^eof$' open/stdin.log)" = 0 ] && pass "open input: no eof recorded" ||
	fail "open input: an eof was recorded"
pg -replay -logdir open
expect_eq "open input, replay: exit 0" "$(cat rc)" 0
expect_grep "open input, replay: the same line" out "^one line: first$"

cp -r rec cut && truncate -s -6 cut/stdin.log
pg -replay -logdir cut
expect_eq "cut stdin.log: exit 1" "$(cat rc)" 1
expect_grep "cut stdin.log: said so" err "refusing to replay: .*cut/stdin.log: truncated: the chunk at offset [0-9]+ is cut off"

# stdin.log on a full disk (a 256 KiB tmpfs): 2.4 MB of input fill it
# long before task 1's own log: the run ends, the launcher named
trap 'umount "$T/full" 2>/dev/null; cleanup' EXIT
mkdir full
if mount -t tmpfs -o size=256k tmpfs full 2>mount.err; then
	for i in $(seq 600); do printf "%04000d\n" "$i"; done >big.in
	t0=$(date +%s)
	timeout 60 "$PANGAEA" -log -logdir full/rec "$E" <big.in >out 2>err
	echo $? >rc
	expect_eq "full disk: exit 2" "$(cat rc)" 2
	expect_grep "full disk: stdin.log named as the launcher's log" err \
		"task 0 \(the launcher\): cannot write its log: No space left on device"
	[ $(($(date +%s) - t0)) -lt 20 ] && pass "full disk: ends at once" ||
		fail "full disk: took $(($(date +%s) - t0)) s"
	umount full
else
	skip "full disk" "cannot mount a tmpfs here: $(cat mount.err)"
fi

# recording again into the same folder replaces stdin.log
printf 'x\n' | timeout 60 "$PANGAEA" -log -logdir rec "$E" >out 2>err
echo $? >rc
expect_eq "record again into the folder: exit 0" "$(cat rc)" 0
expect_grep "record again: the new input" out "line 1: X$"

# output: a 100 KB line, a 48 MB one held open for 3 s (the launcher's
# memory must not follow it), partial lines for 3 s
pg -log -logdir long "$E" -noline 100000
expect_eq "100 KB line: exit 0" "$(cat rc)" 0
expect_eq "100 KB line: relayed whole" "$(head -1 out | tr -d '\n' | wc -c)" 100000
# (an AddressSanitizer build keeps freed memory: not here)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=1 \
	timeout 60 "$PANGAEA" -log -logdir huge "$E" -noline 50331648 3 >/dev/null 2>err &
tpid=$!
hwm= lpid=
for _ in $(seq 40); do
	sleep 0.25
	[ -z "$lpid" ] && lpid=$(pgrep -P "$tpid") # the launcher, under timeout
	[ -n "$lpid" ] && h=$(awk '/^VmHWM/ {print $2}' "/proc/$lpid/status" 2>/dev/null) &&
		[ -n "$h" ] && hwm=$h
done
wait $tpid
echo $? >rc
expect_eq "48 MB line: exit 0" "$(cat rc)" 0
[ -n "$hwm" ] && [ "$hwm" -lt 32768 ] && pass "48 MB line: launcher peak memory ${hwm} kB" ||
	fail "48 MB line: launcher peak memory ${hwm:-unknown} kB (>= 32 MB)"
pg -log -logdir partial "$E" -partial 3
expect_eq "partial lines: exit 0" "$(cat rc)" 0
expect_eq "partial lines: every dot relayed" "$(head -1 out | tr -d '\n' | wc -c)" 60
expect_grep "partial lines: the end" out "^stdinecho: partial lines done$"

# on a terminal, an unfinished line (a prompt) shows once it waits: the
# ten x's are there during the task's 3 s pause, before their newline
if command -v script >/dev/null; then
	script -qefc "$PANGAEA -log -logdir tty $E -noline 10 3 </dev/null" ts >/dev/null &
	spid=$!
	sleep 1.8
	grep -q xxxxxxxxxx ts && pass "terminal: the unfinished line is shown" ||
		fail "terminal: the unfinished line is not shown while the task waits"
	wait $spid
	expect_grep "terminal: then its newline and the rest" ts "^xxxxxxxxxx.?$"
else
	skip "terminal: the unfinished line is shown" "no script(1)"
fi

# the launcher SIGKILLed while task 1 waits for input (in read(), not in
# PVM): the run's VM and tasks go with it (the coordinator ends them)
mkfifo slow
sleep 60 >slow &
HELPERS="$HELPERS $!"
"$PANGAEA" -log -logdir killed "$E" <slow >out 2>err &
lpid=$!
n=0
for _ in $(seq 50); do
	n=$(test_pids -x "$E" | wc -l)
	[ "$n" = 2 ] && break
	sleep 0.1
done
sleep 0.5 # (task 1 in read(), its worker in pvm_recv)
expect_eq "killed launcher: task 1 and its worker run" "$n" 2
kill -9 "$lpid"
wait "$lpid" 2>/dev/null
left=
for _ in $(seq 50); do
	left=
	for p in $(test_pids); do [[ " $HELPERS " == *" $p "* ]] || left="$left $p"; done
	[ -z "$left" ] && break
	sleep 0.2
done
[ -z "$left" ] && pass "killed launcher: nothing of the run left" ||
	{ fail "killed launcher: left running:"; describe_pids $left | sed 's/^/    | /'; }

end=$(date +%s)
[ $((end - start)) -lt 55 ] && pass "bounded time ($((end - start)) s)" ||
	fail "took $((end - start)) s"
kill $HELPERS 2>/dev/null
HELPERS=
expect_no_leftovers
finish
