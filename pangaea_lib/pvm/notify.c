/*
 * notify.c: the wrapper of pvm_notify.  A task that asks PVM to be told
 * of other tasks' exits (PvmTaskExit) handles their deaths itself; the
 * launcher must hear of it, or it would end the run at such a death
 * (toplevel/death.c).  The notify itself is PVM's, unchanged: the
 * message PVM sends on the exit is an ordinary message of the app.
 */
#include "pangaea-internal.h"

#include <stdio.h>

int pangaea_pvm_notify(int what, int msgtag, int cnt, int *tids)
{
	int rc = pvm_notify(what, msgtag, cnt, tids);
	int cancel = (what & PvmNotifyCancel) != 0;

	if (rc < 0 || !pg_me->mode || (what & ~PvmNotifyCancel) != PvmTaskExit ||
	    cnt <= 0 || !tids || pg_me->ltid == 0)
		return rc;
	if (pg_proto_send_watch(pg_me->launcher_tid, pg_me->ltid, msgtag,
				cancel, tids, cnt) < 0)
		fprintf(stderr, "pangaea: task %d: cannot tell the launcher "
			"of its pvm_notify\n", pg_me->ltid);
	return rc;
}
