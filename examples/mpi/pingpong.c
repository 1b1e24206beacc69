/*
 * pingpong.c: two ranks bounce a message of BYTES (8) N times; rank 0
 * prints the time of the round trips (after a barrier and 100 warm-up
 * ones).
 * MODE says how rank 0 receives: recv (MPI_Recv from rank 1), any
 * (MPI_ANY_SOURCE), iprobe (an MPI_Iprobe poll loop, then MPI_Recv) or
 * testsome (MPI_Irecv, then an MPI_Testsome loop).  bench/mpi.sh times
 * it plain, recorded and replayed.  On x86-64 it also prints the time
 * stamp counter's cycles over the round trips: a replay gives MPI_Wtime
 * its recorded values back (the clock replay), so a replay's own time
 * is in the cycles only.
 *   mpirun -np 2 build/examples/mpi/pingpong [N [MODE [BYTES]]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* The time stamp counter (no clock call: not recorded, not replayed). */
static unsigned long long cycles(void)
{
#if defined(__x86_64__)
	return __rdtsc();
#else
	return 0;
#endif
}

/* Rank 0's receive of one message from rank 1 by MODE. */
static void take(const char *mode, char *buf, int len)
{
	MPI_Status st;
	MPI_Request rq;
	int flag = 0, out = 0, idx;

	if (strcmp(mode, "iprobe") == 0) {
		while (!flag)
			MPI_Iprobe(1, 0, MPI_COMM_WORLD, &flag, &st);
		MPI_Recv(buf, len, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &st);
	} else if (strcmp(mode, "testsome") == 0) {
		MPI_Irecv(buf, len, MPI_CHAR, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
			  &rq);
		while (out == 0)
			MPI_Testsome(1, &rq, &out, &idx, &st);
	} else {
		MPI_Recv(buf, len, MPI_CHAR,
			 strcmp(mode, "any") == 0 ? MPI_ANY_SOURCE : 1, 0,
			 MPI_COMM_WORLD, &st);
	}
}

int main(int argc, char **argv)
{
	int rank, n = argc > 1 ? atoi(argv[1]) : 10000;
	const char *mode = argc > 2 ? argv[2] : "recv";
	int len = argc > 3 ? atoi(argv[3]) : 8;
	char *buf;
	double t0 = 0;
	unsigned long long c0 = 0;

	if (len < 1 || !(buf = calloc((size_t)len, 1)))
		return 2;
	memcpy(buf, "ping", len < 5 ? (size_t)len : 5);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Barrier(MPI_COMM_WORLD);
	for (int i = -100; i < n; i++) {
		if (i == 0) {
			t0 = MPI_Wtime();
			c0 = cycles();
		}
		if (rank == 0) {
			MPI_Send(buf, len, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
			take(mode, buf, len);
		} else {
			MPI_Recv(buf, len, MPI_CHAR, 0, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Send(buf, len, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
		}
	}
	if (rank == 0) {
		unsigned long long c = cycles() - c0;

		printf("pingpong %s: %d round trips, wall_ns=%.0f", mode, n,
		       (MPI_Wtime() - t0) * 1e9);
		printf(c0 ? " cycles=%llu\n" : "\n", c);
	}
	MPI_Finalize();
	free(buf);
	return 0;
}
