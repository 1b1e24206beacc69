/*
 * self.c: who this task is in its run.  Written once, when the task
 * joins (init.c) or the launcher becomes task 0 (task0.c); every layer
 * reads it through pg_me, none writes it.
 */
#include "pangaea-internal.h"

static struct pg_self self;

const struct pg_self *const pg_me = &self;

struct pg_self *pg_self_edit(void)
{
	return &self;
}
