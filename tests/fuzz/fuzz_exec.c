/*
 * fuzz_exec.c: libFuzzer harness of the execution-log parser
 * (logs/format/execlog.c): the input is a task-LTID.exec file (LTID: the
 * ltid= of its first line, as in a real run; else 1), parsed with
 * pg_exec_read.  A refusal must say why; what is accepted must hold
 * together (argc strings and a NULL after them, ntask slots, strings
 * ended within their buffers).
 */
#include "fuzzutil.h"
#include "pangaea-logs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink; /* what was read of the strings (kept) */

/* Aborts with WHY unless OK. */
static void require(int ok, const char *why)
{
	if (!ok) {
		fprintf(stderr, "fuzz: pg_exec_read accepted a log with %s\n",
			why);
		abort();
	}
}

/* The ltid the first line of the SIZE bytes at DATA names ("ltid=N" in
 * its first 64 bytes), or 1. */
static int header_ltid(const uint8_t *data, size_t size)
{
	char line[65];
	const char *p;
	size_t n = size < 64 ? size : 64;

	memcpy(line, data, n);
	line[n] = '\0';
	line[strcspn(line, "\n")] = '\0';
	p = strstr(line, "ltid=");
	/* (a value past an int is cut: any name will do) */
	return p ? (int)strtol(p + 5, NULL, 10) : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char name[32];
	const char *path;
	struct pg_exec_log log;
	char err[PG_PATH_MAX + 512];
	size_t total = 0;

	snprintf(name, sizeof(name), "task-%d.exec", header_ltid(data, size));
	path = fz_write(name, data, size);
	if (pg_exec_read(path, &log, err, sizeof(err)) < 0) {
		fz_check_err("pg_exec_read", err, sizeof(err));
		unlink(path);
		return 0;
	}
	require(log.nspawn >= 0 && (log.nspawn == 0 || log.spawns),
		"a bad spawn count");
	for (int i = 0; i < log.nspawn; i++) {
		const struct pg_spawn_rec *s = &log.spawns[i];

		require(memchr(s->file, 0, sizeof(s->file)) &&
			memchr(s->where, 0, sizeof(s->where)),
			"an unended string");
		require(s->argc >= 0 && s->argv && !s->argv[s->argc],
			"an argv without its NULL");
		for (int a = 0; a < s->argc; a++)
			total += strlen(s->argv[a]);
		require(s->ntask >= 0 && (s->ntask == 0 || s->slots),
			"no slots for its tasks");
		for (int k = 0; k < s->ntask; k++)
			total += strnlen(s->slots[k].host, PG_HOST_MAX);
	}
	pg_exec_free(&log);
	unlink(path);
	sink = total;
	return 0;
}
