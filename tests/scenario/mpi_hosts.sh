# MPI ranks on several hosts (issue 25): two hosts of scripts/hosts.sh,
# Open MPI's mpirun (run here) starting its orted on h1 and h2 through
# the hosts' rsh (plm_rsh_agent=scripts/pvm-rsh), ranks talking TCP over
# the veths.  examples/mpi/workers with 2 ranks a host, logging into a
# folder all hosts share (as NFS would), is recorded, replayed twice
# (with -delay 1000) printing the recording's result, verified
# identical, its logs naming each rank's host; the live view (-view)
# streams every rank's events of both hosts.  A log folder the hosts
# do not share (each host's /tmp is its own) is refused by the ranks in
# one line each, naming the host, and the run ends non-zero with nothing
# left running there.
. "$(dirname "$0")/../lib.sh"
W=$B/examples/mpi/workers
if ! command -v mpirun >/dev/null || [ ! -x "$W" ]; then
	skip "MPI ranks on several hosts" "no mpirun or examples/mpi not built (Open MPI: scripts/install-deps.sh)"
	finish; exit
fi
if ! hosts_up 2; then
	finish; exit
fi
NET=10.77.${PANGAEA_HOSTS_CLUSTER:-0}.0/24
MPIRUN=(mpirun --allow-run-as-root --oversubscribe
	-mca plm_rsh_agent "$TOP/scripts/pvm-rsh"
	-mca oob_tcp_if_include "$NET" -mca btl_tcp_if_include "$NET"
	--host h1:2,h2:2 -np 4)
S=$HD/shared/mpi-$$
mkdir -p "$S"

pg -log -logdir "$S/rec" "${MPIRUN[@]}" "$W" 2
expect_eq "record on h1 and h2: exit 0" "$(cat rc)" 0
cp out rec.out
expect_grep "the program printed its orders" rec.out "^result: sum=[0-9]+ recv:"
expect_grep "the launcher counts the events of 4 ranks" err "recorded [0-9]+ events of 4 ranks"
$TRACE dump "$S/rec" | grep '^task [1-4] ' | awk '{print $2, $4}' >hosts.txt
expect_eq "the logs name each rank's host" "$(tr '\n' ' ' <hosts.txt)" "1 h1 2 h1 3 h2 4 h2 "
cp out "$S/rec.out"
expect_eq "2 replays (-delay 1000) print the recording's result, verify identical" \
	"$(replays_identical "$S/rec" 2 1000)" 2

# the live view of ranks on both hosts: the launcher's log follower
# reads every rank's log in the shared folder; a reader on the socket
# stands in for the viewer
if command -v sqlite3 >/dev/null; then
	mkdir -m 700 sock
	live_reader "$T/sock/live.sock" live.stream
	PANGAEA_LIVE=$T/sock/live.sock pg -log -view -logdir "$S/live" "${MPIRUN[@]}" "$W" 2
	wait "$READER"
	expect_eq "live view of h1 and h2: exit 0" "$(cat rc)" 0
	$TRACE import "$S/live" >/dev/null
	expect_eq "live: the stream has every event of both hosts' ranks, rank by rank and kind by kind" \
		"$(awk '$1 == "E" { print $2, $3 }' live.stream | sort | uniq -c)" \
		"$(sqlite3 "$S/live/trace.db" "SELECT ltid || ' ' || kind FROM events" |
			sort | uniq -c)"
	expect_eq "live: ranks 1-4 in the stream" \
		"$(awk '$1 == "E" { print $2 }' live.stream | sort -u | tr '\n' ' ')" "1 2 3 4 "
else
	skip "the live view of ranks on both hosts" "no sqlite3"
fi

# a folder of this machine's /tmp: each host has its own /tmp
L=$(mktemp -d /tmp/pg-mpihosts.XXXXXX)
pg -log -logdir "$L/rec" "${MPIRUN[@]}" "$W" 2
[ "$(cat rc)" != 0 ] && pass "a log folder the hosts do not share: exit $(cat rc)" ||
	fail "a log folder the hosts do not share: exit 0"
expect_grep "the ranks on h1 say why" err "^pangaea: MPI rank cannot join the run: the log folder $L/rec on host h1 is not the launcher's \(no task-0.exec there\): ranks on other hosts need a -logdir on storage all hosts share$"
expect_grep "the ranks on h2 say why" err "on host h2 is not the launcher's"
rm -rf "$L"
for h in h1 h2; do
	left=$(host_pids "$h" workers; host_pids "$h" orted)
	expect_eq "nothing of the run left on $h" "$left" ""
done
rm -rf "$S"
hosts_end
expect_no_leftovers
finish
