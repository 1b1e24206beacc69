/*
 * explore-plan.c: the plan of an exploration (explore-plan.h): a queue
 * of what-ifs taken in order, and the set of prefixes already run.
 */
#include "explore-plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pg_explore_add(struct pg_explore_plan *p, int base, int parent,
		   const struct pg_hb_swap *v, int n)
{
	struct pg_explore_item *g = pg_grow(p->items, &p->cap,
					    (size_t)p->n + (size_t)n + 1,
					    sizeof(*g), 32);

	if (!g)
		return -1;
	p->items = g;
	for (int i = 0; i < n; i++)
		p->items[p->n++] = (struct pg_explore_item){ base, parent, v[i] };
	return 0;
}

int pg_explore_seen(struct pg_explore_plan *p, uint64_t key)
{
	uint64_t *g;

	for (int i = 0; i < p->nkeys; i++)
		if (p->keys[i] == key)
			return 1;
	if (!(g = pg_grow(p->keys, &p->capkeys, (size_t)p->nkeys + 1,
			  sizeof(*g), 32)))
		return -1;
	p->keys = g;
	p->keys[p->nkeys++] = key;
	return 0;
}

void pg_explore_chain(const struct pg_explore_plan *p, int i, char *buf,
		      size_t len)
{
	int path[64], n = 0;
	size_t k = 0;

	for (; i >= 0 && n < 64; i = p->items[i].parent)
		path[n++] = i;
	buf[0] = '\0';
	while (n-- > 0 && k < len) {
		const struct pg_hb_swap *s = &p->items[path[n]].sw;

		k += (size_t)snprintf(buf + k, len - k, "%s%d:%llu=%d:%u",
				      k ? " then " : "", s->ltid,
				      (unsigned long long)s->event, s->sender,
				      s->msgid);
	}
}

void pg_explore_free(struct pg_explore_plan *p)
{
	free(p->items);
	free(p->keys);
	memset(p, 0, sizeof(*p));
}
