# The live view with the coordinator on another host (h2) than the
# launcher's (h1), on a virtual machine of three hosts: the coordinator
# reads the logs of the tasks of h2 and no others (as many events as the
# trace database has for h2's tasks), the tasks of h1 and h3 send it
# batches, which it waits for at the end, and the stream that reaches
# the socket on h1 (through the relay there) holds every event of the
# run, task by task and kind by kind.  A reader stands in for the viewer.
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
expect_grep "live: the coordinator read the events of h2's tasks from their logs, and got batches from the others" \
	err "coordinator: live view: [1-9][0-9]* event batches from tasks, $n2 events read from logs"
expect_grep "live: it waited for late batches" err \
	"coordinator: waits for late event batches"
expect_eq "live: the stream on h1 has every event, task by task and kind by kind" \
	"$(awk '$1 == "E" { print $2, $3 }' stream | sort | uniq -c)" \
	"$(sqlite3 live/trace.db "SELECT ltid || ' ' || kind FROM events" |
		sort | uniq -c)"
hosts_end
expect_no_leftovers
finish
