/*
 * crosscheck.c: checks the logs of a recording against each other before
 * it is replayed.  Logs that each parse may still disagree (two tasks'
 * comm logs swapped, a receive's peer edited): replaying them would wait
 * for ever for a message nobody sends.  The first contradiction found is
 * named, with its file and record, in this order:
 *
 *   1. each comm log's header names the ltid of its file name, and its
 *      parent; each exec log's header likewise;
 *   2. the spawns of the exec logs and the comm logs present agree: every
 *      task spawned has a comm log, but one that a task of the run killed
 *      (a kill record names it) before it joined; every comm log (but
 *      task 0's) was spawned by its parent;
 *   3. run.info (when there is one) lists exactly the tasks with logs,
 *      and those killed before they joined;
 *   4. every recorded receive names a send of its sender's log (sender
 *      ltid + message id, to this task, with the same tag), received
 *      once.  The pairing is the one matcher's (match.c): the sends of
 *      every log are fed first, then the receives, one log after another;
 *   5. every call record (a query, the mailbox, pvm_exit) that names a
 *      task names one with a log, and a pvm_exit record is followed by
 *      nothing but the task's end.
 *
 * A selective run (-select, in the comm headers) logs part of its
 * messages: a receive whose send is not logged is then no contradiction,
 * and neither is a message id the sender's log skips (pangaea_suspend).
 */
#include "pangaea-analysis.h"
#include "match.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the check knows of one task's comm log after the first pass. */
struct cc_task {
	int ltid;
	uint32_t *ids;     /* the ids of its logged sends, ascending */
	size_t nids, cap;
	uint32_t maxid;    /* the largest of them */
	int ended;         /* its log has an end record, not a signal's */
	int nspawn;        /* its spawn records */
};

/* The check of one folder. */
struct cc {
	const char *dir;
	struct pg_run run; /* its tasks with a comm log */
	int *ltids;        /* run.ltids: ascending */
	int n;             /* run.n */
	struct cc_task *tasks; /* one per ltids[i] */
	int *killed;       /* the ltids the kill records name (pass 1) */
	size_t nkilled, kcap;
	int selective;
	struct pg_match m;
	char *err;
	size_t errlen;
	/* the receive being fed (for the matcher's callback) */
	const char *file;
	long rec;
	size_t off;
	const struct pg_event *ev;
};

/* Sets the contradiction (or the error) text; returns RC. */
static int cc_fail(struct cc *c, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int cc_fail(struct cc *c, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return rc;
}

/* The task of LTID among those with a comm log, or NULL. */
static struct cc_task *cc_task(struct cc *c, int ltid)
{
	int lo = 0, hi = c->n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (c->ltids[mid] == ltid)
			return &c->tasks[mid];
		if (c->ltids[mid] < ltid)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

/* Whether T's log has a send with message id ID; 1 or 0. */
static int cc_has_id(const struct cc_task *t, uint32_t id)
{
	size_t lo = 0, hi = t->nids;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->ids[mid] == id)
			return 1;
		if (t->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Notes the send EV of task T (its id, once: an mcast is one id). */
static int cc_note_send(struct cc_task *t, const struct pg_event *ev)
{
	uint32_t *v;

	if (t->nids && t->ids[t->nids - 1] >= ev->msgid)
		return 0; /* not ascending: the matcher tells duplicates */
	if (!(v = pg_grow(t->ids, &t->cap, t->nids + 1, sizeof(*v), 64)))
		return -1;
	t->ids = v;
	t->ids[t->nids++] = ev->msgid;
	t->maxid = ev->msgid;
	return 0;
}

/* Notes that a kill record names task LTID; 0, or -1 no memory. */
static int cc_note_kill(struct cc *c, int ltid)
{
	int *v = pg_grow(c->killed, &c->kcap, c->nkilled + 1, sizeof(*v), 8);

	if (!v)
		return -1;
	c->killed = v;
	c->killed[c->nkilled++] = ltid;
	return 0;
}

/* Whether a task of the run killed task LTID (pvm_kill); 1 or 0. */
static int cc_killed(const struct cc *c, int ltid)
{
	for (size_t i = 0; i < c->nkilled; i++)
		if (c->killed[i] == ltid)
			return 1;
	return 0;
}

/* A send end waits for its receive: nothing to say yet. */
static int cc_on_send(void *arg, enum pg_match_what what,
		      const struct pg_match_end *e,
		      const struct pg_match_end *other)
{
	return 0;
}

/* Pass 1 over task T's log R: its header, its sends (fed to the
 * matcher), its end; 0, 1 a contradiction, -1 unreadable. */
static int cc_pass_sends(struct cc *c, struct cc_task *t,
			 struct pg_comm_reader *r)
{
	struct pg_event ev;
	int k = 0, rc = 0;

	/* (the reader itself refuses a header that is not its file's task) */
	if (t->ltid > 0 && r->hdr.parent_ltid != t->ltid / 1000)
		rc = cc_fail(c, 1, "%s: its header names parent %d; task %d's "
			     "parent is %d", r->path, r->hdr.parent_ltid,
			     t->ltid, t->ltid / 1000);
	c->selective |= r->hdr.select[0] != '\0';
	while (rc == 0 && (k = pg_comm_next(r, &ev, c->err, c->errlen)) > 0) {
		if (ev.kind == PG_REC_END) /* a signal may strike between a
					      send and its record */
			t->ended = ev.how != PG_END_SIGNAL;
		else if (ev.kind == PG_REC_SPAWN)
			t->nspawn++;
		else if (ev.kind == PG_REC_KILL && ev.peer > 0 &&
			 cc_note_kill(c, ev.peer) < 0)
			rc = cc_fail(c, -1, "out of memory");
		if (pg_rec_kind_class(ev.kind) != PG_CLASS_SEND)
			continue;
		if (cc_note_send(t, &ev) < 0 ||
		    pg_match_event(&c->m, t->ltid, 0, &ev, 0, 0, cc_on_send,
				   NULL) < 0)
			rc = cc_fail(c, -1, "out of memory");
	}
	if (rc == 0 && k < 0)
		rc = -1;
	return rc;
}

/* Why the receive being fed (end E) has no send: the contradiction. */
static int cc_unpaired(struct cc *c, const struct pg_match_end *e)
{
	const struct pg_match_run run = { c->ltids, c->n, c->selective };
	const char *why = pg_match_why(&c->m, e, &run);
	const struct cc_task *x = cc_task(c, e->src);
	char at[PG_PATH_MAX + 64];

	snprintf(at, sizeof(at), "%s, record #%ld (offset %zu): %s from task "
		 "%d, message %u, tag %d", c->file, c->rec, c->off,
		 pg_rec_kind_name(e->kind), e->src, e->msgid, e->tag);
	if (strcmp(why, "duplicate receive") == 0)
		return cc_fail(c, 1, "%s: that message was received already",
			       at);
	if (!x)
		return c->selective ? 0 : cc_fail(c, 1, "%s: task %d has no "
						   "comm log", at, e->src);
	if (cc_has_id(x, e->msgid))
		return cc_fail(c, 1, "%s: task-%d.comm sent message %u to "
			       "another task", at, e->src, e->msgid);
	/* the sender logged every id up to its last, or ended after it */
	if (c->selective || (x->nids != x->maxid) ||
	    (e->msgid > x->maxid && !x->ended))
		return 0;
	return cc_fail(c, 1, "%s: task-%d.comm has no message %u (it logged "
		       "messages 1 to %u)", at, e->src, e->msgid, x->maxid);
}

/* The matcher's answer for a receive end. */
static int cc_on_recv(void *arg, enum pg_match_what what,
		      const struct pg_match_end *e,
		      const struct pg_match_end *other)
{
	struct cc *c = arg;

	if (what == PG_MATCH_WAITS)
		return cc_unpaired(c, e);
	if (what == PG_MATCH_PAIRED && other->tag != e->tag)
		return cc_fail(c, 1, "%s, record #%ld (offset %zu): %s from "
			       "task %d, message %u, tag %d: task-%d.comm "
			       "sent it with tag %d", c->file, c->rec, c->off,
			       pg_rec_kind_name(e->kind), e->src, e->msgid,
			       e->tag, e->src, other->tag);
	return 0;
}

/* Check 5 on the call record EV of the log being read (PREV_EXIT: the
 * record before it was a pvm_exit); 0 or 1 a contradiction. */
static int cc_call(struct cc *c, const struct pg_event *ev, int prev_exit)
{
	char d[PG_GROUP_MAX + 128];

	if (prev_exit && ev->kind != PG_REC_END)
		return cc_fail(c, 1, "%s, record #%ld (offset %zu): %s after "
			       "the task's pvm_exit", c->file, c->rec, c->off,
			       pg_rec_kind_name(ev->kind));
	/* (a selective run may leave a task without a log) */
	if (ev->kind != PG_REC_CALL || ev->peer <= 0 || c->selective ||
	    cc_task(c, ev->peer))
		return 0;
	pg_call_describe(ev, 0, d, sizeof(d));
	return cc_fail(c, 1, "%s, record #%ld (offset %zu): %s: task %d has "
		       "no comm log", c->file, c->rec, c->off, d, ev->peer);
}

/* Pass 2 over task T's log R: its receives, fed to the matcher, and
 * its call records (check 5); 0, 1 a contradiction, -1 unreadable. */
static int cc_pass_recvs(struct cc *c, struct cc_task *t,
			 struct pg_comm_reader *r)
{
	struct pg_event ev;
	int k, rc = 0, prev_exit = 0;

	c->file = strrchr(r->path, '/') ? strrchr(r->path, '/') + 1 : r->path;
	c->rec = 0;
	for (;;) {
		c->off = r->pos;
		if ((k = pg_comm_next(r, &ev, c->err, c->errlen)) <= 0)
			break;
		c->rec++;
		if ((rc = cc_call(c, &ev, prev_exit)) != 0)
			break;
		prev_exit = ev.kind == PG_REC_CALL && ev.op == PG_Q_EXIT;
		if (pg_rec_kind_class(ev.kind) != PG_CLASS_RECV)
			continue;
		rc = pg_match_event(&c->m, t->ltid, 0, &ev, 0, 0, cc_on_recv, c);
		if (rc < 0)
			rc = cc_fail(c, -1, "out of memory");
		if (rc)
			break;
	}
	return rc ? rc : k < 0 ? -1 : 0;
}

/* Checks task LTID's exec log (if any) against the comm logs present
 * (its header's ltid is its file's: pg_exec_read refuses others): every
 * child spawned has a comm log, the spawn records agree in number.  0, 1
 * or -1. */
static int cc_exec(struct cc *c, int ltid, struct pg_exec_log *log)
{
	const struct cc_task *t = cc_task(c, ltid);

	/* (a task killed between its two logs' writes has one spawn more in
	 * its exec log) */
	if (t && ltid > 0 && t->nspawn != log->nspawn &&
	    (t->ended || log->nspawn != t->nspawn + 1))
		return cc_fail(c, 1, "task-%d.exec has %d spawn(s), task-%d.comm "
			       "%d", ltid, log->nspawn, ltid, t->nspawn);
	for (int i = 0; i < log->nspawn; i++) {
		const struct pg_spawn_rec *s = &log->spawns[i];

		for (int j = 0; j < s->ntask; j++) {
			int kid = s->slots[j].ltid;

			if (kid > 0 && kid / 1000 != ltid)
				return cc_fail(c, 1, "task-%d.exec, spawn #%d "
					       "started task %d, which is not "
					       "a child of task %d", ltid,
					       s->seq, kid, ltid);
			/* (killed before it joined: no log) */
			if (kid > 0 && !cc_task(c, kid) && !cc_killed(c, kid))
				return cc_fail(c, 1, "task-%d.exec, spawn #%d "
					       "started task %d, which has no "
					       "comm log", ltid, s->seq, kid);
		}
	}
	return 0;
}

/* Whether LOG (task PARENT's exec log) spawned task LTID; 1 or 0. */
static int cc_spawned(const struct pg_exec_log *log, int ltid)
{
	for (int i = 0; i < log->nspawn; i++)
		for (int j = 0; j < log->spawns[i].ntask; j++)
			if (log->spawns[i].slots[j].ltid == ltid)
				return 1;
	return 0;
}

/* Check 2: the exec logs and the comm logs; 0, 1 or -1. */
static int cc_spawns(struct cc *c)
{
	struct pg_exec_log *logs = calloc((size_t)c->n + 1, sizeof(*logs));
	char path[PG_PATH_MAX];
	int rc = 0, have0;

	if (!logs)
		return cc_fail(c, -1, "out of memory");
	/* logs[0]: task 0's (the launcher has no comm log); logs[i + 1]:
	 * task ltids[i]'s, when it has one */
	for (int i = -1; rc == 0 && i < c->n; i++) {
		int ltid = i < 0 ? 0 : c->ltids[i];

		if (ltid == 0 && i >= 0)
			continue;
		if (pg_log_path(path, sizeof(path), c->dir, ltid, "exec") < 0)
			rc = cc_fail(c, -1, "log folder path too long");
		else if (pg_exec_read(path, &logs[i + 1], c->err, c->errlen) < 0)
			rc = 1; /* the reader named the file and why */
		else
			rc = cc_exec(c, ltid, &logs[i + 1]);
	}
	have0 = rc == 0;
	for (int i = 0; rc == 0 && i < c->n; i++) {
		int ltid = c->ltids[i], p = ltid / 1000;
		const struct pg_exec_log *pl = NULL;

		if (ltid <= 0)
			continue;
		if (p == 0)
			pl = have0 ? &logs[0] : NULL;
		else if (cc_task(c, p))
			pl = &logs[(cc_task(c, p) - c->tasks) + 1];
		if (!pl || !cc_spawned(pl, ltid))
			rc = cc_fail(c, 1, "task-%d.comm: task %d never spawned "
				     "task %d (task-%d.exec)", ltid, p, ltid, p);
	}
	for (int i = 0; i <= c->n; i++)
		pg_exec_free(&logs[i]);
	free(logs);
	return rc;
}

/* Check 3: run.info, if there is one, lists the tasks with logs; 0, 1
 * or -1. */
static int cc_runinfo(struct cc *c)
{
	struct pg_runinfo ri = { 0 };
	int rc = pg_runinfo_read(c->dir, &ri, c->err, c->errlen);

	if (rc <= 0)
		return rc;
	rc = 0;
	for (size_t i = 0; rc == 0 && i < ri.ntasks; i++)
		if (ri.tasks[i].ltid > 0 && !cc_task(c, ri.tasks[i].ltid) &&
		    !cc_killed(c, ri.tasks[i].ltid))
			rc = cc_fail(c, 1, "run.info lists task %d, which has no "
				     "comm log", ri.tasks[i].ltid);
	for (int i = 0; rc == 0 && ri.ntasks && i < c->n; i++)
		if (c->ltids[i] > 0 && !pg_runinfo_task(&ri, c->ltids[i]))
			rc = cc_fail(c, 1, "task-%d.comm: run.info does not list "
				     "task %d", c->ltids[i], c->ltids[i]);
	pg_runinfo_free(&ri);
	return rc;
}

/* One pass over every task's comm log in ltid order (RECVS: pass 2,
 * else pass 1); 0, 1 a contradiction, -1 unreadable. */
static int cc_pass(struct cc *c, int recvs)
{
	struct pg_comm_reader r;
	int rc = 0;

	c->run.i = -1; /* from the first task again */
	while (rc == 0 &&
	       (rc = pg_run_next(&c->run, &r, c->err, c->errlen)) > 0) {
		struct cc_task *t = &c->tasks[c->run.i];

		rc = recvs ? cc_pass_recvs(c, t, &r) : cc_pass_sends(c, t, &r);
		pg_comm_free(&r);
	}
	return rc;
}

/* Whether DIR holds a recording at all: task-0.exec, or a task's comm
 * log among RUN's; 1 or 0. */
static int cc_is_recording(const char *dir, const struct pg_run *run)
{
	char path[PG_PATH_MAX];

	return run->n > 0 ||
	       (pg_log_path(path, sizeof(path), dir, 0, "exec") == 0 &&
		access(path, F_OK) == 0);
}

int pg_crosscheck(const char *dir, char *err, size_t errlen)
{
	struct cc c = { .dir = dir, .err = err, .errlen = errlen };
	int rc = 0;

	err[0] = '\0';
	if (pg_run_open(&c.run, dir, err, errlen) < 0)
		return -1;
	if (!cc_is_recording(dir, &c.run)) {
		snprintf(err, errlen, "%s is not a recording (no task-0.exec, "
			 "no task-LTID.comm)", dir);
		pg_run_close(&c.run);
		return -1;
	}
	c.ltids = c.run.ltids;
	c.n = c.run.n;
	c.tasks = calloc((size_t)c.n + 1, sizeof(*c.tasks));
	if (!c.tasks)
		rc = cc_fail(&c, -1, "out of memory");
	for (int i = 0; rc == 0 && i < c.n; i++)
		c.tasks[i].ltid = c.ltids[i];
	if (rc == 0)
		rc = cc_pass(&c, 0);
	if (rc == 0)
		rc = cc_spawns(&c);
	if (rc == 0)
		rc = cc_runinfo(&c);
	if (rc == 0)
		rc = cc_pass(&c, 1);
	for (int i = 0; c.tasks && i < c.n; i++)
		free(c.tasks[i].ids);
	free(c.tasks);
	free(c.killed);
	pg_run_close(&c.run);
	pg_match_free(&c.m);
	return rc;
}
