// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the probe definition parser (trace_probe.c): each case of
 * trace_probe_test_cases.h is parsed against the made-up kernel of
 * trace_probe_test_env.c, x86_64 and arm64 registers alike, and must be
 * refused with its error_log message, errno and caret, or accepted.
 * harness/unit runs the same table in user space, with the checks of what
 * accepted definitions compile to.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "trace_probe_test_env.h"

static const struct tpp_test_case tpp_kunit_cases[] = {
#include "trace_probe_test_cases.h"
};

/* The command as the case's name; '#' would start a KTAP directive */
static void tpp_kunit_case_name(const struct tpp_test_case *c, char *desc)
{
	char *p;

	strscpy(desc, c->cmd, KUNIT_PARAM_DESC_SIZE);
	for (p = desc; *p; p++)
		if (*p == '#')
			*p = '_';
}

KUNIT_ARRAY_PARAM(tpp_kunit, tpp_kunit_cases, tpp_kunit_case_name);

static void tpp_kunit_parse(struct kunit *test)
{
	const struct tpp_test_case *c = test->param_value;
	struct tpp_test_got got;

	KUNIT_EXPECT_TRUE_MSG(test, tpp_test_run(c, &got),
			      "'%s': want \"%s\" at %u, errno %d; got \"%s\" at %u, errno %d",
			      c->cmd, tpp_test_err_name(c->id), got.caret,
			      c->errnum, tpp_test_err_name(got.err.id),
			      got.err.pos, got.err.errnum);
}

static struct kunit_case tpp_kunit_test_cases[] = {
	KUNIT_CASE_PARAM(tpp_kunit_parse, tpp_kunit_gen_params),
	{}
};

static struct kunit_suite tpp_kunit_suite = {
	.name = "trace_probe_parser",
	.test_cases = tpp_kunit_test_cases,
};

kunit_test_suite(tpp_kunit_suite);

MODULE_DESCRIPTION("KUnit tests of the probe event definition parser");
MODULE_LICENSE("GPL");
