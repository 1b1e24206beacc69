# A run stopped from outside its tasks says why last: after SIGTERM or
# SIGINT to the launcher, or the death of the coordinator or of the pvmd,
# the launcher's last line names that cause ("the run was stopped:
# interrupted (SIGTERM)", "... the coordinator died"), not the death of a
# task it caused; exit 2 within seconds, nothing left running.
. "$(dirname "$0")/../lib.sh"
S=$B/examples/sor

# the pid of this test's process running PROGRAM (argv[0]), or nothing
pid_of() { test_pids -x "$1" | head -1; }

for what in SIGTERM SIGINT coordinator pvmd; do
	rm -rf rec
	"$PANGAEA" -log -logdir rec "$S" 4 160 20000 >out 2>err &
	lpid=$!
	for i in $(seq 100); do # until every task logs
		sleep 0.1
		[ "$(ls rec/task-*.comm 2>/dev/null | wc -l)" = 4 ] && break
	done
	sleep 0.3
	case $what in
	SIG*) kill -"${what#SIG}" $lpid; want="interrupted \\($what\\)" ;;
	coordinator) kill -9 "$(pid_of "$B/bin/pangaea-coord")"
		want="the coordinator died" ;;
	pvmd) kill -9 "$(pid_of /usr/bin/pvmd)"
		want="the PVM daemon was lost" ;;
	esac
	t0=$(date +%s)
	# (bounded: a launcher that hangs is killed by the test's cleanup)
	for i in $(seq 300); do kill -0 $lpid 2>/dev/null || break; sleep 0.1; done
	kill -0 $lpid 2>/dev/null && { fail "$what: still running after 30 s"; kill -9 $lpid; }
	wait $lpid
	expect_eq "$what: exit 2" "$?" 2
	[ $(( $(date +%s) - t0 )) -le 20 ] && pass "$what: ended within 20 s" ||
		fail "$what: took $(( $(date +%s) - t0 )) s"
	last=$(tail -1 err)
	[[ $last =~ ^pangaea:\ error:\ the\ run\ was\ stopped:\ $want$ ]] &&
		pass "$what: the last line names the cause" ||
		{ fail "$what: last line: $last"; sed 's/^/    | /' err; }
	expect_no_leftovers
done

# A kill in the launcher's first moments, while it still reads the logs
# and checks the program (a replay reads more): told as an interrupt
# too, never the silent exit 143 of a death by the signal.  From the
# moment the launcher catches SIGTERM (its SigCgt in /proc: before that
# the loader and a sanitizer's runtime start, as in any program), a kill
# at 0-100 ms lands before, in or after that start-up, each alike.
"$PANGAEA" -log -logdir early "$S" 2 20 20 >out 2>err
expect_eq "early: the recording to replay" "$?" 0
# catches_term PID: whether PID has a handler for SIGTERM (15: bit 14)
catches_term() {
	local m
	m=$(sed -n 's/^SigCgt:\t*//p' "/proc/$1/status" 2>/dev/null)
	[ -n "$m" ] && (( (16#$m >> 14) & 1 ))
}
bad=0
for ms in 0 10 20 40 60 100; do
	rm -rf early.r
	"$PANGAEA" -replay -logdir early -out early.r >out 2>err &
	lpid=$!
	for i in $(seq 2000); do
		catches_term $lpid && break
		kill -0 $lpid 2>/dev/null || break
		sleep 0.005
	done
	sleep "0.$(printf %03d "$ms")"
	kill -TERM $lpid 2>/dev/null
	for i in $(seq 300); do kill -0 $lpid 2>/dev/null || break; sleep 0.1; done
	kill -0 $lpid 2>/dev/null && kill -9 $lpid
	wait $lpid
	rc=$?
	last=$(tail -1 err)
	# (a replay that was over before the kill ends 0)
	if ! { [ $rc = 0 ] || { [ $rc = 2 ] &&
		[[ $last =~ ^pangaea:\ error:\ the\ run\ was\ stopped:\ interrupted\ \(SIGTERM\) ]]; }; }; then
		bad=$((bad + 1))
		echo "   kill at $ms ms: exit $rc, last line: $last"
	fi
done
expect_eq "early: 6 kills in the first 100 ms, each told (exit 2, the cause last)" "$bad" 0
expect_no_leftovers
finish
