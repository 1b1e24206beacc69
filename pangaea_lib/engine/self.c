/*
 * self.c: who this task is in its run.  Written once, when the task
 * joins (init.c) or the launcher becomes task 0 (task0.c); every layer
 * reads it through pg_me, none writes it.  One change comes later: a
 * what-if replay's task going free at its cut (replay.c) records from
 * then on, through pg_self_go_free.
 */
#include "engine.h"

static struct pg_self self;

const struct pg_self *const pg_me = &self;

struct pg_self *pg_self_edit(void)
{
	return &self;
}

void pg_self_go_free(void)
{
	if (self.mode == PANGAEA_MODE_REPLAY)
		self.mode = PANGAEA_MODE_RECORD;
}
