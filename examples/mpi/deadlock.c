/*
 * deadlock.c: a deadlock on one order.  Rank 0 takes the first of the
 * workers' messages with MPI_ANY_SOURCE and then wants a second message
 * from that same worker, which each worker sends only if it was not the
 * first (it learns from rank 0's answer); the others then wait in
 * MPI_Barrier.  Every rank ends blocked: pangaea names each one's call.
 *   mpirun -np 3 build/examples/mpi/deadlock
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, v = 0, first;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
		first = st.MPI_SOURCE;
		printf("first: rank %d\n", first);
		fflush(stdout);
		for (int w = 1; w < size; w++)
			MPI_Send(&first, 1, MPI_INT, w, 2, MPI_COMM_WORLD);
		/* the bug: the first worker is the one that sends no more */
		MPI_Recv(&v, 1, MPI_INT, first, 3, MPI_COMM_WORLD, &st);
	} else {
		MPI_Send(&rank, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
		MPI_Recv(&first, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &st);
		if (first != rank)
			MPI_Send(&rank, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
