/*
 * registry.c: the coordinator's table of tasks (tid <-> ltid) and the
 * queue of ltid -> tid requests that arrived before their task was
 * spawned (paper 001, section 5.2).
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
	pg_ids_free(&r->ids);
	free(r->waiters);
	coord_registry_init(r);
}

int coord_registry_ltid(const struct coord_registry *r, int tid)
{
	int ltid = pg_ids_lookup(&r->ids, tid);

	return ltid >= 0 ? ltid : -1;
}

int coord_registry_tid(const struct coord_registry *r, int ltid)
{
	return ltid >= 0 ? pg_ids_lookup_ltid(&r->ids, ltid) : 0;
}

int coord_registry_add(struct coord_registry *r, int ltid, int tid)
{
	int known = coord_registry_tid(r, ltid);

	if (known)
		return known == tid ? 0 : -1;
	if (ltid < 0 || coord_registry_ltid(r, tid) >= 0)
		return -1;
	return pg_ids_add(&r->ids, tid, ltid);
}

int coord_registry_wait(struct coord_registry *r, int requester, int ltid)
{
	struct coord_waiter *v = pg_grow(r->waiters, &r->wcap, r->nwaiters + 1,
					 sizeof(*v), 16);

	if (!v)
		return -1;
	r->waiters = v;
	r->waiters[r->nwaiters++] = (struct coord_waiter){ requester, ltid };
	return 0;
}

int coord_registry_take_waiters(struct coord_registry *r, int ltid, int *out,
				int max)
{
	size_t k = 0;
	int n = 0;

	for (size_t i = 0; i < r->nwaiters; i++) {
		if (r->waiters[i].ltid == ltid && n < max)
			out[n++] = r->waiters[i].requester;
		else
			r->waiters[k++] = r->waiters[i];
	}
	r->nwaiters = k;
	return n;
}
