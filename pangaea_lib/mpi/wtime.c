/*
 * wtime.c: MPI_Wtime, the rank's clock read through MPI, recorded and
 * replayed by the clock replay (pangaea_lib/clock, docs/INTERNALS.md
 * "Clock reads and seeds") as the libc reads of the rank are: one
 * PG_TIME_CLOCKID record of clock id PG_CLOCKID_MPI_WTIME a call, whose
 * value is the bits of the double (replay gives back the same double,
 * bit for bit).  MPI's own reads inside PMPI_Wtime are made inside the
 * clock layer (pg_clk_enter counts the depth): real, not logged.
 * MPI_Wtick is a constant of the library and goes to MPI as it is.
 */
#include "pgmpi.h"
#include "pangaea-clock.h"

#include <string.h>

double MPI_Wtime(void)
{
	struct pg_value v = { .kind = PG_REC_TIME, .src = PG_TIME_CLOCKID,
			      .arg = PG_CLOCKID_MPI_WTIME };
	enum pg_clk_how how = pg_clk_enter();
	double t;

	if (how == PG_CLK_REPLAY && pg_clk_replay(&v) == 0) {
		memcpy(&t, &v.v[0], sizeof(t));
	} else {
		t = PMPI_Wtime();
		memcpy(&v.v[0], &t, sizeof(t));
	}
	if (how != PG_CLK_REAL)
		pg_clk_record(&v);
	pg_clk_leave(how);
	return t;
}
