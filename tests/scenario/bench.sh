# The benchmark suite runs (one short round of ping-pong and the log-size
# tool): plain, record and replay each give a figure, the ratios and the
# bytes per event are computed, and it leaves no virtual machine behind.
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/tests/lib.sh"

[ -x "$B/bench/pingpong" ] || make -C "$here" --no-print-directory \
	BUILDDIR="$B" "$B/bench/pingpong" "$B/bench/logsize" "$B/bench/report" \
	"$B/bench/perfunc" "$B/bench/annai" >/dev/null
export BENCH_OUT=$T/results
BENCH_ROUNDS=1 BENCH_PINGPONG=300 BENCH_ONLY='^pingpong$' \
	timeout 120 bash "$here/bench/run.sh" "$B" >out 2>err
expect_eq "bench/run.sh exits 0" "$?" 0
for mode in plain record replay; do
	n=$(grep -c "^1,$mode,pingpong,roundtrip,300," "$BENCH_OUT/raw.csv")
	expect_eq "one $mode ping-pong sample of 300 round trips" "$n" 1
done
expect_grep "wall table has a record and a replay ratio" out \
	'^pingpong roundtrip +[0-9.]+ \([0-9.-]+\) +[0-9.]+ \([0-9.-]+\) +[-+][0-9.]+ +[0-9.]+ \(.*\) +[0-9.]+ \(.*\) +[-+][0-9.]+ +[0-9.]+ '
# 200 warm-up + 300 round trips, and the partner's CPU report
expect_grep "log size counted the 1001 sends" out '^send +1001 +[0-9]+ +[0-9.]+$'
expect_grep "log size per benchmark (1001 sends + 1001 receives + spawn + 2 ends)" \
	out '^pingpong +2005 +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$'
expect_grep "target lines printed" out 'ping-pong record / plain +[0-9.]+x'
expect_grep "summary CSV written" "$BENCH_OUT/results.csv" \
	'^pingpong,roundtrip,wall,replay,300,'
vm=$(sed -n 's/.*private VM \(pangaea-bench-[0-9]*\).*/\1/p' out)
[ -n "$vm" ] && [ ! -e "$PVM_TMP/pvmd.$(id -u).$vm" ] &&
	pass "the bench VM ($vm) was halted" || fail "bench VM '$vm' left running"
finish
