# The PVM calls whose answers change from run to run without a message:
# pvm_pstat, pvm_tasks, pvm_config, pvm_mstat, the mailbox (pvm_putinfo,
# pvm_recvinfo, pvm_getmboxinfo, pvm_delinfo) and pvm_exit.  The example
# `queries` (a master watching its slaves replace a mailbox entry), built
# with pangaea.h and built plain (`cc ... -lpvm3`, recorded through
# libpangaea.so), records and replays identically, with and without
# random delays: its replays print what the recording saw (the master's
# pid as pvm_tasks gave it, which no replay has), and pangaea-trace verify
# calls them identical.  A replay whose program asks another question, or
# leaves PVM at another point, is stopped as a divergence (exit 3).  A
# task waiting for a mailbox entry can be part of a reported deadlock.  The mailbox calls PVM's own library
# makes for itself are not recorded as the program's.  PVM's own `mbox` example (from
# pvm-examples, unmodified), one instance holding an entry while another
# queries the mailbox, records and replays identically too.
SRC=$(cd "$(dirname "$0")/../.." && pwd) # before lib.sh moves to $T
. "$SRC/tests/lib.sh"
Q=$B/examples/queries

# pid_seen FILE: the master's pid as the first pvm_tasks of FILE shows it
pid_seen() { sed -n 's/.*me\[[^]]*\](pid \([0-9]*\)).*/\1/p' "$1" | head -1; }

# 1. built with pangaea.h
pg -log -logdir src "$Q" 2
expect_eq "source path: recording exits 0" "$(cat rc)" 0
expect_grep "source path: the master got to its end" out "^queries: done$"
expect_grep "source path: pvm_tasks lists the master and no Pangaea task" \
	out "^  pvm_tasks: [1-3]: me\[nobody queries\]\(pid [0-9]+\)( slave [12]\[me queries\])*$"
cp out src.out
$TRACE dump src >src.dump 2>&1
for c in 'pvm_putinfo\("q.shared", flags=4\) = 0' \
	 'pvm_recvinfo\("q.shared", 0, flags=0\) = [-0-9]+' \
	 'pvm_pstat\(task 100[12]\) = ' 'pvm_tasks\(0\) = 0 with [0-9]+ bytes' \
	 'pvm_getmboxinfo\("q.\*"\) = 0' 'pvm_config\(\) = 0' \
	 'pvm_mstat\("[^"]+"\) = 0' 'pvm_delinfo\("q.shared", 0, flags=0\)'; do
	expect_grep "source path: the dump shows ${c%%\\(*}" src.dump "call $c"
done
expect_grep "source path: the dump shows the tasks pvm_tasks gave" src.dump \
	"^      [1-3] task\(s\): \[task 1 parent 0 host t[0-9a-f]+ flag [0-9]+ [^ ]*/queries pid $(sed -n 's/.*(pid \([0-9]*\)).*/\1/p' out | head -1)\]"
expect_grep "source path: the dump shows the hosts pvm_config gave" src.dump \
	"^      1 host\(s\), 1 arch\(s\): \[t[0-9a-f]+ [^ ]+ [A-Z0-9_]+ speed [0-9]+ dsig 0x[0-9a-f]+\]$"
# (how many classes each look found depends on the slaves' timing: an
# entry goes with the slave that put it last; the dump must say the same)
expect_eq "source path: the dump shows the mailbox getmboxinfo gave" \
	"$(sed -n 's/^      \([0-9]*\) class(es):.*/\1/p' src.dump | tr '\n' ' ')" \
	"$(sed -n 's/^  mbox: \([0-9]*\) classes:.*/\1/p' src.out | tr '\n' ' ')"
expect_grep "source path: ... with the entries' owners" src.dump \
	"^      [0-9]+ class\(es\):( q\.(shared|multi)\{([0-9]+:task (1|100[12]) flags [0-9]+ ?)+\})*$"
expect_eq "source path: 3 replays with delays identical" \
	"$(replays_identical src 3 2000)" 3
pg -replay -logdir src -out src.plain
expect_eq "source path: a replay without delays exits 0" "$(cat rc)" 0
expect_eq "source path: ... prints what the recording saw" \
	"$(cmp -s out src.out && echo same)" same
p=$(pid_seen src.out)
[ -n "$p" ] && ! [ -e "/proc/$p" ] && [ "$(pid_seen out)" = "$p" ] &&
	pass "source path: the replay's pvm_tasks gives the recorded pid $p" ||
	fail "source path: pvm_tasks pid: recorded '$p', replayed '$(pid_seen out)'"
expect_no_leftovers

# 1b. the trace database holds the calls; the viewer shows one's details
$TRACE import src >/dev/null
expect_eq "trace db: the calls are events of kind call" \
	"$($TRACE sql src "SELECT count(*) FROM events WHERE kind='call' AND op='pstat' AND ltid=1")" 6
$TRACE export --chrome src.json src >/dev/null
expect_eq "chrome export: a slice per pvm_pstat" \
	"$(grep -o '"name": *"pvm_pstat"' src.json | wc -l)" 6
if command -v Xvfb >/dev/null && command -v sqlite3 >/dev/null; then
	view_event_text src "$(sqlite3 src/trace.db \
		"SELECT id FROM events WHERE kind='call' AND op='mstat'")"
	expect_eq "viewer: exits 0 on a call event" "$?" 0
	expect_grep "viewer: the call event's details" result \
		"call a query, mailbox call or pvm_exit, task ltid 1, .*pvm_mstat [^:]+: 0"
else
	skip "viewer: a call event's details" "no Xvfb or sqlite3"
fi

# 2. a replay that asks something else diverges there
pg -replay -logdir src -out src.other "$Q" -other 2
expect_eq "another question: exit 3" "$(cat rc)" 3
expect_grep "another question: the report names both calls" err \
	"replay diverged: task 1 \(.*queries on .*\), event 1: the log expects pvm_putinfo\(\"q.shared\", flags=4\) = 0; the program called pvm_mstat\(\"elsewhere\"\)"
expect_no_leftovers
# ... and so does one that leaves PVM elsewhere (pvm_exit is an event)
pg -replay -logdir src -out src.quit "$Q" -quit 2
expect_eq "an early pvm_exit: exit 3" "$(cat rc)" 3
expect_grep "an early pvm_exit: the report names it" err \
	"event 2: the log expects spawn #1; the program called pvm_exit\(\)"
pg -log -logdir quit "$Q" -quit 2
expect_eq "a recorded pvm_exit: recording exits 0" "$(cat rc)" 0
expect_grep "a recorded pvm_exit: PVM's answer" out "^queries: quit: 0$"
pg -replay -logdir quit -out quit.r1
expect_eq "a recorded pvm_exit: its replay exits 0" "$(cat rc)" 0
pg -replay -logdir quit -out quit.r2 "$Q" 2
expect_eq "a recorded pvm_exit not made again: exit 3" "$(cat rc)" 3
expect_grep "a recorded pvm_exit not made again: the report" err \
	"event 2: the log expects pvm_exit\(\) = 0; the program called pvm_spawn\("
expect_no_leftovers

# 3. the same program unmodified, through libpangaea.so
cc -w -DQUERIES_PLAIN -o qplain "$SRC/examples/queries/queries.c" -lpvm3 ||
	fail "cannot build the plain queries"
pg -log -logdir pre "$T/qplain" 2
expect_eq "preload path: recording exits 0" "$(cat rc)" 0
expect_grep "preload path: the master got to its end" out "^queries: done$"
cp out pre.out
$TRACE dump pre >pre.dump 2>&1
# (its value: the task's children still running then)
expect_eq "preload path: every task's pvm_exit is an event" \
	"$(grep -Ec 'call pvm_exit\(\) = [0-9]+ ' pre.dump)" 3
expect_grep "preload path: the mailbox calls are events" pre.dump \
	"call pvm_recvinfo\(\"q.shared\", 0, flags=0\)"
expect_eq "preload path: 3 replays with delays identical" \
	"$(replays_identical pre 3 2000)" 3
expect_no_leftovers

# 3b. PVM's own mailbox calls (libpvm3 enrolling a task at its first call,
# pvm_setopt(PvmNoReset) registering it) are not the program's: its log
# holds its own calls only, and pvm_tasks shows no task of Pangaea's
cat >internal.c <<'PROG'
#include <stdio.h>
#include <pvm3.h>

int main(void)
{
	struct pvmtaskinfo *ti;
	int nt;

	if (pvm_initsend(PvmDataDefault) < 0) /* the first call: enrols */
		return 1;
	pvm_setopt(PvmNoReset, 1);
	printf("tasks: %d\n", pvm_tasks(0, &nt, &ti) < 0 ? -1 : nt);
	pvm_exit();
	return 0;
}
PROG
cc -o internal internal.c -lpvm3 || fail "cannot build internal.c"
pg -log -logdir int "$T/internal"
expect_eq "PVM's own calls: recording exits 0" "$(cat rc)" 0
expect_grep "PVM's own calls: pvm_tasks lists the task alone" out "^tasks: 1$"
$TRACE dump int >int.dump 2>&1
expect_eq "PVM's own calls: only the program's are in its log" \
	"$(sed -n 's/^  #[0-9]* call \(pvm_[a-z]*\).*/\1/p' int.dump | tr '\n' ' ')" \
	"pvm_tasks pvm_exit "
expect_no_leftovers

# 3c. a task waiting for a mailbox entry nobody puts (PvmMboxWaitForInfo)
# while its worker waits for it is a deadlock the launcher reports
cat >mwait.c <<'PROG'
#include <stdio.h>
#include <pvm3.h>

int main(int argc, char **argv)
{
	int tid;

	if (pvm_mytid() < 0)
		return 1;
	if (pvm_parent() == PvmNoParent) {
		if (pvm_spawn(argv[0], NULL, 0, "", 1, &tid) != 1)
			return 1;
		pvm_recvinfo("never", 0, PvmMboxWaitForInfo);
		pvm_initsend(PvmDataDefault);
		pvm_send(tid, 1);
	} else {
		pvm_recv(pvm_parent(), 1);
	}
	pvm_exit();
	return 0;
}
PROG
cc -o mwait mwait.c -lpvm3 || fail "cannot build mwait.c"
pg -log -logdir mwait.rec "$T/mwait"
expect_eq "waiting in pvm_recvinfo: a deadlock, exit 3" "$(cat rc)" 3
expect_grep "waiting in pvm_recvinfo: named in the report" err \
	"^  task 1 \(.*mwait on .*\) in pvm_recvinfo\("
expect_no_leftovers

# 4. PVM's mbox example, unmodified: one instance holds its entry for a
# second while another looks for it (found or not, as it happened)
if [ -r /usr/share/doc/pvm-examples/examples.tar.gz ]; then
	tar xzf /usr/share/doc/pvm-examples/examples.tar.gz examples/mbox.c &&
		cc -w -o mbox examples/mbox.c -lpvm3 || fail "cannot build mbox"
	pg -log -logdir mboxrec "$T/mbox" sleep=1 : "$T/mbox" query
	# (it ends with pvm_exit(); exit(1): a note names it, exit 0)
	expect_eq "mbox: recording exits 0" "$(cat rc)" 0
	expect_grep "mbox: its status after pvm_exit named in a note" err \
		'^pangaea: note: task [0-9]+ \(.*\) left the run normally, then exited with status 1$'
	expect_grep "mbox: the holder found its own entry" out \
		"^Retrieved Message is a Match\.$"
	cp out mboxrec.out
	expect_eq "mbox: 3 replays with delays identical" \
		"$(OUT_AS_SET=1 replays_identical mboxrec 3 2000)" 3
	expect_no_leftovers
else
	skip "PVM's mbox example" "pvm-examples is not installed"
fi
finish
