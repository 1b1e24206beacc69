/*
 * bindir.c: the programs installed beside the launcher (BINDIR): the path
 * of pangaea-coord, which the launcher starts as the coordinator, the
 * live view's relay or log follower, and the beacons of other hosts.
 */
#include "launcher.h"

#include <libgen.h>
#include <stdio.h>
#include <unistd.h>

int la_coord_path(char *out, size_t n)
{
	char self[PG_PATH_MAX];
	ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);

	self[k > 0 ? k : 0] = '\0';
	snprintf(out, n, "%s/pangaea-coord", dirname(self));
	return k > 0 ? 0 : -1;
}
