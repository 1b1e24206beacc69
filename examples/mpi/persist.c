/*
 * persist.c: persistent requests with wildcard receives.  Each worker
 * sends ROUNDS+1 numbers to rank 0 through one persistent send
 * (MPI_Send_init, then MPI_Start and MPI_Wait each round).  Rank 0
 * receives the first ROUNDS*(size-1) through one persistent receive from
 * MPI_ANY_SOURCE (MPI_Start, then an MPI_Test poll loop), the last one
 * of each worker through size-1 persistent receives started together
 * (MPI_Startall) and completed with MPI_Waitsome; it prints the senders
 * in their order.  The order varies from run to run; a replay prints the
 * recording's.
 *   mpirun -np 4 build/examples/mpi/persist [ROUNDS]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int rank, size, rounds, v, flag, out, idx[64], got[64], sum = 0;
	MPI_Request rq, all[64];
	MPI_Status st, sts[64];
	char line[4096];
	size_t n = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	rounds = argc > 1 ? atoi(argv[1]) : 4;
	if (size > 64)
		MPI_Abort(MPI_COMM_WORLD, 1);
	if (rank) {
		MPI_Send_init(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &rq);
		for (int r = 0; r <= rounds; r++) {
			v = rank * 1000 + r;
			for (volatile int k = 0; k < (rank * 7919 + r * 104729) % 200000; k++)
				;
			MPI_Start(&rq);
			MPI_Wait(&rq, &st);
		}
		MPI_Request_free(&rq);
	} else {
		n += (size_t)snprintf(line + n, sizeof(line) - n, "start/test:");
		MPI_Recv_init(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD,
			      &rq);
		for (int j = 0; j < rounds * (size - 1); j++) {
			MPI_Start(&rq);
			flag = 0;
			while (!flag)
				MPI_Test(&rq, &flag, &st);
			sum += v;
			n += (size_t)snprintf(line + n, sizeof(line) - n, " %d",
					      st.MPI_SOURCE);
		}
		MPI_Request_free(&rq);
		for (int i = 0; i < size - 1; i++)
			MPI_Recv_init(&got[i], 1, MPI_INT, MPI_ANY_SOURCE, 7,
				      MPI_COMM_WORLD, &all[i]);
		MPI_Startall(size - 1, all);
		n += (size_t)snprintf(line + n, sizeof(line) - n, " startall:");
		for (int left = size - 1; left > 0; left -= out) {
			MPI_Waitsome(size - 1, all, &out, idx, sts);
			for (int j = 0; j < out; j++)
				n += (size_t)snprintf(line + n, sizeof(line) - n,
						      " %d<%d", idx[j],
						      sts[j].MPI_SOURCE);
		}
		for (int i = 0; i < size - 1; i++)
			MPI_Request_free(&all[i]);
		printf("result: sum=%d %s\n", sum, line);
	}
	MPI_Finalize();
	return 0;
}
