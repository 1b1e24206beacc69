# MPI programs under MPICH (issue 25): the same binding built against
# MPICH 4.0 (libpangaea-mpich.so) and Hydra's mpiexec.  examples/mpi's
# workers (wildcard receives, an iprobe loop, Waitany, Testsome), built
# with mpicc.mpich, recorded with 4 ranks, replayed 3 times (with
# -delay 1000) printing the recording's result, verify identical, races
# listing the racing receives; crash's recorded crash of rank 0 crashes
# again on replay (with -delay: the ranks MPICH killed without an end
# record wait for their kill where their logs end); deadlock's ranks
# named; a program of one MPI started by the other's launcher, and one
# linked with an MPI library neither (a libmpi.so.12), refused in one
# line.  Nothing of MPICH left running.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/../lib.sh"

# an MPI library the binding is not built for (a libmpi.so.12, as Intel
# MPI's or MVAPICH's): refused in one line that names it and the others
mkdir other
echo 'int MPI_Init(int *c, char ***v) { return 0; }' >other/mpi.c
echo 'int MPI_Init(int *c, char ***v); int main(int c, char **v) { return MPI_Init(&c, &v); }' >other/prog.c
gcc -shared -fPIC -Wl,-soname,libmpi.so.12 -o other/libmpi.so.12 other/mpi.c &&
	gcc -o other/prog other/prog.c -L other -l:libmpi.so.12 -Wl,-rpath,"$PWD/other"
pg -log -logdir bad0 mpirun -np 2 other/prog
expect_eq "an unsupported MPI library: exit 1" "$(cat rc)" 1
expect_eq "... said in one line" "$(cat err)" "pangaea: error: other/prog is linked with libmpi.so.12, an MPI library Pangaea does not support: Open MPI 4 (libmpi.so.40) and MPICH 4 (libmpich.so.12) are"

if ! command -v mpicc.mpich >/dev/null || ! command -v mpiexec.mpich >/dev/null ||
	[ ! -e "$B/lib/pangaea/libpangaea-mpich.so" ]; then
	skip "MPICH programs" "no mpicc.mpich or libpangaea-mpich.so (MPICH: scripts/install-deps.sh)"
	finish; exit
fi
for p in workers crash deadlock; do
	mpicc.mpich -O2 -o "$p" "$SRC/examples/mpi/$p.c" ||
		{ fail "mpicc.mpich cannot build $p"; finish; exit; }
done
MPIEXEC=(mpiexec.mpich -n 4)

pg -log -logdir rec "${MPIEXEC[@]}" ./workers 3
expect_eq "record: exit 0" "$(cat rc)" 0
cp out rec.out
expect_grep "the program printed its orders" rec.out "^result: sum=[0-9]+ recv:"
expect_grep "the launcher counts the events of 4 ranks" err "recorded [0-9]+ events of 4 ranks"
expect_grep "the spawn recorded is Hydra's" rec/task-0.exec "mpiexec"
expect_eq "3 replays (-delay 1000) print the recording's result, verify identical" \
	"$(replays_identical rec 3 1000)" 3
$TRACE races rec >races
expect_grep "races lists the racing wildcard receives" races "task 1 event [0-9]+ [a-z_A-Z]+ got [0-9]+:[0-9]+ tag 1; alternatives: [0-9]+:"
$TRACE dump rec >dump
expect_grep "dump shows a Testsome's outcome" dump "MPI_Testsome\(of 3 requests\) = [1-3]"

# a crash of rank 0 on one order: caught, named, replayed
crash=$(record_crash "${MPIEXEC[@]}" ./crash)
if [ -z "$crash" ]; then
	fail "no crash in 6 recordings"
else
	expect_grep "the launcher names the crashed rank" crash.err "rank 0 \(task 1\) was killed by signal 11 \(Segmentation fault\)"
	pg -replay -logdir "$crash" -out crep -delay 2000
	expect_eq "crash replay: exit 2" "$(cat rc)" 2
	expect_grep "crash replay: rank 0 crashes again" err "the replay crashed as recorded \(signal 11"
fi

# a deadlock: every rank named in its call
pg -log -logdir dl mpiexec.mpich -n 3 ./deadlock
expect_eq "deadlock: exit 3" "$(cat rc)" 3
expect_grep "deadlock: rank 0 in its receive" err "rank 0 \(task 1\) in MPI_Recv\(from=[12], tag=3\)"
expect_grep "deadlock: a worker in MPI_Barrier" err "rank [12] \(task [23]\) in MPI_Barrier"

# one MPI's program under the other's launcher
if command -v mpirun.openmpi >/dev/null; then
	pg -log -logdir bad1 mpirun.openmpi --allow-run-as-root -np 2 ./workers
	expect_eq "an MPICH program under Open MPI's mpirun: exit 1" "$(cat rc)" 1
	expect_grep "... said in one line" err "^pangaea: error: ./workers is linked with MPICH, but .* is Open MPI's launcher: run it with mpiexec.mpich$"
	expect_eq "... one line" "$(wc -l <err)" 1
fi
expect_no_leftovers
finish
