# The live view of MPI runs (issue 25): `pangaea -log -view mpirun ...`
# has no coordinator, so the launcher starts a log follower
# (pangaea-coord -follow-logs) that serves the viewer's socket from the
# ranks' logs.  A reader on the socket stands in for the viewer first:
# the stream holds every event of the recording, rank by rank and kind
# by kind, as its trace database does, and as much for a replay with
# -view; then the real viewer under Xvfb draws the run live, one row a
# rank, every event and matched message relayed.  Nothing is left
# running, the follower included.
. "$(dirname "$0")/../lib.sh"
W=$B/examples/mpi/workers
if ! command -v mpirun >/dev/null || [ ! -x "$W" ]; then
	skip "the live view of MPI runs" "no mpirun or examples/mpi not built (Open MPI: scripts/install-deps.sh)"
	finish; exit
fi
if ! command -v sqlite3 >/dev/null; then
	skip "the live view of MPI runs" "no sqlite3"
	finish; exit
fi
MPIRUN=(mpirun --allow-run-as-root --oversubscribe -np 4)
mkdir -m 700 sock
SOCK=$T/sock/live.sock

# follower_gone NAME: no log follower of this test is left
follower_gone() {
	pgrep -f "pangaea-coord -follow-logs $T/" >/dev/null &&
		fail "$1: a log follower is left" ||
		pass "$1: the log follower has ended"
}

# live_run NAME DIR ARGS...: pangaea ARGS with -view, the stream read
# into NAME.stream; checks it against DIR's trace database
live_run() {
	local name=$1 dir=$2 n
	shift 2
	rm -f "$SOCK"
	live_reader "$SOCK" "$name.stream"
	PANGAEA_LIVE=$SOCK PANGAEA_TIMELINE=1 pg -view "$@"
	wait "$READER"
	expect_eq "$name: exits 0" "$(cat rc)" 0
	expect_grep "$name: the launcher started the follower" err \
		"launcher: started the live view's log follower"
	$TRACE import "$dir" >/dev/null
	n=$(sqlite3 "$dir/trace.db" 'SELECT count(*) FROM events')
	[ "$n" -gt 50 ] && pass "$name: $n events" || fail "$name: only $n events"
	expect_eq "$name: the stream starts with its version" \
		"$(head -1 "$name.stream")" "V pangaea-live 2"
	expect_eq "$name: the stream has every event, rank by rank and kind by kind" \
		"$(awk '$1 == "E" { print $2, $3 }' "$name.stream" | sort | uniq -c)" \
		"$(sqlite3 "$dir/trace.db" "SELECT ltid || ' ' || kind FROM events" |
			sort | uniq -c)"
	expect_eq "$name: every rank is a task of the stream (ltid = rank + 1)" \
		"$(awk '$1 == "T" { print $2 }' "$name.stream" | sort -u | tr '\n' ' ')" "1 2 3 4 "
	follower_gone "$name"
}

live_run record rec -log -logdir rec "${MPIRUN[@]}" "$W" 3
cp out rec.out
live_run replay rep -replay -logdir rec -out rep
cmp -s out rec.out && pass "replay with -view prints the recording's result" ||
	fail "replay with -view prints another result"
expect_grep "replay with -view: verified" err "replay reproduced all [0-9]+ events of 4 ranks"

# a follower with no socket to serve says so, in one line
PANGAEA_LIVE= "$B/bin/pangaea-coord" -follow-logs rec </dev/null >fo 2>fe
expect_eq "a follower without a socket: exit 1" "$?" 1
expect_grep "a follower without a socket: says why" fe "^pangaea-coord: -follow-logs: no live socket \(PANGAEA_LIVE\)$"

# ---- the viewer itself, live
view_test mpi_live
export T SHOTS
cat >live.tcl <<'EOTCL'
set out [open $::env(T)/vresult.tmp w]
for {set i 0} {$i < 600 && $view::V(live_via) ne "done"} {incr i} { vtest::wait 50 }
vtest::shot $::env(SHOTS)/mpi_live-1-workers-live-done.png
puts $out "via $view::V(live_via) lines $view::V(sock_lines)"
puts $out "relayed $view::V(live_events) events $view::V(live_msgs) matched"
puts $out "rows [expr {[llength [.g.c find withtag label]] / 2}]"
close $out
file rename $::env(T)/vresult.tmp $::env(T)/vresult
exit 0
EOTCL
PANGAEA_VIEW_SCRIPT=$T/live.tcl pg -log -view -logdir vrec "${MPIRUN[@]}" "$W" 3
expect_eq "record with the viewer: exit 0" "$(cat rc)" 0
expect_grep "the launcher started a viewer" err "viewer started \(pid [0-9]+\)"
for i in $(seq 300); do [ -e vresult ] && break; sleep 0.1; done
$TRACE import vrec >/dev/null
q() { sqlite3 vrec/trace.db "$1"; }
expect_eq "the viewer got every event through the socket" "$(grep '^via' vresult)" \
	"via done lines $(q 'SELECT count(*) FROM events')"
expect_eq "live: every event, every message matched as in the logs" "$(grep '^relayed' vresult)" \
	"relayed $(q 'SELECT count(*) FROM events') events $(q \
	'SELECT count(*) FROM messages WHERE send_event IS NOT NULL AND recv_event IS NOT NULL') matched"
expect_eq "live: one row a rank" "$(grep '^rows' vresult)" "rows 4"
follower_gone "viewer"
expect_no_leftovers
finish
