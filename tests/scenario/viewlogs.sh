# pangaea-view on a fresh log folder (no trace.db): the first picture is
# drawn from the logs read into memory while pangaea-trace imports them
# in the background ("importing" in the status line); a run whose times
# the import puts through the clock gets the clock's times in memory at
# once, its details and Find before the import is over, as they are
# after it; once the import is over the same window draws the same
# shapes, and the details pane works, for the ids the picture gave
# before the import.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/../lib.sh"
view_test viewlogs

# view_early WHAT SCRIPT DIR: the viewer on DIR, SCRIPT run at its first
# picture (-early); it must exit 0
view_early() {
	view -early -script "$2" "$3"
	expect_eq "viewer on $1 exits 0" "$(cat vrc)" 0
	[ -s verr ] && sed 's/^/    verr| /' verr | head -20
}

# ---- a large synthetic recording (the real log writer, bench's
# generator): 400 014 events, the import takes a second or more
TRACE_GEN_DIR=$T/big bash "$TOP/bench/trace_import.sh" "$B" 4 50000 >gen.out 2>&1
expect_eq "the large recording is written" "$?" 0
cat >big.tcl <<'EOF'
set out [open result w]
puts $out "first importing $view::V(importing) mode $view::V(mode) db [file tail $view::V(db)] status [string match *importing* [.status cget -text]]"
# the first picture went on the screen before the races and the clock
# were found; the window answered meanwhile (a 100 ms timer ran in it)
puts $out "order [expr {$view::V(drawn_ms) > 0 && $view::V(drawn_ms) <= $view::V(late_ms)}] $view::V(drawn_ms) $view::V(late_ms)"
puts $out "late [expr {$view::V(late_ms) - $view::V(drawn_ms)}] ms ticks $view::V(late_ticks) $view::V(late_clock)"
# zoomed in: the shapes of the window's events, drawn from memory
view::zoom_to $view::V(tmin) [expr {$view::V(tmin) + 200000}]
update
puts $out "zoomed importing $view::V(importing) mode $view::V(mode) shapes [vtest::count ev] lines [vtest::count msg]"
# (its synthetic times are put through the controlled logical clock:
# run on the logs in memory after the first picture, view::clock_late)
puts $out "clocked [pgdb clock-logs] range [pgdb range]"
vtest::click k:recv
set id [lindex $view::V(sel) 1]
puts $out "details [string map {"\n" " | "} [vtest::details]]"
set msgid [dict get [pgdb event $id] msgid]
puts $out "find [pgdb find $msgid]"
puts $out "hists [llength [pgdb hists]]"
puts $out "importing-still $view::V(importing)"
while {$view::V(importing)} { vwait view::V(importing) }
view::zoom_to $view::V(tmin) [expr {$view::V(tmin) + 200000}]
update
puts $out "after importing $view::V(importing) db [file tail $view::V(db)] shapes [expr {[vtest::count ev] > 0}] range [pgdb range]"
view::select e $id
puts $out "details [string map {"\n" " | "} [vtest::details]]"
puts $out "find [pgdb find $msgid]"
close $out
exit 0
EOF
view_early "the large fresh folder" big.tcl big
expect_eq "the first picture comes before the import is over, from the logs" \
	"$(grep '^first' result)" "first importing 1 mode summary db big status 1"
expect_grep "the first picture is on the screen before the races and the clock are found" result "^order 1 "
read -r _ late_ms _ _ ticks _ <<<"$(grep '^late' result)"
if [ "${late_ms:-0}" -ge 250 ]; then
	[ "${ticks:-0}" -ge 1 ] &&
		pass "the window answers while they are found ($late_ms ms, $ticks ticks)" ||
		fail "the window did not answer in the $late_ms ms they took"
else
	pass "(found in $late_ms ms: too soon to see the window answer)"
fi
read -r _ _ imp _ mode _ shapes _ lines <<<"$(grep '^zoomed' result)"
expect_eq "zoomed in while importing: still importing, shapes drawn one by one" "$imp $mode" "1 detail"
[ "${shapes:-0}" -gt 50 ] && [ "${lines:-0}" -gt 30 ] &&
	pass "zoomed in while importing: $shapes shapes, $lines message lines" ||
	fail "zoomed in while importing: shapes '$shapes', lines '$lines'"
# (the clock ran already: clock-logs has nothing left to do)
expect_grep "the clock's times are in memory before the import is over" result "^clocked 0 range [0-9]+ [0-9]+$"
expect_grep "details come before the import is over" result "^details event [0-9]*: recv, call pvm_recv, task ltid [0-9]*, .*sending ltid: [0-9]"
expect_grep "... and so do Find and the histograms" result "^hists [1-9]"
expect_grep "... while it was still importing" result "^importing-still 1$"
expect_grep "the import ends, the database is used" result "^after importing 0 db trace.db shapes 1"
bef=$(grep '^clocked' result | sed 's/.*range //'); aft=$(grep '^after' result | sed 's/.*range //')
expect_eq "the picture's time range is the imported database's" "$bef" "$aft"
n=$(grep -c '^details event' result); d=$(grep '^details event' result | sort -u | wc -l)
f=$(grep '^find' result | sort -u | wc -l)
expect_eq "the details and Find from the logs are the imported ones" "$n $d $f $(grep -c '^find [0-9]' result)" "2 1 1 2"
[ -e big/trace.db ] && pass "the background import made big/trace.db" || fail "no big/trace.db"

# ---- a recorded sor run: the same shapes before and after the import,
# and the details of an event picked before it
pg -log -logdir rec "$B/examples/sor" 4 40 10
expect_eq "sor recorded" "$(cat rc)" 0
cat >rec.tcl <<'EOF'
set out [open result2 w]
proc shapes {} {
	set s {}
	foreach k {send recv nrecv trecv probe bcast mcast spawn end} { lappend s [vtest::count k:$k] }
	lappend s [vtest::count msg] [vtest::count unmatched]
	# every event's and message's id, as the canvas tags say
	set ids {}
	foreach i [.g.c find withtag ev||msg] {
		foreach t [.g.c gettags $i] { if {[regexp {^[em]:} $t]} { lappend ids $t } }
	}
	return [list $s [lsort -unique $ids]]
}
set view::V(force_detail) 1
view::redraw
set before [shapes]
puts $out "before $view::V(importing) [lindex $before 0]"
# an event picked from the picture drawn from the logs
set pick [lindex [.g.c find withtag k:send] 3]
set id [string range [lsearch -inline [.g.c gettags $pick] e:*] 2 end]
while {$view::V(importing)} { vwait view::V(importing) }
view::redraw
set after [shapes]
puts $out "after $view::V(importing) [lindex $after 0]"
puts $out "same [expr {$before eq $after}] [llength [lindex $after 1]]"
puts $out "pick $id"
# (selected as a click does: shapes overlap when all are drawn)
view::select e $id
puts $out "details [string map {"\n" " | "} [vtest::details]]"
set m [lindex [lsearch -inline -all [lindex $before 1] m:*] 2]
view::select m [string range $m 2 end]
puts $out "msg [string range $m 2 end] [string map {"\n" " | "} [vtest::details]]"
close $out
exit 0
EOF
view_early "the fresh sor folder" rec.tcl rec
q() { sqlite3 rec/trace.db "$1"; }
counts=""
for k in send recv nrecv trecv probe bcast mcast spawn end; do
	counts="$counts $(q "SELECT count(*) FROM events WHERE kind='$k'")"
done
counts="$counts $(q "SELECT count(*) FROM messages WHERE send_event IS NOT NULL AND recv_event IS NOT NULL") 0"
expect_eq "from the logs: one shape per event, one line per matched message, as the database says" \
	"$(grep '^before' result2 | cut -d' ' -f3-)" "${counts# }"
expect_eq "after the import: the same counts" "$(grep '^after' result2 | cut -d' ' -f3-)" "${counts# }"
expect_grep "after the import: the same shapes with the same event and message ids" result2 "^same 1 [1-9]"
pick=$(grep '^pick' result2 | cut -d' ' -f2)
read -r P_LTID P_KIND P_PEER P_MSGID <<<"$(q "SELECT ltid, kind, peer, msgid FROM events WHERE id=${pick:-0}" | tr '|' ' ')"
d=$(grep '^details' result2)
for want in "event $pick: $P_KIND" "task ltid $P_LTID" "receiving ltid: $P_PEER" "message id: $P_MSGID "; do
	case $d in *"$want"*) pass "details of the event picked before the import: '$want'";;
		*) fail "details lack '$want': $d";; esac
done
read -r _ mid _ <<<"$(grep '^msg' result2)"
read -r M_SRC M_DST <<<"$(q "SELECT src, dst FROM messages WHERE id=${mid:-0}" | tr '|' ' ')"
expect_grep "details of a message line drawn before the import" result2 \
	"^msg $mid message $mid .*sending ltid: $M_SRC   receiving ltid: $M_DST"

# ---- the import held back (PANGAEA_VIEW_TRACE: a pangaea-trace that
# waits for the file go): details of an event and of a message, and Find,
# answered from the logs before it (xview/viewdb.c vdb_sql) give the
# text they give from the trace database after it
rm -f rec/trace.db
cat >hold.sh <<EOF
#!/bin/sh
i=0
# (gone with the viewer: it waits no longer than the viewer lives)
while [ ! -e "$T/go" ] && [ \$i -lt 600 ] && kill -0 \$PPID 2>/dev/null; do
	sleep 0.1; i=\$((i + 1))
done
[ -e "$T/go" ] || exit 1
exec "$B/bin/pangaea-trace" "\$@"
EOF
chmod +x hold.sh
cat >held.tcl <<'EOF'
set out [open result4 w]
proc answers {tag} {
	global out id mid
	view::select e $id
	puts $out "$tag event [string map {"\n" " | "} [vtest::details]]"
	view::select m $mid
	puts $out "$tag message [string map {"\n" " | "} [vtest::details]]"
	set view::V(find) [dict get [pgdb event $id] msgid]
	view::find
	puts $out "$tag find [string map {"\n" " | "} [vtest::details]]"
	puts $out "$tag output [llength $view::OUT] [lrange $view::OUT 0 9]"
	puts $out "$tag races $view::V(nraces) [pgdb races 0 9223372036854775807 50000]"
	puts $out "$tag hists [pgdb hists]"
}
set view::V(force_detail) 1
view::redraw
set id [string range [lsearch -inline [.g.c gettags [lindex [.g.c find withtag k:send] 3]] e:*] 2 end]
set mid [string range [lsearch -inline [.g.c gettags [lindex [.g.c find withtag msg] 2]] m:*] 2 end]
puts $out "held $view::V(importing)"
vtest::wait 300 ;# the races are found after the first picture
answers before
puts $out "still $view::V(importing)"
close [open go w]
while {$view::V(importing)} { vwait view::V(importing) }
puts $out "db [file tail $view::V(db)]"
answers after
close $out
exit 0
EOF
PANGAEA_VIEW_TRACE=$T/hold.sh view_early "the sor folder, its import held back" held.tcl rec
rm -f go
expect_grep "the import is held back while the details are asked" result4 "^still 1"
expect_grep "the import made trace.db after" result4 "^db trace.db"
for w in event message find output races hists; do
	b=$(grep "^before $w " result4 | cut -d' ' -f3-)
	a=$(grep "^after $w " result4 | cut -d' ' -f3-)
	case $b in ""|*importing*|"0 "*) fail "$w before the import: '$b'";;
		*) expect_eq "$w answered from the logs = from trace.db" "$b" "$a";; esac
done

# ---- the viewer quits while its import runs: the import ends with it,
# its temporary database removed, no trace.db made
rm -f big/trace.db
cat >quit.tcl <<'EOF2'
set out [open result5 w]
vtest::wait 300 ;# the import is writing its temporary database
puts $out "importing $view::V(importing) [pid $view::V(import_chan)]"
close $out
exit 0
EOF2
view_early "a folder, quit while importing" quit.tcl big
read -r _ imp ipid <<<"$(cat result5)"
expect_eq "quit while importing: it was importing" "$imp" 1
sleep 0.5
# (ended: gone, or a zombie its new parent has not reaped yet)
[ -n "$ipid" ] && ! ps -o stat= -p "$ipid" | grep -qv Z &&
	pass "quit while importing: the import ($ipid) ended with the viewer" ||
	fail "quit while importing: the import '$ipid' runs on"
expect_eq "quit while importing: nothing of it left in the folder" \
	"$(ls big | grep -c '^trace\.db')" 0

# ---- another run opened while the import runs: that import is stopped,
# its temporary database removed
rm -f big/trace.db
cat >switch.tcl <<'EOF'
set out [open result3 w]
vtest::wait 300 ;# the import is writing its temporary database
puts $out "importing $view::V(importing)"
view::open_run rec
puts $out "left [glob -nocomplain -directory big trace.db*]"
while {$view::V(importing)} { vwait view::V(importing) }
puts $out "now [file tail $view::V(db)]"
close $out
exit 0
EOF
view_early "a folder, then another" switch.tcl big
expect_eq "another run opened while importing: the import stopped, nothing of it left" \
	"$(cat result3)" "importing 1
left 
now trace.db"
rm -rf big

vm_halt
expect_no_leftovers
finish
