/*
 * clc.c: speed of the controlled logical clock's pass
 * (logs/analysis/logical-clock.c) on a synthetic trace: TASKS tasks of
 * EVENTS events each (an entry and an exit point per event), their
 * clocks off by up to +-1 ms, every 4th event a send to the next task
 * (received 5 us later in true time), a barrier of all tasks every 1000
 * events.  Prints events per second
 * of clc_run (target >= 5 M/s on one core: docs/BENCHMARKS.md).
 *
 * Usage: build/bench/clc [TASKS [EVENTS]]   (defaults 16 250000)
 */
#include "logical-clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Seconds of CLOCK_MONOTONIC. */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t ntask = argc > 1 ? strtoul(argv[1], NULL, 10) : 16,
	       nev = argc > 2 ? strtoul(argv[2], NULL, 10) : 250000,
	       nbar = nev / 1000, np = ntask * nev * 2, n = np + nbar, ne = 0;
	int64_t *t = malloc(n * sizeof(*t)), *off = malloc(ntask * 8);
	uint8_t *start = calloc(n, 1);
	struct clc_edge *e = malloc((ntask * nev / 2 + 2 * ntask * nbar + 1) *
				    sizeof(*e));
	struct clc_graph g;
	struct clc_stats st;
	double t0;

	if (!t || !off || !start || !e || ntask < 2 || nev < 8)
		return 1;
	srand(42);
	for (size_t k = 0; k < ntask; k++)
		off[k] = rand() % 2000001 - 1000000;
	/* true time of event j of any task: 10 us * j (+ 2 us to its exit) */
	for (size_t k = 0; k < ntask; k++)
		for (size_t j = 0; j < nev; j++) {
			size_t p = (k * nev + j) * 2;

			start[p] = j == 0;
			t[p] = (int64_t)j * 10000 + off[k];
			t[p + 1] = t[p] + 2000;
		}
	for (size_t k = 0; k < ntask; k++)
		for (size_t j = 0; j + 1 < nev; j += 4) {
			size_t to = (k + 1) % ntask;   /* exit of event j + 1 */

			e[ne++] = (struct clc_edge){
				(uint32_t)((k * nev + j) * 2),
				(uint32_t)((to * nev + j + 1) * 2 + 1), 1000 };
		}
	for (size_t b = 0; b < nbar; b++) {
		size_t j = b * 1000 + 998, v = np + b;  /* a barrier event */

		start[v] = 1;
		t[v] = CLC_NONE;
		for (size_t k = 0; k < ntask; k++) {
			e[ne++] = (struct clc_edge){
				(uint32_t)((k * nev + j) * 2), (uint32_t)v, 1000 };
			e[ne++] = (struct clc_edge){ (uint32_t)v,
				(uint32_t)((k * nev + j) * 2 + 1), 0 };
		}
	}
	g = (struct clc_graph){ n, t, start, ne, e };
	t0 = now_s();
	if (clc_run(&g, NULL, &st) < 0)
		return 1;
	t0 = now_s() - t0;
	printf("clc: %zu events (%zu tasks), %zu edges: %.3f s = %.2f M events/s"
	       " (target >= 5); violations %zu -> %zu, %zu jumps, largest "
	       "correction %.1f us\n", ntask * nev, ntask, ne, t0,
	       (double)(ntask * nev) / t0 / 1e6, st.violations_before,
	       st.violations_after, st.njumps, (double)st.max_corr / 1e3);
	free(t);
	free(off);
	free(start);
	free(e);
	return st.violations_after != 0;
}
