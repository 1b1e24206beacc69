/*
 * whatif.c: the what-if rules (whatif.h): a swap against the receive's
 * racing alternatives, the cut of a what-if, the key of its prefix, the
 * swaps of a run's races.
 */
#include "whatif.h"

#include <stdlib.h>

int pg_whatif_swappable(const struct pg_race *r, const struct pg_race_alt *a)
{
	return (r->what == PG_RACE_RECV || r->what == PG_RACE_POLL) &&
	       pg_rec_kind_class(r->kind) == PG_CLASS_RECV &&
	       a->sender != PG_RACE_NOTHING && a->msgid != 0 && a->send_event;
}

const struct pg_race_alt *pg_whatif_pick(const struct pg_race *r,
					 const struct pg_hb_swap *sw,
					 struct pg_strbuf *valid)
{
	const struct pg_race_alt *pick = NULL;

	for (int k = 0; r && k < r->nalt; k++) {
		const struct pg_race_alt *a = &r->alts[k];

		if (!pg_whatif_swappable(r, a))
			continue;
		if (valid)
			pg_strbuf_printf(valid, " %d:%u", a->sender, a->msgid);
		if (a->sender == sw->sender && a->msgid == sw->msgid)
			pick = a;
	}
	return pick;
}

int pg_whatif_cut(const struct pg_hb *hb, const struct pg_hb_swap *sw, int n,
		  long *cut, char *err, size_t errlen)
{
	if (pg_hb_cut(hb, sw, n, cut, err, errlen) < 0)
		return -1;
	for (int s = 0; s < n; s++)
		cut[pg_hb_task(hb, sw[s].ltid)] = sw[s].event;
	return 0;
}

/* Mixes the 64-bit V into the FNV-1a hash H. */
static uint64_t wf_mix(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		h = (h ^ (v & 0xff)) * 0x100000001b3ULL;
	return h;
}

uint64_t pg_whatif_key(const struct pg_hb *hb, const struct pg_hb_swap *sw,
		       const long *cut)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (int i = 0; i < hb->ntask; i++) {
		h = wf_mix(wf_mix(h, (uint64_t)hb->ltids[i]), (uint64_t)cut[i]);
		for (long k = 0; k < cut[i]; k++) {
			const struct pg_hb_ev *e = &hb->ev[i][k];
			int swapped = hb->ltids[i] == sw->ltid &&
				      k + 1 == sw->event;

			h = wf_mix(h, (uint64_t)e->kind);
			h = wf_mix(h, (uint64_t)(uint32_t)(swapped ? sw->sender
								   : e->peer));
			h = wf_mix(h, swapped ? sw->msgid : e->msgid);
		}
	}
	return h;
}

/* Whether race R is one pg_whatif_swaps takes (its arguments' filter). */
static int wf_wanted(const struct pg_race *r, const int *cut_ltid,
		     const uint64_t *cut, int ncut,
		     const struct pg_hb_swap *only)
{
	long first = 0; /* events before it were replayed */

	for (int j = 0; cut && j < ncut; j++)
		if (cut_ltid[j] == r->ltid)
			first = (long)cut[j];
	return r->event > first &&
	       (!only || (only->ltid == r->ltid && only->event == r->event));
}

int pg_whatif_swaps(const struct pg_races *races, const int *cut_ltid,
		    const uint64_t *cut, int ncut, const struct pg_hb_swap *only,
		    struct pg_hb_swap **out)
{
	struct pg_hb_swap *v = NULL, *g;
	size_t n = 0, cap = 0;

	*out = NULL;
	for (size_t i = 0; i < races->n; i++) {
		const struct pg_race *r = &races->v[i];

		if (!wf_wanted(r, cut_ltid, cut, ncut, only))
			continue;
		for (int k = 0; k < r->nalt; k++) {
			if (!pg_whatif_swappable(r, &r->alts[k]))
				continue;
			if (!(g = pg_grow(v, &cap, n + 1, sizeof(*v), 16))) {
				free(v);
				return -1;
			}
			v = g;
			v[n++] = (struct pg_hb_swap){ r->ltid, r->event,
						      r->alts[k].sender,
						      r->alts[k].msgid };
		}
	}
	*out = v;
	return (int)n;
}
