/*
 * main.c: pangaea, the launcher and top-level task of a Pangaea run.
 */
#include "launcher.h"

#include <stdlib.h>
#include <string.h>

/* The first program's name as the command line ARGV gave it (mpirun's
 * path resolves to orterun), else its path in O. */
static const char *argv_word(int argc, char **argv, const struct la_opts *o)
{
	const char *b = strrchr(o->progs[0].path, '/');

	for (int i = 1; i < argc; i++)
		if (pg_mpi_launcher(argv[i]))
			return argv[i];
	return b ? b + 1 : o->progs[0].path;
}

int main(int argc, char **argv)
{
	struct la_opts o;
	int status, view;

	pg_pvm_stand_aside(); /* not a task, even under a user's LD_PRELOAD */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && (strcmp(argv[1], "-h") == 0 ||
			 strcmp(argv[1], "--help") == 0)) {
		la_usage(stdout);
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		printf("pangaea %s\n", PANGAEA_VERSION);
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "-display") == 0)
		return la_view_display(argc, argv);
	if (argc == 2 && strcmp(argv[1], "-hosts") == 0)
		return la_view_hosts();
	if (argc > 1 && strcmp(argv[1], "-explore") == 0) {
		for (int i = 2; i < argc; i++)
			if (pg_mpi_launcher(argv[i])) {
				/* (its what-if replays, -swap, are not there) */
				la_error("-explore: not supported for MPI "
					 "programs yet");
				return LA_SETUP;
			}
		return la_explore(argc, argv);
	}
	view = la_view_strip(&argc, argv);
	if (la_parse(argc, argv, &o) < 0) {
		la_usage(stderr);
		la_opts_free(&o);
		return LA_SETUP;
	}
	if ((o.nprog && pg_mpi_launcher(argv_word(argc, argv, &o))) ||
	    (!o.nprog && o.mode == PANGAEA_MODE_REPLAY &&
	     la_mpi_recording(o.logdir))) {
		/* (no virtual machine; the live view from the logs) */
		status = view && la_view_start(&o) < 0 ? LA_SETUP :
			 la_mpi_run(&o);
		la_opts_free(&o);
		return status;
	}
	if (view && la_view_start(&o) < 0) {
		la_opts_free(&o);
		return LA_SETUP;
	}
	status = la_run(&o);
	la_opts_free(&o);
	return status;
}
