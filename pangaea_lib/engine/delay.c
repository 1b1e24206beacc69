/*
 * delay.c: random delay injection.  With -delay USEC, every wrapped call
 * first sleeps 0..USEC microseconds, to shake the order of messages
 * (docs/INTERNALS.md, "Random delay injection").  The delays come from
 * the run's seed, each task in its own sequence (seed and ltid), so a run
 * with the same PANGAEA_SEED gets the same delays again.
 */
#include "engine.h"

#include <unistd.h>

int pg_delay_us;      /* 0: no delays */
static unsigned seed; /* the run's */
static unsigned rng;  /* this task's generator */

void pg_delay_open(int us, unsigned run_seed, int ltid)
{
	pg_delay_us = us;
	seed = run_seed;
	rng = run_seed ^ ((unsigned)ltid * 2654435761u);
}

int pg_delay_max(void)
{
	return pg_delay_us;
}

unsigned pg_delay_seed(void)
{
	return seed;
}

unsigned pg_draw(unsigned *state, unsigned max)
{
	*state = *state * 1103515245u + 12345u;
	return (*state >> 8) % (max + 1);
}

unsigned pg_delay_draw(void)
{
	return pg_delay_us > 0 ? pg_draw(&rng, (unsigned)pg_delay_us) : 0;
}

void pg_delay_wait(void)
{
	unsigned us;

	pg_live_tick();
	if ((us = pg_delay_draw()) > 0)
		usleep(us);
}
