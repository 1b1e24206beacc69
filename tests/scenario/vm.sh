# The launcher joins a running virtual machine and leaves it up; without
# one it starts a private one and halts it.  A program started without
# the launcher runs as plain PVM and writes no logs.
. "$(dirname "$0")/../lib.sh"
C=$B/tests/ctxcheck

printf '* ep=%s\n%s\n' "$B/tests" "$(hostname)" >hosts
echo quit | timeout 20 pvm hosts >/dev/null 2>&1
[ -e "$PVM_TMP/pvmd.$(id -u).$PVM_VMID" ] && pass "test VM up" || fail "could not start the test VM"
pg -log -logdir rec "$C" 2
expect_eq "run in a joined VM exits 0" "$(cat rc)" 0
expect_grep "said it joined" err "joined the running virtual machine PVM_VMID=$PVM_VMID"
[ -e "$PVM_TMP/pvmd.$(id -u).$PVM_VMID" ] && pass "joined VM left up" || fail "the joined VM was halted"

timeout 60 "$C" 2 >plain.out 2>&1; echo $? >rc
expect_eq "plain PVM run exits 0" "$(cat rc)" 0
expect_grep "plain PVM run works" plain.out "ctxcheck: ok: 10 app messages"
[ ! -e pangaea-logs ] && pass "plain run wrote no logs" || fail "plain run wrote logs"
vm_halt

unset PVM_VMID
pg -log -logdir rec2 "$C" 2
expect_eq "run with its own VM exits 0" "$(cat rc)" 0
vmid=$(sed -n 's/.*PVM_VMID=\(pangaea-[0-9]*\).*/\1/p' err)
[ -n "$vmid" ] && pass "started a private VM ($vmid)" || fail "no private VM named"
[ ! -e "$PVM_TMP/pvmd.$(id -u).$vmid" ] && pass "private VM halted" || fail "private VM left up"
[ ! -e "$PVM_TMP/pvml.$(id -u).$vmid" ] && pass "private VM's log removed" || fail "pvml file left"

# Placement by architecture and spawn flags reach pvm_spawn, are recorded,
# and the replay spawns the same way.
arch=$(/usr/lib/pvm3/lib/pvmgetarch)
pg -log -logdir placed -arch "$arch" -flags trace,mppfront "$C" 2
expect_eq "run placed by architecture exits 0" "$(cat rc)" 0
# PvmTaskArch 2 + PvmTaskTrace 8 + PvmMppFront 16
expect_grep "flags and architecture recorded" placed/task-0.exec "^spawn 1 .* flags=26 where=\"$arch\" "
pg -replay -logdir placed -out placed.r
expect_eq "its replay exits 0" "$(cat rc)" 0
expect_grep "the replay spawned with the same flags" placed.r/task-0.exec "^spawn 1 .* flags=26 where=\"$arch\" "

# A pvmd killed during a handshake leaves PVM_TMP/pvmtmpPID.N behind; when a
# later process gets that pid, libpvm complains on stderr.  Plant such
# files for the launcher's pid and for the first task's pid (a script that
# execs the program keeps its pid): the run's output must stay clean.
cat >stale.sh <<EOS
#!/bin/sh
printf / >$PVM_TMP/pvmtmp\$(printf %06d \$\$).0
exec "$C" "\$@"
EOS
chmod +x stale.sh
timeout 120 sh -c 'printf / >$PVM_TMP/pvmtmp$(printf %06d $$).0; echo $$ >launcher.pid
	exec "$0" -log -logdir rec3 ./stale.sh 2 >out 2>err' "$PANGAEA"
echo $? >rc
expect_eq "run with stale pvmtmp files exits 0" "$(cat rc)" 0
expect_grep "the planted task ran" out "ctxcheck: ok: 10 app messages"
if grep -q "libpvm\|t-auth" out err; then
	fail "libpvm complained about a stale file:"; grep "libpvm\|t-auth" out err
else pass "no libpvm complaint in the output"; fi
[ ! -e "$PVM_TMP/pvmtmp$(printf %06d "$(cat launcher.pid)").0" ] &&
	pass "the launcher's stale file is gone" || fail "launcher's stale file left"

expect_no_leftovers
finish
