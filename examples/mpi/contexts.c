/*
 * contexts.c: one tag in three communicators.  Every worker sends rank
 * 0 one message with tag 7 in MPI_COMM_WORLD (1 int), then one in a
 * duplicate of it (2 ints), then one in a split of it (3 ints; all ranks
 * get one color); rank 0 takes them from MPI_ANY_SOURCE the other way
 * round: the split's first, then the duplicate's, then the world's, and
 * prints their senders and sizes.  MPI keeps messages in order per
 * communicator only: the logs must match each receive with the send of
 * its own communicator (pangaea-trace's messages: every send's length
 * equals its receive's).
 *   mpirun -np 4 build/examples/mpi/contexts
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, buf[3] = { 0, 0, 0 }, n;
	MPI_Comm comms[3], dup, split;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &split);
	comms[0] = MPI_COMM_WORLD;
	comms[1] = dup;
	comms[2] = split;
	if (rank == 0) {
		for (int c = 2; c >= 0; c--) {
			printf("%s:", c == 2 ? "split" : c == 1 ? "dup" : "world");
			for (int k = 1; k < size; k++) {
				MPI_Recv(buf, 3, MPI_INT, MPI_ANY_SOURCE, 7,
					 comms[c], &st);
				MPI_Get_count(&st, MPI_INT, &n);
				printf(" %d(%d)", st.MPI_SOURCE, n);
			}
			printf("\n");
		}
	} else {
		for (int c = 0; c < 3; c++)
			MPI_Send(buf, c + 1, MPI_INT, 0, 7, comms[c]);
	}
	MPI_Comm_free(&split);
	MPI_Comm_free(&dup);
	MPI_Finalize();
	return 0;
}
