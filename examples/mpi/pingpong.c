/*
 * pingpong.c: two ranks bounce a small message N times; rank 0 prints
 * the time of the round trips (after a barrier and 100 warm-up ones).
 * MODE says how rank 0 receives: recv (MPI_Recv from rank 1), any
 * (MPI_ANY_SOURCE), iprobe (an MPI_Iprobe poll loop, then MPI_Recv) or
 * testsome (MPI_Irecv, then an MPI_Testsome loop).  bench/mpi.sh times
 * it plain, recorded and replayed.
 *   mpirun -np 2 build/examples/mpi/pingpong [N [MODE]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	char buf[64] = "ping";
	double t0 = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Barrier(MPI_COMM_WORLD);
	for (int i = -100; i < n; i++) {
		if (i == 0)
			t0 = MPI_Wtime();
		if (rank == 0) {
			MPI_Send(buf, 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
			take(mode, buf, sizeof(buf));
		} else {
			MPI_Recv(buf, sizeof(buf), MPI_CHAR, 0, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Send(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
		}
	}
	if (rank == 0)
		printf("pingpong %s: %d round trips, wall_ns=%.0f\n", mode, n,
		       (MPI_Wtime() - t0) * 1e9);
	MPI_Finalize();
	return 0;
}
