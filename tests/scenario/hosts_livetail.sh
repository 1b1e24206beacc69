# The live view on a virtual machine of three hosts, where every host's
# logs are read on that host and no task sends batches.  1. The
# coordinator on another host (h2) than the launcher's (h1): it reads
# the logs of the tasks of h2 and no others (as many events as the trace
# database has for h2's tasks), h3's beacon reads h3's and sends them to
# it as batches, which it waits for at the end, the relay on h1 reads
# h1's, and the stream that reaches the socket on h1 (through the relay)
# holds every event of the run, task by task and kind by kind.  2. The
# coordinator on h1: the beacons of h2 and h3 read their hosts' logs.
# A reader stands in for the viewer.
. "$(dirname "$0")/../lib.sh"

if ! command -v sqlite3 >/dev/null; then
	skip "the live view across hosts" "no sqlite3"
	finish
	exit
fi
if ! hosts_up 3; then
	finish
	exit
fi
hosts_vm h2 h3
expect_eq "vm: three hosts" "$(grep -c LINUX64 conf)" 3

# the socket's folder in the hosts' shared folder (h1's /tmp is its own)
mkdir -m 700 sock
SOCK=$S/sock/live.sock
live_reader "$SOCK" stream
PANGAEA_LIVE=$SOCK PANGAEA_TIMELINE=1 pg -log -view -coord h2 -logdir live \
	"$B/examples/sor" 6 40 200 </dev/null
wait "$READER"
expect_eq "live: exit 0" "$(cat rc)" 0
$TRACE import live >/dev/null
n=$(sqlite3 live/trace.db 'SELECT count(*) FROM events')
n2=$(sqlite3 live/trace.db "SELECT count(*) FROM events JOIN tasks USING (ltid) WHERE host = 'h2'")
[ "$n2" -gt 0 ] && [ "$n2" -lt "$n" ] &&
	pass "live: $n2 of the $n events are of tasks on h2" ||
	fail "live: $n2 of the $n events are of tasks on h2"
expect_grep "live: the coordinator read the events of h2's tasks from their logs, h3's beacon sent it those of h3's, no task sent batches" \
	err "coordinator: live view: 0 event batches from tasks, [1-9][0-9]* from other hosts' beacons, $n2 events read from logs"
expect_grep "live: it waited for late batches" err \
	"coordinator: waits for late event batches"
expect_eq "live: the stream on h1 has every event, task by task and kind by kind" \
	"$(awk '$1 == "E" { print $2, $3 }' stream | sort | uniq -c)" \
	"$(sqlite3 live/trace.db "SELECT ltid || ' ' || kind FROM events" |
		sort | uniq -c)"

# 2. the coordinator on h1, the launcher's host
live_reader "$SOCK" stream2
PANGAEA_LIVE=$SOCK PANGAEA_TIMELINE=1 pg -log -view -logdir live2 \
	"$B/examples/sor" 6 40 200 </dev/null
wait "$READER"
expect_eq "here: exit 0" "$(cat rc)" 0
$TRACE import live2 >/dev/null
n=$(sqlite3 live2/trace.db 'SELECT count(*) FROM events')
n1=$(sqlite3 live2/trace.db "SELECT count(*) FROM events JOIN tasks USING (ltid) WHERE host = 'h1'")
[ "$n1" -gt 0 ] && [ "$n1" -lt "$n" ] &&
	pass "here: $n1 of the $n events are of tasks on h1" ||
	fail "here: $n1 of the $n events are of tasks on h1"
expect_grep "here: the beacons of h2 and h3 sent the events of their hosts' tasks, no task sent batches" \
	err "coordinator: live view: 0 event batches from tasks, [1-9][0-9]* from other hosts' beacons, $n1 events read from logs"
expect_eq "here: the stream has every event, task by task and kind by kind" \
	"$(awk '$1 == "E" { print $2, $3 }' stream2 | sort | uniq -c)" \
	"$(sqlite3 live2/trace.db "SELECT ltid || ' ' || kind FROM events" |
		sort | uniq -c)"
hosts_end
expect_no_leftovers
finish
