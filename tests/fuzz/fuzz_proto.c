/*
 * fuzz_proto.c: libFuzzer harness of the protocol unpackers
 * (pangaea_lib/pvm/proto.c pg_proto_check, pg_proto_upk*) as the coordinator
 * (coordinator/main.c, with its registry, coordinator/registry.c) and the
 * launcher (toplevel/run.c handle(), with its table of tasks,
 * toplevel/tasks.c, and its readers of WATCH and of PVM's trace events,
 * toplevel/death.c la_death_watch, la_death_trace) call them on the
 * messages they receive.
 *
 * The input is a sequence of messages, each: one byte choosing the tag
 * (its value modulo the number of tags below), two bytes of length (little
 * endian), then that many bytes (fewer at the end of the input): the
 * message's contents as they arrive, XDR as pvm_initsend(PvmDataDefault)
 * packs them (ints big endian; PVM pads the bytes to a multiple of 4).
 * Each becomes a real libpvm receive buffer (pvm_mkbuf, pvm_pkbyte,
 * pvm_setminfo for its tag and source, pvm_setrbuf) without a pvmd, and
 * is handled as the receiver would, in one registry kept across the
 * messages (replies, which need a pvmd, are left out).
 *
 * libpvm looks for a pvmd at every call and says so on stderr: the
 * harness names a virtual machine that does not exist (PVM_VMID) so it
 * never joins a real one; run it with -close_fd_mask=2 (tests/fuzz/run.sh
 * does).
 */
#include "fuzzutil.h"
#include "pangaea-protocol.h"
#include "../../coordinator/coord.h"
#include "../../toplevel/launcher.h"

#include <dirent.h>
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The tags the coordinator and the launcher handle. */
static const int tags[] = {
	PG_TAG_REGISTER, PG_TAG_SPAWNED, PG_TAG_TID2LTID, PG_TAG_LTID2TID,
	PG_TAG_EVENTS, PG_TAG_DONE, PG_TAG_EXITED, PG_TAG_DIVERGED,
	PG_TAG_QUIT, PG_TAG_HELLO, PG_TAG_LOGFAIL, PG_TAG_WATCH, PG_TAG_ENDTASK,
	PG_TAG_LOGFILE, PG_TAG_CLOCK
};
#define NTAGS ((int)(sizeof(tags) / sizeof(tags[0])))
#define SRC_TID 0x40002 /* the sender every message claims */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char vmid[64];

	/* a virtual machine of no one: libpvm can never find its pvmd */
	snprintf(vmid, sizeof(vmid), "pangaea-fuzz-none-%ld", (long)getpid());
	setenv("PVM_VMID", vmid, 1);
	setenv("PVM_ALLOW_ROOT", "1", 1);
	return 0;
}

/* Makes the N bytes at P the active receive buffer, a message of TAG from
 * SRC_TID; its bufid (aborts if libpvm refuses: nothing would be tested). */
static int make_message(const uint8_t *p, size_t n, int tag)
{
	struct pvmminfo mi;
	int b = pvm_mkbuf(PvmDataDefault), old = pvm_setsbuf(b);

	if (b <= 0 || (n > 0 && pvm_pkbyte((char *)p, (int)n, 1) < 0) ||
	    pvm_getminfo(b, &mi) < 0) {
		fprintf(stderr, "fuzz: libpvm cannot make a message buffer\n");
		abort();
	}
	pvm_setsbuf(old);
	mi.tag = tag;
	mi.src = SRC_TID;
	pvm_setminfo(b, &mi);
	pvm_setrbuf(b);
	return b;
}

/* What the messages change: the coordinator's registry, the launcher's
 * run (its tasks, watches, early ends). */
struct receivers {
	struct coord_registry reg;
	struct la_opts opts;
	struct la_run run;
	struct pg_logship_writer ship;
};

/* SPAWNED as the coordinator and the launcher read it: the head, then
 * each task, added to the registry (its waiters answered) and to the
 * launcher's tasks. */
static void on_spawned(struct receivers *rc)
{
	struct coord_registry *reg = &rc->reg;
	struct pg_spawned_task t;
	int parent, n, who[32];

	if (pg_proto_upk_spawned(&parent, &n) < 0)
		return;
	for (int i = 0; i < n; i++) {
		if (pg_proto_upk_spawned_task(&t) < 0)
			return;
		if (!memchr(t.host, 0, sizeof(t.host)) ||
		    !memchr(t.program, 0, sizeof(t.program))) {
			fprintf(stderr, "fuzz: SPAWNED string not ended\n");
			abort();
		}
		coord_registry_add(reg, t.ltid, t.tid);
		while (coord_registry_take_waiters(reg, t.ltid, who, 32) == 32)
			;
		la_task_add(&rc->run, t.ltid, t.tid, t.host, t.program);
	}
}

/* EVENTS as the coordinator reads it for its viewers. */
static void on_events(void)
{
	struct pg_live_head h;
	int *ints, n;

	if (pg_proto_upk_events(&h, &ints, &n) < 0) {
		if (ints) {
			fprintf(stderr, "fuzz: EVENTS refused, ints kept\n");
			abort();
		}
		return;
	}
	if (n < 0 || !ints || !memchr(h.host, 0, sizeof(h.host)) ||
	    !memchr(h.program, 0, sizeof(h.program))) {
		fprintf(stderr, "fuzz: EVENTS accepted inconsistent\n");
		abort();
	}
	free(ints);
}

static char ship_dir[64]; /* on_logfile's folder */

/* At exit: removes on_logfile's folder and what is in it. */
static void remove_ship_dir(void)
{
	DIR *d = opendir(ship_dir);
	struct dirent *e;
	char path[128];

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			snprintf(path, sizeof(path), "%s/%s", ship_dir, e->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	rmdir(ship_dir);
}

/* LOGFILE as the launcher and a beacon take it (pangaea_lib/pvm/ship.c):
 * into a folder of the harness's own, emptied after each input and
 * removed at exit; no piece may put a file anywhere else, nor one not
 * named as a task log. */
static void on_logfile(struct pg_logship_writer *w)
{
	char *dir = ship_dir, err[PG_PATH_MAX + 100], **names;
	int end, n;

	if (!dir[0]) {
		snprintf(ship_dir, sizeof(ship_dir), "/tmp/fuzz-logship.XXXXXX");
		if (!mkdtemp(ship_dir))
			abort();
		atexit(remove_ship_dir);
	}
	pg_ship_take(w, dir, &end, err, sizeof(err));
	if (pg_logship_list(dir, &names, &n) == 0) {
		for (int i = 0; i < n; i++) {
			char path[128];

			if (!pg_logship_name_ok(names[i])) {
				fprintf(stderr, "fuzz: wrote %s\n", names[i]);
				abort();
			}
			if (w->fd < 0) { /* keep the folder small */
				snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
				unlink(path);
			}
		}
		pg_logship_free(names, n);
	}
}

/* Handles the message in the active receive buffer BUFID as its receiver
 * would (replies, kills and what is printed left out). */
static void handle(struct receivers *rc, int bufid)
{
	struct coord_registry *reg = &rc->reg;
	struct la_task *t;
	char report[1400];
	int v[3], who[32], tag, src, version, tid;

	if (pg_proto_check(bufid, &tag, &src, &version) < 0)
		return;
	switch (tag) {
	case PG_TAG_REGISTER:
		if (pg_proto_upk(tag, v) == 0) {
			coord_registry_add(reg, v[0], v[1]);
			while (coord_registry_take_waiters(reg, v[0], who,
							   32) == 32)
				;
		}
		break;
	case PG_TAG_SPAWNED:
		on_spawned(rc);
		break;
	case PG_TAG_TID2LTID:
		if (pg_proto_upk(tag, v) == 0)
			coord_registry_ltid(reg, v[0]);
		break;
	case PG_TAG_LTID2TID:
		if (pg_proto_upk(tag, v) == 0 &&
		    !(tid = coord_registry_tid(reg, v[0])))
			coord_registry_wait(reg, src, v[0]);
		break;
	case PG_TAG_EVENTS:
		on_events();
		break;
	case PG_TAG_DIVERGED:
		if (pg_proto_upk_diverged(&v[0], report, sizeof(report)) == 0 &&
		    !memchr(report, 0, sizeof(report))) {
			fprintf(stderr, "fuzz: DIVERGED report not ended\n");
			abort();
		}
		break;
	case PG_TAG_EXITED:
		if (pg_proto_upk(tag, v) == 0 &&
		    (t = la_task_by_tid(&rc->run, v[0])))
			la_death_gone(&rc->run, t);
		break;
	case PG_TAG_DONE:
		if (pg_proto_upk(tag, v) == 0 &&
		    (t = la_task_by_ltid(&rc->run, v[0]))) {
			t->done_how = v[1];
			t->done_value = v[2];
		}
		break;
	case PG_TAG_LOGFAIL:
		if (pg_proto_upk(tag, v) == 0)
			la_task_by_ltid(&rc->run, v[0]);
		break;
	case PG_TAG_WATCH:
		la_death_watch(&rc->run);
		break;
	case PG_TAG_ENDTASK:
		la_death_trace(&rc->run);
		break;
	case PG_TAG_LOGFILE:
		on_logfile(&rc->ship);
		break;
	default: /* QUIT, HELLO, CLOCK: fixed ints */
		pg_proto_upk(tag, v);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct receivers rc;
	size_t pos = 0;

	memset(&rc, 0, sizeof(rc));
	coord_registry_init(&rc.reg);
	rc.run.o = &rc.opts;
	rc.run.lost_pvmd = 1; /* (la_task_add asks no pvmd for the pid) */
	rc.ship.fd = -1;
	while (pos + 3 <= size) {
		int tag = tags[data[pos] % NTAGS];
		size_t n = (size_t)data[pos + 1] | (size_t)data[pos + 2] << 8;
		int b;

		pos += 3;
		if (n > size - pos)
			n = size - pos;
		b = make_message(data + pos, n, tag);
		pos += n;
		handle(&rc, b);
		pvm_setrbuf(0);
		pvm_freebuf(b);
	}
	coord_registry_free(&rc.reg);
	la_tasks_free(&rc.run);
	pg_logship_close(&rc.ship);
	return 0;
}
