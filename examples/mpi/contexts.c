/*
 * contexts.c: one tag in five communicators.  Every worker sends rank
 * 0 one message with tag 7 in MPI_COMM_WORLD (1 int), then one in a
 * duplicate of it (2 ints), one in a split of it (3 ints; all ranks
 * get one color), one in a duplicate made by MPI_Comm_idup (4 ints) and
 * one in a communicator of MPI_Comm_create_group over the world's group
 * (5 ints); rank 0 takes them from MPI_ANY_SOURCE the other way round:
 * the create_group's first, ..., the world's last, and prints their
 * senders and sizes.  MPI keeps messages in order per
 * communicator only: the logs must match each receive with the send of
 * its own communicator (pangaea-trace's messages: every send's length
 * equals its receive's).
 *   mpirun -np 4 build/examples/mpi/contexts
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	static const char *const names[5] = { "world", "dup", "split", "idup",
					      "group" };
	int rank, size, buf[5] = { 0 }, n;
	MPI_Comm comms[5], dup, split, idup, group;
	MPI_Group world;
	MPI_Request req;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &split);
	MPI_Comm_idup(MPI_COMM_WORLD, &idup, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Comm_create_group(MPI_COMM_WORLD, world, 3, &group);
	MPI_Group_free(&world);
	comms[0] = MPI_COMM_WORLD;
	comms[1] = dup;
	comms[2] = split;
	comms[3] = idup;
	comms[4] = group;
	if (rank == 0) {
		for (int c = 4; c >= 0; c--) {
			printf("%s:", names[c]);
			for (int k = 1; k < size; k++) {
				MPI_Recv(buf, 5, MPI_INT, MPI_ANY_SOURCE, 7,
					 comms[c], &st);
				MPI_Get_count(&st, MPI_INT, &n);
				printf(" %d(%d)", st.MPI_SOURCE, n);
			}
			printf("\n");
		}
	} else {
		for (int c = 0; c < 5; c++)
			MPI_Send(buf, c + 1, MPI_INT, 0, 7, comms[c]);
	}
	MPI_Comm_free(&group);
	MPI_Comm_free(&idup);
	MPI_Comm_free(&split);
	MPI_Comm_free(&dup);
	MPI_Finalize();
	return 0;
}
