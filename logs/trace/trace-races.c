/*
 * trace-races.c: "pangaea-trace races [--json|--csv] LOGDIR" lists the
 * racing events of a recording (logs/analysis/races.c over
 * logs/analysis/happens-before.c): each receive, poll or pvm_joingroup that
 * another order of the run could have given another outcome, with the
 * alternatives, then the summary line "N racing receives in M tasks, K
 * alternatives" and, if K > 0, how many of them can be swapped in: what
 * `pangaea -replay -swap` accepts and `pangaea -explore` counts and tries
 * (a poll's "nothing", a failed poll, a join, a probe, a message with no
 * logged send are races, but no message to hand over).  Exit 0 whether
 * there are races or not, 1 when the logs cannot be read.
 */
#include "trace.h"
#include "whatif.h"

#include <stdio.h>
#include <string.h>

enum races_fmt { RACES_TEXT, RACES_JSON, RACES_CSV };

/* The call of race X as NM names it ("pvm_recv", "MPI_Recv", "failed
 * polls") into BUF. */
static const char *races_call(const struct pg_names *nm,
			      const struct pg_race *x, char *buf, size_t n)
{
	int call = pg_call_of(x->kind, x->what == PG_RACE_JOIN ?
					       PG_GROUP_JOIN : 0);

	if (x->kind == PG_REC_POLLFAIL || !pg_call_name(nm, call, buf, n))
		snprintf(buf, n, "%s", "failed polls");
	return buf;
}

/* A sender in words: its ltid, "foreign", "pvmd" or "nothing". */
static const char *races_who(int ltid, char *buf, size_t n)
{
	if (ltid == PG_PEER_FOREIGN)
		return "foreign";
	if (ltid == PG_PEER_SYSTEM)
		return "pvmd";
	if (ltid == PG_RACE_NOTHING)
		return "nothing";
	snprintf(buf, n, "%d", ltid);
	return buf;
}

/* Prints race X as text: what the event got, then its alternatives. */
static void races_text(const struct pg_names *nm, const struct pg_race *x)
{
	char call[64], who[16];

	printf("task %d event %ld %s ", x->ltid, x->event,
	       races_call(nm, x, call, sizeof(call)));
	if (x->what == PG_RACE_JOIN)
		printf("got instance %d", x->tag);
	else if (x->what == PG_RACE_POLLFAIL)
		printf("got nothing (%u failed)", x->msgid);
	else if (x->peer == PG_PEER_SYSTEM && x->msgid)
		printf("got pvmd:%u tag %d (a notice about task %u)", x->msgid,
		       x->tag, x->msgid - 1);
	else
		printf("got %s:%u tag %d", races_who(x->peer, who, sizeof(who)),
		       x->msgid, x->tag);
	printf("; alternatives:");
	for (int k = 0; k < x->nalt; k++) {
		const struct pg_race_alt *a = &x->alts[k];

		if (a->sender == PG_RACE_NOTHING)
			printf(" nothing");
		else if (x->what == PG_RACE_JOIN)
			printf(" %d (instance %d, its event %ld)", a->sender,
			       a->tag, a->send_event);
		else if (a->sender == PG_PEER_SYSTEM && a->msgid)
			printf(" pvmd:%u (tag %d, a notice about task %u)",
			       a->msgid, a->tag, a->msgid - 1);
		else if (a->send_event)
			printf(" %s:%u (tag %d, sent at its event %ld)",
			       races_who(a->sender, who, sizeof(who)),
			       a->msgid, a->tag, a->send_event);
		else
			printf(" %s:%u (tag %d)",
			       races_who(a->sender, who, sizeof(who)),
			       a->msgid, a->tag);
		printf("%s", k + 1 < x->nalt ? "," : "\n");
	}
}

/* Prints race X as a JSON object (FIRST: no comma before it). */
static void races_json(const struct pg_names *nm, const struct pg_race *x,
		       int first)
{
	char call[64];

	printf("%s  {\"task\": %d, \"event\": %ld, \"what\": \"%s\", "
	       "\"call\": \"%s\", \"got\": {\"sender\": %d, \"msgid\": %u, "
	       "\"tag\": %d}, \"alternatives\": [",
	       first ? "" : ",\n", x->ltid, x->event, pg_race_what_name(x->what),
	       races_call(nm, x, call, sizeof(call)), x->peer, x->msgid,
	       x->tag);
	for (int k = 0; k < x->nalt; k++)
		printf("%s{\"sender\": %d, \"msgid\": %u, \"tag\": %d, "
		       "\"send_event\": %ld}",
		       k ? ", " : "", x->alts[k].sender, x->alts[k].msgid,
		       x->alts[k].tag, x->alts[k].send_event);
	printf("]}");
}

/* Prints race X as CSV rows, one per alternative. */
static void races_csv(const struct pg_names *nm, const struct pg_race *x)
{
	char call[64];

	for (int k = 0; k < x->nalt; k++)
		printf("%d,%ld,%s,%s,%d,%u,%d,%d,%u,%d,%ld\n", x->ltid,
		       x->event, pg_race_what_name(x->what),
		       races_call(nm, x, call, sizeof(call)), x->peer, x->msgid,
		       x->tag, x->alts[k].sender, x->alts[k].msgid,
		       x->alts[k].tag, x->alts[k].send_event);
}

/* What can be done with an alternative: swapped in, or why not. */
enum races_use {
	USE_SWAP, USE_NOTHING, USE_POLLFAIL, USE_JOIN, USE_PROBE, USE_UNLOGGED,
	USE_N
};
static const char *const races_use_words[USE_N] = {
	"can be swapped in", "polls' \"nothing\"", "failed polls'", "joins'",
	"probes'", "messages with no logged send"
};

/* What can be done with alternative A of race X (pg_whatif_swappable
 * decides whether it can be swapped in). */
static enum races_use races_use(const struct pg_race *x,
				const struct pg_race_alt *a)
{
	if (pg_whatif_swappable(x, a))
		return USE_SWAP;
	if (x->what == PG_RACE_POLLFAIL)
		return USE_POLLFAIL;
	if (x->what == PG_RACE_JOIN)
		return USE_JOIN;
	if (a->sender == PG_RACE_NOTHING)
		return USE_NOTHING;
	if (pg_rec_kind_class(x->kind) != PG_CLASS_RECV)
		return USE_PROBE;
	return USE_UNLOGGED;
}

/* The alternatives of R by use into N (USE_N counts). */
static void races_count_uses(const struct pg_races *r, size_t *n)
{
	memset(n, 0, USE_N * sizeof(*n));
	for (size_t k = 0; k < r->n; k++)
		for (int j = 0; j < r->v[k].nalt; j++)
			n[races_use(&r->v[k], &r->v[k].alts[j])]++;
}

/* The text summary's second line: how many of R's alternatives (N by
 * use) can be swapped in, and what the others are. */
static void races_print_uses(const struct pg_races *r, const size_t *n)
{
	const char *sep = "";

	printf("%zu of them can be swapped in (pangaea -replay -swap, -explore "
	       "tries them)", n[USE_SWAP]);
	if (n[USE_SWAP] < r->nalt) {
		printf("; the other %zu are no message to hand over: ",
		       r->nalt - n[USE_SWAP]);
		for (int u = USE_SWAP + 1; u < USE_N; u++)
			if (n[u]) {
				printf("%s%zu %s", sep, n[u], races_use_words[u]);
				sep = ", ";
			}
	}
	printf("\n");
}

/* Prints the races R in FMT, their calls named as NM names them, then
 * the summary line (JSON: its fields). */
static void races_print(const struct pg_names *nm, const struct pg_races *r,
			enum races_fmt fmt)
{
	size_t uses[USE_N];

	if (fmt == RACES_JSON)
		printf("{\"races\": [\n");
	if (fmt == RACES_CSV)
		printf("task,event,what,call,got_sender,got_msgid,got_tag,"
		       "alt_sender,alt_msgid,alt_tag,alt_send_event\n");
	for (size_t k = 0; k < r->n; k++)
		if (fmt == RACES_TEXT)
			races_text(nm, &r->v[k]);
		else if (fmt == RACES_JSON)
			races_json(nm, &r->v[k], k == 0);
		else
			races_csv(nm, &r->v[k]);
	races_count_uses(r, uses);
	if (fmt == RACES_JSON)
		printf("%s], \"racing\": %zu, \"tasks\": %d, "
		       "\"alternatives\": %zu, \"swappable\": %zu}\n",
		       r->n ? "\n" : "", r->n, r->ntasks, r->nalt,
		       uses[USE_SWAP]);
	else if (fmt == RACES_TEXT)
		printf("%zu racing receives in %d tasks, %zu alternatives\n",
		       r->n, r->ntasks, r->nalt);
	if (fmt == RACES_TEXT && r->nalt)
		races_print_uses(r, uses);
}

/* Entry point of "races": 0 listed (races or none), 1 error. */
static int races_run(int argc, char **argv)
{
	char err[PG_PATH_MAX + 512] = "";
	enum races_fmt fmt = RACES_TEXT;
	struct pg_hb hb = { 0 };
	struct pg_races r = { 0 };
	int i = 1, rc = 0;

	for (; i < argc - 1; i++)
		if (strcmp(argv[i], "--json") == 0)
			fmt = RACES_JSON;
		else if (strcmp(argv[i], "--csv") == 0)
			fmt = RACES_CSV;
		else
			break;
	if (i != argc - 1) {
		trace_error("usage: pangaea-trace %s", trace_cmd_races.usage);
		return 1;
	}
	if (pg_hb_load(&hb, argv[i], err, sizeof(err)) < 0) {
		trace_error("%s", err);
		rc = 1;
	} else if (pg_races_find(&hb, &r) < 0) {
		trace_error("out of memory");
		rc = 1;
	} else {
		if (hb.old_version)
			trace_error("receive filters not logged (comm log "
				    "version %u): every receive is taken as a "
				    "wildcard", hb.old_version);
		races_print(pg_names_of_run(argv[i]), &r, fmt);
	}
	pg_races_free(&r);
	pg_hb_free(&hb);
	return rc;
}

const struct trace_cmd trace_cmd_races = {
	"races", "races [--json|--csv] LOGDIR", races_run
};
