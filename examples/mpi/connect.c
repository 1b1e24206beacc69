/*
 * connect.c: an intercommunicator of MPI_Comm_connect and
 * MPI_Comm_accept within one job.  The world is split in two halves;
 * rank 0 of the first opens a port (MPI_Open_port) and sends its name
 * to the second half's first rank, and the halves meet through it (the
 * first accepts, the second connects).  Every rank of the second half
 * then sends its world rank three times to rank 0 of the first half over
 * the intercommunicator, which takes them with MPI_ANY_SOURCE in their
 * order of arrival, prints the senders (as remote ranks) and sends each
 * the sum back.  The order varies from run to run; a replay prints the
 * recording's.
 *   mpirun -np 4 build/examples/mpi/connect
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char port[MPI_MAX_PORT_NAME] = "";
	int rank, size, v, lrank, rsize, second, sum = 0;
	MPI_Comm half, inter;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	second = rank >= size / 2;
	MPI_Comm_split(MPI_COMM_WORLD, second, rank, &half);
	MPI_Comm_rank(half, &lrank);
	if (rank == 0) {
		MPI_Open_port(MPI_INFO_NULL, port);
		MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, size / 2, 1,
			 MPI_COMM_WORLD);
	} else if (rank == size / 2) {
		MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 1,
			 MPI_COMM_WORLD, &st);
	}
	if (second)
		MPI_Comm_connect(port, MPI_INFO_NULL, 0, half, &inter);
	else
		MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, &inter);
	MPI_Comm_remote_size(inter, &rsize);
	if (second) {
		for (int k = 0; k < 3; k++) {
			usleep((useconds_t)(100 * ((rank + k) % 3)));
			MPI_Send(&rank, 1, MPI_INT, 0, 5, inter);
		}
		MPI_Recv(&sum, 1, MPI_INT, 0, 6, inter, &st);
	} else if (lrank == 0) {
		printf("from remote ranks:");
		for (int k = 0; k < 3 * rsize; k++) {
			MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 5, inter, &st);
			printf(" %d", st.MPI_SOURCE);
			sum = sum * 3 + v;
		}
		printf("; sum %d\n", sum);
		for (int r = 0; r < rsize; r++)
			MPI_Send(&sum, 1, MPI_INT, r, 6, inter);
	}
	MPI_Comm_disconnect(&inter);
	if (rank == 0)
		MPI_Close_port(port);
	MPI_Comm_free(&half);
	MPI_Finalize();
	return 0;
}
