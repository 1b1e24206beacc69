# NetPIPE's NPpvm (Debian netpipe-pvm, unmodified, the LD_PRELOAD path):
# two copies, the receiver then the transmitter (-staged), ping-pong
# messages of growing sizes, each size repeated as often as its measured
# time says.  Before the clock was replayed its replay diverged (issue
# 27); now each replay prints the recording's table, times included, and
# pangaea-trace verify calls it identical.
. "$(dirname "$0")/../lib.sh"
NP=/usr/bin/NPpvm
if [ ! -x "$NP" ]; then
	skip "NetPIPE" "no $NP (Debian netpipe-pvm, scripts/install-deps.sh)"
	finish
	exit
fi
# (sizes 1 to 8 bytes, no perturbations: about 340 000 events)
ARGS="-u 8 -p 0"
pg -log -logdir np -staged "$NP" $ARGS -o "$T/np.rec.1" : "$NP" -h "$(hostname)" $ARGS -o "$T/np.rec.2"
expect_eq "NPpvm recording exits 0" "$(cat rc)" 0
mv out np.out
grep -aq '^line -1 ' np/output.log && fail "recording: output.log credits lines to task -1" ||
	pass "recording: every line credited to its task"
grep -aE '^ *[0-9]+: ' np.out >np.table
sort np.out >np.sorted
expect_grep "... measured each size" np.out '^ *[0-9]+: +8 bytes +[0-9]+ times --> +[0-9.]+ Mbps in +[0-9.]+ usec$'
# (the receiver prints its first lines before it joins: each replay
# must credit them to task 1 as the recording did, no "task -1")
for j in 1 2; do
	pg -replay -logdir np -out "np.r$j"
	expect_eq "replay $j exits 0" "$(cat rc)" 0
	# (the two copies' lines interleave as their pvmd relays them, which
	# differs from run to run: the table is the transmitter's alone and
	# is compared in order, all lines as a set)
	grep -aE '^ *[0-9]+: ' out >table
	cmp -s table np.table && pass "replay $j prints the recording's table" ||
		{ fail "replay $j's table differs"; diff np.table table | head -5; }
	sort out | cmp -s - np.sorted && pass "replay $j prints the recording's lines" ||
		{ fail "replay $j's lines differ"; sort out | diff np.sorted - | head -5; }
	if $TRACE verify np "np.r$j" >verify 2>&1; then
		pass "replay $j: verify says identical"
	else
		fail "replay $j: verify"; head -3 verify
	fi
	grep -aq '^line -1 ' "np.r$j/output.log" &&
		fail "replay $j: output.log credits lines to task -1" ||
		pass "replay $j: every line credited to its task"
done
expect_no_leftovers
finish
