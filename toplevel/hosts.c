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

#include <glob.h>
#include <libgen.h>
#include <pvm3.h>
#include <stdlib.h>
#include <string.h>
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

/* Checks the slots of the exec log PATH against HOSTS; 0, or -1 said. */
static int check_log(const char *path, const struct pvmhostinfo *hosts,
		     int nhost)
{
	struct pg_exec_log log;
	char err[PG_PATH_MAX + 100], names[1024];
	int rc = 0;

	if (pg_exec_read(path, &log, err, sizeof(err)) < 0) {
		la_error("refusing to replay: %s", err);
		return -1;
	}
	for (int s = 0; s < log.nspawn && rc == 0; s++) {
		const struct pg_spawn_rec *sp = &log.spawns[s];

		for (int i = 0; i < sp->started && rc == 0; i++) {
			const struct pg_spawn_slot *sl = &sp->slots[i];
			char file[PG_PATH_MAX];

			if (sl->ltid <= 0 || in_vm(sl->host, hosts, nhost))
				continue;
			snprintf(file, sizeof(file), "%s", sp->file);
			host_names(hosts, nhost, names, sizeof(names));
			la_error("refusing to replay: task %d (%s) was recorded "
				 "on host %s, which is not in the virtual machine "
				 "(its hosts: %s): add %s to it, or move the task "
				 "to one of them in %s", sl->ltid, basename(file),
				 sl->host, names, sl->host, path);
			rc = -1;
		}
	}
	pg_exec_free(&log);
	return rc;
}

int la_hosts_check(const char *logdir)
{
	struct pvmhostinfo *hosts;
	char pattern[PG_PATH_MAX + 16];
	int nhost, narch, rc = 0;
	glob_t g;

	if (pvm_config(&nhost, &narch, &hosts) < 0) {
		la_error("refusing to replay: cannot list the virtual "
			 "machine's hosts");
		return -1;
	}
	snprintf(pattern, sizeof(pattern), "%s/task-*.exec", logdir);
	if (glob(pattern, 0, NULL, &g) != 0)
		return 0; /* no exec log: replay_prepare has said so already */
	for (size_t i = 0; i < g.gl_pathc && rc == 0; i++)
		rc = check_log(g.gl_pathv[i], hosts, nhost);
	globfree(&g);
	return rc;
}

/* A host whose beacon was silent this long is lost (the beacon speaks
 * every 250 ms: coordinator/beacon.c). */
#define LOST_S 4.0
#define PING_S 0.25

void la_hosts_watch(struct la_run *r)
{
	char self[PG_PATH_MAX], path[PG_PATH_MAX + 32], opt[] = "-beacon";
	char *argv[2] = { opt, NULL };
	struct pvmhostinfo *hosts;
	int nhost, narch, here = pvm_tidtohost(pvm_mytid());
	ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (k <= 0 || pvm_config(&nhost, &narch, &hosts) < 0 || nhost < 2)
		return;
	self[k] = '\0';
	snprintf(path, sizeof(path), "%s/pangaea-coord", dirname(self));
	r->beacons = calloc((size_t)nhost, sizeof(*r->beacons));
	if (!r->beacons)
		return;
	for (int i = 0; i < nhost; i++) {
		struct la_beacon *b = &r->beacons[r->nbeacons];

		if (hosts[i].hi_tid == here ||
		    pvm_spawn(path, argv, PvmTaskHost, hosts[i].hi_name, 1,
			      &b->tid) != 1)
			continue; /* (a host without it is only not watched) */
		snprintf(b->host, sizeof(b->host), "%s", hosts[i].hi_name);
		b->heard = la_death_now();
		pvm_notify(PvmTaskExit, PG_TAG_EXITED, 1, &b->tid);
		r->nbeacons++;
	}
}

void la_hosts_heard(struct la_run *r, int src)
{
	for (int i = 0; i < r->nbeacons; i++)
		if (r->beacons[i].tid == src)
			r->beacons[i].heard = la_death_now();
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

/* Takes the tasks of the run on HOST as gone with it, listing them in
 * LIST; how many there were. */
static int lose_tasks(struct la_run *r, const char *host, char *list, size_t n)
{
	double now = la_death_now() - r->t0;
	size_t k = 0;
	int count = 0;

	list[0] = '\0';
	for (int i = 0; i < r->ntasks; i++) {
		struct la_task *t = &r->tasks[i];
		char prog[PG_PATH_MAX];

		if (t->exited || strcmp(t->host, host) != 0)
			continue;
		snprintf(prog, sizeof(prog), "%s", t->program);
		if (k < n)
			k += (size_t)snprintf(list + k, n - k, "%s%d (%s)",
					      count ? ", " : "", t->ltid,
					      basename(prog));
		t->exited = t->said = t->checked = 1;
		t->gone_at = now;
		count++;
	}
	return count;
}

/* Sends BEACON to every watched beacon, every PING_S: a beacon that
 * stops hearing the launcher ends the run on its host itself. */
static void ping_beacons(struct la_run *r, double now)
{
	static double last;

	if (now - last < PING_S)
		return;
	last = now;
	for (int i = 0; i < r->nbeacons; i++)
		if (!r->beacons[i].ended)
			pg_proto_send(r->beacons[i].tid, PG_TAG_BEACON, NULL);
}

int la_hosts_lost(struct la_run *r)
{
	double now = la_death_now();
	char list[1024];

	if (r->lost_host || r->lost_pvmd)
		return 0;
	ping_beacons(r, now);
	for (int i = 0; i < r->nbeacons; i++) {
		struct la_beacon *b = &r->beacons[i];
		int n, coord;

		if (b->ended || now - b->heard < LOST_S)
			continue;
		b->ended = 1;
		n = lose_tasks(r, b->host, list, sizeof(list));
		coord = 0;
		if (r->coord_tid && !r->coord_exited) {
			char coord_host[PG_HOST_MAX];

			pg_pvm_host_of(r->coord_tid, coord_host, sizeof(coord_host));
			coord = strcmp(coord_host, b->host) == 0;
			if (coord)
				r->coord_exited = 1; /* it cannot be stopped */
		}
		if (n == 0 && !coord) {
			la_say(r->o, "lost host %s (silent for %.0f s); no task of "
			       "the run was on it", b->host, now - b->heard);
			continue;
		}
		la_error("lost host %s: silent for %.0f s (its pvmd or its "
			 "network is gone); %s%s%s%s went with it: stopping the run",
			 b->host, now - b->heard, n ? "task(s) " : "", list,
			 n && coord ? " and " : "", coord ? "the coordinator" : "");
		r->lost_host = 1;
		r->died = 1;
		la_tasks_kill(r);
		return 1;
	}
	return 0;
}

void la_hosts_stop(struct la_run *r)
{
	int me = pvm_mytid();

	for (int i = 0; i < r->nbeacons; i++)
		if (!r->beacons[i].ended)
			pg_proto_send(r->beacons[i].tid, PG_TAG_QUIT, &me);
	free(r->beacons);
	r->beacons = NULL;
	r->nbeacons = 0;
}
