# Logs that parse but disagree are refused before any task is started:
# two workers' comm logs swapped, a receive's peer edited.  Exit 1 at once,
# the first contradiction named with its file and record; the good
# recording still replays; nothing left running.
. "$(dirname "$0")/../lib.sh"
R=$B/examples/racy

pg -log -logdir rec "$R" -w 3
expect_eq "a good recording" "$(cat rc)" 0
$TRACE check rec >check.out 2>&1
expect_eq "check: the good recording agrees" "$?" 0

# two workers' logs swapped
cp -r rec swapped
mv swapped/task-1001.comm x && mv swapped/task-1002.comm swapped/task-1001.comm &&
	mv x swapped/task-1002.comm
start=$(date +%s%N)
pg -replay -logdir swapped
ms=$(( ($(date +%s%N) - start) / 1000000 ))
expect_eq "swapped logs: exit 1" "$(cat rc)" 1
expect_grep "swapped logs: the contradiction named" err \
	"^pangaea: error: refusing to replay: swapped/task-1001.comm: header \(offset 16\) says task 1002, not the task its name says"
[ "$ms" -lt 5000 ] && pass "swapped logs: refused in $ms ms" || fail "swapped logs: took $ms ms"
[ ! -e swapped.replay-1/task-1.comm ] && pass "swapped logs: no task started" ||
	fail "swapped logs: a task ran"
$TRACE check swapped >check.out 2>&1
expect_eq "check: swapped logs exit 2 (a log refused by its reader)" "$?" 2
expect_grep "check: swapped logs named" check.out \
	"^pangaea-trace: swapped/task-1001.comm: header \(offset 16\) says task 1002"

# the master's first receive from worker 1 (1001) edited to name worker 2
# (1002), in its log rewritten as version 6 (version 7 gives peers as
# indices): a receive record is kind 2 (0x22: its source was -1) then the
# peer as a zigzag varint (1001 -> d2 0f, 1002 -> d4 0f); the records
# start after the header, whose length is the u32 at offset 12
cp -r rec peer
"$B/tests/commconv" 6 peer/task-1.comm
python3 - <<'PY' >edit.out
d = bytearray(open('peer/task-1.comm', 'rb').read())
i = d.index(b'\x22\xd2\x0f', int.from_bytes(d[12:16], 'little'))
d[i + 1] = 0xd4
open('peer/task-1.comm', 'wb').write(d)
print(i)
PY
start=$(date +%s%N)
pg -replay -logdir peer
ms=$(( ($(date +%s%N) - start) / 1000000 ))
expect_eq "changed peer: exit 1" "$(cat rc)" 1
expect_grep "changed peer: the contradiction named with file and record" err \
	"^pangaea: error: refusing to replay: the logs disagree: task-1.comm, record #[0-9]+ \(offset [0-9]+\): recv from task 1002, message [0-9]+, tag 1: "
[ "$ms" -lt 5000 ] && pass "changed peer: refused in $ms ms" || fail "changed peer: took $ms ms"
[ "$(wc -l <err)" = 1 ] && pass "changed peer: one line" || fail "changed peer: $(wc -l <err) lines"

# and the good recording replays
pg -replay -logdir rec
expect_eq "the good recording replays" "$(cat rc)" 0
expect_no_leftovers
finish
