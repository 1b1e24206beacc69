/*
 * staged.c - programs meant to be started one after another (Pangaea
 * example), in the pattern of PVM's task0 / task1 / task_end.
 *
 * Usage: staged server NAME | staged client NAME | staged end NAME
 *
 * The server takes a moment to start (1 s), joins the group NAME and
 * answers requests (tag 1) until one says "END".  The client looks the
 * server up with pvm_gettid(NAME, 0), sends a request and prints the
 * answer; the end program looks it up too and tells it to stop.  Started
 * by hand from separate shells, each after the one before is ready, they
 * work; started at once (`pangaea -log staged server s : staged client s
 * : staged end s`) the client finds no server and the server waits
 * forever.  `pangaea -log -staged ...` starts each one once the one
 * before waits in a PVM call.
 */
#define _DEFAULT_SOURCE /* usleep */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pangaea.h>

#define TAG_REQ 1
#define TAG_ANSWER 2

/* Leaves Pangaea and PVM and exits with STATUS. */
static void leave(int status)
{
	pangaea_exit();
	exit(status);
}

/* The server of group NAME: answers until "END"; the exit status. */
static int server(char *name)
{
	char text[64];
	int n = 0, who, b;

	usleep(1000000); /* a slow start: loads its data, say */
	if (pvm_joingroup(name) != 0) {
		printf("server: cannot be instance 0 of group %s\n", name);
		return 1;
	}
	printf("server: ready as %s\n", name);
	for (;;) {
		if ((b = pvm_recv(-1, TAG_REQ)) < 0 ||
		    pvm_bufinfo(b, NULL, NULL, &who) < 0 || pvm_upkstr(text) < 0)
			return 1;
		if (strcmp(text, "END") == 0)
			break;
		printf("server: request %d: %s\n", ++n, text);
		snprintf(text, sizeof(text), "welcome, request number %d", n);
		pvm_initsend(PvmDataDefault);
		pvm_pkstr(text);
		pvm_send(who, TAG_ANSWER);
	}
	printf("server: handled %d request(s), stopping\n", n);
	pvm_lvgroup(name);
	return 0;
}

/* Sends TEXT to the server of group NAME; its tid, or -1 (said). */
static int tell(const char *me, char *name, char *text)
{
	int tid = pvm_gettid(name, 0);

	if (tid < 0) {
		printf("%s: no server %s (PVM error %d)\n", me, name, tid);
		return -1;
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkstr(text);
	return pvm_send(tid, TAG_REQ) < 0 ? -1 : tid;
}

int main(int argc, char **argv)
{
	char text[64], hello[] = "hello from the client", end[] = "END";
	int tid;

	pangaea_init(&argc, &argv);
	if (argc != 3) {
		fprintf(stderr, "usage: staged server|client|end NAME\n");
		leave(2);
	}
	if (strcmp(argv[1], "server") == 0)
		leave(server(argv[2]));
	if (strcmp(argv[1], "client") == 0) {
		if ((tid = tell("client", argv[2], hello)) < 0 ||
		    pvm_recv(tid, TAG_ANSWER) < 0 || pvm_upkstr(text) < 0)
			leave(1);
		printf("client: %s\n", text);
		leave(0);
	}
	if (strcmp(argv[1], "end") == 0) {
		if (tell("end", argv[2], end) < 0)
			leave(1);
		printf("end: told the server to stop\n");
		leave(0);
	}
	fprintf(stderr, "staged: unknown role %s\n", argv[1]);
	leave(2);
}
