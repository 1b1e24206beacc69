/*
 * outprint.c: a scenario-test program for the output log (output.log).
 *
 *   outprint FILE   spawns a worker; the worker prints the first line of
 *                   FILE (read at run time: a replay prints what FILE
 *                   holds then) between two fixed lines and answers the
 *                   master, which prints a line before and after, then
 *                   the worker's PVM task id as PVM writes tids ("t40004")
 *   outprint FILE N the same, but the worker prints N numbered lines
 *                   "outprint: line I of N: " and FILE's line (a lot of
 *                   output: the full-disk test)
 */
#include <pangaea.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The worker: prints, then answers its parent (tag 2). */
static void worker(const char *file, int n)
{
	char line[256] = "(unreadable)";
	FILE *f = fopen(file, "r");

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	line[strcspn(line, "\n")] = '\0';
	printf("outprint: worker starts\n");
	if (n <= 0)
		printf("outprint: file says %s\n", line);
	for (int i = 1; i <= n; i++)
		printf("outprint: line %d of %d: %s\n", i, n, line);
	printf("outprint: worker ends\n");
	fflush(stdout);
	pvm_initsend(PvmDataDefault);
	pvm_send(pvm_parent(), 2);
}

int main(int argc, char **argv)
{
	int w;

	pangaea_init(&argc, &argv);
	if ((argc == 3 || argc == 4) && strcmp(argv[1], "-worker") == 0) {
		worker(argv[2], argc == 4 ? atoi(argv[3]) : 0);
	} else if (argc == 2 || argc == 3) {
		char *wargv[] = { "-worker", argv[1], argc == 3 ? argv[2] : NULL,
				  NULL };

		printf("outprint: master starts\n");
		fflush(stdout);
		if (pvm_spawn(argv[0], wargv, 0, NULL, 1, &w) != 1) {
			printf("outprint: cannot spawn the worker\n");
			pangaea_exit();
			return 1;
		}
		pvm_recv(w, 2);
		printf("outprint: master got the answer\n");
		printf("outprint: the worker was t%x\n", w);
	} else {
		fprintf(stderr, "usage: outprint FILE [N]\n");
	}
	pangaea_exit();
	return 0;
}
