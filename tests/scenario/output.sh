# Task output on the timeline: the launcher notes every line a task prints
# with its ltid and time in output.log (record and replay), `pangaea-trace
# import` puts the lines in the trace database, `dump --output` shows them, the
# viewer's output pane (under Xvfb) shows them by task, moves the graph to
# a clicked line and shows the lines around a selected event; a replay
# whose tasks print something else is reported (the launcher's exit
# status 3 and one line naming the task and the line, and `pangaea-trace
# verify`).  tests/outprint's worker prints the first line of a file read
# at run time: the replay prints what the file holds then; its master
# prints the worker's PVM tid, which differs in a replay (compared as the
# task's ltid).
. "$(dirname "$0")/../lib.sh"
view_test output
P=$B/tests/outprint
start=$(date +%s)

# ---- record
echo alpha >f
pg -log -logdir rec "$P" "$T/f"
expect_eq "record: exit 0" "$(cat rc)" 0
expect_grep "record: the worker's line is relayed" out '^outprint: file says alpha$'
[ -f rec/output.log ] && pass "output.log written" || fail "no rec/output.log"
expect_grep "output.log: versioned" rec/output.log '^pangaea-output 1$'
expect_eq "output.log: mode 0600" "$(stat -c %a rec/output.log)" 600
expect_grep "output.log: the master's line with its ltid" rec/output.log \
	'^line 1 [0-9]{19} 23$'
expect_grep "output.log: the worker's line with its ltid" rec/output.log \
	'^line 1001 [0-9]{19} 25$'

# ---- dump and the database
$TRACE dump --output rec >dump 2>derr
expect_eq "dump --output: exit 0" $? 0
expect_grep "dump --output: the lines with their tasks and times" dump \
	'^  task 1001 [0-9]{10}\.[0-9]{9} line outprint: file says alpha$'
$TRACE dump --output -task 1 rec >dump1 2>derr
expect_grep "dump --output -task 1: its lines" dump1 '^  task 1 .* line outprint: master starts$'
grep -q 'task 1001 ' dump1 && fail "dump --output -task 1 shows task 1001's lines" ||
	pass "dump --output -task 1 shows no other task's lines"
$TRACE dump rec >dump2 2>derr
grep -q 'outprint: master starts' dump2 && fail "dump without --output shows output lines" ||
	pass "dump without --output shows the events only"
$TRACE import rec >/dev/null 2>ierr
expect_eq "import: exit 0" $? 0
q() { sqlite3 rec/trace.db "$1"; }
expect_eq "db: the lines by task, in order" \
	"$(q "SELECT ltid || ':' || text FROM output WHERE ltid = 1001 ORDER BY id" | tr '\n' ' ')" \
	"1001:outprint: worker starts 1001:outprint: file says alpha 1001:outprint: worker ends "
expect_eq "db: the master's lines" "$(q "SELECT count(*) FROM output WHERE ltid = 1")" 3
# the master printed its last line after its receive returned: on the
# database's clock the line comes after that exit (the launcher got it
# later still), and not a second after the run's last event
recv1=$(q "SELECT t1 FROM events WHERE ltid = 1 AND kind = 'recv'")
last=$(q "SELECT t FROM output WHERE text = 'outprint: master got the answer'")
tend=$(q "SELECT max(t_last) FROM tasks")
[ -n "$last" ] && [ "$last" -ge "$recv1" ] && [ "$last" -le $((tend + 1000000000)) ] &&
	pass "db: a line's time is on the events' clock (after the call before it)" ||
	fail "db: line at $last, the master's receive ended at $recv1, the run at $tend"

# ---- the pane
view --show output --snapshot o.png rec
expect_eq "--show output snapshot: exit 0" "$(cat vrc)" 0
expect_grep "... the pane holds the 6 lines" vout 'view output .* rows {lines 6}$'
[ -s o.png ] && pass "the output pane's picture is written" || fail "no o.png"
cp o.png "$SHOTS/output-pane.png" 2>/dev/null
# colours of the picture: the task column's blue is there (text drawn)
[ "$(convert o.png -fill black +opaque '#1f4e9c' -fill white -opaque '#1f4e9c' \
	-format '%[fx:mean>0]' info:)" = 1 ] && pass "the pane shows the task column" ||
	fail "no task column in o.png"
RECV_ID=$(q "SELECT id FROM events WHERE ltid = 1 AND kind = 'recv'")
export RECV_ID T
cat >pane.tcl <<'EOF'
set out [open $::env(T)/result w]
proc out {args} { puts $::out $args }
set view::V(out) 1; view::util_pane; update
view::redraw; update
out all [llength [split [.o.t get 1.0 end-1c] \n]]
# the Tasks filter: only task 1001's lines
set view::V(f_tasks) 1001; view::redraw; update
set lines [split [.o.t get 1.0 end-1c] \n]
out filtered [llength $lines] [llength [lsearch -all $lines "*task 1001 *"]]
set view::V(f_tasks) ""; view::redraw; update
# click the fifth line (the master's last): the window moves there
view::fit; update
set w0 [expr {$view::V(t1) - $view::V(t0)}]
view::zoom_to $view::V(tmin) [expr {$view::V(tmin) + $w0 / 50}]; update
.o.t see 5.0; update
lassign [.o.t bbox 5.30] x y
event generate .o.t <Motion> -x $x -y $y
event generate .o.t <ButtonPress-1> -x $x -y $y
event generate .o.t <ButtonRelease-1> -x $x -y $y
update; view::redraw; update
set t [lindex [view::out_row $view::V(out_mark)] 2]
out clicked [lindex [view::out_row $view::V(out_mark)] 4]
out inside [expr {$t >= $view::V(t0) && $t <= $view::V(t1)}] [llength [.g.c find withtag outmark]]
# select the master's receive: its lines around it are marked
view::select e $::env(RECV_ID); update
set near {}
foreach {a b} [.o.t tag ranges near] { lappend near [string trim [.o.t get $a $b]] }
out near [join $near |]
vtest::shot $::env(T)/pane.png
close $out
exit 0
EOF
view -script pane.tcl rec
expect_eq "pane script: exit 0" "$(cat vrc)" 0
[ -s verr ] && sed 's/^/    verr| /' verr | head -10
expect_eq "the pane shows every line" "$(grep '^all' result)" "all 6"
expect_eq "the pane follows the Tasks filter" "$(grep '^filtered' result)" "filtered 3 3"
expect_eq "a click on a line picks it" "$(grep '^clicked' result)" "clicked {outprint: master got the answer}"
expect_eq "... and the graph's window moves to its moment, marked" "$(grep '^inside' result)" "inside 1 1"
expect_grep "a selected event shows its task's lines around it" result \
	'^near {.*task 1 .*outprint: master starts|.*task 1 .*outprint: master got the answer|.*task 1 .*outprint: the worker was t[0-9a-f]+}$'
cp pane.png "$SHOTS/output-window.png" 2>/dev/null

# ---- replay: the same output, but for the tids: a VM whose consoles
# took tids first gives the replay's tasks others
(echo quit | timeout 10 pvm; echo quit | timeout 10 pvm) >/dev/null 2>&1
pg -replay -logdir rec
expect_eq "replay printing the same: exit 0" "$(cat rc)" 0
expect_grep "... reproduced" err 'replay reproduced all'
expect_grep "the replay logs its output too" rec.replay-1/output.log '^line 1001 .* 25$'
w1=$(grep -h 'the worker was' rec/output.log); w2=$(grep -h 'the worker was' rec.replay-1/output.log)
[ -n "$w1" ] && [ -n "$w2" ] && [ "$w1" != "$w2" ] &&
	pass "the replay's worker has another tid ($w1 / $w2), not a difference" ||
	fail "the worker's tids: '$w1' / '$w2'"
$TRACE verify rec rec.replay-1 >vout2 2>&1
expect_eq "verify: the same output is identical" $? 0

# ---- replay: the worker prints something else
echo beta >f
pg -replay -logdir rec
expect_eq "replay printing something else: exit 3" "$(cat rc)" 3
expect_eq "... one line said" "$(grep -c 'differs' err)" 1
expect_grep "... naming the task and the first differing line" err \
	'^pangaea: error: the replay differs from its recording: task 1001 printed "outprint: file says alpha" as its output line 2 in the first run, "outprint: file says beta" in the second, although all [0-9]+ events were the same: it comes from inside the task \(a file it read, the clock, random numbers, uninitialised memory\)$'
$TRACE verify rec rec.replay-2 >vout2 2>&1
expect_eq "verify: another output is different (exit 1)" $? 1
expect_grep "... and says which line" vout2 '^different: task 1001 printed "outprint: file says alpha" as its output line 2'
# what a program prints differently on purpose can be masked
PANGAEA_OUTPUT_MASK='says [a-z]+$' pg -replay -logdir rec
expect_eq "the same replay with PANGAEA_OUTPUT_MASK over the file's word: exit 0" "$(cat rc)" 0
PANGAEA_OUTPUT_MASK='says [a-z]+$' $TRACE verify rec rec.replay-2 >vout2 2>&1
expect_eq "... and verify calls it identical" $? 0
# a damaged output.log is refused by verify and import, naming it
cp -a rec bad && printf 'line 1 5 99\nab' >>bad/output.log
$TRACE verify rec bad >vout3 2>&1
expect_eq "verify: a cut output.log is an error (exit 2)" $? 2
expect_grep "... naming the file" vout3 'bad/output.log: truncated'
rm -f bad/trace.db
$TRACE import bad >iout 2>&1
expect_eq "import: a cut output.log is refused (exit 1)" $? 1
expect_grep "... naming the file" iout 'bad/output.log: truncated: the record at offset'
$TRACE import --salvage bad >iout 2>&1
expect_eq "import --salvage: keeps what it can (exit 0)" $? 0
expect_eq "... the lines before the cut one, the damage noted" \
	"$(sqlite3 bad/trace.db "SELECT count(*) FROM output")|$(sqlite3 bad/trace.db "SELECT value LIKE '%output.log: truncated%' FROM meta WHERE key = 'salvaged'")" "6|1"

[ $(($(date +%s) - start)) -lt 60 ] && pass "done in under a minute" ||
	fail "took $(($(date +%s) - start)) s"
vm_halt
expect_no_leftovers
finish
