// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the probe definition parser (trace_probe.c) and of the
 * fetch programs (probe_fetch.c).  Each case of trace_probe_test_cases.h
 * is parsed against the made-up kernel of trace_probe_test_env.c, x86_64
 * and arm64 registers alike, and must be refused with its error_log
 * message, errno and caret, or accepted.  Each case of
 * probe_fetch_test_cases.h is compiled and run, on the kernel's own
 * memory accessors, over registers that point at a world in kernel
 * memory, and its record must print as the case says.  Each case of
 * probe_dump_test_cases.h is compiled and its arguments dumped as the
 * listings show them with CONFIG_PROBE_EVENTS_DUMP_FETCHARG.  With BTF,
 * structures recorded whole are printed by types of the kernel's own BTF.
 * The user-space unit tests run the same tables, with other checks.
 */
#include <kunit/test.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/filter.h>
#include <linux/fs_context.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/trace_seq.h>
#include <linux/utsname.h>

#include "probe_fetch.h"
#include "probe_kenv.h"
#include "trace_probe_test_env.h"

static const struct tpp_test_case tpp_kunit_cases[] = {
#include "trace_probe_test_cases.h"
};

/* A case's command as its name; '#' would start a KTAP directive */
static void tpp_kunit_name(const char *cmd, char *desc)
{
	char *p;

	strscpy(desc, cmd, KUNIT_PARAM_DESC_SIZE);
	for (p = desc; *p; p++)
		if (*p == '#')
			*p = '_';
}

static void tpp_kunit_case_name(const struct tpp_test_case *c, char *desc)
{
	tpp_kunit_name(c->cmd, desc);
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

static const struct tpp_fetch_case tpp_kunit_fetches[] = {
#include "probe_fetch_test_cases.h"
};

static void tpp_kunit_fetch_name(const struct tpp_fetch_case *c, char *desc)
{
	tpp_kunit_name(c->cmd, desc);
}

KUNIT_ARRAY_PARAM(tpp_kunit_fetch, tpp_kunit_fetches, tpp_kunit_fetch_name);

/* Hit @prog with @regs, print the record into @s; false without memory */
static bool tpp_kunit_hit(struct kunit *test, const struct probe_prog *prog,
			  void *regs, struct trace_seq *s)
{
	unsigned long *edata = kunit_kzalloc(test, TPP_MAX_ENTRY_DATA,
					     GFP_KERNEL);
	unsigned int size;
	void *rec;

	if (!edata)
		return false;
	size = prog->fixed_size + probe_prog_dyn_size(prog, regs, edata, NULL);
	rec = kunit_kzalloc(test, size, GFP_KERNEL);
	if (!rec)
		return false;
	probe_prog_store(prog, regs, edata, rec, size, NULL);
	trace_seq_init(s);
	probe_prog_print(prog, rec, size, s);
	return true;
}

static void tpp_kunit_fetch(struct kunit *test)
{
	const struct tpp_fetch_case *c = test->param_value;
	struct tpp_fetch_world *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	void *regs = kunit_kzalloc(test, TPP_TEST_REGS_SIZE, GFP_KERNEL);
	struct trace_seq *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct probe_prog *prog;
	struct tpp_error err;
	struct tpp_def *def;
	unsigned int len;
	bool hit;

	KUNIT_ASSERT_TRUE(test, w && regs && s);
	tpp_test_fetch_world(w, (unsigned long)w);
	tpp_test_fetch_regs(regs, (unsigned long)w);
	def = tpp_parse_kprobe(c->cmd, &env_x86, &err);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(def), "'%s': \"%s\" at %u",
			       c->cmd, tpp_test_err_name(err.id), err.pos);
	prog = probe_prog_compile(def, 16);
	hit = !IS_ERR(prog) && tpp_kunit_hit(test, prog, regs, s);
	if (!IS_ERR(prog))
		probe_prog_free(prog);
	tpp_free(def);
	KUNIT_ASSERT_TRUE_MSG(test, hit, "'%s' did not compile or run",
			      c->cmd);
	len = trace_seq_used(s);
	KUNIT_ASSERT_LT(test, len, sizeof(s->buffer));
	s->buffer[len] = '\0';
	KUNIT_EXPECT_STREQ_MSG(test, s->buffer, c->print, "'%s'", c->cmd);
}

static const struct tpp_dump_case tpp_kunit_dumps[] = {
#include "probe_dump_test_cases.h"
};

static void tpp_kunit_dump_name(const struct tpp_dump_case *c, char *desc)
{
	tpp_kunit_name(c->cmd, desc);
}

KUNIT_ARRAY_PARAM(tpp_kunit_dump, tpp_kunit_dumps, tpp_kunit_dump_name);

/* Each argument's dump, one after the other, in a test allocation */
static char *tpp_kunit_dump_args(struct kunit *test,
				 const struct probe_prog *prog)
{
	unsigned int i, size = 1, len = 0;
	char *buf;

	for (i = 0; i < prog->nr_fields; i++)
		size += probe_prog_dump_arg(prog, i, NULL, 0);
	buf = kunit_kzalloc(test, size, GFP_KERNEL);
	if (!buf)
		return NULL;
	for (i = 0; i < prog->nr_fields; i++)
		len += probe_prog_dump_arg(prog, i, buf + len, size - len);
	return buf;
}

static void tpp_kunit_dump(struct kunit *test)
{
	const struct tpp_dump_case *c = test->param_value;
	struct probe_prog *prog;
	struct tpp_error err;
	struct tpp_def *def;
	char *text = NULL;

	def = tpp_parse_kprobe(c->cmd, &env_x86, &err);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(def), "'%s': \"%s\" at %u",
			       c->cmd, tpp_test_err_name(err.id), err.pos);
	prog = probe_prog_compile(def, def->is_return ? 24 : 16);
	if (!IS_ERR(prog)) {
		text = tpp_kunit_dump_args(test, prog);
		probe_prog_free(prog);
	}
	tpp_free(def);
	KUNIT_ASSERT_NOT_NULL_MSG(test, text, "'%s' did not compile",
				  c->cmd);
	KUNIT_EXPECT_STREQ_MSG(test, text, c->dump, "'%s'", c->cmd);
}

#ifdef CONFIG_PROBE_EVENTS_BTF_ARGS
/* What probe_btf_print() makes of @size bytes at @data, a @kind @name */
static char *tpp_kunit_btf_text(struct kunit *test, const char *name,
				u8 kind, const void *data, unsigned int size)
{
	struct btf *btf = bpf_get_btf_vmlinux();
	struct trace_seq *s;
	s32 id;

	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(btf));
	id = btf_find_by_name_kind(btf, name, kind);
	KUNIT_ASSERT_GT_MSG(test, id, 0, "no %s in the kernel's BTF", name);
	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	trace_seq_init(s);
	probe_btf_print(s, btf, id, data, size);
	KUNIT_ASSERT_FALSE(test, trace_seq_has_overflowed(s));
	trace_seq_putc(s, '\0');
	return s->buffer;
}

/*
 * A whole structure prints by its BTF type: pointers in hex, bitfields,
 * signed members, char arrays as strings, enums by name (an enum
 * bitfield here), anonymous unions in braces of their own
 */
static void tpp_kunit_btf_print(struct kunit *test)
{
	struct list_head list = { (void *)0x1000, (void *)0xffff0000 };
	struct bpf_insn insn = { .code = 0x95, .dst_reg = 3, .src_reg = 10,
				 .off = -2, .imm = -5 };
	struct fs_parameter param = { .key = (void *)0x10,
				      .type = fs_value_is_file, .size = 3,
				      .dirfd = -100 };
	struct new_utsname *uts;
	void *task;
	char *text;

	text = tpp_kunit_btf_text(test, "list_head", BTF_KIND_STRUCT, &list, sizeof(list));
	KUNIT_EXPECT_STREQ(test, text,
			   "{next=0x1000,prev=0xffff0000}");
	text = tpp_kunit_btf_text(test, "bpf_insn", BTF_KIND_STRUCT, &insn, sizeof(insn));
	KUNIT_EXPECT_STREQ(test, text,
			   "{code=149,dst_reg=3,src_reg=10,off=-2,imm=-5}");
	text = tpp_kunit_btf_text(test, "fs_parameter", BTF_KIND_STRUCT, &param, sizeof(param));
	KUNIT_EXPECT_STREQ(test, text,
			   "{key=0x10,type=fs_value_is_file,{string=0x0,blob=0x0,name=0x0,file=0x0},size=3,dirfd=-100}");
	uts = kunit_kzalloc(test, sizeof(*uts), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, uts);
	strscpy(uts->sysname, "Linux");
	strscpy(uts->machine, "a\"b\x01");
	text = tpp_kunit_btf_text(test, "new_utsname", BTF_KIND_STRUCT, uts, sizeof(*uts));
	KUNIT_EXPECT_STREQ(test, text,
			   "{sysname=\"Linux\",nodename=\"\",release=\"\",version=\"\",machine=\"a\\x22b\\x01\",domainname=\"\"}");
	/* a big one is cut short, and never past its bytes */
	task = kunit_kzalloc(test, sizeof(struct task_struct), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, task);
	text = tpp_kunit_btf_text(test, "task_struct", BTF_KIND_STRUCT, task,
				  sizeof(struct task_struct));
	KUNIT_EXPECT_TRUE(test, str_has_prefix(text, "{thread_info={"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "..."));
	KUNIT_EXPECT_LE(test, strlen(text), 2048 + 64);
}
#endif

static struct kunit_case tpp_kunit_test_cases[] = {
	KUNIT_CASE_PARAM(tpp_kunit_parse, tpp_kunit_gen_params),
	KUNIT_CASE_PARAM(tpp_kunit_fetch, tpp_kunit_fetch_gen_params),
	KUNIT_CASE_PARAM(tpp_kunit_dump, tpp_kunit_dump_gen_params),
#ifdef CONFIG_PROBE_EVENTS_BTF_ARGS
	KUNIT_CASE(tpp_kunit_btf_print),
#endif
	{}
};

static struct kunit_suite tpp_kunit_suite = {
	.name = "trace_probe_parser",
	.test_cases = tpp_kunit_test_cases,
};

kunit_test_suite(tpp_kunit_suite);

MODULE_DESCRIPTION("KUnit tests of the probe event parser and fetch programs");
MODULE_LICENSE("GPL");
