# MPI programs, issue 25's follow-ups: examples/mpi/timed decides its
# work from MPI_Wtime and prints elapsed times and a gettimeofday read;
# its replays (one with -delay 1000) print the recording's lines, the
# clock reads replayed (dump shows them).  Fortran: examples/mpi/fworkers
# (mpif.h: wildcard receives, an iprobe loop, Waitany) and fusempi (`use
# mpi`: persistent requests, Testsome) and f08workers (`use mpi_f08`:
# an iprobe loop, Testsome, Waitany) recorded through the Fortran entry
# points and replayed identically.  Persistent requests with
# wildcard receives (examples/mpi/persist: Start + Test loop, Startall +
# Waitsome) replayed twice printing the recording's order; the
# non-blocking collectives (examples/mpi/nbcoll) as events, replayed;
# matched probes and receives (examples/mpi/mprobe), MPI_Imrecv's too;
# one tag in five communicators (examples/mpi/contexts: a dup, a split,
# an idup, a create_group's) matched per
# communicator; an intercommunicator of MPI_Intercomm_create
# (examples/mpi/intercomm), and one of MPI_Comm_connect/accept
# (examples/mpi/connect).
# MPI_Comm_spawn (examples/mpi/spawn): the spawned ranks logged as
# children of their spawner, the intercommunicator's wildcard receives
# recorded, listed as races and replayed three times; a spawned rank's
# crash named and crashing again in replay.  Nothing of Open MPI left.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/../lib.sh"
TM=$B/examples/mpi/timed
if ! command -v mpirun >/dev/null || [ ! -x "$TM" ]; then
	skip "MPI programs" "no mpirun or examples/mpi not built (Open MPI: scripts/install-deps.sh)"
	finish; exit
fi
MPIRUN=(mpirun --allow-run-as-root --oversubscribe -np 4)

# replays WHAT DIR [N]: replays the recording DIR N times (default 2; the
# last with -delay 1000): each exits 0, prints the recording's output
# (DIR.out) and verify calls it identical
replays() {
	local what=$1 dir=$2 n=${3:-2} j d
	for j in $(seq "$n"); do
		d=; [ "$j" = "$n" ] && d="-delay 1000"
		pg -replay -logdir "$dir" -out "${dir}rep$j" $d
		expect_eq "$what replay $j${d:+ ($d)}: exit 0" "$(cat rc)" 0
		cmp -s out "$dir.out" && pass "$what replay $j prints the recording's lines" ||
			{ fail "$what replay $j prints other lines"; diff "$dir.out" out | head -4; }
		$TRACE verify "$dir" "${dir}rep$j" >v
		expect_grep "$what: verify replay $j identical" v "^identical"
	done
}

# MPI_Wtime and the libc clock reads of the ranks
pg -log -logdir wt "${MPIRUN[@]}" "$TM" 20
expect_eq "timed record: exit 0" "$(cat rc)" 0
cp out wt.out
expect_grep "timed printed its elapsed time" wt.out "^total: 0\.[0-9]{9} s$"
$TRACE dump wt >wt.dump
expect_grep "dump shows MPI_Wtime's reads" wt.dump "time MPI_Wtime = "
expect_grep "dump shows rank 0's gettimeofday" wt.dump "time gettimeofday = "
replays timed wt
# persistent requests: a wildcard persistent receive restarted and
# polled, persistent sends, Startall + Waitsome
pg -log -logdir ps "${MPIRUN[@]}" "$B/examples/mpi/persist" 4
expect_eq "persistent record: exit 0" "$(cat rc)" 0
cp out ps.out
expect_grep "persistent: the master printed its orders" ps.out "^result: sum=[0-9]+ start/test:( [1-3]){12} startall:( [0-2]<[1-3]){3}$"
$TRACE dump ps >ps.dump
expect_grep "persistent: the started receives are recorded" ps.dump "recv from=[2-4] .* tag=7 .*via=MPI_Test"
expect_grep "persistent: the started sends are recorded" ps.dump "send to=1 tag=7"
replays persistent ps

# the non-blocking collectives: events when started, their requests'
# outcomes replayed (Waitany's choice between a barrier and a receive)
pg -log -logdir nb "${MPIRUN[@]:0:3}" -np 3 "$B/examples/mpi/nbcoll"
expect_eq "non-blocking collectives record: exit 0" "$(cat rc)" 0
cp out nb.out
expect_grep "nbcoll printed its sum and order" nb.out "^sum 6; first done: (barrier|receive); from rank 1$"
$TRACE dump nb >nb.dump
for c in Iallreduce Ibarrier Ibcast; do
	expect_eq "MPI_$c is an event of every rank" \
		"$(grep -c "call MPI_$c(root=" nb.dump)" 3
done
replays "non-blocking collectives" nb

# communicators as contexts: one tag in the world, a dup, a split, an
# idup and a create_group's, received the other way round; every
# receive matched with its own communicator's send (their lengths
# differ by communicator)
pg -log -logdir cx "${MPIRUN[@]}" "$B/examples/mpi/contexts"
expect_eq "contexts record: exit 0" "$(cat rc)" 0
cp out cx.out
expect_grep "contexts: the create_group's messages first" cx.out "^group:( [1-3]\(5\)){3}$"
expect_grep "contexts: the idup's next" cx.out "^idup:( [1-3]\(4\)){3}$"
expect_eq "contexts: each receive matched with its communicator's send" \
	"$($TRACE sql cx "SELECT count(*), sum(s.len = r.len) FROM messages m
		JOIN events s ON s.id = m.send_event JOIN events r ON r.id = m.recv_event")" "15|15"
replays contexts cx

# an intercommunicator of MPI_Intercomm_create (evens and odds): its
# wildcard receives recorded with the senders' ltids, replayed
pg -log -logdir ic "${MPIRUN[@]:0:3}" -np 6 "$B/examples/mpi/intercomm"
expect_eq "intercomm record: exit 0" "$(cat rc)" 0
cp out ic.out
expect_grep "intercomm printed the remote senders" ic.out "^from remote ranks:( [0-2]){6}$"
$TRACE dump ic >ic.dump
expect_eq "intercomm: rank 0 received from the odd ranks' ltids" \
	"$(sed -n '/^task 1 /,/^task 2 /p' ic.dump | sed -n 's/.* recv from=\([0-9]*\) .*tag=5 .*/\1/p' | sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')" "2x2 4x2 6x2 "
replays intercomm ic

# an intercommunicator of MPI_Comm_accept/MPI_Comm_connect between the
# world's halves (the port name sent in a message): the second half's
# messages taken from MPI_ANY_SOURCE are recorded with the senders'
# ltids, and replayed three times
pg -log -logdir cn "${MPIRUN[@]}" "$B/examples/mpi/connect"
expect_eq "connect/accept record: exit 0" "$(cat rc)" 0
cp out cn.out
expect_grep "connect printed the remote senders" cn.out "^from remote ranks:( [01]){6}; sum [0-9]+$"
$TRACE dump cn >cn.dump
expect_eq "connect: rank 0 received from the second half's ltids" \
	"$(sed -n '/^task 1 /,/^task 2 /p' cn.dump | sed -n 's/.* recv from=\([0-9]*\) .*tag=5 .*via=MPI_Recv .*/\1/p' | sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')" "3x3 4x3 "
expect_eq "connect: the second half's answers are receives from task 1" \
	"$(grep -c ' recv from=1 .*tag=6 ' cn.dump)" 2
replays connect cn 3

# matched probes: MPI_Improbe + MPI_Imrecv, MPI_Mprobe + MPI_Mrecv
pg -log -logdir mp "${MPIRUN[@]}" "$B/examples/mpi/mprobe"
expect_eq "matched probes record: exit 0" "$(cat rc)" 0
cp out mp.out
expect_grep "mprobe printed the senders' order" mp.out "^order:( [1-3]){6}$"
$TRACE dump mp >mp.dump
expect_eq "every message received is a receive event (Imrecv's too)" \
	"$(sed -n '/^task 1 /,/^task 2 /p' mp.dump | grep -c ' recv from=[2-4] .*tag=5 .*via=MPI_Recv')" 6
replays "matched probes" mp

# Fortran: mpif.h, `use mpi` and `use mpi_f08` through the binding's
# Fortran entries
FW=$B/examples/mpi/fworkers
if [ -x "$FW" ]; then
	pg -log -logdir fw "${MPIRUN[@]}" "$FW" 3
	expect_eq "Fortran record: exit 0" "$(cat rc)" 0
	cp out fw.out
	expect_grep "Fortran: the master printed its orders" fw.out "^result: sum=[0-9]+ recv:( [1-3]){9} waitany:"
	$TRACE dump fw >fw.dump
	expect_grep "Fortran: the wildcard receives are recorded" fw.dump "recv from=[2-4] .* tag=2 .*via=MPI_Recv"
	expect_grep "Fortran: the failed iprobes are recorded" fw.dump "pollfail count="
	expect_grep "Fortran: Waitany's outcomes are recorded" fw.dump "MPI_Waitany\(of 3 requests\) = 1"
	replays Fortran fw
	pg -log -logdir fu "${MPIRUN[@]}" "$B/examples/mpi/fusempi"
	expect_eq "use mpi record: exit 0" "$(cat rc)" 0
	cp out fu.out
	expect_grep "use mpi: Testsome's completions printed" fu.out "^testsome:( [1-6]<[1-3]){6}$"
	replays "use mpi" fu 1
	# `use mpi_f08`: its library calls libmpi_mpifh's ompi_*_f and
	# pmpi_test*_ / pmpi_iprobe_, which the binding has too
	pg -log -logdir f8 "${MPIRUN[@]}" "$B/examples/mpi/f08workers" 3
	expect_eq "use mpi_f08 record: exit 0" "$(cat rc)" 0
	cp out f8.out
	expect_grep "mpi_f08: the master printed its orders" f8.out \
		"^result: sum=[0-9]+ recv:( [1-3]){9} testsome:( [1-3]<[1-3]){3} waitany:( [1-3]<[1-3]){3}$"
	$TRACE dump f8 >f8.dump
	expect_grep "mpi_f08: the wildcard receives are recorded" f8.dump "recv from=[2-4] .* tag=2 .*via=MPI_Recv"
	expect_grep "mpi_f08: the failed iprobes are recorded" f8.dump "pollfail count="
	expect_grep "mpi_f08: Testsome's outcomes are recorded" f8.dump "MPI_Testsome\(of 3 requests\)"
	expect_grep "mpi_f08: Waitany's outcomes are recorded" f8.dump "MPI_Waitany\(of 3 requests\) = 1"
	replays "use mpi_f08" f8
else
	skip "Fortran MPI programs" "no mpif90 (gfortran: scripts/install-deps.sh)"
fi
# MPI_Comm_spawn: rank 0 of 2 starts 2 workers, which answer through the
# intercommunicator; rank 0 takes the answers with MPI_ANY_SOURCE
pg -log -logdir sp mpirun --allow-run-as-root --oversubscribe -np 2 "$B/examples/mpi/spawn" 2 4
expect_eq "spawn record: exit 0" "$(cat rc)" 0
cp out sp.out
expect_grep "spawn printed its order" sp.out "^spawn: 2 workers, order( [01]{2}){4} sum [0-9]+$"
[ -s sp/task-1001.comm ] && [ -s sp/task-1002.comm ] &&
	pass "the spawned ranks log as tasks 1001 and 1002 (children of task 1)" ||
	fail "no logs of the spawned ranks: $(ls sp | tr '\n' ' ')"
$TRACE dump sp >sp.dump
expect_grep "dump: task 1's spawn names its children" sp.dump "spawn #1 started=2 2 x .*spawn -> 1001@[^ ]+ 1002@"
expect_grep "dump: a spawned rank's parent is its spawner" sp.dump "^task 1002 .*parent 1,"
expect_grep "dump: the intercommunicator's wildcard receives are recorded" sp.dump "recv from=100[12] .* tag=2 "
$TRACE races sp >sp.races
expect_grep "races: the answers of the spawned ranks race" sp.races "task 1 event [0-9]+ MPI_Recv got 100[12]:[0-9]+ tag 2; alternatives: 100[12]:"
replays spawn sp 3
# a spawned rank's crash is named, and crashes again in replay
pg -log -logdir spc mpirun --allow-run-as-root --oversubscribe -np 1 "$B/examples/mpi/spawn" 2 3 crash
expect_eq "spawned rank's crash: exit 2" "$(cat rc)" 2
expect_grep "spawned rank's crash: named" err "spawned task 1002 was killed by signal 11"
pg -replay -logdir spc -out spcr
expect_eq "spawned rank's crash replayed: exit 2" "$(cat rc)" 2
expect_grep "spawned rank's crash replayed: said" err "the replay crashed as recorded \(signal 11"
expect_no_leftovers
finish
