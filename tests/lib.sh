# tests/lib.sh: helpers for the scenario tests (sourced by tests/scenario/*.sh).
#
# Each test runs with its own PVM_VMID, in its own temporary folder, and a
# trap halts any virtual machine of that VMID and kills any task it left,
# even when the test fails.  Assertions print "FAIL: ..." and count.

set -u
B=${B:?build dir}
PANGAEA=$B/bin/pangaea
TRACE=$B/bin/pangaea-trace
export PVM_ROOT=/usr/lib/pvm3
export LSAN_OPTIONS="suppressions=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=1
export PVM_VMID="t-$(basename "$0" .sh)-$$"
VMID=$PVM_VMID
T=$(mktemp -d "/tmp/pangaea-test.XXXXXX")
FAILS=0
cd "$T" || exit 1

# Halts the virtual machine of PVM_VMID (the console is SIGTERMed by it).
vm_halt() {
	( echo halt | PVM_VMID=${1:-$VMID} timeout 10 pvm >/dev/null 2>&1 ) 2>/dev/null
}

# Halts the test's VM and kills what the test's runs left behind.
cleanup() {
	[ -e "/tmp/pvmd.$(id -u).$VMID" ] && vm_halt "$VMID"
	pkill -9 -f "^$B/(examples|tests)/" 2>/dev/null
	rm -f "/tmp/pvmd.$(id -u).$VMID" "/tmp/pvml.$(id -u).$VMID"
	rm -f /tmp/pvml.$(id -u).pangaea-* 2>/dev/null
	cd / && rm -rf "$T"
}
trap cleanup EXIT

fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
pass() { echo "ok: $*"; }

# expect_eq WHAT GOT WANT
expect_eq() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2', want '$3'"; fi; }

# expect_grep WHAT FILE PATTERN: FILE has a line matching PATTERN (ERE).
expect_grep() {
	if grep -Eq -- "$3" "$2"; then pass "$1"; else
		fail "$1: no line matching '$3' in $2:"; sed 's/^/    | /' "$2" | head -20; fi
}

# expect_no_leftovers: no pvmd of ours, no task of the build dir running
# (after up to 5 s: a task that is exiting, e.g. in LeakSanitizer's end
# of run check, is not left behind).
expect_no_leftovers() {
	local left i
	for i in $(seq 50); do
		left=$(pgrep -af "^$B/(examples|tests)/|pvmd3.*pangaea-" | grep -v defunct || true)
		[ -z "$left" ] && break
		sleep 0.1
	done
	[ -z "$left" ] && pass "nothing left running" || fail "left running: $left"
	# the test's own virtual machine (other runs on this machine may have theirs)
	[ -e "/tmp/pvmd.$(id -u).$VMID" ] && fail "pvmd address file left: /tmp/pvmd.$(id -u).$VMID" || true
}

# pg ARGS...: runs the launcher with a time limit, output to out/err files.
pg() { timeout 120 "$PANGAEA" "$@" >out 2>err; echo $? >rc; }

# replays_identical REC N DELAY: replays the recording REC N times into
# REC.rJ with random delays of up to DELAY us; prints how many exited 0,
# printed exactly REC.out and were called identical by pangaea-trace
# verify (what went wrong with the others goes to stderr).
replays_identical() {
	local rec=$1 n=$2 delay=$3 ok=0 j
	for j in $(seq 1 "$n"); do
		pg -replay -logdir "$rec" -out "$rec.r$j" -delay "$delay"
		if [ "$(cat rc)" = 0 ] && cmp -s out "$rec.out" &&
		   $TRACE verify "$rec" "$rec.r$j" >/dev/null; then
			ok=$((ok + 1))
		else
			{ echo "   replay $j of $rec: exit $(cat rc)"
			  diff "$rec.out" out | head -5; head -5 err; } >&2
		fi
	done
	echo "$ok"
}

# finish: the test's exit status.
finish() { [ "$FAILS" = 0 ]; }
