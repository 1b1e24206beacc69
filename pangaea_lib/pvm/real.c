/*
 * real.c: the real PVM functions for libpangaea.so (real.h), one for each
 * call of pangaea-pvm-calls.def: each looks up the next definition of its
 * name (libpvm3.so.3, libgpvm3.so.3, which libpangaea.so needs) once, then
 * calls it (pg_clk_real_lookup: a PVM without it is said and the process
 * aborted).  Only in the shared library.
 */
#include "pangaea-internal.h"
#include "pangaea-clock.h" /* PG_REAL_BODY */

/* pg_real_pvm_send and the like: each looks the real function up at its
 * first call, then calls it with the same arguments (PG_REAL_BODY). */
#define PANGAEA_CALL(type, name, params, args, route)                    \
	type pg_real_##name params { PG_REAL_BODY(name, args, return); }
#define PANGAEA_CALL_JOIN(type, name, params, args)                      \
	PANGAEA_CALL(type, name, params, args, JOIN)
#include "pangaea-pvm-calls.def"
