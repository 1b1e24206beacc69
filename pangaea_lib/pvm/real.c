/*
 * real.c: the real PVM functions for libpangaea.so (real.h), one for each
 * call of pangaea-pvm-calls.def: each looks up the next definition of its
 * name (libpvm3.so.3, libgpvm3.so.3, which libpangaea.so needs) once, then
 * calls it (pg_clk_real_lookup: a PVM without it is said and the process
 * aborted).  Only in the shared library.
 */
#include "pangaea-internal.h"
#include "pangaea-clock.h" /* pg_clk_real_lookup */

/* pg_real_pvm_send and the like: each looks the real function up at its
 * first call (two threads racing both look it up: harmless), then calls
 * it with the same arguments. */
#define PANGAEA_CALL(type, name, params, args, route)                    \
	type pg_real_##name params                                       \
	{                                                                \
		static __typeof__(pg_real_##name) *real;                 \
		if (!real)                                               \
			real = (__typeof__(real))pg_clk_real_lookup(#name); \
		return real args;                                        \
	}
#define PANGAEA_CALL_JOIN(type, name, params, args)                      \
	PANGAEA_CALL(type, name, params, args, JOIN)
#include "pangaea-pvm-calls.def"
