/*
 * grow.c: memory that grows: arrays (pg_grow, for every list that is
 * appended to) and always NUL-terminated strings (pg_strbuf, for the
 * writers that build a line or a list before storing it).
 */
#include "pangaea-logs.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *pg_grow(void *v, size_t *cap, size_t need, size_t size, size_t min)
{
	size_t n = *cap ? *cap : min ? min : 1;

	if (need <= *cap)
		return v;
	while (n < need) {
		if (n > SIZE_MAX / 2 / size)
			return NULL;
		n *= 2;
	}
	if (n > SIZE_MAX / size || !(v = realloc(v, n * size)))
		return NULL;
	*cap = n;
	return v;
}

/* Makes room for N more bytes and the NUL after them; 0 or -1. */
static int strbuf_reserve(struct pg_strbuf *b, size_t n)
{
	char *p = pg_grow(b->p, &b->cap, b->len + n + 1, 1, 64);

	if (!p)
		return -1;
	b->p = p;
	return 0;
}

int pg_strbuf_add(struct pg_strbuf *b, const char *s, size_t n)
{
	if (strbuf_reserve(b, n) < 0)
		return -1;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

int pg_strbuf_printf(struct pg_strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || strbuf_reserve(b, (size_t)n) < 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

void pg_strbuf_reset(struct pg_strbuf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
}

void pg_strbuf_free(struct pg_strbuf *b)
{
	free(b->p);
	*b = (struct pg_strbuf){ 0 };
}
