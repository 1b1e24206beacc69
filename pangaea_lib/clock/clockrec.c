/*
 * clockrec.c: the decision for each clock read and seed of the program
 * (real, recorded, replayed), its record in the communication log
 * (PG_REC_TIME, PG_REC_SEED) and, in replay, the cursor that hands the
 * recorded ones back in their order.
 *
 * The cursor is a reader of its own over the recorded log that returns
 * only these records: reads are replayed in their order among themselves,
 * not checked against the messages' (the pending poll count is written
 * after them, docs/FORMATS.md).  A read past the recorded ones, or of
 * another source, is a divergence: the task stops, as at a message
 * (docs/INTERNALS.md, "Clock reads and seeds").  A what-if's or an
 * exploration's task gone free records again (pg_self_go_free): the real
 * clock from its cut on.
 */
#include "pangaea-clock.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

__thread int pg_clk_depth __attribute__((tls_model("initial-exec")));
void (*pg_clk_join_hook)(void);

#define CLK_LIBS 16
#define CLK_RANGES 32

static int join_tried;
/* the thread that joined the run: the only one whose reads are logged */
static pthread_t owner;
static int owned;
/* the libraries whose reads are theirs, and their code once found */
static const char *libs[CLK_LIBS];
static int nlibs, ranges_for = -1, nranges;
static uintptr_t range_lo[CLK_RANGES], range_hi[CLK_RANGES];
/* replay: the cursor over the recorded log */
static struct pg_comm_reader cur;
static int cur_open, cur_broken, cur_past_end;
static uint64_t replayed;

int pg_clk_exclude_lib(const char *prefix)
{
	for (int i = 0; i < nlibs; i++)
		if (strcmp(libs[i], prefix) == 0)
			return 0;
	if (nlibs >= CLK_LIBS)
		return -1;
	libs[nlibs++] = prefix;
	return 0;
}

/* dl_iterate_phdr's callback: notes the loaded segments of an object
 * whose base name starts with one of the names. */
static int find_ranges(struct dl_phdr_info *info, size_t size, void *arg)
{
	const char *base = strrchr(info->dlpi_name, '/');

	(void)size;
	(void)arg;
	base = base ? base + 1 : info->dlpi_name;
	for (int i = 0; i < nlibs; i++) {
		if (strncmp(base, libs[i], strlen(libs[i])) != 0)
			continue;
		for (int j = 0; j < info->dlpi_phnum && nranges < CLK_RANGES;
		     j++) {
			const ElfW(Phdr) *ph = &info->dlpi_phdr[j];

			if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
				continue;
			range_lo[nranges] = info->dlpi_addr + ph->p_vaddr;
			range_hi[nranges++] = info->dlpi_addr + ph->p_vaddr +
					      ph->p_memsz;
		}
	}
	return 0;
}

int pg_clk_from_excluded(const void *ret)
{
	uintptr_t a = (uintptr_t)ret;

	if (!nlibs)
		return 0;
	if (ranges_for != nlibs) {
		nranges = 0;
		ranges_for = nlibs;
		pg_clk_depth++;
		dl_iterate_phdr(find_ranges, NULL);
		pg_clk_depth--;
	}
	for (int i = 0; i < nranges; i++)
		if (a >= range_lo[i] && a < range_hi[i])
			return 1;
	return 0;
}

/* dl_iterate_phdr's callback for the main program (the first object):
 * sets *(int *)ARG[1] when one of its DT_NEEDED names starts with the
 * prefix ARG[0]; stops after it. */
static int find_needed(struct dl_phdr_info *info, size_t size, void *arg)
{
	void **a = arg;
	const char *prefix = a[0];
	const ElfW(Dyn) *dyn = NULL;
	uintptr_t strtab = 0;

	(void)size;
	for (int j = 0; j < info->dlpi_phnum; j++)
		if (info->dlpi_phdr[j].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(info->dlpi_addr +
						  info->dlpi_phdr[j].p_vaddr);
	for (const ElfW(Dyn) *d = dyn; d && d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_STRTAB)
			strtab = d->d_un.d_ptr;
	if (!strtab)
		return 1;
	/* (the dynamic linker has relocated it in place, or not) */
	if (strtab < info->dlpi_addr)
		strtab += info->dlpi_addr;
	for (const ElfW(Dyn) *d = dyn; d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_NEEDED &&
		    strncmp((const char *)strtab + d->d_un.d_val, prefix,
			    strlen(prefix)) == 0)
			*(int *)a[1] = 1;
	return 1;
}

int pg_clk_main_needs(const char *prefix)
{
	int found = 0;
	void *arg[2] = { (void *)prefix, &found };

	dl_iterate_phdr(find_needed, arg);
	return found;
}

void pg_clk_task_thread(void)
{
	owner = pthread_self();
	owned = 1;
}

enum pg_clk_how pg_clk_enter(void)
{
	enum pg_clk_how how;

	if (pg_clk_depth)
		return PG_CLK_REAL;
	if (owned && !pthread_equal(owner, pthread_self()))
		return PG_CLK_REAL; /* another thread: its order is not ours */
	if (!pg_me->mode) {
		if (join_tried || !pg_clk_join_hook)
			return PG_CLK_REAL;
		join_tried = 1; /* a read before the layer's first call */
		pg_clk_depth++;
		pg_clk_join_hook();
		pg_clk_depth--;
		if (!pg_me->mode)
			return PG_CLK_REAL;
	}
	if (!pg_select_clock())
		return PG_CLK_REAL;
	if (pg_me->mode == PANGAEA_MODE_RECORD)
		how = PG_CLK_RECORD;
	else if (pg_me->mode == PANGAEA_MODE_REPLAY && !cur_broken &&
		 pg_replay_log_version() >= 8)
		how = PG_CLK_REPLAY;
	else
		return PG_CLK_REAL; /* a recording without clock reads */
	pg_clk_depth++;
	return how;
}

void pg_clk_leave(enum pg_clk_how how)
{
	if (how != PG_CLK_REAL)
		pg_clk_depth--;
}

void pg_clk_record(const struct pg_value *v)
{
	pg_log_value(v);
}

/* What V is, in words, into BUF ("gettimeofday", "getrusage(0)"). */
static void describe_call(const struct pg_value *v, char *buf, size_t n)
{
	const char *name = pg_value_src_name(v->kind, v->src);

	if (v->kind == PG_REC_TIME && v->src == PG_TIME_CLOCKID &&
	    v->arg == PG_CLOCKID_MPI_WTIME)
		snprintf(buf, n, "MPI_Wtime");
	else if (v->kind == PG_REC_TIME &&
	    (v->src == PG_TIME_CLOCKID || v->src == PG_TIME_RUSAGE))
		snprintf(buf, n, "%s(%d)", name, v->arg);
	else
		snprintf(buf, n, "%s", name);
}

/* Stops the task at a divergence of its read V: WHAT the log has. */
static void clk_diverged(const struct pg_value *v, const char *what)
{
	char call[64];

	describe_call(v, call, sizeof(call));
	pg_replay_diverge("clock read or seed %llu: %s; the program called %s",
			  (unsigned long long)replayed + 1, what, call);
	pg_task_diverged();
}

/* Opens the cursor over this task's recorded log; 0, or -1 (said). */
static int cursor_open(void)
{
	char path[PG_PATH_MAX], err[512];

	if (pg_log_path(path, sizeof(path), pg_me->replaydir, pg_me->ltid,
			"comm") < 0 ||
	    pg_comm_open(&cur, path, err, sizeof(err)) < 0) {
		cur_broken = 1;
		return -1;
	}
	cur.values = 1;
	cur_open = 1;
	return 0;
}

int pg_clk_replay(struct pg_value *v)
{
	struct pg_event ev;
	char err[512], want[160];
	int r;

	if (!cur_open && cursor_open() < 0) {
		clk_diverged(v, "the recorded log cannot be read");
		return -1;
	}
	/* the reads before the recorded end record go to the task before
	   its end, those after it after (the ones a task that ended
	   sooner did not make are passed over) */
	do {
		r = pg_comm_next(&cur, &ev, err, sizeof(err));
		if (r > 0 && ev.kind == PG_REC_END)
			cur_past_end = 1;
	} while (r > 0 && ((ev.kind != PG_REC_TIME && ev.kind != PG_REC_SEED) ||
			   (pg_log_ended() && !cur_past_end)));
	if (r > 0 && cur_past_end && !pg_log_ended())
		r = 0; /* a read after the recorded end: none left before */
	if (r < 0) {
		snprintf(want, sizeof(want), "the log cannot be read further "
			 "(%.100s)", err);
		clk_diverged(v, want);
		return -1;
	}
	if (r == 0 && pg_log_ended())
		return -1; /* after the task's end: the real clock */
	if (r == 0) {
		snprintf(want, sizeof(want), "the log has no more%s (%llu "
			 "recorded)", cur_past_end ? " before the task's end"
			 : "", (unsigned long long)replayed);
		clk_diverged(v, want);
		return -1;
	}
	if (ev.kind != v->kind || ev.op != v->src ||
	    ((ev.op == PG_TIME_CLOCKID || ev.op == PG_TIME_RUSAGE) &&
	     ev.kind == PG_REC_TIME && ev.arg != v->arg)) {
		char d[128];

		pg_value_describe(&ev, d, sizeof(d));
		snprintf(want, sizeof(want), "the log expects %s", d);
		clk_diverged(v, want);
		return -1;
	}
	replayed++;
	v->status = ev.result;
	for (int i = 0; i < ev.nvals && i < PG_VALUES_MAX; i++)
		v->v[i] = ev.vals[i];
	v->nblob = ev.nblob;
	v->blob = ev.blob;
	return 0;
}

uint64_t pg_clk_replayed(void)
{
	return replayed;
}
