/*
 * ids.c: what this task knows of tid <-> ltid, and the questions it asks
 * the coordinator about the rest.
 */
#include "pangaea-internal.h"

#include <stdlib.h>
#include <string.h>

/* Slot of KEY in M (its own or the free one to use). */
static int imap_slot(const struct pg_imap *m, int key)
{
	unsigned h = (unsigned)key * 2654435761u;
	int i = (int)(h & (unsigned)(m->cap - 1));

	while (m->used[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* Frees the arrays of M. */
static void imap_free(struct pg_imap *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof(*m));
}

static int imap_put(struct pg_imap *m, int key, int val);

/* Doubles M; 0 or -1. */
static int imap_grow(struct pg_imap *m)
{
	struct pg_imap big = { 0 };

	big.cap = m->cap ? m->cap * 2 : 64;
	big.keys = calloc((size_t)big.cap, sizeof(int));
	big.vals = calloc((size_t)big.cap, sizeof(int));
	big.used = calloc((size_t)big.cap, 1);
	if (!big.keys || !big.vals || !big.used) {
		imap_free(&big);
		return -1;
	}
	for (int i = 0; i < m->cap; i++)
		if (m->used[i])
			imap_put(&big, m->keys[i], m->vals[i]);
	imap_free(m);
	*m = big;
	return 0;
}

/* Sets KEY to VAL in M; 0 or -1. */
static int imap_put(struct pg_imap *m, int key, int val)
{
	int i;

	if ((m->n + 1) * 2 > m->cap && imap_grow(m) < 0)
		return -1;
	i = imap_slot(m, key);
	if (!m->used[i])
		m->n++;
	m->used[i] = 1;
	m->keys[i] = key;
	m->vals[i] = val;
	return 0;
}

/* Value of KEY in M into *VAL; 1 found, 0 not. */
static int imap_get(const struct pg_imap *m, int key, int *val)
{
	int i;

	if (m->cap == 0)
		return 0;
	i = imap_slot(m, key);
	if (!m->used[i])
		return 0;
	*val = m->vals[i];
	return 1;
}

void pg_ids_add(struct pg_ids *ids, int tid, int ltid)
{
	imap_put(&ids->by_tid, tid, ltid);
	if (ltid >= 0)
		imap_put(&ids->by_ltid, ltid, tid);
}

int pg_ids_lookup(const struct pg_ids *ids, int tid)
{
	int ltid;

	return imap_get(&ids->by_tid, tid, &ltid) ? ltid : -2;
}

int pg_ids_lookup_ltid(const struct pg_ids *ids, int ltid)
{
	int tid;

	return imap_get(&ids->by_ltid, ltid, &tid) ? tid : 0;
}

void pg_ids_free(struct pg_ids *ids)
{
	imap_free(&ids->by_tid);
	imap_free(&ids->by_ltid);
}

/* Asks the coordinator (TAG, VALUE) and returns its int answer, or < 0. */
static int ids_ask(int tag, int value)
{
	struct pg_chan_saved saved;
	int answer = PvmSysErr, rc;

	pg_chan_enter(&saved);
	rc = pg_chan_initsend();
	if (rc >= 0) {
		pvm_pkint(&value, 1, 1);
		rc = pg_chan_send(pg.coord_tid, tag);
	}
	if (rc >= 0 && pg_chan_recv(pg.coord_tid, PG_TAG_ANSWER) > 0)
		pvm_upkint(&answer, 1, 1);
	pg_chan_leave(&saved);
	return answer;
}

int pg_ltid_of(int tid)
{
	int ltid = pg_ids_lookup(&pg.ids, tid);

	if (ltid != -2)
		return ltid;
	ltid = ids_ask(PG_TAG_TID2LTID, tid);
	if (ltid < -1)
		return -1;
	pg_ids_add(&pg.ids, tid, ltid);
	return ltid;
}

int pg_tid_of(int ltid)
{
	int tid = pg_ids_lookup_ltid(&pg.ids, ltid);

	if (tid)
		return tid;
	tid = ids_ask(PG_TAG_LTID2TID, ltid);
	if (tid > 0)
		pg_ids_add(&pg.ids, tid, ltid);
	return tid;
}
