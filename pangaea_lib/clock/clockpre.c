/*
 * clockpre.c: the clock and seed entry points of libpangaea.so.
 * Preloaded into an unmodified program, these definitions, one for each
 * call of pangaea-clock-calls.def, come before libc's: a call of the
 * program goes to the wrapper pangaea.h would have named (gettimeofday
 * -> pangaea_gettimeofday, clockwrap.c); a call made inside Pangaea
 * (pg_clk_depth) or by a library the binding names (libpvm3's own reads,
 * pg_clk_exclude_lib) goes straight to the real function.
 *
 * Only in libpangaea.so; compiled without clockreal.h's renaming.
 */
#define PG_CLOCK_KEEP_NAMES
#include "clockreal.h"
#include "pangaea-clock.h"

#include <stdlib.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

/* Whether the caller at RET is the program (its read is recorded). */
#define CLK_PROGRAM(ret) (!pg_clk_depth && !pg_clk_from_excluded(ret))

/* int gettimeofday(...) { return CLK_PROGRAM(...) ? pangaea_gettimeofday
 * (tv, tz) : pg_real_gettimeofday(tv, tz); } and the like */
#define PG_CLOCK_CALL(type, name, params, args)                          \
	type name params                                                 \
	{                                                                \
		if (CLK_PROGRAM(__builtin_return_address(0)))            \
			return pangaea_##name args;                      \
		return pg_real_##name args;                              \
	}
#define PG_CLOCK_CALL_VOID(name, params, args)                           \
	void name params                                                 \
	{                                                                \
		if (CLK_PROGRAM(__builtin_return_address(0)))            \
			pangaea_##name args;                             \
		else                                                     \
			pg_real_##name args;                             \
	}
#include "pangaea-clock-calls.def"
