# A process of the run stopped with SIGSTOP for 5 s in mid-run (a busy
# host, a debugger, a swapped-out process) is no deadlock: a stopped
# process is not blocked, and the messages it or its pvmd holds are in
# flight (docs/INTERNALS.md, "What counts as a deadlock").  For a worker
# of `sor`, its master and the pvmd: after SIGCONT the run goes on, ends
# with exit 0 and prints what a run left alone prints, with no deadlock
# said; the worker's recording replays identically.  (A true deadlock,
# after a pvm_mcast too, is still one: tests/scenario/deadlock.sh.)
. "$(dirname "$0")/../lib.sh"
S=$B/examples/sor
ARGS="4 160 3000"

# sor_pid master|worker: the pid of the run's master (started with its
# arguments) or of its last worker (started with none), or nothing
sor_pid() {
	local p a n
	for p in $(test_pids -x "$S"); do
		n=$(tr '\0' '\n' 2>/dev/null <"/proc/$p/cmdline" | wc -l)
		if [ "$1" = master ] && [ "$n" -gt 1 ]; then a=$p; fi
		if [ "$1" = worker ] && [ "$n" = 1 ]; then a=$p; fi
	done
	echo "${a:-}"
}

# the pid of the pvmd of this test's VM (the launcher's private VM is
# started with the test's PVM_VMID in its environment)
pvmd_pid() { test_pids -x /usr/bin/pvmd | head -1; }

pg -log -logdir plain "$S" $ARGS
expect_eq "a run left alone exits 0" "$(cat rc)" 0
cp out plain.out

for who in worker master pvmd; do
	rm -rf "$who"
	timeout 120 "$PANGAEA" -log -logdir "$who" "$S" $ARGS >out 2>err &
	lpid=$!
	pid=
	for i in $(seq 300); do # until the run's tasks are all up and working
		sleep 0.1
		[ -n "$(sor_pid worker)" ] && [ "$(ls "$who"/task-*.comm 2>/dev/null | wc -l)" = 4 ] &&
			break
	done
	sleep 0.5
	case $who in
	pvmd) pid=$(pvmd_pid) ;;
	*) pid=$(sor_pid "$who") ;;
	esac
	if [ -z "$pid" ]; then
		fail "$who: not found to stop (the run's processes: $(describe_pids $(test_pids) | tr "\n" ";"))"
		wait $lpid
		continue
	fi
	kill -STOP "$pid"
	sleep 5
	kill -0 $lpid 2>/dev/null && pass "$who stopped 5 s: the run still waits" ||
		fail "$who stopped 5 s: the launcher ended: $(cat err)"
	kill -CONT "$pid"
	wait $lpid
	expect_eq "$who stopped 5 s: exit 0" "$?" 0
	grep -q deadlock err && { fail "$who stopped 5 s: called a deadlock:"; cat err; } ||
		pass "$who stopped 5 s: no deadlock said"
	cmp -s out plain.out && pass "$who stopped 5 s: the run's output" ||
		{ fail "$who stopped 5 s: output differs"; diff plain.out out | head -5; }
	expect_no_leftovers
done

cp plain.out worker.out
expect_eq "the worker's recording replays identically" \
	"$(replays_identical worker 1 0)" 1
expect_no_leftovers
finish
