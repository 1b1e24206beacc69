#!/bin/bash
# bench/overhead.sh BUILDDIR: the monitor-overhead correction against the
# truth (issue 14, section 3; `make bench-overhead`).  In a private virtual
# machine, ROUNDS times (default 10; BENCH_ROUNDS), interleaved: the
# ping-pong bench/pingpong (BENCH_PINGPONG round trips, default 5000)
# and examples/sor -time (BENCH_SOR, default "2 200 1000": 2 tasks,
# 200x200 grid, 1000 iterations), each run plain and recorded (which
# first alternates from round to round), the recording imported raw and
# with --correct-overhead.
#
# Every program times its own span (CLOCK_MONOTONIC): pingpong its
# measured round trips (wall_ns=: from the return of its 200th, the last
# warm-up, receive to the return of its last), sor -time ("elapsed NS")
# from the return of its first receive to the return of its last; both
# start when every task is up.  A plain run's figure is the truth; a
# recorded run's trace gives the span between the same receives' ends,
# raw and corrected.  Prints per round and program plain,
# recorded (self-timed), trace raw and trace corrected in ms; then per
# program the medians with min-max, the ratios to the plain median and
# the target: corrected/plain within 2 %, or the corrected median inside
# the plain runs' min-max; and the medians of the rounds' own ratios
# (recorded and corrected to the same round's plain run); and the pvmd's
# CPU time in each whole run, plain and recorded (the daemon's share of
# the overhead, docs/BENCHMARKS.md).  All on one CPU
# (BENCH_CPU below).  `uptime` before and after says the load.
set -u
B=$(cd "${1:-build}" && pwd)
ROUNDS=${BENCH_ROUNDS:-10}
N=${BENCH_PINGPONG:-5000}
SOR=${BENCH_SOR:-2 200 1000}
CPU=${BENCH_CPU-$([ "$(nproc)" -gt 1 ] && echo 1)}
export PVM_ROOT=/usr/lib/pvm3
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=1
export PVM_VMID="pangaea-ovh-$$"
W=$(mktemp -d /tmp/pangaea-ovh.XXXXXX)
cleanup() {
	(echo halt | timeout 10 pvm >/dev/null 2>&1) >/dev/null 2>&1 # (its "Terminated" too)
	rm -f "${PVM_TMP:-/tmp}/pvmd.$(id -u).$PVM_VMID" "${PVM_TMP:-/tmp}/pvml.$(id -u).$PVM_VMID"
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cd "$W" || exit 1
# BENCH_CPU=N (default 1 on a machine with more than one, BENCH_CPU=
# for none): the virtual machine (its pvmd, every task it starts) and the
# programs run on CPU N alone (taskset): no migration between cores,
# which otherwise changes a ping-pong's time by a factor up to 2
PIN=()
[ -n "$CPU" ] && PIN=(taskset -c "$CPU")
echo quit | timeout 20 "${PIN[@]}" pvm >/dev/null 2>&1
echo "load: $(uptime)"
# The virtual machine's pvmd (its environment names PVM_VMID): its CPU
# time is charged per message and grows with every descriptor it selects
# on, which a recorded run has more of (the launcher, the coordinator,
# spawned tasks' output pipes); so each run's pvmd CPU time is reported
PVMD=
for p in $(pgrep -x pvmd); do
	{ tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null |
		grep -qx "PVM_VMID=$PVM_VMID" && PVMD=$p
done
# the pvmd's CPU time so far in ns (0 when not found)
pvmd_ns() {
	local t=0
	[ -n "$PVMD" ] && read -r t _ <"/proc/$PVMD/schedstat"
	echo "${t:-0}"
}

# The trace's span of program $1 in recording $2, in ms: between the ends
# of the master's (ltid 1) receives that end its own timing.
span() {
	local r="FROM events WHERE ltid = 1 AND kind = 'recv'" a b
	if [ "$1" = pp ]; then # tag 1: the pings; 200 warm-up round trips
		a="SELECT t1 $r AND tag = 1 ORDER BY seq LIMIT 1 OFFSET 199"
		b="SELECT t1 $r AND tag = 1 ORDER BY seq LIMIT 1 OFFSET $((199 + N))"
	else
		a="SELECT MIN(t1) $r" b="SELECT MAX(t1) $r"
	fi
	"$B/bin/pangaea-trace" sql --csv "$2" "SELECT (($b) - ($a)) / 1e6"
}
ms() {
	sed -n 's/^elapsed \([0-9]*\)$/\1/p; s/^RESULT .* wall_ns=\([0-9]*\).*/\1/p' \
		"$1" | awk '{printf "%.3f\n", $1 / 1e6}'
}
# Program $1's run: plain, or recorded ($2 = rec) into rec; the
# pvmd's CPU time in it, ms, into $2.pvmd.
run() {
	local t0
	t0=$(pvmd_ns)
	if [ "$2" = plain ]; then
		timeout 120 "${PIN[@]}" "${cmd[@]}" >plain.out 2>/dev/null
	else
		rm -rf rec
		timeout 120 "${PIN[@]}" "$B/bin/pangaea" -log -logdir "$W/rec" \
			"${cmd[@]}" \
			>rec.out 2>/dev/null
	fi
	awk -v a="$t0" -v b="$(pvmd_ns)" 'BEGIN {printf "%.3f\n", (b - a) / 1e6}' \
		>"$2.pvmd"
}
# One plain and one recorded run of program $1 (pp or sor), round $2.
one() {
	local raw
	if [ "$1" = pp ]; then
		cmd=("$B/bench/pingpong" -n "$N")
	else
		# shellcheck disable=SC2206
		cmd=("$B/examples/sor" -time $SOR)
	fi
	if [ $(($2 % 2)) = 1 ]; then
		run "$1" plain
		run "$1" rec
	else
		run "$1" rec
		run "$1" plain
	fi
	"$B/bin/pangaea-trace" import rec >/dev/null
	raw=$(span "$1" rec)
	"$B/bin/pangaea-trace" import --correct-overhead rec >ovh.out
	echo "$1 $2 $(ms plain.out) $(ms rec.out) $raw $(span "$1" rec)" \
		"$(cat plain.pvmd) $(cat rec.pvmd)" |
		tee -a rows
	sed 's/^/  /' ovh.out
}
echo "program round plain recorded trace-raw trace-corrected" \
	"pvmd-plain pvmd-recorded (ms; pp: $N round trips; sor: $SOR;" \
	"pvmd: the daemon's CPU time in the whole run)"
for r in $(seq "$ROUNDS"); do
	one pp "$r"
	one sor "$r"
done
echo "load: $(uptime)"
# median (min-max) of column $2 of program $1's rows
stat() {
	awk -v p="$1" '$1 == p {print $'"$2"'}' rows | sort -g | awk '
		{v[NR] = $1} END {printf "%.3f %.3f %.3f\n",
			v[int((NR + 1) / 2)], v[1], v[NR]}'
}
# median (min-max) over program $1's rounds of column $2 / plain
pair() {
	awk -v p="$1" '$1 == p {print $'"$2"' / $3}' rows | sort -g | awk '
		{v[NR] = $1} END {printf "%.4f (%.4f-%.4f)\n",
			v[int((NR + 1) / 2)], v[1], v[NR]}'
}
echo "summary: median (min-max) ms; ratio to the plain median;" \
	"target: corrected/plain within 2 % or inside plain's min-max"
for p in pp sor; do
	read -r pm plo phi < <(stat $p 3)
	line="$p plain $pm ($plo-$phi)"
	for c in 4:recorded 5:raw 6:corrected; do
		read -r m lo hi < <(stat $p "${c%%:*}")
		line="$line ${c#*:} $m ($lo-$hi) $(awk -v a="$m" -v b="$pm" \
			'BEGIN {printf "%.4f", a / b}')"
	done
	verdict=$(awk -v m="$m" -v p="$pm" -v lo="$plo" -v hi="$phi" 'BEGIN {
		r = m / p
		printf "within 2 %%: %s; inside plain min-max: %s",
			((r >= 0.98 && r <= 1.02) ? "met" : "missed"),
			((m >= lo && m <= hi) ? "met" : "missed")}')
	echo "$line; $verdict"
	echo "$p per round (same round's plain), median (min-max):" \
		"recorded/plain $(pair $p 4) corrected/plain $(pair $p 6)"
	read -r a alo ahi < <(stat $p 7)
	read -r b blo bhi < <(stat $p 8)
	echo "$p pvmd CPU per run, median (min-max) ms: plain $a ($alo-$ahi)" \
		"recorded $b ($blo-$bhi)"
done
