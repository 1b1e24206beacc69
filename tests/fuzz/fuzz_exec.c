/*
 * fuzz_exec.c: libFuzzer harness of the execution-log parser
 * (logs/execlog.c): the input is a task-1.exec file, parsed with
 * pg_exec_read.  A refusal must say why; what is accepted must hold
 * together (argc strings and a NULL after them, ntask slots, strings
 * ended within their buffers).
 */
#include "fuzzutil.h"
#include "pangaea-logs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fz_write("task-1.exec", data, size);
	struct pg_exec_log log;
	char err[PG_PATH_MAX + 512];
	size_t total = 0;

	if (pg_exec_read(path, &log, err, sizeof(err)) < 0) {
		fz_check_err("pg_exec_read", err, sizeof(err));
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
	sink = total;
	return 0;
}
