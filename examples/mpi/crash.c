/*
 * crash.c: rank 0 crashes (a null pointer written) only when the first
 * message its wildcard receive gets is from rank CRASHER (argument,
 * default the last rank): an order bug.  The workers finish in random
 * order, CRASHER a little sooner.  A recording of a crash replays into
 * the same crash, whatever the timing.
 *   mpirun -np 4 build/examples/mpi/crash [CRASHER]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, size, v, crasher;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	crasher = argc > 1 ? atoi(argv[1]) : size - 1;
	MPI_Barrier(MPI_COMM_WORLD); /* (the ranks start at varying times) */
	if (rank == 0) {
		for (int i = 1; i < size; i++) {
			MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0,
				 MPI_COMM_WORLD, &st);
			printf("got %d from rank %d\n", v, st.MPI_SOURCE);
			fflush(stdout);
			if (i == 1 && st.MPI_SOURCE == crasher) {
				volatile int *p = NULL;

				*p = v; /* the bug */
			}
		}
		printf("no crash\n");
	} else {
		srand((unsigned)getpid());
		usleep((useconds_t)(rand() % 5000 + (rank == crasher ? 0 : 30000)));
		v = rank * 10;
		MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
