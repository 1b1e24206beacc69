#!/bin/bash
# bench/mpi.sh BUILDDIR: MPI record and replay against plain mpirun
# (issue 25's targets), part of `make bench` when examples/mpi is built.
#
# examples/mpi/pingpong with 2 ranks, N round trips (BENCH_MPI_N, 20000),
# rank 0 receiving four ways (recv, any = MPI_ANY_SOURCE, iprobe loop,
# testsome loop), messages of each size of BENCH_MPI_BYTES (bytes, "8";
# e.g. "8 1024 65536"); each ROUNDS times (BENCH_ROUNDS, 5) plain,
# recorded and replayed, the order rotating; the ratios of the medians of
# the program's own time of its round trips (cycles= of the time stamp
# counter, which a replay does not give back as it gives MPI_Wtime's
# wall_ns=; wall_ns= where there are no cycles), the log bytes per
# round trip, the instructions the wrappers of rank 0 add to each
# MPI_Send and MPI_Recv and the instructions of a failed MPI_Iprobe and
# MPI_Testsome (callgrind, when valgrind and mpicc are there: figures the
# load of the machine does not change; BENCH_MPI_INSTR=0 skips them), and
# the start-up (pangaea -log of 0 round trips against plain
# mpirun, whole commands).  Targets: record and replay <= 1.05x plain;
# <= 4 bytes of log per wildcard receive; start-up <= 20 ms over plain
# mpirun.
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

# cg_wait PREFIX: waits (up to 10 s) until the 2 ranks' callgrind dumps
# PREFIX.PID are whole (their last line "totals:"): valgrind may still
# be writing a rank's when mpirun, or the launcher, has returned
cg_wait() {
	local i f n
	for i in $(seq 1 100); do
		n=0
		for f in "$1".*; do
			[ -e "$f" ] && tail -n 1 "$f" | grep -q '^totals:' && n=$((n + 1))
		done
		[ "$n" -ge 2 ] && return
		sleep 0.1
	done
}
# median of the numbers on stdin
median() { sort -n | awk '{v[NR]=$1} END {print NR ? v[int((NR+1)/2)] : 0}'; }
# the time of the program's line in FILE: its cycles, else its ns
ns_of() { sed -n -e 's/.*cycles=\([0-9]*\).*/\1/p;t' -e 's/.*wall_ns=\([0-9]*\).*/\1/p' "$1"; }
# (a replay prints other cycles than its recording: not a difference)
export PANGAEA_OUTPUT_MASK='cycles=[0-9]+'

echo "MPI ping-pong, 2 ranks, $N round trips, $ROUNDS rounds (medians; ratio to plain)"
echo "(times: millions of time stamp counter cycles; ms where the program prints no cycles)"
printf '%-10s %8s %12s %12s %8s %12s %8s %10s\n' mode bytes plain record ratio replay ratio bytes/rt
for size in ${BENCH_MPI_BYTES:-8}; do
for mode in recv any iprobe testsome; do
	: >"$W/plain" ; : >"$W/record"; : >"$W/replay"
	for r in $(seq 1 "$ROUNDS"); do
		order=(plain record replay)
		[ $((r % 3)) = 1 ] && order=(record replay plain)
		[ $((r % 3)) = 2 ] && order=(replay plain record)
		for m in "${order[@]}"; do
			case $m in
			plain) "${MPIRUN[@]}" "$PP" "$N" "$mode" "$size" >"$W/o" 2>/dev/null ;;
			record) rm -rf "$W/rec"
				"$P" -q -log -logdir "$W/rec" "${MPIRUN[@]}" "$PP" "$N" "$mode" "$size" >"$W/o" 2>/dev/null ;;
			replay) [ -d "$W/rec" ] || "$P" -q -log -logdir "$W/rec" "${MPIRUN[@]}" "$PP" "$N" "$mode" "$size" >/dev/null 2>&1
				rm -rf "$W/rep"
				"$P" -q -replay -logdir "$W/rec" -out "$W/rep" >"$W/o" 2>/dev/null ;;
			esac
			ns_of "$W/o" >>"$W/$m"
		done
	done
	pl=$(median <"$W/plain") rc=$(median <"$W/record") rp=$(median <"$W/replay")
	bytes=$(cat "$W"/rec/task-1.comm | wc -c)
	awk -v m="$mode" -v s="$size" -v p="$pl" -v r="$rc" -v q="$rp" -v b="$bytes" -v n="$N" 'BEGIN {
		printf "%-10s %8d %12.1f %12.1f %7.2fx %12.1f %7.2fx %10.2f\n", m, s, p/1e6, r/1e6,
		       p ? r/p : 0, q/1e6, p ? q/p : 0, b/(n+100) }'
done
done
echo "(bytes/rt: rank 0's log over its round trips: a send and a receive, and for iprobe/testsome their failed polls and outcomes)"

# instructions per wrapped call: rank 0 of a recording (and of its
# replay) of 2000 round trips (any) under callgrind, started by a small
# MPI program that execs valgrind (the launcher takes only a program
# linked with MPI); per call, the wrapper's inclusive count less its
# PMPI call's, read from callgrind_annotate's call tree
if [ "${BENCH_MPI_INSTR:-1}" != 0 ] && command -v valgrind >/dev/null &&
   command -v callgrind_annotate >/dev/null && command -v mpicc >/dev/null; then
	cat >"$W/vg.c" <<'EOC'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
/* Runs ARGV[1..] under callgrind, its output CGOUT.PID (linked with MPI
 * for the launcher: MPI_Initialized is never reached). */
int main(int argc, char **argv)
{
	char out[4200], *a[64];
	int n = 0, f = 0;

	snprintf(out, sizeof(out), "--callgrind-out-file=%s.%%p", getenv("CGOUT"));
	a[n++] = "valgrind";
	a[n++] = "--tool=callgrind";
	a[n++] = "-q";
	a[n++] = out;
	for (int i = 1; i < argc && n < 63; i++)
		a[n++] = argv[i];
	a[n] = NULL;
	if (argc < 0)
		MPI_Initialized(&f);
	execvp(a[0], a);
	return 127;
}
EOC
	if mpicc -O1 -o "$W/vg" "$W/vg.c" 2>/dev/null; then
		export CGOUT=$W/cg
		for m in record replay; do
			rm -f "$W"/cg.*
			case $m in
			record) rm -rf "$W/cgrec"
				"$P" -q -log -logdir "$W/cgrec" "${MPIRUN[@]}" -x CGOUT "$W/vg" "$PP" 2000 any >/dev/null 2>&1 ;;
			replay) rm -rf "$W/cgrep"
				"$P" -q -replay -logdir "$W/cgrec" -out "$W/cgrep" >/dev/null 2>&1 ;;
			esac
			cg_wait "$W/cg"
			for f in "$W"/cg.*; do
				[ -e "$f" ] || continue
				callgrind_annotate --tree=calling --inclusive=yes "$f" 2>/dev/null
			done | awk -v m=$m '
				/\*  .*p2p\.c:MPI_(Send|Recv) / { gsub(",", "", $1); fn = $0
					sub(/.*p2p\.c:/, "", fn); sub(/ .*/, "", fn); cur = fn; inc[fn] += $1; next }
				/>   \?\?\?:PMPI_(Send|Recv) / && cur != "" { gsub(",", "", $1); c = $0
					sub(/.*\(/, "", c); sub(/x\).*/, "", c); gsub(",", "", c)
					sub_[cur] += $1; calls[cur] += c; next }
				/^$/ { cur = "" }
				END { if (calls["MPI_Send"] && calls["MPI_Recv"])
					printf "instructions per wrapped call, %s (callgrind, both ranks, 2000 round trips, any): MPI_Send +%.0f, MPI_Recv +%.0f\n", m,
					       (inc["MPI_Send"] - sub_["MPI_Send"]) / calls["MPI_Send"],
					       (inc["MPI_Recv"] - sub_["MPI_Recv"]) / calls["MPI_Recv"] }'
		done
		# failed polls (issue 25): rank 0 of a small program makes
		# 10000 MPI_Iprobe calls that find nothing and 10000
		# MPI_Testsome calls that complete nothing; per call, the
		# inclusive count of the call (the wrapper's, or plain MPI's)
		cat >"$W/polls.c" <<'EOC'
#include <mpi.h>
#include <stdlib.h>
/* Rank 0: N failed MPI_Iprobe, then N failed MPI_Testsome calls. */
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10000, rank, flag, out, idx[1];
	int buf = 0;
	MPI_Request rq;
	MPI_Status st[1];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		for (int i = 0; i < n; i++)
			MPI_Iprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &flag, st);
		MPI_Irecv(&buf, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &rq);
		for (int i = 0; i < n; i++)
			MPI_Testsome(1, &rq, &out, idx, st);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 1)
		MPI_Send(&buf, 1, MPI_INT, 0, 8, MPI_COMM_WORLD);
	if (rank == 0)
		MPI_Wait(&rq, st);
	MPI_Finalize();
	return 0;
}
EOC
		if mpicc -O2 -o "$W/polls" "$W/polls.c" 2>/dev/null; then
			line=
			for m in plain record replay; do
				# (a file name of each mode's own: a rank's dump
				# written late never joins another mode's)
				export CGOUT=$W/cgp-$m
				case $m in
				plain) "${MPIRUN[@]}" -x CGOUT "$W/vg" "$W/polls" 10000 >/dev/null 2>&1 ;;
				record) rm -rf "$W/cgprec"
					"$P" -q -log -logdir "$W/cgprec" "${MPIRUN[@]}" -x CGOUT "$W/vg" "$W/polls" 10000 >/dev/null 2>&1 ;;
				replay) rm -rf "$W/cgprep"
					"$P" -q -replay -logdir "$W/cgprec" -out "$W/cgprep" >/dev/null 2>&1 ;;
				esac
				cg_wait "$CGOUT"
				fn=MPI_; [ $m = plain ] && fn=PMPI_
				line="$line $m $(for f in "$CGOUT".*; do
					[ -e "$f" ] && callgrind_annotate --tree=caller --inclusive=yes "$f" 2>/dev/null
				done | awk -v a="${fn}Iprobe" -v b="${fn}Testsome" '
					/  < / { c = $0; if (c ~ /\([0-9,]+x\)/) { sub(/.*\(/, "", c); sub(/x\).*/, "", c); gsub(",", "", c); pend += c } next }
					/\*  / { fn = $0; sub(/.*\*  [^:]*:/, "", fn); sub(/ .*/, "", fn); x = $1; gsub(",", "", x)
						if ((fn == a || fn == b) && pend) { inc[fn] += x; calls[fn] += pend } pend = 0 }
					END { printf "%.0f/%.0f", calls[a] ? inc[a] / calls[a] : 0, calls[b] ? inc[b] / calls[b] : 0 }')"
			done
			echo "instructions per failed poll, MPI_Iprobe/MPI_Testsome (callgrind, rank 0, 10000 each, the call's whole):$line"
		fi
		unset CGOUT
	fi
fi

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
