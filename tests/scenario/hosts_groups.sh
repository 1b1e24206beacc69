# The paper's claims about hosts (docs/PAPER.md), on three hosts
# (scripts/hosts.sh).  A group program (examples/groups): the launcher
# places the master with PvmTaskArch (-arch) or PvmTaskHost (-host), the
# master spawns five members with PvmTaskDefault, which PVM deals out over
# h1, h2 and h3; the six join group "ring" in a race (instance numbers
# follow the order the joins reach the group server), look each other up
# with pvm_gettid across hosts, go round a ring by instance, meet at
# barriers, broadcast and multicast.  Every replay (two plain, one with
# random delays, one of a chaos recording) starts each task on its
# recorded host, hands out the recorded instance -> ltid answers and
# prints the same; so does a replay whose joins are made to come in the
# reverse order of its recording's (the group server's instances
# reversed, the program's as recorded).  Also: the coordinator runs on
# the launcher's host unless -coord says otherwise; PvmHostCompl; the
# paper's sor example run from h3; three programs of one command line
# over the hosts; a PvmTaskDebug master started under the debugger script
# of its own host, on record and replay; direct task-to-task routes
# between hosts; the traces and the viewer's task labels name every
# task's host (Xvfb).
. "$(dirname "$0")/../lib.sh"
G=$B/examples/groups
N=6

if ! hosts_up 3; then
	finish
	exit
fi
# PVM's debugger script for PvmTaskDebug (section 5), in the folder every
# host sees; pvm-rsh passes the environment on to the pvmds of h2 and h3
export PVM_DEBUGGER=$HD/shared/$VMID/debugger
hosts_vm h2 h3
expect_eq "vm: three hosts" "$(grep -c LINUX64 conf)" 3

# hosts_of DIR: "LTID HOST" of every task of the run in DIR (its dump)
hosts_of() { $TRACE dump "$1" | awk '/^task / { print $2, $4 }' | sort -n; }
# slots DIR: the "LTID@HOST" slots of every exec log of DIR, sorted
slots() { cat "$1"/task-*.exec | grep -o '[0-9]\+@[^] ]\+' | sort -n; }
# answers DIR: every task's group answers (instance -> ltid and the
# others) in its own order, without times
answers() { $TRACE dump "$1" | sed -n 's/^task \([0-9]*\) .*/task \1/p;
	s/^ *#[0-9]* \(group [^ ]* [^=]*= [-0-9]*\) .*/\1/p'; }

# coords: "HOST:PID" of each of this test's coordinators (pangaea-coord,
# not a beacon) now running
coords() {
	local h p
	for h in h1 h2 h3; do
		for p in $(ip netns pids "$($HOSTS netns $h)" 2>/dev/null); do
			[ "$(cat /proc/$p/comm 2>/dev/null)" = pangaea-coord ] &&
				env_has "$p" "PVM_VMID=$VMID" &&
				! tr '\0' ' ' <"/proc/$p/cmdline" | grep -q -- -beacon &&
				echo "$h:$p"
		done
	done
}
# coord_host BEFORE: the host of the first coordinator seen that is not
# in BEFORE (coords before the run started: one of the last run may still
# be on its way out), polled for up to 10 s; "none" if none
coord_host() {
	local c
	for _ in $(seq 100); do
		for c in $(coords); do
			[[ " $1 " == *" $c "* ]] || { echo "${c%%:*}"; return; }
		done
		sleep 0.1
	done
	echo none
}

# ---- 0. the coordinator goes where the launcher is unless -coord says
# otherwise (paper §5.2); the virtual machine's first default spawn from
# h1 would go to h2
before=$(coords)
pg -log -logdir first "$B/examples/waiter" 1000 </dev/null &
expect_eq "coordinator: on the launcher's host h1 by default" "$(coord_host "$before")" h1
wait
expect_eq "coordinator: the run exits 0" "$(cat rc)" 0

# ---- 1. record: the master by architecture, its members by PVM's default
pg -log -logdir rec -arch LINUX64 "$G" $N 2 </dev/null
expect_eq "record: exit 0" "$(cat rc)" 0
expect_grep "record: the group program ran to its end" out '^groups: done$'
cp out rec.out
expect_grep "record: the master spawned with PvmTaskArch (flags=2) on LINUX64" \
	rec/task-0.exec '^spawn 1 file="[^"]*/groups" flags=2 where="LINUX64" ntask=1 started=1 .* tasks=\[1@h[123]\]$'
expect_grep "record: the members spawned with PvmTaskDefault, five started" \
	rec/task-1.exec '^spawn 1 file="[^"]*/groups" flags=0 where="" ntask=5 started=5 '
expect_eq "record: tasks on every host (exec logs)" \
	"$(slots rec | sed 's/.*@//' | sort -u | tr '\n' ' ')" "h1 h2 h3 "
hosts_of rec >rec.hosts
expect_eq "record: the dump names each task's host as the exec logs do" \
	"$(tr ' ' '@' <rec.hosts)" "$(slots rec)"
host() { awk -v l="$1" '$1 == l { print $2 }' rec.hosts; }

# the group calls crossed hosts: pvm_gettid answered with members on
# other hosts, a broadcast and a multicast reached every host, every
# member met the barriers
$TRACE dump rec >rec.dump
awk 'NR == FNR { h[$1] = $2; next }
	/^task / { me = $2 }
	/ group gettid\("ring", [0-9]+\) = / { n++; if (h[$(NF - 1)] != h[me]) x++ }
	END { print x + 0, n + 0 }' rec.hosts rec.dump >gettid.cross
read -r cross all <gettid.cross
[ "$cross" -gt 0 ] && pass "record: $cross of $all pvm_gettid answers are members on another host" ||
	fail "record: no pvm_gettid answered a member on another host ($all answers)"
bc_from=$(awk '/^task / { me = $2 } / bcast group="ring" / { print me }' rec.dump)
bc_to=$(sed -n 's/.* bcast group="ring" to=\[\([0-9 ]*\)\] .*/\1/p' rec.dump)
expect_eq "record: the broadcast went to the five other members" \
	"$(echo $bc_to $bc_from | tr ' ' '\n' | sort -n | tr '\n' ' ')" "1 1001 1002 1003 1004 1005 "
expect_eq "record: the broadcaster and its receivers are on all three hosts" \
	"$(for l in $bc_from $bc_to; do host "$l"; done | sort -u | tr '\n' ' ')" "h1 h2 h3 "
expect_eq "record: the five received the broadcast" \
	"$(grep -c 'recv from=[0-9]* msg=[0-9]* tag=22 ' rec.dump)" 5
expect_grep "record: the multicast names its five receivers" rec.dump \
	' mcast to=\[1001 1002 1003 1004 1005\] tag=24 '
expect_eq "record: the five received the multicast" \
	"$(grep -c 'recv from=1 msg=[0-9]* tag=24 ' rec.dump)" 5
expect_eq "record: every member passed both barriers" \
	"$(grep -c 'group barrier("ring", 6) = 0 ' rec.dump)" $((2 * N))
# the instances come from the join race: whatever order the recording
# got, the ring and the gather follow it
joins=$(awk '/^task / { me = $2 } / group joingroup\("ring", 0\) = / { print $(NF - 1), me }' \
	rec.dump | sort -n | awk '{ printf "%s ", $2 }')
echo "   info: instances 0..5 went to ltids $joins(the join race's outcome)"
ring=$(for l in $joins; do [ "$l" = 1 ] && echo 0 || echo $((l - 1000)); done | tr '\n' ' ')
expect_eq "record: the ring went by instance (the race's order)" \
	"$(sed -n 's/^groups: gathered //p' out) " "$ring"

# ---- 2. replays: every task on its recorded host, the same answers
answers rec >rec.answers
ok=0
for j in 1 2 3; do
	d=
	[ "$j" = 3 ] && d="-delay 3000"
	pg -replay -logdir rec -out rec.r$j $d </dev/null
	why=
	[ "$(cat rc)" = 0 ] || why="exit $(cat rc)"
	cmp -s out rec.out || why="$why; output differs"
	$TRACE verify rec rec.r$j >verify.out 2>&1 || why="$why; verify: $(tail -1 verify.out)"
	[ "$(slots rec.r$j)" = "$(slots rec)" ] || why="$why; other hosts: $(slots rec.r$j | tr '\n' ' ')"
	answers rec.r$j | cmp -s - rec.answers || why="$why; other group answers"
	[ -z "$why" ] && ok=$((ok + 1)) ||
		{ echo "   replay $j ($d): $why"; head -3 err; }
done
expect_eq "replay: 3 of 3 (one with -delay 3000) on the recorded hosts, same instance -> ltid answers, same output, verify identical" "$ok" 3
expect_grep "replay: the master again spawned with PvmTaskArch" rec.r3/task-0.exec \
	"^spawn 1 file=\"[^\"]*/groups\" flags=2 where=\"LINUX64\" ntask=1 started=1 .* tasks=\\[1@$(host 1)\\]$"
expect_eq "replay: the dump names the recorded hosts" "$(hosts_of rec.r3)" "$(cat rec.hosts)"

# ---- 2b. a replay whose joins come in the opposite order (paper §6.2:
# "the PVM task id returned by pvm_gettid may actually belong to a
# different instance id for the current execution, but will now be the
# same logical task"): examples/groups joins in the order its environment
# says (fwd: worker 0, the master, first; rev: worker 5 first; 250 ms
# apart), and writes the group server's own instances into the file
# GROUPS_SERVER (in the folder every host sees)
export GROUPS_JOIN_STEP_MS=250 GROUPS_SERVER=$S/order.server
GX=GROUPS_JOIN_ORDER:GROUPS_JOIN_STEP_MS:GROUPS_SERVER
# server: the server's instances, "W=R ..."
server() { sed -n 's/^server: worker \([0-9]*\) is instance \([0-9]*\)$/\1=\2/p' "$GROUPS_SERVER" | tr '\n' ' '; }
GROUPS_JOIN_ORDER=fwd PVM_EXPORT=$GX pg -log -logdir order "$G" $N 1 </dev/null
expect_eq "joins in order: recording exits 0" "$(cat rc)" 0
cp out order.out
expect_eq "joins in order: the group server gave worker W instance W" "$(server)" \
	"0=0 1=1 2=2 3=3 4=4 5=5 "
expect_eq "joins in order: the ring and the gather went 0 to 5" \
	"$(grep -E '^groups: (token|gathered) ' out | tr '\n' '/')" "groups: token 0 1 2 3 4 5/groups: gathered 0 1 2 3 4 5/"
expect_eq "joins in order: tasks on every host" \
	"$(slots order | sed 's/.*@//' | sort -u | tr '\n' ' ')" "h1 h2 h3 "
rm -f "$GROUPS_SERVER"
GROUPS_JOIN_ORDER=rev PVM_EXPORT=$GX pg -replay -logdir order -out order.r1 </dev/null
expect_eq "joins reversed on replay: the group server gave worker W instance 5-W" "$(server)" \
	"0=5 1=4 2=3 3=2 4=1 5=0 "
expect_eq "joins reversed on replay: exit 0, the same output, verify identical" \
	"$(cat rc) $(cmp -s out order.out && echo same) $($TRACE verify order order.r1 >/dev/null 2>&1 && echo verified)" \
	"0 same verified"
expect_eq "joins reversed on replay: pvm_gettid answered the recorded ltids" \
	"$(answers order.r1)" "$(answers order)"
unset GROUPS_JOIN_STEP_MS GROUPS_SERVER

# ---- 3. a chaos recording, its master on a named host (PvmTaskHost)
pg -log -chaos -logdir chaos -host h2 "$G" $N 2 </dev/null
expect_eq "chaos record -host h2: exit 0" "$(cat rc)" 0
cp out chaos.out
expect_grep "chaos record: the master spawned with PvmTaskHost (flags=1) on h2" \
	chaos/task-0.exec '^spawn 1 file="[^"]*/groups" flags=1 where="h2" ntask=1 started=1 .* tasks=\[1@h2\]$'
cj=$($TRACE dump chaos | awk '/^task / { me = $2 } / group joingroup\("ring", 0\) = / { print $(NF - 1), me }' |
	sort -n | awk '{ printf "%s ", $2 }')
echo "   info: chaos recording: instances 0..5 went to ltids $cj"
pg -replay -logdir chaos -out chaos.r1 -delay 3000 </dev/null
expect_eq "chaos replay with -delay 3000: exit 0, same output, verify identical, same hosts and group answers" \
	"$(cat rc) $(cmp -s out chaos.out && echo same) $($TRACE verify chaos chaos.r1 >/dev/null 2>&1 && echo verified) \
$([ "$(slots chaos.r1)" = "$(slots chaos)" ] && echo hosts) $(answers chaos.r1 | cmp -s - <(answers chaos) && echo answers)" \
	"0 same verified hosts answers"

# PvmHostCompl (the spawn dialog's flag in the paper's Figure 2): any
# host but the one named; the replay puts the master on the same one
pg -log -logdir compl -host h1 -flags hostcompl "$G" 3 1 </dev/null
expect_eq "PvmHostCompl: recording exits 0" "$(cat rc)" 0
cp out compl.out
expect_grep "PvmHostCompl: recorded with flags=33 (PvmTaskHost + PvmHostCompl), the master not on h1" \
	compl/task-0.exec '^spawn 1 .* flags=33 where="h1" .* tasks=\[1@h[23]\]$'
pg -replay -logdir compl -out compl.r1 </dev/null
expect_eq "PvmHostCompl: the replay exits 0 with the same output, the master on its recorded host" \
	"$(cat rc) $(cmp -s out compl.out && echo same) $([ "$(slots compl.r1)" = "$(slots compl)" ] && echo hosts)" \
	"0 same hosts"

# ---- 4. the paper's example (§4): sor, four tasks, problem size 100,
# the launcher on the host the user chose (h3), the coordinator beside it
printf '#!/bin/sh\nexec bash %s run h3 %s "$@"\n' "$TOP/scripts/hosts.sh" \
	"$B/bin/pangaea" >pangaea-h3
chmod +x pangaea-h3
PANGAEA=$S/pangaea-h3
before=$(coords)
pg -log -logdir sor "$B/examples/sor" 4 100 1000 </dev/null &
expect_eq "sor: the coordinator on the launcher's host h3" "$(coord_host "$before")" h3
wait
expect_eq "sor from h3: exit 0" "$(cat rc)" 0
cp out sor.out
expect_grep "sor: run.info names the launcher's host" sor/run.info '^launcher-host h3$'
expect_eq "sor: its four tasks on more than one host" \
	"$(slots sor | sed 's/.*@//' | sort -u | wc -l | awk '{ print ($1 > 1) }')" 1
pg -replay -logdir sor -out sor.r1 </dev/null
expect_eq "sor replay from h3: exit 0, same output, verify identical, the recorded hosts" \
	"$(cat rc) $(cmp -s out sor.out && echo same) $($TRACE verify sor sor.r1 >/dev/null 2>&1 && echo verified) \
$([ "$(slots sor.r1)" = "$(slots sor)" ] && echo hosts)" "0 same verified hosts"

# ---- 4b. components once started from separate shells (§3: "a few
# coarse-grained components targeted to different machines"; §5.1):
# three programs of one command line (`:`, -staged), placed by PVM over
# the hosts, replayed on theirs
pg -log -logdir parts -staged "$B/examples/staged" server s : "$B/examples/staged" client s : \
	"$B/examples/staged" end s </dev/null
expect_eq "components: recording exits 0" "$(cat rc)" 0
cp out parts.out
expect_eq "components: the three programs on more than one host" \
	"$(slots parts | sed 's/.*@//' | sort -u | wc -l | awk '{ print ($1 > 1) }')" 1
pg -replay -logdir parts -out parts.r1 </dev/null
expect_eq "components: replay exits 0, same output, verify identical, the recorded hosts" \
	"$(cat rc) $(cmp -s <(sort out) <(sort parts.out) && echo same) $($TRACE verify parts parts.r1 >/dev/null 2>&1 && echo verified) \
$([ "$(slots parts.r1)" = "$(slots parts)" ] && echo hosts)" "0 same verified hosts"

# ---- 5. a local debugger at the task's own site (§4: PvmTaskDebug): the
# pvmd of h2 starts the master under PVM's debugger script there
# (PVM_DEBUGGER, passed on to every pvmd), on record and again on replay
PANGAEA=$S/pangaea-h1
printf '#!/bin/sh\necho "$(hostname) $*" >>%s/dbg.log\nexec "$@"\n' "$S" >"$PVM_DEBUGGER"
chmod +x "$PVM_DEBUGGER"
pg -log -logdir dbg -host h2 -flags debug "$G" 3 1 </dev/null
expect_eq "PvmTaskDebug: recording exits 0" "$(cat rc)" 0
cp out dbg.out
expect_grep "PvmTaskDebug: recorded with flags=5 (PvmTaskHost + PvmTaskDebug)" dbg/task-0.exec \
	'^spawn 1 .* flags=5 where="h2" .* tasks=\[1@h2\]$'
pg -replay -logdir dbg -out dbg.r1 </dev/null
expect_eq "PvmTaskDebug: the replay exits 0 with the same output" \
	"$(cat rc) $(cmp -s out dbg.out && echo same)" "0 same"
expect_eq "PvmTaskDebug: the debugger script ran on h2 for the master, twice" \
	"$(sort -u dbg.log | sed "s|$G|G|") $(wc -l <dbg.log)" "h2 G 3 1 2"

# ---- 6. the network between the hosts both ways PVM routes: through the
# pvmds (UDP between hosts) and over direct task-to-task routes
# (PvmRouteDirect, TCP), multicasts included (examples/mcaster -direct)
pg -log -logdir direct "$B/examples/mcaster" -direct 3 </dev/null
expect_eq "direct routes: recording exits 0" "$(cat rc)" 0
# (its lines, not libpvm's, which name this run's tids)
grep '^mcaster:' out >direct.out
expect_eq "direct routes: master and workers on more than one host" \
	"$(slots direct | sed 's/.*@//' | sort -u | wc -l | awk '{ print ($1 > 1) }')" 1
expect_grep "direct routes: worker A got its multicasts" out '^mcaster: A got [1-9]'
pg -replay -logdir direct -out direct.r1 -delay 3000 </dev/null
expect_eq "direct routes: replay with -delay 3000: exit 0, same output, verify identical" \
	"$(cat rc) $(grep '^mcaster:' out | cmp -s - direct.out && echo same) $($TRACE verify direct direct.r1 >/dev/null 2>&1 && echo verified)" \
	"0 same verified"

# ---- 7. the event graph names each task's host (paper §4: "task
# identification includes the host name, task name, and its ltid")
if ! command -v Xvfb >/dev/null; then
	fail "no Xvfb: the viewer's labels are not checked (scripts/install-deps.sh)"
else
	view_test hosts_groups
	export SHOTS
	# (x_display replaced hosts_up's trap: halt the VM and remove the hosts too)
	trap 'kill $XPID 2>/dev/null; halt_all' EXIT
	cat >labels.tcl <<'EOF'
wm geometry . 1000x880
vtest::wait 300
set f [open labels.out w]
foreach t [pgdb tasks] { puts $f "pgdb [dict get $t ltid] [dict get $t host]" }
foreach i [.g.c find withtag label] {
	set row [lsearch -inline [.g.c gettags $i] row:*]
	puts $f "label [string range $row 4 end] [.g.c itemcget $i -text]"
}
close $f
vtest::shot $::env(SHOTS)/hosts_groups-1-labels.png
exit 0
EOF
	view -script labels.tcl rec
	expect_eq "viewer: exits 0" "$(cat vrc)" 0
	expect_eq "viewer: pgdb tasks gives each task's recorded host" \
		"$(awk '$1 == "pgdb" && $2 != 0 { print $2, $3 }' labels.out | sort -n)" "$(cat rec.hosts)"
	expect_eq "viewer: each task's label reads its host" \
		"$(awk '$1 == "label" && NF == 3 { print $2, $3 }' labels.out | sort -n)" "$(cat rec.hosts)"
	expect_eq "viewer: ... with its program and ltid" \
		"$(awk '$1 == "label" && NF > 3 { print $2, $3, $4, $5 }' labels.out | sort -n)" \
		"$(awk '{ printf "%s groups (ltid %s)\n", $1, $1 }' rec.hosts)"
fi

# ---- 8. nothing left
hosts_end
expect_no_leftovers
finish
