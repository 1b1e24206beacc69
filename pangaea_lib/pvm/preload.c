/*
 * preload.c: the PVM entry points of libpangaea.so.  Preloaded
 * (LD_PRELOAD) into an unmodified program linked with libpvm3.so.3, these
 * definitions, one for each call of pangaea-pvm-calls.def, come before
 * PVM's own: each routes its call to the wrapper pangaea.h would have
 * named (pvm_send -> pangaea_pvm_send), which calls the real function
 * through real.h.
 *
 * - The task joins the run at its first PVM call (pangaea_init, lazily)
 *   and leaves it at pvm_exit, or at a process exit with status 0
 *   (pangaea_exit); another exit is recorded by init.c's hook.
 * - Calls made while inside Pangaea (libgpvm3's own pvm_send, pvm_recv,
 *   pvm_mcast ... for its group server, libpvm3's internal calls) go
 *   straight to PVM: a per-thread depth counts the wrappers we are in
 *   (pg_clk_depth, which also keeps PVM's own clock reads inside them
 *   real: pangaea_lib/clock).  A clock read before the first PVM call
 *   joins the run then, in a process the pvmd started (PVMEPID).
 * - A program built with pangaea.h tells us so from its constructor
 *   (pg_preload_source_mode, in init.c of libpangaea.a): its own wrappers
 *   record, and every call here passes through.
 * - So do processes outside the run (no PANGAEA_CONTEXT), a process with
 *   no parent task, and PVM's group server (pvmgs), which libgpvm3 starts
 *   with the environment of the run's task that needs it.
 *
 * Only in libpangaea.so; compiled without real.h's renaming.
 */
#define PG_REAL_KEEP_NAMES
#include "real.h"
#include "pangaea-internal.h"
#include "pangaea-clock.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum preload_state {
	PRELOAD_UNDECIDED = 0, /* no PVM call yet */
	PRELOAD_ACTIVE,        /* joined: calls go through Pangaea */
	PRELOAD_OFF            /* plain PVM: every call passes through */
};

static enum preload_state state;
/* wrappers of this thread we are inside: pg_clk_depth (initial-exec:
 * the library is loaded at start, so its TLS is static and read without
 * a call) */
#define depth pg_clk_depth

void pg_preload_source_mode(void);

/* Called by a program built with pangaea.h (its libpangaea.a) before
 * main: it records itself, so this library stays out of the way. */
void pg_preload_source_mode(void)
{
	state = PRELOAD_OFF;
}

/* Whether this process is PVM's group server (started by libgpvm3 with a
 * task's environment, LD_PRELOAD included): it is not a task of the run. */
static int preload_is_group_server(void)
{
	char exe[PG_PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *base;

	if (n <= 0)
		return 0;
	exe[n] = '\0';
	base = strrchr(exe, '/');
	return strcmp(base ? base + 1 : exe, "pvmgs") == 0;
}

/* At a process exit with status 0 that did not call pvm_exit: the task
 * leaves the run normally, and PVM too (pvm_exit waits for the pvmd, so
 * the messages the task sent last are not lost with its exit). */
static void preload_on_exit(int status, void *arg)
{
	(void)arg;
	if (state == PRELOAD_ACTIVE && status == 0) {
		depth++;
		pangaea_exit();
		state = PRELOAD_OFF;
		pg_real_pvm_exit();
		depth--;
	}
}

/* Decides, at the first PVM call, whether this task is in a run: joins it
 * (pangaea_init) if so; a failed join leaves the task plain, said. */
static void preload_join(void)
{
	const char *ctx = getenv(PG_ENV_CONTEXT);

	state = PRELOAD_OFF;
	if (!ctx || !*ctx || preload_is_group_server())
		return;
	depth++;
	if (pangaea_init(NULL, NULL) == 0 && pangaea_mode()) {
		state = PRELOAD_ACTIVE;
		on_exit(preload_on_exit, NULL); /* runs before init.c's hook */
	}
	depth--;
}

/* A clock read or seed of the program before its first PVM call
 * (pg_clk_join_hook): joins the run now if this process is one the pvmd
 * started (its PVMEPID, which a process the task starts inherits, is its
 * own pid) and a PVM program itself (it needs libpvm3: not a shell
 * script that execs one, which would take the task's handover):
 * `srand(time(NULL))` before pvm_mytid is recorded too. */
static void preload_join_early(void)
{
	const char *epid = getenv("PVMEPID");

	if (state == PRELOAD_UNDECIDED && epid && atoi(epid) == getpid() &&
	    (pg_clk_main_needs("libpvm3.") || pg_clk_main_needs("libgpvm3.") ||
	     pg_clk_main_needs("libfpvm3.")))
		preload_join();
}

/* At load: PVM's own clock reads are not the program's; the hook. */
__attribute__((constructor)) static void preload_clock_setup(void)
{
	pg_clk_exclude_lib("libpvm3.");
	pg_clk_exclude_lib("libgpvm3.");
	pg_clk_join_hook = preload_join_early;
}

/* Whether this call goes through Pangaea (then preload_leave after it):
 * not when inside a wrapper already, nor in a task that is not in a run. */
static int preload_enter(void)
{
	if (depth > 0)
		return 0;
	if (state == PRELOAD_UNDECIDED)
		preload_join();
	if (state != PRELOAD_ACTIVE)
		return 0;
	depth++;
	return 1;
}

/* Whether the code at RET (a return address) belongs to PVM's own
 * libraries: libpvm3 asks the mailbox while it enrols a task (the
 * tracer's entry) and in pvm_setopt, pvm_start_pvmd asks pvm_config,
 * libgpvm3 looks up its group server there.  Those calls are PVM's, not
 * the program's, even outside any wrapper of ours. */
static int preload_from_pvm(const void *ret)
{
	Dl_info info;
	const char *base;

	if (!dladdr(ret, &info) || !info.dli_fname)
		return 0;
	base = strrchr(info.dli_fname, '/');
	base = base ? base + 1 : info.dli_fname;
	return strncmp(base, "libpvm3.", 8) == 0 ||
	       strncmp(base, "libgpvm3.", 9) == 0;
}

/* Ends what preload_enter began. */
static void preload_leave(void)
{
	depth--;
}

/* The body of an entry point, by the route its call has in
 * pangaea-pvm-calls.def: WRAPPER ARGS through Pangaea, or REAL ARGS
 * straight to PVM.  ALL: every call made outside our wrappers goes
 * through Pangaea. */
#define ROUTE_ALL(wrapper, real, args)                                   \
	int rc;                                                          \
	if (!preload_enter())                                            \
		return real args;                                        \
	rc = wrapper args;                                               \
	preload_leave();                                                 \
	return rc

/* APP: straight to PVM also when PVM's own libraries called it, for
 * calls they make outside our wrappers (see preload_from_pvm). */
#define ROUTE_APP(wrapper, real, args)                                   \
	if (depth == 0 && preload_from_pvm(__builtin_return_address(0))) \
		return real args;                                        \
	ROUTE_ALL(wrapper, real, args)

/* EXIT: the wrapper logs the call, leaves the run and PVM; every later
 * call passes through. */
#define ROUTE_EXIT(wrapper, real, args)                                  \
	int rc;                                                          \
	if (!preload_enter())                                            \
		return real args;                                        \
	rc = wrapper args;                                               \
	state = PRELOAD_OFF;                                             \
	preload_leave();                                                 \
	return rc

/* JOIN, a call without a wrapper: the first call joins the run. */
#define ROUTE_JOIN(real, args)                                           \
	if (preload_enter())                                             \
		preload_leave();                                         \
	return real args

/* The entry points: int pvm_send(int tid, int tag) { ROUTE_ALL(
 * pangaea_pvm_send, pg_real_pvm_send, (tid, tag)); } and the like. */
#define PANGAEA_CALL(type, name, params, args, route)                    \
	type name params                                                 \
	{                                                                \
		ROUTE_##route(pangaea_##name, pg_real_##name, args);     \
	}
#define PANGAEA_CALL_JOIN(type, name, params, args)                      \
	type name params                                                 \
	{                                                                \
		ROUTE_JOIN(pg_real_##name, args);                        \
	}
#include "pangaea-pvm-calls.def"

/*
 * dlsym: a program that dlopens libpvm3 itself and looks its functions up
 * in it (dlsym(dlopen("libpvm3.so.3"), "pvm_send"), as C's plugins and
 * Python's ctypes do) would get PVM's own functions, past ours, and run
 * unrecorded.  For a handle of libpvm3 or libgpvm3 (already loaded: this
 * library needs them), a call of the table is looked up in this library's
 * own handle instead, where the entry points above come first; every
 * other lookup goes to the real dlsym by a tail call, so that it
 * sees its caller's return address (RTLD_NEXT is relative to the caller:
 * libfaketime's and our own real.c's lookups stay as they are).
 */
static const char *const preload_names[] = {
#define PANGAEA_CALL(type, name, params, args, route) #name,
#define PANGAEA_CALL_JOIN(type, name, params, args)                      \
	PANGAEA_CALL(type, name, params, args, JOIN)
#include "pangaea-pvm-calls.def"
};

/* Whether HANDLE (of dlopen) is that of the loaded library LIB. */
static int preload_is_lib(void *handle, const char *lib)
{
	void *h = dlopen(lib, RTLD_LAZY | RTLD_NOLOAD);

	if (!h)
		return 0;
	dlclose(h); /* (only the count dlopen added: it stays loaded) */
	return h == handle;
}

/* This library's own handle (dlopen of the file it was loaded from), or
 * NULL. */
static void *preload_self(void)
{
	static void *self;
	Dl_info info;

	if (!self && dladdr((void *)preload_self, &info) && info.dli_fname)
		self = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
	return self;
}

/* Whether NAME looked up in HANDLE should be given our entry point: a
 * call we define (pangaea-pvm-calls.def), in a handle of libpvm3 or
 * libgpvm3. */
static int preload_dlsym_ours(void *handle, const char *name)
{
	if (handle == RTLD_NEXT || handle == RTLD_DEFAULT || !name ||
	    strncmp(name, "pvm_", 4) != 0)
		return 0;
	if (!preload_is_lib(handle, "libpvm3.so.3") &&
	    !preload_is_lib(handle, "libgpvm3.so.3"))
		return 0;
	for (size_t i = 0; i < sizeof(preload_names) / sizeof(*preload_names); i++)
		if (strcmp(preload_names[i], name) == 0)
			return 1;
	return 0;
}

/* The real dlsym (glibc's, of its current version, else of the first). */
static void *(*preload_real_dlsym(void))(void *, const char *)
{
	static void *(*real)(void *, const char *);

	if (!real)
		*(void **)&real = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
	if (!real)
		*(void **)&real = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
	return real;
}

/* dlsym, as above.  (The last call must stay a tail call: see above;
 * tests/scenario/interp.sh fails if RTLD_NEXT lookups break.) */
__attribute__((optimize("optimize-sibling-calls")))
void *dlsym(void *handle, const char *name)
{
	void *self;

	/* (ours looked up in our own handle: its definitions come first) */
	if (preload_dlsym_ours(handle, name) && (self = preload_self()))
		handle = self;
	return preload_real_dlsym()(handle, name);
}
