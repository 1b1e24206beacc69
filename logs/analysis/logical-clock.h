/*
 * logical-clock.h: the controlled logical clock (Rabenseifner; Becker et al.,
 * "Implementing the controlled logical clock for collective operations",
 * papers/003_...): moves timestamps of a trace forward so that every
 * receive comes after its send plus the minimum latency (the clock
 * condition), changing local intervals as little as possible.  Pure
 * computation on arrays: no SQLite, no logs (logs/tracedb/tracedb-sync.c feeds
 * it the trace database).
 */
#ifndef PANGAEA_CLC_H
#define PANGAEA_CLC_H

#include <stddef.h>
#include <stdint.h>

/* The time of a virtual point (a collective's join) before the pass. */
#define CLC_NONE INT64_MIN

/* A happened-before edge: point TO may not be earlier than point FROM
 * plus MU (ns, >= 0). */
struct clc_edge {
	uint32_t from, to;
	int64_t mu;
};

/*
 * A trace as the clock sees it: N points (a call's entry or exit), the
 * points of one timeline (a task) contiguous and in local order;
 * START[i] is 1 where a timeline begins.  A collective (barrier) is a
 * virtual point of its own (a one-point timeline with time CLC_NONE)
 * with an edge from each member's entry and one to each member's exit:
 * the exits come after the last entry.  A broadcast is one send point
 * with an edge to each receive.
 */
struct clc_graph {
	size_t n;
	int64_t *t;                 /* in: pre-synchronised; out: synchronised */
	const uint8_t *start;
	size_t nedge;
	const struct clc_edge *edge;
};

/* The knobs of the pass (clc_defaults). */
struct clc_params {
	double gamma;   /* forward amortisation: after a jump the clock runs
			   at gamma times its speed until it meets its own
			   time again (close to 1) */
	double window;  /* backward amortisation over the window * jump ns
			   before the jump (1 / the error rate allowed) */
};

/* What a pass did (over the real points). */
struct clc_stats {
	size_t violations_before, violations_after;
	size_t njumps;        /* receives the forward pass moved */
	size_t ncorrected;    /* points whose time changed */
	size_t ncycles;       /* edges left out: they closed a cycle (bad
				 data: a receive before its send in local
				 order) */
	int64_t max_corr;     /* largest correction, ns */
	double mean_corr;     /* mean correction over all real points, ns */
};

/* Fills P with the defaults: gamma 0.99, window 100 (a 1 % rate). */
void clc_defaults(struct clc_params *p);

/* Number of edges of G whose clock condition does not hold for the
 * times T (an edge through a virtual point counts once per exit it
 * leads to). */
size_t clc_violations(const struct clc_graph *g, const int64_t *t);

/*
 * Runs the forward pass and the backward amortisation on G's times in
 * place (P NULL: the defaults).  Afterwards every edge's condition holds
 * (unless it closed a cycle), each timeline's order is kept, and points
 * outside the amortisation of a jump keep their times.  Linear in points
 * plus edges (plus the backward windows).  0, or -1 when memory ran out
 * (G unchanged).  ST may be NULL.
 */
int clc_run(struct clc_graph *g, const struct clc_params *p,
	    struct clc_stats *st);

#endif /* PANGAEA_CLC_H */
