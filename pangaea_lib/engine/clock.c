/*
 * clock.c: the time base of a task.  Events carry CLOCK_MONOTONIC times
 * relative to the task's start; the wall time read with it gives them a
 * place on the run's common time line (docs/FORMATS.md, "Times").
 */
#include "engine.h"

#include <time.h>

static uint64_t start_mono, start_wall;

/* CLOCK_ID now, in ns. */
static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void pg_clock_start(void)
{
	start_wall = clock_ns(CLOCK_REALTIME);
	start_mono = clock_ns(CLOCK_MONOTONIC);
}

uint64_t pg_now(void)
{
	return clock_ns(CLOCK_MONOTONIC) - start_mono;
}

uint64_t pg_clock_start_mono(void)
{
	return start_mono;
}

uint64_t pg_clock_start_wall(void)
{
	return start_wall;
}
