#!/bin/bash
# bench/run.sh BUILDDIR: the benchmark suite (`make bench`).
#
# Starts a private virtual machine (its own PVM_VMID) and runs every
# benchmark in it three ways, interleaved: plain PVM (the program started
# from this shell, as a user would without Pangaea), recorded (pangaea -log,
# which joins the same VM) and replayed (pangaea -replay of that recording).
# That is one round; there are BENCH_ROUNDS rounds (default 5), and the
# order of the three modes rotates from round to round.  The summary (median,
# min-max, ratios to plain PVM of the same round, log sizes, targets) goes to
# stdout; results.csv holds it as CSV, raw.csv every sample.
#
# Then bench/instr.sh counts the instructions per call of perfunc's rows
# under callgrind (needs valgrind; report says when it is missing).
# Last, bench/races times the racing-receive analysis (its own target line),
# bench/trace_import.sh SQL on a fresh recording's logs and the import,
# bench/view.sh the viewer (a fresh recording's first picture, the live view)
# and bench/timeline.sh prints the start-up breakdown of `sor 4 100`;
# bench/mpi.sh MPI ping-pong recorded and replayed against plain mpirun.
# Environment: BENCH_ROUNDS (5), BENCH_PINGPONG (round trips, 20000),
# BENCH_ONLY (a regular expression: run only the benchmarks it matches),
# BENCH_OUT (where the CSV files go, default BUILDDIR/bench).
set -u
B=$(cd "${1:-build}" && pwd)
ROUNDS=${BENCH_ROUNDS:-5}
PP=${BENCH_PINGPONG:-20000}
ONLY=${BENCH_ONLY:-.}
BIN=$B/bench
OUT=${BENCH_OUT:-$B/bench}
P=$B/bin/pangaea
export PVM_ROOT=/usr/lib/pvm3
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=1
export PVM_VMID="pangaea-bench-$$"
# a replay compares its output with the recording's: the times measured
# (wall_ns=, cpu_ns=, min_ns=, ...) differ by nature
# (logs/analysis/output-compare.c)
export PANGAEA_OUTPUT_MASK='[a-z_]*ns=[0-9]+'
W=$(mktemp -d /tmp/pangaea-bench.XXXXXX)
RAW=$OUT/raw.csv LOGS=$OUT/logsize.csv PENDING=$OUT/pending.txt

# The benchmarks: NAME, then the command (paths relative to BUILDDIR).
# End-to-end ones (e2e-*) are timed from here, the others time themselves.
BENCHES=(
	"pingpong|bench/pingpong -n $PP"
	"pingpong-direct|bench/pingpong -n $PP -direct"
	"pingpong-preload|bench/pingpong-preload -n $PP"
	"clockread|bench/clockread -n 200000"
	"clockread-preload|bench/clockread-preload -n 200000"
	"perfunc-p2p|bench/perfunc -set p2p -n 5000"
	"perfunc-spawn|bench/perfunc -set spawn -n 20"
	"perfunc-mcast|bench/perfunc -set mcast -n 2000"
	"perfunc-bcast|bench/perfunc -set bcast -n 2000"
	"annai-recv|bench/annai -p 4 -n 500"
	"annai-iprobe|bench/annai -p 4 -n 500 -iprobe"
	"e2e-sor|examples/sor 4 100"
	"e2e-racy|examples/racy -w 3 -m 100"
)

HERE=$(cd "$(dirname "$0")" && pwd)
. "$(dirname "$0")/vm.sh"

now_ns() { date +%s%N; }

# run_one ROUND MODE NAME CMD...: one run; appends its samples to RAW.
run_one() {
	local round=$1 mode=$2 name=$3 rc t0 t1
	shift 3
	local rec=$W/rec-$name-$round
	t0=$(now_ns)
	case $mode in
	plain) timeout 300 "$@" >"$W/out" 2>"$W/err" ;;
	record) rm -rf "$rec"
		timeout 300 "$P" -q -log -logdir "$rec" "$@" >"$W/out" 2>"$W/err" ;;
	replay) [ -d "$rec" ] || { echo "no recording" >"$W/err"; false; } &&
		timeout 300 "$P" -q -replay -logdir "$rec" -out "$W/rep-$name-$round" \
			>"$W/out" 2>"$W/err" ;;
	esac
	rc=$?
	t1=$(now_ns)
	rm -rf "$W/rep-$name-$round"
	if [ "$rc" != 0 ]; then
		echo "$name $mode exit $rc: $(grep -v '^$' "$W/err" | head -1)" >>"$W/failed"
		return 1
	fi
	if [[ $name == e2e-* ]]; then
		echo "$round,$mode,e2e,${name#e2e-},1,$((t1 - t0)),0" >>"$RAW"
	else
		sed -n 's/^RESULT bench=\([^ ]*\) row=\([^ ]*\) n=\([0-9]*\) wall_ns=\([0-9]*\) cpu_ns=\([0-9]*\).*/'"$round,$mode"',\1,\2,\3,\4,\5/p' \
			"$W/out" >>"$RAW"
	fi
}

# The order of the modes in ROUND (replay always after its record).
modes_of() {
	case $(($1 % 3)) in
	1) echo plain record replay ;;
	2) echo record replay plain ;;
	0) echo record plain replay ;;
	esac
}

# check_coll NAME ROUND KIND: marks the rows of a collective benchmark
# pending unless its recording logged KIND records and replayed.
check_coll() {
	local n
	n=$("$BIN/logsize" "$W/rec-$1-$2" 2>/dev/null | sed -n "s/.*kind=$3 events=\([0-9]*\).*/\1/p")
	if grep -q "^$1 re" "$W/failed" 2>/dev/null; then
		echo "perfunc $3 record/replay failed: $(grep "^$1 re" "$W/failed" | head -1 | cut -c1-150)" >>"$PENDING"
	elif [ -z "$n" ] || [ "$n" = 0 ]; then
		echo "perfunc $3 this build does not record pvm_$3 (no $3 records in the log)" >>"$PENDING"
	fi
}

mkdir -p "$OUT"
echo "round,mode,bench,row,n,wall_ns,cpu_ns" >"$RAW"
: >"$LOGS"; : >"$PENDING"; : >"$W/failed"
printf '* ep=%s:%s:/usr/lib/pvm3/lib:%s/bin/$PVM_ARCH\n%s\n' "$B/bench" \
	"$B/examples" "$PVM_ROOT" "$(hostname)" >"$W/hosts"
vm_start hosts

echo "Pangaea benchmarks: $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -sr), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $ROUNDS rounds of plain / record / replay, interleaved; private VM $PVM_VMID"
start=$(date +%s)
cd "$W" || exit 1
for round in $(seq 1 "$ROUNDS"); do
	printf 'round %d/%d:' "$round" "$ROUNDS"
	for spec in "${BENCHES[@]}"; do
		name=${spec%%|*}
		[[ $name =~ $ONLY ]] || continue
		read -r -a cmd <<<"${spec#*|}"
		cmd[0]=$B/${cmd[0]}
		for mode in $(modes_of "$round"); do
			run_one "$round" "$mode" "$name" "${cmd[@]}"
		done
		printf ' %s' "$name"
	done
	echo " ($(($(date +%s) - start)) s)"
done

# Log sizes from the last round's recordings; collective rows' status.
for spec in "${BENCHES[@]}"; do
	name=${spec%%|*}
	[ -d "$W/rec-$name-$ROUNDS" ] || continue
	"$BIN/logsize" "$W/rec-$name-$ROUNDS" 2>/dev/null |
		sed -n "s/^LOGSIZE kind=\([^ ]*\) events=\([0-9]*\) bytes=\([0-9]*\)/${name#e2e-},\1,\2,\3/p" >>"$LOGS"
	case $name in
	perfunc-mcast) check_coll "$name" "$ROUNDS" mcast ;;
	perfunc-bcast) check_coll "$name" "$ROUNDS" bcast ;;
	esac
done

# instructions per call (no VM of ours: instr.sh starts its own)
: >"$OUT/instr.csv"
if [[ instr =~ $ONLY ]]; then
	bash "$HERE/instr.sh" "$B" "$OUT/instr.csv" 2000
fi
"$BIN/report" "$RAW" "$LOGS" "$PENDING" "$OUT/results.csv" "$OUT/instr.csv"
# the racing-receive analysis on a synthetic run of 2 M events (no VM)
if [[ races =~ $ONLY ]]; then
	echo
	mkdir "$W/races" && "$BIN/races" "$W/races" 4 250000
fi
# the trace database (issue 28): SQL on the logs of a fresh 10 M-event
# recording (no import), then the import of a 1 M-event one against the
# plain SQLite ceiling (bench/trace_import.sh)
if [[ tracedb =~ $ONLY ]]; then
	echo
	SQL_ONLY=1 bash "$HERE/trace_import.sh" "$B" 4 1249998
	bash "$HERE/trace_import.sh" "$B" 4 124998
fi
# the viewer (issue 16): the first picture of a fresh 1 M- and 10 M-event
# recording (from its logs, the import in the background) and the cost
# of a live view (bench/view.sh; needs Xvfb)
if [[ viewer =~ $ONLY ]] && command -v Xvfb >/dev/null; then
	echo
	bash "$HERE/view.sh" "$B" 20000 | grep -E '^open a fresh|^sor .*costs'
fi
# where the time of one short recorded run goes (PANGAEA_TIMELINE)
if [[ startup =~ $ONLY ]]; then
	echo
	bash "$HERE/timeline.sh" "$B"
fi
# MPI programs (issue 25): ping-pong recorded and replayed against plain
# mpirun (bench/mpi.sh; needs Open MPI and examples/mpi)
if [[ mpi =~ $ONLY ]]; then
	echo
	BENCH_ROUNDS=$ROUNDS bash "$HERE/mpi.sh" "$B"
fi
if [ -s "$W/failed" ]; then
	echo
	echo "Failed runs ($(wc -l <"$W/failed")):"
	sort "$W/failed" | uniq -c | sed 's/^/ /' | head -20
fi
echo
echo "CSV: $OUT/results.csv (summary), $RAW (every sample); total $(($(date +%s) - start)) s"
