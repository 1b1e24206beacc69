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

/* pg_real_gettimeofday and the like (PG_REAL_BODY) */
#define PG_CLOCK_CALL(type, name, params, args)                          \
	type pg_real_##name params { PG_REAL_BODY(name, args, return); }
#define PG_CLOCK_CALL_VOID(name, params, args)                           \
	void pg_real_##name params { PG_REAL_BODY(name, args, ); }
#include "pangaea-clock-calls.def"
