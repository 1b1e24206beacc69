/*
 * queries.c - PVM's queries and mailbox, whose answers change with the
 * timing of the tasks (Pangaea example; it also builds as a plain PVM
 * program with -DQUERIES_PLAIN, the unmodified program of the preload
 * path).
 *
 * Usage: queries [-other | -quit] SLAVES
 *
 * The master puts the mailbox entry "q.shared" (overwritable) and spawns
 * SLAVES copies of itself (at most 8).  Each slave waits a moment of its
 * own (a few ms, from its pid and the clock), replaces "q.shared" with
 * its number, adds an entry of its own to "q.multi" (several instances),
 * says "bye" to the master, waits again and leaves PVM.  Meanwhile the
 * master looks, with short pauses, three times at: "q.shared"
 * (pvm_recvinfo, what it holds now), the slaves (pvm_pstat: still there
 * or gone), the tasks of the virtual machine (pvm_tasks: how many, which
 * of them are slaves, the master's own pid) and the mailbox
 * (pvm_getmboxinfo "q.*": the entries and their owners).  Then it takes
 * the byes, reads every "q.multi" entry, asks pvm_config and pvm_mstat
 * of its host, deletes its entry (pvm_delinfo) and prints "queries:
 * done".  Every line the
 * master prints depends on when the slaves did what.
 *
 * -other: the master asks pvm_mstat of a host named "elsewhere" first
 * (a replay of a run without it diverges there).  -quit: the master
 * leaves PVM (pvm_exit) right after its pvm_putinfo, spawning nobody.
 */
#define _DEFAULT_SOURCE

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef QUERIES_PLAIN
#include <pvm3.h>
#define pangaea_init(argc, argv) ((void)0)
#define pangaea_exit() ((void)0)
#else
#include <pangaea.h>
#endif

#define MAX_SLAVES 8
#define TAG_BYE 7

/* Prints "queries: WHAT failed (CODE)" to stderr, leaves PVM, exits 1. */
static void die(const char *what, int code)
{
	fprintf(stderr, "queries: %s failed (PVM error %d)\n", what, code);
	pvm_exit();
	exit(1);
}

/* Sleeps a few milliseconds, more or fewer from run to run. */
static void jitter(int most_ms)
{
	struct timespec now, ts;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ts.tv_sec = 0;
	ts.tv_nsec = (long)((now.tv_nsec / 1000 + getpid() * 7919L) %
			    (most_ms * 1000L)) * 1000L;
	nanosleep(&ts, NULL);
}

/* Puts the string S and the int V as the mailbox entry NAME with FLAGS;
 * the index, or a PVM error. */
static int put(char *name, const char *s, int v, int flags)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkstr((char *)s);
	pvm_pkint(&v, 1, 1);
	return pvm_putinfo(name, pvm_getsbuf(), flags);
}

/* Slave NUM: replaces "q.shared", adds to "q.multi", says bye. */
static void slave(int parent, int num)
{
	char me[32];

	snprintf(me, sizeof(me), "slave %d", num);
	jitter(20);
	if (put("q.shared", me, num, PvmMboxOverWritable) < 0)
		(void)0; /* (the master may have left; said by its output) */
	if (put("q.multi", me, num, PvmMboxMultiInstance) < 0)
		die("pvm_putinfo q.multi", 0);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&num, 1, 1);
	if (pvm_send(parent, TAG_BYE) < 0)
		die("pvm_send", 0);
	jitter(20);
}

/* Which of the N slaves TIDS TID is: "slave K", "me" or "other". */
static const char *who(int tid, const int *tids, int n, int me, char *buf,
		       size_t len)
{
	for (int i = 0; i < n; i++)
		if (tids[i] == tid) {
			snprintf(buf, len, "slave %d", i + 1);
			return buf;
		}
	return tid == me ? "me" : tid == 0 ? "nobody" : "other";
}

/* Prints what "q.shared" holds now. */
static void look_shared(void)
{
	char s[64] = "";
	int v = -1, b = pvm_recvinfo("q.shared", 0, PvmMboxDefault);

	if (b > 0) {
		pvm_upkstr(s);
		pvm_upkint(&v, 1, 1);
		printf("  q.shared: \"%s\" (%d)\n", s, v);
	} else {
		printf("  q.shared: error %d\n", b);
	}
}

/* Prints the tasks of the virtual machine as the master sees them. */
static void look_tasks(const int *tids, int n, int me)
{
	struct pvmtaskinfo *ti;
	char buf[32];
	int nt, rc = pvm_tasks(0, &nt, &ti);

	if (rc < 0) {
		printf("  pvm_tasks: error %d\n", rc);
		return;
	}
	printf("  pvm_tasks: %d:", nt);
	for (int i = 0; i < nt; i++) {
		const char *base = ti[i].ti_a_out ? strrchr(ti[i].ti_a_out, '/')
						  : NULL;

		printf(" %s", who(ti[i].ti_tid, tids, n, me, buf, sizeof(buf)));
		printf("[%s", who(ti[i].ti_ptid, tids, n, me, buf, sizeof(buf)));
		printf(" %s]", base ? base + 1 : ti[i].ti_a_out ? ti[i].ti_a_out
								: "");
		if (ti[i].ti_tid == me)
			printf("(pid %d)", ti[i].ti_pid);
	}
	printf("\n");
}

/* Prints the mailbox classes "q.*" and their entries. */
static void look_mbox(const int *tids, int n, int me)
{
	struct pvmmboxinfo *mi;
	char buf[32];
	int nc, rc = pvm_getmboxinfo("q.*", &nc, &mi);

	if (rc < 0) {
		printf("  mbox: error %d\n", rc);
		return;
	}
	printf("  mbox: %d classes:", nc);
	for (int i = 0; i < nc; i++) {
		printf(" %s{", mi[i].mi_name);
		for (int j = 0; j < mi[i].mi_nentries; j++)
			printf("%s%d:%s", j ? " " : "", mi[i].mi_indices[j],
			       who(mi[i].mi_owners[j], tids, n, me, buf,
				   sizeof(buf)));
		printf("}");
	}
	printf("\n");
}

/* Prints whether each of the N slaves is still there. */
static void look_slaves(const int *tids, int n)
{
	printf("  pstat:");
	for (int i = 0; i < n; i++) {
		int st = pvm_pstat(tids[i]);

		printf(" %s", st == PvmOk ? "running" : st == PvmNoTask ? "gone"
						     : "error");
	}
	printf("\n");
}

/* Master: N slaves; OTHER: asks of another host first; QUIT: leaves
 * PVM after its first entry. */
static int master(const char *self, int n, int other, int quit)
{
	char slave_arg[] = "-slave", num[16], *args[] = { slave_arg, num, NULL };
	struct pvmhostinfo *hi;
	int tids[MAX_SLAVES], me = pvm_mytid(), nh, na, rc, b, v;
	char s[64];

	if (other)
		printf("queries: mstat elsewhere %d\n", pvm_mstat("elsewhere"));
	if ((rc = put("q.shared", "master", 0, PvmMboxOverWritable)) < 0)
		die("pvm_putinfo q.shared", rc);
	if (quit) {
		printf("queries: quit: %d\n", pvm_exit());
		exit(0);
	}
	for (int i = 0; i < n; i++) {
		snprintf(num, sizeof(num), "%d", i + 1);
		if (pvm_spawn((char *)self, args, PvmTaskDefault, "", 1,
			      &tids[i]) < 1)
			die("pvm_spawn", tids[i]);
	}
	for (int look = 1; look <= 3; look++) {
		jitter(15);
		printf("queries: look %d\n", look);
		look_shared();
		look_slaves(tids, n);
		look_tasks(tids, n, me);
		look_mbox(tids, n, me);
	}
	for (int i = 0; i < n; i++) {
		if ((b = pvm_recv(-1, TAG_BYE)) < 0)
			die("pvm_recv", b);
		pvm_upkint(&v, 1, 1);
		printf("queries: bye from slave %d\n", v);
	}
	for (int i = 0;; i++) {
		b = pvm_recvinfo("q.multi", i, PvmMboxFirstAvail);
		if (b < 0)
			break;
		pvm_upkstr(s);
		printf("queries: q.multi from index %d: \"%s\"\n", i, s);
	}
	if ((rc = pvm_config(&nh, &na, &hi)) < 0)
		die("pvm_config", rc);
	printf("queries: %d host(s), %d arch(s); mstat of the first: %d\n", nh,
	       na, pvm_mstat(hi[0].hi_name));
	printf("queries: delinfo q.shared: %d\n",
	       pvm_delinfo("q.shared", 0, PvmMboxDefault));
	printf("queries: done\n");
	return 0;
}

int main(int argc, char **argv)
{
	int parent, rc = 0, other = 0, quit = 0, a = 1;

	pangaea_init(&argc, &argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pvm_mytid() < 0)
		die("pvm_mytid", pvm_mytid());
	if (a < argc && strcmp(argv[a], "-slave") == 0) {
		parent = pvm_parent();
		if (parent < 0)
			die("pvm_parent", parent);
		slave(parent, a + 1 < argc ? atoi(argv[a + 1]) : 0);
		pangaea_exit();
		pvm_exit();
		return 0;
	}
	if (a < argc && strcmp(argv[a], "-other") == 0) {
		other = 1;
		a++;
	} else if (a < argc && strcmp(argv[a], "-quit") == 0) {
		quit = 1;
		a++;
	}
	{
		char self[PATH_MAX];
		int n = a < argc ? atoi(argv[a]) : 0;

		if (n < 1 || n > MAX_SLAVES || !realpath(argv[0], self)) {
			fprintf(stderr, "usage: queries [-other | -quit] SLAVES\n");
			pvm_exit();
			return 1;
		}
		rc = master(self, n, other, quit);
	}
	pangaea_exit();
	pvm_exit();
	return rc;
}
