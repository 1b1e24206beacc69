# The viewer's task states and utilization, drawn without a person
# (pangaea-view --show ... --snapshot FILE.png) under Xvfb: examples/waiter
# makes each task compute, wait in pvm_recv and wait at a barrier at known
# moments; the pixels of the snapshots at those moments must be the
# state's colour (computing green, in PVM yellow, waiting red), and the
# utilization where both tasks sit in the barrier must hold no computing
# task.  Bad arguments give one line and exit 1.  The pictures are kept in
# $B/screenshots/views-*.png.
. "$(dirname "$0")/../lib.sh"
# Tk under a private X server (Xvfb) for the whole test
view_test views

# colour FILE X Y: the state whose colour the pixel X,Y of FILE has
# (computing, pvm, waiting), else "other:R,G,B".
colour() {
	local rgb
	rgb=$(convert "$1" -format '%[pixel:p{'"$2,$3"'}]' info: | tr -dc '0-9,')
	case $rgb in
	46,184,46) echo computing ;; 242,208,28) echo pvm ;; 216,48,48) echo waiting ;;
	*) echo "other:$rgb" ;;
	esac
}

# snapmap: X0, PLOTW, WT0, NSPX, ROWS from the line of the last snapshot
# (vout): snapshot F view V width W height H x0 X0 plotw P t0 T
# ns_per_px S tmin T rows {LTID Y ...}
snapmap() {
	eval "$(sed -n 's/^snapshot .* x0 \([0-9.]*\) plotw \([0-9]*\) t0 \([0-9]*\) ns_per_px \([0-9.e+]*\) tmin [0-9]* rows {\(.*\)}$/X0=\1 PLOTW=\2 WT0=\3 NSPX=\4 ROWS="\5"/p' vout)"
}

# ---- a recorded run of known states
pg -log -logdir rec "$B/examples/waiter" 300
expect_eq "waiter recorded" "$(cat rc)" 0
expect_grep "waiter ran to its end" out '^waiter: done$'
$TRACE import rec >/dev/null
q() { sqlite3 rec/trace.db "$1"; }
T0=$(q "SELECT min(t0) FROM events")
# ev LTID KIND [OP]: "t0 t1" of the task's first such event
ev() { q "SELECT t0, t1 FROM events WHERE ltid = $1 AND kind = '$2'
	${3:+AND op = '$3'} ORDER BY t0 LIMIT 1" | tr '|' ' '; }
read -r mrecv0 mrecv1 <<<"$(ev 1 recv)"
read -r wrecv0 wrecv1 <<<"$(ev 1001 recv)"
read -r wbar0 wbar1 <<<"$(ev 1001 group barrier)"
read -r mbar0 mbar1 <<<"$(ev 1 group barrier)"
read -r mjoin0 mjoin1 <<<"$(ev 1 group joingroup)"
[ $((mrecv1 - mrecv0)) -gt 200000000 ] && [ $((wrecv1 - wrecv0)) -gt 200000000 ] &&
	[ $((wbar1 - wbar0)) -gt 200000000 ] &&
	pass "the master waits in pvm_recv, then the worker, then the worker at the barrier (200 ms or more each)" ||
	fail "waiter's waits are not as planned: $mrecv0 $mrecv1 / $wrecv0 $wrecv1 / $wbar0 $wbar1"

# ---- the whole run as a timeline: the colour at the middle of each stretch
view --show timeline --snapshot t.png rec
expect_eq "timeline snapshot exits 0" "$(cat vrc)" 0
[ -s t.png ] && pass "the timeline snapshot is written" || fail "no t.png"
cp t.png "$SHOTS/views-timeline.png" 2>/dev/null
snapmap
[ -n "${NSPX:-}" ] && pass "the snapshot says how x maps to time" || fail "no map line: $(cat vout)"
# y of LTID's band (a little under its line)
rowy() { set -- $ROWS "$1"; local want=${!#}; while [ $# -gt 1 ]; do
	[ "$1" = "$want" ] && { echo $(($2 + 2)); return; }; shift 2; done; }
# x of the middle of [A, B]
midx() { awk -v a="$1" -v b="$2" -v x0="$X0" -v t0="$WT0" -v s="${NSPX:-1}" \
	'BEGIN { printf "%d", x0 + ((a + b) / 2 - t0) / s }'; }
m=$(rowy 1); w=$(rowy 1001)
x=$(midx "$mrecv0" "$mrecv1")
expect_eq "master waits in pvm_recv while the worker computes: master" "$(colour t.png "$x" "$m")" waiting
expect_eq "... and the worker computes" "$(colour t.png "$x" "$w")" computing
x=$(midx "$wrecv0" "$wrecv1")
expect_eq "worker waits in pvm_recv while the master computes: worker" "$(colour t.png "$x" "$w")" waiting
expect_eq "... and the master computes" "$(colour t.png "$x" "$m")" computing
x=$(midx "$wbar0" "$mbar0")
expect_eq "worker waits at the barrier while the master computes: worker" "$(colour t.png "$x" "$w")" waiting
expect_eq "... and the master computes" "$(colour t.png "$x" "$m")" computing

# ---- in PVM: the master's pvm_joingroup, shown over its middle half
a=$(( (mjoin0 - T0) + (mjoin1 - mjoin0) / 4 )); b=$(( (mjoin0 - T0) + 3 * (mjoin1 - mjoin0) / 4 ))
view --show timeline --range "${a}ns:${b}ns" --snapshot j.png rec
expect_eq "--range snapshot exits 0" "$(cat vrc)" 0
snapmap
x=$(midx $((T0 + a)) $((T0 + b)))
expect_eq "the master is in PVM inside pvm_joingroup" "$(colour j.png "$x" "$(rowy 1)")" pvm
cp j.png "$SHOTS/views-joingroup.png" 2>/dev/null

# ... and inside its pvm_send of 4 MB (a few us: shown over the call alone)
read -r msend0 msend1 <<<"$(ev 1 send)"
a=$((msend0 - T0 + (msend1 - msend0) / 4)); b=$((msend0 - T0 + 3 * (msend1 - msend0) / 4))
view --show timeline --range "${a}ns:${b}ns" --snapshot s.png rec
snapmap
x=$(midx $((T0 + a)) $((T0 + b)))
expect_eq "the master is in PVM inside pvm_send" "$(colour s.png "$x" "$(rowy 1)")" pvm

# ---- utilization: where both tasks are in the barrier, nobody computes
# the column's colours from the top of the plot (y 30) to its bottom
column() {
	local h
	h=$(identify -format %h "$1")
	convert "$1" -crop "1x$((h - 16 - 31))+$2+31" -depth 8 txt:- | awk '
		/#2EB82E/ { g++ } /#F2D01C/ { y++ } /#D83030/ { r++ }
		END { printf "computing %d pvm %d waiting %d\n", g, y, r }'
}
view --show utilization --snapshot u.png rec
expect_eq "utilization snapshot exits 0" "$(cat vrc)" 0
[ -s u.png ] && pass "the utilization snapshot is written" || fail "no u.png"
cp u.png "$SHOTS/views-utilization.png" 2>/dev/null
snapmap
read -r _ g _ y _ r <<<"$(column u.png "$(midx "$mrecv0" "$mrecv1")")"
[ "$g" -gt 0 ] && [ "$r" -gt 0 ] && [ $(( g - r )) -le 2 ] && [ $(( r - g )) -le 2 ] &&
	pass "utilization while the master waits: one task computing, one waiting ($g, $r px)" ||
	fail "utilization while the master waits: computing $g, waiting $r px"
# both in the barrier: from the later entry to the earlier exit
lo=$(( (mbar0 > wbar0 ? mbar0 : wbar0) - T0 )); hi=$(( (mbar1 < wbar1 ? mbar1 : wbar1) - T0 ))
view --show utilization --range "${lo}ns:${hi}ns" --snapshot ub.png rec
expect_eq "utilization snapshot of the barrier exits 0" "$(cat vrc)" 0
snapmap
read -r _ g _ y _ r <<<"$(column ub.png "$(midx $((T0 + lo)) $((T0 + hi)))")"
[ "$g" = 0 ] && [ "$y" = 0 ] && [ "$r" -gt 50 ] &&
	pass "utilization at the barrier: no task computing, every task waiting ($r px)" ||
	fail "utilization at the barrier: computing $g, in PVM $y, waiting $r px"
cp ub.png "$SHOTS/views-barrier.png" 2>/dev/null

# ---- a poll loop waits: from the event before the failed polls to the
# exit of the poll that found the message (racy -poll's master; its last
# loop, past several of the viewer's checkpoints of 32 events)
pg -log -logdir racy "$B/examples/racy" -w 2 -m 30 -poll
expect_eq "racy -poll recorded" "$(cat rc)" 0
$TRACE import racy >/dev/null
read -r a b <<<"$(sqlite3 racy/trace.db "SELECT q.t1, e.t1 FROM events e
	JOIN events p ON p.ltid = e.ltid AND p.seq = e.seq - 1
	JOIN events q ON q.ltid = e.ltid AND q.seq = e.seq - 2
	WHERE e.ltid = 1 AND p.kind = 'pollfail' AND e.seq > 64
	ORDER BY e.seq DESC LIMIT 1" | tr '|' ' ')"
cat >states.tcl <<EOS
set f [open states.out w]; puts \$f [pgdb states $a $b 1]; close \$f; exit 0
EOS
# the whole life of the master, and its two halves: every ns of it is in
# one state, as stats says, and the halves add up
read -r s0 e0 <<<"$(sqlite3 racy/trace.db "SELECT start_wall_ns, (SELECT t0 FROM
	events WHERE ltid = 1 AND kind = 'end') FROM tasks WHERE ltid = 1" | tr '|' ' ')"
m0=$(( (s0 + e0) / 2 ))
cat >>states.tcl <<EOS
set f [open life.out w]
foreach {x y} {$s0 $e0 $s0 $m0 $m0 $e0} {
	lassign [pgdb states \$x \$y 1] l v
	puts \$f "[tcl::mathop::+ {*}\$v] \$v"
}
close \$f
EOS
sed -i 's/; exit 0$//' states.tcl; echo "exit 0" >>states.tcl
if [ -n "$a" ]; then
	view -script states.tcl racy/trace.db
	{ read -r all _; read -r sum1 c1 p1 w1; read -r sum2 c2 p2 w2; } <life.out
	expect_eq "the master's whole life is in some state (ns)" "$all" $((e0 - s0))
	# pangaea-trace stats follows the rule event by event from the start;
	# the viewer from its checkpoints: the same ns in each state
	$TRACE stats --csv racy >racy.csv
	expect_eq "viewer and stats agree on the master's states (computing, in PVM, waiting ns)" \
		"$(sed -n 1p life.out | cut -d' ' -f2-)" \
		"$(awk -F, '$1 == "state" && $2 == 1 { printf "%s%s", s, $10; s = " " }' racy.csv)"
	expect_eq "... and its two halves add up" "$((c1 + c2)) $((p1 + p2)) $((w1 + w2))" \
		"$(sed -n 1p life.out | cut -d' ' -f2-)"
	expect_eq "the poll loop's stretch is all waiting (computing, in PVM, waiting ns)" \
		"$(cat states.out 2>/dev/null)" "1 {0 0 $((b - a))}"
else
	fail "racy -poll logged no failed polls before a receive"
fi

# ---- the task states pane: a bar per task, its shares of the window
view --show stats --snapshot st.png rec
expect_eq "stats snapshot exits 0" "$(cat vrc)" 0
snapmap
cp st.png "$SHOTS/views-stats.png" 2>/dev/null
# x at fraction F of the bars; y of LTID's bar, under its percentage
bary() { echo $(( $(rowy "$1") + 4 )); }
fx() { awk -v f="$1" -v x0="$X0" -v w="${PLOTW:-0}" 'BEGIN { printf "%d", x0 + f * w }'; }
expect_eq "states bar: the master computes at 30% of its bar" "$(colour st.png "$(fx 0.3)" "$(bary 1)")" computing
expect_eq "... and waits at 90%" "$(colour st.png "$(fx 0.9)" "$(bary 1)")" waiting
expect_eq "states bar: the worker computes at 15% of its bar" "$(colour st.png "$(fx 0.15)" "$(bary 1001)")" computing
expect_eq "... and waits at 70%" "$(colour st.png "$(fx 0.7)" "$(bary 1001)")" waiting

# ---- the histograms under the bars: for the run and for a task chosen in
# the selector, one bar per bucket that is not empty, as stats --json
# counts them (time per call of each PVM function, sizes, granularity)
cat >hist.tcl <<'EOS'
set f [open hist.out w]
foreach t {all 1001} {
	# as a person does: the selector's list, then a choice in it
	.s.tb.task configure -values {}
	view::hist_tasks
	if {$t ni [.s.tb.task cget -values]} { puts $f "not offered $t" }
	.s.tb.task set $t
	event generate .s.tb.task <<ComboboxSelected>>
	update; vtest::wait 100
	foreach i [.s.c find withtag hbar] {
		lassign [.s.c gettags $i] _ key n
		lassign [.s.c coords $i] x0 y0 x1 y1
		puts $f "$t $key [string range $n 2 end] [expr {int(($x0 + $x1) / 2)}] [expr {int($y0 + 1)}] [expr {int($y1 - $y0)}]"
	}
}
close $f
exit 0
EOS
view --show stats -script hist.tcl rec
expect_eq "histograms script exits 0" "$(cat vrc)" 0
$TRACE stats --json rec >st.json
python3 - st.json >hist.want <<'EOP'
import json, sys
for t in json.load(open(sys.argv[1]))["tasks"]:
    if t["task"] not in ("all", "1001"):
        continue
    rows = [("call-" + c["function"], c["histogram"]) for c in t["calls"]]
    rows += [("sizes", t["message_sizes"]), ("gran", t["computation_granularity"])]
    for key, h in rows:
        for b, x in enumerate(h):
            if x["count"]:
                print(t["task"], "%s:%d" % (key, b), x["count"])
EOP
expect_eq "the selector offers the run and each task" "$(grep -c '^not offered' hist.out)" 0
expect_eq "histogram bars (task, bucket, count) are those of stats --json" \
	"$(cut -d' ' -f1-3 hist.out 2>/dev/null | sort)" "$(sort hist.want)"
[ "$(grep -c '^1001 call-pvm_barrier:6 1 ' hist.out)" = 1 ] &&
	! grep -q '^1001 call-pvm_spawn' hist.out &&
	pass "the worker's histograms: its barrier of 300 ms, no pvm_spawn" ||
	fail "the worker's histograms: $(grep '^1001' hist.out | tr '\n' ';')"
# heights: in one histogram, the bars' heights follow their counts
# (the run's granularity: the largest count is the highest bar)
read -r hx hy hh <<<"$(awk '$1 == "all" && $2 ~ /^gran:/ { if ($3 > m) { m = $3; l = $4 " " $5 " " $6 } } END { print l }' hist.out)"
[ "$(awk '$1 == "all" && $2 ~ /^gran:/ { print $6 }' hist.out | sort -n | tail -1)" = "$hh" ] &&
	pass "the largest granularity count is the highest bar ($hh px)" ||
	fail "granularity bar heights do not follow the counts: $(grep '^all gran' hist.out | tr '\n' ';')"
# the pixels: the snapshot of the stats view shows the run's bars
convert st.png -format '%[pixel:p{'"$hx,$((hy + 2))"'}]' info: >hpix
expect_eq "the stats snapshot shows the run's highest granularity bar in the bars' colour" \
	"$(tr -dc '0-9,' <hpix)" "74,120,194"

# ---- statistics as pictures: pangaea-trace stats --plot DIR (SVG, no display)
$TRACE stats --plot plots rec >sout 2>serr
expect_eq "stats --plot exits 0" $? 0
for f in calls granularity overhead sizes states; do
	if [ -s plots/$f.svg ] && xmllint --noout plots/$f.svg 2>/dev/null &&
	   grep -q "<rect .*height=\"[1-9]" plots/$f.svg; then
		pass "stats --plot: $f.svg is SVG with bars"
	else
		fail "stats --plot: $f.svg missing, not XML or without bars"
	fi
	cp plots/$f.svg "$SHOTS/views-stats-$f.svg" 2>/dev/null
done
expect_eq "stats --plot says what it wrote (5 and calls-LTID.svg per task)" "$(grep -c '^wrote plots/' sout)" 7
# the state bars: each task's shares, from the widths of its three rects
# (master: 600 of its ~940 ms computing; worker: 600 waiting)
python3 - plots/states.svg >shares <<'EOP'
import sys, xml.etree.ElementTree as E
ns = "{http://www.w3.org/2000/svg}"
row, out = None, {}
for e in E.parse(sys.argv[1]).getroot():
    if e.tag == ns + "text" and (e.text or "").startswith(("ltid", "all")):
        row = e.text; out[row] = []
    elif e.tag == ns + "rect" and row and e.get("height") == "20":
        out[row].append(float(e.get("width")))
for r, w in out.items():
    print(r.replace(" ", ""), " ".join("%d" % (100 * x / sum(w)) for x in w))
EOP
read -r _ mc mp mw <<<"$(grep '^ltid1 ' shares)"
read -r _ wc wp ww <<<"$(grep '^ltid1001 ' shares)"
[ "${mc:-0}" -ge 55 ] && [ "${mc:-0}" -le 75 ] && [ "${ww:-0}" -ge 55 ] && [ "${ww:-0}" -le 75 ] &&
	[ "${mw:-0}" -ge 25 ] && [ "${wc:-0}" -ge 25 ] &&
	pass "state bars: master computes $mc%, waits $mw%; worker computes $wc%, waits $ww%" ||
	fail "state bars: $(tr '\n' ';' <shares)"
# per task: calls-LTID.svg beside the run's, and -task LTID's pictures
# hold that task's row alone; the counts drawn are those of stats --json
# svgrows FILE: per row of FILE, "label: count count ..." (a bar's count
# is the text above it, its bucket's name the one under it)
svgrows() { python3 - "$1" <<'EOP'
import sys, xml.etree.ElementTree as E
ns = "{http://www.w3.org/2000/svg}"
rows, cur, mid = [], None, []
for e in E.parse(sys.argv[1]).getroot():
    if e.tag != ns + "text":
        continue
    if e.get("text-anchor") == "start":
        cur = [e.text]; rows.append(cur)
    elif e.get("text-anchor") == "middle" and cur is not None:
        cur.append(e.text)
for r in rows:
    print(r[0].replace(" ", "") + ":", " ".join(r[1::2]))
EOP
}
# jsonrows TASK WHAT: the same lines from stats --json (st.json)
jsonrows() { python3 - st.json "$1" "$2" <<'EOP'
import json, sys
t = [t for t in json.load(open(sys.argv[1]))["tasks"] if t["task"] == sys.argv[2]][0]
if sys.argv[3] == "calls":
    for c in t["calls"]:
        print(c["function"] + ":", " ".join(str(x["count"]) for x in c["histogram"]))
else:
    lb = "alltasks" if sys.argv[2] == "all" else "ltid" + sys.argv[2]
    print(lb + ":", " ".join(str(x["count"]) for x in t[sys.argv[3]]))
EOP
}
for f in calls-1 calls-1001; do
	xmllint --noout plots/$f.svg 2>/dev/null && pass "stats --plot: $f.svg is SVG" ||
		fail "stats --plot: $f.svg missing or not XML"
done
expect_eq "calls-1001.svg: the worker's calls, each by time inside, as stats --json" \
	"$(svgrows plots/calls-1001.svg)" "$(jsonrows 1001 calls)"
expect_eq "calls.svg: the run's calls, as stats --json" \
	"$(svgrows plots/calls.svg)" "$(jsonrows all calls)"
$TRACE stats --plot plots1 -task 1001 rec >sout 2>serr
expect_eq "stats --plot DIR -task 1001 exits 0" $? 0
expect_eq "... writes the five pictures" "$(grep -c '^wrote plots1/' sout)" 5
expect_eq "-task 1001: granularity.svg is the worker's row alone, as stats --json" \
	"$(svgrows plots1/granularity.svg)" "$(jsonrows 1001 computation_granularity)"
expect_eq "-task 1001: sizes.svg is the worker's row alone" \
	"$(svgrows plots1/sizes.svg)" "$(jsonrows 1001 message_sizes)"
expect_eq "-task 1001: calls.svg is the worker's calls" \
	"$(svgrows plots1/calls.svg)" "$(jsonrows 1001 calls)"
$TRACE stats --plot rec >sout 2>serr
expect_eq "stats --plot DIR without a LOGDIR exits 1" $? 1
expect_grep "... with the usage" serr 'usage: pangaea-trace stats .*--plot DIR'
$TRACE stats --plot /proc/no/such rec >sout 2>serr
expect_eq "stats --plot into a folder it cannot make exits 1" $? 1
expect_grep "... and says why" serr '^pangaea-trace: cannot make /proc/no/such: '

# ---- bad arguments: one line on stderr, exit 1, no picture
bad() {
	rm -f bad.png
	view "$@"
	if [ "$(cat vrc)" = 1 ] && [ "$(wc -l <verr)" = 1 ] &&
	   grep -q '^pangaea-view: ' verr && [ ! -e bad.png ]; then
		pass "bad arguments ($*): $(cat verr)"
	else
		fail "bad arguments ($*): exit $(cat vrc), stderr:"; sed 's/^/    | /' verr
	fi
}
bad --show nothing --snapshot bad.png rec
bad --range 5 --snapshot bad.png rec
bad --range 300:100 --snapshot bad.png rec
bad --range 1x:2 --snapshot bad.png rec
bad --snapshot bad.png
bad --snapshot bad.png nowhere
bad --snapshot
bad --snapshot /nonexistent/dir/bad.png rec

vm_halt
expect_no_leftovers
finish
