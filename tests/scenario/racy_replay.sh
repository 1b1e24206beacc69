# Replaying racy: 10 recordings (their orders differ; 100 in make
# check-long), each replayed 5 times with random delays injected; every
# replay prints exactly its recording's output and its logs match the
# recording event for event.
. "$(dirname "$0")/../lib.sh"
R=$B/examples/racy

N=$((10 * SOAK))
for i in $(seq 1 $N); do
	pg -log -logdir "rec$i" "$R" -w 3 -m 8
	expect_eq "recording $i exits 0" "$(cat rc)" 0
	mv out "rec$i.out"
	grep digest "rec$i.out" >>digests
	expect_eq "recording $i: 5 of 5 replays identical" \
		"$(replays_identical "rec$i" 5 1500)" 5
done
n=$(sort -u digests | wc -l)
[ "$n" -ge 3 ] && pass "$n different orders among the $N recordings" ||
	fail "only $n different orders among $N recordings"

# The delays come from a seed the launcher prints; PANGAEA_SEED gives the
# same one again (and so the same delays in every task).
pg -replay -logdir rec1 -out rec1.s1 -delay 1500
seed=$(sed -n 's/.* seed \([0-9]*\) (PANGAEA_SEED=\1 repeats them)$/\1/p' err)
[ -n "$seed" ] && pass "a delayed replay prints its seed ($seed)" ||
	fail "no seed line in: $(cat err)"
PANGAEA_SEED=$seed pg -replay -logdir rec1 -out rec1.s2 -delay 1500
expect_grep "PANGAEA_SEED is taken" err " seed $seed \(PANGAEA_SEED=$seed repeats them\)$"
expect_eq "the replay with that seed exits 0" "$(cat rc)" 0
PANGAEA_SEED=12x pg -replay -logdir rec1 -out rec1.s3 -delay 1500
expect_eq "a bad PANGAEA_SEED: exit 1" "$(cat rc)" 1
expect_grep "a bad PANGAEA_SEED: said so" err "^pangaea: error: PANGAEA_SEED needs a number"
expect_no_leftovers
finish
