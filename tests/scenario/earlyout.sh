# Output printed before a task joins, and the tasks' exit statuses.
# earlyout (plain PVM, preloaded) prints two lines at once, before its
# pvm_mytid, spawns workers that do the same, then returns the status
# it is given after its pvm_exit.  The launcher hears a task's output
# from its pvmd and the task's tid from the coordinator (SPAWNED): the
# lines printed before the SPAWNED came were credited to "task -1"
# (issue 27).  Each of several recordings and replays must credit every
# line to its own task, in output.log and in verify's comparison.  A
# first task that returns 1 after pvm_exit makes the launcher exit 1
# (as a shell would), naming it, in record and replay; so does a
# worker's non-zero status.
. "$(dirname "$0")/../lib.sh"
cat >earlyout.c <<'X'
/* earlyout [N [STATUS [WSTATUS [LINGER]]]]: prints two lines before
 * pvm_mytid, spawns N workers (itself, "worker WSTATUS") that print two
 * lines first too and send it one message each; returns STATUS after
 * pvm_exit (LINGER: 3 s later, and a line); the master also
 * prints the line of the file "word" after pvm_exit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pvm3.h>

int main(int argc, char **argv)
{
	int worker = argc > 1 && strcmp(argv[1], "worker") == 0;
	int n = !worker && argc > 1 ? atoi(argv[1]) : 0;
	int status = argc > 2 ? atoi(argv[2]) : 0, me, tids[8];
	char st[16], w[64], *wargv[3] = { (char *)"worker", st, NULL };
	FILE *f;
	const char *who = worker ? "worker" : "master";

	printf("earlyout: %s starts\n", who);
	printf("earlyout: %s line 2\n", who);
	fflush(stdout);
	if ((me = pvm_mytid()) < 0)
		return 9;
	if (!worker) {
		snprintf(st, sizeof(st), "%s", argc > 3 ? argv[3] : "0");
		if (n > 8 || (n > 0 &&
		    pvm_spawn(argv[0], wargv, 0, (char *)"", n, tids) != n))
			return pvm_exit(), 9;
		for (int i = 0; i < n; i++)
			pvm_recv(-1, 1);
		printf("earlyout: master got %d\n", n);
	} else {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&me, 1, 1);
		pvm_send(pvm_parent(), 1);
	}
	pvm_exit();
	if (!worker && (f = fopen("word", "r")) && fgets(w, sizeof(w), f))
		printf("earlyout: word %s", w); /* (read after the run: replayed?) */
	if (!worker && argc > 4) {
		sleep(3); /* (longer than the 2 s for the last output) */
		printf("earlyout: master after pvm_exit\n");
	}
	return status;
}
X
cc -o earlyout earlyout.c -lpvm3 || { fail "cannot build earlyout"; finish; exit; }
E=$T/earlyout

# every line of output.log's task LTID: COUNT lines (none for task -1)
lines_of() { grep -ac "^line $2 " "$1/output.log"; }
bad=0
for i in 1 2 3 4 5; do
	pg -log -logdir "r$i" "$E" 2
	[ "$(cat rc)" = 0 ] || { fail "recording $i exits $(cat rc)"; tail -3 err; }
	if [ "$(lines_of "r$i" -1)" != 0 ] || [ "$(lines_of "r$i" 1)" != 3 ] ||
	   [ "$(lines_of "r$i" 1001)" != 2 ] || [ "$(lines_of "r$i" 1002)" != 2 ]; then
		bad=$((bad + 1))
		echo "   recording $i's output.log:"; grep -a '^line' "r$i/output.log" | head -8
	fi
	cp out "r$i.out"
done
expect_eq "5 recordings: each early line credited to its own task" "$bad" 0
bad=0
for i in 1 2 3 4 5; do
	pg -replay -logdir r1 -out "r1.p$i"
	$TRACE verify r1 "r1.p$i" >verify 2>&1
	if [ $? != 0 ] || [ "$(cat rc)" != 0 ] ||
	   [ "$(lines_of "r1.p$i" -1)" != 0 ] || ! cmp -s <(sort out) <(sort r1.out); then
		bad=$((bad + 1))
		echo "   replay $i: exit $(cat rc)"; head -3 err; head -3 verify
	fi
done
expect_eq "5 replays: every line credited as recorded, verify identical" "$bad" 0

# ---- exit statuses after pvm_exit (the program's, named in a note; the
# logs are whole: exit 0)
pg -log -logdir s1 "$E" 1 1
expect_eq "first task returns 1 after pvm_exit: exit 0" "$(cat rc)" 0
expect_grep "... the task and its status named" err \
	'^pangaea: note: task 1 \(.*earlyout on [^)]*\) left the run normally, then exited with status 1$'
expect_eq "... only task 1 named" "$(grep -c 'left the run normally' err)" 1
expect_grep "... run.info says 0" s1/run.info '^status 0$'
expect_grep "... the recording summed up (its logs are whole)" err 'recorded [0-9]+ events of 2 tasks'
pg -replay -logdir s1 -out s1.p
expect_eq "its replay: exit 0 too" "$(cat rc)" 0
expect_grep "... naming task 1 and status 1" err \
	'task 1 \(.*\) left the run normally, then exited with status 1$'
expect_grep "... and compared with the recording" err 'replay reproduced all [0-9]+ events of 2 tasks'
$TRACE verify s1 s1.p >verify 2>&1
expect_eq "... verify: identical" "$?" 0
# a replay that prints something else is still a difference (exit 3)
echo alpha >word
pg -log -logdir w1 "$E" 0 1
expect_eq "prints the word, returns 1: exit 0" "$(cat rc)" 0
echo beta >word
pg -replay -logdir w1 -out w1.p
expect_eq "... its replay prints another word: exit 3" "$(cat rc)" 3
expect_grep "... the line named" err 'task 1 printed "earlyout: word alpha" .* "earlyout: word beta"'
rm word
pg -log -logdir s2 "$E" 2 0 3
expect_eq "workers return 3 after pvm_exit: exit 0" "$(cat rc)" 0
expect_eq "... both named with status 3" \
	"$(grep -Ec '^pangaea: note: task 100[12] \(.*\) left the run normally, then exited with status 3$' err)" 2
grep -q 'task 1 (' err && fail "task 1 (status 0) named" || pass "task 1 (status 0) not named"
pg -log -logdir s3 "$E" 1 0 0
expect_eq "every status 0: exit 0" "$(cat rc)" 0
grep -q 'left the run' err && fail "a status 0 named" || pass "... nobody named"
# a shell waits for the program it started: so does the launcher, for
# a task that goes on after pvm_exit (3 s: its last line, its status)
pg -log -logdir s4 "$E" 0 2 0 linger
expect_eq "a task that goes on after pvm_exit: exit 0" "$(cat rc)" 0
expect_grep "... its line after pvm_exit is relayed" out '^earlyout: master after pvm_exit$'
expect_grep "... credited to task 1" s4/output.log '^line 1 [0-9]+ 31$'
expect_grep "... and its status named" err 'task 1 \(.*\) left the run normally, then exited with status 2$'
expect_no_leftovers
finish
