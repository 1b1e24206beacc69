/*
 * answers.c: the PVM calls whose answers differ from run to run without a
 * message in them: pvm_pstat, pvm_mstat, pvm_tasks, pvm_config, and the
 * point where a task calls pvm_exit.  Recording logs each answer in a
 * call record (PG_REC_CALL): the status, and what the call filled in as
 * data (tids as ltids where the task is in the run, strings as they
 * were); replay returns the recorded answer without asking PVM, the
 * tids translated into this replay's.  The arrays returned are ours,
 * valid until the next call of the same function (as PVM's are).
 *
 * pvm_tasks leaves out Pangaea's own tasks (the launcher and the
 * coordinator), which a plain PVM run would not have; a task started by
 * the launcher shows no parent, as pvm_parent says (wrap.c).
 *
 * The helpers here (a call record being made, its data written and read
 * back, memory kept per call) serve mbox.c too.  docs/CALLS.md lists
 * every PVM call and what Pangaea does with it.
 */
#include "pangaea-internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* libpvm3's last error (pvm_perror reads it); not in pvm3.h. */
extern int pvm_errno;

/* Memory handed to the program per call op, freed at its next call. */
static struct {
	void **p;
	int n, cap;
} kept[PG_Q_LAST + 1];

void pg_qcall_forget(int op)
{
	for (int i = 0; i < kept[op].n; i++)
		free(kept[op].p[i]);
	kept[op].n = 0;
}

void *pg_qcall_keep(int op, size_t size)
{
	void *m;

	if (kept[op].n == kept[op].cap) {
		int cap = kept[op].cap ? 2 * kept[op].cap : 8;
		void **p = realloc(kept[op].p, (size_t)cap * sizeof(void *));

		if (!p)
			return NULL;
		kept[op].p = p;
		kept[op].cap = cap;
	}
	if (!(m = calloc(1, size ? size : 1)))
		return NULL;
	kept[op].p[kept[op].n++] = m;
	return m;
}

int pg_qcall_logged(void)
{
	return pg_me->mode && pg_select_task_logged();
}

void pg_qcall_begin(struct pg_qcall *q, int op)
{
	memset(q, 0, sizeof(*q));
	q->ev.kind = PG_REC_CALL;
	q->ev.op = op;
	pg_delay();
	q->ev.t = pg_now();
}

int pg_qcall_replay(struct pg_qcall *q)
{
	struct pg_call call = { .ev = q->ev };
	struct pg_event want;

	if (pg_replay_expect(&call, &want, NULL) == PG_REPLAY_DIVERGED)
		return -1;
	q->ev.result = want.result;
	if (want.result < 0) /* as PVM leaves it (pvm_perror reads it) */
		pvm_errno = want.result;
	q->len = q->cap = 0;
	free(q->data);
	q->data = NULL;
	q->rd = want.blob;
	q->rdlen = want.nblob;
	q->rdpos = 0;
	return 0;
}

void pg_qcall_record(struct pg_qcall *q, int result)
{
	/* data that could not be kept: the program is told so, and so will
	   its replays be (the answer logged is the one it got) */
	q->ev.result = q->nomem && result >= 0 ? PvmNoMem : result;
	q->rd = q->data;
	q->rdlen = q->nomem ? 0 : q->len;
	q->rdpos = 0;
}

void pg_qcall_log(struct pg_qcall *q)
{
	q->ev.blob = q->rd;
	q->ev.nblob = (uint32_t)q->rdlen;
	q->ev.dur = pg_now() - q->ev.t;
	pg_log(&q->ev);
	free(q->data);
	q->data = NULL;
}

/* Makes room for N more bytes of data in Q; 0 or -1 (Q->nomem set). */
static int q_room(struct pg_qcall *q, size_t n)
{
	unsigned char *d;
	size_t cap;

	if (q->nomem)
		return -1;
	if (q->len + n <= q->cap)
		return 0;
	cap = q->cap ? 2 * q->cap : 256;
	while (cap < q->len + n)
		cap *= 2;
	if (!(d = realloc(q->data, cap))) {
		q->nomem = 1;
		return -1;
	}
	q->data = d;
	q->cap = cap;
	return 0;
}

void pg_qcall_put_int(struct pg_qcall *q, int v)
{
	int64_t x = v;

	if (q_room(q, 10) == 0)
		q->len += pg_varint_put(q->data + q->len,
					((uint64_t)x << 1) ^ (uint64_t)(x >> 63));
}

void pg_qcall_put_bytes(struct pg_qcall *q, const void *p, size_t n)
{
	pg_qcall_put_int(q, (int)n);
	if (q_room(q, n) == 0) {
		memcpy(q->data + q->len, p, n);
		q->len += n;
	}
}

void pg_qcall_put_str(struct pg_qcall *q, const char *s)
{
	pg_qcall_put_bytes(q, s ? s : "", s ? strlen(s) : 0);
}

void pg_qcall_put_tid(struct pg_qcall *q, int tid)
{
	int ltid = -1;

	if (tid > 0 && !((unsigned)tid & PG_TID_PVMD))
		ltid = pg_ltid_of(tid);
	pg_qcall_put_int(q, ltid >= 0);
	pg_qcall_put_int(q, ltid >= 0 ? ltid : tid);
}

int pg_qcall_get_int(struct pg_qcall *q)
{
	uint64_t v = 0;
	size_t k = q->rdpos < q->rdlen
		? pg_varint_get(q->rd + q->rdpos, q->rdlen - q->rdpos, &v) : 0;

	if (k == 0) {
		q->bad = 1;
		return 0;
	}
	q->rdpos += k;
	return (int)((int64_t)(v >> 1) ^ -(int64_t)(v & 1));
}

const unsigned char *pg_qcall_get_bytes(struct pg_qcall *q, size_t *n)
{
	int l = pg_qcall_get_int(q);
	const unsigned char *p = q->rd + q->rdpos;

	if (l < 0 || (size_t)l > q->rdlen - q->rdpos) {
		q->bad = 1;
		*n = 0;
		return NULL;
	}
	q->rdpos += (size_t)l;
	*n = (size_t)l;
	return p;
}

char *pg_qcall_get_str(struct pg_qcall *q)
{
	size_t n;
	const unsigned char *p = pg_qcall_get_bytes(q, &n);
	char *s = pg_qcall_keep(q->ev.op, n + 1);

	if (!s) {
		q->bad = 1;
		return NULL;
	}
	if (p)
		memcpy(s, p, n);
	return s;
}

int pg_qcall_get_tid(struct pg_qcall *q)
{
	int in_run = pg_qcall_get_int(q), v = pg_qcall_get_int(q);

	if (!in_run || q->bad)
		return v;
	v = pg_tid_of(v);
	return v > 0 ? v : 0;
}

/* The tid argument TID of a call into Q: peer = its ltid, or foreign
 * with arg = TID. */
static void q_tid_arg(struct pg_qcall *q, int tid)
{
	q->ev.peer = PG_PEER_FOREIGN;
	if (tid > 0 && !((unsigned)tid & PG_TID_PVMD))
		q->ev.peer = pg_ltid_of(tid);
	if (q->ev.peer < 0) {
		q->ev.peer = PG_PEER_FOREIGN;
		q->ev.arg = tid;
	}
}

int pg_qcall_answer(struct pg_qcall *q, int (*real)(struct pg_qcall *, void *),
		    void *arg, int (*get)(struct pg_qcall *, void *), void *out)
{
	if (pg_me->mode == PANGAEA_MODE_REPLAY) {
		if (pg_qcall_replay(q) < 0)
			return pg_task_diverged();
	} else {
		pg_qcall_record(q, real(q, arg));
	}
	if (q->ev.result >= 0 && get && get(q, out) < 0) {
		if (pg_me->mode == PANGAEA_MODE_REPLAY)
			return pg_qcall_damaged(q);
		q->ev.result = PvmNoMem; /* (logged so: see pg_qcall_record) */
		q->rdlen = 0;
	}
	pg_qcall_log(q);
	return q->ev.result;
}

void *pg_qcall_get_array(struct pg_qcall *q, size_t size, int *n)
{
	int k = pg_qcall_get_int(q);
	void *a;

	/* (each element takes a byte of the data at least) */
	if (q->bad || k < 0 || (size_t)k > q->rdlen ||
	    !(a = pg_qcall_keep(q->ev.op, (size_t)k * size))) {
		q->bad = 1;
		return NULL;
	}
	*n = k;
	return a;
}

/* pvm_pstat of the tid at ARG. */
static int real_pstat(struct pg_qcall *q, void *arg)
{
	return pvm_pstat(*(int *)arg);
}

/* pvm_mstat of the host named ARG. */
static int real_mstat(struct pg_qcall *q, void *arg)
{
	return pvm_mstat(arg);
}

int pangaea_pvm_pstat(int tid)
{
	struct pg_qcall q;

	if (!pg_qcall_logged())
		return pvm_pstat(tid);
	pg_qcall_begin(&q, PG_Q_PSTAT);
	q_tid_arg(&q, tid);
	return pg_qcall_answer(&q, real_pstat, &tid, NULL, NULL);
}

int pangaea_pvm_mstat(char *host)
{
	struct pg_qcall q;

	if (!pg_qcall_logged())
		return pvm_mstat(host);
	pg_qcall_begin(&q, PG_Q_MSTAT);
	snprintf(q.ev.group, sizeof(q.ev.group), "%s", host ? host : "");
	return pg_qcall_answer(&q, real_mstat, host, NULL, NULL);
}

/* Whether TID is one of Pangaea's own tasks, which the program's
 * pvm_tasks does not list. */
static int q_own_task(int tid)
{
	return tid == pg_me->launcher_tid || tid == pg_me->coord_tid;
}

/* What pvm_tasks and pvm_config give the program. */
struct q_list {
	int n, narch;
	void *list;
};

/* Recording: pvm_tasks(*ARG) written into Q's data, but for Pangaea's own
 * tasks; PVM's status. */
static int real_tasks(struct pg_qcall *q, void *arg)
{
	struct pvmtaskinfo *ti;
	int n = 0, shown = 0, rc = pvm_tasks(*(int *)arg, &n, &ti);

	if (rc < 0)
		return rc;
	for (int i = 0; i < n; i++)
		shown += !q_own_task(ti[i].ti_tid);
	pg_qcall_put_int(q, shown);
	for (int i = 0; i < n; i++) {
		if (q_own_task(ti[i].ti_tid))
			continue;
		pg_qcall_put_tid(q, ti[i].ti_tid);
		pg_qcall_put_tid(q, q_own_task(ti[i].ti_ptid) ? 0
							      : ti[i].ti_ptid);
		pg_qcall_put_int(q, ti[i].ti_host);
		pg_qcall_put_int(q, ti[i].ti_flag);
		pg_qcall_put_str(q, ti[i].ti_a_out);
		pg_qcall_put_int(q, ti[i].ti_pid);
	}
	return rc;
}

/* Reads the task list of Q's data into the q_list OUT; 0 or -1. */
static int get_tasks(struct pg_qcall *q, void *out)
{
	struct q_list *l = out;
	struct pvmtaskinfo *t = pg_qcall_get_array(q, sizeof(*t), &l->n);

	for (int i = 0; t && i < l->n && !q->bad; i++) {
		t[i].ti_tid = pg_qcall_get_tid(q);
		t[i].ti_ptid = pg_qcall_get_tid(q);
		t[i].ti_host = pg_qcall_get_int(q);
		t[i].ti_flag = pg_qcall_get_int(q);
		t[i].ti_a_out = pg_qcall_get_str(q);
		t[i].ti_pid = pg_qcall_get_int(q);
	}
	l->list = t;
	return q->bad ? -1 : 0;
}

int pangaea_pvm_tasks(int where, int *ntask, struct pvmtaskinfo **taskp)
{
	struct q_list l = { 0 };
	struct pg_qcall q;
	int rc;

	if (!pg_qcall_logged())
		return pvm_tasks(where, ntask, taskp);
	pg_qcall_forget(PG_Q_TASKS);
	pg_qcall_begin(&q, PG_Q_TASKS);
	if (where > 0 && !((unsigned)where & PG_TID_PVMD)) {
		q_tid_arg(&q, where);
	} else {
		q.ev.peer = PG_PEER_SYSTEM;
		q.ev.arg = where;
	}
	rc = pg_qcall_answer(&q, real_tasks, &where, get_tasks, &l);
	if (rc >= 0 && ntask)
		*ntask = l.n;
	if (rc >= 0 && taskp)
		*taskp = l.list;
	return rc;
}

/* Recording: pvm_config written into Q's data; PVM's status. */
static int real_config(struct pg_qcall *q, void *arg)
{
	struct pvmhostinfo *hi;
	int n = 0, narch = 0, rc = pvm_config(&n, &narch, &hi);

	if (rc < 0)
		return rc;
	pg_qcall_put_int(q, n);
	pg_qcall_put_int(q, narch);
	for (int i = 0; i < n; i++) {
		pg_qcall_put_int(q, hi[i].hi_tid);
		pg_qcall_put_str(q, hi[i].hi_name);
		pg_qcall_put_str(q, hi[i].hi_arch);
		pg_qcall_put_int(q, hi[i].hi_speed);
		pg_qcall_put_int(q, hi[i].hi_dsig);
	}
	return rc;
}

/* Reads the configuration of Q's data into the q_list OUT; 0 or -1. */
static int get_config(struct pg_qcall *q, void *out)
{
	struct q_list *l = out;
	struct pvmhostinfo *h = pg_qcall_get_array(q, sizeof(*h), &l->n);

	l->narch = pg_qcall_get_int(q);
	for (int i = 0; h && i < l->n && !q->bad; i++) {
		h[i].hi_tid = pg_qcall_get_int(q);
		h[i].hi_name = pg_qcall_get_str(q);
		h[i].hi_arch = pg_qcall_get_str(q);
		h[i].hi_speed = pg_qcall_get_int(q);
		h[i].hi_dsig = pg_qcall_get_int(q);
	}
	l->list = h;
	return q->bad ? -1 : 0;
}

int pangaea_pvm_config(int *nhost, int *narch, struct pvmhostinfo **hostp)
{
	struct q_list l = { 0 };
	struct pg_qcall q;
	int rc;

	if (!pg_qcall_logged())
		return pvm_config(nhost, narch, hostp);
	pg_qcall_forget(PG_Q_CONFIG);
	pg_qcall_begin(&q, PG_Q_CONFIG);
	rc = pg_qcall_answer(&q, real_config, NULL, get_config, &l);
	if (rc >= 0 && nhost)
		*nhost = l.n;
	if (rc >= 0 && narch)
		*narch = l.narch;
	if (rc >= 0 && hostp)
		*hostp = l.list;
	return rc;
}

int pg_qcall_damaged(struct pg_qcall *q)
{
	char d[PG_GROUP_MAX + 64];

	free(q->data);
	q->data = NULL;
	pg_call_describe(&q->ev, 0, d, sizeof(d));
	pg_replay_diverge("the recorded results of %s cannot be read (a "
			  "damaged log, or no memory for them)", d);
	return pg_task_diverged();
}

/* How many tasks this one spawned are still running (PVM's pvm_tasks;
 * 0 if it cannot tell), not counting the group server, which the task's
 * first group call may have started and which outlives it.  A task that
 * spawned nothing asks nobody (pvm_tasks asks every host). */
static int children_running(void)
{
	struct pvmtaskinfo *ti;
	int n, alive = 0, me = pvm_mytid();

	if (pg_spawn_children() == 0 || pvm_tasks(0, &n, &ti) < 0)
		return 0;
	for (int i = 0; i < n; i++) {
		const char *name = ti[i].ti_a_out ? ti[i].ti_a_out : "";
		size_t len = strlen(name);

		alive += ti[i].ti_ptid == me &&
			 !(len >= 5 && strcmp(name + len - 5, "pvmgs") == 0);
	}
	return alive;
}

/* In replay, before the real pvm_exit: waits (up to 60 s) until no more
 * of this task's children run than did at its recorded pvm_exit.  PVM's
 * pvm_exit waits for running children itself, and says so on the task's
 * output ("child task(s) still running.  waiting..."): a replay whose
 * recorded answers (pvm_tasks, pvm_pstat) told the program that its
 * children had ended must not get there before they really have. */
static void await_children(int recorded)
{
	for (int i = 0; i < 3000 && children_running() > recorded; i++)
		usleep(20000);
}

/*
 * pvm_exit: an event where the task leaves PVM, its result the number of
 * its children still running then (PVM's own result is known only after
 * the task has left the run: not recorded); then the task leaves the run
 * (pg_task_end, what pangaea_exit does) and PVM.
 */
int pangaea_pvm_exit(void)
{
	struct pg_qcall q;

	if (!pg_me->mode || pg_log_ended())
		return pvm_exit();
	if (pg_select_task_logged() && pg_replay_log_version() >= 4) {
		pg_qcall_begin(&q, PG_Q_EXIT);
		if (pg_me->mode == PANGAEA_MODE_REPLAY && pg_qcall_replay(&q) < 0)
			return pg_task_diverged();
		if (pg_me->mode == PANGAEA_MODE_REPLAY)
			await_children(q.ev.result);
		else
			pg_qcall_record(&q, children_running());
		pg_qcall_log(&q);
	}
	pg_task_end();
	return pvm_exit();
}
