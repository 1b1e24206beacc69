/*
 * check_calls.c: unit tests of the table of wrapped calls
 * (pangaea_lib/pangaea-pvm-calls.def) against the public header: a
 * program built with pangaea.h has every call of the table routed to its
 * wrapper, and only those.  The preprocessor cannot write pangaea.h's
 * `#define pvm_send pangaea_pvm_send` lines from the table, so they are
 * a second list, held equal here.  That every wrapper exists is shown by
 * this program linking: the table below takes each one's address.
 */
#include <pangaea.h> /* as a program includes it: the calls routed */
#include "checkutil.h"

#include <check.h>
#include <string.h>

#define CALLS_STR(x) #x
/* X after macro expansion, as a string */
#define CALLS_XSTR(x) CALLS_STR(x)

struct calls_row {
	const char *name;     /* pvm_send */
	const char *expanded; /* what a program's pvm_send becomes */
	const char *wrapper;  /* pangaea_pvm_send */
	void (*address)(void); /* the wrapper itself (it links) */
};

static const struct calls_row calls_wrapped[] = {
#define PANGAEA_CALL(type, name, params, args, route)                    \
	{#name, CALLS_XSTR(name), "pangaea_" #name,                      \
	 (void (*)(void))pangaea_##name},
#include "pangaea-pvm-calls.def"
};

static const struct calls_row calls_unwrapped[] = {
#define PANGAEA_CALL_JOIN(type, name, params, args)                      \
	{#name, CALLS_XSTR(name), NULL, NULL},
#include "pangaea-pvm-calls.def"
};

#define CALLS_N(a) (sizeof(a) / sizeof((a)[0]))

START_TEST(test_every_call_routed)
{
	ck_assert_uint_ge(CALLS_N(calls_wrapped), 30);
	for (size_t i = 0; i < CALLS_N(calls_wrapped); i++) {
		const struct calls_row *c = &calls_wrapped[i];

		ck_assert_msg(strcmp(c->expanded, c->wrapper) == 0,
			      "pangaea.h routes %s to %s, not to %s", c->name,
			      c->expanded, c->wrapper);
		ck_assert_ptr_nonnull(c->address);
	}
}
END_TEST

START_TEST(test_unwrapped_not_routed)
{
	ck_assert_uint_eq(CALLS_N(calls_unwrapped), 1); /* pvm_mytid */
	for (size_t i = 0; i < CALLS_N(calls_unwrapped); i++)
		ck_assert_str_eq(calls_unwrapped[i].expanded,
				 calls_unwrapped[i].name);
}
END_TEST

static Suite *calls_suite(void)
{
	Suite *s = suite_create("calls");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, test_every_call_routed);
	tcase_add_test(tc, test_unwrapped_not_routed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(calls_suite());
}
