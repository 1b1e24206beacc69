/*
 * kill.c: the run's own pvm_kill calls.  A task that kills another one
 * (pangaea_lib/pvm/kill.c) asks the launcher first (KILLING): the launcher
 * notes who kills whom, so that the victim's death is said as a kill
 * ("task 1001 (slave on vm) was killed by task 1 (pvm_kill)") and
 * neither ends the run nor counts against its exit status (death.c,
 * tasks.c).
 *
 * In replay a kill must strike where it struck when recorded: after the
 * victim's last recorded event, not before (it would miss events) and
 * not after (it would run past its log).  The victim, at a call past its
 * last event, asks the launcher (KILLWAIT); if the recording has a kill
 * record naming it, the launcher holds the victim's answer back (the
 * victim waits in it until it is killed) and answers the killer's
 * KILLING only then.  A victim that ended meanwhile lets its killer go
 * on at once; a killer that ended without its kill lets its victim go
 * on (its call then diverges); a victim that never comes to a call past
 * its log (it computes) is killed after KILL_PATIENCE_S all the same.
 */
#include "launcher.h"

#include <stdlib.h>
#include <string.h>

#define KILL_PATIENCE_S 10.0 /* a killer waits at most this for its victim */

/* Answers the question of the killer TID (ACK 0): it kills now. */
static void let_kill(int tid)
{
	int ok = 0;

	pg_proto_send(tid, PG_TAG_ACK, &ok);
}

/* Answers a victim's KILLWAIT (ANSWER -1): no kill is coming. */
static void let_go_on(int tid)
{
	int none = -1;

	pg_proto_send(tid, PG_TAG_ANSWER, &none);
}

/* Whether task T has ended (PVM said so, or it told its end). */
static int ended(const struct la_task *t)
{
	return t && (t->exited || t->done_how);
}

/* Reads the recording's kill records (once): victim ltid -> killer. */
static void load_recorded(struct la_run *r)
{
	char err[PG_PATH_MAX + 100];
	struct la_kills *k = &r->kills;
	struct pg_comm_reader rd;
	struct pg_event ev;
	struct pg_run run;
	int killer, got;

	if (k->loaded)
		return;
	k->loaded = 1;
	if (pg_run_open(&run, r->replaydir, err, sizeof(err)) < 0)
		return;
	while ((got = pg_run_next(&run, &rd, err, sizeof(err))) != 0) {
		if (got < 0)
			continue;
		while (pg_comm_next(&rd, &ev, err, sizeof(err)) > 0)
			if (ev.kind == PG_REC_KILL && ev.peer > 0 &&
			    !pg_imap_get(&k->recorded, ev.peer, &killer))
				pg_imap_put(&k->recorded, ev.peer,
					    run.ltids[run.i]);
		pg_comm_free(&rd);
	}
	pg_run_close(&run);
}

/* Whether the replayed kill of VICTIM_TID by the task KILLER_TID may
 * happen now. */
static int may_kill(struct la_run *r, int killer_tid, int victim_tid)
{
	struct la_task *v = la_task_by_tid(r, victim_tid);
	int killer;

	struct la_task *k = la_task_by_tid(r, killer_tid);

	/* (a what-if's free task, killer or victim, does not wait) */
	return r->o->mode != PANGAEA_MODE_REPLAY || killer_tid == victim_tid ||
	       pg_imap_get(&r->kills.ready, victim_tid, &killer) || ended(v) ||
	       (k && la_whatif_is_free(r->o, r->logdir, k->ltid)) ||
	       (v && la_whatif_is_free(r->o, r->logdir, v->ltid));
}

/* KILLING from SRC: task LTID kills TID. */
static void on_killing(struct la_run *r, int src, int ltid, int tid)
{
	struct la_kills *k = &r->kills;
	struct la_task *v = la_task_by_tid(r, tid);
	struct la_kill_wait *w;

	pg_imap_put(&k->by_victim, tid, ltid);
	if (v)
		v->killed_by = ltid;
	if (may_kill(r, src, tid)) {
		pg_imap_put(&k->ready, tid, 0); /* (a kill is on its way) */
		let_kill(src);
		return;
	}
	w = pg_grow(k->waits, &k->cap, k->nwaits + 1, sizeof(*w), 4);
	if (!w) { /* out of memory: better a kill too early than none */
		let_kill(src);
		return;
	}
	k->waits = w;
	k->waits[k->nwaits++] = (struct la_kill_wait){ src, ltid, tid,
						       la_death_now() };
}

/* KILLWAIT from SRC: task LTID is at the end of its recording, which
 * ends with it killed by SIGTERM. */
static void on_killwait(struct la_run *r, int src, int ltid)
{
	struct la_kills *k = &r->kills;
	int killer;

	if (r->o->mode != PANGAEA_MODE_REPLAY) {
		let_go_on(src);
		return;
	}
	if (pg_imap_get(&k->by_victim, src, &killer)) {
		/* its kill is asked for or on its way: it waits for it */
		pg_imap_put(&k->ready, src, 0);
		return;
	}
	load_recorded(r);
	if (!pg_imap_get(&k->recorded, ltid, &killer) ||
	    ended(la_task_by_ltid(r, killer))) {
		let_go_on(src); /* killed from outside, or no killer left */
		return;
	}
	pg_imap_put(&k->ready, src, killer); /* its answer waits */
}

void la_kill_message(struct la_run *r, int tag, int src)
{
	int v[2];

	if (pg_proto_upk(tag, v) < 0)
		return;
	if (tag == PG_TAG_KILLING)
		on_killing(r, src, v[0], v[1]);
	else
		on_killwait(r, src, v[0]);
}

/* Answers the waiting killers whose victims may be killed now, or have
 * kept them waiting too long. */
static void answer_killers(struct la_run *r)
{
	struct la_kills *k = &r->kills;
	double now = la_death_now();

	for (size_t i = k->nwaits; i-- > 0;) {
		struct la_kill_wait *w = &k->waits[i];
		struct la_task *v = la_task_by_tid(r, w->victim_tid);

		if (!may_kill(r, w->killer_tid, w->victim_tid)) {
			if (now - w->since < KILL_PATIENCE_S)
				continue;
			la_error("task %d has not come to the end of its "
				 "recording %.0f s after task %d's pvm_kill of "
				 "it: killing it now (the replay may differ)",
				 v ? v->ltid : -1, KILL_PATIENCE_S,
				 w->killer_ltid);
		}
		pg_imap_put(&k->ready, w->victim_tid, 0);
		let_kill(w->killer_tid);
		k->waits[i] = k->waits[--k->nwaits];
	}
}

/* Lets the victims go on whose killer has ended without killing them
 * (a victim whose kill is on its way has killer 0 in READY). */
static void release_victims(struct la_run *r)
{
	struct pg_imap *m = &r->kills.ready;

	for (int i = 0; i < m->cap; i++) {
		if (!m->used[i] || m->vals[i] == 0 ||
		    !ended(la_task_by_ltid(r, m->vals[i])))
			continue;
		let_go_on(m->keys[i]);
		m->vals[i] = 0;
	}
}

void la_kill_check(struct la_run *r)
{
	if (r->kills.nwaits)
		answer_killers(r);
	if (r->kills.ready.n)
		release_victims(r);
}

void la_kill_free(struct la_run *r)
{
	struct la_kills *k = &r->kills;

	pg_imap_free(&k->by_victim);
	pg_imap_free(&k->ready);
	pg_imap_free(&k->recorded);
	free(k->waits);
	memset(k, 0, sizeof(*k));
}
