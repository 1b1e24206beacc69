#!/bin/bash
# bench/mpi.sh BUILDDIR: MPI record and replay against plain mpirun
# (issue 25's targets), part of `make bench` when examples/mpi is built.
#
# examples/mpi/pingpong with 2 ranks, N round trips (BENCH_MPI_N, 20000),
# rank 0 receiving four ways (recv, any = MPI_ANY_SOURCE, iprobe loop,
# testsome loop); each ROUNDS times (BENCH_ROUNDS, 5) plain, recorded and
# replayed, the order rotating; the ratios of the medians of the program's
# own time (wall_ns=, round trips only), the log bytes per round trip, and
# the start-up (pangaea -log of 0 round trips against plain mpirun, whole
# commands).  Targets: record and replay <= 1.05x plain; <= 4 bytes of log
# per wildcard receive; start-up <= 20 ms over plain mpirun.
set -u
B=$(cd "${1:-build}" && pwd)
ROUNDS=${BENCH_ROUNDS:-5}
N=${BENCH_MPI_N:-20000}
PP=$B/examples/mpi/pingpong
P=$B/bin/pangaea
if [ ! -x "$PP" ] || ! command -v mpirun >/dev/null; then
	echo "mpi: skipped (no mpirun or examples/mpi/pingpong)"
	exit 0
fi
W=$(mktemp -d /tmp/pangaea-bench-mpi.XXXXXX)
trap 'rm -rf "$W"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
MPIRUN=(mpirun -np 2)

# median of the numbers on stdin
median() { sort -n | awk '{v[NR]=$1} END {print NR ? v[int((NR+1)/2)] : 0}'; }
# ns of the program's line in FILE
ns_of() { sed -n 's/.*wall_ns=\([0-9]*\).*/\1/p' "$1"; }

echo "MPI ping-pong, 2 ranks, $N round trips, $ROUNDS rounds (medians; ratio to plain)"
printf '%-10s %12s %12s %8s %12s %8s %10s\n' mode plain_ms record_ms ratio replay_ms ratio bytes/rt
for mode in recv any iprobe testsome; do
	: >"$W/plain" ; : >"$W/record"; : >"$W/replay"
	for r in $(seq 1 "$ROUNDS"); do
		order=(plain record replay)
		[ $((r % 3)) = 1 ] && order=(record replay plain)
		[ $((r % 3)) = 2 ] && order=(replay plain record)
		for m in "${order[@]}"; do
			case $m in
			plain) "${MPIRUN[@]}" "$PP" "$N" "$mode" >"$W/o" 2>/dev/null ;;
			record) rm -rf "$W/rec"
				"$P" -q -log -logdir "$W/rec" "${MPIRUN[@]}" "$PP" "$N" "$mode" >"$W/o" 2>/dev/null ;;
			replay) [ -d "$W/rec" ] || "$P" -q -log -logdir "$W/rec" "${MPIRUN[@]}" "$PP" "$N" "$mode" >/dev/null 2>&1
				rm -rf "$W/rep"
				"$P" -q -replay -logdir "$W/rec" -out "$W/rep" >"$W/o" 2>/dev/null ;;
			esac
			ns_of "$W/o" >>"$W/$m"
		done
	done
	pl=$(median <"$W/plain") rc=$(median <"$W/record") rp=$(median <"$W/replay")
	bytes=$(cat "$W"/rec/task-1.comm | wc -c)
	awk -v m="$mode" -v p="$pl" -v r="$rc" -v q="$rp" -v b="$bytes" -v n="$N" 'BEGIN {
		printf "%-10s %12.1f %12.1f %7.2fx %12.1f %7.2fx %10.2f\n", m, p/1e6, r/1e6,
		       p ? r/p : 0, q/1e6, p ? q/p : 0, b/(n+100) }'
done
echo "(bytes/rt: rank 0's log over its round trips: a send and a receive, and for iprobe/testsome their failed polls and outcomes)"

# start-up: whole commands, 0 round trips
: >"$W/s_plain"; : >"$W/s_rec"
for r in $(seq 1 "$ROUNDS"); do
	t=$(date +%s%N); "${MPIRUN[@]}" "$PP" 0 >/dev/null 2>&1; echo $(( $(date +%s%N) - t )) >>"$W/s_plain"
	rm -rf "$W/srec"
	t=$(date +%s%N); "$P" -q -log -logdir "$W/srec" "${MPIRUN[@]}" "$PP" 0 >/dev/null 2>&1
	echo $(( $(date +%s%N) - t )) >>"$W/s_rec"
done
sp=$(median <"$W/s_plain") sr=$(median <"$W/s_rec")
awk -v p="$sp" -v r="$sr" 'BEGIN { printf "start-up: plain mpirun %.1f ms, pangaea -log %.1f ms: +%.1f ms (target <= 20 ms)\n", p/1e6, r/1e6, (r-p)/1e6 }'
