# The pvmd dies in the middle of a run: the launcher notices at once, says
# so, ends the tasks, exits non-zero, and leaves nothing behind.  The
# worker computes without PVM calls ("spin"), so the lost daemon does not
# end it: the launcher must, even if it has not heard of it yet.
. "$(dirname "$0")/../lib.sh"
K=$B/tests/killme

unset PVM_VMID
timeout 60 "$PANGAEA" -log -logdir rec "$K" 10 spin >out 2>err &
pid=$!
for _ in $(seq 100); do grep -q ready out 2>/dev/null && break; sleep 0.1; done
# No pause here: the launcher may not have heard of the worker yet (its
# SPAWNED comes through the coordinator); it must still name and end it.
vmid=$(sed -n 's/.*PVM_VMID=\(pangaea-[0-9]*\).*/\1/p' err)
killed=
for p in $(pgrep -x pvmd); do
	{ tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null | grep -qx "PVM_VMID=$vmid" &&
		kill -9 "$p" && killed="$killed $p"
done
start=$(date +%s)
wait $pid; echo $? >rc
expect_eq "launcher exits 2" "$(cat rc)" 2
[ $(( $(date +%s) - start )) -le 10 ] && pass "noticed within 10 s" || fail "took $(( $(date +%s) - start )) s"
expect_grep "said the daemon was lost" err "^pangaea: error: lost the PVM daemon"
expect_grep "named the tasks" err "task 1001 \(.*killme on .*\)"
[ ! -e "$PVM_TMP/pvmd.$(id -u).$vmid" ] && pass "stale address file removed" || fail "left $PVM_TMP/pvmd.$(id -u).$vmid"
[ ! -e "$PVM_TMP/pvml.$(id -u).$vmid" ] && pass "daemon log removed" || fail "left $PVM_TMP/pvml.$(id -u).$vmid"
# the killed pvmd's own temporary files (pvmtmpPID.N; other runs may have theirs)
left=$(for p in $killed; do ls $PVM_TMP/pvmtmp"$(printf %06d "$p")".* 2>/dev/null; done)
[ -n "$killed" ] && [ -z "$left" ] && pass "no pvmtmp file left" || fail "left: '$left' (killed:$killed)"
expect_no_leftovers
finish
