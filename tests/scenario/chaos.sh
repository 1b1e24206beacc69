# Chaos recording (-log -chaos, PANGAEA_CHAOS=1): the launcher prints the
# seed; with all the competing messages in its queue, a wildcard receive
# takes them in the order of the senders' chaos priorities, a function of
# the seed and the ltid alone (the same PANGAEA_SEED, the same order; the
# order checked against the priorities computed here), through pangaea.h
# and through the preload path alike; a chaos recording
# of racy replays exactly, and -chaos with -replay is ignored with a note;
# a master that waits in a held-back wildcard receive forever is still
# reported as deadlocked.
. "$(dirname "$0")/../lib.sh"
R=$B/examples/racy
C=$B/tests/chaosorder
start=$(date +%s)

# prio SEED LTID: chaos.c's pg_chaos_priority (murmur3's finaliser; the
# ltid itself for the seeds that rank by reverse age)
prio() {
	python3 -c '
import sys
s, l = int(sys.argv[1]), int(sys.argv[2])
M = 0xffffffff
def mix(h):
    h ^= h >> 16; h = (h * 0x7feb352d) & M
    h ^= h >> 15; h = (h * 0x846ca68b) & M
    return h ^ (h >> 16)
print(l if mix(s ^ 0x5bd1e995) & 1 else mix((s ^ (l * 0x85ebca6b)) & M) & 0xffff)' "$1" "$2"
}
# want_order SEED N: the workers 1..N by falling priority under SEED
want_order() {
	for w in $(seq 1 "$2"); do echo "$(prio "$1" $((1000 + w))) $w"; done |
		sort -k1,1nr -k2,2n | awk '{printf " %s", $2}'
}

# ---- the same seed, the same decisions; the order is the priorities'
for seed in 11 11 12 13 14; do
	PANGAEA_SEED=$seed pg -log -chaos -logdir "c$seed.$RANDOM" "$C" 5
	expect_eq "chaosorder seed $seed: exit 0" "$(cat rc)" 0
	expect_grep "seed $seed: printed" err \
		"^pangaea: chaos recording, seed $seed \(PANGAEA_SEED=$seed repeats its decisions\)$"
	expect_eq "seed $seed: the order of the priorities" \
		"$(sed -n 's/^chaosorder: order//p' out)" "$(want_order $seed 5)"
	sed -n 's/^chaosorder: order//p' out >>orders
done
n=$(sort -u orders | wc -l)
[ "$n" -ge 2 ] && pass "other seeds, other orders ($n in 4 seeds)" ||
	fail "4 seeds gave one order"

# pvm_trecv is held back too, within its timeout: one that no message
# answers still returns 0 after it
PANGAEA_SEED=13 pg -log -chaos -logdir tr "$C" 5 -trecv
expect_eq "trecv: exit 0" "$(cat rc)" 0
expect_grep "trecv: a timeout still times out" out '^chaosorder: trecv timed out$'
expect_eq "trecv: the order of seed 13's priorities" \
	"$(sed -n 's/^chaosorder: order//p' out)" "$(want_order 13 5)"
PANGAEA_SEED=14 pg -log -chaos -logdir tr2 "$C" 5 -trecv
expect_eq "trecv: the order of seed 14's priorities" \
	"$(sed -n 's/^chaosorder: order//p' out)" "$(want_order 14 5)"
# the seed is kept in the recording's run.info (a picked one too)
expect_grep "run.info: the chaos seed" tr2/run.info '^chaos-seed 14$'
pg -log -chaos -logdir picked "$C" 3
seed=$(sed -n 's/^pangaea: chaos recording, seed \([0-9]*\) .*/\1/p' err)
expect_grep "run.info: the picked seed $seed" picked/run.info "^chaos-seed $seed\$"
pg -log -logdir plain "$C" 3
expect_eq "run.info: no seed without -chaos" "$(grep -c '^chaos-seed' plain/run.info)" 0

# PANGAEA_CHAOS=1 is -chaos; anything but 0 or 1 is refused
PANGAEA_CHAOS=1 PANGAEA_SEED=11 pg -log -logdir env1 "$C" 5
expect_eq "PANGAEA_CHAOS=1: the order of seed 11" \
	"$(sed -n 's/^chaosorder: order//p' out)" "$(want_order 11 5)"
PANGAEA_CHAOS=yes pg -log -logdir env2 "$C" 5
expect_eq "PANGAEA_CHAOS=yes: exit 1" "$(cat rc)" 1
expect_grep "PANGAEA_CHAOS=yes: said so" err '^pangaea: error: PANGAEA_CHAOS is 0 or 1'

# ---- the same through the preload path: an unmodified program
cat >plainorder.c <<'SRC'
#include <pvm3.h>
#include <stdio.h>
/* chaosorder without pangaea.h: 5 workers, their notes, then the order */
int main(int argc, char **argv)
{
	int tids[5], n = 5, w;

	if (pvm_parent() > 0) {
		pvm_recv(pvm_parent(), 3);
		pvm_upkint(&w, 1, 1);
		for (int tag = 1; tag <= 2; tag++) {
			pvm_initsend(PvmDataDefault);
			pvm_pkint(&w, 1, 1);
			pvm_send(pvm_parent(), tag);
		}
		pvm_exit();
		return 0;
	}
	if (argc != 1 || pvm_spawn(argv[0], NULL, 0, NULL, n, tids) != n)
		return 1;
	for (int i = 0; i < n; i++) {
		w = i + 1;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&w, 1, 1);
		pvm_send(tids[i], 3);
	}
	for (int i = 0; i < n; i++)
		pvm_recv(-1, 2);
	printf("chaosorder: order");
	for (int i = 0; i < n; i++) {
		pvm_recv(-1, 1);
		pvm_upkint(&w, 1, 1);
		printf(" %d", w);
	}
	printf("\n");
	pvm_exit();
	return 0;
}
SRC
if cc -o plainorder plainorder.c -lpvm3; then
	PANGAEA_SEED=12 pg -log -chaos -logdir pre "$T/plainorder"
	expect_eq "preload: exit 0" "$(cat rc)" 0
	expect_eq "preload: the order of seed 12's priorities" \
		"$(sed -n 's/^chaosorder: order//p' out)" "$(want_order 12 5)"
else
	fail "cannot build plainorder"
fi

# ---- a chaos recording of racy replays exactly; -chaos in replay: a note
pg -log -chaos -logdir rec "$R" -w 3 -m 6
expect_eq "racy -chaos: exit 0" "$(cat rc)" 0
mv out rec.out
expect_eq "racy -chaos: 3 of 3 replays identical" "$(replays_identical rec 3 500)" 3
pg -replay -chaos -logdir rec -out rec.rc
expect_eq "replay -chaos: exit 0" "$(cat rc)" 0
expect_grep "replay -chaos: ignored, said so" err \
	'^pangaea: -chaos is ignored in a replay: the order comes from the recording$'
grep -q 'chaos recording' err && fail "replay -chaos announced a chaos recording" ||
	pass "replay -chaos: no chaos recording announced"
cmp -s out rec.out && pass "replay -chaos: the recording's output" ||
	fail "replay -chaos: output differs"

# ---- the hold-back's wait is a blocked receive for the deadlock check
pg -log -chaos -logdir dl "$B/examples/deadlock"
expect_eq "deadlock -chaos: exit 3" "$(cat rc)" 3
expect_grep "deadlock -chaos: the master in its wildcard receive" err \
	'^  task 1 .* in pvm_recv\(from any, tag 5\)'

expect_no_leftovers
el=$(($(date +%s) - start))
[ "$el" -lt 60 ] && pass "done in ${el}s" || fail "took ${el}s"
finish
