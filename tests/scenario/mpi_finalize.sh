# No false deadlock at an MPI run's end (issue 25): ranks that are all
# in MPI_Finalize are not deadlocked, however long Open MPI takes there
# (its fence needs mpirun, which a loaded machine may not run for a
# second).  An mpi4py program's ranks meet in a barrier, rank 0 says so
# in a file, and they call MPI_Finalize half a second later; mpirun is
# stopped for 3 s meanwhile, so the ranks wait in MPI_Finalize longer
# than the launcher's deadlock check waits (1 s): the run must end well,
# exit 0, no deadlock said.  A rank blocked in a receive while the
# others wait in MPI_Finalize still is a deadlock (exit 3, the rank and
# its call named).
. "$(dirname "$0")/../lib.sh"
PY=/usr/bin/python3 # (Debian's, with python3-mpi4py; not a pyenv's)
if ! command -v mpirun >/dev/null || ! "$PY" -c 'import mpi4py' 2>/dev/null; then
	skip "MPI_Finalize is no deadlock" "no mpirun or mpi4py (scripts/install-deps.sh)"
	finish; exit
fi
MPIRUN=(mpirun --allow-run-as-root --oversubscribe -np 3)
cat >fin.py <<EOF
# a barrier, then MPI_Finalize half a second after rank 0 said so
import time
from mpi4py import MPI
c = MPI.COMM_WORLD
c.Barrier()
if c.Get_rank() == 0:
    open("$T/ready", "w").close()
time.sleep(0.5)
EOF
"$PANGAEA" -log -logdir fin "${MPIRUN[@]}" "$PY" fin.py >out 2>err &
lp=$!
for i in $(seq 600); do [ -e ready ] && break; sleep 0.05; done
[ -e ready ] && pass "the ranks met" || fail "the ranks did not meet in 30 s"
mr=$(pgrep -P "$lp" | head -1)
kill -STOP "$mr" 2>/dev/null
sleep 3
kill -CONT "$mr" 2>/dev/null
wait "$lp"
expect_eq "a slow MPI_Finalize: exit 0" "$?" 0
grep -q deadlock err && fail "a slow MPI_Finalize was called a deadlock: $(head -3 err)" ||
	pass "a slow MPI_Finalize is not a deadlock"
expect_grep "the run was recorded" err "recorded [0-9]+ events of 3 ranks"

# one rank in a receive that nothing will match, the others in
# MPI_Finalize: a deadlock
cat >stuck.py <<'EOF'
# rank 0 waits for a message no one sends; the others end
from mpi4py import MPI
c = MPI.COMM_WORLD
if c.Get_rank() == 0:
    c.recv(source=1, tag=9)
EOF
pg -log -logdir stuck "${MPIRUN[@]}" "$PY" stuck.py
expect_eq "a rank stuck while the others end: exit 3" "$(cat rc)" 3
expect_grep "the stuck rank is named" err "rank 0 \(task 1\) in MPI_(Recv|Probe)\(from=1, tag=9\)"
expect_grep "the others are in MPI_Finalize" err "rank 2 \(task 3\) in MPI_Finalize"
expect_no_leftovers
finish
