# pangaea -replay -debug on another host (scripts/hosts.sh): a racy worker
# recorded on h2 while the launcher runs on h1 is stopped there before its
# event 2; the launcher prints the gdb command to run on h2 and waits; the
# command, run on h2 (with -batch and a script), attaches, lands in the
# worker's frame at its pvm_send and lets it go on; the replay then ends
# as recorded (exit 0, the same output).  `hosts.sh down` leaves nothing.
. "$(dirname "$0")/../lib.sh"

if ! command -v gdb >/dev/null; then
	skip "every check" "gdb is not installed (scripts/install-deps.sh)"
	finish
	exit
fi
if ! hosts_up 2; then
	finish
	exit
fi
hosts_vm h2
expect_eq "vm: two hosts" "$(grep -c LINUX64 conf)" 2

pg -log -logdir rec "$B/examples/racy" -w 2 -m 3
expect_eq "record: exit 0" "$(cat rc)" 0
cp out rec.out
w=$(grep -o '[0-9]*@h2' rec/task-1.exec | head -1 | cut -d@ -f1)
[ -n "$w" ] && pass "record: worker $w ran on h2" || { fail "no worker on h2"; finish; exit; }

# the replay waits for the debugger: in the background
( timeout 120 "$PANGAEA" -replay -debug "$w:2" -logdir rec -out rep >rep.out 2>rep.err
  echo $? >rep.rc ) &
for _ in $(seq 300); do grep -q "^  gdb " rep.err 2>/dev/null && break; sleep 0.1; done
expect_grep "the launcher names the host and the pid" rep.err \
	"^pangaea: task $w waits before its event 2 on host h2 \(pid [0-9]+\) for a debugger; run on h2:$"
sleep 1
[ -e rep.rc ] && fail "the replay did not wait for the debugger" ||
	pass "the replay waits for the debugger"
cmd=$(grep "^  gdb " rep.err)
printf 'print s\nprint w\n' >cmds.gdb
$HOSTS run h2 bash -c "${cmd# } -batch -x $S/cmds.gdb" >gdb.out 2>&1
expect_grep "on h2: gdb in the worker's frame" gdb.out "^#[0-9]+ .* in worker \(.*\) at examples/racy/racy.c:[0-9]+$"
expect_grep "on h2: at its pvm_send" gdb.out "pvm_send\(parent, tag\);"
if nm "$B/examples/racy" 2>/dev/null | grep -q '__asan_'; then
	# (an ASan build keeps them where this gdb cannot see them)
	skip_ok "on h2: s and w printed" "an ASan build: gdb sees them <optimized out>"
else
	expect_grep "on h2: s" gdb.out '^\$1 = 1$'
	expect_grep "on h2: w" gdb.out "^\\\$2 = ${w#100}$"
fi
for _ in $(seq 300); do [ -e rep.rc ] && break; sleep 0.1; done
expect_eq "the replay goes on and ends well" "$(cat rep.rc)" 0
cmp -s <(sort rec.out) <(sort rep.out) && pass "the replay's output is the recording's" ||
	fail "the replay's output differs"
hosts_end
expect_no_leftovers
finish
