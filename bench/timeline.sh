#!/bin/bash
# bench/timeline.sh BUILDDIR [PROGRAM ARGS...]: where the time of one short
# recorded run goes (issue 16).  In a private VM started first (its start
# and halt are outside both figures, as in `make bench`), runs PROGRAM
# (default examples/sor 4 100) plainly, then recorded with
# PANGAEA_TIMELINE=1, and prints the recorded run's stamped steps
# (launcher, coordinator, tasks) in time order with the time since the
# launcher's exec and since the step before, then the plain run's time.
# BENCH_TIMELINE_RUNS (default 3): runs of each; the one printed is the
# recorded run closest to the median.
set -u
B=$(cd "${1:-build}" && pwd)
shift
[ $# -gt 0 ] || set -- "$B/examples/sor" 4 100
RUNS=${BENCH_TIMELINE_RUNS:-3}
export PVM_ROOT=/usr/lib/pvm3
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=1
export PVM_VMID="pangaea-timeline-$$"
W=$(mktemp -d /tmp/pangaea-timeline.XXXXXX)
. "$(dirname "$0")/vm.sh"

now_ns() { date +%s%N; }
printf '* ep=%s\n%s\n' "$(dirname "$1")" "$(hostname)" >"$W/hosts"
vm_start hosts
cd "$W" || exit 1
: >plain.ns; : >rec.ns
for i in $(seq 1 "$RUNS"); do
	t0=$(now_ns); timeout 60 "$@" >/dev/null 2>&1; t1=$(now_ns)
	echo $((t1 - t0)) >>plain.ns
	rm -rf rec
	t0=$(now_ns)
	PANGAEA_TIMELINE=1 timeout 60 "$B/bin/pangaea" -q -log -logdir rec "$@" \
		>out 2>err
	rc=$?
	t1=$(now_ns)
	[ "$rc" = 0 ] || { echo "timeline: the recorded run exited $rc: $(head -1 err)" >&2; exit 1; }
	echo "$((t1 - t0)) $t0 $t1" >"rec.$i"
	cat out err | grep '^pangaea-timeline ' | sort -s -k2,2 >"tl.$i"
	echo $((t1 - t0)) >>rec.ns
done
med() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mrec=$(med rec.ns)
mplain=$(med plain.ns)
# the recorded run nearest the median
pick=1 best=
for i in $(seq 1 "$RUNS"); do
	d=$(( $(cut -d' ' -f1 "rec.$i") - mrec )); d=${d#-}
	[ -z "$best" ] || [ "$d" -lt "$best" ] && { best=$d; pick=$i; }
done
read -r _ t0 t1 <"rec.$pick"
echo "Start-up and shut-down of \`$(basename "$1") ${*:2}\` recorded (run $pick of $RUNS, the median's):"
awk -v t0="$t0" -v t1="$t1" '
	{ t = $2; $1 = $2 = ""; sub(/^  /, "")
	  printf "  %8.1f ms  %+7.1f  %s\n", t * 1000 - t0 / 1e6,
		 (t - (NR > 1 ? p : t0 / 1e9)) * 1000, $0; p = t }
	END { printf "  %8.1f ms  %+7.1f  (the launcher has exited)\n",
		     (t1 - t0) / 1e6, t1 / 1e6 - p * 1000 }' "tl.$pick"
printf 'median of %d: recorded %.1f ms, plain %.1f ms: %.2fx, +%.1f ms\n' "$RUNS" \
	"$(echo "$mrec / 1000000" | bc -l)" "$(echo "$mplain / 1000000" | bc -l)" \
	"$(echo "$mrec / $mplain" | bc -l)" "$(echo "($mrec - $mplain) / 1000000" | bc -l)"
