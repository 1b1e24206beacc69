# pangaea-trace races on real recordings: racy's wildcard receives race
# (and the event numbers are the dump's), racy -poll's polls, the joins of
# groups, watcher's pvmd notices, sor's fixed-source receives never race
# (its residuals, taken with pvm_recv(-1, tag), do; as version 5 logs,
# without filters, the strips race too), anytag's pvm_recv(-1, -1) races
# across tags;
# then the viewer (under Xvfb): the racing events outlined, the
# alternatives of one, the commands its Race menu starts, the kept runs
# of an exploration opened one after another and side by side.
TESTS=$(cd "$(dirname "$0")/.." && pwd)
. "$TESTS/lib.sh"
E=$B/examples

pg -log -logdir racy "$E/racy" -w 3 -m 5
expect_eq "racy recorded" "$(cat rc)" 0
$TRACE races racy >races.txt 2>err; rc=$?
expect_eq "races exits 0" "$rc" 0
expect_grep "summary line" races.txt '^[1-9][0-9]* racing receives in 1 tasks, [1-9][0-9]* alternatives$'
# the master takes 15 answers from 3 workers: every receive but the last
# few could have got another worker's answer
n=$(grep -c '^task 1 event [0-9]* pvm_recv got 100[123]:' races.txt)
[ "$n" -ge 10 ] && pass "racy: $n racing receives of the master" ||
	fail "racy: only $n racing receives of the master"
# every racing event is a receive the dump numbers the same way, and
# its alternatives are other workers' answers, none of its own sender
bad=0
while read -r _ l _ ev _ _ got rest; do
	from=${got%%:*} id=${got#*:}
	$TRACE dump -task "$l" racy | grep -q "^  #$ev recv from=$from msg=$id tag=1 " || bad=$((bad + 1))
	case $rest in *" $from:"*) bad=$((bad + 1)) ;; esac
done < <(grep '^task ' races.txt)
expect_eq "racy: event numbers agree with the dump, no own-sender alternative" "$bad" 0
# JSON and CSV say the same
$TRACE races --json racy >races.json
expect_eq "json: as many races as the text" \
	"$(python3 -c 'import json,sys; d=json.load(open("races.json")); print(len(d["races"]), d["racing"])')" \
	"$n $(grep -c '^task ' races.txt)"
$TRACE races --csv racy >races.csv
expect_eq "csv: one row per alternative" "$(($(wc -l <races.csv) - 1))" \
	"$(sed -n 's/.* \([0-9]*\) alternatives$/\1/p' races.txt)"
# a clean run with one worker has nothing to race with
pg -log -logdir one "$E/racy" -w 1 -m 3
$TRACE races one >one.txt; rc=$?
expect_eq "one worker: exits 0" "$rc" 0
expect_eq "one worker: no races" "$(cat one.txt)" "0 racing receives in 0 tasks, 0 alternatives"

# polls: racy -poll takes the answers with pvm_nrecv
pg -log -logdir poll "$E/racy" -w 2 -m 5 -poll
expect_eq "racy -poll recorded" "$(cat rc)" 0
$TRACE races poll >poll.txt
expect_grep "a pvm_nrecv that could have got another message or none" poll.txt \
	'^task 1 event [0-9]+ pvm_nrecv got 100[12]:[0-9]+ tag 1; alternatives: .*nothing'
# of its alternatives, those that can be swapped in are counted apart
# from polls' "nothing": -explore counts (and tries) only those
expect_grep "polls: the alternatives that can be swapped in, and the others" poll.txt \
	'^[1-9][0-9]* of them can be swapped in \(pangaea -replay -swap, -explore tries them\); the other [1-9][0-9]* are no message to hand over: [1-9][0-9]* polls. "nothing"'
swappable=$(sed -n 's/^\([0-9]*\) of them can be swapped in.*/\1/p' poll.txt)
timeout 60 "$PANGAEA" -explore -budget 1 -logdir poll >xout 2>xerr
expect_grep "-explore counts the alternatives races says can be swapped in" xerr \
	"explore: .*/poll: $swappable racing alternative\(s\) in the recording that can be swapped in \(pangaea-trace races counts polls' and joins' outcomes too\)"
expect_eq "json: the same count" \
	"$($TRACE races --json poll | python3 -c 'import json,sys; print(json.load(sys.stdin)["swappable"])')" "$swappable"

# groups: 4 tasks join "ring" concurrently
pg -log -logdir groups "$E/groups" 4 2
expect_eq "groups recorded" "$(cat rc)" 0
$TRACE races groups >groups.txt
expect_grep "concurrent joins race" groups.txt \
	'^task [0-9]+ event [0-9]+ pvm_joingroup got instance [0-9]+; alternatives: [0-9]+ \(instance'

# a pvmd's notices: watcher takes a PvmTaskExit notice per worker (tag
# 3): they race with each other, each after its worker's end
pg -log -logdir watcher "$E/watcher" 3
expect_eq "watcher recorded" "$(cat rc)" 0
$TRACE races watcher >watcher.txt
expect_grep "notices race with each other" watcher.txt \
	'got pvmd:100[1-4] tag 3 \(a notice about task 100[123]\); alternatives: pvmd:100[1-4] \(tag 3, a notice about task 100[123]\)'

# sor: every receive from a fixed source (setup 10, halo rows 11, 12,
# the master's strips 15) has no race, now that the log keeps receive
# filters; the residuals (13, 14), taken with pvm_recv(-1, tag), do race
pg -log -logdir sor "$E/sor" 3 12 4
expect_eq "sor recorded" "$(cat rc)" 0
$TRACE races --csv sor >sor.csv 2>sor.err
expect_eq "sor: no race on a fixed-source receive" \
	"$(awk -F, 'NR > 1 && $7 != 13 && $7 != 14' sor.csv | wc -l)" 0
expect_eq "sor: filters logged, nothing said" "$(cat sor.err)" ""
$TRACE races sor >sor.txt
nres=$(awk -F, 'NR > 1 {print $1, $2}' sor.csv | sort -u | wc -l)
[ "$nres" -gt 0 ] && pass "sor: $nres residual receives race" ||
	fail "sor: no race on the residuals"
expect_grep "sor: the summary counts the residuals alone" sor.txt \
	"^$nres racing receives in 3 tasks, [0-9]+ alternatives$"
# the same logs as version 5 (no filters): every receive a wildcard, as
# before, so the master's strips race again, and races says so once
cp -r sor sor5
rm -f sor5/trace.db*
"$B/tests/commconv" 5 sor5/task-*.comm
$TRACE races --csv sor5 >sor5.csv 2>sor5.err; rc=$?
expect_eq "version 5: exits 0" "$rc" 0
expect_eq "version 5: said once" "$(cat sor5.err)" \
	"pangaea-trace: receive filters not logged (comm log version 5): every receive is taken as a wildcard"
[ "$(awk -F, 'NR > 1 && $7 == 15' sor5.csv | wc -l)" -gt 0 ] &&
	pass "version 5: the strips taken as wildcards race" ||
	fail "version 5: no race on the strips"

# an any-tag receive: anytag's master takes 3 answers of tags 101-103
# with pvm_recv(-1, -1); its first receive could have got either other
pg -log -logdir anytag "$B/tests/anytag" 3
expect_eq "anytag recorded" "$(cat rc)" 0
$TRACE races anytag >anytag.txt
expect_grep "anytag: cross-tag alternatives" anytag.txt \
	'^task 1 event [0-9]+ pvm_recv got 100[123]:1 tag 10[123]; alternatives: 100[123]:1 \(tag 10[123], sent at its event 1\), 100[123]:1 \(tag 10[123]'
expect_grep "anytag: summary" anytag.txt '^2 racing receives in 1 tasks, 3 alternatives$'

# ---- the viewer: racing events outlined, their alternatives, the Race
# menu's commands (run through a stand-in launcher that notes its
# arguments, makes the what-if's folder and an exploration's kept runs)
view_test races
export SHOTS
cat >launcher <<'EOF2'
#!/bin/bash
echo "$*" >>"$LAUNCHED"
while [ $# -gt 0 ]; do
	case $1 in
	-out) mkdir -p "$2" ;;
	-logdir) rec=$2 ;;
	esac
	shift
done
case $(tail -1 "$LAUNCHED") in
*-explore*) for n in 001 002; do mkdir -p "$rec.explore"; cp -r "$rec" "$rec.explore/$n"; done
	    rm -f "$rec.explore"/*/trace.db; exit 4 ;;
esac
exit 0
EOF2
chmod +x launcher
export PANGAEA_VIEW_LAUNCHER=$T/launcher LAUNCHED=$T/launched
n_racing=$(grep -c '^task ' races.txt)
cat >races.tcl <<'EOF2'
set out [open result w]
proc out {args} { puts $::out [join $args] }
proc opened {} { return $::opened }
set ::opened {}
proc view::open_window {dir} { lappend ::opened $dir }
proc wait_run {} {
	for {set i 0} {$i < 300 && $view::V(race_job) ne ""} {incr i} { vtest::wait 100 }
}
vtest::wait 100
out outlines [vtest::count race]
vtest::shot $::env(SHOTS)/races-1-outlined.png
set id [lindex [dict keys $view::V(races)] 0]
vtest::click ev&&e:$id
out details [string map {"\n" " | "} [vtest::details]]
out sel [lrange $view::V(race_sel) 1 3]
view::race_menu .mb.r
set labels {}
for {set i 0} {$i <= [.mb.r index end]} {incr i} {
	if {[.mb.r type $i] eq "command"} { lappend labels [.mb.r entrycget $i -label] }
}
out menu [join $labels |]
vtest::shot $::env(SHOTS)/races-2-selected.png
.mb.r invoke 0
wait_run
out whatif_rc $view::V(race_rc) opened [opened]
view::race_menu .mb.r
.mb.r invoke [.mb.r index "Explore from here*"]
wait_run
out explore_rc $view::V(race_rc)
out runs [.runs.l get 0 end]
view::run_open next
out next [file tail $view::V(logdir)]
view::run_open next
out next [file tail $view::V(logdir)]
vtest::shot $::env(SHOTS)/races-3-kept-run.png root
.runs.l selection set 0 end
view::run_side
out side [llength [opened]]
close $out
exit 0
EOF2
view -script races.tcl racy
expect_eq "viewer exits 0" "$(cat vrc)" 0
[ -s verr ] && sed 's/^/    verr| /' verr | head -20
expect_eq "one outline per racing event" "$(sed -n 's/^outlines //p' result)" "$n_racing"
first=$(grep '^task ' races.txt | head -1)
ev=$(echo "$first" | awk '{print $4}')
alt=$(echo "$first" | sed -n 's/.*alternatives: \([0-9]*:[0-9]*\) .*/\1/p')
expect_grep "the details list the alternatives" result \
	"^details .*racing \(recv\): it could have got $alt"
expect_eq "the selected racing event" "$(sed -n 's/^sel //p' result)" "1 $ev recv"
expect_grep "the menu: what if, explore, the kept runs" result \
	"^menu What if 1:$ev got $alt\|.*Explore from here \(1:$ev\)\|Exploration runs...$"
expect_eq "what if: the command run" "$(sed -n 1p launched)" \
	"-replay -swap 1:$ev=${alt} -logdir $T/racy -out $T/racy.whatif-1-$ev-${alt/:/-}"
expect_eq "what if: its result opened" "$(sed -n 's/^whatif_rc //p' result)" \
	"0 opened $T/racy.whatif-1-$ev-${alt/:/-}"
expect_eq "explore from here: the command run" "$(sed -n 2p launched)" \
	"-explore -from 1:$ev -logdir $T/racy"
expect_eq "explore: its exit status" "$(sed -n 's/^explore_rc //p' result)" 4
expect_eq "the kept runs listed" "$(sed -n 's/^runs //p' result)" "001 002"
expect_eq "one after another" "$(sed -n 's/^next //p' result | tr '\n' ' ')" "001 002 "
expect_eq "side by side: a window each (and the what-if's)" \
	"$(sed -n 's/^side //p' result)" 3
unset PANGAEA_VIEW_LAUNCHER LAUNCHED

# unreadable folder: exit 1 with a message
$TRACE races nowhere >/dev/null 2>err; rc=$?
expect_eq "no logs: exit 1" "$rc" 1
expect_grep "no logs: says why" err 'pangaea-trace: nowhere'
expect_no_leftovers
finish
