/*
 * queue.c: messages that arrived during replay before their turn, kept in
 * arrival order with the PVM buffer that holds each.
 */
#include "pangaea-internal.h"

#include <stdlib.h>
#include <string.h>

int pg_queue_push(struct pg_queue *q, const struct pg_qmsg *m)
{
	if (q->n == q->cap) {
		int cap = q->cap ? q->cap * 2 : 16;
		struct pg_qmsg *v = realloc(q->v, (size_t)cap * sizeof(*v));

		if (!v)
			return -1;
		q->v = v;
		q->cap = cap;
	}
	q->v[q->n++] = *m;
	return 0;
}

int pg_queue_find(const struct pg_queue *q, int src_ltid, uint32_t msgid)
{
	for (int i = 0; i < q->n; i++)
		if (q->v[i].src_ltid == src_ltid && q->v[i].msgid == msgid)
			return i;
	return -1;
}

struct pg_qmsg pg_queue_remove(struct pg_queue *q, int i)
{
	struct pg_qmsg m = q->v[i];

	memmove(&q->v[i], &q->v[i + 1], (size_t)(q->n - i - 1) * sizeof(m));
	q->n--;
	return m;
}

void pg_queue_free(struct pg_queue *q)
{
	free(q->v);
	memset(q, 0, sizeof(*q));
}
