/*
 * mbox.c: PVM 3.4's message mailbox (pvm_putinfo, pvm_recvinfo,
 * pvm_getmboxinfo, pvm_delinfo) under record and replay.
 *
 * What a task finds in the mailbox depends on when the other tasks put,
 * replaced and deleted their entries.  Recording logs every call with
 * its answer in a call record (answers.c); a pvm_recvinfo that got an
 * entry logs the whole message it got (pvm_pkmesg into a raw buffer, so
 * the bytes are PVM's own).  Replay returns the recorded answers and
 * rebuilds that message (pvm_upkmesg) as the active receive buffer, so
 * the program unpacks the same contents whatever the mailbox holds in
 * this run.  Replayed tasks leave the real mailbox alone: every one of
 * them takes its answers from its log.
 */
#include "pangaea-internal.h"

#include <stdlib.h>
#include <string.h>

/* The arguments of a mailbox call. */
struct mbox_args {
	char *name;
	int index, bufid, flags;
};

/* Begins Q, the mailbox call OP on NAME with ARG and ARG2. */
static void mbox_begin(struct pg_qcall *q, int op, const char *name, int arg,
		       int arg2)
{
	pg_qcall_begin(q, op);
	snprintf(q->ev.group, sizeof(q->ev.group), "%s", name ? name : "");
	q->ev.arg = arg;
	q->ev.arg2 = arg2;
}

/* Recording: pvm_putinfo with the mbox_args at ARG. */
static int real_putinfo(struct pg_qcall *q, void *arg)
{
	struct mbox_args *a = arg;

	return pvm_putinfo(a->name, a->bufid, a->flags);
}

/* Recording: pvm_delinfo with the mbox_args at ARG. */
static int real_delinfo(struct pg_qcall *q, void *arg)
{
	struct mbox_args *a = arg;

	return pvm_delinfo(a->name, a->index, a->flags);
}

int pangaea_pvm_putinfo(char *name, int bufid, int flags)
{
	struct mbox_args a = { name, 0, bufid, flags };
	struct pg_qcall q;

	if (!pg_qcall_logged())
		return pvm_putinfo(name, bufid, flags);
	mbox_begin(&q, PG_Q_PUTINFO, name, flags, 0);
	return pg_qcall_answer(&q, real_putinfo, &a, NULL, NULL);
}

int pangaea_pvm_delinfo(char *name, int index, int flags)
{
	struct mbox_args a = { name, index, 0, flags };
	struct pg_qcall q;

	if (!pg_qcall_logged())
		return pvm_delinfo(name, index, flags);
	mbox_begin(&q, PG_Q_DELINFO, name, index, flags);
	return pg_qcall_answer(&q, real_delinfo, &a, NULL, NULL);
}

/* Writes the whole message BUFID into Q's data (pvm_pkmesg into a raw
 * buffer, read back as bytes); leaves the program's buffers as they
 * were.  0, or a PVM error. */
static int put_message(struct pg_qcall *q, int bufid)
{
	int tmp = pvm_mkbuf(PvmDataRaw), saved_s, saved_r, len = 0, tag, src;
	int rc;
	char *bytes = NULL;

	if (tmp < 0)
		return tmp;
	saved_s = pvm_setsbuf(tmp);
	rc = pvm_pkmesg(bufid);
	pvm_setsbuf(saved_s);
	if (rc >= 0)
		rc = pvm_bufinfo(tmp, &len, &tag, &src);
	if (rc >= 0 && !(bytes = malloc(len > 0 ? (size_t)len : 1)))
		rc = PvmNoMem;
	if (rc >= 0) {
		saved_r = pvm_setrbuf(tmp);
		rc = pvm_upkbyte(bytes, len, 1);
		pvm_setrbuf(saved_r);
	}
	if (rc >= 0)
		pg_qcall_put_bytes(q, bytes, (size_t)len);
	free(bytes);
	pvm_freebuf(tmp);
	return rc < 0 ? rc : 0;
}

/* Recording: pvm_recvinfo with the mbox_args at ARG, the message it got
 * written into Q's data and its bufid kept in the args.  A call that
 * waits for the entry (PvmMboxWaitForInfo) says so in the task's state
 * file, as a blocking receive does, for the launcher's deadlock check. */
static int real_recvinfo(struct pg_qcall *q, void *arg)
{
	struct mbox_args *a = arg;
	int wait = (a->flags & PvmMboxWaitForInfo) != 0;

	if (wait) /* (a task waiting here may be part of a deadlock) */
		pg_state_block(pg_call_of(PG_REC_CALL, PG_Q_RECVINFO), -1, -1,
			       a->name, NULL);
	a->bufid = pvm_recvinfo(a->name, a->index, a->flags);
	if (wait)
		pg_state_unblock();
	if (a->bufid > 0 && put_message(q, a->bufid) < 0)
		q->nomem = 1; /* (the answer becomes PvmNoMem) */
	return a->bufid;
}

/* Replay: makes the message whose bytes Q's data holds again, as the
 * active receive buffer, its bufid into the mbox_args at OUT; 0 or -1.
 * (Recording: the message is PVM's own, in hand already.) */
static int get_message(struct pg_qcall *q, void *out)
{
	struct mbox_args *a = out;
	size_t n;
	const unsigned char *p;
	int tmp, saved_s;

	if (pg_me->mode != PANGAEA_MODE_REPLAY)
		return 0;
	p = pg_qcall_get_bytes(q, &n);
	if (q->bad || (tmp = pvm_mkbuf(PvmDataRaw)) < 0)
		return -1;
	saved_s = pvm_setsbuf(tmp);
	a->bufid = pvm_pkbyte((char *)p, (int)n, 1);
	pvm_setsbuf(saved_s);
	if (a->bufid >= 0) {
		pvm_setrbuf(tmp);
		a->bufid = pvm_upkmesg();
	}
	pvm_freebuf(tmp);
	if (a->bufid <= 0)
		return -1;
	pvm_setrbuf(a->bufid);
	return 0;
}

int pangaea_pvm_recvinfo(char *name, int index, int flags)
{
	struct mbox_args a = { name, index, 0, flags };
	struct pg_qcall q;
	int rc;

	if (!pg_qcall_logged())
		return pvm_recvinfo(name, index, flags);
	mbox_begin(&q, PG_Q_RECVINFO, name, index, flags);
	rc = pg_qcall_answer(&q, real_recvinfo, &a, get_message, &a);
	/* (the recorded bufid is the recording's; the program gets ours) */
	return rc > 0 ? a.bufid : rc;
}

/* What pvm_getmboxinfo gives the program. */
struct mbox_classes {
	int n;
	struct pvmmboxinfo *mi;
};

/* Recording: pvm_getmboxinfo of the pattern ARG written into Q's data;
 * PVM's status. */
static int real_getmboxinfo(struct pg_qcall *q, void *arg)
{
	struct pvmmboxinfo *mi;
	int n = 0, rc = pvm_getmboxinfo(arg, &n, &mi);

	if (rc < 0)
		return rc;
	pg_qcall_put_int(q, n);
	for (int i = 0; i < n; i++) {
		pg_qcall_put_str(q, mi[i].mi_name);
		pg_qcall_put_int(q, mi[i].mi_nentries);
		for (int j = 0; j < mi[i].mi_nentries; j++) {
			pg_qcall_put_int(q, mi[i].mi_indices[j]);
			pg_qcall_put_tid(q, mi[i].mi_owners[j]);
			pg_qcall_put_int(q, mi[i].mi_flags[j]);
		}
	}
	return rc;
}

/* Reads class MI (its entries) of Q's data; 0 or -1 (damaged). */
static int get_class(struct pg_qcall *q, struct pvmmboxinfo *mi)
{
	int k;

	mi->mi_name = pg_qcall_get_str(q);
	k = pg_qcall_get_int(q);
	if (k < 0 || (size_t)k > q->rdlen)
		return -1;
	mi->mi_nentries = k;
	mi->mi_indices = pg_qcall_keep(q->ev.op, (size_t)k * sizeof(int));
	mi->mi_owners = pg_qcall_keep(q->ev.op, (size_t)k * sizeof(int));
	mi->mi_flags = pg_qcall_keep(q->ev.op, (size_t)k * sizeof(int));
	if (!mi->mi_indices || !mi->mi_owners || !mi->mi_flags)
		return -1;
	for (int j = 0; j < k && !q->bad; j++) {
		mi->mi_indices[j] = pg_qcall_get_int(q);
		mi->mi_owners[j] = pg_qcall_get_tid(q);
		mi->mi_flags[j] = pg_qcall_get_int(q);
	}
	return q->bad ? -1 : 0;
}

/* Reads the classes of Q's data into the mbox_classes OUT; 0 or -1. */
static int get_classes(struct pg_qcall *q, void *out)
{
	struct mbox_classes *c = out;

	c->mi = pg_qcall_get_array(q, sizeof(*c->mi), &c->n);
	for (int i = 0; c->mi && i < c->n; i++)
		if (get_class(q, &c->mi[i]) < 0)
			return -1;
	return c->mi ? 0 : -1;
}

int pangaea_pvm_getmboxinfo(char *pattern, int *nclasses,
			    struct pvmmboxinfo **classes)
{
	struct mbox_classes c = { 0, NULL };
	struct pg_qcall q;
	int rc;

	if (!pg_qcall_logged())
		return pvm_getmboxinfo(pattern, nclasses, classes);
	pg_qcall_forget(PG_Q_GETMBOXINFO);
	mbox_begin(&q, PG_Q_GETMBOXINFO, pattern, 0, 0);
	rc = pg_qcall_answer(&q, real_getmboxinfo, pattern, get_classes, &c);
	if (rc >= 0 && nclasses)
		*nclasses = c.n;
	if (rc >= 0 && classes)
		*classes = c.mi;
	return rc;
}
