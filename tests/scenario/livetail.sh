# The live view without the tasks' batches: with -view, the tasks on the
# coordinator's host send it no PG_TAG_EVENTS batch (the coordinator
# counts those it gets and says so with PANGAEA_TIMELINE), the
# coordinator reads their logs as they are written instead, and the
# live stream still holds every event of the run: as many event lines,
# task by task and kind by kind, as the trace database has events, for a
# recording, for a task killed in mid-run (pvm_kill: its logged events
# come all the same) and for a replay.  A reader on the socket stands in
# for the viewer.  Nothing is left running.
. "$(dirname "$0")/../lib.sh"

mkdir -m 700 sock
SOCK=$T/sock/live.sock

# live_run NAME DIR PROG ARGS...: a live run of PROG (the launcher's
# ARGS) read by the reader into NAME.stream; checks it against DIR's
# trace database
live_run() {
	local name=$1 dir=$2 prog=$3 n
	shift 3
	rm -f "$SOCK"
	live_reader "$SOCK" "$name.stream"
	PANGAEA_LIVE=$SOCK PANGAEA_TIMELINE=1 pg -view "$@"
	wait "$READER"
	expect_eq "$name: exits 0" "$(cat rc)" 0
	$TRACE import "$dir" >/dev/null
	n=$(sqlite3 "$dir/trace.db" 'SELECT count(*) FROM events')
	[ "$n" -gt 50 ] && pass "$name: $n events" ||
		fail "$name: only $n events"
	expect_grep "$name: no task sent a batch, the coordinator read every event from the logs" \
		err "coordinator: live view: 0 event batches from tasks, 0 from other hosts' beacons, $n events read from logs \(CPU [0-9]+ ms\)$"
	grep -q "coordinator: waits for late event batches" err &&
		fail "$name: the coordinator waited for late batches" ||
		pass "$name: the coordinator did not wait for late batches (none can come)"
	expect_eq "$name: the stream starts with its version" \
		"$(head -1 "$name.stream")" "V pangaea-live 2"
	expect_eq "$name: the stream has every event, task by task and kind by kind" \
		"$(awk '$1 == "E" { print $2, $3 }' "$name.stream" | sort | uniq -c)" \
		"$(sqlite3 "$dir/trace.db" "SELECT ltid || ' ' || kind FROM events" |
			sort | uniq -c)"
	expect_grep "$name: its tasks are named" "$name.stream" \
		"^T 1001 1 [^ ]+ .*$prog$"
}

if ! command -v sqlite3 >/dev/null; then
	skip "the live view from the logs" "no sqlite3"
	finish
	exit
fi

# 1. sor: a few seconds of messages, the stream read as the run goes
live_run sor rec sor -log -logdir rec "$B/examples/sor" 4 40 1000
expect_no_leftovers

# 2. a task killed in mid-run (the killer's master ends a slave)
live_run killer krec killer -log -logdir krec "$B/examples/killer" 4 6
expect_grep "killer: a slave was killed" err "was killed by task 1"
expect_grep "killer: the killed slave's end is in the stream" killer.stream \
	"^E 100[1-4] end "
expect_no_leftovers

# 3. a replay of the sor run, shown live
live_run replay rec.r1 sor -replay -logdir rec -out rec.r1
expect_no_leftovers

finish
