/*
 * mprobe.c: matched probes.  Rank 0 takes 2 messages from each worker
 * in their order of arrival: an MPI_Improbe poll loop with
 * MPI_ANY_SOURCE finds one, which it receives with MPI_Imrecv and
 * MPI_Wait (odd turns) or with MPI_Mrecv after a blocking MPI_Mprobe
 * (even turns).  It prints the senders in order; a replay prints the
 * recording's.
 *   mpirun -np 4 build/examples/mpi/mprobe
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, v, flag;
	MPI_Message m;
	MPI_Request r;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		printf("order:");
		for (int k = 0; k < 2 * (size - 1); k++) {
			if (k % 2 == 0) {
				do
					MPI_Improbe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD,
						    &flag, &m, &st);
				while (!flag);
				MPI_Imrecv(&v, 1, MPI_INT, &m, &r);
				MPI_Wait(&r, &st);
			} else {
				MPI_Mprobe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &m,
					   &st);
				MPI_Mrecv(&v, 1, MPI_INT, &m, &st);
			}
			printf(" %d", v);
		}
		printf("\n");
	} else {
		for (int k = 0; k < 2; k++)
			MPI_Send(&rank, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
