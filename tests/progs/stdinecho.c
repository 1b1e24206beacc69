/*
 * stdinecho.c: a scenario-test program for standard input and output.
 *
 *   stdinecho          reads lines from stdin (after a "> " prompt with no
 *                      newline, as PVM's gexample does), has a worker it
 *                      spawned turn each into upper case, prints
 *                      "line N: TEXT" and at the end of input
 *                      "eof after N lines"
 *   stdinecho -noline K [S]  prints K bytes without a newline, waits S
 *                          seconds (default 0), then prints the newline
 *   stdinecho -partial S   prints a dot every 50 ms for S seconds, with
 *                          no newline
 *   stdinecho -one         reads one line, prints it, ends (without
 *                          reading its input to the end)
 */
#define _DEFAULT_SOURCE /* usleep */

#include <pangaea.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The worker: answers each line (tag 1) in upper case, until "". */
static void worker(void)
{
	char text[4096];

	for (;;) {
		if (pvm_recv(pvm_parent(), 1) < 0 || pvm_upkstr(text) < 0)
			break;
		if (!text[0])
			break;
		for (char *p = text; *p; p++)
			*p = (char)toupper((unsigned char)*p);
		pvm_initsend(PvmDataDefault);
		pvm_pkstr(text);
		pvm_send(pvm_parent(), 2);
	}
}

/* Sends TEXT to the worker W with tag 1. */
static void tell(int w, char *text)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkstr(text);
	pvm_send(w, 1);
}

int main(int argc, char **argv)
{
	char line[4096], empty[] = "";
	int n = 0, w;

	pangaea_init(&argc, &argv);
	if (argc >= 3 && strcmp(argv[1], "-noline") == 0) {
		for (long k = atol(argv[2]); k > 0; k--)
			putchar('x');
		fflush(stdout);
		sleep(argc > 3 ? (unsigned)atoi(argv[3]) : 0);
		printf("\nstdinecho: printed %s bytes\n", argv[2]);
	} else if (argc == 3 && strcmp(argv[1], "-partial") == 0) {
		setvbuf(stdout, NULL, _IONBF, 0);
		for (long k = atol(argv[2]) * 20; k > 0; k--) {
			putchar('.');
			usleep(50000);
		}
		printf("\nstdinecho: partial lines done\n");
	} else if (argc == 2 && strcmp(argv[1], "-one") == 0) {
		if (fgets(line, sizeof(line), stdin))
			printf("one line: %s", line);
		else
			printf("no line\n");
	} else if (pvm_parent() > 0 && argc == 2 && strcmp(argv[1], "-worker") == 0) {
		worker();
	} else {
		char *wargv[] = { "-worker", NULL };

		if (pvm_spawn(argv[0], wargv, 0, NULL, 1, &w) != 1) {
			printf("stdinecho: cannot spawn the worker\n");
			pangaea_exit();
			return 1;
		}
		for (;;) {
			printf("> ");
			fflush(stdout);
			if (!fgets(line, sizeof(line), stdin))
				break;
			line[strcspn(line, "\n")] = '\0';
			if (!line[0])
				continue;
			tell(w, line);
			if (pvm_recv(w, 2) < 0 || pvm_upkstr(line) < 0)
				break;
			printf("line %d: %s\n", ++n, line);
		}
		tell(w, empty);
		printf("\nstdinecho: eof after %d lines\n", n);
	}
	pangaea_exit();
	return 0;
}
