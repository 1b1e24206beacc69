/*
 * select.c: selective logging.  Two ways to leave events out of a run's
 * logs: the program suspends recording or replay control around parts of
 * its code (pangaea_suspend / pangaea_resume), or the user selects at run
 * time, without recompiling, which tasks and tags are logged
 * (`pangaea -log -select "tag=5,7 ltid=1,1001 program=racy"`).
 *
 * The selection is written in every task's log header and run.info; the
 * replay applies the same one, so the events it follows are exactly the
 * events recorded.  The rule (documented in docs/INTERNALS.md):
 *   - a task is selected if no ltid= and no program= is given, or its ltid
 *     or program (base name) is listed;
 *   - a send is logged if its task is selected and its tag is selected (no
 *     tag= given, or listed);
 *   - a receive call is logged if its task is selected and its tag filter
 *     is selected or is -1 (a receive for any tag is always logged, since
 *     which message it gets is what replay must fix);
 *   - spawns and group calls of a selected task are always logged;
 *   - the clock reads and seeds of a selected task are logged (and
 *     replayed) unless clock=off is given (pangaea_lib/clock).
 */
#include "engine.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct pg_select run_sel; /* this task's run's selection */
static int task_selected;        /* this task's events are logged at all */
static int suspended;            /* PANGAEA_RECORD | PANGAEA_REPLAY bits */
int pg_logged_all;

/* Sets pg_logged_all after a change of the selection or suspension. */
static void logged_all_set(void)
{
	pg_logged_all = task_selected && !suspended && !run_sel.ntags;
}

/* Appends the ints of the comma list S (up to END) to V; 0 or -1 (not
 * a number, out of an int's range, an empty item, too many). */
static int parse_ints(const char *s, const char *end, int *v, int *n, int max)
{
	while (s < end) {
		char *e;
		long x;

		errno = 0;
		x = strtol(s, &e, 10);
		if (e == s || errno || x < INT_MIN || x > INT_MAX ||
		    *n >= max || (e < end && (*e != ',' || e + 1 == end)))
			return -1;
		v[(*n)++] = (int)x;
		s = e < end ? e + 1 : e;
	}
	return 0;
}

/* Appends the names of the comma list S (up to END) to SEL; 0 or -1. */
static int parse_names(const char *s, const char *end, struct pg_select *sel)
{
	while (s < end) {
		const char *c = memchr(s, ',', (size_t)(end - s));
		size_t l = (size_t)((c ? c : end) - s);

		/* a base name: a path could never match */
		if (l == 0 || l >= sizeof(sel->progs[0]) ||
		    sel->nprogs >= PG_SELECT_NAMES || memchr(s, '/', l))
			return -1;
		memcpy(sel->progs[sel->nprogs], s, l);
		sel->progs[sel->nprogs++][l] = '\0';
		s = c ? c + 1 : end;
	}
	return 0;
}

/* Sets *OFF from the word S..END: "off" 1, "on" 0; 0, or -1 for any
 * other word. */
static int parse_onoff(const char *s, const char *end, int *off)
{
	size_t l = (size_t)(end - s);

	if (l == 3 && strncmp(s, "off", 3) == 0)
		*off = 1;
	else if (l == 2 && strncmp(s, "on", 2) == 0)
		*off = 0;
	else
		return -1;
	return 0;
}

int pg_select_parse(const char *spec, struct pg_select *sel, char *err,
		    size_t errlen)
{
	const char *p = spec;

	memset(sel, 0, sizeof(*sel));
	while (*p) {
		const char *end, *eq;
		int rc;

		while (*p && (isspace((unsigned char)*p) || *p == ';'))
			p++;
		if (!*p)
			break;
		end = p;
		while (*end && !isspace((unsigned char)*end) && *end != ';')
			end++;
		eq = memchr(p, '=', (size_t)(end - p));
		if (!eq || eq + 1 == end)
			rc = -1;
		else if (eq - p == 3 && strncmp(p, "tag", 3) == 0)
			rc = parse_ints(eq + 1, end, sel->tags, &sel->ntags,
					PG_SELECT_INTS);
		else if (eq - p == 4 && strncmp(p, "ltid", 4) == 0)
			rc = parse_ints(eq + 1, end, sel->ltids, &sel->nltids,
					PG_SELECT_INTS);
		else if (eq - p == 7 && strncmp(p, "program", 7) == 0)
			rc = parse_names(eq + 1, end, sel);
		else if (eq - p == 5 && strncmp(p, "clock", 5) == 0)
			rc = parse_onoff(eq + 1, end, &sel->clock_off);
		else
			rc = -1;
		if (rc < 0) {
			snprintf(err, errlen,
				 "bad selection '%.*s' (want tag=N,.. ltid=N,.. "
				 "program=NAME,.. clock=on|off)", (int)(end - p),
				 p);
			return -1;
		}
		p = end;
	}
	sel->active = sel->ntags || sel->nltids || sel->nprogs;
	return 0;
}

/* Whether V is among the N ints of A. */
static int has_int(const int *a, int n, int v)
{
	for (int i = 0; i < n; i++)
		if (a[i] == v)
			return 1;
	return 0;
}

int pg_select_format(const struct pg_select *sel, char *buf, size_t n)
{
	size_t k = 0;

	buf[0] = '\0';
	for (int i = 0; i < sel->ntags && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%d",
				      i ? "," : "tag=", sel->tags[i]);
	for (int i = 0; i < sel->nltids && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%d",
				      i ? "," : k ? " ltid=" : "ltid=",
				      sel->ltids[i]);
	for (int i = 0; i < sel->nprogs && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%s",
				      i ? "," : k ? " program=" : "program=",
				      sel->progs[i]);
	if (sel->clock_off && k < n)
		k += (size_t)snprintf(buf + k, n - k, "%sclock=off",
				      k ? " " : "");
	return k < n ? 0 : -1;
}

int pg_select_task(const struct pg_select *sel, int ltid, const char *program)
{
	const char *base = strrchr(program, '/');

	if (!sel->nltids && !sel->nprogs)
		return 1;
	if (has_int(sel->ltids, sel->nltids, ltid))
		return 1;
	base = base ? base + 1 : program;
	for (int i = 0; i < sel->nprogs; i++)
		if (strcmp(sel->progs[i], base) == 0)
			return 1;
	return 0;
}

int pg_select_tag(const struct pg_select *sel, int tag)
{
	return !sel->ntags || tag == -1 || has_int(sel->tags, sel->ntags, tag);
}

int pg_select_open(char *err, size_t errlen)
{
	if (pg_select_parse(pg_me->select, &run_sel, err, errlen) < 0)
		return -1;
	task_selected = pg_select_task(&run_sel, pg_me->ltid, pg_me->program);
	logged_all_set();
	return 0;
}

int pg_select_task_logged(void)
{
	return task_selected;
}

int pg_select_clock(void)
{
	return task_selected && !run_sel.clock_off;
}

int pg_logged_tag(int tag)
{
	int bit = pg_me->mode == PANGAEA_MODE_REPLAY ? PANGAEA_REPLAY
						     : PANGAEA_RECORD;

	return task_selected && !(suspended & bit) &&
	       pg_select_tag(&run_sel, tag);
}

int pangaea_suspend(int what)
{
	int old = suspended;

	if (pg_me->mode)
		suspended |= what & (PANGAEA_RECORD | PANGAEA_REPLAY);
	logged_all_set();
	return old;
}

int pangaea_resume(int what)
{
	int old = suspended;

	suspended &= ~what;
	logged_all_set();
	return old;
}
