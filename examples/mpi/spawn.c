/*
 * spawn.c: MPI_Comm_spawn.  The parent (one rank, or rank 0 of several)
 * starts NW workers (this program again, with the argument "worker"),
 * sends each a number through the intercommunicator and takes their
 * answers with MPI_ANY_SOURCE, then prints the order they came in: it
 * changes from run to run, a replay prints the recording's.  With
 * "crash", worker 1 dies of SIGSEGV in its second round.
 *   mpirun -np 1 build/examples/mpi/spawn [NW] [ROUNDS] [crash]
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAG_WORK 1
#define TAG_ANSWER 2

/* A worker: answers each of the parent's numbers with its square;
 * worker 1 crashes in round 1 if CRASH. */
static void worker(MPI_Comm parent, int rounds, int crash)
{
	int rank, v;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	srand((unsigned)getpid());
	for (int r = 0; r < rounds; r++) {
		MPI_Recv(&v, 1, MPI_INT, 0, TAG_WORK, parent, MPI_STATUS_IGNORE);
		usleep((useconds_t)(rand() % 3000));
		v = v * v + rank;
		if (crash && rank == 1 && r == 1)
			raise(SIGSEGV);
		MPI_Send(&v, 1, MPI_INT, 0, TAG_ANSWER, parent);
	}
}

int main(int argc, char **argv)
{
	MPI_Comm parent, inter;
	int rank, nw, rounds, v;
	long sum = 0;
	char order[4096] = "", *args[] = { "worker", NULL, NULL, NULL };
	char rs[16];
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_get_parent(&parent);
	if (parent != MPI_COMM_NULL) {
		worker(parent, argc > 2 ? atoi(argv[2]) : 3,
		       argc > 3 && strcmp(argv[3], "crash") == 0);
		MPI_Comm_disconnect(&parent);
		MPI_Finalize();
		return 0;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	nw = argc > 1 ? atoi(argv[1]) : 2;
	rounds = argc > 2 ? atoi(argv[2]) : 3;
	snprintf(rs, sizeof(rs), "%d", rounds);
	args[1] = rs;
	args[2] = argc > 3 ? argv[3] : NULL;
	MPI_Comm_spawn(argv[0], args, nw, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
		       &inter, MPI_ERRCODES_IGNORE);
	if (rank == 0) {
		for (int r = 0; r < rounds; r++) {
			for (int w = 0; w < nw; w++)
				MPI_Send(&r, 1, MPI_INT, w, TAG_WORK, inter);
			strcat(order, " ");
			for (int w = 0; w < nw; w++) {
				MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE,
					 TAG_ANSWER, inter, &st);
				sum = sum * 7 + v;
				sprintf(order + strlen(order), "%d",
					st.MPI_SOURCE);
			}
		}
		printf("spawn: %d workers, order%s sum %ld\n", nw, order, sum);
	}
	MPI_Comm_disconnect(&inter);
	MPI_Finalize();
	return 0;
}
