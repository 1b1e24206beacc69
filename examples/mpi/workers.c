/*
 * workers.c: an MPI master/worker program whose result depends on the
 * order messages arrive in: rank 0 takes the workers' answers with
 * MPI_ANY_SOURCE, polls with MPI_Iprobe, waits with MPI_Waitany on
 * wildcard Irecvs and tests with MPI_Testsome, and prints the orders it
 * saw and how many polls and tests found nothing.  Run it a few times:
 * the orders change; a replay prints the recording's.
 *   mpirun -np 4 build/examples/mpi/workers [ROUNDS]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* one tag per phase, and the master's go between the first two */
#define TAG_WORK 1
#define TAG_PROBE 2
#define TAG_ANY 3
#define TAG_SOME 4
#define TAG_GO 9

/* A little random work, so that the workers finish in varying order. */
static void work(void)
{
	usleep((useconds_t)(rand() % 3000));
}

static void master(int size, int rounds)
{
	char order[4096] = "";
	long fails = 0, tests = 0, sum = 0;
	int v, flag, n = size - 1;
	MPI_Status st;
	MPI_Request *rq = calloc((size_t)n, sizeof(*rq));
	int *vals = calloc((size_t)n, sizeof(int)), *idx = calloc((size_t)n, sizeof(int));

	for (int r = 0; r < rounds; r++) {
		/* 1: wildcard receives */
		for (int w = 1; w < size; w++)
			MPI_Send(&r, 1, MPI_INT, w, TAG_WORK, MPI_COMM_WORLD);
		strcat(order, " recv:");
		for (int i = 0; i < n; i++) {
			MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
				 MPI_COMM_WORLD, &st);
			sum = sum * 7 + v;
			sprintf(order + strlen(order), "%d", st.MPI_SOURCE);
		}
		for (int w = 1; w < size; w++)
			MPI_Send(&r, 1, MPI_INT, w, TAG_GO, MPI_COMM_WORLD);
		/* 2: an iprobe poll loop */
		strcat(order, " probe:");
		for (int i = 0; i < n; i++) {
			do {
				MPI_Iprobe(MPI_ANY_SOURCE, TAG_PROBE,
					   MPI_COMM_WORLD, &flag, &st);
				fails += !flag;
			} while (!flag);
			MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, TAG_PROBE,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			sprintf(order + strlen(order), "%d", st.MPI_SOURCE);
		}
		/* 3: Waitany over wildcard Irecvs */
		for (int i = 0; i < n; i++)
			MPI_Irecv(&vals[i], 1, MPI_INT, MPI_ANY_SOURCE, TAG_ANY,
				  MPI_COMM_WORLD, &rq[i]);
		strcat(order, " waitany:");
		for (int i = 0; i < n; i++) {
			int k;

			MPI_Waitany(n, rq, &k, &st);
			sprintf(order + strlen(order), "%d", st.MPI_SOURCE);
		}
		/* 4: Testsome over wildcard Irecvs */
		for (int i = 0; i < n; i++)
			MPI_Irecv(&vals[i], 1, MPI_INT, MPI_ANY_SOURCE,
				  MPI_ANY_TAG,
				  MPI_COMM_WORLD, &rq[i]);
		strcat(order, " testsome:");
		for (int got = 0; got < n;) {
			int out;
			MPI_Status sts[64];

			MPI_Testsome(n, rq, &out, idx, sts);
			tests++;
			for (int j = 0; j < out; j++)
				sprintf(order + strlen(order), "%d",
					sts[j].MPI_SOURCE);
			if (out > 0) {
				got += out;
				strcat(order, ",");
			}
		}
	}
	printf("result: sum=%ld%s\nfailed iprobes %ld, testsome calls %ld\n",
	       sum, order, fails, tests);
	free(rq);
	free(vals);
	free(idx);
}

static void worker(int rank, int rounds)
{
	int r, v;

	for (int i = 0; i < rounds; i++) {
		MPI_Recv(&r, 1, MPI_INT, 0, TAG_WORK, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		work();
		v = rank * 100 + r;
		MPI_Send(&v, 1, MPI_INT, 0, TAG_WORK, MPI_COMM_WORLD);
		MPI_Recv(&r, 1, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		work();
		MPI_Send(&v, 1, MPI_INT, 0, TAG_PROBE, MPI_COMM_WORLD);
		work();
		MPI_Send(&v, 1, MPI_INT, 0, TAG_ANY, MPI_COMM_WORLD);
		work();
		MPI_Send(&v, 1, MPI_INT, 0, TAG_SOME, MPI_COMM_WORLD);
	}
}

int main(int argc, char **argv)
{
	int rank, size, rounds = argc > 1 ? atoi(argv[1]) : 3;

	if (rounds < 1 || rounds > 30) /* (the orders printed fit in 4 KB) */
		rounds = 30;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	srand((unsigned)getpid());
	if (rank == 0)
		master(size, rounds);
	else
		worker(rank, rounds);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
