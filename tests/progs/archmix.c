/*
 * archmix.c: an unmodified PVM program (no pangaea.h) for virtual
 * machines of several architectures (tests/scenario/hosts_arch.sh).
 *
 * Usage: archmix HOST|ARCH...   (the master; each word a host name, or an
 *                                architecture such as LINUXS390)
 *
 * The master spawns one copy of itself, by bare name (each host's pvmd
 * finds the build of its own architecture in its ep= folder), on each
 * HOST (PvmTaskHost) or ARCH (PvmTaskArch); sends each, XDR-packed, an
 * int, a double, a long and a string; takes the answers in arrival order
 * (pvm_recv(-1)) and prints, for each, the worker's architecture (as it
 * was built), its sizeof(long), and what it computed from the values
 * received: equal on every architecture if the values arrived right.
 * Exit 0, or 1 with one line on stderr.
 */
#include <pvm3.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__)
#define ARCH "LINUX64"
#elif defined(__i386__)
#define ARCH "LINUX"
#elif defined(__s390x__)
#define ARCH "LINUXS390"
#else
#define ARCH "OTHER"
#endif
#define TAG_WORK 1
#define TAG_DONE 2
#define MAXW 16

/* A worker: one message in, one answer out. */
static int worker(int parent)
{
	int i, k;
	double d;
	long l;
	char s[64], host[64] = "?";

	if (pvm_recv(parent, TAG_WORK) < 0 || pvm_upkint(&i, 1, 1) < 0 ||
	    pvm_upkdouble(&d, 1, 1) < 0 || pvm_upklong(&l, 1, 1) < 0 ||
	    pvm_upkstr(s) < 0)
		return 1;
	struct pvmhostinfo *h;
	int nh, na;
	if (pvm_config(&nh, &na, &h) == 0)
		for (k = 0; k < nh; k++)
			if (h[k].hi_tid == pvm_tidtohost(pvm_mytid()))
				snprintf(host, sizeof(host), "%s", h[k].hi_name);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&i, 1, 1);
	pvm_pkstr((char *)ARCH);
	pvm_pkstr(host);
	k = (int)sizeof(long);
	pvm_pkint(&k, 1, 1);
	d = d * i + (double)l;
	pvm_pkdouble(&d, 1, 1);
	l = l * 3 - i;
	pvm_pklong(&l, 1, 1);
	strcat(s, "!");
	pvm_pkstr(s);
	pvm_send(parent, TAG_DONE);
	return 0;
}

int main(int argc, char **argv)
{
	int me = pvm_mytid(), parent = pvm_parent(), tids[MAXW], n = argc - 1;

	if (me < 0) {
		fprintf(stderr, "archmix: pvm_mytid failed (%d)\n", me);
		return 1;
	}
	if (parent > 0) {
		int rc = worker(parent);
		pvm_exit();
		return rc;
	}
	if (n < 1 || n > MAXW) {
		fprintf(stderr, "usage: archmix HOST|ARCH... (1 to %d)\n", MAXW);
		pvm_exit();
		return 1;
	}
	for (int i = 0; i < n; i++) {
		int flag = strncmp(argv[i + 1], "LINUX", 5) ? PvmTaskHost : PvmTaskArch;
		if (pvm_spawn("archmix", NULL, flag, argv[i + 1], 1, &tids[i]) != 1) {
			fprintf(stderr, "archmix: cannot spawn on %s (%d)\n",
				argv[i + 1], tids[i]);
			pvm_exit();
			return 1;
		}
	}
	for (int i = 0; i < n; i++) {
		double d = 1.0 / 3.0 + i;
		long l = 1000003L * (i + 1);
		char s[32];
		snprintf(s, sizeof(s), "to-%s", argv[i + 1]);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&i, 1, 1);
		pvm_pkdouble(&d, 1, 1);
		pvm_pklong(&l, 1, 1);
		pvm_pkstr(s);
		pvm_send(tids[i], TAG_WORK);
	}
	printf("master %s, sizeof(long) %d\n", ARCH, (int)sizeof(long));
	for (int j = 0; j < n; j++) {
		int i, k;
		double d;
		long l;
		char arch[32], host[64], s[64];
		if (pvm_recv(-1, TAG_DONE) < 0)
			break;
		pvm_upkint(&i, 1, 1);
		pvm_upkstr(arch);
		pvm_upkstr(host);
		pvm_upkint(&k, 1, 1);
		pvm_upkdouble(&d, 1, 1);
		pvm_upklong(&l, 1, 1);
		pvm_upkstr(s);
		printf("worker %d on %s: %s long=%d d=%.12g l=%ld s=%s\n", i,
		       host, arch, k, d, l, s);
	}
	pvm_exit();
	return 0;
}
