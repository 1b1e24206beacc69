/*
 * pvmerr.c: the text of a PVM error code, for messages that say more than
 * a number.  libpvm keeps its texts in pvm_errlist (what pvm_perror
 * prints), which pvm3.h does not declare.
 */
#include "pangaea-internal.h"

#include <stdio.h>

extern char *pvm_errlist[];
extern int pvm_nerr;

const char *pg_pvm_errtext(int code)
{
	static char buf[48];

	if (code < 0 && -code < pvm_nerr && pvm_errlist[-code])
		snprintf(buf, sizeof(buf), "PVM error %d, %s", code,
			 pvm_errlist[-code]);
	else
		snprintf(buf, sizeof(buf), "PVM error %d", code);
	return buf;
}
