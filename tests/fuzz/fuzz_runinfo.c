/*
 * fuzz_runinfo.c: libFuzzer harness of the run.info reader
 * (logs/format/runinfo.c): the input is DIR/run.info, read with
 * pg_runinfo_read; every task it lists is then looked up by ltid
 * (pg_runinfo_task), as the replay check and the importer do.  A refusal
 * must say why; strings must end within their buffers.
 */
#include "fuzzutil.h"
#include "pangaea-logs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts unless the N-byte buffer S holds a NUL. */
static void ended(const char *s, size_t n, const char *field)
{
	if (!memchr(s, '\0', n)) {
		fprintf(stderr, "fuzz: run.info field %s not ended\n", field);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pg_runinfo ri;
	char err[PG_PATH_MAX + 512];
	int rc;

	fz_write("run.info", data, size);
	memset(&ri, 0, sizeof(ri));
	rc = pg_runinfo_read(fz_dir(), &ri, err, sizeof(err));
	if (rc < 0)
		fz_check_err("pg_runinfo_read", err, sizeof(err));
	if (rc == 1) {
		ended(ri.mode, sizeof(ri.mode), "mode");
		ended(ri.command, sizeof(ri.command), "command");
		ended(ri.replay_of, sizeof(ri.replay_of), "replay-of");
		ended(ri.select, sizeof(ri.select), "select");
		ended(ri.diverged, sizeof(ri.diverged), "diverged");
		for (size_t i = 0; i < ri.ntasks; i++) {
			const struct pg_runinfo_task *t = &ri.tasks[i];

			ended(t->host, sizeof(t->host), "task host");
			ended(t->program, sizeof(t->program), "task program");
			ended(t->end_text, sizeof(t->end_text), "task end");
			if (!pg_runinfo_task(&ri, t->ltid)) {
				fprintf(stderr, "fuzz: task %d not found\n",
					t->ltid);
				abort();
			}
		}
	}
	pg_runinfo_free(&ri);
	return 0;
}
