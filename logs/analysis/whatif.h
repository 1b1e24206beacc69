/*
 * whatif.h: the what-if rules (logs/analysis/whatif.c), over a
 * recording's happens-before relation and racing receives
 * (pangaea-analysis.h): which racing alternatives a swap may name, the
 * cut a what-if replays up to, the key of the prefix it replays, the
 * swaps a run offers to -explore.  A swap is a struct pg_hb_swap: task
 * LTID's receive EVENT takes message MSGID of SENDER instead.  Reading
 * the logs, refusing a swap in words and running the what-ifs are the
 * launcher's (toplevel/whatif.c, toplevel/explore.c).
 */
#ifndef PANGAEA_WHATIF_H
#define PANGAEA_WHATIF_H

#include "pangaea-analysis.h"

#include <stddef.h>
#include <stdint.h>

/* Whether the racing alternative A of race R can be swapped in: R is a
 * receive (or successful poll) that got a message, A a message with an
 * id and a logged send (not "no message"); 1 or 0. */
int pg_whatif_swappable(const struct pg_race *r, const struct pg_race_alt *a);

/* The swappable alternative of race R (NULL: no race there) that swap SW
 * names, or NULL (refused); appends " SENDER:MSGID" of each swappable
 * alternative of R to VALID unless VALID is NULL. */
const struct pg_race_alt *pg_whatif_pick(const struct pg_race *r,
					 const struct pg_hb_swap *sw,
					 struct pg_strbuf *valid);

/* The cut of the swaps SW (N) of HB into CUT (hb->ntask entries, in
 * hb->ltids order): pg_hb_cut's, each swapped receive included (the
 * task replays up to it, gets the new message, then runs free).  0, or
 * -1 with ERR (pg_hb_cut's refusals). */
int pg_whatif_cut(const struct pg_hb *hb, const struct pg_hb_swap *sw, int n,
		  long *cut, char *err, size_t errlen);

/* The key of the prefix the what-if SW of HB replays (CUT its cut): an
 * FNV-1a hash of the events each task replays, the swapped receive with
 * its new message.  Two what-ifs with one key run alike up to their
 * cuts. */
uint64_t pg_whatif_key(const struct pg_hb *hb, const struct pg_hb_swap *sw,
		       const long *cut);

/* The swaps RACES offers, into *OUT (malloc'd; NULL when none): every
 * swappable alternative of every race, in the races' order; only at
 * events after the cut of a base run when CUT (per task CUT_LTID[k], how
 * many leading events were replayed, NCUT of them; a task not named: all
 * its events), only at the receive ONLY->ltid:ONLY->event if ONLY.
 * Their number, or -1 (out of memory). */
int pg_whatif_swaps(const struct pg_races *races, const int *cut_ltid,
		    const uint64_t *cut, int ncut, const struct pg_hb_swap *only,
		    struct pg_hb_swap **out);

#endif /* PANGAEA_WHATIF_H */
