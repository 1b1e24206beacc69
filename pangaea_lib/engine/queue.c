/*
 * queue.c: messages that arrived during replay before their turn, kept in
 * arrival order with the binding's handle of each, and found by what
 * names a message (sender ltid and id: pg_queue_find, inline in engine.h)
 * or by a receive's filter.
 */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

int pg_queue_push(struct pg_queue *q, const struct pg_qmsg *m)
{
	struct pg_qmsg *v = pg_grow(q->v, &q->cap, q->n + 1, sizeof(*v), 16);

	if (!v)
		return -1;
	q->v = v;
	q->v[q->n++] = *m;
	return 0;
}

int pg_queue_find_filter(const struct pg_queue *q, int src, int tag)
{
	for (size_t i = 0; i < q->n; i++)
		if ((src == -1 || q->v[i].src == src) &&
		    (tag == -1 || q->v[i].tag == tag))
			return (int)i;
	return -1;
}

struct pg_qmsg pg_queue_remove(struct pg_queue *q, size_t i)
{
	struct pg_qmsg m = q->v[i];

	memmove(&q->v[i], &q->v[i + 1], (q->n - i - 1) * sizeof(m));
	q->n--;
	return m;
}

void pg_queue_free(struct pg_queue *q)
{
	free(q->v);
	memset(q, 0, sizeof(*q));
}
