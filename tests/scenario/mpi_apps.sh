# MPI programs not written for Pangaea (issue 25): NetPIPE's NPmpi
# (Debian netpipe-openmpi: /usr/bin/NPopenmpi, unmodified; 2 ranks,
# receives with MPI_ANY_SOURCE (-z), preposted Irecvs (-a), sizes up to
# 64 bytes, 20 repeats each) and an mpi4py program after mpi4py's
# compute-pi demo (examples/mpi/cpi.py: chunks handed out on demand,
# partial sums taken with ANY_SOURCE into a buffer, an allreduce; its
# sum's last digits follow the order).  Each is recorded, replayed three
# times (the last with -delay 1000) printing the recording's results
# (NetPIPE's table, its times included: the clock is replayed), and
# pangaea-trace verify calls each replay identical.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/../lib.sh"
if ! command -v mpirun >/dev/null; then
	skip "MPI programs" "no mpirun (Open MPI: scripts/install-deps.sh)"
	finish; exit
fi

# replays3 WHAT DIR: replays DIR three times (the last with -delay
# 1000); each exits 0, its result (what the function result prints)
# is the recording's, and verify calls it identical
replays3() {
	local what=$1 dir=$2 j d
	for j in 1 2 3; do
		d=; [ "$j" = 3 ] && d="-delay 1000"
		rm -f np.out
		pg -replay -logdir "$dir" -out "${dir}rep$j" $d
		expect_eq "$what replay $j${d:+ ($d)}: exit 0" "$(cat rc)" 0
		result >"$dir.now"
		cmp -s "$dir.now" "$dir.result" && pass "$what replay $j prints the recording's result" ||
			{ fail "$what replay $j prints another result"; diff "$dir.result" "$dir.now" | head -4; }
		$TRACE verify "$dir" "${dir}rep$j" >v
		expect_grep "$what: verify replay $j identical" v "^identical"
	done
}

NP=/usr/bin/NPopenmpi
if [ -x "$NP" ]; then
	result() { cat np.out; }
	pg -log -logdir np mpirun --allow-run-as-root --oversubscribe -np 2 "$NP" -u 64 -p 0 -n 20 -z -a -o "$T/np.out"
	expect_eq "NPmpi record: exit 0" "$(cat rc)" 0
	expect_grep "NPmpi wrote its table" np.out "^ +64 +[0-9.]+ +[0-9.]+$"
	result >np.result
	$TRACE dump np >np.dump
	expect_grep "NPmpi's wildcard receives are recorded" np.dump "recv from=2 .*tag=1 "
	expect_grep "NPmpi's Irecv completions are recorded" np.dump "MPI_Wait\(of 1 requests\) = 1"
	replays3 NPmpi np
else
	skip "NPmpi" "no $NP (Debian netpipe-openmpi: scripts/install-deps.sh)"
fi

if /usr/bin/python3 -c 'import mpi4py' 2>/dev/null; then
	result() { cat out; }
	pg -log -logdir cpi mpirun --allow-run-as-root --oversubscribe -np 4 /usr/bin/python3 "$SRC/examples/mpi/cpi.py" 20000 12
	expect_eq "mpi4py cpi record: exit 0" "$(cat rc)" 0
	expect_grep "cpi printed its order" out "^cpi: order [1-3]{12} sum 3\.14159"
	expect_grep "cpi printed pi" out "^cpi: pi 3\.14159"
	result >cpi.result
	$TRACE races cpi >cpi.races
	expect_grep "races: cpi's partial sums race" cpi.races "task 1 event [0-9]+ MPI_Recv got [2-4]:[0-9]+ tag 2; alternatives"
	replays3 "mpi4py cpi" cpi
else
	skip "mpi4py cpi" "no python3-mpi4py (scripts/install-deps.sh)"
fi
expect_no_leftovers
finish
