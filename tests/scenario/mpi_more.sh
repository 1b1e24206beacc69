# MPI programs, issue 25's follow-ups: examples/mpi/timed decides its
# work from MPI_Wtime and prints elapsed times and a gettimeofday read;
# its replays (one with -delay 1000) print the recording's lines, the
# clock reads replayed (dump shows them).  Nothing of Open MPI left.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/../lib.sh"
TM=$B/examples/mpi/timed
if ! command -v mpirun >/dev/null || [ ! -x "$TM" ]; then
	skip "MPI programs" "no mpirun or examples/mpi not built (Open MPI: scripts/install-deps.sh)"
	finish; exit
fi
MPIRUN=(mpirun --allow-run-as-root --oversubscribe -np 4)

# MPI_Wtime and the libc clock reads of the ranks
pg -log -logdir wt "${MPIRUN[@]}" "$TM" 20
expect_eq "timed record: exit 0" "$(cat rc)" 0
cp out wt.out
expect_grep "timed printed its elapsed time" wt.out "^total: 0\.[0-9]{9} s$"
$TRACE dump wt >wt.dump
expect_grep "dump shows MPI_Wtime's reads" wt.dump "time MPI_Wtime = "
expect_grep "dump shows rank 0's gettimeofday" wt.dump "time gettimeofday = "
for j in 1 2; do
	d=; [ "$j" = 2 ] && d="-delay 1000"
	pg -replay -logdir wt -out "wtrep$j" $d
	expect_eq "timed replay $j${d:+ ($d)}: exit 0" "$(cat rc)" 0
	cmp -s out wt.out && pass "timed replay $j prints the recording's lines" ||
		{ fail "timed replay $j prints other lines"; diff wt.out out | head -6; }
done
expect_no_leftovers
finish
