#!/bin/bash
# bench/hosts_scale.sh BUILDDIR: many tasks over many hosts (issue 15 §3;
# `make bench-hosts`, root only).
#
# Makes a virtual cluster of 4 hosts (scripts/hosts.sh; cluster
# PANGAEA_HOSTS_CLUSTER, default 0), starts a virtual machine of the four
# on h1 and runs examples/ring with N tasks (PVM spreads them over the
# hosts), in each of RUNS rounds three ways, from h1:
#   plain   the ring started by hand on the VM (no Pangaea);
#   record  pangaea -log, each task logging on its own host's /tmp, the
#           launcher collecting the logs of h2..h4 after the run;
#   replay  pangaea -replay of that recording (then checked identical
#           with pangaea-trace verify);
# and then imports the recording (pangaea-trace import).  Printed: the
# median (min-max) wall time of each mode, its ratio to plain of the same
# round, events per second (the recording's events over the wall time of
# record, replay and import), and the peak memory (max RSS) of the
# launcher (/usr/bin/time, package `time`), of the coordinator and of the
# largest beacon (VmHWM in /proc, read every 50 ms while they run).
# The cluster is removed at the end, also on failure.
#
# Environment: BENCH_SCALE_TASKS (128), BENCH_SCALE_ROUNDS (ring rounds,
# 200), BENCH_SCALE_RUNS (3).
set -u
B=$(cd "${1:-build}" && pwd)
N=${BENCH_SCALE_TASKS:-128}
ROUNDS=${BENCH_SCALE_ROUNDS:-200}
RUNS=${BENCH_SCALE_RUNS:-3}
TOP=$(cd "$(dirname "$0")/.." && pwd)
HOSTS="bash $TOP/scripts/hosts.sh"
RING=$B/examples/ring
P=$B/bin/pangaea
name=$(basename "$0")

if [ "$(id -u)" != 0 ]; then
	echo "$name: needs root (scripts/hosts.sh makes network namespaces)" >&2
	exit 1
fi
for f in "$RING" "$P" "$B/bin/pangaea-trace" "$B/bin/pangaea-coord"; do
	[ -x "$f" ] || { echo "$name: no $f (make all)" >&2; exit 1; }
done
[ -x /usr/bin/time ] ||
	{ echo "$name: no /usr/bin/time (package time, scripts/install-deps.sh)" >&2; exit 1; }

export PVM_ROOT=/usr/lib/pvm3 PVM_ALLOW_ROOT=1
export PVM_VMID="pangaea-bench-hosts-$$"
export PVM_RSH=$TOP/scripts/pvm-rsh
L=/tmp/pangaea-bench-hosts-$$ # on each host: its own /tmp
HD=$($HOSTS dir)
W=$HD/shared/$PVM_VMID # seen by every host (and here)

on_h1() { $HOSTS run h1 "$@"; }
# rm_all PATH: removes PATH on every host (each keeps its tasks' logs).
rm_all() { for h in h1 h2 h3 h4; do $HOSTS run $h rm -rf "$1"; done; }
cleanup() {
	[ -d "$HD/h1" ] && on_h1 sh -c 'echo halt | timeout 10 pvm' >/dev/null 2>&1
	$HOSTS down
	rm -rf "$W"
}
if [ -d "$HD" ]; then # (someone else's: not ours to take down)
	echo "$name: cluster ${PANGAEA_HOSTS_CLUSTER:-0} is up already ($HD): use another PANGAEA_HOSTS_CLUSTER" >&2
	exit 1
fi
trap cleanup EXIT
trap 'exit 130' INT TERM
if ! err=$($HOSTS up 4 2>&1); then
	echo "$name: cannot make the hosts: $err" >&2
	exit 1
fi
mkdir -p "$W"
printf '* ep=/usr/bin\nh2\nh3\nh4\n' >"$W/hostfile"
if [ "$(on_h1 sh -c "echo conf | timeout 30 pvm $W/hostfile" 2>&1 |
	grep -c LINUX64)" != 4 ]; then
	echo "$name: cannot start a virtual machine of the 4 hosts" >&2
	exit 1
fi

now_ns() { date +%s%N; }

# peak_watch FILE: writes to FILE, every 50 ms until killed, the largest
# VmHWM (kB) seen of this VM's coordinator and of its beacons (every
# process of the cluster shares this machine's /proc).
peak_watch() {
	local coord=0 beacon=0 pid hwm args
	while :; do
		for pid in $(pgrep -x pangaea-coord); do
			{ tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null |
				grep -qx "PVM_VMID=$PVM_VMID" || continue
			hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null)
			args=$({ tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null)
			[ -n "$hwm" ] || continue
			if [[ $args == *-beacon* ]]; then
				[ "$hwm" -gt "$beacon" ] && beacon=$hwm
			else
				[ "$hwm" -gt "$coord" ] && coord=$hwm
			fi
		done
		echo "$coord $beacon" >"$1.tmp" && mv "$1.tmp" "$1"
		sleep 0.05
	done
}

# run_mode ROUND MODE: one run; appends "MODE ROUND WALL_NS LAUNCHER_KB
# COORD_KB BEACON_KB EVENTS" to $W/samples, or says why not.
run_mode() {
	local k=$1 mode=$2 t0 t1 rc watch ev=0 peaks="0 0"
	echo "0 0" >"$W/peak"
	peak_watch "$W/peak" &
	watch=$!
	t0=$(now_ns)
	case $mode in
	plain) on_h1 timeout 600 "$RING" -r "$ROUNDS" "$N" >"$W/out" 2>"$W/err" ;;
	record) rm_all "$L"
		on_h1 timeout 600 /usr/bin/time -f %M -o "$W/maxrss" "$P" -log \
			-logdir "$L" "$RING" -r "$ROUNDS" "$N" >"$W/out" 2>"$W/err" ;;
	replay) rm_all "$L.r"
		on_h1 timeout 600 /usr/bin/time -f %M -o "$W/maxrss" "$P" \
			-replay -logdir "$L" -out "$L.r" >"$W/out" 2>"$W/err" ;;
	import) on_h1 rm -f "$L/trace.db"
		on_h1 timeout 600 "$B/bin/pangaea-trace" import "$L" >"$W/out" 2>"$W/err" ;;
	esac
	rc=$?
	t1=$(now_ns)
	kill "$watch" 2>/dev/null
	wait "$watch" 2>/dev/null
	if [ "$rc" != 0 ] || ! grep -q '^ring: done$\|^imported ' "$W/out"; then
		echo "$name: $mode (round $k) failed, exit $rc: $(head -c 300 "$W/err")" >&2
		return 1
	fi
	case $mode in
	record) ev=$(sed -n 's/^pangaea: recorded \([0-9]*\) events of.*/\1/p' "$W/err")
		cp "$W/out" "$W/rec.out" ;;
	replay) if ! cmp -s "$W/out" "$W/rec.out" ||
		   ! on_h1 "$B/bin/pangaea-trace" verify "$L" "$L.r" >"$W/verify" 2>&1; then
			echo "$name: replay (round $k) not identical: $(head -2 "$W/verify")" >&2
			return 1
		fi ;;
	esac
	[ "$mode" = record ] || [ "$mode" = replay ] && peaks=$(cat "$W/peak")
	echo "$mode $k $((t1 - t0)) $([ "$mode" = record ] || [ "$mode" = replay ] &&
		cat "$W/maxrss" || echo 0) $peaks $ev" >>"$W/samples"
}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
t_all=$(now_ns)
: >"$W/samples"
for k in $(seq 1 "$RUNS"); do
	# plain first in odd rounds, last in even ones (the machine's slow
	# moments hit both sides)
	if [ $((k % 2)) = 1 ]; then modes="plain record replay import"
	else modes="record replay import plain"; fi
	for m in $modes; do
		run_mode "$k" "$m" || exit 1
	done
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

# The table: medians (min-max) over the rounds; ratios per round.
awk -v n="$N" -v rounds="$ROUNDS" -v runs="$RUNS" -v load0="$load0" \
    -v load1="$load1" -v cpus="$(nproc)" -v secs="$((($(now_ns) - t_all) / 1000000000))" '
function med(a, k,   i, j, t, b) {
	for (i = 1; i <= k; i++) b[i] = a[i]
	for (i = 2; i <= k; i++) for (j = i; j > 1 && b[j-1] > b[j]; j--) {
		t = b[j]; b[j] = b[j-1]; b[j-1] = t }
	lo = b[1]; hi = b[k]
	return k % 2 ? b[(k+1)/2] : (b[k/2] + b[k/2+1]) / 2
}
{ wall[$1, $2] = $3 / 1e6; rss[$1, $2] = $4; crss[$1, $2] = $5; brss[$1, $2] = $6
  if ($1 == "record") ev[$2] = $7 }
END {
	printf "hosts_scale: %d ring tasks over 4 hosts, %d rounds, %d runs (median, min-max); load %s -> %s on %d cores, %d s\n",
		n, rounds, runs, load0, load1, cpus, secs
	evm = 0
	for (k = 1; k <= runs; k++) e[k] = ev[k]
	evm = med(e, runs)
	printf "events per run: %d\n", evm
	printf "%-7s %-22s %-18s %-12s %-12s %-12s %-12s\n", "mode", "wall ms", "x plain", "events/s",
		"launcher KB", "coord KB", "beacon KB"
	split("plain record replay import", modes, " ")
	for (m = 1; m <= 4; m++) {
		md = modes[m]
		for (k = 1; k <= runs; k++) { w[k] = wall[md, k]; r[k] = wall[md, k] / wall["plain", k]
			eps[k] = ev[k] / (wall[md, k] / 1000); l[k] = rss[md, k]; c[k] = crss[md, k]; b[k] = brss[md, k] }
		wm = med(w, runs); wlo = lo; whi = hi
		rm = med(r, runs); rlo = lo; rhi = hi
		em = med(eps, runs)
		lm = med(l, runs); lhi = hi
		cm = med(c, runs); chi = hi
		bm = med(b, runs); bhi = hi
		printf "%-7s %-22s %-18s %-12s %-12s %-12s %-12s\n", md,
			sprintf("%.0f (%.0f-%.0f)", wm, wlo, whi),
			md == "plain" ? "1" : md == "import" ? "-" : sprintf("%.2f (%.2f-%.2f)", rm, rlo, rhi),
			md == "plain" ? "-" : sprintf("%.0f", em),
			md == "record" || md == "replay" ? sprintf("%d", lhi) : "-",
			md == "record" || md == "replay" ? sprintf("%d", chi) : "-",
			md == "record" || md == "replay" ? sprintf("%d", bhi) : "-"
	}
	print "(events/s: the recording'"'"'s events over the wall time of the whole command; KB: peak resident memory, the largest of the runs)"
}' "$W/samples"
