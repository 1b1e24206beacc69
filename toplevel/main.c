/*
 * main.c: pangaea, the launcher and top-level task of a Pangaea run.
 */
#include "launcher.h"

#include <stdlib.h>
#include <string.h>

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
	if (argc > 1 && strcmp(argv[1], "-explore") == 0)
		return la_explore(argc, argv);
	view = la_view_strip(&argc, argv);
	if (la_parse(argc, argv, &o) < 0) {
		la_usage(stderr);
		la_opts_free(&o);
		return LA_SETUP;
	}
	if (view && la_view_start(&o) < 0) {
		la_opts_free(&o);
		return LA_SETUP;
	}
	status = la_run(&o);
	la_opts_free(&o);
	return status;
}
