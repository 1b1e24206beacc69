# The coordinator on another host than the launcher's, on a virtual
# machine of three hosts (scripts/hosts.sh; the launcher runs on h1):
# `-coord h2` records and replays as with the coordinator at home (the
# same tasks, output and verified logs), its messages reach the
# launcher's standard error, nothing of it is left on h2; a -coord host
# not in the machine is refused before any task starts; the live view
# (-view, the viewer on h1) gets every event through the relay on h1;
# the spawn dialog lists the hosts and starts a run whose launcher,
# first task and coordinator are on other hosts; losing the
# coordinator's host ends the run, naming it.
. "$(dirname "$0")/../lib.sh"

if ! hosts_up 3; then
	finish
	exit
fi
hosts_vm h2 h3
expect_eq "vm: three hosts" "$(grep -c LINUX64 conf)" 3

# coord_pids HOST: the pids of this test's coordinators on HOST (not its
# beacons, which are pangaea-coord -beacon)
coord_pids() {
	local p
	for p in $(ip netns pids "$($HOSTS netns "$1")" 2>/dev/null); do
		[ "$(cat /proc/$p/comm 2>/dev/null)" = pangaea-coord ] &&
			env_has "$p" "PVM_VMID=$VMID" &&
			! tr '\0' ' ' <"/proc/$p/cmdline" | grep -q -- -beacon &&
			echo "$p"
	done
}
# run_left HOST: the processes of this test's runs on HOST (tasks,
# coordinator, beacon, relay: all have the run's PANGAEA_CONTEXT), after
# up to 5 s for them to end; not PVM's group server, which the groups
# run started and which serves the machine until it halts
run_left() {
	local p left i
	for i in $(seq 50); do
		left=
		for p in $(ip netns pids "$($HOSTS netns "$1")" 2>/dev/null); do
			[ "$(cat /proc/$p/comm 2>/dev/null)" != pvmgs ] &&
				env_has "$p" "PVM_VMID=$VMID" &&
				grep -qz '^PANGAEA_CONTEXT=' "/proc/$p/environ" 2>/dev/null &&
				left="$left $p"
		done
		[ -z "$left" ] && break
		sleep 0.1
	done
	[ -n "$left" ] && describe_pids $left
}
# ltids DIR: the tasks of a recording, from its exec logs
ltids() { grep -ho '[0-9]*@h[0-9]*' "$1"/task-*.exec | sed 's/@.*//' | sort -n | tr '\n' ' '; }

# 1. sor at home and with -coord h2: the same run
SOR="$B/examples/sor 6 40 20"
pg -log -logdir home $SOR </dev/null
expect_eq "home: exit 0" "$(cat rc)" 0
cp out home.out
PANGAEA_TIMELINE=1 pg -log -logdir away -coord h2 $SOR </dev/null
expect_eq "away: exit 0" "$(cat rc)" 0
expect_eq "away: the output is the one at home" "$(cat out)" "$(cat home.out)"
expect_eq "away: the same tasks (ltids) as at home" "$(ltids away)" "$(ltids home)"
expect_eq "away: tasks on every host" \
	"$(grep -ho '@h[0-9]*' away/task-*.exec | sort -u | tr '\n' ' ')" "@h1 @h2 @h3 "
expect_grep "away: the coordinator's messages reach the launcher's stderr" err \
	"coordinator: up: sends HELLO$"
expect_eq "away: nothing of the run left on h2 (coordinator, beacon, tasks)" \
	"$(run_left h2)" ""
cp out away.out
ok=0
for c in h2 h3 ""; do
	pg -replay -logdir away -out "away.r$c" ${c:+-coord $c} </dev/null
	[ "$(cat rc)" = 0 ] && cmp -s out away.out &&
		$TRACE verify away "away.r$c" >/dev/null 2>&1 && ok=$((ok + 1)) ||
		{ echo "   replay with -coord '$c': exit $(cat rc)"; head -3 err; }
done
expect_eq "away: replays with the coordinator on h2, h3 and at home verified" "$ok" 3

# 2. groups (the group server on the way) with -coord h3
pg -log -logdir grp -coord h3 "$B/examples/groups" 6 2 </dev/null
expect_eq "groups: exit 0" "$(cat rc)" 0
expect_grep "groups: done" out "^groups: done"
sort out >grp.out
ok=0
for c in h3 ""; do
	pg -replay -logdir grp -out "grp.r$c" ${c:+-coord $c} </dev/null
	[ "$(cat rc)" = 0 ] && cmp -s <(sort out) grp.out &&
		$TRACE verify grp "grp.r$c" >/dev/null 2>&1 && ok=$((ok + 1)) ||
		{ echo "   replay with -coord '$c': exit $(cat rc)"; head -3 err; }
done
expect_eq "groups: replays with the coordinator on h3 and at home verified" "$ok" 2

# 3. a -coord host that is not in the machine: one line, before any task
pg -log -logdir nohost -coord h9 $SOR </dev/null
expect_eq "no host: exit 1" "$(cat rc)" 1
expect_grep "no host: names it and the machine's hosts" err \
	"^pangaea: error: -coord h9: no such host in the virtual machine \(its hosts: h1 h2 h3\)$"
expect_eq "no host: said in one line" "$(grep -c error err)" 1
[ -s out ] || ls nohost/task-1* >/dev/null 2>&1 &&
	fail "no host: a task ran" || pass "no host: no task started"

# 4. the live view, its viewer on h1, the coordinator on h2
X=
if ! command -v Xvfb >/dev/null; then
	skip "the live view and the spawn dialog" "no Xvfb (scripts/install-deps.sh)"
elif hosts_x_display h1; then
	X=1
fi
if [ -n "$X" ]; then
	cat >live.tcl <<'EOF'
set perms "never connected"
for {set i 0} {$i < 600 && $view::V(live_via) ne "done"} {incr i} {
	vtest::wait 50
	if {$perms eq "never connected" && $view::V(sock_chan) ne ""} {
		set s $view::V(sock)
		set perms "[file attributes [file dirname $s] -permissions] [file attributes $s -permissions]"
	}
}
set out [open $::env(S)/live.tmp w]
puts $out "via $view::V(live_via) lines $view::V(sock_lines)"
puts $out "socket $perms"
close $out
file rename $::env(S)/live.tmp $::env(S)/live.result
exit 0
EOF
	export S
	PANGAEA_VIEW_SCRIPT=$S/live.tcl pg -log -view -coord h2 -logdir live $SOR </dev/null
	expect_eq "live: exit 0" "$(cat rc)" 0
	expect_grep "live: a viewer started" err "viewer started \(pid [0-9]+\)"
	for _ in $(seq 300); do [ -e live.result ] && break; sleep 0.1; done
	$TRACE import live >/dev/null
	expect_grep "live: the viewer on h1 got every event of the run through its socket" \
		live.result "^via done lines $(sqlite3 live/trace.db 'SELECT count(*) FROM events')$"
	expect_grep "live: the relay's socket is 0600 in a 0700 folder" live.result \
		"^socket [0-9]*700 [0-9]*600$"
	expect_eq "live: nothing of the run left (relay, coordinator, viewer)" \
		"$(run_left h1)$(run_left h2)$(run_left h3)" ""
fi

# 5. the spawn dialog on h1 lists the machine's hosts and starts a
# recording whose launcher runs on h2 (through PVM_RSH), its first task
# on h2 (Where Host) and its coordinator on h3; the events come back to
# the dialog's view through a relay on h1
if [ -n "$X" ]; then
	SHOTS=$B/screenshots
	mkdir -p "$SHOTS"
	rm -f "$SHOTS"/hosts_coord-*.png
	cat >dlg.tcl <<'EOF'
spawn::dialog
spawn::toggle
set out [open $::env(S)/dlg.tmp w]
puts $out "hosts [lmap h $spawn::S(hosts) {lindex $h 0}] this [spawn::this_host]"
puts $out "listed [.spawn.f.hosts.l size]"
vtest::wait 300
vtest::shot $::env(SHOTS)/hosts_coord-1-spawn-hosts.png .spawn
set spawn::S(cmd) "$::env(B)/examples/sor 4 40 20"
set spawn::S(pghost) h9
spawn::start
puts $out "nohost $spawn::S(status)"
set spawn::S(cmd) "$::env(B)/examples/sor 4 40 20"
set spawn::S(mode) log
set spawn::S(logdir) $::env(S)/dlg
set spawn::S(where) host
set spawn::S(whereval) h2
set spawn::S(pghost) h2
set spawn::S(coordhost) h3
spawn::start
for {set i 0} {$i < 600 && $spawn::S(fd) ne ""} {incr i} { vtest::wait 100 }
for {set i 0} {$i < 200 && $view::V(live_via) ne "done"} {incr i} { vtest::wait 50 }
vtest::shot $::env(SHOTS)/hosts_coord-2-spawned-on-h2.png
puts $out "status $spawn::S(status)"
puts $out "via $view::V(live_via) lines $view::V(sock_lines)"
puts $out "msg [string map {"\n" " | "} [.spawn.msg get 1.0 end-1c]]"
# its replay, the launcher on h3, the coordinator on h2
set spawn::S(mode) replay
set spawn::S(where) default
set spawn::S(whereval) ""
set spawn::S(pghost) h3
set spawn::S(coordhost) h2
spawn::start
for {set i 0} {$i < 600 && $spawn::S(fd) ne ""} {incr i} { vtest::wait 100 }
puts $out "rstatus $spawn::S(status)"
puts $out "rmsg [string map {"\n" " | "} [.spawn.msg get 1.0 end-1c]]"
# and the recording displayed
set spawn::S(mode) display
spawn::start
puts $out "dstatus $spawn::S(status) [file tail $view::V(db)]"
close $out
file rename $::env(S)/dlg.tmp $::env(S)/dlg.result
exit 0
EOF
	export S SHOTS B
	$HOSTS run h1 timeout 120 "$B/bin/pangaea-view" -script "$S/dlg.tcl" >vout 2>verr
	expect_eq "dialog: the viewer exits 0" "$?" 0
	expect_grep "dialog: lists the three hosts, this one h1" dlg.result \
		"^hosts h1 h2 h3 this h1$"
	expect_grep "dialog: three lines in its hosts list" dlg.result "^listed 3$"
	expect_grep "dialog: a Pangaea host not in the machine is refused" dlg.result \
		"^nohost error: Pangaea host h9 is not in the virtual machine \(its hosts: h1 h2 h3\)$"
	expect_grep "dialog: the run ended well" dlg.result "^status exited 0$"
	expect_grep "dialog: the launcher ran on h2" dlg/run.info "^launcher-host h2$"
	expect_grep "dialog: Where Host h2 reached pvm_spawn" dlg/task-0.exec \
		"^spawn 1 file=\".*/sor\" flags=1 where=\"h2\" "
	expect_grep "dialog: task 1 ran on h2" dlg/run.info "^task 1 .*host=h2 "
	expect_grep "dialog: the coordinator ran on h3" dlg.result \
		"pangaea: the coordinator runs on h3 "
	expect_grep "dialog: the live view's relay on h1" dlg.result \
		"pangaea: the live view's relay runs on h1 "
	$TRACE import dlg >/dev/null
	expect_grep "dialog: its view got every event of the run through the relay" \
		dlg.result "^via done lines $(sqlite3 dlg/trace.db 'SELECT count(*) FROM events')$"
	expect_grep "dialog: its replay, the launcher on h3, ended well" dlg.result \
		"^rstatus exited 0$"
	expect_grep "dialog: the replay reproduced the recording" dlg.result \
		"^rmsg .*pangaea: replay reproduced all [0-9]+ events of 4 tasks"
	expect_grep "dialog: the replay's launcher ran on h3" dlg.replay-1/run.info \
		"^launcher-host h3$"
	expect_grep "dialog: Display shows the recording" dlg.result "^dstatus displayed trace.db$"
	[ -s "$SHOTS/hosts_coord-1-spawn-hosts.png" ] &&
		pass "dialog: screenshot of the hosts list" ||
		fail "dialog: no screenshot of the hosts list"
	expect_eq "dialog: nothing of the runs left (launchers, relay, coordinators)" \
		"$(run_left h1)$(run_left h2)$(run_left h3)" ""
	kill "$XPID" 2>/dev/null
fi

# 6. the coordinator's host lost in mid-run (its pvmd killed): the run
# ends within seconds, naming the host and the coordinator
pg -log -logdir lost -coord h2 "$B/examples/sor" 6 400 100000 </dev/null &
PG=$!
for _ in $(seq 200); do
	[ "$(ls lost/task-*.comm 2>/dev/null | wc -l)" -ge 6 ] && break
	sleep 0.1
done
[ -n "$(coord_pids h2)" ] && pass "lost: the coordinator runs on h2" ||
	fail "lost: no coordinator on h2"
sleep 1
t1=$(date +%s%N)
kill_pvmd h2
wait $PG
t=$(( ($(date +%s%N) - t1) / 1000000 ))
expect_eq "lost: exit 2" "$(cat rc)" 2
expect_grep "lost: names the host and the coordinator" err \
	"^pangaea: error: lost host h2: silent for [0-9]+ s \(its pvmd or its network is gone\); .*the coordinator went with it: stopping the run$"
[ "$t" -le 15000 ] && pass "lost: the run ended ${t} ms after the pvmd's death" ||
	fail "lost: the run took ${t} ms to end after the pvmd's death"
for _ in $(seq 100); do
	left=$(for p in $(ip netns pids "$($HOSTS netns h1)" 2>/dev/null); do
		tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null |
			grep -q "examples/sor\|pangaea-coord" && echo "$p"; done)
	[ -z "$left" ] && break
	sleep 0.1
done
[ -z "$left" ] && pass "lost: nothing of the run left on the launcher's host" ||
	fail "lost: left on h1: $(describe_pids $left)"

$HOSTS run h1 sh -c 'echo halt | timeout 10 pvm' >/dev/null 2>&1
cd "$T" || exit 1
$HOSTS down
[ -e "$HD" ] && fail "down: $HD is left" || pass "down: $HD removed"
expect_no_leftovers
finish
