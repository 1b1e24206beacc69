/*
 * timed.c: each rank works in slices until MPI_Wtime says BUDGET ms have
 * passed, so how many slices it does is the clock's to decide; rank 0
 * receives every worker's count and elapsed time with MPI_ANY_SOURCE, in
 * their order of arrival, and prints them with its own and a libc clock
 * read (gettimeofday).  A replay that did not replay the clock reads
 * would print other counts and times.
 * SLICE (default 2000) is the iterations of arithmetic of a slice (the
 * fault soak, scripts/soak.sh, runs long slices: fewer reads).
 *   mpirun -np 4 build/examples/mpi/timed [BUDGET_MS [SLICE]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

/* One slice of work: N iterations of arithmetic (2000: a few
 * microseconds). */
static unsigned slice(unsigned x, long n)
{
	for (long i = 0; i < n; i++)
		x = x * 1103515245u + 12345u;
	return x;
}

int main(int argc, char **argv)
{
	double budget, t0, el, in[2];
	long iters;
	int rank, size, n = 0;
	unsigned x = 1;
	struct timeval tv;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	budget = (argc > 1 ? atof(argv[1]) : 20) / 1000;
	iters = argc > 2 ? atol(argv[2]) : 2000;
	t0 = MPI_Wtime();
	while ((el = MPI_Wtime() - t0) < budget) {
		x = slice(x, iters);
		n++;
	}
	if (rank) {
		double out[2] = { n, el };

		MPI_Send(out, 2, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
	} else {
		MPI_Status st;

		gettimeofday(&tv, NULL);
		printf("rank 0: %d slices in %.9f s (x=%u, tv_usec=%ld)\n", n,
		       el, x, (long)tv.tv_usec);
		for (int i = 1; i < size; i++) {
			MPI_Recv(in, 2, MPI_DOUBLE, MPI_ANY_SOURCE, 1,
				 MPI_COMM_WORLD, &st);
			printf("rank %d: %.0f slices in %.9f s\n",
			       st.MPI_SOURCE, in[0], in[1]);
		}
		printf("total: %.9f s\n", MPI_Wtime() - t0);
	}
	MPI_Finalize();
	return 0;
}
