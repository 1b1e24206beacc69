/*
 * checkutil.h: helpers shared by the Check unit suites (the check_*.c of
 * tests/unit/lib and tests/unit/tools):
 * a temporary folder per test case and per test, and the runner main().
 */
#ifndef PANGAEA_CHECKUTIL_H
#define PANGAEA_CHECKUTIL_H

#include "pangaea-logs.h"

#include <check.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The current test's own empty folder (set by cku_setup). */
extern char cku_dir[PATH_MAX];

/* Removes PATH and everything below it; does nothing for "". */
void cku_rm_rf(const char *path);

/* Unchecked fixture (runner process): makes the case's base folder
 * /tmp/<program>.XXXXXX; exits the program if it cannot. */
void cku_base_setup(void);

/* Unchecked fixture: removes the base folder, even after failed tests. */
void cku_base_teardown(void);

/* Checked fixture (each test): makes cku_dir, a fresh folder in the base. */
void cku_setup(void);

/* Checked fixture: removes cku_dir and what the test left in it. */
void cku_teardown(void);

/* Adds the four fixtures above to TC: a fresh cku_dir for every test. */
void cku_add_tmp_fixtures(TCase *tc);

/* Writes cku_dir/NAME into BUF of N bytes and returns BUF; fails the
 * test if it does not fit. */
const char *cku_in_dir(char *buf, size_t n, const char *name);

/* Writes the N bytes TEXT to the file PATH (made or emptied); fails the
 * test if it cannot. */
void cku_spit(const char *path, const char *text, size_t n);

/* Runs every test of S, prints Check's summary and frees the runner;
 * returns EXIT_SUCCESS if none failed, else EXIT_FAILURE. */
int cku_run(Suite *s);

/* An event of KIND with PEER, TAG, MSGID at T_US us, D_US us long (len
 * 8, the rest 0), for the suites that write synthetic logs. */
struct pg_event cku_event(int kind, int peer, int tag, unsigned msgid,
			  unsigned t_us, unsigned d_us);

/* Writes DIR/task-FILE.comm holding the N events EV, event i at
 * (i + 1) * TSTEP ns and, if DUR, DUR ns long (else as EV says), with a
 * header naming task LTID (tid 0x40000 + LTID, parent LTID / 1000, host
 * "vm", program "/bin/prog", record mode; FILE and LTID differ only to
 * plant a swap); the file's size.  Fails the test if it cannot. */
off_t cku_comm_in(const char *dir, int file, int ltid,
		  const struct pg_event *ev, int n, uint64_t tstep,
		  uint64_t dur);

/* cku_comm_in in cku_dir, events 1 us apart, their own durations. */
void cku_write_comm(int file, int ltid, const struct pg_event *ev, int n);
/* The comm log version cku_comm_in and cku_write_comm write (0: the
 * current). */
extern uint32_t cku_comm_version;

/* Writes cku_dir/task-LTID.exec with one spawn (sequence 1, program
 * "/bin/prog", on host "vm") of the N (at most 8) tasks KIDS, or no
 * spawn when N is 0; fails the test if it cannot. */
void cku_write_exec(int ltid, const int *kids, int n);

#endif
