#!/bin/bash
# bench/startup.sh BUILDDIR [PROGRAM ARGS...]: the fixed start-up and
# shut-down cost of a short recorded run (issue 28's bar).  In a private
# virtual machine started first (its start and halt are outside the
# figures: the runs join a running machine), PAIRS times (default 9;
# BENCH_PAIRS) one plain run of PROGRAM (default bench/short: 4 tasks,
# about 60 messages, 100-200 ms) and one recorded by `pangaea -log`,
# which goes first alternating from pair to pair.  Each run is timed
# from its start to its exit.  Prints every pair (plain ms, recorded ms,
# ratio), then the median ratio of the pairs with min-max, the medians
# of both and their ratio, and the verdict against the target of 1.10
# (the median of the pairs' ratios).  `uptime` before and after says
# the load.
#
# BENCH_BASE=DIR (the build folder of another version, e.g. main's):
# each round also records with that version's launcher and its copy of
# the program (PROGRAM's path with BUILDDIR replaced by DIR), the three
# runs in an order that rotates from round to round; both versions'
# median ratios to the same rounds' plain runs are printed: a before and
# after measured under the same load.
set -u
B=$(cd "${1:-build}" && pwd)
shift
[ $# -gt 0 ] || set -- "$B/bench/short"
PAIRS=${BENCH_PAIRS:-9}
export PVM_ROOT=/usr/lib/pvm3
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=1
export PVM_VMID="pangaea-startup-$$"
W=$(mktemp -d /tmp/pangaea-startup.XXXXXX)
. "$(dirname "$0")/vm.sh"

now_ns() { date +%s%N; }
vm_start
cd "$W" || exit 1
echo "load: $(uptime)"
# one run, plain or recorded ($1); its wall time in ns on stdout
one() {
	local t0 t1 rc
	rm -rf rec
	t0=$(now_ns)
	if [ "$1" = plain ]; then
		timeout 60 "${prog[@]}" >out 2>err
	else
		timeout 60 "$B/bin/pangaea" -log -logdir rec "${prog[@]}" >out 2>err
	fi
	rc=$?
	t1=$(now_ns)
	if [ "$rc" != 0 ]; then
		echo "startup: the $1 run exited $rc: $(head -1 err)" >&2
		exit 1
	fi
	echo $((t1 - t0))
}
prog=("$@")
one plain >/dev/null # (warm: the caches, the pvmd's first spawn)
one record >/dev/null
: >pairs
if [ -n "${BENCH_BASE:-}" ]; then
	BASE=$(cd "$BENCH_BASE" && pwd) || exit 1
	B0=$B
	base_prog=("${1/#$B0\//$BASE/}" "${@:2}")
	# one base recording: its launcher, its copy of the program
	base() {
		local B=$BASE prog=("${base_prog[@]}")
		one record
	}
	base >/dev/null
	: >triples
	echo "round plain-ms base-ms ratio this-ms ratio ($(basename "$1") ${*:2}; base $BASE)"
	for i in $(seq "$PAIRS"); do
		case $((i % 3)) in
		1) p=$(one plain) && q=$(base) && r=$(one record) || exit 1 ;;
		2) q=$(base) && r=$(one record) && p=$(one plain) || exit 1 ;;
		0) r=$(one record) && p=$(one plain) && q=$(base) || exit 1 ;;
		esac
		echo "$p $r" >>pairs
		echo "$p $q" >>triples
		awk -v i="$i" -v p="$p" -v q="$q" -v r="$r" 'BEGIN {
			printf "%d %.1f %.1f %.3f %.1f %.3f\n", i, p / 1e6, q / 1e6,
			       q / p, r / 1e6, r / p}'
	done
else
	echo "pair plain-ms recorded-ms ratio ($(basename "$1") ${*:2})"
	for i in $(seq "$PAIRS"); do
		if [ $((i % 2)) = 1 ]; then
			p=$(one plain) && r=$(one record) || exit 1
		else
			r=$(one record) && p=$(one plain) || exit 1
		fi
		echo "$p $r" >>pairs
		awk -v i="$i" -v p="$p" -v r="$r" \
			'BEGIN {printf "%d %.1f %.1f %.3f\n", i, p / 1e6, r / 1e6, r / p}'
	done
fi
echo "load: $(uptime)"
med() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)], v[1], v[NR]}'; }
if [ -n "${BENCH_BASE:-}" ]; then
	read -r bm blo bhi < <(awk '{print $2 / $1}' triples | med)
	printf 'base: median recorded/plain %.3f (%.3f-%.3f)\n' "$bm" "$blo" "$bhi"
fi
read -r rm rlo rhi < <(awk '{print $2 / $1}' pairs | med)
read -r pm _ < <(awk '{print $1}' pairs | med)
read -r qm _ < <(awk '{print $2}' pairs | med)
awk -v rm="$rm" -v lo="$rlo" -v hi="$rhi" -v pm="$pm" -v qm="$qm" -v n="$PAIRS" 'BEGIN {
	printf "median of %d pairs: recorded/plain %.3f (%.3f-%.3f); medians: plain %.1f ms, recorded %.1f ms (%.3f, +%.1f ms); target <= 1.10: %s\n",
		n, rm, lo, hi, pm / 1e6, qm / 1e6, qm / pm, (qm - pm) / 1e6,
		rm <= 1.10 ? "met" : "missed" }'
