#!/bin/bash
# bench/overhead.sh BUILDDIR: the monitor-overhead correction against
# the truth (issue 14, section 3).  In a private virtual machine, ROUNDS
# times (default 5; BENCH_ROUNDS) and interleaved: a ping-pong of N round
# trips (BENCH_PINGPONG, default 5000; tests/clockpp, one host) run plain,
# then recorded; the recorded trace imported with --correct-overhead.
# Prints per round the program's own time for the round trips (plain; and
# recorded: the raw time as the program saw it), the same span in the
# trace (raw and corrected), and the medians.  All in ms.
set -u
B=$(cd "${1:-build}" && pwd)
ROUNDS=${BENCH_ROUNDS:-5}
N=${BENCH_PINGPONG:-5000}
export PVM_ROOT=/usr/lib/pvm3
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=1
export PVM_VMID="pangaea-ovh-$$"
W=$(mktemp -d /tmp/pangaea-ovh.XXXXXX)
cleanup() {
	{ echo halt | timeout 10 pvm >/dev/null 2>&1; } >/dev/null 2>&1
	rm -f "/tmp/pvmd.$(id -u).$PVM_VMID" "/tmp/pvml.$(id -u).$PVM_VMID"
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cd "$W" || exit 1
printf '* ep=%s\n' "$B/tests" >hosts
echo quit | timeout 20 pvm hosts >/dev/null 2>&1
host=$(echo conf | timeout 10 pvm 2>/dev/null | awk '/LINUX64/ {print $1; exit}')
# the span of the master's round trips in the trace: its first send's
# start to its last receive's end, in ms
span() {
	"$B/bin/pangaea-trace" sql --csv "$1" "SELECT ((SELECT MAX(t1) FROM
		events WHERE ltid = 1 AND kind = 'recv') - (SELECT MIN(t0) FROM
		events WHERE ltid = 1 AND kind = 'send')) / 1e6"
}
ms() { awk '/^elapsed/ {printf "%.3f\n", $2 / 1e6}' "$1"; }
echo "round plain record trace-raw trace-corrected (ms, $N round trips)"
for r in $(seq "$ROUNDS"); do
	timeout 120 "$B/tests/clockpp" "$host" "$N" 0 >plain.out 2>/dev/null
	rm -rf rec
	timeout 120 "$B/bin/pangaea" -log -logdir "$W/rec" "$B/tests/clockpp" \
		"$host" "$N" 0 >rec.out 2>/dev/null
	"$B/bin/pangaea-trace" import rec >/dev/null
	raw=$(span rec)
	"$B/bin/pangaea-trace" import --correct-overhead rec >ovh.out
	echo "$r $(ms plain.out) $(ms rec.out) $raw $(span rec)" | tee -a rows
	sed 's/^/  /' ovh.out
done
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
printf 'median %s %s %s %s\n' "$(awk '{print $2}' rows | median)" \
	"$(awk '{print $3}' rows | median)" "$(awk '{print $4}' rows | median)" \
	"$(awk '{print $5}' rows | median)"
