/*
 * explore-plan.h: the plan of an exploration (logs/analysis/
 * explore-plan.c): the what-ifs to run, in order, each prefix once.
 * A what-if is a swap of a base run (the recording, or a run an earlier
 * what-if made); the plan is taken in the order it was filled, so every
 * swap of the recording comes before the swaps of the runs they made
 * (level by level), each level in the order of the receives.  Running
 * the what-ifs and judging their outcomes are the launcher's
 * (toplevel/explore.c).
 */
#ifndef PANGAEA_EXPLORE_PLAN_H
#define PANGAEA_EXPLORE_PLAN_H

#include "pangaea-analysis.h"

#include <stddef.h>
#include <stdint.h>

/* A what-if to run: swap SW of the run BASE. */
struct pg_explore_item {
	int base;           /* run number of its base, 0 the recording */
	int parent;         /* item index of the base's run, -1 none */
	struct pg_hb_swap sw;
};

/* The plan (start from { 0 }); fields read-only. */
struct pg_explore_plan {
	struct pg_explore_item *items; /* in the order to run them */
	int n;
	size_t cap;
	uint64_t *keys;     /* the prefixes run (pg_whatif_key) */
	int nkeys;
	size_t capkeys;
};

/* Appends the swaps V (N) of the run BASE, made by item PARENT (-1: the
 * recording's), to plan P; 0, or -1 out of memory. */
int pg_explore_add(struct pg_explore_plan *p, int base, int parent,
		   const struct pg_hb_swap *v, int n);

/* Whether the prefix KEY was run already: 1; else notes it, 0 (-1 out
 * of memory). */
int pg_explore_seen(struct pg_explore_plan *p, uint64_t key);

/* The swaps that lead to item I from the recording, into BUF of LEN
 * ("L:E=S:M then L:E=S:M": the second is a swap of the run the first
 * made; the 64 nearest the item at most). */
void pg_explore_chain(const struct pg_explore_plan *p, int i, char *buf,
		      size_t len);

/* Frees what P holds and leaves it { 0 }. */
void pg_explore_free(struct pg_explore_plan *p);

#endif /* PANGAEA_EXPLORE_PLAN_H */
