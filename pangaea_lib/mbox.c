/*
 * mbox.c: PVM 3.4's message mailbox (pvm_putinfo, pvm_recvinfo,
 * pvm_getmboxinfo, pvm_delinfo) under record and replay.
 *
 * What a task finds in the mailbox depends on when the other tasks put,
 * replaced and deleted their entries.  Recording logs every call with
 * its answer in a call record (query.c); a pvm_recvinfo that got an
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

/* Begins Q, the mailbox call OP on NAME with ARG and ARG2. */
static void mbox_begin(struct pg_qcall *q, int op, const char *name, int arg,
		       int arg2)
{
	pg_qcall_begin(q, op);
	snprintf(q->ev.group, sizeof(q->ev.group), "%s", name ? name : "");
	q->ev.arg = arg;
	q->ev.arg2 = arg2;
}

/* The answer of Q: PVM's REAL when recording, the recorded one in
 * replay; logged.  What the program sees. */
static int mbox_status(struct pg_qcall *q, int real)
{
	if (pg_me->mode == PANGAEA_MODE_REPLAY) {
		if (pg_qcall_replay(q) < 0)
			return pg_task_diverged();
	} else {
		pg_qcall_record(q, real);
	}
	pg_qcall_log(q);
	return q->ev.result;
}

int pangaea_pvm_putinfo(char *name, int bufid, int flags)
{
	struct pg_qcall q;

	if (!pg_qcall_logged())
		return pvm_putinfo(name, bufid, flags);
	mbox_begin(&q, PG_Q_PUTINFO, name, flags, 0);
	return mbox_status(&q, pg_me->mode == PANGAEA_MODE_REPLAY
				       ? 0 : pvm_putinfo(name, bufid, flags));
}

int pangaea_pvm_delinfo(char *name, int index, int flags)
{
	struct pg_qcall q;

	if (!pg_qcall_logged())
		return pvm_delinfo(name, index, flags);
	mbox_begin(&q, PG_Q_DELINFO, name, index, flags);
	return mbox_status(&q, pg_me->mode == PANGAEA_MODE_REPLAY
				       ? 0 : pvm_delinfo(name, index, flags));
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

/* Makes the message whose bytes Q's data holds again, as the active
 * receive buffer; its bufid, or a PVM error. */
static int get_message(struct pg_qcall *q)
{
	size_t n;
	const unsigned char *p = pg_qcall_get_bytes(q, &n);
	int tmp, saved_s, bufid;

	if (q->bad)
		return PvmBadMsg;
	if ((tmp = pvm_mkbuf(PvmDataRaw)) < 0)
		return tmp;
	saved_s = pvm_setsbuf(tmp);
	bufid = pvm_pkbyte((char *)p, (int)n, 1);
	pvm_setsbuf(saved_s);
	if (bufid >= 0) {
		pvm_setrbuf(tmp);
		bufid = pvm_upkmesg();
	}
	pvm_freebuf(tmp);
	if (bufid > 0)
		pvm_setrbuf(bufid);
	return bufid;
}

int pangaea_pvm_recvinfo(char *name, int index, int flags)
{
	struct pg_qcall q;
	int bufid = 0;

	if (!pg_qcall_logged())
		return pvm_recvinfo(name, index, flags);
	mbox_begin(&q, PG_Q_RECVINFO, name, index, flags);
	if (pg_me->mode == PANGAEA_MODE_REPLAY) {
		if (pg_qcall_replay(&q) < 0)
			return pg_task_diverged();
		if (q.ev.result > 0 && (bufid = get_message(&q)) <= 0)
			return pg_qcall_damaged(&q);
	} else {
		bufid = pvm_recvinfo(name, index, flags);
		if (bufid > 0 && put_message(&q, bufid) < 0)
			q.nomem = 1; /* logged without it: replay will say so */
		pg_qcall_record(&q, bufid);
	}
	pg_qcall_log(&q);
	return q.ev.result > 0 ? bufid : q.ev.result;
}

/* Writes the classes N, MI (recording) into Q's data. */
static void put_classes(struct pg_qcall *q, int n,
			const struct pvmmboxinfo *mi)
{
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

/* Reads the classes of Q's data into *N, *MI; 0 or -1 (damaged). */
static int get_classes(struct pg_qcall *q, int *n, struct pvmmboxinfo **mi)
{
	int k = pg_qcall_get_int(q);
	struct pvmmboxinfo *m;

	if (k < 0 || (size_t)k > q->rdlen ||
	    !(m = pg_qcall_keep(q->ev.op, (size_t)k * sizeof(*m) + 1)))
		return -1;
	for (int i = 0; i < k; i++)
		if (get_class(q, &m[i]) < 0)
			return -1;
	*n = k;
	*mi = m;
	return 0;
}

int pangaea_pvm_getmboxinfo(char *pattern, int *nclasses,
			    struct pvmmboxinfo **classes)
{
	struct pvmmboxinfo *mi = NULL;
	struct pg_qcall q;
	int n = 0, rc;

	if (!pg_qcall_logged())
		return pvm_getmboxinfo(pattern, nclasses, classes);
	pg_qcall_forget(PG_Q_GETMBOXINFO);
	mbox_begin(&q, PG_Q_GETMBOXINFO, pattern, 0, 0);
	if (pg_me->mode == PANGAEA_MODE_REPLAY) {
		if (pg_qcall_replay(&q) < 0)
			return pg_task_diverged();
	} else {
		rc = pvm_getmboxinfo(pattern, &n, &mi);
		if (rc >= 0)
			put_classes(&q, n, mi);
		pg_qcall_record(&q, rc);
	}
	if (q.ev.result >= 0 && get_classes(&q, &n, &mi) < 0)
		return pg_qcall_damaged(&q);
	pg_qcall_log(&q);
	if (q.ev.result >= 0) {
		if (nclasses)
			*nclasses = n;
		if (classes)
			*classes = mi;
	}
	return q.ev.result;
}
