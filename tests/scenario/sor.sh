# sor 4 100 (paper section 4): recording, plain run and replay print the same.
. "$(dirname "$0")/../lib.sh"
S=$B/examples/sor

pg -log -logdir rec "$S" 4 100
expect_eq "record exits 0" "$(cat rc)" 0
expect_grep "sor result" out "^sor: tasks=4 n=100 iterations=[0-9]+ residual="
cp out rec.out
$TRACE dump rec >d
expect_eq "4 tasks logged" "$(grep -c '^task ' d)" 4
expect_eq "every task ended through pangaea_exit" "$(grep -c 'end pangaea_exit' d)" 4
# messages sent: one per send, one per destination of a multicast
sends=$(grep -c ' send to=' d)
mdest=$(sed -n 's/.* mcast to=\[\([0-9 ]*\)\].*/\1/p' d | wc -w)
recvs=$(grep -c ' recv from=' d)
[ "$mdest" -gt 0 ] && pass "residuals are multicast ($mdest deliveries)" || fail "no multicast logged"
expect_eq "every message received once" "$((sends + mdest))" "$recvs"

pg -replay -logdir rec -out rep -delay 300
expect_eq "replay exits 0" "$(cat rc)" 0
cmp -s out rec.out && pass "replay output = recording output" || { fail "replay output differs"; diff rec.out out | head; }
expect_grep "replay reproduced everything" err "replay reproduced all [0-9]+ events of 4 tasks"

printf '* ep=%s\n%s\n' "$B/examples" "$(hostname)" >hosts
echo quit | timeout 20 pvm hosts >/dev/null 2>&1
timeout 60 "$S" 4 100 >plain.out 2>&1
cmp -s plain.out rec.out && pass "plain PVM run prints the same" || fail "plain run differs"
vm_halt
expect_no_leftovers
finish
