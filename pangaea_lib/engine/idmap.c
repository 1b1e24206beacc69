/*
 * idmap.c: int -> int hash maps (open addressing, linear probing, kept at
 * most half full), and the tid <-> ltid pairs made of two of them: a
 * task's own knowledge (ids.c), the coordinator's registry and the
 * launcher's table of tasks all look ids up here.
 */
#include "engine.h"

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

void pg_imap_free(struct pg_imap *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof(*m));
}

/* Doubles M; 0 or -1. */
static int imap_grow(struct pg_imap *m)
{
	struct pg_imap big = { 0 };

	big.cap = m->cap ? m->cap * 2 : 64;
	big.keys = calloc((size_t)big.cap, sizeof(int));
	big.vals = calloc((size_t)big.cap, sizeof(int));
	big.used = calloc((size_t)big.cap, 1);
	if (!big.keys || !big.vals || !big.used) {
		pg_imap_free(&big);
		return -1;
	}
	for (int i = 0; i < m->cap; i++)
		if (m->used[i])
			pg_imap_put(&big, m->keys[i], m->vals[i]);
	pg_imap_free(m);
	*m = big;
	return 0;
}

int pg_imap_put(struct pg_imap *m, int key, int val)
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

int pg_imap_get(const struct pg_imap *m, int key, int *val)
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

int pg_ids_add(struct pg_ids *ids, int tid, int ltid)
{
	if (pg_imap_put(&ids->by_tid, tid, ltid) < 0)
		return -1;
	return ltid >= 0 ? pg_imap_put(&ids->by_ltid, ltid, tid) : 0;
}

int pg_ids_lookup(const struct pg_ids *ids, int tid)
{
	int ltid;

	return pg_imap_get(&ids->by_tid, tid, &ltid) ? ltid : -2;
}

int pg_ids_lookup_ltid(const struct pg_ids *ids, int ltid)
{
	int tid;

	return pg_imap_get(&ids->by_ltid, ltid, &tid) ? tid : 0;
}

void pg_ids_free(struct pg_ids *ids)
{
	pg_imap_free(&ids->by_tid);
	pg_imap_free(&ids->by_ltid);
}
