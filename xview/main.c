/*
 * main.c: pangaea-view's entry point.  Creates a Tcl interpreter with Tk,
 * registers the C commands and runs the viewer script (view.tcl, compiled
 * in), which reads the command line from ::argv:
 *
 *   pangaea-view [-script FILE] [-spawn] [-live DIR [-sock PATH]]
 *                [--show timeline|utilization|stats] [--range T0:T1]
 *                [--snapshot FILE.png] [-early] [LOGDIR | TRACE.db]
 */
#include "view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tk.h>

/* Prints the usage to F. */
static void view_usage(FILE *f)
{
	fputs("usage: pangaea-view [options] [LOGDIR | TRACE.db]\n"
	      "  LOGDIR       a run's log folder (imported into LOGDIR/trace.db if needed)\n"
	      "  -spawn       open the spawn dialog at start\n"
	      "  -live DIR    follow the run logging into DIR (as `pangaea -view` does)\n"
	      "  -sock PATH   with -live: take its events from the coordinator's socket\n"
	      "  --show timeline|utilization|stats  open that view (utilization, stats:\n"
	      "               the graph with the utilization or task states pane)\n"
	      "  --range T0:T1  show that time range (from the run's start; ms, or\n"
	      "               with a unit ns, us, ms, s: 0.5s:1.2s)\n"
	      "  --snapshot FILE.png  draw the view, write it to FILE.png, exit\n"
	      "  -script FILE evaluate the Tcl FILE once the window is up and the\n"
	      "               background import is over (tests)\n"
	      "  -early       with -script: evaluate it once the first picture is\n"
	      "               drawn (and its races and clock found), not waiting\n"
	      "               for the import\n"
	      "  -h, --help   this text\n", f);
}

/* Sets ::argv to ARGV[1..] and ::argv0 to ARGV[0] in IP. */
static void view_set_argv(Tcl_Interp *ip, int argc, char **argv)
{
	Tcl_Obj *list = Tcl_NewListObj(0, NULL);

	for (int i = 1; i < argc; i++)
		Tcl_ListObjAppendElement(NULL, list, Tcl_NewStringObj(argv[i], -1));
	Tcl_SetVar2Ex(ip, "argv", NULL, list, TCL_GLOBAL_ONLY);
	Tcl_SetVar2Ex(ip, "argc", NULL, Tcl_NewIntObj(argc - 1), TCL_GLOBAL_ONLY);
	Tcl_SetVar2Ex(ip, "argv0", NULL, Tcl_NewStringObj(argv[0], -1),
		      TCL_GLOBAL_ONLY);
}

int main(int argc, char **argv)
{
	Tcl_Interp *ip;

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			view_usage(stdout);
			return 0;
		}
	Tcl_FindExecutable(argv[0]);
	ip = Tcl_CreateInterp();
	/* Tk_Init parses ::argv for its own options: give it none */
	Tcl_SetVar2(ip, "argv", NULL, "", TCL_GLOBAL_ONLY);
	if (Tcl_Init(ip) != TCL_OK || Tk_Init(ip) != TCL_OK) {
		fprintf(stderr, "pangaea-view: %s\n", Tcl_GetStringResult(ip));
		return 1;
	}
	pgdb_init(ip);
	view_set_argv(ip, argc, argv);
	if (Tcl_Eval(ip, view_tcl_source) != TCL_OK) {
		const char *info = Tcl_GetVar2(ip, "errorInfo", NULL, TCL_GLOBAL_ONLY);

		fprintf(stderr, "pangaea-view: %s\n", info ? info : Tcl_GetStringResult(ip));
		return 1;
	}
	Tk_MainLoop();
	/* the window went without exit (view.tcl's): its import too */
	(void)Tcl_Eval(ip, "view::import_cancel");
	Tcl_DeleteInterp(ip);
	return 0;
}
