#!/bin/bash
# scripts/soak.sh BUILD: the fault soak (make soak).  SOAK_RUNS runs
# (default 100) of our examples (sor, racy) under Pangaea, each a
# recording or (one run in four) the replay of a clean recording, with
# one fault at a random time 50-1500 ms after the launcher started:
#
#   kill-worker kill-master kill-coord kill-pvmd kill-launcher  SIGKILL
#   stop-worker stop-master stop-coord stop-pvmd stop-launcher  SIGSTOP,
#                                        then SIGCONT 2-4 s later
#   term-launcher int-launcher           SIGTERM, SIGINT to the launcher
#   kill-rank stop-rank kill-mpirun      an MPI run (examples/mpi/timed,
#               4 ranks through mpirun, when Open MPI is there): SIGKILL
#               or SIGSTOP a rank, SIGKILL mpirun
#   diskfull    the log folder on a tmpfs of 128-1024 KiB
#   readonly    the log folder remounted read-only
#
# For each run it checks (each failed check is a violation):
#   time    the launcher ended within 20 s of the fault (of the SIGCONT
#           for a stop);
#   status  its exit status and last line name the cause: a stopped
#           process, or a fault that came after the run's end, leaves a
#           run that ends with exit 0 and the output of a clean run; a
#           killed task exit 2 and the last line "the run was stopped:
#           task N ... killed by signal 9"; ... (see expect_for below);
#   clean   nothing of the run is left 10 s after the launcher ended: no
#           process of its PVM_VMID, no file in its PVM_TMP folder;
#   tools   pangaea-trace check, dump and import of its log folder exit 0
#           or refuse (exit 1 with a message), never crash or hang (60 s);
#   replay  a recording that ended with exit 0 replays with exit 0, the
#           same output, and verify calls it identical.
#
# Each run has its own seed, printed with it: SOAK_SEED=S SOAK_RUNS=1
# repeats run S (SOAK_SEED is the first run's seed; the next runs take
# S+1, S+2, ...).  SOAK_KINDS="kind ..." draws from those kinds only
# (SOAK_EACH=1: takes them in turn instead); SOAK_MODE=record|replay
# forces the mode; SOAK_MIN_MS (default 50) is the earliest fault time.  It prints a table by fault
# kind and exits 1 on any violation.  Faults in the first 300 ms land in
# the start-up and are counted apart (column "early").  Needs root (tmpfs
# and bind mounts) for diskfull and readonly; without, those are skipped.
set -u
B=$(cd "${1:-build}" && pwd)
LIB=$(cd "$(dirname "$0")/../tests" && pwd)/lib.sh
RUNS=${SOAK_RUNS:-100}
SEED0=${SOAK_SEED:-$(( $(date +%s) % 100000 ))}
ALL_KINDS="kill-worker kill-master kill-coord kill-pvmd kill-launcher
	stop-worker stop-master stop-coord stop-pvmd stop-launcher
	term-launcher int-launcher diskfull readonly"
MPI_T=$(cd "${1:-build}" && pwd)/examples/mpi/timed
command -v mpirun >/dev/null && [ -x "$MPI_T" ] &&
	ALL_KINDS="$ALL_KINDS kill-rank stop-rank kill-mpirun"
read -r -a KINDS <<<"$(echo ${SOAK_KINDS:-$ALL_KINDS})"
# lib.sh: $T (the soak's folder, removed at exit), test_pids, cleanup
B=$B . "$LIB"
PGCOORD=$B/bin/pangaea-coord
SOR=$B/examples/sor
RACY=$B/examples/racy
SOR_ARGS="4 160 3000"
RACY_ARGS="-w 4 -m 3000"
MNT= # a mount of the current run (unmounted at exit)
trap '[ -n "$MNT" ] && umount -l "$MNT" 2>/dev/null; cleanup' EXIT
CAN_MOUNT=0
mkdir -p "$T/probe" && mount -t tmpfs -o size=64k tmpfs "$T/probe" 2>/dev/null &&
	umount "$T/probe" && CAN_MOUNT=1

# now_ms: milliseconds of the monotonic-ish wall clock
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# run_pids: the pids of the current run's processes (its PVM_VMID)
run_pids() { test_pids; }

# pid_of PROGRAM [master|worker]: a pid of the run's process running
# PROGRAM (argv[0]); for the example, its master (started with arguments)
# or a worker (started with none): the PICK-th, round the list
pid_of() {
	local p n want=${2:-} list=()
	for p in $(test_pids -x "$1"); do
		n=$(tr '\0' '\n' 2>/dev/null <"/proc/$p/cmdline" | wc -l)
		case $want in
		master) [ "$n" -gt 1 ] && list+=("$p") ;;
		worker) [ "$n" = 1 ] && list+=("$p") ;;
		*) list+=("$p") ;;
		esac
	done
	[ ${#list[@]} -gt 0 ] && echo "${list[PICK % ${#list[@]}]}"
}

# target KIND PROG LAUNCHER: the pid the fault KIND strikes, or nothing
target() {
	case ${1#*-} in
	worker) pid_of "$2" worker ;;
	master) pid_of "$2" master ;;
	coord) pid_of "$PGCOORD" ;;
	pvmd) pid_of /usr/bin/pvmd ;;
	launcher) kill -0 "$3" 2>/dev/null && echo "$3" ;;
	rank) pid_of "$MPI_T" ;;
	mpirun) pgrep -P "$3" | head -1 ;;
	esac
}

# the clean outputs the runs are compared with
clean_output() { # PROG: the output of a run of PROG left alone
	if [ "$1" = sor ]; then cat "$T/sor.clean"
	else echo "racy: done"; fi
}
# output_ok PROG FILE: FILE is the whole output of a run of PROG (sor:
# the clean run's; racy: 4 x 3000 arrivals and its last line)
output_ok() {
	if [ "$1" = sor ]; then cmp -s "$2" "$T/sor.clean"
	elif [ "$1" = mpi ]; then [ "$(grep -Ec '^rank [0-3]: [0-9]+ slices' "$2")" = 4 ] &&
		grep -q '^total: ' "$2"
	else [ "$(grep -c '^racy: recv worker=' "$2")" = 12000 ] &&
		[ "$(tail -1 "$2")" = "racy: done" ]; fi
}

# expect_for KIND: the regular expression the last line of a run ended
# by fault KIND matches (exit status 2); empty: the run goes on (exit 0)
expect_for() {
	case $1 in
	kill-worker|kill-master) echo "the run was stopped: task [0-9]+ \(.*\) was killed by signal 9 \(Killed\)" ;;
	kill-coord) echo "the run was stopped: the coordinator died" ;;
	kill-rank) echo "rank [0-9]+ \(task [0-9]+\) has no end in its log: it was killed|ranks ended before joining the run" ;;
	kill-mpirun) echo "(orterun|mpirun) was killed by signal 9 \(Killed\)" ;;
	kill-pvmd) echo "the run was stopped: the PVM daemon was lost" ;;
	term-launcher) echo "the run was stopped: interrupted \(SIGTERM\)" ;;
	int-launcher) echo "the run was stopped: interrupted \(SIGINT\)" ;;
	diskfull) echo "cannot write (its log|.*): No space left on device" ;;
	readonly) echo "(cannot write|cannot create|cannot open).*: Read-only file system" ;;
	*) echo "" ;;
	esac
}

declare -A N DELIV EARLY OK0 STOPPED REPL VIOL
for k in "${KINDS[@]}"; do
	N[$k]=0 DELIV[$k]=0 EARLY[$k]=0 OK0[$k]=0 STOPPED[$k]=0 REPL[$k]=0 VIOL[$k]=0
done
TOTAL_V=0

# violation WHAT: notes a violation of the current run
violation() {
	echo "  VIOLATION (run $I, SOAK_SEED=$SEED SOAK_RUNS=1${SOAK_KINDS:+ SOAK_KINDS=\"$SOAK_KINDS\"}): $*"
	V=$((V + 1))
}

# tool_ok WHAT CMD...: runs a pangaea-trace command (60 s at most): exit
# 0, or 1 with a message; anything else (a crash, a hang) is a violation
tool_ok() {
	local what=$1 rc
	shift
	timeout -k 5 60 "$@" >"$R/tool.out" 2>"$R/tool.err"
	rc=$?
	if [ $rc = 0 ]; then return 0; fi
	# (check says a contradiction on its standard output)
	if [ $rc = 1 ] && [ -s "$R/tool.err" -o -s "$R/tool.out" ] &&
	   ! grep -Eq 'Sanitizer|runtime error|Segmentation|core dumped' "$R/tool.err"; then
		return 0
	fi
	violation "$what: exit $rc: $(cat "$R/tool.err" "$R/tool.out" | head -c 300)"
}

# waits until the launcher LPID ends, at most until the monotonic ms
# DEADLINE; 0 if it ended
await_end() {
	while kill -0 "$1" 2>/dev/null; do
		[ "$(now_ms)" -ge "$2" ] && return 1
		sleep 0.05
	done
	return 0
}

# checks that nothing of the run is left, within 10 s; kills what is
nothing_left() {
	local left i
	for i in $(seq 100); do
		left=$(run_pids)
		[ -z "$left" ] && [ -z "$(ls -A "$PVM_TMP" 2>/dev/null)" ] && return 0
		sleep 0.1
	done
	[ -n "$left" ] && violation "left running 10 s after: $(describe_pids $left | tr '\n' ';')"
	[ -n "$(ls -A "$PVM_TMP" 2>/dev/null)" ] &&
		violation "left in its PVM_TMP: $(ls -A "$PVM_TMP" | tr '\n' ' ')"
	[ -n "$left" ] && kill -9 $left 2>/dev/null
	rm -rf "${PVM_TMP:?}"/* 2>/dev/null
	return 0
}

BASE=$VMID
# the clean sor output, once
echo "soak: $RUNS runs, first seed $SEED0 (SOAK_SEED=$SEED0 repeats them)"
export PVM_VMID=$BASE-clean PANGAEA_TEST_ID=$BASE-clean
VMID=$PVM_VMID
"$PANGAEA" -log -logdir "$T/clean" "$SOR" $SOR_ARGS >"$T/sor.clean" 2>"$T/clean.err" ||
	{ echo "soak: a clean run of sor failed:"; cat "$T/clean.err"; exit 1; }
rm -rf "$T/clean"

for I in $(seq 1 "$RUNS"); do
	SEED=$((SEED0 + I - 1))
	RANDOM=$SEED
	KIND=${KINDS[RANDOM % ${#KINDS[@]}]}
	[ "${SOAK_EACH:-0}" = 1 ] && KIND=${KINDS[(I - 1) % ${#KINDS[@]}]}
	# (no $(...) here: a subshell draws other numbers)
	PROG=sor MODE=record
	[ $((RANDOM % 2)) = 0 ] || PROG=racy
	[ $((RANDOM % 4)) = 0 ] && MODE=replay
	MODE=${SOAK_MODE:-$MODE}
	case $KIND in *-rank|*-mpirun) PROG=mpi ;; esac
	PICK=$RANDOM # which worker
	AT=$((${SOAK_MIN_MS:-50} + RANDOM % (1501 - ${SOAK_MIN_MS:-50})))
	STOP_MS=$((2000 + RANDOM % 2001))
	FULL_KB=$((128 + RANDOM % 897))
	V=0
	R=$T/run$I
	mkdir -p "$R/tmp"
	export PVM_TMP=$R/tmp PVM_VMID=$BASE-$I PANGAEA_TEST_ID=$BASE-$I
	VMID=$PVM_VMID
	if [ $PROG = sor ]; then EXE=$SOR ARGS=$SOR_ARGS; else EXE=$RACY ARGS=$RACY_ARGS; fi
	[ $PROG = mpi ] && EXE=mpirun ARGS="--allow-run-as-root -np 4 $MPI_T 1500 2000000"
	N[$KIND]=$((N[$KIND] + 1))
	if { [ $KIND = diskfull ] || [ $KIND = readonly ]; } && [ $CAN_MOUNT = 0 ]; then
		echo "run $I seed $SEED: $KIND skipped (cannot mount here)"
		continue
	fi
	# the log folder: where the faulted run logs
	LOGS=$R/logs
	mkdir -p "$LOGS"
	if [ $KIND = diskfull ]; then
		mount -t tmpfs -o size=${FULL_KB}k tmpfs "$LOGS" && MNT=$LOGS
	fi
	if [ $MODE = replay ]; then
		"$PANGAEA" -log -logdir "$R/rec" "$EXE" $ARGS >"$R/rec.out" 2>"$R/rec.err"
		if [ $? != 0 ]; then
			violation "the clean recording to replay failed: $(tail -1 "$R/rec.err")"
			MODE=record
		else
			nothing_left
		fi
	fi
	if [ $MODE = replay ]; then
		set -- -replay -logdir "$R/rec" -out "$LOGS/run"
	else
		set -- -log -logdir "$LOGS/run" "$EXE" $ARGS
	fi
	t0=$(now_ms)
	"$PANGAEA" "$@" >"$R/out" 2>"$R/err" &
	LPID=$!
	# the fault, at AT ms
	delivered=0 pid= fault_at=0
	case $KIND in
	diskfull) delivered=1 fault_at=$t0 ;;
	*)
		while [ $(( $(now_ms) - t0 )) -lt $AT ]; do sleep 0.01; done
		fault_at=$(now_ms)
		if [ $KIND = readonly ]; then
			# (a read-only bind mount over the folder: files the
			# run has open stay writable, as after a remount that
			# open files kept from being refused)
			kill -0 $LPID 2>/dev/null &&
				mount --bind -o ro "$LOGS" "$LOGS" && MNT=$LOGS &&
				delivered=1
		else
			pid=$(target $KIND "$EXE" $LPID)
			case $KIND in
			kill-*) sig=KILL ;; stop-*) sig=STOP ;;
			term-*) sig=TERM ;; int-*) sig=INT ;;
			esac
			[ -n "$pid" ] && kill -$sig "$pid" 2>/dev/null && delivered=1
			if [ $delivered = 1 ] && [ $sig = STOP ]; then
				sleep "$(printf '%d.%03d' $((STOP_MS / 1000)) $((STOP_MS % 1000)))"
				kill -CONT "$pid" 2>/dev/null
				fault_at=$(now_ms)
			fi
		fi
		;;
	esac
	early=$([ $delivered = 1 ] && [ $((fault_at - t0)) -lt 300 ] && [ $KIND != diskfull ] && echo 1 || echo 0)
	[ $delivered = 1 ] && DELIV[$KIND]=$((DELIV[$KIND] + 1))
	[ $early = 1 ] && EARLY[$KIND]=$((EARLY[$KIND] + 1))
	echo "run $I seed $SEED: $PROG $MODE $KIND at $AT ms$([ ${KIND%%-*} = stop ] && echo " for $STOP_MS ms")$([ $delivered = 0 ] && echo " (after the run's end)")$([ $early = 1 ] && echo " (start-up)")"
	# time: the launcher ends within 20 s of the fault
	if ! await_end $LPID $((fault_at + 20000)); then
		violation "the launcher still runs 20 s after the fault"
		kill -TERM $LPID 2>/dev/null
		await_end $LPID $(( $(now_ms) + 10000 )) || kill -KILL $LPID 2>/dev/null
	fi
	wait $LPID 2>/dev/null
	rc=$?
	last=$(tail -1 "$R/err")
	if [ $rc = 0 ]; then OK0[$KIND]=$((OK0[$KIND] + 1))
	else STOPPED[$KIND]=$((STOPPED[$KIND] + 1)); fi
	# status and last line
	want=$(expect_for $KIND)
	if [ $KIND = kill-launcher ] && [ $delivered = 1 ]; then
		[ $rc = 137 ] || violation "killed launcher: exit $rc"
	elif [ $rc = 0 ]; then
		# a stop, a fault after the end or in its last moments: the
		# whole output of a clean run
		output_ok $PROG "$R/out" ||
			violation "exit 0 but not the output of a clean run"
		grep -q deadlock "$R/err" && violation "a deadlock said: $(grep deadlock "$R/err" | head -1)"
	elif [ -z "$want" ] || [ $delivered = 0 ]; then
		violation "exit $rc (the run should have gone on): $last"
	elif [ $KIND = readonly ]; then # (1: run.info could not be written)
		[ $rc = 1 ] || [ $rc = 2 ] || violation "exit $rc, not 1 or 2: $last"
		[[ $last =~ $want ]] || violation "last line does not name the cause ($want): $last"
	else
		[ $rc = 2 ] || violation "exit $rc, not 2: $last"
		[[ $last =~ $want ]] || violation "last line does not name the cause ($want): $last"
	fi
	# clean: nothing of the run left 10 s after
	nothing_left
	# tools on what was logged (the run's folder)
	if [ -d "$LOGS/run" ]; then
		tool_ok check "$TRACE" check "$LOGS/run"
		tool_ok dump "$TRACE" dump "$LOGS/run"
		# replay: a recording that ended with exit 0
		if [ $rc = 0 ] && [ $MODE = record ]; then
			"$PANGAEA" -replay -logdir "$LOGS/run" -out "$R/rep" >"$R/rep.out" 2>"$R/rep.err"
			rrc=$?
			if [ $rrc != 0 ]; then
				violation "its replay: exit $rrc: $(tail -1 "$R/rep.err")"
			elif ! cmp -s "$R/out" "$R/rep.out"; then
				violation "its replay printed other lines"
			elif ! "$TRACE" verify "$LOGS/run" "$R/rep" >"$R/verify" 2>&1; then
				violation "verify: $(head -1 "$R/verify")"
			else
				REPL[$KIND]=$((REPL[$KIND] + 1))
			fi
			nothing_left
		fi
		tool_ok import "$TRACE" import "$LOGS/run"
	fi
	if [ -n "$MNT" ]; then umount -l "$MNT"; MNT=; fi
	[ $V -gt 0 ] && { VIOL[$KIND]=$((VIOL[$KIND] + V)); TOTAL_V=$((TOTAL_V + V));
		sed 's/^/    | /' "$R/err" | tail -8; }
	rm -rf "$R"
done

# delivered: the fault struck (else the run had ended); early: in the
# first 300 ms; exit 0: the run went on to its end (a stop, a late
# fault); stopped: ended otherwise; replayed: exit-0 recordings whose
# replay was identical
printf '\n%-14s %5s %9s %6s %7s %8s %9s %10s\n' fault runs delivered early \
	"exit 0" stopped replayed violations
for k in "${KINDS[@]}"; do
	printf '%-14s %5d %9d %6d %7d %8d %9d %10d\n' "$k" "${N[$k]}" \
		"${DELIV[$k]}" "${EARLY[$k]}" "${OK0[$k]}" "${STOPPED[$k]}" \
		"${REPL[$k]}" "${VIOL[$k]}"
done
echo "soak: $RUNS runs, $TOTAL_V violations (first seed $SEED0)"
[ $TOTAL_V = 0 ]
