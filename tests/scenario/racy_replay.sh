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
	expect_eq "recording $i: 5 of 5 replays identical" \
		"$(replays_identical "rec$i" 5 1500)" 5
done
n=$(sort -u digests | wc -l)
[ "$n" -ge 3 ] && pass "$n different orders among the 10 recordings" ||
	fail "only $n different orders among 10 recordings"
expect_no_leftovers
finish
