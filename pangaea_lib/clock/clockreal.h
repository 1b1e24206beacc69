/*
 * clockreal.h: in libpangaea.so, the library's own calls of the clock
 * and seed functions of pangaea-clock-calls.def go to the real ones.
 *
 * libpangaea.so defines gettimeofday and the like (clockpre.c), and
 * links with -Bsymbolic-functions: a plain call inside the library would
 * come to its own entry point.  pangaea_lib/pvm/real.h, forced into every
 * source of the shared library, includes this file first: each call is
 * then declared under the assembler name of its real function
 * (gettimeofday -> pg_real_gettimeofday, clockreal.c), so the engine's
 * timestamps and the wrappers' real reads never come back.  clockpre.c
 * defines PG_CLOCK_KEEP_NAMES and keeps the names.
 */
#ifndef PG_CLOCK_REAL_H
#define PG_CLOCK_REAL_H

#include <bits/types.h>

struct timeval;
struct timespec;
struct tms;
struct rusage;

/* pg_real_gettimeofday and the like */
#define PG_CLOCK_CALL(type, name, params, args) type pg_real_##name params;
#define PG_CLOCK_CALL_VOID(name, params, args) void pg_real_##name params;
#include "pangaea-clock-calls.def"

#ifndef PG_CLOCK_KEEP_NAMES
/* int gettimeofday(...) __asm__("pg_real_gettimeofday"); and the like,
 * before the system headers declare them again (the name stays) */
#define PG_CLOCK_CALL(type, name, params, args)                          \
	type name params __asm__("pg_real_" #name);
#define PG_CLOCK_CALL_VOID(name, params, args)                           \
	void name params __asm__("pg_real_" #name);
#include "pangaea-clock-calls.def"
#endif

#endif /* PG_CLOCK_REAL_H */
