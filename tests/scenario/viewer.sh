# The event-graph viewer under Xvfb, driven by Tcl scripts (-script): a
# recorded sor run drawn shape for shape as its trace database says,
# clicking a known send, zooming with buttons 2 and 3, exporting, and a
# racy run started from the spawn dialog in Log mode arriving live.
# Screenshots go to $B/screenshots/ (look at them).
. "$(dirname "$0")/../lib.sh"
# Tk under a private X server (Xvfb) for the whole test
view_test viewer

# ---- a recorded sor run, opened from its log folder (imported on open)
pg -log -logdir rec "$B/examples/sor" 4 40 10
expect_eq "sor recorded" "$(cat rc)" 0
# the test's own copy of the database; the viewer must import the logs itself
$TRACE import rec >/dev/null && mv rec/trace.db ref.db
q() { sqlite3 ref.db "$1"; }

cat >display.tcl <<'EOF'
set out [open result w]
proc out {args} { puts $::out [join $args] }
vtest::wait 100
out mode $view::V(mode)
foreach k {send recv nrecv trecv probe bcast mcast spawn end} {
	out shapes $k [vtest::count k:$k]
}
out lines [vtest::count msg]
out unmatched [vtest::count unmatched]
vtest::shot $::env(SHOTS)/viewer-1-sor-fit.png
# click the send the test chose
vtest::click e:$::env(SEND_ID)
out details [string map {"\n" " | "} [vtest::details]]
vtest::shot $::env(SHOTS)/viewer-2-sor-click.png
# button 2 spreads events out, button 3 draws them together
set s0 $view::V(scale)
vtest::button 2 600
set s1 $view::V(scale)
vtest::button 2 600
set s2 $view::V(scale)
vtest::shot $::env(SHOTS)/viewer-3-sor-zoomed-in.png
vtest::button 3 600
set s3 $view::V(scale)
out zoom $s0 $s1 $s2 $s3
out axis_step $view::V(tick)
# drag a time range: the window becomes that range
view::fit; update
set x0 300; set x1 420
set ta [view::t $x0]; set tb [view::t $x1]
event generate .g.c <ButtonPress-1> -x $x0 -y 300
event generate .g.c <B1-Motion> -x $x1 -y 300
event generate .g.c <ButtonRelease-1> -x $x1 -y 300
update
out drag [expr {$view::V(t0) - $ta}] [expr {$view::V(t1) - $tb}] [expr {abs($tb - $ta)}]
# search a message id: the selection is an event carrying it
set view::V(find) $::env(FIND_MSGID)
view::find
out find [lindex $view::V(sel) 1]
# task filter: only ltid 1's row
view::fit; set view::V(f_tasks) 1; view::redraw
out filtered_rows [llength [.g.c find withtag label]]
set view::V(f_tasks) ""; view::redraw
# exports
view::export ps $::env(T)/view.ps
view::export png $::env(T)/view.png
view::export pdf $::env(T)/view.pdf
close $out
exit 0
EOF
SEND_ID=$(q "SELECT send_event FROM messages WHERE kind='send' AND recv_event IS NOT NULL ORDER BY t_send LIMIT 5 OFFSET 3" | tail -1)
read -r S_SRC S_DST S_TAG S_MSGID S_LEN <<<"$(q "SELECT src, dst, tag, msgid, len FROM messages WHERE send_event=$SEND_ID" | tr '|' ' ')"
FIND_MSGID=$S_MSGID
export SHOTS SEND_ID FIND_MSGID T
view -script display.tcl rec
expect_eq "viewer exits 0" "$(cat vrc)" 0
[ -s verr ] && sed 's/^/    verr| /' verr | head -20
[ -e rec/trace.db ] && pass "the viewer imported the logs" || fail "no rec/trace.db after the viewer"
expect_eq "all events drawn one by one" "$(grep '^mode' result)" "mode detail"
for k in send recv nrecv trecv probe bcast mcast spawn end; do
	expect_eq "one $k shape per $k event" "$(grep "^shapes $k " result | cut -d' ' -f3)" \
		"$(q "SELECT count(*) FROM events WHERE kind='$k'")"
done
expect_eq "one line per matched message" "$(grep '^lines' result | cut -d' ' -f2)" \
	"$(q "SELECT count(*) FROM messages WHERE send_event IS NOT NULL AND recv_event IS NOT NULL")"
expect_eq "nothing drawn unmatched (every message received)" "$(grep '^unmatched' result | cut -d' ' -f2)" 0
d=$(grep '^details' result)
for want in "sending ltid: $S_SRC " "receiving ltid: $S_DST" "tag: $S_TAG " \
	"message id: $S_MSGID " "length: $S_LEN bytes" "call pvm_send" "timestamp: "; do
	case $d in *"$want"*) pass "details show '$want'";; *) fail "details lack '$want': $d";; esac
done
read -r _ s0 s1 s2 s3 <<<"$(grep '^zoom' result)"
awk -v a="$s0" -v b="$s1" 'BEGIN { exit !(b < a * 0.51 && b > a * 0.49) }' &&
	pass "button 2 halves the time scale" || fail "button 2: scale $s0 -> $s1"
awk -v a="$s2" -v b="$s3" 'BEGIN { exit !(b > a * 1.99 && b < a * 2.01) }' &&
	pass "button 3 doubles the time scale" || fail "button 3: scale $s2 -> $s3"
read -r _ da db span <<<"$(grep '^drag' result)"
awk -v a="$da" -v b="$db" -v s="$span" 'BEGIN { exit !(a*a < (s/50)^2 && b*b < (s/50)^2 && s > 0) }' &&
	pass "dragging a range shows that range" || fail "drag: window off by $da / $db (range $span ns)"
found=$(grep '^find' result | cut -d' ' -f2)
expect_eq "find message id selects an event carrying it" \
	"$(q "SELECT msgid FROM events WHERE id=${found:-0}")" "$FIND_MSGID"
expect_eq "task filter leaves one row (2 label lines)" "$(grep '^filtered_rows' result | cut -d' ' -f2)" 2
head -c 11 "$T/view.ps" | grep -q '%!PS-Adobe' && pass "PostScript export" || fail "no PostScript"
[ "$(head -c 4 "$T/view.png" | tail -c 3)" = PNG ] && pass "PNG export" || fail "no PNG"
head -c 5 "$T/view.pdf" | grep -q '%PDF-' && pass "PDF export" || fail "no PDF"

# ---- the live database without a run: the stream's version line, one
# matcher with the importer (a bcast whose receives come first is a bcast,
# a message is in its receiver's hands at the receive's exit), and the
# stale rule the viewer asks C for
cp -a rec rec2
cp rec2/trace.db old.db
sqlite3 old.db "UPDATE meta SET value='99' WHERE key='schema_version'"
cat >live.tcl <<'EOF'
set out [open result6 w]
pgdb live-open
puts $out "noversion [catch {pgdb live-add "T 1 0 vm /p\nE 1 send 100 110 2 5 1 8 0\n"} e] $e"
pgdb live-open
puts $out "badversion [catch {pgdb live-add "V pangaea-live 999\n"} e] $e"
pgdb live-open
# the receives of a bcast before the bcast, over two reads of the socket
pgdb live-add "V pangaea-live 2\nT 1 0 vm /p\nT 2 1 vm /p\nT 3 1 vm /p\nE 2 recv 150 170 1 22 4 8 0\n"
pgdb live-add "E 3 trecv 160 180 1 22 4 8 0\nE 1 bcast 100 110 0 22 4 8 0 2 3\nE 2 recv 300 320 -1 9 0 8 0\n"
foreach {id src dst se re ts tr kind tag} [pgdb messages 0 1000] {
	puts $out "message $src $dst $kind $ts $tr"
}
foreach {id ltid kind t0 t1 peer tag msgid len matched} [pgdb events 0 1000] {
	if {$peer == -1} {
		puts $out "foreign [dict get [lindex [dict get [pgdb event $id] messages] 0] unmatched]"
	}
}
# a barrier (group op 6 in COUNT) waits, a pvm_joingroup (op 1) is in PVM
pgdb live-add "E 1 group 400 900 -1 0 0 0 6\nE 1 group 1000 1100 -1 0 0 0 1\n"
puts $out "barrier [pgdb states 400 900 1]"
puts $out "joingroup [pgdb states 1000 1100 1]"
puts $out "livecalls [dict keys [dict get [pgdb hists 1] calls]]"
puts $out "stale [pgdb stale $::env(T)/rec2]"
file mtime $::env(T)/rec2/task-1.comm [expr {[clock seconds] + 5}]
puts $out "stale_log [pgdb stale $::env(T)/rec2]"
puts $out "stale_none [pgdb stale $::env(T)/nowhere]"
puts $out "old [catch {pgdb open $::env(T)/old.db} e] $e"
close $out
exit 0
EOF
view -script live.tcl
expect_eq "viewer (live database) exits 0" "$(cat vrc)" 0
expect_grep "a stream without its version line is refused" result6 \
	'^noversion 1 pgdb: the live stream does not start with its version \("V pangaea-live 2"\)'
expect_grep "a stream of another version is refused" result6 \
	'^badversion 1 pgdb: the live stream is version 999, this viewer reads version 2'
expect_eq "live: a bcast received before it was sent is one message per receiver, of the send's kind, received at the receive's exit" \
	"$(grep '^message' result6 | sort)" "$(printf 'message 1 2 bcast 100 170\nmessage 1 3 bcast 100 180')"
expect_grep "live: a receive from outside the run is unmatched as foreign" result6 "^foreign foreign$"
expect_grep "live: a barrier is waiting (computing, in PVM, waiting ns)" result6 "^barrier 1 {0 0 500}$"
expect_grep "live: a pvm_joingroup is in PVM" result6 "^joingroup 1 {0 100 0}$"
expect_grep "live: the histograms count the group calls by their op" result6 \
	"^livecalls pvm_bcast pvm_joingroup pvm_barrier$"
expect_grep "stale: a freshly imported folder is not" result6 "^stale 0$"
expect_grep "stale: a log newer than trace.db makes it stale" result6 "^stale_log 1$"
expect_grep "stale: no trace.db is stale" result6 "^stale_none 1$"
expect_grep "a database of another schema version is refused" result6 \
	"^old 1 pgdb: .*old\.db has schema version 99, this viewer reads version [0-9]+"

# ---- a coordinator of another live stream version: the viewer says so
# and follows the run's logs instead
mkdir -m 700 fakecoord
cat >fakecoord.py <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(1)
c, _ = s.accept()
c.sendall(b"V pangaea-live 999\nT 1 0 vm /p\nE 1 send 100 110 2 5 1 8 0\n")
time.sleep(3)
c.close()
PY
python3 fakecoord.py "$T/fakecoord/sock" &
FAKE=$!
for i in $(seq 50); do [ -S fakecoord/sock ] && break; sleep 0.1; done
cat >refuse.tcl <<'EOF'
set out [open result7 w]
for {set i 0} {$i < 100 && $view::V(live_error) eq ""} {incr i} { vtest::wait 100 }
for {set i 0} {$i < 100 && [file tail $view::V(db)] ne "trace.db"} {incr i} { vtest::wait 100 }
puts $out "error $view::V(live_error)"
puts $out "via $view::V(live_via) db [file tail $view::V(db)] lines $view::V(sock_lines)"
puts $out "details [string map {"\n" " | "} [vtest::details]]"
vtest::shot $::env(SHOTS)/viewer-4b-live-version-refused.png
close $out
exit 0
EOF
view -live rec2 -sock "$T/fakecoord/sock" -script refuse.tcl
kill $FAKE 2>/dev/null; wait $FAKE 2>/dev/null
expect_eq "viewer (refused stream) exits 0" "$(cat vrc)" 0
expect_grep "the viewer refuses another live stream version" result7 \
	"^error pgdb: the live stream is version 999, this viewer reads version 2"
expect_grep "and shows why" result7 \
	"^details live view: pgdb: the live stream is version 999.*Following the run's log folder instead"
expect_grep "then follows the logs, no event taken from the stream" result7 "^via logs db trace.db lines 0$"

# ---- the output pane of a live view: the launcher writes output.log,
# the coordinator does not relay it; the viewer reads it as it grows
# while the stream is open (a fake coordinator that stays open until the
# script says stop)
mkdir -m 700 fakecoord2 livout
cat >fakecoord2.py <<'PY'
import os, socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(1)
c, _ = s.accept()
c.sendall(b"V pangaea-live 2\nT 1 0 vm /p\nT 1001 1 vm /p\n"
          b"E 1 send 1000000000 1000100000 1001 5 1 8 0\n"
          b"E 1001 recv 1000050000 1200000000 1 5 1 8 0\n")
for i in range(300):
    if os.path.exists(sys.argv[2]):
        break
    time.sleep(0.1)
c.close()
PY
python3 fakecoord2.py "$T/fakecoord2/sock" "$T/livout.stop" &
FAKE=$!
for i in $(seq 50); do [ -S fakecoord2/sock ] && break; sleep 0.1; done
cat >liveout.tcl <<'EOF'
set out [open result7b w]
set view::V(out) 1
view::util_pane
for {set i 0} {$i < 100 && $view::V(sock_lines) < 4} {incr i} { vtest::wait 100 }
vtest::wait 400
puts $out "before [string trim [.o.t get 1.0 end]]"
# the launcher's part: output.log, a line of task 1001 during the receive
set f [open $::env(T)/livout/output.log w]
puts -nonewline $f "pangaea-output 1\nline 1001 1000060000 12\nhello, live!\n"
close $f
for {set i 0} {$i < 100 && ![string match *hello* [.o.t get 1.0 end]]} {incr i} { vtest::wait 100 }
puts $out "via $view::V(live_via) pane [string trim [.o.t get 1.0 end]]"
vtest::shot $::env(SHOTS)/viewer-4c-live-output.png
close $out
close [open $::env(T)/livout.stop w]
exit 0
EOF
view -live livout -sock "$T/fakecoord2/sock" -script liveout.tcl
kill $FAKE 2>/dev/null; wait $FAKE 2>/dev/null
expect_eq "viewer (live output) exits 0" "$(cat vrc)" 0
expect_grep "live: the output pane is empty before the run prints" result7b "^before $"
expect_grep "live: a line the run prints appears in the output pane, with its task, while the stream is read" \
	result7b "^via socket pane .*1001.*hello, live!$"

# ---- a groups run: broadcast and multicast squares, one arrow per receiver
pg -log -logdir grp "$B/examples/groups" 4 2
expect_eq "groups recorded" "$(cat rc)" 0
cat >grp.tcl <<'EOF'
set out [open result5 w]
vtest::wait 100
puts $out "[vtest::count k:bcast] [vtest::count k:mcast] [vtest::count k:recv] [vtest::count msg]"
vtest::shot $::env(SHOTS)/viewer-4a-groups.png
close $out
exit 0
EOF
view -script grp.tcl grp
g() { sqlite3 grp/trace.db "$1"; }
expect_eq "groups: bcast, mcast, recv shapes and arrows as in the database" "$(cat result5)" \
	"$(g "SELECT count(*) FROM events WHERE kind='bcast'") $(g "SELECT count(*) FROM events WHERE kind='mcast'") $(g "SELECT count(*) FROM events WHERE kind='recv'") $(g "SELECT count(*) FROM messages WHERE send_event IS NOT NULL AND recv_event IS NOT NULL")"
[ "$(g "SELECT count(*) FROM messages WHERE kind IN ('bcast','mcast') AND recv_event IS NOT NULL")" -ge 2 ] &&
	pass "the groups run has delivered broadcasts and multicasts" || fail "no bcast/mcast delivered in the groups run"

# ---- unmatched events: sor with only tasks 1 and 1001 selected for
# logging: their messages to and from 1002 and 1003 have no other side
pg -log -select "ltid=1,1001" -logdir sel "$B/examples/sor" 4 40 5
expect_eq "selective sor recorded" "$(cat rc)" 0
cat >um.tcl <<'EOF'
set out [open result2 w]
vtest::wait 100
puts $out "unmatched [vtest::count unmatched] lines [vtest::count msg]"
vtest::click unmatched&&k:send
puts $out "details [string map {"\n" " | "} [vtest::details]]"
vtest::shot $::env(SHOTS)/viewer-4-unmatched.png
close $out
exit 0
EOF
view -script um.tcl sel
u() { sqlite3 sel/trace.db "$1"; }
want_unm=$(u "SELECT count(*) FROM events e WHERE kind IN ('send','recv') AND NOT EXISTS
	(SELECT 1 FROM messages m WHERE (m.send_event = e.id OR m.recv_event = e.id)
	 AND m.send_event IS NOT NULL AND m.recv_event IS NOT NULL)")
[ "$want_unm" -gt 0 ] && pass "the selection left unmatched events ($want_unm)" || fail "no unmatched event to draw"
expect_eq "each unmatched send and receive is drawn unmatched, matched ones joined" \
	"$(head -1 result2)" "unmatched $want_unm lines $(u "SELECT count(*) FROM messages WHERE unmatched IS NULL")"
expect_grep "the details of an unmatched send say why" result2 "unmatched: to ltid 100[23]: selection"

# ---- a racy run started from the spawn dialog (Log mode), shown live
# (long enough, about 1.5 s, that the viewer sees it going even when
# another test shares the cores: with 12 messages a worker it once ended
# before the first look)
export PANGAEA_DELAY=20000
cat >spawn.tcl <<'EOF'
set out [open result3 w]
spawn::dialog
update
set spawn::S(cmd) "$::env(B)/examples/racy -w 3 -m 40"
spawn::toggle
set spawn::S(mode) log
set spawn::S(logdir) $::env(T)/live
# placed by architecture, with a spawn flag: both must reach pvm_spawn
set spawn::S(where) arch
set spawn::S(whereval) $::env(ARCH)
set spawn::S(PvmTaskTrace) 1
update
vtest::shot $::env(SHOTS)/viewer-5-spawn-dialog.png root
spawn::start
# events must show while the run is still going
set seen 0
for {set i 0} {$i < 200 && $spawn::S(fd) ne ""} {incr i} {
	vtest::wait 100
	if {$view::V(db) ne "" && $view::V(nshown) > 0 && $spawn::S(fd) ne ""} {
		set seen $view::V(nshown)
		vtest::shot $::env(SHOTS)/viewer-6-live.png
		break
	}
}
puts $out "live_events_while_running $seen"
puts $out "live_via $view::V(live_via)"
for {set i 0} {$i < 600 && $spawn::S(fd) ne ""} {incr i} { vtest::wait 100 }
for {set i 0} {$i < 100 && $view::V(live_via) ne "done"} {incr i} { vtest::wait 100 }
puts $out "socket_lines $view::V(sock_lines)"
puts $out "status $spawn::S(status)"
puts $out "final [pgdb count $view::V(tmin) $view::V(tmax)]"
vtest::shot $::env(SHOTS)/viewer-7-live-done.png
# an error from the launcher appears in the dialog
set spawn::S(cmd) "/nonexistent/program"
spawn::start
for {set i 0} {$i < 100 && $spawn::S(fd) ne ""} {incr i} { vtest::wait 100 }
puts $out "error_text [string map {"\n" " | "} [.spawn.msg get 1.0 end-1c]]"
puts $out "error_label $spawn::S(error)"
vtest::shot $::env(SHOTS)/viewer-8-spawn-error.png root
close $out
exit 0
EOF
export B ARCH=$(/usr/lib/pvm3/lib/pvmgetarch)
# the usual socket folder is not private (as if another user had made it
# first): the dialog must pass it over for a fresh folder of its own
mkdir -p tmpd/pangaea-$(id -u) && chmod 0777 tmpd/pangaea-$(id -u)
TMPDIR=$T/tmpd XDG_RUNTIME_DIR= view -script spawn.tcl
expect_eq "viewer (spawn) exits 0" "$(cat vrc)" 0
expect_grep "the dialog passed over a folder others can write" verr \
	"not using $T/tmpd/pangaea-$(id -u) for live sockets"
expect_grep "and said where its sockets are" verr \
	"live sockets are in $T/tmpd/pangaea-$(id -u)\\.[A-Za-z0-9]{6}\$"
left=$(ls -d tmpd/pangaea-$(id -u).* 2>/dev/null)
expect_eq "its temporary folder is gone when the viewer ends" "$left" ""
[ -s verr ] && sed 's/^/    verr| /' verr | head -20
live=$(grep '^live_events_while_running' result3 | cut -d' ' -f2)
[ "${live:-0}" -gt 0 ] && pass "events arrived while the run was going ($live)" ||
	fail "no event shown during the run: $(cat result3)"
expect_grep "they came through the coordinator's socket" result3 "^live_via socket"
expect_eq "the socket carried every event" "$(grep '^socket_lines' result3 | cut -d' ' -f2)" \
	"$(sqlite3 live/trace.db 'SELECT count(*) FROM events')"
expect_grep "the run ended well" result3 "^status exited 0"
# PvmTaskArch (2) + PvmTaskTrace (8)
expect_grep "the dialog's Where and flags reached pvm_spawn" live/task-0.exec \
	"^spawn 1 file=\".*/racy\" flags=10 where=\"$ARCH\" "
expect_eq "the end shows every event of the run" "$(grep '^final' result3 | cut -d' ' -f2)" \
	"$(sqlite3 live/trace.db 'SELECT count(*) FROM events')"
expect_grep "launcher errors appear in the dialog" result3 "^error_text .*program not found"
expect_grep "the error stands out above the output" result3 "^error_label pangaea: error: program not found"
unset PANGAEA_DELAY

# ---- pangaea -log -view from the shell: the viewer it starts follows the
# run through the coordinator; another user cannot reach the socket
cat >stranger.py <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(sys.argv[1])
    print("connected")
except OSError as e:
    print("refused", e.errno)
PY
chmod 644 stranger.py; chmod 755 "$T"
cat >cli.tcl <<'EOF'
set out [open $::env(T)/result4.tmp w]
set stranger none
for {set i 0} {$i < 300 && $view::V(live_via) ne "done"} {incr i} {
	vtest::wait 50
	if {$stranger eq "none" && $view::V(sock_chan) ne ""} {
		set s $view::V(sock)
		# in the background: the viewer must keep reading meanwhile
		catch {exec runuser -u nobody -- python3 $::env(T)/stranger.py $s \
			> $::env(T)/stranger.out 2>@1 &}
		set stranger tried
		puts $out "socket [file attributes [file dirname $s] -permissions] [file attributes $s -permissions]"
	}
}
vtest::shot $::env(SHOTS)/viewer-9-cli-live-done.png
puts $out "via $view::V(live_via) lines $view::V(sock_lines)"
puts $out "relayed $view::V(live_events) events $view::V(live_msgs) matched"
close $out
file rename $::env(T)/result4.tmp $::env(T)/result4
exit 0
EOF
PANGAEA_VIEW_SCRIPT=$T/cli.tcl pg -log -view -delay 2000 -logdir cli "$B/examples/sor" 4 40 20
expect_eq "record with -view exits 0" "$(cat rc)" 0
expect_grep "the launcher started a viewer" err "viewer started \(pid [0-9]+\)"
for i in $(seq 200); do [ -e result4 ] && break; sleep 0.1; done
$TRACE import cli >/dev/null
expect_eq "the viewer got every event through the socket" "$(grep '^via' result4)" \
	"via done lines $(sqlite3 cli/trace.db 'SELECT count(*) FROM events')"
expect_eq "live: every event, every message matched as in the logs" "$(grep '^relayed' result4)" \
	"relayed $(sqlite3 cli/trace.db 'SELECT count(*) FROM events') events $(sqlite3 cli/trace.db \
	'SELECT count(*) FROM messages WHERE send_event IS NOT NULL AND recv_event IS NOT NULL') matched"
expect_grep "socket folder 0700, socket 0600" result4 "^socket [0-9]*700 [0-9]*600$"
if [ "$(id -u)" != 0 ]; then
	skip "another user cannot connect" "not root: no other user to try as"
elif ! command -v python3 >/dev/null; then
	skip "another user cannot connect" "no python3"
else
	expect_grep "another user cannot connect" stranger.out "^refused 13"
fi

# ---- a groups run live: every message has the same kind and times in
# the live view as after the import (one matcher)
cat >glive.tcl <<'EOF'
# the live database's messages, just before the viewer turns to the logs
proc glive_dump {args} {
	set f [open $::env(T)/glive.live w]
	lassign [pgdb range] a b
	foreach {id src dst se re ts tr kind tag} [pgdb messages $a $b 100000000] {
		set m [lindex [pgdb message $id] 0]
		set sent [expr {$ts == [dict get [pgdb event $se] t0]}]
		set got [expr {$tr == [dict get [pgdb event $re] t1]}]
		puts $f "$src [dict get $m msgid] $dst $kind $sent $got"
	}
	close $f
	# the messages come in the order of their sends (sorted in as they
	# are read: the tasks' events arrive batch by batch), so that a
	# window's query finds every message crossing it
	set f [open $::env(T)/glive.order w]
	set all [pgdb messages $a $b 100000000]
	set last $a; set sorted 1
	foreach {id src dst se re ts tr kind tag} $all {
		if {$ts < $last} { set sorted 0 }
		set last $ts
	}
	set w0 [expr {$a + ($b - $a) / 3}]; set w1 [expr {$a + 2 * ($b - $a) / 3}]
	set want {}
	foreach {id src dst se re ts tr kind tag} $all {
		if {min($ts, $tr) <= $w1 && max($ts, $tr) >= $w0} { lappend want $id }
	}
	set got {}
	foreach {id src dst se re ts tr kind tag} [pgdb messages $w0 $w1 100000000] {
		lappend got $id
	}
	puts $f "sorted $sorted window [expr {[lsort -integer $got] eq [lsort -integer $want]}] [llength $want]"
	close $f
	# the group calls and their ops as the stream gave them
	set f [open $::env(T)/glive.groups w]
	foreach {id ltid kind t0 t1 peer tag msgid len matched} [pgdb events $a $b 100000000] {
		if {$kind eq "group"} { puts $f "$ltid [dict get [pgdb event $id] op]" }
	}
	close $f
	trace remove execution view::open_run enter glive_dump
}
trace add execution view::open_run enter glive_dump
# (how far the live view was when this script came: a viewer slowed down
# enough sources it only after the stream has ended)
set f [open $::env(T)/glive.early w]; puts $f $view::V(live_via); close $f
for {set i 0} {$i < 600 && $view::V(live_via) ne "done"} {incr i} { vtest::wait 50 }
set f [open $::env(T)/glive.via w]; puts $f $view::V(live_via); close $f
exit 0
EOF
# (the check needs the script in place before the stream ends; a run
# that ended before the viewer sourced it is made again, up to 3 times)
for try in 1 2 3; do
	rm -rf glive glive.live glive.groups glive.via glive.early glive.order
	PANGAEA_VIEW_SCRIPT=$T/glive.tcl pg -log -view -delay 2000 -logdir glive "$B/examples/groups" 4 2
	for i in $(seq 200); do [ -s glive.via ] && break; sleep 0.1; done
	[ "$(cat glive.early 2>/dev/null)" != done ] && break
	echo "   (try $try: the viewer sourced its script after the stream had ended)"
done
expect_eq "groups with -view exits 0" "$(cat rc)" 0
expect_eq "the groups viewer followed the run to its end" "$(cat glive.via 2>/dev/null)" done
$TRACE import glive >/dev/null
sqlite3 glive/trace.db "SELECT src || ' ' || msgid || ' ' || dst || ' ' || kind || ' ' ||
	(t_send = (SELECT t0 FROM events WHERE id = send_event)) || ' ' ||
	(t_recv = (SELECT t1 FROM events WHERE id = recv_event)) FROM messages
	WHERE send_event IS NOT NULL AND recv_event IS NOT NULL" | sort >glive.imported
[ "$(grep -cE ' (bcast|mcast) ' glive.imported)" -ge 2 ] &&
	pass "the live groups run has broadcasts and multicasts" ||
	fail "no bcast/mcast message in the live groups run"
expect_grep "the live messages are in send order; a window's query finds those crossing it" \
	glive.order "^sorted 1 window 1 [1-9]"
expect_eq "live and import agree on every message: ends, kind, send entry, receive exit" \
	"$(sort glive.live 2>/dev/null)" "$(cat glive.imported)"
sqlite3 glive/trace.db "SELECT ltid || ' ' || op FROM events WHERE kind = 'group'" |
	sort >glive.gimported
grep -q ' barrier$' glive.gimported && pass "the live groups run has barriers" ||
	fail "no barrier in the live groups run"
expect_eq "live and import agree on every group call's op (a barrier is a barrier live)" \
	"$(sort glive.groups 2>/dev/null)" "$(cat glive.gimported)"

# ---- pangaea -display on a missing folder says so
timeout 20 "$PANGAEA" -display -logdir nowhere >out 2>err; expect_eq "-display nowhere exits 1" $? 1
expect_grep "-display names the folder" err "cannot read log folder nowhere"
vm_halt
expect_no_leftovers
finish
