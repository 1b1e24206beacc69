#!/bin/bash
# bench/chaos.sh BUILDDIR [RUNS]: how many recordings it takes to hit a
# rare crash, plain `pangaea -log` against `-log -delay USEC` and
# `-log -chaos` (`make bench-chaos`; not part of make check).
#
# The crashes: racy -crash dies of SIGSEGV when the master's first message
# comes from its highest-numbered worker, the one spawned and set up last:
# with -w 3 one of three workers, with -w 5 the last of five.  Each case
# is recorded RUNS times (default 100) in each mode, the modes taking
# turns run by run, in one private virtual machine.  A hit is a recording
# whose master died of signal 11.  Printed per case and mode: hits, the
# hit rate, the mean number of recordings per hit (RUNS / hits) and the
# run of the first hit; CSV to BENCH_OUT (default BUILDDIR/bench)/chaos.csv.
#
# Environment: BENCH_DELAY (the -delay maximum, 1000 us), BENCH_MSGS
# (racy -m, 4).
set -u
B=$(cd "${1:-build}" && pwd)
RUNS=${2:-100}
DELAY=${BENCH_DELAY:-1000}
MSGS=${BENCH_MSGS:-4}
OUT=${BENCH_OUT:-$B/bench}
P=$B/bin/pangaea
R=$B/examples/racy
export PVM_ROOT=/usr/lib/pvm3
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=1
export PVM_VMID="pangaea-chaos-$$"
unset PANGAEA_SEED PANGAEA_DELAY PANGAEA_CHAOS
W=$(mktemp -d /tmp/pangaea-chaos.XXXXXX)

. "$(dirname "$0")/vm.sh"

mkdir -p "$OUT"
vm_start

MODES=(plain delay chaos)
# mode_args MODE: the launcher's options of MODE
mode_args() {
	case $1 in
	plain) ;;
	delay) echo "-delay $DELAY" ;;
	chaos) echo "-chaos" ;;
	esac
}

echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $RUNS recordings per case and mode, modes in turn; racy -m $MSGS; -delay $DELAY"
echo "case,mode,runs,hits,first_hit,other_failures" >"$OUT/chaos.csv"
start=$(date +%s)
printf '%-16s %-7s %6s %6s %9s %12s %9s\n' case mode runs hits "hit rate" "runs per hit" "first hit"
for w in 3 5; do
	declare -A hits=() first=() other=()
	for m in "${MODES[@]}"; do hits[$m]=0 first[$m]=- other[$m]=0; done
	for i in $(seq 1 "$RUNS"); do
		for m in "${MODES[@]}"; do
			rm -rf "$W/rec"
			# shellcheck disable=SC2046
			timeout 120 "$P" -q -log $(mode_args "$m") -logdir "$W/rec" \
				"$R" -w "$w" -m "$MSGS" -crash >"$W/out" 2>"$W/err"
			rc=$?
			if grep -q 'killed by signal 11' "$W/err"; then
				hits[$m]=$((hits[$m] + 1))
				[ "${first[$m]}" = - ] && first[$m]=$i
			elif [ "$rc" != 0 ]; then
				other[$m]=$((other[$m] + 1))
				echo "racy -w $w, $m, run $i: exit $rc: $(head -2 "$W/err" | tr '\n' ' ')" >&2
			fi
		done
	done
	for m in "${MODES[@]}"; do
		h=${hits[$m]}
		rate=$(awk -v h="$h" -v n="$RUNS" 'BEGIN { printf "%.1f%%", 100 * h / n }')
		per=$(awk -v h="$h" -v n="$RUNS" 'BEGIN { if (h) printf "%.1f", n / h; else printf "> %d", n }')
		printf '%-16s %-7s %6d %6d %9s %12s %9s\n' "racy -w $w -crash" "$m" \
			"$RUNS" "$h" "$rate" "$per" "${first[$m]}"
		echo "racy-w$w,$m,$RUNS,$h,${first[$m]},${other[$m]}" >>"$OUT/chaos.csv"
	done
	unset hits first other
done
echo "CSV: $OUT/chaos.csv; total $(($(date +%s) - start)) s"
