/*
 * seeded: a PVM program built with pangaea.h whose tasks seed their
 * random numbers from the clock before they call PVM
 * (srand(time(NULL) ^ getpid())), and read every clock and seed call
 * Pangaea replays: each worker sends its draws and readings to the
 * master, which prints them.  First a second thread of each worker
 * reads gettimeofday while the first reads clock_gettime, in an order
 * no replay repeats: its reads are not the task's (only the thread that
 * joined is recorded), so they must neither break the replay nor the
 * log.  tests/scenario/clock.sh records it and
 * replays it to the same lines.
 *
 *   seeded [WORKERS]        the master (3 workers)
 *   seeded -worker          a worker (spawned)
 */
#include <pangaea.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_DRAWS 1
#define NV 12

static volatile int reading = 1;

/* A second thread: reads gettimeofday until the main thread is done. */
static void *reader(void *arg)
{
	struct timeval tv;
	long sum = 0;

	while (reading) {
		gettimeofday(&tv, NULL);
		sum += tv.tv_usec & 1;
	}
	*(long *)arg = sum;
	return NULL;
}

/* A worker: seeds from the clock, draws, reads the clocks (a second
 * thread reading beside), sends all to its parent; 0. */
static int worker(int argc, char **argv)
{
	pthread_t th;
	long sum;
	long v[NV];
	struct timespec ts;
	struct rusage ru;
	struct tms tm;
	unsigned char b[4] = { 0 };
	unsigned short s48[3] = { 1, 2, 3 };

	srand((unsigned)(time(NULL) ^ getpid())); /* before pangaea_init */
	pangaea_init(&argc, &argv);
	if (pthread_create(&th, NULL, reader, &sum) != 0)
		return 1;
	for (int i = 0; i < 5000; i++) /* beside the reader's reads */
		clock_gettime(CLOCK_MONOTONIC, &ts);
	reading = 0;
	pthread_join(th, NULL);
	v[0] = rand();
	v[1] = rand();
	srandom((unsigned)getpid());
	v[2] = random();
	srand48(getpid());
	v[3] = lrand48();
	s48[0] = (unsigned short)getpid();
	seed48(s48);
	v[4] = lrand48();
	getrandom(b, sizeof(b), 0);
	v[5] = (long)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
	clock_gettime(CLOCK_MONOTONIC, &ts);
	v[6] = ts.tv_nsec;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	v[7] = ts.tv_nsec;
	getrusage(RUSAGE_SELF, &ru);
	v[8] = ru.ru_utime.tv_usec + ru.ru_minflt;
	v[9] = (long)times(&tm) + tm.tms_utime;
	v[10] = (long)clock();
	getentropy(b, sizeof(b));
	v[11] = (long)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
	pvm_initsend(PvmDataDefault);
	pvm_pklong(v, NV, 1);
	pvm_send(pvm_parent(), TAG_DRAWS);
	pangaea_exit();
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int nw = argc > 1 ? atoi(argv[1]) : 3, tids[16];
	char *wargv[] = { "-worker", NULL };

	if (argc > 1 && strcmp(argv[1], "-worker") == 0)
		return worker(argc, argv);
	pangaea_init(&argc, &argv);
	if (nw < 1 || nw > 16 ||
	    pvm_spawn(argv[0], wargv, PvmTaskDefault, "", nw, tids) != nw) {
		fprintf(stderr, "seeded: bad count or spawn failed\n");
		pangaea_exit();
		pvm_exit();
		return 1;
	}
	for (int i = 0; i < nw; i++) {
		long v[NV];

		pvm_recv(tids[i], TAG_DRAWS);
		pvm_upklong(v, NV, 1);
		printf("worker %d:", i);
		for (int k = 0; k < NV; k++)
			printf(" %ld", v[k]);
		printf("\n");
	}
	pangaea_exit();
	pvm_exit();
	return 0;
}
