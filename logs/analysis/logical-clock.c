/*
 * logical-clock.c: the controlled logical clock (logical-clock.h).
 *
 * Forward pass (Rabenseifner's equations (3) and (4), with the
 * collective extension (3') of papers/003_...): the points are taken in
 * a topological order of local order plus the edges (Kahn's algorithm);
 * each gets
 *     LC(e) = max(C(e), LC(prev) + gamma (C(e) - C(prev)), LC(prev),
 *                 max over its in-edges of LC(from) + mu)
 * where C is the time given and prev the point before it on its
 * timeline.  Where the edge term wins, the point jumps by the difference
 * to the rest; after it the clock runs at gamma times its speed until it
 * meets C again (forward amortisation).  Where nothing was violated,
 * LC = C.
 *
 * Backward amortisation (the paper's §3.2 and §4.2): for each jump of
 * size D at point r, the points of r's timeline in the window of
 * window * D ns before it are moved forward along a ramp from 0 at the
 * window's start to D at r, reduced where a send in the window may not
 * move past its receive minus mu: then the correction is piecewise
 * linear through that limit (line from the window's start to the limit,
 * and from the limit to D at r).  The correction is a minimum of
 * non-decreasing functions of the time, so local order is kept.
 */
#include "logical-clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The state of one pass. */
struct clc_work {
	const struct clc_graph *g;
	uint32_t *off;   /* out-edges of point i: out[off[i] .. off[i+1]) */
	uint32_t *out;   /* edge indices grouped by their from point */
	uint32_t *indeg; /* predecessors not yet placed; DONE when placed */
	uint32_t *stack;
	int64_t *lc;     /* the new times */
	int64_t *need;   /* before i is placed: max of its in-edges' LC + mu
			    (CLC_NONE: none yet); after: its jump */
};

#define DONE UINT32_MAX

void clc_defaults(struct clc_params *p)
{
	p->gamma = 0.99;
	p->window = 100.0;
}

/* Whether point I of G is a virtual (collective) point. */
static int is_virtual(const struct clc_graph *g, size_t i)
{
	return g->t[i] == CLC_NONE;
}

/* Counts the violated edges of G for the times T, using SCRATCH (N
 * values) for the virtual points' values. */
static size_t count_violations(const struct clc_graph *g, const int64_t *t,
			       int64_t *scratch)
{
	size_t bad = 0;

	for (size_t i = 0; i < g->n; i++)
		scratch[i] = CLC_NONE;
	for (size_t k = 0; k < g->nedge; k++) {
		const struct clc_edge *e = &g->edge[k];

		if (is_virtual(g, e->to) && !is_virtual(g, e->from) &&
		    t[e->from] + e->mu > scratch[e->to])
			scratch[e->to] = t[e->from] + e->mu;
	}
	for (size_t k = 0; k < g->nedge; k++) {
		const struct clc_edge *e = &g->edge[k];
		int64_t from = is_virtual(g, e->from) ? scratch[e->from]
						      : t[e->from];

		if (is_virtual(g, e->to) || from == CLC_NONE)
			continue;
		if (t[e->to] < from + e->mu)
			bad++;
	}
	return bad;
}

size_t clc_violations(const struct clc_graph *g, const int64_t *t)
{
	int64_t *s = malloc((g->n ? g->n : 1) * sizeof(*s));
	size_t bad;

	if (!s)
		return SIZE_MAX;
	bad = count_violations(g, t, s);
	free(s);
	return bad;
}

/* Groups the edges of W's graph by their from point; 0 or -1. */
static int build_out(struct clc_work *w)
{
	const struct clc_graph *g = w->g;

	for (size_t k = 0; k < g->nedge; k++)
		w->off[g->edge[k].from + 1]++;
	for (size_t i = 0; i < g->n; i++)
		w->off[i + 1] += w->off[i];
	for (size_t k = 0; k < g->nedge; k++)
		w->out[w->off[g->edge[k].from]++] = (uint32_t)k;
	for (size_t i = g->n; i > 0; i--)   /* undo the shift of the fill */
		w->off[i] = w->off[i - 1];
	w->off[0] = 0;
	return 0;
}

/* Gives point I its forward time from its predecessor and its in-edges
 * (W->need[I]), and leaves its jump in W->need[I]. */
static void fw_place(struct clc_work *w, size_t i, double gamma)
{
	const struct clc_graph *g = w->g;
	const int64_t *c = g->t;
	int64_t base, v;

	if (is_virtual(g, i)) {
		w->lc[i] = w->need[i];
		w->need[i] = 0;
		return;
	}
	base = c[i];
	if (!g->start[i]) {
		int64_t prev = w->lc[i - 1];
		int64_t am = prev + (int64_t)(gamma * (double)(c[i] - c[i - 1]));

		if (am < prev)
			am = prev;
		if (am > base)
			base = am;
	}
	v = base;
	if (w->need[i] != CLC_NONE && w->need[i] > v)
		v = w->need[i];
	w->lc[i] = v;
	w->need[i] = v - base;
}

/* Counts a predecessor of point J as placed; pushes J when it was the
 * last.  *TOP is the stack's height. */
static void fw_release(struct clc_work *w, size_t j, size_t *top)
{
	if (w->indeg[j] != DONE && --w->indeg[j] == 0)
		w->stack[(*top)++] = (uint32_t)j;
}

/* The forward pass over W; the number of edges left out (cycles). */
static size_t fw_pass(struct clc_work *w, double gamma)
{
	const struct clc_graph *g = w->g;
	size_t top = 0, placed = 0, cursor = 0, cycles = 0;

	for (size_t i = 0; i < g->n; i++) {
		w->need[i] = CLC_NONE;
		w->indeg[i] = g->start[i] ? 0 : 1;
	}
	for (size_t k = 0; k < g->nedge; k++)
		w->indeg[g->edge[k].to]++;
	for (size_t i = 0; i < g->n; i++)
		if (w->indeg[i] == 0)
			w->stack[top++] = (uint32_t)i;
	while (placed < g->n) {
		if (top == 0) {
			/* a cycle: place the first point whose timeline
			 * predecessor is placed, without its other edges */
			while (w->indeg[cursor] == DONE)
				cursor++;
			size_t i = cursor;
			while (w->indeg[i] == DONE ||
			       !(g->start[i] || w->indeg[i - 1] == DONE))
				i++;
			cycles += w->indeg[i];
			w->indeg[i] = 0;
			w->stack[top++] = (uint32_t)i;
		}
		size_t i = w->stack[--top];

		fw_place(w, i, gamma);
		w->indeg[i] = DONE;
		placed++;
		for (uint32_t k = w->off[i]; k < w->off[i + 1]; k++) {
			const struct clc_edge *e = &g->edge[w->out[k]];

			if (w->lc[i] != CLC_NONE &&
			    w->lc[i] + e->mu > w->need[e->to] &&
			    w->indeg[e->to] != DONE)
				w->need[e->to] = w->lc[i] + e->mu;
			fw_release(w, e->to, &top);
		}
		if (i + 1 < g->n && !g->start[i + 1])
			fw_release(w, i + 1, &top);
	}
	return cycles;
}

/* How far point J may move forward without passing a receive of its
 * (minus mu, through a collective's join too); INT64_MAX: no limit. */
static int64_t bw_cap(const struct clc_work *w, size_t j)
{
	const struct clc_graph *g = w->g;
	int64_t lim = INT64_MAX;

	for (uint32_t k = w->off[j]; k < w->off[j + 1]; k++) {
		const struct clc_edge *e = &g->edge[w->out[k]];

		if (!is_virtual(g, e->to)) {
			if (w->lc[e->to] - e->mu < lim)
				lim = w->lc[e->to] - e->mu;
			continue;
		}
		for (uint32_t q = w->off[e->to]; q < w->off[e->to + 1]; q++) {
			const struct clc_edge *x = &g->edge[w->out[q]];
			int64_t l = w->lc[x->to] - x->mu - e->mu;

			if (l < lim)
				lim = l;
		}
	}
	return lim == INT64_MAX ? lim : lim - w->lc[j];
}

/* Spreads the jump at point R backward over its window (header). */
static void bw_amortise(struct clc_work *w, size_t r, double window)
{
	const struct clc_graph *g = w->g;
	int64_t d = w->need[r], xr = w->lc[r] - d;
	double len = window * (double)d, kmax = -INFINITY, mmin = INFINITY;
	int64_t xs, step = INT64_MAX;
	size_t a = r;

	if (len < 1.0)
		return;
	if (len > 0x1p62)   /* (times are below 2^62: the whole timeline) */
		len = 0x1p62;
	xs = xr - (int64_t)len;
	while (!g->start[a] && w->lc[a - 1] > xs)
		a--;
	/* first, forward: the lines from each limit to D at r */
	for (size_t j = a; j < r; j++) {
		int64_t cap = bw_cap(w, j), x = w->lc[j];
		double t1 = INFINITY;

		if (cap != INT64_MAX) {
			if (xr > x) {
				double k = (double)(d - cap) / (double)(xr - x);
				kmax = k > kmax ? k : kmax;
			} else if (cap < step) {
				step = cap;
			}
		}
		if (kmax > -INFINITY)
			t1 = (double)d - kmax * (double)(xr - x);
		if ((double)step < t1)
			t1 = (double)step;
		w->need[j] = t1 >= (double)d ? d : (int64_t)floor(t1);
	}
	/* then backward: the ramp, and the lines from the window's start to
	 * each limit */
	for (size_t j = r; j-- > a;) {
		int64_t cap = bw_cap(w, j), x = w->lc[j];
		double f = (double)d * (double)(x - xs) / len;

		if (cap != INT64_MAX && cap / (double)(x - xs) < mmin)
			mmin = cap / (double)(x - xs);
		if (mmin * (double)(x - xs) < f)
			f = mmin * (double)(x - xs);
		if ((double)w->need[j] < f)
			f = (double)w->need[j];
		w->lc[j] = x + (f > 0 ? (int64_t)floor(f) : 0);
		w->need[j] = 0;
	}
}

/* Frees what W holds. */
static void work_free(struct clc_work *w)
{
	free(w->off);
	free(w->out);
	free(w->indeg);
	free(w->stack);
	free(w->lc);
	free(w->need);
}

/* Fills ST from the times before (G's) and after (W's). */
static void fill_stats(const struct clc_work *w, struct clc_stats *st)
{
	const struct clc_graph *g = w->g;
	double sum = 0;
	size_t nreal = 0;

	for (size_t i = 0; i < g->n; i++) {
		int64_t c;

		if (is_virtual(g, i))
			continue;
		nreal++;
		c = w->lc[i] - g->t[i];
		if (c == 0)
			continue;
		st->ncorrected++;
		sum += (double)c;
		if (c > st->max_corr)
			st->max_corr = c;
	}
	st->mean_corr = nreal ? sum / (double)nreal : 0;
}

int clc_run(struct clc_graph *g, const struct clc_params *p,
	    struct clc_stats *st)
{
	struct clc_work w = { .g = g };
	struct clc_params def;
	struct clc_stats dummy;
	size_t n1 = g->n + 1;

	if (!p) {
		clc_defaults(&def);
		p = &def;
	}
	st = st ? st : &dummy;
	memset(st, 0, sizeof(*st));
	w.off = calloc(n1, sizeof(*w.off));
	w.out = malloc((g->nedge ? g->nedge : 1) * sizeof(*w.out));
	w.indeg = malloc(n1 * sizeof(*w.indeg));
	w.stack = malloc(n1 * sizeof(*w.stack));
	w.lc = malloc(n1 * sizeof(*w.lc));
	w.need = malloc(n1 * sizeof(*w.need));
	if (!w.off || !w.out || !w.indeg || !w.stack || !w.lc || !w.need) {
		work_free(&w);
		return -1;
	}
	st->violations_before = count_violations(g, g->t, w.need);
	build_out(&w);
	st->ncycles = fw_pass(&w, p->gamma);
	for (size_t r = 0; r < g->n; r++)
		if (w.need[r] > 0 && !is_virtual(g, r)) {
			st->njumps++;
			bw_amortise(&w, r, p->window);
		}
	fill_stats(&w, st);
	for (size_t i = 0; i < g->n; i++)
		if (!is_virtual(g, i))
			g->t[i] = w.lc[i];
	st->violations_after = count_violations(g, g->t, w.need);
	work_free(&w);
	return 0;
}
