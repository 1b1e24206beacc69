/*
 * fuzz_comm.c: libFuzzer harness of the communication-log reader
 * (logs/format/commlog-read.c): the input is a task-LTID.comm file (LTID: the one
 * its header names, as in a real run; 1 when it is too short), read with
 * pg_comm_open and pg_comm_next to its end as every reader of logs does,
 * each event put into words (pg_event_describe) and the end checked
 * against a run.info that says the task ended (pg_runinfo_check_end).
 * A refusal must say why; an event must be of a known kind.
 */
#include "fuzzutil.h"
#include "pangaea-logs.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pg_runinfo_task task = { .ltid = 1, .how = PG_END_EXIT };
	struct pg_runinfo ri = { .tasks = &task, .ntasks = 1, .cap = 1 };
	struct pg_comm_reader r;
	struct pg_event ev;
	char err[PG_PATH_MAX + 512], text[1024], name[32];
	const char *path;
	int rc, last = 0;

	if (size >= 20) /* the header's ltid: a little-endian int32 at 16 */
		task.ltid = (int32_t)((uint32_t)data[16] | (uint32_t)data[17] << 8 |
				      (uint32_t)data[18] << 16 |
				      (uint32_t)data[19] << 24);
	snprintf(name, sizeof(name), "task-%d.comm", task.ltid);
	path = fz_write(name, data, size);

	if (pg_comm_open(&r, path, err, sizeof(err)) < 0) {
		fz_check_err("pg_comm_open", err, sizeof(err));
		return 0;
	}
	/* half the inputs read as replay's clock cursor and dump do: the
	   clock reads and seeds too (version 8) */
	r.values = (int)(size & 1);
	while ((rc = pg_comm_next(&r, &ev, err, sizeof(err))) == 1) {
		if (r.values &&
		    (ev.kind == PG_REC_TIME || ev.kind == PG_REC_SEED)) {
			if (ev.nvals < 0 || ev.nvals > PG_VALUES_MAX) {
				fprintf(stderr, "fuzz: %d values\n", ev.nvals);
				abort();
			}
			pg_value_describe(&ev, text, sizeof(text));
			continue;
		}
		if (ev.kind < 1 || ev.kind > PG_REC_LAST) {
			fprintf(stderr, "fuzz: pg_comm_next gave kind %d\n",
				ev.kind);
			abort();
		}
		pg_event_describe(&pg_names_pvm, &ev, text, sizeof(text));
		last = ev.kind;
	}
	if (rc < 0)
		fz_check_err("pg_comm_next", err, sizeof(err));
	else if (pg_runinfo_check_end(&ri, task.ltid, &r, last == PG_REC_END,
				      err, sizeof(err)) < 0)
		fz_check_err("pg_runinfo_check_end", err, sizeof(err));
	pg_comm_free(&r);
	unlink(path);
	return 0;
}
