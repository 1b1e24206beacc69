# tests/lib.sh: helpers for the scenario tests (sourced by tests/scenario/*.sh).
#
# Each test runs with its own PVM_VMID, in its own temporary folder, and a
# trap halts any virtual machine of that VMID and kills any task it left,
# even when the test fails.  Assertions print "ok: ..." or "FAIL: ..." (and
# count); a check not run says "skip: ...".
#
# A test's processes are told apart from those of other tests and runs
# (on the same build folder too) by their environment: every process the
# test starts inherits PANGAEA_TEST_ID, and every process of its virtual
# machine has its PVM_VMID (a pvmd passes its environment on to the tasks
# it starts).  Nothing is killed by name.

set -u
B=${B:?build dir}
PANGAEA=$B/bin/pangaea
TRACE=$B/bin/pangaea-trace
export PVM_ROOT=/usr/lib/pvm3
export LSAN_OPTIONS="suppressions=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# In a sanitizer build the launcher preloads libpangaea.so into every
# program of a run, scripts and programs built with pangaea.h (and so with
# ASan) too: ASan then accepts not coming first, as libpangaea.so
# intercepts nothing of it (no effect without ASan).
export ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=1
# PVM's files (pvmd.UID.VMID, pvml.UID.VMID, pvmtmpPID.N) go to PVM_TMP:
# run-scenarios.sh gives each test a folder of its own, and counts what
# the test's processes left there
export PVM_TMP=${PVM_TMP:-/tmp}
export PVM_VMID="t-$(basename "$0" .sh)-$$"
VMID=$PVM_VMID
# (also where a test or a tool picks another PVM_VMID or none)
export PANGAEA_TEST_ID=$VMID
# The repository's top folder, absolute: the test runs in $T, where a
# path made from a relative $0 no longer leads anywhere
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
T=$(mktemp -d "/tmp/pangaea-test.XXXXXX")
FAILS=0
cd "$T" || exit 1
# SOAK: how many times over a test's soak parts run (more recordings and
# replays of a racy program, where an order that replays wrongly once in
# hundreds of runs would show): 1 in make check, 10 in make check-long
# (PANGAEA_TEST_LONG=1).
SOAK=1
[ "${PANGAEA_TEST_LONG:-}" = 1 ] && SOAK=10

# Halts the virtual machine of PVM_VMID (the console is SIGTERMed by it).
vm_halt() {
	( echo halt | PVM_VMID=${1:-$VMID} timeout 10 pvm >/dev/null 2>&1 ) 2>/dev/null
}

# Whether the environment of process PID holds one of the entries
# NAME=VALUE given after it (read with builtins only: a command run here
# would carry the test's environment itself).
env_has() {
	local pid=$1 kv e
	shift
	while IFS= read -r -d '' kv; do
		for e in "$@"; do [ "$kv" = "$e" ] && return 0; done
	done <"/proc/$pid/environ"
	return 1
} 2>/dev/null

# test_pids [-u UID] [-x PROGRAM]: the pids of this test's processes: those
# of UID (default: ours) whose environment names this test (PVM_VMID or
# PANGAEA_TEST_ID) or whose program lies in the test's folder $T; with -x,
# only those running PROGRAM (their argv[0]).  Never this shell itself;
# call it outside a pipeline, whose other commands are the test's too.
test_pids() {
	local uid pid arg0 prog=
	uid=$(id -u)
	while [ $# -gt 0 ]; do
		case $1 in
		-u) uid=$2; shift 2 ;;
		-x) prog=$2; shift 2 ;;
		*) echo "test_pids: bad argument $1" >&2; return 2 ;;
		esac
	done
	for pid in $(ps -u "$uid" -o pid=); do
		[ "$pid" = $$ ] || [ "$pid" = "$BASHPID" ] && continue
		arg0=
		{ IFS= read -r -d '' arg0 <"/proc/$pid/cmdline"; } 2>/dev/null
		[ -z "$arg0" ] && continue # gone, a zombie or a kernel thread
		[ -n "$prog" ] && [ "$arg0" != "$prog" ] && continue
		if [[ $arg0 == "$T"/* ]] ||
		   env_has "$pid" "PVM_VMID=$VMID" "PANGAEA_TEST_ID=$VMID"; then
			echo "$pid"
		fi
	done
}

# describe_pids PIDS...: "PID COMMAND LINE" of each (for failure messages).
describe_pids() {
	[ $# -gt 0 ] && ps -o pid=,args= -p "$(echo "$@" | tr ' ' ',')"
}

# Removes the log files of launcher-made private VMs (pvml.UID.pangaea-PID)
# whose launcher is gone; another run's live ones stay.
stale_pvml() {
	local f pid
	for f in $PVM_TMP/pvml.$(id -u).pangaea-*; do
		pid=${f##*pangaea-}
		[[ $pid =~ ^[0-9]+$ ]] && [ ! -e "/proc/$pid" ] && rm -f "$f"
	done
}

# Halts the test's VM and kills what the test's runs left behind.
cleanup() {
	local left
	[ -e "$PVM_TMP/pvmd.$(id -u).$VMID" ] && vm_halt "$VMID"
	left=$(test_pids)
	[ -n "$left" ] && kill -9 $left 2>/dev/null
	rm -f "$PVM_TMP/pvmd.$(id -u).$VMID" "$PVM_TMP/pvml.$(id -u).$VMID"
	stale_pvml
	cd / && rm -rf "$T"
}
trap cleanup EXIT

fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
pass() { echo "ok: $*"; }
# skip WHAT WHY: the check WHAT is not run here (counted by run-scenarios.sh)
# because a tool or a permission is missing.  In CI (CI=true), where
# scripts/install-deps.sh has installed every tool and the job runs as
# root, that is a failure: a test whose checks were all skipped would
# otherwise count as passed.
skip() {
	if [ "${CI:-}" = true ]; then
		fail "$1: skipped in CI ($2)"
	else
		echo "skip: $1 ($2)"
	fi
}
# skip_ok WHAT WHY: the check WHAT cannot run in this build or run at all,
# CI included; WHY is one of the reasons below (a new one is added here,
# not at the call).  Counted as skipped, never a failure.
SKIP_OK_REASONS=(
	"an ASan build: gdb sees them <optimized out>"
	"a sanitizer build: valgrind cannot run it"
	"message handlers are not recorded"
	"the recording's first arrival is worker 3 and it did not crash"
	"no clean run recorded"
)
skip_ok() {
	local r
	for r in "${SKIP_OK_REASONS[@]}"; do
		[ "$r" = "$2" ] && { echo "skip: $1 ($2)"; return; }
	done
	fail "$1: skip_ok with a reason not allowed: $2"
}

# expect_eq WHAT GOT WANT
expect_eq() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2', want '$3'"; fi; }

# expect_grep WHAT FILE PATTERN: FILE has a line matching PATTERN (ERE).
expect_grep() {
	if grep -Eq -- "$3" "$2"; then pass "$1"; else
		fail "$1: no line matching '$3' in $2:"; sed 's/^/    | /' "$2" | head -20; fi
}

# expect_no_leftovers: none of the test's processes (test_pids: its pvmds,
# tasks, launchers) still running, but for the helpers it keeps on purpose
# (their pids in HELPERS), after up to 5 s: a task that is exiting, e.g.
# in LeakSanitizer's end of run check, is not left behind.
HELPERS=
expect_no_leftovers() {
	local left i p
	for i in $(seq 50); do
		left=
		for p in $(test_pids); do
			[[ " $HELPERS " == *" $p "* ]] || left="$left $p"
		done
		[ -z "$left" ] && break
		sleep 0.1
	done
	if [ -z "$left" ]; then pass "nothing left running"
	else fail "left running:"; describe_pids $left | sed 's/^/    | /'; fi
	# the test's own virtual machine (other runs on this machine may have theirs)
	[ -e "$PVM_TMP/pvmd.$(id -u).$VMID" ] && fail "pvmd address file left: $PVM_TMP/pvmd.$(id -u).$VMID" || true
}

# pg ARGS...: runs the launcher with a time limit, output to out/err files.
pg() { timeout 120 "$PANGAEA" "$@" >out 2>err; echo $? >rc; }

# replays_identical REC N DELAY: replays the recording REC N times into
# REC.rJ with random delays of up to DELAY us; prints how many exited 0,
# printed exactly REC.out and were called identical by pangaea-trace
# verify (what went wrong with the others goes to stderr).
# (OUT_AS_SET=1: the output compared as a multiset of lines, for tasks
# that print concurrently: their lines' interleaving is not a message;
# WANT_RC=N: each replay exits N, default 0)
replays_identical() {
	local rec=$1 n=$2 delay=$3 ok=0 j
	for j in $(seq 1 "$n"); do
		pg -replay -logdir "$rec" -out "$rec.r$j" -delay "$delay"
		if [ "$(cat rc)" = "${WANT_RC:-0}" ] &&
		   if [ -n "${OUT_AS_SET:-}" ]; then
			cmp -s <(sort out) <(sort "$rec.out")
		   else cmp -s out "$rec.out"; fi &&
		   $TRACE verify "$rec" "$rec.r$j" >/dev/null; then
			ok=$((ok + 1))
		else
			# the seed repeats this replay's delays: say it first
			{ echo "   replay $j of $rec: exit $(cat rc)"
			  grep -m1 'random delays of up to' err ||
				echo "   (no delay seed in its stderr)"
			  diff "$rec.out" out | head -5
			  grep -v 'random delays of up to' err | head -5; } >&2
		fi
	done
	echo "$ok"
}

# trace_reads DIR OUT: what stats (text and csv), dump --merged and the
# Chrome and OTF2 exports print for the run DIR, appended to OUT (the
# export files under OUT.d, which must exist; OTF2's events as otf2-print
# reads them: its anchor file holds a creation stamp).
trace_reads() {
	{
		$TRACE stats "$1"
		$TRACE stats --csv "$1"
		$TRACE dump --merged "$1"
		$TRACE export --chrome "$2.d/chrome.json" "$1"
		$TRACE export --otf2 "$2.d/otf2" "$1"
		! command -v otf2-print >/dev/null ||
			otf2-print "$2.d/otf2/traces.otf2"
	} >>"$2" 2>&1
	rm -f "$2.d/otf2/traces.otf2"
}

# record_crash ARGS...: records `pangaea -log -logdir crashN ARGS`
# (N = 1..6) until a run exits 2 (a task crashed: a program whose crash
# needs one message order); prints that folder, its stderr copied to
# crash.err, or nothing after 6 runs without a crash.
record_crash() {
	local try
	for try in 1 2 3 4 5 6; do
		pg -log -logdir "crash$try" "$@"
		if [ "$(cat rc)" = 2 ]; then cp err crash.err; echo "crash$try"; return; fi
	done
}

# finish: the test's exit status.
finish() { [ "$FAILS" = 0 ]; }

# view_test NAME: for a test of the Tk viewer: VIEW (pangaea-view) and
# SHOTS (where its pictures go, $B/screenshots, NAME-*.png removed first),
# then x_display.
view_test() {
	VIEW=$B/bin/pangaea-view
	SHOTS=$B/screenshots
	mkdir -p "$SHOTS"
	rm -f "$SHOTS/$1"-*.png
	x_display
}

# view ARGS...: pangaea-view, output into vout/verr, status into vrc.
view() {
	timeout 120 "$VIEW" "$@" >vout 2>verr
	echo $? >vrc
}

# x_display: for a test of the Tk viewer: LeakSanitizer's suppressions for
# Tk's libraries (they keep what they allocate until exit, in ASan builds)
# and a private X server (Xvfb) on DISPLAY for the whole test, its pid in
# XPID (a helper, kept on purpose) and killed at exit.
x_display() {
	local sup=${LSAN_OPTIONS#suppressions=}
	{ cat "${sup%%:*}"; printf 'leak:%s\n' libtk8.6 libtcl8.6 \
		libfontconfig libX11 libXft libfreetype; } >"$T/lsan.supp"
	export LSAN_OPTIONS="suppressions=$T/lsan.supp:print_suppressions=0"
	xvfb_start 1600x900x24
	HELPERS="$HELPERS $XPID"
	trap 'kill $XPID 2>/dev/null; cleanup' EXIT
	export DISPLAY=":$XN"
}

# xvfb_start GEOMETRY: starts Xvfb on the first display from :140 that it
# gets (its lock file names it: two tests side by side may try the same
# one), its pid in XPID and display number in XN, and waits until it
# listens; returns 1 if none came up.
xvfb_start() {
	local n i
	for n in $(seq 140 199); do
		# (a lock whose server is gone, killed: the display is free)
		if [ -e /tmp/.X$n-lock ] &&
		   ! kill -0 "$(tr -d ' \n' </tmp/.X$n-lock 2>/dev/null)" 2>/dev/null; then
			rm -f /tmp/.X$n-lock /tmp/.X11-unix/X$n
		fi
		[ -e /tmp/.X$n-lock ] || [ -e /tmp/.X11-unix/X$n ] && continue
		Xvfb ":$n" -screen 0 "$1" -nolisten tcp >/dev/null 2>&1 &
		XPID=$! XN=$n
		for i in $(seq 100); do
			kill -0 "$XPID" 2>/dev/null || break
			[ -S /tmp/.X11-unix/X$n ] &&
				[ "$(tr -d ' \n' </tmp/.X$n-lock 2>/dev/null)" = "$XPID" ] &&
				return 0
			sleep 0.1
		done
		kill "$XPID" 2>/dev/null
		wait "$XPID" 2>/dev/null
	done
	return 1
}

# pvmex_build: builds the PVM distribution's examples, unmodified, once
# per build folder (scripts/pvm-examples.sh, into $B/pvmex) and sets PX to
# the folder of the programs.  Returns 1 after a "skip" line when
# pvm-examples is not installed, 2 after a FAIL when they do not build.
pvmex_build() {
	PX=$B/pvmex/bin
	"$TOP/scripts/pvm-examples.sh" "$B/pvmex" 2>pvmex-build.err
	case $? in
	0) return 0 ;;
	2) skip "the PVM examples" "pvm-examples is not installed"; return 1 ;;
	*) fail "the PVM examples do not build:"
	   sed 's/^/    | /' pvmex-build.err | head -20; return 2 ;;
	esac
}

# pvmex_case NAME WANT FILTER -- LAUNCHER-ARGS...: records a run
# (pangaea -log -logdir NAME LAUNCHER-ARGS, standard input from the file
# $PVMEX_IN, default /dev/null) and checks it exits 0 (STATUS_NOTE=1:
# and a note names a task, for the examples that exit 1 after pvm_exit) with an
# output line matching WANT (ERE: the program did its work); then
# replays it three times and once with -delay 2000, each expected to
# exit so with the
# recording's output lines (as a multiset: tasks print concurrently) and
# to be called identical by pangaea-trace verify.  FILTER, a sed -E
# script ('' for none), first masks what the program measures (times,
# rates), which no replay repeats.
pvmex_case() {
	local name=$1 want=$2 filter=${3:-} ok=0 j
	shift 4
	pg -log -logdir "$name" "$@" <"${PVMEX_IN:-/dev/null}"
	expect_eq "$name: recording exits ${WANT_RC:-0}" "$(cat rc)" "${WANT_RC:-0}"
	[ -n "${STATUS_NOTE:-}" ] && expect_grep "$name: a task's status after pvm_exit named" \
		err '^pangaea: note: task [0-9]+ \(.*\) left the run normally, then exited with status 1$'
	expect_grep "$name: the recording's output" out "$want"
	cp err "$name.err"
	sed -E "$filter" out | sort >"$name.out"
	for j in 1 2 3 4; do
		if [ "$j" = 4 ]; then
			pg -replay -logdir "$name" -out "$name.r$j" -delay 2000 </dev/null
		else
			pg -replay -logdir "$name" -out "$name.r$j" </dev/null
		fi
		if [ "$(cat rc)" = "${WANT_RC:-0}" ] &&
		   cmp -s <(sed -E "$filter" out | sort) "$name.out" &&
		   $TRACE verify "$name" "$name.r$j" >/dev/null 2>&1; then
			ok=$((ok + 1))
		else
			echo "   replay $j of $name: exit $(cat rc)"
			diff "$name.out" <(sed -E "$filter" out | sort) | head -5
			grep -v 'random delays of up to' err | head -5
		fi
	done
	expect_eq "$name: 3 replays and 1 with -delay 2000 identical" "$ok" 4
}

# view_event_text DIR ID: the viewer's details of event ID of the run in
# DIR (its trace.db imported), as one line (" | " between its lines), in
# the file "result"; returns the viewer's exit status.  The viewer runs
# under an Xvfb display of its own, stopped afterwards (callers check
# that Xvfb and sqlite3 are there).
view_event_text() {
	local n xpid rc XPID XN
	xvfb_start 800x600x24
	xpid=$XPID n=$XN
	trap "kill $xpid 2>/dev/null; cleanup" EXIT
	printf '%s\n' 'set out [open result w]' 'vtest::wait 100' \
		'puts $out [string map {"\n" " | "} [view::event_text $::env(EVENT_ID)]]' \
		'close $out' 'exit 0' >event.tcl
	EVENT_ID=$2 DISPLAY=":$n" timeout 60 "$B/bin/pangaea-view" \
		-script event.tcl "$1" >vout 2>verr
	rc=$?
	kill "$xpid" 2>/dev/null
	wait "$xpid" 2>/dev/null
	trap cleanup EXIT
	return $rc
}

# hosts_up N [--arch HOST=ARCH,...]: the virtual cluster h1..hN
# (scripts/hosts.sh; sets HOSTS and HD), whose virtual machine is halted
# and hosts removed at exit (halt_all); returns 1 after a FAIL if the
# hosts cannot be made.
hosts_up() {
	HOSTS="bash $TOP/scripts/hosts.sh"
	HD=$($HOSTS dir)
	# each host's /tmp is its own tmpfs, not a folder of this machine's
	export PVM_TMP=/tmp
	trap halt_all EXIT
	if ! $HOSTS up "$@" 2>up.err; then
		fail "hosts.sh up $* (needs root, network and mount namespaces): $(cat up.err)"
		return 1
	fi
}
halt_all() {
	[ -d "$HD/h1" ] &&
		$HOSTS run h1 sh -c 'echo halt | timeout 10 pvm' >/dev/null 2>&1
	$HOSTS down
	cleanup
}
# host_pids HOST [COMM]: the pids of the processes on HOST of the
# cluster of hosts_up (only those whose name is COMM, if given).
host_pids() {
	local p
	for p in $(ip netns pids "$($HOSTS netns "$1")" 2>/dev/null); do
		[ -z "${2:-}" ] || [ "$(cat /proc/$p/comm 2>/dev/null)" = "$2" ] &&
			echo "$p"
	done
}
# kill_pvmd HOST: kills HOST's pvmd (SIGKILL), as a host's crash would.
kill_pvmd() {
	local p
	for p in $(host_pids "$1" pvmd); do kill -9 "$p"; done
}
# hosts_vm HOST...: after hosts_up, a virtual machine of h1 and HOST...
# started on h1 from a host file in S=$HD/shared/$VMID (seen by every
# host; the current folder from then on), pvm's conf in conf; PANGAEA
# becomes a launcher that runs on h1.
hosts_vm() {
	S=$HD/shared/$VMID
	mkdir -p "$S" && cd "$S" || exit 1
	{ echo '* ep=/usr/bin'; printf '%s\n' "$@"; } >hostfile
	export PVM_RSH=$TOP/scripts/pvm-rsh
	$HOSTS run h1 sh -c "echo conf | timeout 30 pvm $S/hostfile" >conf 2>&1
	printf '#!/bin/sh\nexec bash %s run h1 %s "$@"\n' "$TOP/scripts/hosts.sh" \
		"$B/bin/pangaea" >pangaea-h1
	chmod +x pangaea-h1
	PANGAEA=$S/pangaea-h1
}
# hosts_end: at the end of a hosts test: halts the virtual machine on h1,
# removes the hosts (hosts.sh down) and checks that their folder went.
hosts_end() {
	$HOSTS run h1 sh -c 'echo halt | timeout 10 pvm' >/dev/null 2>&1
	cd "$T" || exit 1
	$HOSTS down
	[ -e "$HD" ] && fail "down: $HD is left" || pass "down: $HD removed"
}

# hosts_x_display HOST: after hosts_vm, a private X server (Xvfb) on HOST
# (its /tmp and network namespace are its own: a display of this machine
# cannot be reached from there), DISPLAY set for it, its pid in XPID (a
# helper, killed at exit), and LeakSanitizer told of Tk's libraries as
# x_display does (files in the shared $S); returns 1 after a FAIL if it
# does not come up.
hosts_x_display() {
	local sup=${LSAN_OPTIONS#suppressions=} i
	{ cat "${sup%%:*}"; printf 'leak:%s\n' libtk8.6 libtcl8.6 \
		libfontconfig libX11 libXft libfreetype; } >"$S/lsan.supp"
	export LSAN_OPTIONS="suppressions=$S/lsan.supp:print_suppressions=0"
	rm -f "$S/xpid.$1"
	$HOSTS run "$1" sh -c "echo \$\$ >$S/xpid.$1; exec Xvfb :7 -screen 0 \
1280x800x24 -nolisten tcp >/dev/null 2>&1" &
	for i in $(seq 100); do
		[ -s "$S/xpid.$1" ] && $HOSTS run "$1" test -S /tmp/.X11-unix/X7 && break
		sleep 0.1
	done
	XPID=$(cat "$S/xpid.$1" 2>/dev/null)
	[ -n "$XPID" ] || { fail "Xvfb on $1 did not start"; return 1; }
	HELPERS="${HELPERS:-} $XPID"
	trap 'kill $XPID 2>/dev/null; halt_all' EXIT
	export DISPLAY=:7
}

# live_reader SOCK OUT: in the background, reads the live stream of the
# socket SOCK into OUT once the socket is there (60 s at most), until the
# coordinator (or its relay) closes it: a viewer's stand-in; its pid in
# READER (a helper; wait for it)
live_reader() {
	python3 - "$1" "$2" <<'PYEOF' &
import socket, sys, time
s = None
for _ in range(1200):
    try:
        s = socket.socket(socket.AF_UNIX)
        s.connect(sys.argv[1])
        break
    except OSError:
        s = None
        time.sleep(0.05)
out = open(sys.argv[2], "wb")
while s:
    d = s.recv(1 << 20)
    if not d:
        break
    out.write(d)
PYEOF
	READER=$!
	HELPERS="${HELPERS:-} $READER"
}
