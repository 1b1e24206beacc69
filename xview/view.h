/*
 * view.h: pangaea-view, the Tk event-graph viewer.  C does what Tcl would
 * do slowly (reading the trace database for one time window, summarising
 * millions of events); the Tcl script view.tcl draws and handles the user.
 */
#ifndef PANGAEA_VIEW_H
#define PANGAEA_VIEW_H

#include <tcl.h>

/* The Tcl source of the viewer, made from view.tcl at build time. */
extern const char view_tcl_source[];

/* Registers the `pgdb` command (the trace database, xview/pgdb.c) in
 * INTERP; TCL_OK. */
int pgdb_init(Tcl_Interp *interp);

#endif /* PANGAEA_VIEW_H */
