/*
 * real.h: the real PVM functions, for libpangaea.so only.
 *
 * The shared library (LD_PRELOAD) defines the PVM entry points Pangaea
 * wraps (preload.c), so a plain call of pvm_send inside the library would
 * come back to Pangaea.  Every source of libpangaea.so is compiled with
 * `-include pangaea_lib/pvm/real.h`: each call of pangaea-pvm-calls.def is
 * then declared under the assembler name of its real function (a call of
 * pvm_send is a call of pg_real_pvm_send), which calls the next definition
 * (libpvm3, libgpvm3) found with dlsym(RTLD_NEXT) (real.c).  The wrappers'
 * source stays as it is and the static library libpangaea.a is built
 * without this file.
 *
 * preload.c defines PG_REAL_KEEP_NAMES: it defines the entry points under
 * their own names and calls the real ones as pg_real_pvm_*.
 */
#ifndef PG_REAL_H
#define PG_REAL_H

#define PG_PRELOAD 1 /* this object belongs to libpangaea.so */

/* the library's own clock reads go to the real functions too */
#include "clockreal.h"

#include <sys/time.h>

/* (pvm3.h, which defines them, is included after this file) */
struct pvmtaskinfo;
struct pvmhostinfo;
struct pvmmboxinfo;

/* pg_real_pvm_send and the like */
#define PANGAEA_CALL(type, name, params, args, route) type pg_real_##name params;
#define PANGAEA_CALL_JOIN(type, name, params, args)                      \
	PANGAEA_CALL(type, name, params, args, JOIN)
#include "pangaea-pvm-calls.def"

#ifndef PG_REAL_KEEP_NAMES
/* int pvm_send(int tid, int tag) __asm__("pg_real_pvm_send"); and the like
 * (pvm3.h declares them again, without the name: the name stays) */
#define PANGAEA_CALL(type, name, params, args, route)                    \
	type name params __asm__("pg_real_" #name);
#define PANGAEA_CALL_JOIN(type, name, params, args)                      \
	PANGAEA_CALL(type, name, params, args, JOIN)
#include "pangaea-pvm-calls.def"
#endif

#endif /* PG_REAL_H */
