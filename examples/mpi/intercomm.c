/*
 * intercomm.c: an intercommunicator between the even and the odd world
 * ranks (MPI_Comm_split, then MPI_Intercomm_create).  Every odd rank
 * sends its world rank twice to rank 0 of the even group over the
 * intercommunicator; that rank takes them with MPI_ANY_SOURCE in their
 * order of arrival and prints the senders (as remote ranks).  The order
 * varies from run to run; a replay prints the recording's.
 *   mpirun -np 4 build/examples/mpi/intercomm
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, v, lrank, rsize;
	MPI_Comm half, inter;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
	MPI_Comm_rank(half, &lrank);
	/* the leaders: world ranks 0 (evens) and 1 (odds) */
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 99,
			     &inter);
	MPI_Comm_remote_size(inter, &rsize);
	if (rank % 2) {
		for (int k = 0; k < 2; k++)
			MPI_Send(&rank, 1, MPI_INT, 0, 5, inter);
	} else if (lrank == 0) {
		printf("from remote ranks:");
		for (int k = 0; k < 2 * rsize; k++) {
			MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 5, inter, &st);
			printf(" %d", st.MPI_SOURCE);
		}
		printf("\n");
	}
	MPI_Comm_free(&inter);
	MPI_Comm_free(&half);
	MPI_Finalize();
	return 0;
}
