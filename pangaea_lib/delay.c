/*
 * delay.c: random delay injection.  With -delay USEC, every wrapped call
 * first sleeps 0..USEC microseconds, to shake the order of messages
 * (docs/INTERNALS.md, "Random delay injection").  The delays come from
 * the run's seed, each task in its own sequence (seed and ltid), so a run
 * with the same PANGAEA_SEED gets the same delays again.
 */
#include "pangaea-internal.h"

#include <unistd.h>

static int max_us;    /* 0: no delays */
static unsigned seed; /* the run's */
static unsigned rng;  /* this task's generator */

void pg_delay_open(int us, unsigned run_seed, int ltid)
{
	max_us = us;
	seed = run_seed;
	rng = run_seed ^ ((unsigned)ltid * 2654435761u);
}

int pg_delay_max(void)
{
	return max_us;
}

unsigned pg_delay_seed(void)
{
	return seed;
}

unsigned pg_delay_draw(void)
{
	if (max_us <= 0)
		return 0;
	rng = rng * 1103515245u + 12345u;
	return (rng >> 8) % (unsigned)(max_us + 1);
}

void pg_delay(void)
{
	unsigned us;

	pg_live_tick();
	if ((us = pg_delay_draw()) > 0)
		usleep(us);
}
