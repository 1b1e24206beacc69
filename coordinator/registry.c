/*
 * registry.c: the coordinator's table of tasks (tid <-> ltid) and the
 * queue of ltid -> tid requests that arrived before their task was
 * spawned (paper 001, section 5.2).  A run has tens to hundreds of tasks:
 * plain arrays are enough.
 */
#include "coord.h"

#include <stdlib.h>
#include <string.h>

void coord_registry_init(struct coord_registry *r)
{
	memset(r, 0, sizeof(*r));
}

void coord_registry_free(struct coord_registry *r)
{
	free(r->tasks);
	free(r->waiters);
	coord_registry_init(r);
}

/* The entry of LTID, or NULL. */
static struct coord_task *find_ltid(const struct coord_registry *r, int ltid)
{
	for (int i = 0; i < r->ntasks; i++)
		if (r->tasks[i].ltid == ltid)
			return &r->tasks[i];
	return NULL;
}

int coord_registry_ltid(const struct coord_registry *r, int tid)
{
	for (int i = 0; i < r->ntasks; i++)
		if (r->tasks[i].tid == tid)
			return r->tasks[i].ltid;
	return -1;
}

int coord_registry_tid(const struct coord_registry *r, int ltid)
{
	struct coord_task *t = find_ltid(r, ltid);

	return t ? t->tid : 0;
}

int coord_registry_add(struct coord_registry *r, int ltid, int tid)
{
	struct coord_task *t = find_ltid(r, ltid);

	if (t)
		return t->tid == tid ? 0 : -1;
	if (coord_registry_ltid(r, tid) >= 0)
		return -1;
	if (r->ntasks == r->cap) {
		int cap = r->cap ? r->cap * 2 : 32;
		struct coord_task *v = realloc(r->tasks, (size_t)cap * sizeof(*v));

		if (!v)
			return -1;
		r->tasks = v;
		r->cap = cap;
	}
	r->tasks[r->ntasks++] = (struct coord_task){ ltid, tid, 0 };
	return 0;
}

int coord_registry_register(struct coord_registry *r, int ltid, int tid)
{
	struct coord_task *t;

	if (coord_registry_add(r, ltid, tid) < 0)
		return -1;
	t = find_ltid(r, ltid);
	t->registered = 1;
	return 0;
}

int coord_registry_wait(struct coord_registry *r, int requester, int ltid)
{
	if (r->nwaiters == r->wcap) {
		int cap = r->wcap ? r->wcap * 2 : 16;
		struct coord_waiter *v = realloc(r->waiters,
						 (size_t)cap * sizeof(*v));

		if (!v)
			return -1;
		r->waiters = v;
		r->wcap = cap;
	}
	r->waiters[r->nwaiters++] = (struct coord_waiter){ requester, ltid };
	return 0;
}

int coord_registry_take_waiters(struct coord_registry *r, int ltid, int *out,
				int max)
{
	int n = 0, k = 0;

	for (int i = 0; i < r->nwaiters; i++) {
		if (r->waiters[i].ltid == ltid && n < max)
			out[n++] = r->waiters[i].requester;
		else
			r->waiters[k++] = r->waiters[i];
	}
	r->nwaiters = k;
	return n;
}
