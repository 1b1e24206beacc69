/*
 * clockreal.c: the real clock and seed functions for libpangaea.so
 * (clockreal.h), one for each call of pangaea-clock-calls.def: each looks
 * up the next definition of its name (libc's) once, then calls it.  Only
 * in the shared library.  pg_clk_real_lookup serves the binding's real
 * functions too (pvm/real.c).
 */
#include "pangaea-clock.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

void *pg_clk_real_lookup(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f) {
		fprintf(stderr, "pangaea: libpangaea.so: no %s after it: %s\n",
			name, dlerror());
		abort();
	}
	return f;
}

/* pg_real_gettimeofday and the like: the real function looked up at the
 * first call (two threads racing both look it up: harmless). */
#define PG_CLOCK_CALL(type, name, params, args)                          \
	type pg_real_##name params                                       \
	{                                                                \
		static __typeof__(pg_real_##name) *real;                 \
		if (!real)                                               \
			real = (__typeof__(real))pg_clk_real_lookup(#name); \
		return real args;                                        \
	}
#define PG_CLOCK_CALL_VOID(name, params, args)                           \
	void pg_real_##name params                                       \
	{                                                                \
		static __typeof__(pg_real_##name) *real;                 \
		if (!real)                                               \
			real = (__typeof__(real))pg_clk_real_lookup(#name); \
		real args;                                               \
	}
#include "pangaea-clock-calls.def"
