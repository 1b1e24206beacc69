/*
 * hosts.c: the hosts a replay needs.  Replay starts every task on the host
 * it was recorded on (its slot in its parent's exec log says which), so
 * each finds its log there; a host of the recording that is not in the
 * virtual machine is found before any task starts, and named with a task
 * it carried, instead of failing at that task's spawn in mid-run.
 */
#include "launcher.h"

#include <glob.h>
#include <libgen.h>
#include <pvm3.h>
#include <string.h>

/* Whether NAME is one of the NHOST hosts of HOSTS. */
static int in_vm(const char *name, const struct pvmhostinfo *hosts, int nhost)
{
	for (int i = 0; i < nhost; i++)
		if (strcmp(hosts[i].hi_name, name) == 0)
			return 1;
	return 0;
}

/* The names of the NHOST hosts of HOSTS, space-separated, into BUF. */
static void host_names(const struct pvmhostinfo *hosts, int nhost, char *buf,
		       size_t n)
{
	size_t k = 0;

	buf[0] = '\0';
	for (int i = 0; i < nhost && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? " " : "",
				      hosts[i].hi_name);
}

/* Checks the slots of the exec log PATH against HOSTS; 0, or -1 said. */
static int check_log(const char *path, const struct pvmhostinfo *hosts,
		     int nhost)
{
	struct pg_exec_log log;
	char err[PG_PATH_MAX + 100], names[1024];
	int rc = 0;

	if (pg_exec_read(path, &log, err, sizeof(err)) < 0) {
		la_error("refusing to replay: %s", err);
		return -1;
	}
	for (int s = 0; s < log.nspawn && rc == 0; s++) {
		const struct pg_spawn_rec *sp = &log.spawns[s];

		for (int i = 0; i < sp->started && rc == 0; i++) {
			const struct pg_spawn_slot *sl = &sp->slots[i];
			char file[PG_PATH_MAX];

			if (sl->ltid <= 0 || in_vm(sl->host, hosts, nhost))
				continue;
			snprintf(file, sizeof(file), "%s", sp->file);
			host_names(hosts, nhost, names, sizeof(names));
			la_error("refusing to replay: task %d (%s) was recorded "
				 "on host %s, which is not in the virtual machine "
				 "(its hosts: %s): add %s to it, or move the task "
				 "to one of them in %s", sl->ltid, basename(file),
				 sl->host, names, sl->host, path);
			rc = -1;
		}
	}
	pg_exec_free(&log);
	return rc;
}

int la_hosts_check(const char *logdir)
{
	struct pvmhostinfo *hosts;
	char pattern[PG_PATH_MAX + 16];
	int nhost, narch, rc = 0;
	glob_t g;

	if (pvm_config(&nhost, &narch, &hosts) < 0) {
		la_error("refusing to replay: cannot list the virtual "
			 "machine's hosts");
		return -1;
	}
	snprintf(pattern, sizeof(pattern), "%s/task-*.exec", logdir);
	if (glob(pattern, 0, NULL, &g) != 0)
		return 0; /* no exec log: replay_prepare has said so already */
	for (size_t i = 0; i < g.gl_pathc && rc == 0; i++)
		rc = check_log(g.gl_pathv[i], hosts, nhost);
	globfree(&g);
	return rc;
}
