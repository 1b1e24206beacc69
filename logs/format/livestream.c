/*
 * livestream.c: the live event stream's ints and lines, written and read
 * (livestream.h says what they hold).  Numbers are written and read by
 * hand: snprintf took a third of the coordinator's samples (perf, a live
 * sor run) and sscanf parses its format again for every event.
 */
#include "livestream.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIVE_NAME "pangaea-live"
#define LIVE_KIND_MAX 16     /* room for a kind's name, its NUL included */
#define LIVE_EVENT_ROOM 160  /* an event line but its kind and dests */

_Static_assert(PG_HOST_MAX == 256, "update pg_livestream_task's %255s");

int pg_livestream_pack(const struct pg_event *ev, uint64_t wall, int *v)
{
	uint64_t dur = ev->dur;
	int nd = ev->kind == PG_REC_MCAST || ev->kind == PG_REC_BCAST
			 ? ev->ndest : 0;

	v[PG_LIVE_F_KIND] = ev->kind;
	v[PG_LIVE_F_PEER] = ev->peer;
	v[PG_LIVE_F_TAG] = ev->tag;
	v[PG_LIVE_F_MSGID] = (int)ev->msgid;
	v[PG_LIVE_F_LEN] = (int)ev->len;
	/* a group call: its op (a barrier waits), else the poll count */
	v[PG_LIVE_F_COUNT] = ev->kind == PG_REC_GROUP ? ev->op
						      : (int)ev->count;
	v[PG_LIVE_F_NDEST] = nd;
	v[PG_LIVE_F_T0_HI] = (int)(uint32_t)(wall >> 32);
	v[PG_LIVE_F_T0_LO] = (int)(uint32_t)wall;
	v[PG_LIVE_F_DUR_HI] = (int)(uint32_t)(dur >> 32);
	v[PG_LIVE_F_DUR_LO] = (int)(uint32_t)dur;
	for (int i = 0; i < nd; i++)
		v[PG_LIVE_FIELDS + i] = ev->dests[i];
	return PG_LIVE_FIELDS + nd;
}

/* The 64-bit value of the two ints HI, LO. */
static uint64_t live_u64(int hi, int lo)
{
	return (uint64_t)(uint32_t)hi << 32 | (uint32_t)lo;
}

int pg_livestream_unpack(int ltid, const int *v, int avail,
			 struct pg_live_ev *e)
{
	int nd;

	if (avail < PG_LIVE_FIELDS)
		return 0;
	nd = v[PG_LIVE_F_NDEST];
	if (nd < 0 || nd > avail - PG_LIVE_FIELDS ||
	    v[PG_LIVE_F_KIND] < 1 || v[PG_LIVE_F_KIND] > PG_REC_LAST)
		return 0;
	*e = (struct pg_live_ev){ ltid, v[PG_LIVE_F_KIND], 0, 0,
		v[PG_LIVE_F_PEER], v[PG_LIVE_F_TAG],
		(uint32_t)v[PG_LIVE_F_MSGID], (uint32_t)v[PG_LIVE_F_LEN],
		(uint32_t)v[PG_LIVE_F_COUNT], nd, v + PG_LIVE_FIELDS, NULL };
	e->t0 = live_u64(v[PG_LIVE_F_T0_HI], v[PG_LIVE_F_T0_LO]);
	e->t1 = e->t0 + live_u64(v[PG_LIVE_F_DUR_HI], v[PG_LIVE_F_DUR_LO]);
	return PG_LIVE_FIELDS + nd;
}

size_t pg_livestream_event_max(const struct pg_live_ev *e)
{
	return LIVE_EVENT_ROOM + LIVE_KIND_MAX +
	       12 * (size_t)(e->ndest > 0 ? e->ndest : 0);
}

/* Writes V in decimal at P; the position after it. */
static char *live_put_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0)
		*p++ = tmp[--n];
	return p;
}

/* Writes " V" (V signed) at P; the position after it. */
static char *live_put_int(char *p, int64_t v)
{
	*p++ = ' ';
	if (v < 0) {
		*p++ = '-';
		return live_put_u64(p, (uint64_t)-v);
	}
	return live_put_u64(p, (uint64_t)v);
}

char *pg_livestream_put_event(char *p, const struct pg_live_ev *e)
{
	const char *kind = pg_rec_kind_name(e->kind);
	size_t klen = strnlen(kind, LIVE_KIND_MAX - 1);

	*p++ = 'E';
	p = live_put_int(p, e->ltid);
	*p++ = ' ';
	memcpy(p, kind, klen);
	p += klen;
	*p++ = ' ';
	p = live_put_u64(p, e->t0);
	*p++ = ' ';
	p = live_put_u64(p, e->t1);
	p = live_put_int(p, e->peer);
	p = live_put_int(p, e->tag);
	p = live_put_int(p, e->msgid);
	p = live_put_int(p, e->len);
	p = live_put_int(p, e->count);
	for (int i = 0; i < e->ndest; i++)
		p = live_put_int(p, e->dests[i]);
	*p++ = '\n';
	return p;
}

int pg_livestream_put_task(char *buf, size_t n, int ltid, int parent,
			   const char *host, const char *program)
{
	int len = snprintf(buf, n, "T %d %d %s %s\n", ltid, parent, host,
			   program);

	return len < 0 || (size_t)len >= n ? -1 : len;
}

int pg_livestream_put_version(char *buf, size_t n)
{
	int len = snprintf(buf, n, "V " LIVE_NAME " %d\n", PG_LIVE_VERSION);

	return len < 0 || (size_t)len >= n ? -1 : len;
}

enum pg_live_line pg_livestream_line(const char *line)
{
	if (line[0] && line[1] == ' ' &&
	    (line[0] == PG_LIVE_VERSION_LINE || line[0] == PG_LIVE_TASK ||
	     line[0] == PG_LIVE_EVENT))
		return (enum pg_live_line)line[0];
	return PG_LIVE_OTHER;
}

int pg_livestream_version(const char *line, char *err, size_t errlen)
{
	int v, n = 0;

	if (sscanf(line, "V " LIVE_NAME " %d%n", &v, &n) != 1 || line[n]) {
		snprintf(err, errlen, "the live stream does not start with its "
			 "version (\"V " LIVE_NAME " %d\"): it comes from a "
			 "pangaea-coord older than this viewer",
			 PG_LIVE_VERSION);
		return -1;
	}
	if (v != PG_LIVE_VERSION) {
		snprintf(err, errlen, "the live stream is version %d, this "
			 "viewer reads version %d: pangaea-coord and "
			 "pangaea-view come from different builds", v,
			 PG_LIVE_VERSION);
		return -1;
	}
	return 0;
}

int pg_livestream_task(const char *line, struct pg_live_task *t)
{
	int n = 0;

	if (pg_livestream_line(line) != PG_LIVE_TASK ||
	    sscanf(line + 2, "%d %d %255s %n", &t->ltid, &t->parent, t->host,
		   &n) != 3 || !n)
		return -1;
	t->program = line + 2 + n;
	return 0;
}

/* Reads the number at *P, which must end at a blank or the line's end,
 * into *V and moves *P past it; 0, or -1 if there is none.  What the
 * writer writes (blanks, a minus, up to 19 digits that fit) is read
 * here, anything else by strtoll, which took a third of the time of
 * reading a live event: the same numbers and the same errors. */
static int live_get(const char **p, long long *v)
{
	const char *s = *p, *d;
	unsigned long long x = 0;
	char *end;
	int n = 0;

	while (*s == ' ')
		s++;
	d = s + (*s == '-');
	while (n < 19 && d[n] >= '0' && d[n] <= '9')
		x = x * 10 + (unsigned)(d[n++] - '0');
	if (n && (!d[n] || d[n] == ' ') && x <= (unsigned long long)LLONG_MAX) {
		*v = d == s ? (long long)x : -(long long)x;
		*p = d + n;
		return 0;
	}
	*v = strtoll(*p, &end, 10);
	if (end == *p || (*end && *end != ' '))
		return -1;
	*p = end;
	return 0;
}

/* Reads the destinations at P (blanks between, nothing after) into
 * E, growing *DESTS of *CAP ints; 0 or -1. */
static int live_get_dests(const char *p, struct pg_live_ev *e, int **dests,
			  size_t *cap)
{
	long long d;

	e->ndest = 0;
	while (*p == ' ')
		p++;
	e->dests_text = *p ? p : NULL;
	while (*p) {
		int *v;

		if (live_get(&p, &d) < 0 ||
		    !(v = pg_grow(*dests, cap, (size_t)e->ndest + 1,
				  sizeof(int), 16)))
			return -1;
		*dests = v;
		v[e->ndest++] = (int)d;
		while (*p == ' ')
			p++;
	}
	e->dests = *dests;
	return 0;
}

int pg_livestream_event(const char *line, struct pg_live_ev *e, int **dests,
			size_t *cap)
{
	char kind[LIVE_KIND_MAX];
	const char *p = line + 2;
	long long v[8];
	size_t k;

	if (pg_livestream_line(line) != PG_LIVE_EVENT ||
	    live_get(&p, &v[0]) < 0 || *p != ' ')
		return -1;
	for (p++, k = 0; p[k] && p[k] != ' '; k++)
		if (k == LIVE_KIND_MAX - 1)
			return -1;
	if (!k || p[k] != ' ')
		return -1;
	memcpy(kind, p, k);
	kind[k] = '\0';
	p += k;
	for (int i = 1; i < 8; i++)
		if (live_get(&p, &v[i]) < 0)
			return -1;
	*e = (struct pg_live_ev){ (int)v[0], pg_rec_kind_of(kind),
		(uint64_t)v[1], (uint64_t)v[2], (int)v[3], (int)v[4],
		(uint32_t)v[5], (uint32_t)v[6], (uint32_t)v[7], 0, NULL, NULL };
	if (!e->kind)
		return -1;
	return live_get_dests(p, e, dests, cap);
}
