/*
 * nbcoll.c: the non-blocking collectives.  Every rank starts an
 * MPI_Iallreduce of its rank + 1 and polls it with MPI_Test; then an
 * MPI_Ibarrier, which rank 0 completes with MPI_Waitany together with an
 * MPI_Irecv from MPI_ANY_SOURCE of a message rank 1 sends (which of the
 * two completes first varies from run to run); last an MPI_Ibcast from
 * rank 0, whose values an MPI_Reduce adds up.  Rank 0 prints the sum,
 * the order and what the broadcast gave; a replay prints the recording's
 * order.
 *   mpirun -np 3 build/examples/mpi/nbcoll
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, v, sum = 0, flag = 0, src = -1, b, idx, first;
	MPI_Request r[2];
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	v = rank + 1;
	MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
	while (!flag)
		MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
	MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
	if (rank == 0) {
		MPI_Irecv(&src, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD,
			  &r[1]);
		MPI_Waitany(2, r, &idx, &st);
		first = idx;
		MPI_Waitany(2, r, &idx, &st);
		printf("sum %d; first done: %s; from rank %d\n", sum,
		       first == 0 ? "barrier" : "receive", src);
	} else {
		if (rank == 1)
			MPI_Send(&rank, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	}
	b = rank == 0 ? 42 : 0;
	MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &r[0]);
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	MPI_Reduce(&b, &v, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("bcast gave %d to each of %d ranks\n", v / size, size);
	MPI_Finalize();
	return 0;
}
