/*
 * hb-edges.c: the barrier and spawn edges of a run, one builder for
 * happens-before and the trace database's clock (hb-edges.h says what
 * they are).  Numbering the instances sorts the calls twice: by task and
 * group (each task's K-th call on a group), then by group name, K, task
 * and event (an instance's calls side by side) — O(n log n) where a
 * search of the instances per call was O(n x instances).
 */
#include "hb-edges.h"

#include <stdlib.h>
#include <string.h>

int pg_hbe_is_barrier(const struct pg_event *ev)
{
	return ev->kind == PG_REC_GROUP && ev->op == PG_GROUP_BARRIER &&
	       ev->result >= 0;
}

int pg_hbe_name(char ***names, int *n, const char *name)
{
	char **v;

	for (int g = *n - 1; g >= 0; g--)
		if (strcmp((*names)[g], name) == 0)
			return g;
	if (!(v = realloc(*names, (size_t)(*n + 1) * sizeof(*v))))
		return -1;
	*names = v;
	if (!(v[*n] = strdup(name)))
		return -1;
	return (*n)++;
}

/* Keeps the successful barrier call SEQ of task LTID on GROUP; 0 or -1. */
static int hbe_call(struct pg_hbe *b, int ltid, uint32_t seq,
		    const char *group)
{
	struct pg_hbe_call *v;
	int g = pg_hbe_name(&b->groups, &b->ngroup, group);

	if (g < 0 || !(v = pg_grow(b->calls, &b->callcap, b->ncall + 1,
				   sizeof(*v), 64)))
		return -1;
	b->calls = v;
	v[b->ncall++] = (struct pg_hbe_call){ ltid, seq, g, 0, 0 };
	return 0;
}

int pg_hbe_event(struct pg_hbe *b, int ltid, uint32_t seq,
		 const struct pg_event *ev)
{
	struct pg_hbe_spawn *v;

	if (pg_hbe_is_barrier(ev))
		return hbe_call(b, ltid, seq, ev->group);
	if (ev->kind != PG_REC_SPAWN)
		return 0;
	if (!(v = pg_grow(b->spawns, &b->spawncap, b->nspawn + 1, sizeof(*v),
			  64)))
		return -1;
	b->spawns = v;
	v[b->nspawn++] = (struct pg_hbe_spawn){ ltid, seq, ev->msgid };
	return 0;
}

/* Orders calls by task, group, then event. */
static int hbe_by_task(const void *a, const void *b)
{
	const struct pg_hbe_call *x = a, *y = b;

	if (x->ltid != y->ltid)
		return x->ltid < y->ltid ? -1 : 1;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Orders calls by group (groups by name: see hbe_rename), K, task,
 * then event. */
static int hbe_by_instance(const void *a, const void *b)
{
	const struct pg_hbe_call *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return hbe_by_task(a, b);
}

/* Orders group names (char **). */
static int hbe_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts B's groups by name and renumbers its calls' groups to match;
 * 0 or -1. */
static int hbe_rename(struct pg_hbe *b)
{
	int *to = malloc((size_t)b->ngroup * sizeof(int) + 1);
	char **old = malloc((size_t)b->ngroup * sizeof(char *) + 1);

	if (!to || !old) {
		free(to);
		free(old);
		return -1;
	}
	memcpy(old, b->groups, (size_t)b->ngroup * sizeof(char *));
	qsort(b->groups, (size_t)b->ngroup, sizeof(char *), hbe_name_cmp);
	for (int g = 0; g < b->ngroup; g++)
		for (int n = 0; n < b->ngroup; n++)
			if (b->groups[n] == old[g])
				to[g] = n;
	for (size_t c = 0; c < b->ncall; c++)
		b->calls[c].group = to[b->calls[c].group];
	free(to);
	free(old);
	return 0;
}

int pg_hbe_done(struct pg_hbe *b)
{
	struct pg_hbe_call *c = b->calls;

	b->ninst = 0;
	if (b->ncall == 0)
		return 0;
	if (hbe_rename(b) < 0)
		return -1;
	qsort(c, b->ncall, sizeof(*c), hbe_by_task);
	for (size_t i = 0; i < b->ncall; i++)
		c[i].k = i > 0 && c[i - 1].ltid == c[i].ltid &&
				 c[i - 1].group == c[i].group
			 ? c[i - 1].k + 1 : 0;
	qsort(c, b->ncall, sizeof(*c), hbe_by_instance);
	for (size_t i = 0; i < b->ncall; i++) {
		if (i > 0 && (c[i - 1].group != c[i].group ||
			      c[i - 1].k != c[i].k))
			b->ninst++;
		c[i].inst = b->ninst;
	}
	b->ninst++;
	return 0;
}

uint32_t pg_hbe_spawn_at(const struct pg_hbe *b, int ltid, uint32_t spawn)
{
	for (size_t i = 0; i < b->nspawn; i++)
		if (b->spawns[i].ltid == ltid && b->spawns[i].spawn == spawn)
			return b->spawns[i].seq;
	return 0;
}

void pg_hbe_free(struct pg_hbe *b)
{
	for (int g = 0; g < b->ngroup; g++)
		free(b->groups[g]);
	free(b->groups);
	free(b->calls);
	free(b->spawns);
	memset(b, 0, sizeof(*b));
}
