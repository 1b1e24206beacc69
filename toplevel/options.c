/*
 * options.c: the launcher's command line.
 *
 *   pangaea -log    [options] PROGRAM [ARGS...] [: PROGRAM [ARGS...]]...
 *   pangaea -replay [options] [PROGRAM [ARGS...] [: ...]]
 */
#include "launcher.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void la_usage(FILE *f)
{
	fputs("usage: pangaea -log    [options] PROGRAM [ARGS...] [: PROGRAM [ARGS...]]...\n"
	      "       pangaea -replay [options] [PROGRAM [ARGS...] [: ...]]\n"
	      "       pangaea -display [-logdir DIR]   (a recorded run's event graph)\n"
	      "       pangaea -hosts                   (the virtual machine's hosts)\n"
	      "       pangaea -explore [-budget N] [-timeout S] [-from LTID:EVENT] [-q]\n"
	      "                        [-logdir DIR] [PROGRAM [ARGS...]]\n"
	      "                        (other orders of DIR's races, what-if runs;\n"
	      "                        with PROGRAM, recorded into DIR first)\n"
	      "options:\n"
	      "  -logdir DIR   log folder (default ./pangaea-logs); for -replay, the recording\n"
	      "  -out DIR      -replay only: where the replay logs itself (default DIR.replay-N)\n"
	      "  -swap L:E=S:M -replay only, what if: task L's E-th event, a racing\n"
	      "                receive, gets message M of task S instead; the run\n"
	      "                goes free from there and -out is its recording\n"
	      "  -coord HOST   host of the coordinator (default: this host)\n"
	      "  -host HOST    host of the program's tasks\n"
	      "  -arch ARCH    or any host of architecture ARCH (e.g. LINUX64)\n"
	      "  -flags LIST   PVM spawn flags for the programs, comma-separated:\n"
	      "                debug, trace, mppfront, hostcompl (with -host)\n"
	      "  -n N          copies of each PROGRAM (default 1)\n"
	      "  -staged       start each ':' PROGRAM once the tasks of the one before\n"
	      "                wait in a PVM call (a receive...) or have ended\n"
	      "  -stagger MS   start each ':' PROGRAM MS milliseconds after the one before\n"
	      "                (-replay starts them as recorded)\n"
	      "  -stdin LTID   give the standard input to task LTID of the command\n"
	      "                line (default 1; -replay gives it as recorded)\n"
	      "  -delay USEC   random delay of 0..USEC before every wrapped PVM call\n"
	      "  -chaos        -log only: a chaos recording, made to surface rare message\n"
	      "                orders (per-task priorities, held-back wildcard receives;\n"
	      "                PANGAEA_SEED=S repeats its decisions)\n"
	      "  -select SPEC  log only some events: \"tag=N,.. ltid=N,.. program=NAME,..\"\n"
	      "                (-replay uses the recording's; giving another is refused)\n"
	      "  -logmode MODE the logs' mode, octal (default 0600; the folder gets\n"
	      "                an x bit for each r: 0640 makes it 0750)\n"
	      "  -view         show the run's event graph live (pangaea-view)\n"
	      "  -no-deadlock-stop  report a deadlock but let the run wait on\n"
	      "                (default: report it and end the run, exit 3)\n"
	      "  -debug LTID[:EVENT]  -replay only: task LTID runs under gdb, stopped\n"
	      "                before its EVENT-th recorded event (default: its first)\n"
	      "  -debug-batch FILE  with -debug: gdb -batch runs FILE's commands there\n"
	      "  -q            no status lines, only the program's output\n"
	      "  -h, --help    this text;  --version  the version\n", f);
}

void la_say(const struct la_opts *o, const char *fmt, ...)
{
	va_list ap;

	if (o->quiet)
		return;
	va_start(ap, fmt);
	fputs("pangaea: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void la_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	fputs("pangaea: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void la_note(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	fputs("pangaea: note: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* Finds NAME as the shell would (a path, or a search of $PATH) into OUT. */
static int find_program(const char *name, char *out)
{
	char try[PG_PATH_MAX], *path, *dir, *save = NULL;
	struct stat st;

	if (strchr(name, '/'))
		return realpath(name, out) && stat(out, &st) == 0 &&
		       S_ISREG(st.st_mode) && access(out, X_OK) == 0 ? 0 : -1;
	path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	for (dir = strtok_r(path, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(try, sizeof(try), "%s/%s", *dir ? dir : ".", name);
		if (stat(try, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(try, X_OK) == 0 && realpath(try, out)) {
			free(path);
			return 0;
		}
	}
	free(path);
	return -1;
}

/* Reads the programs ARGV[I..] into O (split at ":"); 0 or -1. */
static int parse_programs(int argc, char **argv, int i, struct la_opts *o)
{
	o->progs = calloc((size_t)argc, sizeof(*o->progs));
	while (i < argc) {
		struct la_prog *p = &o->progs[o->nprog++];
		int j = i + 1;

		if (strcmp(argv[i], ":") == 0) {
			la_error("empty program between ':' separators");
			return -1;
		}
		if (find_program(argv[i], p->path) < 0) {
			la_error("program not found or not executable: %s", argv[i]);
			return -1;
		}
		while (j < argc && strcmp(argv[j], ":") != 0)
			j++;
		p->argv = calloc((size_t)(j - i), sizeof(char *));
		for (int k = i + 1; k < j; k++)
			p->argv[k - i - 1] = argv[k];
		i = j + (j < argc);
		if (j < argc && i == argc) {
			la_error("':' must be followed by a program");
			return -1;
		}
	}
	return 0;
}

void la_opts_free(struct la_opts *o)
{
	for (int i = 0; o->progs && i < o->nprog; i++)
		if (!o->progs[i].recorded)
			free(o->progs[i].argv);
	free(o->progs);
	o->progs = NULL;
	o->nprog = 0;
	pg_exec_free(&o->recorded);
	free(o->swaps);
	free(o->cut_ltid);
	free(o->cut);
	o->swaps = NULL;
	o->cut_ltid = NULL;
	o->cut = NULL;
	o->nswap = o->ncut = 0;
}

/* Reads a positive integer option value; 0 or -1. */
static int int_arg(const char *opt, const char *s, int *out, int min)
{
	char *end;
	long v = s ? strtol(s, &end, 10) : 0;

	if (!s || *end || v < min || v > INT_MAX) {
		la_error("%s needs a number >= %d", opt, min);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* Parses -flags LIST ("debug,trace", PVM's names also do) into FLAGS;
 * 0, or -1 after saying which word is wrong. */
static int flags_arg(const char *list, int *flags)
{
	static const struct {
		const char *name, *pvm;
		int bit;
	} known[] = {
		{ "debug", "PvmTaskDebug", PvmTaskDebug },
		{ "trace", "PvmTaskTrace", PvmTaskTrace },
		{ "mppfront", "PvmMppFront", PvmMppFront },
		{ "hostcompl", "PvmHostCompl", PvmHostCompl },
	};
	char word[32];
	const char *p = list;

	*flags = 0;
	while (*p) {
		size_t n = strcspn(p, ","), k;

		snprintf(word, sizeof(word), "%.*s", (int)(n < 31 ? n : 31), p);
		for (k = 0; k < sizeof(known) / sizeof(known[0]); k++)
			if (strcasecmp(word, known[k].name) == 0 ||
			    strcmp(word, known[k].pvm) == 0)
				break;
		if (k == sizeof(known) / sizeof(known[0])) {
			la_error("-flags: unknown spawn flag '%s' (known: debug, "
				 "trace, mppfront, hostcompl)", word);
			return -1;
		}
		*flags |= known[k].bit;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* Reads -logmode's octal MODE (0600..0777, owner rw kept) into OUT;
 * 0 or -1. */
static int mode_arg(const char *s, int *out)
{
	char *end;
	long v = strtol(s, &end, 8);

	if (!*s || *end || v < 0 || v > 0777 || (v & 0600) != 0600) {
		la_error("-logmode needs an octal mode from 0600 to 0777 "
			 "(the owner keeps read and write), not %s", s);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* Adds the -swap value V (LTID:EVENT=SENDER:MSGID) to O; 0 or -1 (said). */
static int swap_arg(const char *v, struct la_opts *o)
{
	struct la_swap s, *n;
	unsigned long long e;
	unsigned m;
	int k = 0;

	if (sscanf(v, "%d:%llu=%d:%u%n", &s.ltid, &e, &s.sender, &m, &k) != 4 ||
	    v[k] || s.ltid < 1 || e < 1) {
		la_error("-swap needs LTID:EVENT=SENDER:MSGID (pangaea-trace "
			 "races lists them), not %s", v);
		return -1;
	}
	s.event = e;
	s.msgid = m;
	if (!(n = realloc(o->swaps, (size_t)(o->nswap + 1) * sizeof(*n))))
		return -1;
	o->swaps = n;
	o->swaps[o->nswap++] = s;
	return 0;
}

/* Reads -debug's LTID[:EVENT] into O; 0 or -1 (said). */
static int debug_arg(const char *s, struct la_opts *o)
{
	unsigned long long e = 0;
	char *end;
	long l = strtol(s, &end, 10);

	if (*end == ':' && end[1] >= '0' && end[1] <= '9')
		e = strtoull(end + 1, &end, 10);
	if (end == s || *end || l < 1 || l > INT_MAX ||
	    (strchr(s, ':') && e == 0)) {
		la_error("-debug needs LTID or LTID:EVENT (a task's logical id, "
			 "an event number from 1), not %s", s);
		return -1;
	}
	o->debug_ltid = (int)l;
	o->debug_event = e;
	return 0;
}

/* Handles option ARGV[*I] (advancing past its value); 0 or -1. */
static int parse_option(int argc, char **argv, int *i, struct la_opts *o)
{
	const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	int takes = 1, rc = 0;

	if (strcmp(a, "-log") == 0 || strcmp(a, "-replay") == 0) {
		o->mode = a[1] == 'l' ? PANGAEA_MODE_RECORD : PANGAEA_MODE_REPLAY;
		takes = 0;
	} else if (strcmp(a, "-q") == 0) {
		o->quiet = 1;
		takes = 0;
	} else if (strcmp(a, "-no-deadlock-stop") == 0) {
		o->no_deadlock_stop = 1;
		takes = 0;
	} else if (strcmp(a, "-chaos") == 0) {
		o->chaos = 1;
		takes = 0;
	} else if (strcmp(a, "-staged") == 0) {
		o->start = PG_START_STAGED;
		takes = 0;
	} else if (!v) {
		la_error("%s: %s", strcmp(a, "-logdir") && strcmp(a, "-out") &&
			 strcmp(a, "-coord") && strcmp(a, "-host") &&
			 strcmp(a, "-arch") && strcmp(a, "-flags") &&
			 strcmp(a, "-n") && strcmp(a, "-delay") &&
			 strcmp(a, "-select") && strcmp(a, "-logmode") &&
			 strcmp(a, "-stagger") && strcmp(a, "-stdin") &&
			 strcmp(a, "-swap") && strcmp(a, "-debug") &&
			 strcmp(a, "-debug-batch") ?
			 "unknown option" : "missing value for option", a);
		return -1;
	} else if (strcmp(a, "-logdir") == 0) {
		snprintf(o->logdir, sizeof(o->logdir), "%s", v);
	} else if (strcmp(a, "-out") == 0) {
		snprintf(o->outdir, sizeof(o->outdir), "%s", v);
	} else if (strcmp(a, "-coord") == 0) {
		o->coord_host = v;
	} else if (strcmp(a, "-host") == 0) {
		o->host = v;
	} else if (strcmp(a, "-arch") == 0) {
		o->arch = v;
	} else if (strcmp(a, "-flags") == 0) {
		rc = flags_arg(v, &o->spawn_flags);
	} else if (strcmp(a, "-swap") == 0) {
		rc = swap_arg(v, o);
	} else if (strcmp(a, "-n") == 0) {
		rc = int_arg(a, v, &o->ntask, 1);
	} else if (strcmp(a, "-logmode") == 0) {
		rc = mode_arg(v, &o->logmode);
	} else if (strcmp(a, "-delay") == 0) {
		rc = int_arg(a, v, &o->delay_us, 0);
	} else if (strcmp(a, "-stdin") == 0) {
		rc = int_arg(a, v, &o->stdin_ltid, 1);
	} else if (strcmp(a, "-stagger") == 0) {
		rc = int_arg(a, v, &o->start_ms, 0);
		o->start = PG_START_STAGGER;
	} else if (strcmp(a, "-debug") == 0) {
		rc = debug_arg(v, o);
	} else if (strcmp(a, "-debug-batch") == 0) {
		if (!realpath(v, o->debug_batch)) {
			la_error("-debug-batch: cannot read %s: %s", v,
				 strerror(errno));
			rc = -1;
		}
	} else if (strcmp(a, "-select") == 0) {
		struct pg_select sel;
		char err[256];

		rc = pg_select_parse(v, &sel, err, sizeof(err));
		if (rc < 0)
			la_error("-select: %s", err);
		else if (!sel.active && !sel.clock_off)
			o->select[0] = '\0';
		else if ((rc = pg_select_format(&sel, o->select,
						sizeof(o->select))) < 0)
			la_error("-select: too long: it must fit in %d "
				 "characters as tag=...,ltid=...,program=...",
				 (int)sizeof(o->select) - 1);
	} else {
		la_error("unknown option: %s", a);
		return -1;
	}
	*i += takes;
	return rc;
}

/* Keeps the command line as one string for run.info. */
static void keep_command(int argc, char **argv, struct la_opts *o)
{
	size_t n = 0;

	for (int i = 0; i < argc && n + 2 < sizeof(o->command); i++)
		n += (size_t)snprintf(o->command + n, sizeof(o->command) - n,
				      "%s%s", i ? " " : "", argv[i]);
}

/* PANGAEA_CHAOS: 1 turns chaos on, 0 or empty leaves it off; 0 or -1. */
static int chaos_env(struct la_opts *o)
{
	const char *env = getenv(PG_ENV_CHAOS);

	if (!env || !*env || strcmp(env, "0") == 0)
		return 0;
	if (strcmp(env, "1") != 0) {
		la_error("%s is 0 or 1, not \"%s\"", PG_ENV_CHAOS, env);
		return -1;
	}
	o->chaos = 1;
	return 0;
}

/* The delays' seed: PANGAEA_SEED if set, else one picked now; 0 or -1. */
static int seed_arg(struct la_opts *o)
{
	const char *env = getenv(PG_ENV_SEED);
	struct timespec ts;
	unsigned long v;
	char *end;

	if (env && *env) {
		errno = 0;
		v = strtoul(env, &end, 10);
		if (*end || errno || v > UINT_MAX) {
			la_error("%s needs a number from 0 to %u", PG_ENV_SEED,
				 UINT_MAX);
			return -1;
		}
		o->seed = (unsigned)v;
		return 0;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	o->seed = (unsigned)ts.tv_nsec ^ ((unsigned)getpid() << 16) ^
		  (unsigned)ts.tv_sec;
	return 0;
}

int la_parse(int argc, char **argv, struct la_opts *o)
{
	const char *env = getenv(PG_ENV_DELAY);
	int i;

	memset(o, 0, sizeof(*o));
	o->ntask = 1;
	snprintf(o->logdir, sizeof(o->logdir), "pangaea-logs");
	if ((env && int_arg(PG_ENV_DELAY, env, &o->delay_us, 0) < 0) ||
	    seed_arg(o) < 0 || chaos_env(o) < 0)
		return -1;
	keep_command(argc, argv, o);
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++)
		if (parse_option(argc, argv, &i, o) < 0)
			return -1;
	if (!o->mode) {
		la_error("say -log or -replay");
		return -1;
	}
	if (o->mode == PANGAEA_MODE_RECORD && i == argc) {
		la_error("-log needs a PROGRAM to run");
		return -1;
	}
	if (o->chaos && o->mode == PANGAEA_MODE_REPLAY) {
		la_say(o, "-chaos is ignored in a replay: the order comes from "
		       "the recording");
		o->chaos = 0;
	}
	if (o->outdir[0] && o->mode != PANGAEA_MODE_REPLAY) {
		la_error("-out is for -replay only");
		return -1;
	}
	if (o->nswap && o->mode != PANGAEA_MODE_REPLAY) {
		la_error("-swap is for -replay only");
		return -1;
	}
	if (o->start && o->mode == PANGAEA_MODE_REPLAY) {
		la_error("-staged and -stagger are for -log: a replay starts the "
			 "programs as they were recorded (task-0.exec)");
		return -1;
	}
	if (o->stdin_ltid && o->mode == PANGAEA_MODE_REPLAY) {
		la_error("-stdin is for -log: a replay gives the recorded input "
			 "to the task that read it (stdin.log)");
		return -1;
	}
	if (o->debug_ltid && o->mode != PANGAEA_MODE_REPLAY) {
		la_error("-debug is for -replay: it stops a replayed task at a "
			 "recorded event");
		return -1;
	}
	if (o->debug_batch[0] && !o->debug_ltid) {
		la_error("-debug-batch needs -debug LTID[:EVENT]");
		return -1;
	}
	if (o->debug_batch[0] && access(o->debug_batch, R_OK) != 0) {
		la_error("-debug-batch: cannot read %s: %s", o->debug_batch,
			 strerror(errno));
		return -1;
	}
	if (o->host && o->arch) {
		la_error("give -host or -arch, not both");
		return -1;
	}
	if ((o->spawn_flags & PvmHostCompl) && !o->host) {
		la_error("-flags hostcompl needs -host (it means: any host but that one)");
		return -1;
	}
	if (o->mode == PANGAEA_MODE_REPLAY && (o->host || o->arch ||
					       o->spawn_flags)) {
		la_error("-host, -arch and -flags are for -log: a replay spawns "
			 "as recorded (edit task-0.exec to move a task)");
		return -1;
	}
	if (parse_programs(argc, argv, i, o) < 0)
		return -1;
	if (o->stdin_ltid > o->nprog * o->ntask) {
		la_error("-stdin %d: the command line starts tasks 1 to %d",
			 o->stdin_ltid, o->nprog * o->ntask);
		return -1;
	}
	return 0;
}
