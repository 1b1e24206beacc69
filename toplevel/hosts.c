/*
 * hosts.c: the hosts of a run.
 *
 * Before a replay: replay starts every task on the host it was recorded
 * on (its slot in its parent's exec log says which), so each finds its
 * log there; a host of the recording that is not in the virtual machine
 * is found before any task starts, and named with a task it carried,
 * instead of failing at that task's spawn in mid-run.
 *
 * During a run: PVM notices a lost host only after minutes (its daemons'
 * time-outs), while the tasks that wait for that host's messages wait in
 * silence.  The launcher starts a beacon (`pangaea-coord -beacon`,
 * coordinator/beacon.c) on every other host; when one falls silent for
 * LOST_S, the run's tasks on that host are named as lost with it and the
 * run is stopped.
 */
#include "launcher.h"

#include <errno.h>
#include <glob.h>
#include <pvm3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

/* Whether NAME is one of the NHOST hosts of HOSTS. */
static int in_vm(const char *name, const struct pvmhostinfo *hosts, int nhost)
{
	for (int i = 0; i < nhost; i++)
		if (strcmp(hosts[i].hi_name, name) == 0)
			return 1;
	return 0;
}

/* The names of the NHOST hosts of HOSTS, space-separated, into BUF. */
static void host_names(const struct pvmhostinfo *hosts, int nhost, char *buf,
		       size_t n)
{
	size_t k = 0;

	buf[0] = '\0';
	for (int i = 0; i < nhost && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? " " : "",
				      hosts[i].hi_name);
}

/* What each_slot calls for a task's slot SL of spawn SP in exec log
 * PATH; non-zero stops the walk. */
typedef int (*slot_fn)(void *arg, const char *path,
		       const struct pg_spawn_rec *sp,
		       const struct pg_spawn_slot *sl);

/* Calls FN for the slot of every task started in the exec logs of
 * LOGDIR; 0, FN's first non-zero value, or -1 after saying that a log
 * cannot be read. */
static int each_slot(const char *logdir, slot_fn fn, void *arg)
{
	char pattern[PG_PATH_MAX + 16], err[PG_PATH_MAX + 100];
	int rc = 0;
	glob_t g;

	snprintf(pattern, sizeof(pattern), "%s/task-*.exec", logdir);
	if (glob(pattern, 0, NULL, &g) != 0)
		return 0; /* none: replay_prepare has said so already */
	for (size_t i = 0; i < g.gl_pathc && rc == 0; i++) {
		struct pg_exec_log log;

		if (pg_exec_read(g.gl_pathv[i], &log, err, sizeof(err)) < 0) {
			la_error("refusing to replay: %s", err);
			rc = -1;
			break;
		}
		for (int s = 0; s < log.nspawn && rc == 0; s++)
			for (int k = 0; k < log.spawns[s].started && rc == 0; k++)
				if (log.spawns[s].slots[k].ltid > 0)
					rc = fn(arg, g.gl_pathv[i], &log.spawns[s],
						&log.spawns[s].slots[k]);
		pg_exec_free(&log);
	}
	globfree(&g);
	return rc;
}

/* The most hosts.added lines read. */
#define ADDED_MAX 32

/* The virtual machine's hosts, and those the recording's program added
 * in mid-run (hosts.added), for check_slot. */
struct vm_hosts {
	struct pvmhostinfo *hosts;
	int nhost;
	char added[ADDED_MAX][PG_HOST_MAX];
	int nadded, said;
	const struct la_opts *o;
};

/* Reads LOGDIR/hosts.added (the hosts the recorded program added in
 * mid-run) into VM; 0 (no such file: none), or -1 after saying why it
 * is refused. */
static int read_added(const char *logdir, struct vm_hosts *vm)
{
	char path[PG_PATH_MAX + 16], line[PG_HOST_MAX + 32];
	int version = 0;
	FILE *f;

	vm->nadded = vm->said = 0;
	snprintf(path, sizeof(path), "%s/hosts.added", logdir);
	if (!(f = fopen(path, "r")))
		return errno == ENOENT ? 0 : (la_error("refusing to replay: "
			"cannot read %s: %s", path, strerror(errno)), -1);
	if (!fgets(line, sizeof(line), f) ||
	    sscanf(line, "pangaea-hosts-added %d", &version) != 1 ||
	    version != PG_HOSTS_ADDED_VERSION) {
		la_error("refusing to replay: %s: not a hosts.added of version "
			 "%d", path, PG_HOSTS_ADDED_VERSION);
		fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f) && vm->nadded < ADDED_MAX) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			snprintf(vm->added[vm->nadded++], PG_HOST_MAX, "%s", line);
	}
	fclose(f);
	return 0;
}

/* Notes in LOGDIR/hosts.added that HOST joined the run's machine in
 * mid-run (a replay accepts it missing: its program adds it again). */
static void note_added(const char *logdir, const char *host)
{
	char path[PG_PATH_MAX + 16];
	FILE *f;
	int fresh;

	if (!logdir)
		return;
	snprintf(path, sizeof(path), "%s/hosts.added", logdir);
	fresh = access(path, F_OK) != 0;
	if (!(f = fopen(path, "a")))
		return;
	if (fresh)
		fprintf(f, "pangaea-hosts-added %d\n", PG_HOSTS_ADDED_VERSION);
	fprintf(f, "%s\n", host);
	fclose(f);
}

/* Refuses the slot SL if its host is not in the VM (ARG); 0 or -1. */
static int check_slot(void *arg, const char *path,
		      const struct pg_spawn_rec *sp,
		      const struct pg_spawn_slot *sl)
{
	struct vm_hosts *vm = arg;
	char names[1024], file[PG_PATH_MAX];

	if (in_vm(sl->host, vm->hosts, vm->nhost))
		return 0;
	for (int i = 0; i < vm->nadded; i++)
		if (strcmp(vm->added[i], sl->host) == 0) {
			if (!vm->said++)
				la_say(vm->o, "host %s is not in the virtual "
				       "machine: the recorded program added it "
				       "in mid-run (pvm_addhosts), its replay "
				       "does so again", sl->host);
			return 0;
		}
	snprintf(file, sizeof(file), "%s", sp->file);
	host_names(vm->hosts, vm->nhost, names, sizeof(names));
	la_error("refusing to replay: task %d (%s) was recorded on host %s, "
		 "which is not in the virtual machine (its hosts: %s): add %s "
		 "to it, or move the task to one of them in %s", sl->ltid,
		 basename(file), sl->host, names, sl->host, path);
	return -1;
}

int la_hosts_check(const struct la_opts *o)
{
	const char *logdir = o->logdir;
	struct vm_hosts vm = { .o = o };
	int narch;

	if (pvm_config(&vm.nhost, &narch, &vm.hosts) < 0) {
		la_error("refusing to replay: cannot list the virtual "
			 "machine's hosts");
		return -1;
	}
	if (read_added(logdir, &vm) < 0)
		return -1;
	return each_slot(logdir, check_slot, &vm);
}

int la_hosts_archs(struct pg_runinfo *ri)
{
	struct pvmhostinfo *hosts;
	int nhost, narch;

	if (pvm_config(&nhost, &narch, &hosts) < 0 || narch < 2)
		return 0;
	for (int i = 0; i < nhost; i++)
		if (pg_runinfo_add_arch(ri, hosts[i].hi_name, hosts[i].hi_arch) < 0)
			return -1;
	return 0;
}

/* The virtual machine's count of architectures, its hosts' into *NHOST;
 * -1 if PVM cannot say. */
static int vm_counts(int *nhost)
{
	struct pvmhostinfo *hosts;
	int narch;

	return pvm_config(nhost, &narch, &hosts) < 0 ? -1 : narch;
}

int la_hosts_narch(void)
{
	int nhost;

	return vm_counts(&nhost);
}

int la_hosts_count(void)
{
	int nhost;

	return vm_counts(&nhost) < 0 ? -1 : nhost;
}

int la_hosts_has(const char *name, char *names, size_t n)
{
	struct pvmhostinfo *hosts;
	int nhost, narch;

	if (pvm_config(&nhost, &narch, &hosts) < 0) {
		snprintf(names, n, "(cannot list them)");
		return 0;
	}
	host_names(hosts, nhost, names, n);
	return in_vm(name, hosts, nhost);
}

int la_hosts_arch(const char *name, const char *arch, char *out, size_t n)
{
	struct pvmhostinfo *hosts;
	int nhost, narch, found = 0;
	size_t k = 0;

	out[0] = '\0';
	if (pvm_config(&nhost, &narch, &hosts) < 0)
		return -1;
	for (int i = 0; i < nhost; i++) {
		if (name && strcmp(hosts[i].hi_name, name) == 0) {
			snprintf(out, n, "%s", hosts[i].hi_arch);
			return 1;
		}
		if (arch && strcmp(hosts[i].hi_arch, arch) == 0)
			found = 1;
	}
	if (name || found)
		return found;
	for (int i = 0; i < nhost && k < n; i++)
		k += (size_t)snprintf(out + k, n - k, "%s%s %s", i ? ", " : "",
				      hosts[i].hi_name, hosts[i].hi_arch);
	return 0;
}

/* A host whose beacon was silent this long is lost (the beacon speaks
 * every 250 ms: coordinator/beacon.c)... */
#define LOST_S 4.0
#define PING_S 0.25
/* ... if another watched beacon was heard from since (SHARED_S or more
 * after the silent one's last word): the way to the launcher works, that
 * host alone is silent (and so for the only beacon: nothing to compare
 * with).  A silence all the beacons share may be the launcher's side (its
 * pvmd, its host, the whole machine under load): it counts up to a
 * longer bound (the beacons' own, after which they end the run on their
 * hosts: ORPHAN_S in beacon.c).  When every beacon (two at least) was
 * silent for SHARED_S, the words held back then come one beacon after
 * the other: for SETTLE_S after the first, no host is taken as lost
 * before the longer bound. */
#define LOST_SHARED_S 10.0
#define SHARED_S 1.0
#define SETTLE_S 2.0
/* The launcher looks for lost hosts every 200 ms or so; a longer gap
 * between two looks is time the launcher itself did not run (stopped,
 * starved of CPU, blocked in a call), which is no beacon's silence. */
#define STALL_S 1.0

/* The last word of any beacon (la_death_now), and until when the
 * longer bound holds after a shared silence (one run per launcher). */
static double any_heard, settle_until;

/* Whether every watched beacon of R, two at least, has been silent for
 * SHARED_S at NOW. */
static int silence_shared(const struct la_run *r, double now)
{
	int watched = 0;

	for (int i = 0; i < r->nbeacons; i++)
		watched += !r->beacons[i].ended;
	return watched >= 2 && now - any_heard >= SHARED_S;
}

/* Whether another watched beacon of R than B was heard from SHARED_S or
 * more after B's last word, or there is no other (nothing to compare
 * with: B's silence is its host's, as before the rule). */
static int others_heard(const struct la_run *r, const struct la_beacon *b)
{
	int others = 0;

	for (int i = 0; i < r->nbeacons; i++) {
		const struct la_beacon *o = &r->beacons[i];

		if (o == b || o->ended)
			continue;
		if (o->heard >= b->heard + SHARED_S)
			return 1;
		others++;
	}
	return others == 0;
}

/* Starts a beacon on HOST and watches it; 0, or -1 if it could not be
 * started (a host without it is only not watched).  With a live view it
 * also follows the logs of HOST's tasks (-follow), and sends their
 * events to the coordinator (-events-to), unless the coordinator runs
 * there and does. */
static int start_beacon(struct la_run *r, const char *host)
{
	char path[PG_PATH_MAX + 32], opt[] = "-beacon", follow[] = "-follow";
	char to[] = "-events-to", dir[PG_PATH_MAX], tid[16];
	char *argv[6] = { opt, follow, dir, to, tid, NULL };
	const char *live = getenv(PG_ENV_LIVE);
	struct la_beacon *b, *more;

	if (la_coord_path(path, sizeof(path)) < 0)
		return -1;
	if (!live || !*live || !r->logdir || !r->coord_tid ||
	    strcmp(host, r->coord_host) == 0)
		argv[1] = NULL;
	snprintf(dir, sizeof(dir), "%s", r->logdir ? r->logdir : "");
	snprintf(tid, sizeof(tid), "%d", r->coord_tid);
	more = realloc(r->beacons, (size_t)(r->nbeacons + 1) * sizeof(*more));
	if (!more)
		return -1;
	r->beacons = more;
	b = &r->beacons[r->nbeacons];
	memset(b, 0, sizeof(*b));
	if (pvm_spawn(path, argv, PvmTaskHost, (char *)host, 1, &b->tid) != 1)
		return -1;
	snprintf(b->host, sizeof(b->host), "%s", host);
	b->heard = any_heard = la_death_now();
	pvm_notify(PvmTaskExit, PG_TAG_EXITED, 1, &b->tid);
	r->nbeacons++;
	return 0;
}

void la_hosts_watch(struct la_run *r)
{
	struct pvmhostinfo *hosts;
	struct pg_strbuf unfollowed = { 0 };
	char home[PG_HOST_MAX];
	int nhost, narch, here = pvm_tidtohost(pvm_mytid());

	/* (hosts the program adds in mid-run: la_hosts_added, whose
	   beacons follow their logs too) */
	pvm_notify(PvmHostAdd, PG_TAG_HOSTADD, -1, NULL);
	if (pvm_config(&nhost, &narch, &hosts) < 0)
		nhost = 0;
	for (int i = 0; i < nhost; i++)
		if (hosts[i].hi_tid != here &&
		    start_beacon(r, hosts[i].hi_name) < 0 &&
		    strcmp(hosts[i].hi_name, r->coord_host) != 0)
			pg_strbuf_printf(&unfollowed, " !%s", hosts[i].hi_name);
	/* a live view: every host's tasks are followed (they send no
	   batches) but ours when no follower runs here, and those of a
	   host whose beacon did not start */
	pg_pvm_host_of(pvm_mytid(), home, sizeof(home));
	if (!r->live_here)
		pg_strbuf_printf(&unfollowed, " !%s", home);
	if (getenv(PG_ENV_LIVE) && *getenv(PG_ENV_LIVE)) {
		char all[2048];

		snprintf(all, sizeof(all), "*%s", unfollowed.p ? unfollowed.p : "");
		la_vm_export(PG_ENV_LIVE_FOLLOW, all);
	}
	pg_strbuf_free(&unfollowed);
}

void la_hosts_added(struct la_run *r)
{
	struct pvmhostinfo *hosts;
	int n, dtid, nhost, narch;

	if (pvm_upkint(&n, 1, 1) < 0 || pvm_config(&nhost, &narch, &hosts) < 0)
		return;
	for (int i = 0; i < n && pvm_upkint(&dtid, 1, 1) >= 0; i++)
		for (int h = 0; h < nhost; h++)
			if (hosts[h].hi_tid == dtid) {
				note_added(r->logdir, hosts[h].hi_name);
				if (start_beacon(r, hosts[h].hi_name) == 0)
					la_say(r->o, "host %s joined the virtual "
					       "machine during the run: watched",
					       hosts[h].hi_name);
				else
					la_say(r->o, "host %s joined the virtual "
					       "machine during the run; no "
					       "beacon could start there: not "
					       "watched", hosts[h].hi_name);
			}
}

void la_hosts_heard(struct la_run *r, int src)
{
	double now = la_death_now();

	for (int i = 0; i < r->nbeacons; i++)
		if (r->beacons[i].tid == src) {
			if (silence_shared(r, now))
				settle_until = now + SETTLE_S;
			r->beacons[i].heard = any_heard = now;
		}
}

int la_hosts_exited(struct la_run *r, int tid)
{
	for (int i = 0; i < r->nbeacons; i++)
		if (r->beacons[i].tid == tid) {
			r->beacons[i].ended = 1;
			return 1;
		}
	return 0;
}

int la_hosts_lose_tasks(struct la_run *r, const char *host,
			struct pg_strbuf *list)
{
	double now = la_death_now() - r->t0;
	int count = 0;

	for (int i = 0; i < r->ntasks; i++) {
		struct la_task *t = &r->tasks[i];
		char prog[PG_PATH_MAX];

		if (t->exited || strcmp(t->host, host) != 0)
			continue;
		snprintf(prog, sizeof(prog), "%s", t->program);
		pg_strbuf_printf(list, "%s%d (%s)", count ? ", " : "", t->ltid,
				 basename(prog));
		t->exited = t->said = t->checked = 1;
		t->gone_at = now;
		count++;
	}
	return count;
}

/* Sends BEACON to every watched beacon, every PING_S, with the time of
 * the run: a beacon that has no fresh one for a while ends the run on
 * its host itself (a late one does not count: coordinator/beacon.c). */
static void ping_beacons(struct la_run *r, double now)
{
	static double last;
	int ms = (int)((now - r->t0) * 1000);

	if (now - last < PING_S)
		return;
	last = now;
	for (int i = 0; i < r->nbeacons; i++)
		if (!r->beacons[i].ended)
			pg_proto_send(r->beacons[i].tid, PG_TAG_BEACON, &ms);
}

/* Forgives R's beacons the time from the last look (LAST) to NOW if the
 * launcher did not look for STALL_S or more: it did not run meanwhile,
 * and their words may be waiting, unread, in its socket. */
static void skip_stall(struct la_run *r, double last, double now)
{
	if (last == 0 || now - last < STALL_S)
		return;
	for (int i = 0; i < r->nbeacons; i++)
		r->beacons[i].heard += now - last;
	any_heard += now - last;
}

int la_hosts_lost(struct la_run *r)
{
	static double last;
	double now = la_death_now();
	struct pg_strbuf list = { 0 };
	int settling;

	if (r->lost_host || r->lost_pvmd)
		return 0;
	skip_stall(r, last, now);
	last = now;
	settling = now < settle_until;
	ping_beacons(r, now);
	for (int i = 0; i < r->nbeacons; i++) {
		struct la_beacon *b = &r->beacons[i];
		int n, coord;

		if (b->ended || now - b->heard < (settling || !others_heard(r, b) ?
						  LOST_SHARED_S : LOST_S))
			continue;
		b->ended = b->lost = 1;
		pg_strbuf_reset(&list);
		n = la_hosts_lose_tasks(r, b->host, &list);
		coord = 0;
		if (r->coord_tid && !r->coord_exited &&
		    strcmp(r->coord_host, b->host) == 0) {
			coord = 1;
			r->coord_exited = 1; /* it cannot be stopped */
		}
		if (n == 0 && !coord) {
			la_say(r->o, "lost host %s (silent for %.0f s); no task of "
			       "the run was on it", b->host, now - b->heard);
			continue;
		}
		la_error("lost host %s: silent for %.0f s (its pvmd or its "
			 "network is gone); %s%s%s%s went with it: stopping the run",
			 b->host, now - b->heard, n ? "task(s) " : "",
			 list.p ? list.p : "", n && coord ? " and " : "",
			 coord ? "the coordinator" : "");
		pg_strbuf_free(&list);
		r->lost_host = 1;
		r->died = 1;
		la_tasks_kill(r);
		return 1;
	}
	pg_strbuf_free(&list);
	return 0;
}

void la_hosts_stop(struct la_run *r)
{
	int me = r->died || r->diverged[0] || r->interrupted || r->logfail ||
		 r->lost_host ? PG_QUIT_SWEEP : pvm_mytid();

	for (int i = 0; i < r->nbeacons; i++)
		if (!r->beacons[i].ended)
			pg_proto_send(r->beacons[i].tid, PG_TAG_QUIT, &me);
	free(r->beacons);
	r->beacons = NULL;
	r->nbeacons = 0;
}

/* How long a beacon may keep the launcher waiting for its next piece. */
#define SHIP_WAIT_S 15
#define LOST_WAIT_S 2

/* Takes the LOGFILE pieces of run R's beacon B with W into DIR until its
 * end piece, waiting at most WAIT_S for each (and pinging the beacons
 * meanwhile, unless a host was lost); 0, or -1 after saying why. */
static int take_pieces(struct la_run *r, const struct la_beacon *b,
		       const char *dir, struct pg_logship_writer *w, int wait_s)
{
	char err[PG_PATH_MAX + 100];
	int end = 0, failed = 0;

	while (!end) {
		double t0 = la_death_now();
		int bid, tag, src, version;

		do {
			struct timeval tmout = { 0, 250000 };

			/* (a transfer is no silence for the beacons, but
			   after a lost host the launcher's BEACONs have
			   stopped for good) */
			if (!r->lost_host)
				ping_beacons(r, la_death_now());
			bid = pvm_trecv(b->tid, PG_TAG_LOGFILE, &tmout);
		} while (bid == 0 && la_death_now() - t0 < wait_s);

		if (bid <= 0) {
			la_error("host %s: its beacon did not answer within "
				 "%d s (%s)", b->host, wait_s,
				 bid == 0 ? "no message" : pg_pvm_errtext(bid));
			return -1;
		}
		if (pg_proto_check(bid, &tag, &src, &version) < 0 ||
		    pg_ship_take(w, dir, &end, err, sizeof(err)) < 0) {
			if (!failed++)
				la_error("host %s: %s", b->host, version !=
					 PG_PROTOCOL_VERSION ? "its beacon "
					 "speaks another protocol version" : err);
		}
	}
	return failed ? -1 : 0;
}

int la_hosts_left(const struct la_run *r, const char *host,
		  const char *logdir, struct pg_strbuf *ltids,
		  struct pg_strbuf *files)
{
	char path[PG_PATH_MAX + 32];
	int n = 0;

	for (int i = 0; i < r->ntasks; i++) {
		const struct la_task *t = &r->tasks[i];

		snprintf(path, sizeof(path), "%s/task-%d.comm", logdir, t->ltid);
		if (strcmp(t->host, host) != 0 || access(path, F_OK) == 0)
			continue;
		pg_strbuf_printf(ltids, "%s%d", n++ ? " " : "", t->ltid);
		pg_strbuf_printf(files, "'%s:%s/task-%d.*' ", host, logdir,
				 t->ltid);
	}
	return n;
}

/* Says which task logs of the run stayed on HOST (those of its tasks
 * that LOGDIR here lacks), and how to fetch them: every one, however
 * many. */
static void say_left(const struct la_run *r, const char *host,
		     const char *logdir)
{
	struct pg_strbuf ltids = { 0 }, files = { 0 };

	if (la_hosts_left(r, host, logdir, &ltids, &files) > 0)
		la_error("the logs of task(s) %s stayed on host %s, in %s "
			 "there; to fetch them: scp %s%s/", ltids.p ? ltids.p :
			 "", host, logdir, files.p ? files.p : "", logdir);
	pg_strbuf_free(&ltids);
	pg_strbuf_free(&files);
}

void la_hosts_collect(struct la_run *r, const char *logdir)
{
	char hosts[1024] = "";
	size_t k = 0;
	int files = 0;

	for (int i = 0; i < r->nbeacons; i++)
		if (!r->beacons[i].ended)
			pg_proto_send_logs_ask(r->beacons[i].tid, logdir);
	for (int i = 0; i < r->nbeacons; i++) {
		struct la_beacon *b = &r->beacons[i];
		struct pg_logship_writer w = { .fd = -1 };

		if (b->ended)
			continue;
		/* (after a lost host, the pvmds may hold messages back) */
		if (take_pieces(r, b, logdir, &w, r->lost_host ? LOST_WAIT_S :
				SHIP_WAIT_S) < 0)
			say_left(r, b->host, logdir);
		pg_logship_close(&w);
		b->heard = la_death_now();
		if (w.written && k < sizeof(hosts))
			k += (size_t)snprintf(hosts + k, sizeof(hosts) - k,
					      "%s%s", k ? " " : "", b->host);
		files += w.written;
	}
	if (files)
		la_say(r->o, "collected %d log file(s) from host(s) %s", files,
		       hosts);
	for (int i = 0; i < r->nbeacons; i++)
		if (r->beacons[i].lost)
			say_left(r, r->beacons[i].host, logdir);
}

/* The recorded logs of the tasks to run on one host, for ship_slot. */
struct ship_list {
	const char *host, *dir;
	char **names;
	int n, cap;
};

/* Adds the logs of SL's task to the list ARG if it runs on its host. */
static int ship_slot(void *arg, const char *path,
		     const struct pg_spawn_rec *sp,
		     const struct pg_spawn_slot *sl)
{
	struct ship_list *l = arg;
	static const char *const kinds[] = { "comm", "exec" };

	(void)path;
	(void)sp;
	if (strcmp(sl->host, l->host) != 0)
		return 0;
	for (int j = 0; j < 2; j++) {
		char name[64], file[PG_PATH_MAX + 80], **more;

		snprintf(name, sizeof(name), "task-%d.%s", sl->ltid, kinds[j]);
		snprintf(file, sizeof(file), "%s/%s", l->dir, name);
		if (access(file, F_OK) < 0)
			continue;
		if (l->n == l->cap) {
			l->cap = l->cap ? 2 * l->cap : 16;
			more = realloc(l->names, (size_t)l->cap * sizeof(char *));
			if (!more)
				return -1;
			l->names = more;
		}
		if (!(l->names[l->n] = strdup(name)))
			return -1;
		l->n++;
	}
	return 0;
}

int la_hosts_ship(struct la_run *r, const char *recdir)
{
	char err[PG_PATH_MAX + 100];
	int rc = 0;

	for (int i = 0; i < r->nbeacons && rc == 0; i++) {
		struct la_beacon *b = &r->beacons[i];
		struct ship_list l = { .host = b->host, .dir = recdir };
		struct pg_logship_writer w = { .fd = -1 };

		if (b->ended)
			continue;
		if (each_slot(recdir, ship_slot, &l) != 0) {
			la_error("refusing to replay: out of memory");
			rc = -1;
		} else if (l.n > 0) {
			if (pg_ship_send(b->tid, recdir, l.names, l.n, err,
					 sizeof(err)) < 0) {
				la_error("refusing to replay: host %s: %s",
					 b->host, err);
				rc = -1;
			} else if (take_pieces(r, b, recdir, &w, SHIP_WAIT_S) < 0) {
				rc = -1;
			}
			b->heard = la_death_now();
		}
		pg_logship_free(l.names, l.n);
	}
	return rc;
}
