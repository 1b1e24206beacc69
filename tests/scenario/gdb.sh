# pangaea -replay -debug LTID[:EVENT] -debug-batch FILE: task LTID of a
# replay runs under gdb, stopped before its EVENT-th recorded event (its
# first without EVENT) with the program's frame (the caller of the PVM
# call) selected.  A gdb script prints the master's variables at the
# crash of a recorded `racy -crash` (its SIGSEGV): the same values in two
# replays, and the replay still ends in the crash.  While gdb holds the
# master blocked in its receive (4 s), the run is not called deadlocked.
# Event numbers: event 1 is the master's pvm_spawn, event 4 its first
# pvm_recv.  An event never reached is said, one past the recording and
# a task it does not have are refused, and so is -debug without -replay.
# Also: an unmodified program (LD_PRELOAD), gdb on a pty (^C is gdb's),
# a gdb that cannot attach, and the viewer's two ways in (Xvfb).  The
# replays held in gdb verify identical to their recordings.  No gdb, task
# or start script is left behind.
. "$(dirname "$0")/../lib.sh"
R=$B/examples/racy

if ! command -v gdb >/dev/null; then
	skip "every check" "gdb is not installed (scripts/install-deps.sh)"
	finish
	exit
fi

crash=
for try in $(seq 1 60); do
	pg -log -logdir "try$try" "$R" -w 2 -m 3 -crash
	if [ "$(cat rc)" = 2 ]; then crash=try$try; break; fi
	rm -rf "try$try"
done
[ -n "$crash" ] && pass "crash recorded on $crash" || { fail "no crash in 60 runs"; finish; exit; }

# at the crash: hold the master in its first receive (blocked) for 4 s,
# then let it crash and print what it got
cat >crash.gdb <<'EOF'
break pg_replay_take_message
continue
shell sleep 4
delete
continue
frame function master
print p->workers
print k
print w
print s
EOF
# (an ASan build keeps w and s where this gdb cannot see them at the
# crash: "<optimized out>"; p->workers and k it sees in both builds)
asan=; nm "$R" 2>/dev/null | grep -q '__asan_' && asan=1
for j in 1 2; do
	start=$(date +%s)
	pg -replay -debug 1 -debug-batch crash.gdb -logdir "$crash" -out "dbg$j"
	took=$(( $(date +%s) - start ))
	expect_eq "replay $j under gdb: exit 2 (the crash)" "$(cat rc)" 2
	expect_grep "replay $j: stopped at its start, in the program's frame" err \
		"^#[0-9]+ .* in master \(.*\) at examples/racy/racy.c:[0-9]+$"
	expect_grep "replay $j: gdb sees the SIGSEGV" err "^Program received signal SIGSEGV"
	expect_grep "replay $j: p->workers printed" err '^\$1 = 2$'
	expect_grep "replay $j: k printed (the first receive)" err '^\$2 = 0$'
	if [ -n "$asan" ]; then
		skip_ok "replay $j: w and s printed" "an ASan build: gdb sees them <optimized out>"
	else
		expect_grep "replay $j: w printed (the last worker came first)" err '^\$3 = 2$'
		expect_grep "replay $j: s printed" err '^\$4 = 1$'
	fi
	expect_grep "replay $j: the launcher names the crash" err \
		"task 1 \(.*racy on .*\) was killed by signal 11"
	expect_grep "replay $j: gdb ended well" err "^pangaea: gdb has ended$"
	if grep -q "deadlock" err; then
		fail "replay $j: called deadlocked while in gdb"; sed 's/^/    | /' err
	else
		pass "replay $j: not called deadlocked while gdb held the task"
	fi
	[ "$took" -ge 4 ] && [ "$took" -lt 60 ] && pass "replay $j took $took s" ||
		fail "replay $j took $took s"
	expect_grep "replay $j: the program's output on stdout" out "^racy: recv worker=2 seq=1$"
	grep -q '^\$[0-9]' out && fail "replay $j: gdb's output on stdout" ||
		pass "replay $j: gdb's output on stderr only"
	grep '^\$' err >"vals$j"
done
cmp -s vals1 vals2 && pass "the same values in both replays" || fail "values differ"
$TRACE verify "$crash" dbg1 >v
expect_grep "the replay held in gdb has the recording's order" v "^identical"
ls dbg1/*.gdb dbg2/*.gdb 2>/dev/null && fail "gdb start script left" || pass "no start script left"

# at event N: the frame of the PVM call's caller, a variable of it
cat >ev.gdb <<'EOF'
print p->workers
print p->tag
EOF
pg -replay -debug 1:4 -debug-batch ev.gdb -logdir "$crash" -out ev4
expect_eq "event 4: exit 2" "$(cat rc)" 2
expect_grep "event 4: stopped before it" err "task 1 stopped before its event 4 \(pid [0-9]+\)"
expect_grep "event 4: in the caller of pvm_recv" err \
	"^#[0-9]+ .* in receive \(.*\) at examples/racy/racy.c:[0-9]+$"
expect_grep "event 4: the line of the call" err "return pvm_recv\(-1, p->tag\);"
expect_grep "event 4: p->workers" err '^\$1 = 2$'
expect_grep "event 4: p->tag" err '^\$2 = 1$'
pg -replay -debug 1:1 -debug-batch ev.gdb -logdir "$crash" -out ev1
expect_grep "event 1: at the pvm_spawn" err "int n = pvm_spawn\("

# event 5 is the recorded SIGSEGV: the crash comes first, no call
pg -replay -debug 1:5 -debug-batch ev.gdb -logdir "$crash" -out ev5
expect_eq "event 5: exit 2 (the crash)" "$(cat rc)" 2
expect_grep "event 5: never reached, said" err "task 1 never came to its event 5"
pg -replay -debug 1:6 -debug-batch ev.gdb -logdir "$crash" -out ev6
expect_eq "event 6: refused" "$(cat rc)" 1
expect_grep "event 6: past the recording, said" err "task 1's recording has 5 event\(s\)"
pg -replay -debug 7 -logdir "$crash" -out ev7
expect_eq "task 7: refused" "$(cat rc)" 1
expect_grep "task 7: said" err "the recording has no task 7"

# an unmodified, stripped program (LD_PRELOAD): the frame above the
# wrapper of its pvm_mcast (event 3), though gdb knows no name for it
# (the entry point is at its line of pangaea_lib/pangaea-pvm-calls.def)
if [ -x /usr/bin/master1 ]; then
	pg -log -logdir pre /usr/bin/master1 </dev/null
	expect_eq "master1 recorded" "$(cat rc)" 0
	printf 'frame\nbt\n' >pre.gdb
	pg -replay -debug 1:3 -debug-batch pre.gdb -logdir pre -out pre.r </dev/null
	expect_eq "master1 under gdb: exit 0" "$(cat rc)" 0
	sel=$(grep -m1 -oE '^#[0-9]+ ' err | tr -d '# ')
	wrap=$(grep -m1 -E '^#[0-9]+ .* in pvm_mcast \(.*\) at pangaea_lib/pangaea-pvm-calls.def' err |
	       grep -oE '^#[0-9]+' | tr -d '#')
	expect_eq "master1: the frame selected is the caller of pvm_mcast" \
		"$sel" "$(( ${wrap:-98} + 1 ))"
else
	skip "an unmodified program under gdb" "no /usr/bin/master1 (pvm-examples)"
fi

# gdb in a terminal (a pty from script(1)): ^C at its prompt is gdb's
# alone (its own process group in the foreground), not the master's, the
# other worker's or the pvmd's, which share the launcher's group; the
# worker held in gdb, continued, ends and the replay is reproduced
pg -log -logdir clean "$R" -w 2 -m 3
expect_eq "a clean run recorded" "$(cat rc)" 0
# gdb in a terminal (a pty from script(1)), driven by what it prints
if command -v script >/dev/null; then
	# pty_debug REC LTID:EVENT: replays REC with -debug LTID:EVENT on a
	# pty into pty.out; at gdb's prompt types ^C, then continue, and quit
	# once the task has exited; the exit status in pty.rc
	pty_debug() {
		: >pty.out
		{
			for _ in $(seq 300); do grep -q "(gdb)" pty.out && break; sleep 0.1; done
			printf '\003'
			sleep 0.5
			printf 'continue\n'
			for _ in $(seq 200); do grep -q "exited normally" pty.out && break; sleep 0.1; done
			printf 'quit\n'
		} | timeout 60 script -qfec "$PANGAEA -replay -debug $2 -logdir $1 -out $1.pty" \
			/dev/null >pty.out 2>&1
		echo $? >pty.rc
	}
	# ^C at gdb's prompt is gdb's alone (its own process group in the
	# foreground), not the master's, the other worker's or the pvmd's,
	# which share the launcher's group
	# (LeakSanitizer cannot work under ptrace: in an ASan build, the
	# worker gdb held would end with its fatal error instead of exit 0)
	[ -n "$asan" ] && export ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}
	pty_debug clean 1001:1
	expect_eq "pty: the replay exits 0" "$(cat pty.rc)" 0
	expect_grep "pty: gdb had the worker" pty.out "task 1001 stopped before its event 1"
	expect_grep "pty: the worker ended under gdb" pty.out "exited normally"
	expect_grep "pty: reproduced" pty.out "replay reproduced all [0-9]+ events of 3 tasks"
	$TRACE verify clean clean.pty >v
	expect_grep "pty: the order is the recording's" v "^identical"
	grep -q "signal 2\|Interrupt" pty.out && fail "pty: ^C reached the run" ||
		pass "pty: ^C was gdb's alone"
	# task 1 gets its recorded input while gdb has the terminal (the
	# worker in gdb waits for the lines task 1 reads and sends; the input
	# fits the socket's buffer, so this does not tell whether the relay
	# went on during the session)
	printf 'abc\ndef\n' | timeout 60 "$PANGAEA" -log -logdir echo "$B/tests/stdinecho" >out 2>&1
	expect_eq "stdinecho recorded" "$?" 0
	pty_debug echo 1001:1
	expect_eq "pty, stdin: the replay exits 0" "$(cat pty.rc)" 0
	expect_grep "pty, stdin: the worker ended under gdb" pty.out "exited normally"
	expect_grep "pty, stdin: task 1 read the recorded input" pty.out "line 2: DEF"
else
	skip "gdb in a terminal" "no script(1)"
fi

# a gdb that cannot attach (a stand-in first on PATH that fails): the
# launcher lets the task go on, and the replay ends as recorded
mkdir fakebin
printf '#!/bin/sh\necho "fake gdb: cannot attach" >&2\nexit 1\n' >fakebin/gdb
chmod +x fakebin/gdb
PATH=$T/fakebin:$PATH pg -replay -debug 1:4 -debug-batch ev.gdb -logdir clean -out nogdb
expect_eq "no gdb: the replay goes on, exit 0" "$(cat rc)" 0
expect_grep "no gdb: said" err "^pangaea: gdb has ended \(exit status 1\)$"
expect_grep "no gdb: reproduced" err "replay reproduced all [0-9]+ events"

pg -log -debug 1 -logdir nolog "$R"
expect_eq "-debug with -log: refused" "$(cat rc)" 1
expect_grep "-debug with -log: said" err "-debug is for -replay"
pg -replay -debug 1:x -logdir "$crash"
expect_eq "-debug 1:x: refused" "$(cat rc)" 1

# the viewer: the event menu's "Replay to here in gdb" on the master's
# first receive, and the spawn dialog's PvmTaskDebug in Replay mode,
# each start the launcher with -debug in a terminal: here a stand-in
# ($PANGAEA_TERMINAL) that notes the command and runs it with gdb's
# commands on its standard input
if command -v Xvfb >/dev/null; then
	view_test gdb
	cat >term.sh <<EOF
#!/bin/bash
printf '%s\n' "\$*" >"$T/term.args"
"\$@" <"$T/term.in" >"$T/term.out" 2>&1
echo \$? >"$T/term.rc"
EOF
	chmod +x term.sh
	export PANGAEA_TERMINAL=$T/term.sh REC=$T/$crash
	# term_run WHAT SCRIPT: the viewer runs SCRIPT; waits for the terminal's run
	term_run() {
		rm -f term.rc term.args
		view -script "$2" "$REC"
		expect_eq "$1: the viewer exits 0" "$(cat vrc)" 0
		for _ in $(seq 300); do [ -e term.rc ] && break; sleep 0.1; done
		expect_eq "$1: the replay in the terminal ends in the crash" "$(cat term.rc 2>/dev/null)" 2
	}
	cat >menu.tcl <<'EOF'
set out [open result w]
vtest::wait 100
foreach {id ltid kind t0 t1 peer tag msgid len matched} [pgdb events $view::V(tmin) $view::V(tmax)] {
	if {$ltid == 1 && $kind eq "recv"} break
}
view::select e $id
puts $out "seq [dict get [pgdb event $id] seq]"
.mb.e invoke [.mb.e index "Replay to here in gdb"]
close $out
exit 0
EOF
	printf 'print p->workers\ncontinue\nquit\n' >term.in
	term_run "event menu" menu.tcl
	expect_eq "event menu: the master's first receive is its event 4" "$(cat result)" "seq 4"
	expect_grep "event menu: the command" term.args "/pangaea -replay -debug 1:4 -logdir $REC\$"
	expect_grep "event menu: gdb in the caller of pvm_recv" term.out "^#[0-9]+ .* in receive \("
	expect_grep "event menu: the variable" term.out '\$1 = 2$'

	cat >dialog.tcl <<'EOF'
vtest::wait 100
spawn::dialog
spawn::toggle
set spawn::S(mode) replay
set spawn::S(logdir) $::env(REC)
set spawn::S(PvmTaskDebug) 1
update
spawn::start
exit 0
EOF
	printf 'continue\n' >term.in
	term_run "spawn dialog" dialog.tcl
	expect_grep "spawn dialog: the command" term.args "/pangaea -replay -debug 1 -logdir $REC\$"
	expect_grep "spawn dialog: gdb at the start, in master" term.out "^#[0-9]+ .* in master \("
	expect_grep "spawn dialog: gdb sees the crash" term.out "received signal SIGSEGV"
else
	skip "the viewer's gdb entries" "no Xvfb"
fi

expect_no_leftovers
finish
