/*
 * pangaea-formats.h: the version of every format Pangaea writes or sends,
 * in one place.  Each reader accepts exactly its own version and refuses
 * any other with a message naming both (docs/FORMATS.md, section 5).
 *
 * Bump a version on ANY change of its format's layout or meaning: a new
 * field, record, message or line, a changed grammar or unit.
 */
#ifndef PANGAEA_FORMATS_H
#define PANGAEA_FORMATS_H

/* task-LTID.comm, the binary communication log (logs/format/commlog-*.c):
 * u32 after the magic.  4: the call record (queries, the mailbox,
 * pvm_exit); 5: the clock sample record; 6: a receive's filter (any
 * source, any tag) in its kind byte; 7: times in units of the header's
 * time unit, peers as indices into a table the log builds, message ids
 * that follow the previous one not stored; 8: the program's clock reads
 * and seeds (PG_REC_TIME, PG_REC_SEED); 9: the repeat record (a message
 * record with the peer, tag and length of the last one of its kind: a
 * kind byte, an id if not the expected one, two times); versions 3-8 are
 * still read. */
#define PG_COMM_VERSION 9

/* task-LTID.exec, the text execution log (logs/format/execlog.c): its first line
 * "pangaea-exec N ltid=L".  2: the launcher's "start" line (how the
 * programs of the command line were started); version 1 is still read. */
#define PG_EXEC_VERSION 2

/* stdin.log, the standard input the launcher gave a task of the run
 * (logs/format/stdinlog.c): its first line "pangaea-stdin N ltid=L".  2: the
 * task's ltid (-stdin); version 1 (no ltid: task 1) is still read. */
#define PG_STDIN_VERSION 2

/* output.log, what the tasks printed (logs/format/outlog.c): its first line
 * "pangaea-output N". */
#define PG_OUTPUT_VERSION 1

/* task-LTID.state, a task's blocking call for the deadlock check
 * (pangaea_lib/engine/state.c, toplevel/deadlock.c): u32 after the magic. */
#define PG_STATE_VERSION 1

/* run.info, the launcher's account of a run (logs/format/runinfo.c): its first
 * line "pangaea-run N".  2: the chaos-seed line; version 1 is still
 * read. */
#define PG_RUNINFO_VERSION 2

/* The messages between the library, the launcher and the coordinator
 * (pangaea_lib/pangaea-protocol.h, pangaea_lib/pvm/proto.c): the first int of
 * every message. */
#define PG_PROTOCOL_VERSION 11 /* 5: KILLING, KILLWAIT; 6: OUTPUT;
				 7: BEACON, LOGS_ASK, LOGFILE; 8: CLOCK;
				 9: DEBUG; 10: BEACON's send time,
				 HOSTADD; 11: HANDOVER's calibration */

/* The live stream, coordinator -> viewer (coordinator/viewers.c,
 * xview/viewlive.c): its first line "V pangaea-live N". */
#define PG_LIVE_VERSION 2 /* 2: a group event's COUNT is its op */

/* LOGDIR/trace.db, the trace database (logs/tracedb/tracedb.c): meta
 * 'schema_version'. */
#define TDB_SCHEMA_VERSION 4 /* 2: the output table; 3: events.t0_raw,
				 t1_raw and meta sync (synchronised times);
				 4: clocks (vector clocks) */

/* LOGDIR/hosts.added, the hosts the program added to the virtual machine
 * in mid-run (toplevel/hosts.c): its first line "pangaea-hosts-added N",
 * then a host name a line. */
#define PG_HOSTS_ADDED_VERSION 1

#endif /* PANGAEA_FORMATS_H */
