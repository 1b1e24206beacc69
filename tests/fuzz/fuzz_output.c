/*
 * fuzz_output.c: libFuzzer harness of the output.log reader
 * (logs/format/outlog.c): the input is DIR/output.log, read with pg_outlog_read;
 * what it accepts must hold together (each piece inside the data, known
 * kinds and ltids).  Then the run is compared with itself as verify does
 * (logs/analysis/output-compare.c): an accepted log is the same output as
 * itself.  A refusal must say why.
 */
#include "fuzzutil.h"
#include "pangaea-analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pg_out_log log;
	char path[PG_PATH_MAX + 32], err[PG_PATH_MAX + 512];
	int rc;

	fz_write("output.log", data, size);
	snprintf(path, sizeof(path), "%s/output.log", fz_dir());
	rc = pg_outlog_read(path, &log, err, sizeof(err));
	if (rc < 0)
		fz_check_err("pg_outlog_read", err, sizeof(err));
	/* (a refused log keeps the records before the damage) */
	for (size_t i = 0; i < log.n; i++) {
		const struct pg_out_piece *p = &log.pieces[i];

		if (p->off + p->len > log.len || p->len > PG_OUTPUT_PIECE_MAX ||
		    (p->nl != 0 && p->nl != 1) || p->ltid < -1 || p->ns < 0) {
			fprintf(stderr, "fuzz: piece %zu does not hold together\n",
				i);
			abort();
		}
	}
	pg_outlog_free(&log);
	rc = pg_outverify(fz_dir(), fz_dir(), NULL, 0, err, sizeof(err));
	if (rc > 0) {
		fprintf(stderr, "fuzz: a run differs from itself: %s\n", err);
		abort();
	}
	if (rc < 0)
		fz_check_err("pg_outverify", err, sizeof(err));
	return 0;
}
