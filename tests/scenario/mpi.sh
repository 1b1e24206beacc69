# MPI programs (issue 25): examples/mpi/workers (wildcard receives, an
# iprobe loop, Waitany, Testsome) recorded through mpirun with 4 ranks,
# replayed 3 times (once with -delay 1000) printing the recording's
# result, verify identical, races listing the racing receives;
# examples/mpi/crash's recorded crash of rank 0 crashes again on replay;
# bad input (a program without MPI, no mpirun, another -np on replay)
# refused in one line.  -debug (gdb -batch at rank 0's first receive),
# -swap (a racing wildcard receive gets the other message; the what-if
# run replays exactly) and -explore on the recording.  Nothing of Open
# MPI left running.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/../lib.sh"
W=$B/examples/mpi/workers C=$B/examples/mpi/crash
if ! command -v mpirun >/dev/null || [ ! -x "$W" ]; then
	skip "MPI programs" "no mpirun or examples/mpi not built (Open MPI: scripts/install-deps.sh)"
	finish; exit
fi
MPIRUN=(mpirun --allow-run-as-root --oversubscribe -np 4)

pg -log -logdir rec "${MPIRUN[@]}" "$W" 3
expect_eq "record: exit 0" "$(cat rc)" 0
cp out rec.out
expect_grep "the program printed its orders" rec.out "^result: sum=[0-9]+ recv:"
expect_grep "the launcher counts the events of 4 ranks" err "recorded [0-9]+ events of 4 ranks"
for j in 1 2 3; do
	d=; [ "$j" = 3 ] && d="-delay 1000"
	pg -replay -logdir rec -out "rep$j" $d
	expect_eq "replay $j${d:+ ($d)}: exit 0" "$(cat rc)" 0
	cmp -s out rec.out && pass "replay $j prints the recording's result" ||
		{ fail "replay $j prints another result"; diff rec.out out | head -4; }
	expect_grep "replay $j: the launcher verified it" err "replay reproduced all [0-9]+ events of 4 ranks"
	$TRACE verify rec "rep$j" >v
	expect_grep "verify: replay $j identical" v "^identical"
done
# the bytes each event takes in the logs (issue 25 asks for the figure)
nev=$($TRACE dump rec | grep -c '^  #')
bytes=$(cat rec/task-*.comm | wc -c)
echo "   log: $bytes bytes for $nev events, $((bytes / nev)) bytes an event (headers included)"

$TRACE races rec >races
expect_grep "races lists the racing wildcard receives" races "task 1 event [0-9]+ MPI_Recv got [0-9]+:[0-9]+ tag 1; alternatives: [0-9]+:"
expect_grep "races lists the racing Testsome receives" races "MPI_Test got .* tag 4; alternatives"
$TRACE check rec >chk 2>&1
expect_grep "check: the logs agree" chk "agree"
$TRACE dump rec >dump
expect_grep "dump shows a Testsome's outcome" dump "MPI_Testsome\(of 3 requests\) = [1-3]"
expect_grep "dump shows failed iprobes" dump "pollfail count=[0-9]+"

# the tools name MPI's calls, not PVM's (logs/format/names.c)
expect_grep "dump: a wildcard receive is an MPI_Recv" dump " recv from=[2-4] .*via=MPI_Recv "
expect_grep "dump: a probe is an MPI_Probe" dump " recv from=[2-4] .*via=MPI_Probe "
expect_grep "dump: a Testsome's receive is an MPI_Test's" dump " recv from=[2-4] .*tag=4 .*via=MPI_Test "
expect_grep "dump: a collective is named as called" dump "call MPI_Barrier\(root=-1, 0 bytes\) = 0"
expect_eq "dump: no PVM call named" "$(grep -c 'pvm_' dump)" 0
$TRACE stats --csv rec >stats.csv
expect_eq "stats: the MPI_Send row counts the sends" \
	"$(awk -F, '$1 == "call" && $2 == "all" && $3 == "MPI_Send" { print $4 }' stats.csv)" \
	"$(grep -c '^  #[0-9]* send ' dump)"
expect_grep "stats: MPI_Recv and MPI_Test/Wait rows" stats.csv "^call,all,MPI_Test/Wait,"
expect_eq "stats: no PVM call named" "$(grep -c 'pvm_' stats.csv)" 0
$TRACE stats rec >stats.txt
expect_grep "stats: the table is of MPI calls" stats.txt "^MPI calls \(times inside the call"
$TRACE export --chrome rec.json rec
expect_grep "Chrome export: slices named MPI_Recv" rec.json '"name":"MPI_Recv","cat":"mpi"'
expect_eq "Chrome export: no PVM call named" "$(grep -c 'pvm_' rec.json)" 0
if command -v otf2-print >/dev/null; then
	$TRACE export --otf2 otf rec
	otf2-print -G otf/traces.otf2 >otf.defs
	expect_grep "OTF2 export: a region MPI_Send" otf.defs 'REGION .*Name: "MPI_Send"'
	expect_grep "OTF2 export: a region MPI_Probe" otf.defs 'REGION .*Name: "MPI_Probe"'
	expect_grep "OTF2 export: the communicator is MPI_COMM_WORLD" otf.defs '"MPI_COMM_WORLD"'
	expect_eq "OTF2 export: no PVM name" "$(grep -ci 'pvm' otf.defs)" 0
fi
# the viewer too (pgdb calls): the details' calls, the histograms' rows
if command -v Xvfb >/dev/null; then
	view_test mpi
	cat >mview.tcl <<'EOF'
set out [open result w]
puts $out "recv $view::CALL(recv) probe $view::CALL(probe)"
puts $out "hists [dict keys [dict get [pgdb hists] calls]]"
close $out
exit 0
EOF
	view -script mview.tcl rec
	expect_eq "viewer on the MPI recording: exit 0" "$(cat vrc)" 0
	expect_grep "viewer: a receive comes from MPI_Recv, a probe MPI_Probe" result "^recv MPI_Recv probe MPI_Probe$"
	expect_grep "viewer: the histograms' rows are MPI calls" result "^hists MPI_Send MPI_Recv "
fi

# a second recording: another order (the failed polls alone differ)
pg -log -logdir rec2 "${MPIRUN[@]}" "$W" 3
$TRACE verify rec rec2 >v2; echo $? >vrc
if cmp -s out rec.out; then
	echo "   (the second recording printed the same orders)"
else
	expect_grep "verify: two recordings differ" v2 "differ"
	[ "$(cat vrc)" != 0 ] && pass "verify: exit non-zero" || fail "verify said 0 on different runs"
fi

# -chaos: the hold-back of a wildcard MPI_Recv picks the sender by the
# seed's priorities; 4 seeds give more than one order, each replayable
for sd in 1 2 3 4; do
	PANGAEA_SEED=$sd pg -log -chaos -logdir "chaos$sd" "${MPIRUN[@]}" "$W" 1
	sed -n 's/.* recv:\([0-9]*\) .*/\1/p' out >>chaos.orders
	[ "$sd" = 1 ] && cp out chaos1.out
done
n=$(sort -u chaos.orders | wc -l)
[ "$n" -ge 2 ] && pass "-chaos: $n orders of the wildcard receives in 4 seeds" ||
	fail "-chaos: one order in 4 seeds: $(tr '\n' ' ' <chaos.orders)"
pg -replay -logdir chaos1 -out chaos1.r
cmp -s out chaos1.out && pass "-chaos recording replays its result" || fail "-chaos recording replays another result"

# mpi4py: Python's matched probes and receives, and iprobes
if /usr/bin/python3 -c 'import mpi4py' 2>/dev/null; then
	PY=$SRC/examples/mpi/workers.py
	pg -log -logdir pyrec "${MPIRUN[@]}" /usr/bin/python3 "$PY" 2
	expect_eq "mpi4py record: exit 0" "$(cat rc)" 0
	cp out pyrec.out
	pg -replay -logdir pyrec -out pyrep -delay 1000
	expect_eq "mpi4py replay (-delay 1000): exit 0" "$(cat rc)" 0
	cmp -s out pyrec.out && pass "mpi4py replay prints the recording's result" ||
		{ fail "mpi4py replay prints another result"; diff pyrec.out out | head -4; }
	expect_grep "mpi4py replay verified" err "replay reproduced all [0-9]+ events of 4 ranks"
else
	skip "mpi4py program" "no python3-mpi4py (scripts/install-deps.sh)"
fi

# a crash of rank 0 on one order: caught, named, replayed
crash=$(record_crash "${MPIRUN[@]}" "$C")
if [ -z "$crash" ]; then
	fail "no crash in 6 recordings"
else
	expect_grep "the launcher names the crashed rank" crash.err "rank 0 \(task 1\) was killed by signal 11 \(Segmentation fault\)"
	for j in 1 2; do
		pg -replay -logdir "$crash" -out "crep$j" -delay 2000
		expect_eq "crash replay $j: exit 2" "$(cat rc)" 2
		expect_grep "crash replay $j: rank 0 crashes again" err "the replay crashed as recorded \(signal 11"
	done
fi

# a replay of another program: the divergence names the rank and event
cp "$W" prog
pg -log -logdir drec "${MPIRUN[@]}" ./prog 1
cp "$C" prog
pg -replay -logdir drec -out drep
expect_eq "a diverging replay: exit 3" "$(cat rc)" 3
# (the first rank to diverge aborts the others: which one says it varies)
expect_grep "the divergence names a rank's task and event" err "replay diverged: task [1-4] \(.*prog on .*\), event 1: the log expects (send to=2 tag=1|MPI_Recv from=1)"
expect_eq "the divergence report names no PVM call" "$(grep -c 'pvm_' err)" 0
expect_grep "the launcher names a diverged rank" err "rank [0-3] \(task [1-4]\) diverged from its recording at event 1"

# a divergence whose abort does not end mpirun (our mpirun stopped once
# the ranks have joined, before they diverge): the launcher stops it 5 s
# after the divergence and exits 3 rather than hang
cat >late.c <<'PROG'
#include <mpi.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	sleep(2);
	MPI_Barrier(MPI_COMM_WORLD); /* (the recording's first is a send) */
	MPI_Finalize();
	return 0;
}
PROG
if mpicc -o prog late.c; then
	t0=$(date +%s)
	timeout 120 "$PANGAEA" -replay -logdir drec -out drep2 >out 2>err & tp=$!
	mp=
	for i in $(seq 300); do
		lp=$(pgrep -P $tp | head -1)
		[ -n "$lp" ] && mp=$(pgrep -P "$lp" -x orterun | head -1)
		[ -n "$mp" ] && [ "$(ls drep2/task-[1-4].comm 2>/dev/null | wc -l)" = 4 ] && break
		sleep 0.1
	done
	[ -n "$mp" ] && kill -STOP "$mp"
	wait $tp; echo $? >rc
	expect_eq "a divergence with mpirun stopped: exit 3" "$(cat rc)" 3
	expect_grep "... the launcher stopped mpirun" err "a rank diverged and mpirun has not ended 5 s later: stopping it"
	[ $(($(date +%s) - t0)) -lt 30 ] && pass "... within $(($(date +%s) - t0)) s" ||
		fail "... only after $(($(date +%s) - t0)) s"
else
	fail "cannot build late.c"
fi

# a deadlock: every rank named in its call; the replay deadlocks the same
pg -log -logdir dl "${MPIRUN[@]:0:3}" -np 3 "$B/examples/mpi/deadlock"
expect_eq "deadlock: exit 3 (as PVM's)" "$(cat rc)" 3
cp out dl.out
expect_grep "deadlock: said" err "deadlock: every rank is blocked:"
expect_grep "deadlock: rank 0 in its receive" err "rank 0 \(task 1\) in MPI_Recv\(from=[12], tag=3\)"
expect_grep "deadlock: a worker in MPI_Barrier" err "rank [12] \(task [23]\) in MPI_Barrier"
pg -replay -logdir dl -out dl.r -delay 1000
expect_eq "deadlock replay: exit 3" "$(cat rc)" 3
cmp -s out dl.out && pass "deadlock replay: the same first worker" || fail "deadlock replay: another first worker"
expect_grep "deadlock replay: the same deadlock" err "rank 0 \(task 1\) in MPI_Recv\(from=$(sed -n 's/first: rank //p' dl.out), tag=3\)"

# mpirun killed: named, the ranks gone with it
"$PANGAEA" -log -logdir killed "${MPIRUN[@]:0:3}" -np 2 "$B/examples/mpi/pingpong" 100000000 >out 2>err &
lp=$!
for i in $(seq 50); do grep -q . killed/task-2.comm 2>/dev/null && break; sleep 0.1; done
sleep 0.5
kill -9 $(pgrep -P "$lp") 2>/dev/null
wait "$lp"
expect_eq "mpirun killed: exit 2" "$?" 2
expect_grep "mpirun killed: said" err "(orterun|mpirun[.a-z]*) was killed by signal 9"

# bad input
pg -log -logdir bad1 "${MPIRUN[@]}" /bin/true
expect_eq "a program without MPI: exit 1" "$(cat rc)" 1
expect_grep "a program without MPI: said" err "/bin/true does not use MPI"
expect_eq "a program without MPI: one line" "$(wc -l <err)" 1
timeout 20 env PATH=/nonexistent "$PANGAEA" -log -logdir bad2 mpirun -np 2 "$W" >out 2>err
expect_eq "no mpirun: exit 1" "$?" 1
expect_grep "no mpirun: said" err "not found.*mpirun"
pg -replay -logdir rec -out bad3 mpirun -np 3 "$W"
expect_eq "replay with -np 3: exit 1" "$(cat rc)" 1
expect_grep "replay with -np 3: said" err "ran 4 ranks; this replay asks for 3"
pg -replay -logdir rec -out bad4 -debug 1:9999
expect_eq "-debug past the recording: exit 1" "$(cat rc)" 1
expect_grep "-debug past the recording: said" err "^pangaea: error: -debug 1:9999: task 1's recording has [0-9]+ event"
pg -log -logdir bad5 -stdin 1 "${MPIRUN[@]}" "$W"
expect_eq "-stdin on an MPI run: exit 1" "$(cat rc)" 1
expect_grep "-stdin on an MPI run: said" err "^pangaea: error: -stdin: not supported for MPI programs yet$"

# the tools of a replay: -debug (rank 0 in gdb before its first
# receive, event 4 after its 3 sends), -swap (its first wildcard
# receive gets the other racing message), -explore
if command -v gdb >/dev/null; then
	printf 'info locals\n' >locals.gdb
	pg -replay -logdir rec -out dbg -debug 1:4 -debug-batch locals.gdb
	expect_eq "-debug 1:4: exit 0" "$(cat rc)" 0
	expect_grep "-debug: the rank stopped before its event 4" err "task 1 stopped before its event 4 \(pid [0-9]+\): gdb -batch"
	expect_grep "-debug: gdb shows the program's frame" err "in master \(size=4, .*workers\.c:[0-9]+"
	expect_grep "-debug: gdb ran the batch file (the locals)" err "^order = \" recv:\""
	expect_grep "-debug: the replay still verified" err "replay reproduced all [0-9]+ events of 4 ranks"
	[ ! -e dbg/debug-1.pid ] && [ ! -e dbg/debug-1.go ] && [ ! -e dbg/debug-1.gdb ] &&
		pass "-debug: no debug files left" || fail "-debug left $(ls dbg | grep debug)"
else
	skip "-debug on an MPI replay" "no gdb"
fi
sw=$(sed -n 's/^task 1 event \([0-9]*\) MPI_Recv got [0-9]*:[0-9]* tag 1; alternatives: \([0-9]*:[0-9]*\) .*/1:\1=\2/p' races | head -1)
if [ -n "$sw" ]; then
	pg -replay -logdir rec -out swp -swap "$sw"
	expect_eq "-swap $sw: exit 0" "$(cat rc)" 0
	cp out swp.out
	expect_grep "-swap: said where the ranks leave the recording" err "what-if: task 1 leaves the recording after event"
	expect_grep "-swap: the what-if run is recorded" err "what-if run recorded [0-9]+ events of 4 ranks in"
	ev=${sw%%=*}; ev=${ev#1:}; from=${sw#*=}; from=${from%%:*}
	$TRACE dump swp | sed -n '/^task 1 /,/^task 2 /p' >swp.dump
	expect_grep "-swap: task 1's event $ev got the swapped message" swp.dump "^  #$ev recv from=$from "
	pg -replay -logdir swp -out swpr
	expect_eq "the what-if run replays: exit 0" "$(cat rc)" 0
	cmp -s out swp.out && pass "the what-if run's replay prints its result" ||
		fail "the what-if run's replay prints another result"
	expect_grep "the what-if run's replay verified" err "replay reproduced all [0-9]+ events of 4 ranks"
	timeout 120 "$PANGAEA" -explore -budget 2 -logdir rec >xo 2>xe
	expect_eq "-explore -budget 2: exit 0" "$?" 0
	expect_grep "-explore: two what-if runs" xo "^explored 2 what-if run\(s\) of "
	grep -q 'not supported' xe && fail "-explore: a run refused: $(grep -m1 'not supported' xe)" ||
		pass "-explore: no run refused"
else
	fail "-swap: no racing wildcard receive of task 1 in races"
fi
expect_no_leftovers
finish
