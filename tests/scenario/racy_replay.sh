# Replaying racy: 10 recordings (their orders differ), each replayed 5 times
# with random delays injected; every replay prints exactly its recording's
# output and its logs match the recording event for event.
. "$(dirname "$0")/../lib.sh"
R=$B/examples/racy

for i in $(seq 1 10); do
	pg -log -logdir "rec$i" "$R" -w 3 -m 8
	expect_eq "recording $i exits 0" "$(cat rc)" 0
	mv out "rec$i.out"
	grep digest "rec$i.out" >>digests
	ok=0
	for j in 1 2 3 4 5; do
		pg -replay -logdir "rec$i" -out "rep$i.$j" -delay 1500
		if [ "$(cat rc)" = 0 ] && cmp -s out "rec$i.out" &&
		   $TRACE verify "rec$i" "rep$i.$j" >/dev/null; then
			ok=$((ok + 1))
		else
			echo "   replay $j of recording $i: exit $(cat rc)"; diff "rec$i.out" out | head -5; cat err | head -5
		fi
	done
	expect_eq "recording $i: 5 of 5 replays identical" "$ok" 5
done
n=$(sort -u digests | wc -l)
[ "$n" -ge 3 ] && pass "$n different orders among the 10 recordings" ||
	fail "only $n different orders among 10 recordings"
expect_no_leftovers
finish
