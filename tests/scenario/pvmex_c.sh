# The PVM distribution's C examples (pvm-examples: examples.tar.gz and
# gexamples.tar.gz), built unmodified with their own compile lines
# (scripts/pvm-examples.sh, once per build folder) and run through the
# LD_PRELOAD path: each is recorded, replayed three times and once with
# -delay 2000, every replay with the recording's exit status, output
# lines (as a multiset; benchmark times masked) and called identical by
# pangaea-trace verify (tests/lib.sh pvmex_case).  The mailbox programs are
# in pvmex_interactive.sh.  Programs the PVM Readme
# starts as several copies get -n (spmd, ptest, the bwtests); the rest
# spawn their own slaves by bare name from the VM's ep= path.
# docs/EXAMPLES.md lists every example and where it is tested.
. "$(dirname "$0")/../lib.sh"
start=$(date +%s)
pvmex_build || { finish; exit; }

# the times a benchmark measures: bwtest's roundtrip lines, timing's
# table rows (N, then microseconds), totals and averages
BW='s/T = [0-9]+ \(us\) +\([0-9.]+ MB\/s\)/T = N (us) (N MB\/s)/'
TIMING='s/^( ?[0-9]{1,2})( +[0-9]+)+$/\1 T/; s/^ +[0-9.]+ +[0-9.]+$/ T T/; s/(Avg uSec) [0-9]+/\1 T/'

pvmex_case master1 '^I got 300\.0+ from' '' -- "$PX/master1"
pvmex_case hello '^from t[0-9a-f]+: hello, world from' '' -- "$PX/hello"
# (spmd, timing, trsg and mbox end with pvm_exit(); exit(1): exit 0, a note)
STATUS_NOTE=1 pvmex_case spmd 'token ring done' '' -- -n 4 "$PX/spmd"
pvmex_case inheritb 'received from 2nd inherit2' '' -- "$PX/inheritb"
pvmex_case inherita1 'with original context 0' '' -- "$PX/inherita" inherit1
pvmex_case inherita3 'with original context 0' '' -- "$PX/inherita" inherit3
pvmex_case ptest '^Data validated from all tasks!' '' -- -n 4 "$PX/ptest" 4 0 4
for bw in dbwtest ibwtest pbwtest rbwtest; do
	PANGAEA_OUTPUT_MASK='T = [0-9]+ \(us\) +\([0-9.]+ MB/s\)' \
		pvmex_case "$bw" '^t[0-9a-f]+: 100000 doubles received correctly' "$BW" -- \
		-n 2 "$PX/$bw"
done
PANGAEA_OUTPUT_MASK='^ ?[0-9]{1,2}( +[0-9]+)+$|^ +[0-9.]+ +[0-9.]+$|Avg uSec [0-9]+' \
	STATUS_NOTE=1 pvmex_case timing '^RTT Avg uSec' "$TIMING" -- "$PX/timing"
expect_grep "timing: the master's pvm_kill of its slave named" timing.err \
	"task 1001 \(timing_slave on [^)]*\) was killed by task 1 \(pvm_kill\)"
pvmex_case joinleave 'enrolled' '' -- "$PX/joinleave" 200
pvmex_case ge '^done$' '' -- "$PX/ge" 4
pvmex_case gexamp ' 3: sync$' '' -- "$PX/gexamp" 4
pvmex_case thb '^done\.$' '' -- "$PX/thb" 3
pvmex_case gs 'gs 0x[0-9a-f]+ enrolled' '' -- "$PX/gs" 4
pvmex_case tst '^left prognosis' '' -- "$PX/tst"
pvmex_case tjl '^joined group31$' '' -- "$PX/tjl"
pvmex_case tjf '^joined group31$' '' -- "$PX/tjf"
# (starter spawns N copies of a program and polls pvm_tasks until they end)
pvmex_case starter '^\[t[0-9a-f]+\] EOF$' '' -- "$PX/starter" -n 3 "$PX/hello_other"

# master1/slave1 edited as README.md says for the source path (pangaea.h,
# pangaea_init first, pangaea_exit before pvm_exit) and linked with
# libpangaea.a (with the build's sanitizers, as preload.sh does): they
# keep recording and replaying as the unmodified ones
san=
nm "$B/lib/libpangaea.a" 2>/dev/null | grep -q '__asan_' && san=address
nm "$B/lib/libpangaea.a" 2>/dev/null | grep -q '__ubsan_' && san=${san:+$san,}undefined
mkdir src
for f in master1 slave1; do
	sed -e 's|#include "pvm3.h"|#include <pangaea.h>|' \
	    -e 's|^main()|int main(int argc, char **argv)|' \
	    -e 's|pvm_exit();|pangaea_exit(), pvm_exit();|' \
	    "$B/pvmex/src/examples/$f.c" |
		awk '/^int main\(/ { m = 1 } { print } m && /^\{/ {
			print "\tpangaea_init(&argc, &argv);"; m = 0 }' >"src/$f.c"
	cc -w ${san:+-fsanitize=$san} -I"$TOP/pangaea_lib" \
		-o "src/$f" "src/$f.c" "$B/lib/libpangaea.a" -lgpvm3 -lpvm3 -lm ||
		fail "cannot build $f with pangaea.h"
done
expect_eq "master1/slave1 edited for pangaea.h: pangaea_init in both" \
	"$(grep -c 'pangaea_init(&argc, &argv);' src/master1.c src/slave1.c | tr '\n' ' ')" \
	"src/master1.c:1 src/slave1.c:1 "
pvmex_case srcmaster1 '^I got 300\.0+ from' '' -- "$T/src/master1"

# ptest started without its arguments prints its usage and calls
# exit(-1): the launcher names the status the shell would see (255)
pg -log -logdir ptest-usage "$PX/ptest"
expect_eq "ptest without arguments: exit 2 (a task failed)" "$(cat rc)" 2
expect_grep "ptest without arguments: its status as a shell sees it" err \
	"task 1 \(ptest on [^)]*\) exited with status 255 "

took=$(( $(date +%s) - start ))
[ "$took" -lt 90 ] && pass "all runs took ${took}s (< 90)" || fail "runs took ${took}s"
expect_no_leftovers
finish
