// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kernel/trace/trace_probe.c.
 *
 * Error cases put the expected result in the input, as ftracetest does:
 * '^' marks the caret and is removed from the command before parsing.
 * Every caret-encoded case of the 6.12 selftests is here (kprobe_syntax_
 * errors.tc, uprobe_syntax_errors.tc, dynevent/ *_syntax_errors.tc) except
 * the ones owned by other heads or by registration; see README.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kshim.h"
#include "trace_probe.h"
#include "trace_probe_test_env.h"
#include "probe_fetch.h"

long kshim_fail_countdown;
long kshim_allocs;

static int tests, failures;

#define CHECK(cond) check(!!(cond), #cond, __FILE__, __LINE__)

static bool check(bool ok, const char *what, const char *file, int line)
{
	tests++;
	if (!ok) {
		failures++;
		fprintf(stderr, "%s:%d: FAIL: %s\n", file, line, what);
	}
	return ok;
}

static const char *id_name(int id)
{
	return id == TPP_E_NONE ? "(none)" : tpp_err_text[id];
}

/* Split "cmd with ^" into the command and the caret position */
static unsigned int uncaret(const char *in, char *out, size_t size)
{
	const char *c = strchr(in, '^');
	unsigned int pos = c ? c - in : 0;

	if (c)
		snprintf(out, size, "%.*s%s", (int)(c - in), in, c + 1);
	else
		snprintf(out, size, "%s", in);
	return pos;
}

static void report(const char *cmd, const struct tpp_error *err, int id,
		   unsigned int pos, int errnum, int line)
{
	fprintf(stderr, "trace_probe_test.c:%d: FAIL: '%s'\n"
		"  want id=%d \"%s\" pos=%u errno=%d\n"
		"  got  id=%d \"%s\" pos=%u errno=%d\n",
		line, cmd, id, id_name(id), pos, errnum,
		err->id, id_name(err->id), err->pos, err->errnum);
	failures++;
}

static void expect(const char *cmd, struct tpp_def *def,
		   const struct tpp_error *err, int id, unsigned int pos,
		   int errnum, int line)
{
	tests++;
	if (!IS_ERR(def) || err->id != id || err->errnum != errnum ||
	    (id != TPP_E_NONE && err->pos != pos) ||
	    PTR_ERR(def) != errnum)
		report(cmd, err, id, pos, errnum, line);
	tpp_free(IS_ERR(def) ? NULL : def);
}

/* A kprobe line that must fail with @id at its '^' */
static void kerr_at(const struct tpp_env *env, const char *in, int id,
		    int errnum, int line)
{
	struct tpp_error err;
	struct tpp_def *def;
	char cmd[8192];
	unsigned int pos = uncaret(in, cmd, sizeof(cmd));

	def = tpp_parse_kprobe(cmd, env, &err);
	expect(cmd, def, &err, id, pos, errnum, line);
}

/* Only the arguments, from word 2 on, as another probe head would ask */
static void aerr_at(const struct tpp_env *env, unsigned int flags,
		    const char *func, const char *in, int id, int errnum,
		    int line)
{
	struct tpp_error err;
	struct tpp_def *def;
	char cmd[8192];
	unsigned int pos = uncaret(in, cmd, sizeof(cmd));

	def = tpp_parse_args(cmd, 2, flags, func, env, &err);
	expect(cmd, def, &err, id, pos, errnum, line);
}

#define KERR(env, cmd, id, e)	kerr_at(env, cmd, TPP_E_##id, e, __LINE__)
#define KERRX(cmd, id)		KERR(&env_x86, cmd, id, -EINVAL)
#define KERRB(cmd, id, e)	KERR(&env_btf, cmd, id, e)
#define AERR(fl, fn, cmd, id, e) \
	aerr_at(&env_x86, fl, fn, cmd, TPP_E_##id, e, __LINE__)
#define AERRB(fl, fn, cmd, id, e) \
	aerr_at(&env_btf, fl, fn, cmd, TPP_E_##id, e, __LINE__)

static struct tpp_def *kok_at(const struct tpp_env *env, const char *cmd,
			      int line)
{
	struct tpp_error err;
	struct tpp_def *def = tpp_parse_kprobe(cmd, env, &err);

	tests++;
	if (IS_ERR(def)) {
		report(cmd, &err, TPP_E_NONE, 0, 0, line);
		return NULL;
	}
	if (err.errnum) {
		report(cmd, &err, TPP_E_NONE, 0, 0, line);
		tpp_free(def);
		return NULL;
	}
	return def;
}

#define KOK(env, cmd)	kok_at(env, cmd, __LINE__)

/* struct pt_regs offsets on x86_64 */
#define X86_R9	64
#define X86_R8	72
#define X86_AX	80
#define X86_DX	96
#define X86_SI	104
#define X86_DI	112
#define X86_SP	152

/* Accepted, and nothing more to check */
static void kgood(const struct tpp_env *env, const char *cmd, int line)
{
	tpp_free(kok_at(env, cmd, line));
}

#define KGOOD(env, cmd)	kgood(env, cmd, __LINE__)

static struct tpp_def *aok_at(const struct tpp_env *env, unsigned int flags,
			      const char *func, const char *cmd, int line)
{
	struct tpp_error err;
	struct tpp_def *def = tpp_parse_args(cmd, 2, flags, func, env, &err);

	tests++;
	if (IS_ERR(def)) {
		report(cmd, &err, TPP_E_NONE, 0, 0, line);
		return NULL;
	}
	return def;
}

#define AOK(env, fl, fn, cmd)	aok_at(env, fl, fn, cmd, __LINE__)

static char *repeat(char *buf, const char *head, const char *unit, int n,
		    const char *tail)
{
	strcpy(buf, head);
	while (n--)
		strcat(buf, unit);
	strcat(buf, tail);
	return buf;
}

/* The shared table, also run by the KUnit suite (trace_probe_kunit.c) */
static const struct tpp_test_case table[] = {
#include "trace_probe_test_cases.h"
};

static void test_table(void)
{
	struct tpp_test_got got;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(table); i++) {
		tests++;
		if (tpp_test_run(&table[i], &got))
			continue;
		failures++;
		fprintf(stderr, "trace_probe_test_cases.h: FAIL: '%s'\n"
			"  want id=%d \"%s\" caret=%u errno=%d\n"
			"  got  id=%d \"%s\" pos=%u errno=%d\n",
			table[i].cmd, table[i].id,
			tpp_test_err_name(table[i].id), got.caret,
			table[i].errnum, got.err.id,
			tpp_test_err_name(got.err.id), got.err.pos,
			got.err.errnum);
	}
}

/* test.d/kprobe/kprobe_syntax_errors.tc, in its order */
static void test_kprobe_syntax_errors(void)
{











}

/* The multiprobe part of kprobe_syntax_errors.tc */
static void append_case(const char *old_cmd, const char *in, int id, int line)
{
	struct tpp_def *old = kok_at(&env_x86, old_cmd, line);
	struct tpp_error err = { 0, TPP_E_NONE, 0 };
	unsigned int pos;
	struct tpp_def *new;
	char cmd[512];
	int ret;

	pos = uncaret(in, cmd, sizeof(cmd));
	new = kok_at(&env_x86, cmd, line);
	if (!old || !new)
		goto out;
	ret = tpp_check_append(old, new, &err);
	if (!ret && tpp_same_probe(old, new))
		ret = tpp_error_set(&err, TPP_E_APPEND_SAME, 0, -EEXIST);
	tests++;
	if (ret != (id == TPP_E_NONE ? 0 : -EEXIST) || err.id != id ||
	    (id != TPP_E_NONE && err.pos != pos))
		report(cmd, &err, id, pos, -EEXIST, line);
out:
	tpp_free(old);
	tpp_free(new);
}

#define APPEND(old, cmd, id) append_case(old, cmd, TPP_E_##id, __LINE__)
#define TESTEV "p:kprobes/testevent kernel_clone"

static void test_multiprobe(void)
{
	APPEND(TESTEV, "^r:kprobes/testevent do_exit", APPEND_KIND);
	APPEND(TESTEV " abcd=\\1", TESTEV " ^bcd=\\1", APPEND_ARGS);
	APPEND(TESTEV " abcd=\\1", TESTEV " ^abcd=\\1:u8", APPEND_ARGS);
	APPEND(TESTEV " abcd=\\1", TESTEV " ^abcd=\\\"foo\"", APPEND_ARGS);
	APPEND(TESTEV " abcd=\\1", "^" TESTEV " abcd=\\1", APPEND_SAME);
/* more arguments: the caret is on the first extra one */
	APPEND(TESTEV " a=\\1", TESTEV " a=\\1 ^b=\\2", APPEND_ARGS);
/* same text elsewhere is a new probe; bitfields keep the base type */
	APPEND(TESTEV " a=\\1", "p:kprobes/testevent do_exit a=\\1", NONE);
	APPEND(TESTEV " a=@1:u8", TESTEV " a=@1:b4@0/8", NONE);
/* all address probes look alike to upstream */
	APPEND("p:kprobes/testevent 0x1000", "^p:kprobes/testevent 0x2000",
	       APPEND_SAME);
}

static void test_append_fewer_args(void)
{
	const char *cmd = TESTEV " a=\\1";
	struct tpp_def *old = KOK(&env_x86, TESTEV " a=\\1 b=\\2");
	struct tpp_def *new = KOK(&env_x86, cmd);
	struct tpp_error err = { 0, TPP_E_NONE, 0 };

/* fewer arguments: upstream points one byte past the command */
	CHECK(old && new && tpp_check_append(old, new, &err) == -EEXIST);
	CHECK(err.id == TPP_E_APPEND_ARGS && err.pos == strlen(cmd) + 1);
	tpp_free(old);
	tpp_free(new);
}

#define GOODSYM "_sdata"

/* test.d/kprobe/kprobe_args_syntax.tc */
static void test_args_syntax(const struct tpp_env *env, const char *good,
			     const char *bad)
{
	static const char *const goodargs[] = {
		"@" GOODSYM, "@0xffffffff82000000", "@" GOODSYM "+10",
		"@" GOODSYM "-10", "$stack", "$stack0", "$stack1", "$comm",
		"+10($stack)", "+0($stack1)", "+10(@" GOODSYM "-10)",
		"+0(+10(+20($stack)))", "$comm:string", "+0($stack):string",
	};
/* upstream resolves @SYM at register time: these parse */
	static const char *const symargs[] = {
		"@", "@deaqswdefr", "@" GOODSYM "*10", "@" GOODSYM "/10",
		"@" GOODSYM "%10", "@" GOODSYM "&10", "@" GOODSYM "|10",
	};
	char cmd[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(goodargs); i++) {
		snprintf(cmd, sizeof(cmd), "p vfs_read %s", goodargs[i]);
		KGOOD(env, cmd);
	}
	for (i = 0; i < ARRAY_SIZE(symargs); i++) {
		snprintf(cmd, sizeof(cmd), "p vfs_read %s", symargs[i]);
		KGOOD(env, cmd);
	}
	snprintf(cmd, sizeof(cmd), "p vfs_read %s", good);
	KGOOD(env, cmd);
	snprintf(cmd, sizeof(cmd), "p vfs_read ^%s", bad);
	KERR(env, cmd, REG, -EINVAL);
	snprintf(cmd, sizeof(cmd), "p vfs_read +0(%s)", good);
	KGOOD(env, cmd);
	snprintf(cmd, sizeof(cmd), "p vfs_read -0(%s)", good);
	KGOOD(env, cmd);
	snprintf(cmd, sizeof(cmd), "p vfs_read varname=%s", good);
	KGOOD(env, cmd);
	snprintf(cmd, sizeof(cmd), "p vfs_read %s:x16", good);
	KGOOD(env, cmd);
	snprintf(cmd, sizeof(cmd), "p vfs_read ^+(%s)", good);
	KERR(env, cmd, DEREF_OFFS, -EINVAL);
	snprintf(cmd, sizeof(cmd), "p vfs_read ^(%s+10)", good);
	KERR(env, cmd, FETCHARG, -EINVAL);
	snprintf(cmd, sizeof(cmd), "p vfs_read ^-(%s)", good);
	KERR(env, cmd, DEREF_OFFS, -EINVAL);
	snprintf(cmd, sizeof(cmd), "p vfs_read ^(%s)", good);
	KERR(env, cmd, FETCHARG, -EINVAL);
	snprintf(cmd, sizeof(cmd), "p vfs_read varname=^varname2=%s", good);
	KERR(env, cmd, BTF_NOSUP, -EOPNOTSUPP);
	snprintf(cmd, sizeof(cmd), "p vfs_read %s:^:x16", good);
	KERR(env, cmd, TYPE, -EINVAL);
	snprintf(cmd, sizeof(cmd), "p vfs_read %s:^y16", good);
	KERR(env, cmd, TYPE, -EINVAL);
/* TYPE is split off first, so this is an unknown type */
	snprintf(cmd, sizeof(cmd), "p vfs_read x16:^%s", good);
	KERR(env, cmd, TYPE, -EINVAL);
	snprintf(cmd, sizeof(cmd), "p vfs_read %s:^string", good);
	KERR(env, cmd, STRING_SRC, -EINVAL);
}

static void test_args_syntax_common(void)
{
	struct tpp_def *def;


	/*
	 * a dereference ends at its ')' (6.12 ignores what follows the last
	 * one, although its kprobe_args_syntax.tc lists "+0(%ax)+10" as bad)
	 */

	def = KOK(&env_x86, "p vfs_read @" GOODSYM "*10 @-10 @sym+0x10");
	CHECK(def && !strcmp(def->args[0].fetch.str, GOODSYM "*10") &&
	      def->args[0].fetch.src == TPP_SRC_SYMBOL);
	CHECK(def && !strcmp(def->args[1].fetch.str, "") &&
	      (long)def->args[1].fetch.val == -10);
	CHECK(def && !strcmp(def->args[2].fetch.str, "sym") &&
	      def->args[2].fetch.val == 16);
	tpp_free(def);
}

/* test.d/kprobe/kretprobe_maxactive.tc */
static void test_maxactive(void)
{
	struct tpp_def *def;

	def = KOK(&env_x86, "r:myprobeaccept inet_csk_accept");
	CHECK(def && def->maxactive == 0 && def->is_return &&
	      !strcmp(def->event, "myprobeaccept") &&
	      !strcmp(def->group, "kprobes"));
	tpp_free(def);
	def = KOK(&env_x86, "r10:myprobeaccept inet_csk_accept");
	CHECK(def && def->maxactive == 10);
	tpp_free(def);
	def = KOK(&env_x86, "r inet_csk_accept");
	CHECK(def && !strcmp(def->event, "r_inet_csk_accept_0"));
	tpp_free(def);
	def = KOK(&env_x86, "r10 inet_csk_accept");
	CHECK(def && def->maxactive == 10 &&
	      !strcmp(def->event, "r_inet_csk_accept_0"));
	tpp_free(def);

	def = KOK(&env_x86, "r4096 vfs_read");
	CHECK(def && def->maxactive == 4096);
	tpp_free(def);
	def = KOK(&env_x86, "r0x10:ev vfs_read");
	CHECK(def && def->maxactive == 16);
	tpp_free(def);
/* only a digit right after 'r' starts maxactive */
	def = KOK(&env_x86, "rfoo:ev vfs_read");
	CHECK(def && def->maxactive == 0 && def->is_return);
	tpp_free(def);
}

/* test.d/kprobe/probepoint.tc */
static void test_probepoint(void)
{
	struct tpp_def *def;

	def = KOK(&env_x86, "p:testprobe 0xffffffff81234560");
	CHECK(def && !def->symbol && def->addr == 0xffffffff81234560UL &&
	      !strcmp(def->event, "testprobe") && !(def->flags & TPP_ENTRY));
	tpp_free(def);
	def = KOK(&env_x86, "p:testprobe tracefs_create_dir+320");
	CHECK(def && def->offset == 320 && !(def->flags & TPP_ENTRY));
	tpp_free(def);
	def = KOK(&env_x86, "p tracefs_create_dir+0xffffffff");
	CHECK(def && def->offset == 0xffffffffUL &&
	      !strcmp(def->event, "p_tracefs_create_dir_4294967295"));
	tpp_free(def);
}

/* test.d/kprobe/uprobe_syntax_errors.tc: the argument part */
static void test_uprobe_args(void)
{
	struct tpp_def *def;


	def = AOK(&env_x86, TPP_USER, NULL,
		  "p /bin/sh:10 @+0x10 $stack99999 +0($stack):ustring");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_FOFFS &&
	      def->args[0].fetch.val == 16 && def->args[0].store == TPP_ST_MEM);
	CHECK(def && def->args[1].fetch.val == 99999);
	CHECK(def && def->args[2].store == TPP_ST_USTRING);
	tpp_free(def);
/* the whole index, not its low 32 bits (a deliberate difference) */
	def = AOK(&env_x86, TPP_USER, NULL, "p /bin/sh:10 $stack4294967296");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_STACK &&
	      def->args[0].fetch.val == 4294967296UL);
	tpp_free(def);
	def = AOK(&env_x86, TPP_USER | TPP_RETURN, NULL, "r /bin/sh:10 $retval");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_RETVAL);
	tpp_free(def);
}

/* The FETCHARG cases shared by fprobe_ and tprobe_syntax_errors.tc */
static void shared_arg_errors(unsigned int fl, const char *fn, const char *h)
{
	char cmd[256];

#define C(arg) (snprintf(cmd, sizeof(cmd), "%s %s", h, arg), cmd)
	AERR(fl, fn, C("^$stack10000"), STACK_INDEX, -EINVAL);
	AERR(fl, fn, C("^$arg10000"), ARG_INDEX, -EINVAL);
	AERR(fl, fn, C("^$none_var"), VAR, -EINVAL);
	AERR(fl, fn, C("^%ax"), VAR, -EINVAL);
	AERR(fl, fn, C("^%rax"), VAR, -EINVAL);
	AERR(fl, fn, C("^@12345678abcde"), MEM_ADDR, -EINVAL);
	AERR(fl, fn, C("^@+10"), FOFFS_ON_KERNEL, -EINVAL);
	AERR(fl, fn, C("arg1=\\^x"), IMM, -EINVAL);
	AERR(fl, fn, C("arg1=\\\"abcd^"), IMMSTR_OPEN, -EINVAL);
	AERR(fl, fn, C("^+0@0)"), DEREF_NO_BRACE, -EINVAL);
	AERR(fl, fn, C("^+0ab1(@0)"), DEREF_OFFS, -EINVAL);
	AERR(fl, fn, C("+0(+0(@0^)"), DEREF_OPEN, -EINVAL);
	AERR(fl, fn, C("+0(^$comm)"), DEREF_VALUE, -EINVAL);
	AERR(fl, fn, C("^&1"), FETCHARG, -EINVAL);
	AERR(fl, fn, C(DEEP14), TOO_DEEP, -EINVAL);
	AERR(fl, fn, C("+0(@11):u8[10^"), ARRAY_OPEN, -EINVAL);
	AERR(fl, fn, C("+0(@11):u8[10]^a"), ARRAY_SUFFIX, -EINVAL);
	AERR(fl, fn, C("+0(@11):u8[^10a]"), ARRAY_LEN, -EINVAL);
	AERR(fl, fn, C("+0(@11):u8[^256]"), ARRAY_BIG, -EINVAL);
	AERR(fl, fn, C("@11:^unknown_type"), TYPE, -EINVAL);
	AERR(fl, fn, C("$stack0:^string"), STRING_SRC, -EINVAL);
	AERR(fl, fn, C("@11:^b10@a/16"), BITFIELD, -EINVAL);
	AERR(fl, fn, C("^arg123456789012345678901234567890=@11"), NAME_LONG,
	     -EINVAL);
	AERR(fl, fn, C("^=@11"), NAME_EMPTY, -EINVAL);
	AERR(fl, fn, C("^var.1=@11"), NAME_CHARS, -EINVAL);
	AERR(fl, fn, C("var1=@11 ^var1=@12"), NAME_USED, -EINVAL);
	AERR(fl, fn, C("^+1234567(+1234567(+1234567(+1234567(+1234567("
		       "+1234567(@1234))))))"), ARG_LONG, -E2BIG);
	AERR(fl, fn, C("arg1=^"), ARG_EMPTY, -EINVAL);
	AERR(fl, fn, C("^$arg*"), BTF_NOSUP, -EOPNOTSUPP);
#undef C
}

/* dynevent/fprobe_syntax_errors.tc and tprobe_syntax_errors.tc */
static void test_fprobe_tprobe(void)
{
	unsigned int f = TPP_FPROBE | TPP_ENTRY;
	unsigned int t = TPP_FPROBE | TPP_TPOINT | TPP_ENTRY;
	struct tpp_def *def;

	shared_arg_errors(f, "vfs_read", "f vfs_read");
	shared_arg_errors(t, "kfree", "t kfree");
	AERR(t, "kfree", "t kfree ^$retval", RETVAL_ON_ENTRY, -EINVAL);


/* BTF part of fprobe_syntax_errors.tc */
	AERRB(f, "vfs_read", "f vfs_read args=^$arg*", VAR, -EINVAL);
	AERRB(f, "vfs_read", "f vfs_read +0(^$arg*)", VAR, -EINVAL);
	AERRB(f, "vfs_read", "f vfs_read $arg* ^$arg*", ARGS_TWICE, -EINVAL);
	AERRB(f, "vfs_read", "f vfs_read ^hoge", BTF_NOVAR, -ENOENT);
	AERRB(f, "kfree", "f kfree ^$arg10", BTF_NOVAR, -ENOENT);
	AERRB(f, "vfs_read", "f vfs_read file->^foo", BTF_NOFIELD, -ENOENT);
	AERRB(f, "vfs_read", "f vfs_read file^-.foo", BTF_HYPHEN, -EINVAL);
	AERRB(f, "vfs_read", "f vfs_read ^file:string", BTF_STRTYPE, -EINVAL);
	AERRB(f, "vfs_read", "f vfs_read file^.f_mode", BTF_DOT_ARG,
	      -EOPNOTSUPP);

/* 6.12 return probes read entry arguments: fine on exit */
	def = AOK(&env_x86, TPP_FPROBE | TPP_RETURN, "vfs_read",
		  "f vfs_read%return $retval $arg1");
	CHECK(def && def->args[1].fetch.src == TPP_SRC_EARG &&
	      def->args[1].fetch.val == tpp_earg(TPP_SRC_REG, X86_DI));
	tpp_free(def);
/* a tprobe's first BTF parameter is the stub's data */
	def = AOK(&env_x86, t, "kfree", "t kfree $arg1");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_REG &&
	      def->args[0].fetch.val == X86_SI);
	tpp_free(def);
}

/* dynevent/eprobes_syntax_errors.tc: the argument part */
static void test_eprobe_args(void)
{
	unsigned int e = TPP_EVENT;
	struct tpp_def *def;

	AERR(e, NULL, "e:foo/bar syscalls/sys_enter_openat arg=^dfd",
	     BTF_NOSUP, -EINVAL);
	AERR(e, NULL, "e:foo/bar syscalls/sys_enter_openat arg=^$foo",
	     VAR, -EINVAL);
	AERR(e, NULL, "e:foo/bar syscalls/sys_enter_openat ^%ax", VAR,
	     -EINVAL);

	def = AOK(&env_x86, e, NULL,
		  "e:foo/bar syscalls/sys_enter_openat f=$filename $comm:x64");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_FIELD &&
	      def->args[0].fetch.val == (unsigned long)probe_efield(
			FAKE_EF_FILENAME, 4, PROBE_EF_DATA_LOC));
/* eprobes do not force $comm to be a string */
	CHECK(def && def->args[1].fetch.src == TPP_SRC_COMM &&
	      def->args[1].type == TPP_TYPE_X64);
	tpp_free(def);
}

/*
 * An eprobe's @SYM is looked up once its argument has parsed: an unknown
 * one fails there, before later arguments, with no error_log record.
 */
static void test_eprobe_symbols(void)
{
	static const struct {
		const char *cmd;
		int errnum;
	} cases[] = {
		{ "e:a/b sys/ev ^x=@nosym y=dfd", -ENOENT },
		{ "e:a/b sys/ev ^x=+8(@nosym):u8 y=$nope", -ENOENT },
		{ "e:a/b sys/ev x=$dfd ^y=@nosym", -ENOENT },
	};
	struct tpp_def *def;
	unsigned int i;

/* an unknown symbol has its record, at the argument */
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		aerr_at(&env_event, TPP_EVENT, NULL, cases[i].cmd,
			TPP_E_SYM_UNKNOWN, cases[i].errnum, __LINE__);
	aerr_at(&env_event, TPP_EVENT, NULL, "e:a/b sys/ev x=@vfs_read^+z y=dfd",
		TPP_E_MEM_ADDR, -EINVAL, __LINE__);
/* an error of the argument itself comes first, as before */
	aerr_at(&env_event, TPP_EVENT, NULL, "e:a/b sys/ev x=@nosym:^u128",
		TPP_E_TYPE, -EINVAL, __LINE__);
	def = AOK(&env_event, TPP_EVENT, NULL, "e:a/b sys/ev x=@kfree+8");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_SYMBOL &&
	      !strcmp(def->args[0].fetch.str, "kfree") &&
	      def->args[0].fetch.val == 8);
	tpp_free(def);
/* kprobes resolve @SYM when they register */
	def = KOK(&env_x86, "p vfs_read x=@nosym");
	CHECK(def != NULL);
	tpp_free(def);
}

/* The example of the task, checked down to the tree */
static void test_tree(void)
{
	struct tpp_def *def;
	struct tpp_arg *a;

	def = KOK(&env_x86, "p:grp/ev vfs_read+4 a=+0(%di):u32 $comm");
	if (!CHECK(def))
		return;
	CHECK(def->kind == 'p' && !def->is_return && def->maxactive == 0);
	CHECK(!strcmp(def->group, "grp") && !strcmp(def->event, "ev"));
	CHECK(!strcmp(def->symbol, "vfs_read") && def->offset == 4);
	CHECK(!def->module && def->place_pos == 9 && def->flags == 0);
	CHECK(def->nr_args == 2 && def->size == 8);
	a = &def->args[0];
	CHECK(!strcmp(a->name, "a") && !strcmp(a->comm, "+0(%di):u32"));
	CHECK(a->pos == 20 && a->fetch.src == TPP_SRC_REG &&
	      a->fetch.val == 112);
	CHECK(a->fetch.nr_derefs == 1 && a->fetch.deref[0].offset == 0 &&
	      !a->fetch.deref[0].user);
	CHECK(a->type == TPP_TYPE_U32 && a->store == TPP_ST_MEM && a->fold);
	CHECK(a->count == 0 && a->bf_bytes == 0 && a->nr_ops == 2);
	a = &def->args[1];
	CHECK(!strcmp(a->name, "arg2") && a->fetch.src == TPP_SRC_COMM);
	CHECK(a->type == TPP_TYPE_STRING && a->store == TPP_ST_STRING &&
	      !a->fold && a->nr_ops == 2);
	tpp_free(def);

	def = KOK(&env_x86, "p vfs_read");
	CHECK(def && !strcmp(def->group, "kprobes") &&
	      !strcmp(def->event, "p_vfs_read_0") && def->nr_args == 0 &&
	      def->flags == TPP_ENTRY && def->tail_pos == 11);
	tpp_free(def);
}

static void test_place_and_names(void)
{
	struct tpp_def *def;
	char cmd[256];

	def = KOK(&env_x86, "p:grp/ vfs_read");
	CHECK(def && !strcmp(def->group, "grp") &&
	      !strcmp(def->event, "p_vfs_read_0"));
	tpp_free(def);
	def = KOK(&env_x86, "p:foo.bar vfs_read");
	CHECK(def && !strcmp(def->group, "foo") && !strcmp(def->event, "bar"));
	tpp_free(def);
	def = KOK(&env_x86, "p:my-grp/ev_1 vfs_read");
	CHECK(def && !strcmp(def->group, "my-grp"));
	tpp_free(def);
/* 63 bytes is the longest event name */
	repeat(cmd, "p:e", "x", 62, " vfs_read");
	KGOOD(&env_x86, cmd);
	repeat(cmd, "p:^e", "x", 63, " vfs_read");
	KERRX(cmd, EVENT_LONG);
	repeat(cmd, "p:^g", "x", 63, "/e vfs_read");
	KERRX(cmd, GROUP_LONG);

	def = KOK(&env_x86, "p trace_printk:trace_printk_irq_work");
	CHECK(def && !strcmp(def->module, "trace_printk") &&
	      !strcmp(def->event, "p_trace_printk_trace_printk_irq_work_0"));
	tpp_free(def);
/* a module that is not loaded yet: accepted, it waits */
	def = KOK(&env_x86, "r absent:foo");
	CHECK(def && def->is_return && def->flags == TPP_RETURN);
	tpp_free(def);
	def = KOK(&env_x86, "p vfs_read.isra.0");
	CHECK(def && !strcmp(def->event, "p_vfs_read_isra_0_0"));
	tpp_free(def);
	def = KOK(&env_x86, "p vfs_read%return $retval");
	CHECK(def && def->is_return && def->kind == 'p' &&
	      !strcmp(def->event, "r_vfs_read_0") && def->flags == TPP_RETURN);
	tpp_free(def);
	def = KOK(&env_x86, "p 0x1000");
	CHECK(def && !strncmp(def->event, "p_0x", 4) && def->addr == 0x1000);
	tpp_free(def);
	/*
	 * a return probe on an address is at an exit, where $retval, $argN
	 * and @entry() are (6.12 takes it for no exit: "$retval is not
	 * available on probe"); the kprobes core checks the entry
	 */
	def = KOK(&env_x86, "r 0x1000 $retval $arg2 @entry(+0(%di)):u8");
	CHECK(def && def->flags == TPP_RETURN &&
	      def->args[0].fetch.src == TPP_SRC_RETVAL &&
	      def->args[1].fetch.src == TPP_SRC_EARG && def->args[2].entry);
	tpp_free(def);
/* with BTF too: an address names no function to ask */
	def = KOK(&env_btf, "r 0x1000 $retval $arg2");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_RETVAL &&
	      def->args[1].fetch.src == TPP_SRC_EARG);
	tpp_free(def);
	def = KOK(&env_x86, "pfoo vfs_read");
	CHECK(def && def->kind == 'p');
	tpp_free(def);
}

static void test_vars(void)
{
	struct tpp_def *def;

	def = KOK(&env_x86, "p vfs_read $arg1 $arg6 $stack2048 $stack");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_REG &&
	      def->args[0].fetch.val == X86_DI &&
	      def->args[1].fetch.val == X86_R9);
	CHECK(def && def->args[2].fetch.src == TPP_SRC_STACK &&
	      def->args[2].fetch.val == 2048);
	CHECK(def && def->args[3].fetch.src == TPP_SRC_STACKP);
	tpp_free(def);
	def = KOK(&env_x86, "r vfs_read $arg2 $retval $COMM");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_EARG &&
	      def->args[0].fetch.val == tpp_earg(TPP_SRC_REG, X86_SI));
	CHECK(def && def->args[1].fetch.src == TPP_SRC_RETVAL);
	CHECK(def && def->args[2].fetch.src == TPP_SRC_COMM);
	tpp_free(def);
}

static void test_regs(void)
{
	struct tpp_def *def;

	def = KOK(&env_arm64, "p vfs_read %x0 %lr %sp %pc %pstate %x30");
	CHECK(def && def->args[0].fetch.val == 0 &&
	      def->args[1].fetch.val == 240 && def->args[2].fetch.val == 248 &&
	      def->args[3].fetch.val == 256 && def->args[5].fetch.val == 240);
	tpp_free(def);
	def = KOK(&env_x86, "p vfs_read %ax %r15 %flags %orig_ax");
	CHECK(def && def->args[1].fetch.val == 0 &&
	      def->args[2].fetch.val == 144);
	tpp_free(def);
}

/* Register @i of @def: offset, width, shift and default type */
static bool reg_is(const struct tpp_def *def, unsigned int i,
		   unsigned int off, unsigned int width, unsigned int shift,
		   enum tpp_type type)
{
	const struct tpp_arg *a = def ? &def->args[i] : NULL;

	return a && a->fetch.src == TPP_SRC_REG && a->fetch.val == off &&
	       a->fetch.width == width && a->fetch.shift == shift &&
	       a->type == type;
}

/* The assembler's names, with their width (a deliberate extension) */
static void test_abi_regs(void)
{
	struct tpp_def *def;

/* ptrace's names keep the whole word, whatever their width says */
	def = KOK(&env_x86, "p vfs_read %ax %di %rdi %edi %dil %ah %r8d %r15w "
		  "%r9b %rsp");
	CHECK(reg_is(def, 0, X86_AX, 0, 0, TPP_TYPE_X64));
	CHECK(reg_is(def, 1, X86_DI, 0, 0, TPP_TYPE_X64));
	CHECK(reg_is(def, 2, X86_DI, 0, 0, TPP_TYPE_X64));
	CHECK(reg_is(def, 3, X86_DI, 4, 0, TPP_TYPE_U32));
	CHECK(reg_is(def, 4, X86_DI, 1, 0, TPP_TYPE_U8));
	CHECK(reg_is(def, 5, X86_AX, 1, 8, TPP_TYPE_U8));
	CHECK(reg_is(def, 6, X86_R8, 4, 0, TPP_TYPE_U32));
	CHECK(reg_is(def, 7, 0, 2, 0, TPP_TYPE_U16));
	CHECK(reg_is(def, 8, X86_R9, 1, 0, TPP_TYPE_U8));
	CHECK(reg_is(def, 9, X86_SP, 0, 0, TPP_TYPE_X64));
/* listings show the name as written */
	CHECK(def && !strcmp(def->args[3].comm, "%edi"));
	tpp_free(def);
/* a TYPE wins; a part of a register is a number, no address */
	def = KOK(&env_x86, "p vfs_read %edi:s64 %ah:b4@4/8 %dil:symbol");
	CHECK(reg_is(def, 0, X86_DI, 4, 0, TPP_TYPE_S64));
	tpp_free(def);

	def = KOK(&env_arm64, "p vfs_read %w0 %w30 %fp %ip0 %ip1 %x29");
	CHECK(reg_is(def, 0, 0, 4, 0, TPP_TYPE_U32));
	CHECK(reg_is(def, 1, 240, 4, 0, TPP_TYPE_U32));
	CHECK(reg_is(def, 2, 232, 0, 0, TPP_TYPE_X64));
	CHECK(reg_is(def, 3, 128, 0, 0, TPP_TYPE_X64));
	CHECK(reg_is(def, 4, 136, 0, 0, TPP_TYPE_X64));
	CHECK(reg_is(def, 5, 232, 0, 0, TPP_TYPE_X64));
	tpp_free(def);
}

/* Where $argN is: the calling convention of each arch */
static void test_arg_layout(void)
{
	struct tpp_def *def;

/* x86_64: six registers, then the stack above the return address */
	def = KOK(&env_x86, "p vfs_read $arg5 $arg6 $arg7 $arg10");
	CHECK(reg_is(def, 0, X86_R8, 0, 0, TPP_TYPE_X64));
	CHECK(reg_is(def, 1, X86_R9, 0, 0, TPP_TYPE_X64));
	CHECK(def && def->args[2].fetch.src == TPP_SRC_STACK &&
	      def->args[2].fetch.val == 1 && def->args[3].fetch.val == 4);
	tpp_free(def);
/* arm64: x0..x7, then the stack from the stack pointer up */
	def = KOK(&env_arm64, "p vfs_read $arg1 $arg8 $arg9 $arg12");
	CHECK(reg_is(def, 0, 0, 0, 0, TPP_TYPE_X64));
	CHECK(reg_is(def, 1, 56, 0, 0, TPP_TYPE_X64));
	CHECK(def && def->args[2].fetch.src == TPP_SRC_STACK &&
	      def->args[2].fetch.val == 0 && def->args[3].fetch.val == 3);
	tpp_free(def);
/* a return probe saves them at the entry */
	def = KOK(&env_arm64, "r vfs_read $arg2 $arg10");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_EARG &&
	      def->args[0].fetch.val == tpp_earg(TPP_SRC_REG, 8) &&
	      def->args[1].fetch.val == tpp_earg(TPP_SRC_STACK, 1));
	tpp_free(def);
/* without an arch table: regs_get_kernel_argument() */
	def = KOK(&env_generic, "p vfs_read $arg1 $arg9");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_ARG &&
	      def->args[0].fetch.val == 0 && def->args[1].fetch.val == 8);
	tpp_free(def);
}

static void test_imm_and_mem(void)
{
	struct tpp_def *def;

	def = KOK(&env_x86, "p vfs_read \\1 \\-5 \\+0x10 \\\"a\"b\" \\0777");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_IMM &&
	      def->args[0].store == TPP_ST_RAW && def->args[0].nr_ops == 2);
	CHECK(def && (long)def->args[1].fetch.val == -5);
	CHECK(def && def->args[2].fetch.val == 16);
	CHECK(def && def->args[3].fetch.src == TPP_SRC_IMMSTR &&
	      !strcmp(def->args[3].fetch.str, "a\"b") &&
	      def->args[3].type == TPP_TYPE_STRING);
	CHECK(def && def->args[4].fetch.val == 0777);
	tpp_free(def);
	def = KOK(&env_x86, "p vfs_read @0x10 @0x10:string \\\"x\":string");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_ADDR &&
	      def->args[0].fetch.nr_derefs == 1 &&
	      def->args[0].store == TPP_ST_MEM);
	CHECK(def && def->args[1].store == TPP_ST_STRING && def->args[1].fold);
	tpp_free(def);
}

static void test_derefs(void)
{
	struct tpp_def *def;
	char cmd[256];

	def = KOK(&env_x86, "p vfs_read +u8(%si):string -u4(%si) +-2(%si)");
	CHECK(def && def->args[0].store == TPP_ST_USTRING &&
	      def->args[0].fetch.deref[0].offset == 8 &&
	      def->args[0].fetch.deref[0].user);
	CHECK(def && def->args[1].store == TPP_ST_UMEM &&
	      def->args[1].fetch.deref[0].offset == -4);
	CHECK(def && def->args[2].fetch.deref[0].offset == -2);
	tpp_free(def);
	def = KOK(&env_x86, "p vfs_read +0(+8(%ax)):ustring +0(%ax):u8[4]");
	CHECK(def && def->args[0].fetch.nr_derefs == 2 &&
	      def->args[0].fetch.deref[0].offset == 8 &&
	      def->args[0].store == TPP_ST_USTRING);
	CHECK(def && def->args[1].count == 4 && def->args[1].nr_ops == 3);
	tpp_free(def);
	/*
	 * after a dereference too, a type error points at the type (6.12
	 * counts its offset from the inner value: "+u0(%ax):sym^str")
	 */
/* 13 derefs + @0 fill 15 slots; an array needs one more */
	snprintf(cmd, sizeof(cmd), "p vfs_read %s",
		 "+0(^+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(@0))))))))))))):u8[2]");
	KERR(&env_x86, cmd, TOO_DEEP, -E2BIG);
/* ... and a string array needs its store slot first: -EINVAL */
	snprintf(cmd, sizeof(cmd), "p vfs_read %s",
		 "+0(^+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(@s)))))))))))):"
		 "string[2]");
	KERR(&env_x86, cmd, TOO_DEEP, -EINVAL);
	def = KOK(&env_x86, "p vfs_read +0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0("
		  "+0(@0)))))))))))))");
	CHECK(def && def->args[0].nr_ops == 15 &&
	      def->args[0].fetch.nr_derefs == 14);
	tpp_free(def);
}

static void test_types(void)
{
	struct tpp_def *def;

	def = KOK(&env_x86, "p vfs_read @1:b4@2/8 %ax:b0x3@0x1/0x20 @1:s16 "
		  "@1:char %ax:symbol %ax:symstr $stack0:symstr");
	CHECK(def && def->args[0].type == TPP_TYPE_U8 &&
	      def->args[0].bf_bytes == 1 && def->args[0].bf_lshift == 2 &&
	      def->args[0].bf_rshift == 4 && def->args[0].nr_ops == 3);
	CHECK(def && def->args[1].type == TPP_TYPE_U32 &&
	      def->args[1].bf_lshift == 28 && def->args[1].bf_rshift == 29 &&
	      def->args[1].store == TPP_ST_RAW && def->args[1].nr_ops == 3);
	CHECK(def && def->args[2].type == TPP_TYPE_S16);
	CHECK(def && def->args[3].type == TPP_TYPE_CHAR);
	CHECK(def && def->args[4].type == TPP_TYPE_SYMBOL);
	CHECK(def && def->args[5].store == TPP_ST_SYMSTR && !def->args[5].fold);
	CHECK(def && def->size == 1 + 4 + 2 + 1 + 8 + 4 + 4);
	tpp_free(def);
	def = KOK(&env_x86, "p vfs_read +0(%ax):string[3] @1:u8[64] \\1:string");
	CHECK(def && def->args[0].store == TPP_ST_STRING &&
	      !def->args[0].fold && def->args[0].count == 3);
	CHECK(def && def->args[1].count == 64);
	CHECK(def && def->args[2].store == TPP_ST_STRING && !def->args[2].fold);
	tpp_free(def);
}

static void test_arg_names(void)
{
	struct tpp_def *def;

	def = KOK(&env_x86, "p vfs_read a2345678901234567890123456789012=%ax");
	CHECK(def && strlen(def->args[0].name) == 32);
	tpp_free(def);
/* with BTF built in, a bare identifier names itself */
	def = KOK(&env_btf, "p vfs_read count %ax");
	CHECK(def && !strcmp(def->args[0].name, "count") &&
	      !strcmp(def->args[1].name, "arg2"));
	tpp_free(def);
}

/* $current: the task's address, dereferenced by offset or through BTF */
static void test_current(void)
{
	struct tpp_def *def;

	def = KOK(&env_x86, "p vfs_read c=$current +0x10($current):u32");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_CURRENT &&
	      !def->args[0].fetch.nr_derefs &&
	      def->args[1].fetch.src == TPP_SRC_CURRENT &&
	      def->args[1].fetch.nr_derefs == 1);
	tpp_free(def);
	def = KOK(&env_btf, "p 0x1000 n=$current->f_name:string");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_CURRENT &&
	      def->args[0].fetch.nr_derefs == 2);
	tpp_free(def);
	def = KOK(&env_btf, "r vfs_read $current->f_bits");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_CURRENT &&
	      def->args[0].type == TPP_TYPE_U32);
	tpp_free(def);
	def = AOK(&env_event, TPP_EVENT, NULL, "e:a/b sys/ev c=$current");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_CURRENT);
	tpp_free(def);
}

/* @entry(VALUE): VALUE read at the function entry, kept for the exit */
static void test_entry(void)
{
	struct tpp_def *def;
	char cmd[1024];

	def = KOK(&env_x86, "r vfs_read v=@entry(+0($arg1)):u32 "
		  "n=@entry(+0(+8($arg2))):string c=@entry($comm) $arg1 "
		  "a=@entry($arg1):b3@2/8");
	CHECK(def && def->args[0].entry && def->args[0].type == TPP_TYPE_U32 &&
	      def->args[0].fetch.src == TPP_SRC_REG &&
	      def->args[0].fetch.val == X86_DI &&
	      def->args[0].store == TPP_ST_MEM && def->args[0].fold);
	CHECK(def && def->args[1].entry &&
	      def->args[1].type == TPP_TYPE_STRING &&
	      def->args[1].fetch.nr_derefs == 2 &&
	      !strcmp(def->args[1].comm, "@entry(+0(+8($arg2))):string"));
	CHECK(def && def->args[2].entry &&
	      def->args[2].type == TPP_TYPE_STRING &&
	      def->args[2].fetch.src == TPP_SRC_COMM);
	CHECK(def && !def->args[3].entry &&
	      def->args[3].fetch.src == TPP_SRC_EARG);
	CHECK(def && def->args[4].entry && def->args[4].bf_bytes == 1);
	CHECK(def && def->entry_size == 4 + 2 * (4 + TPP_ENTRY_STRING) + 1 &&
	      def->nr_eargs == 1);
	tpp_free(def);
/* the entry data holds 4096 bytes: 15 strings do, 16 do not */
	KGOOD(&env_x86, repeat(cmd, "r vfs_read", " @entry($comm)", 15, ""));
	KERR(&env_x86, repeat(cmd, "r vfs_read", " @entry($comm)", 15,
			      " ^@entry($comm)"), ENTRY_BIG, -E2BIG);
/* BTF names and fields, as at the entry */
	def = KOK(&env_btf, "r vfs_read m=@entry(file->f_mode) b=@entry(buf):string");
	CHECK(def && def->args[0].entry && def->args[0].type == TPP_TYPE_U32 &&
	      def->args[0].fetch.src == TPP_SRC_REG &&
	      def->args[0].fetch.nr_derefs == 1);
	CHECK(def && def->args[1].entry && def->args[1].fetch.nr_derefs == 1 &&
	      def->args[1].store == TPP_ST_STRING);
	tpp_free(def);
/* @entry($argN) takes the parameter's name and type, as $argN does */
	def = KOK(&env_btf, "r vfs_read @entry($arg3) @entry($arg2):string "
		  "c=@entry($arg1) @entry($arg1):u8");
	CHECK(def && def->args[0].entry && !strcmp(def->args[0].name, "count") &&
	      def->args[0].type == TPP_TYPE_U64 &&
	      def->args[0].fetch.src == TPP_SRC_REG &&
	      def->args[0].fetch.val == X86_DX);
	CHECK(def && def->args[1].entry && !strcmp(def->args[1].name, "buf") &&
	      def->args[1].store == TPP_ST_STRING);
/* a name of one's own leaves it as written, as for NAME=$argN */
	CHECK(def && def->args[2].entry && !strcmp(def->args[2].name, "c") &&
	      def->args[2].type == TPP_TYPE_X64);
	CHECK(def && !strcmp(def->args[3].name, "file") &&
	      def->args[3].type == TPP_TYPE_U8);
	tpp_free(def);
	def = KOK(&env_btf, "r nobtf @entry($arg1)");
	CHECK(def && def->args[0].entry && !strcmp(def->args[0].name, "arg1"));
	tpp_free(def);
/* :%pd reads the name at the entry; carets map back into VALUE */
	def = KOK(&env_x86, "r dput n=@entry($arg1):%pd");
	CHECK(def && def->args[0].entry &&
	      !strcmp(def->args[0].comm, "@entry(+0x0(+0x28($arg1))):string"));
	tpp_free(def);
	KERRB("r dput @entry($arg1):^:%pd", ENTRY_CLOSE, -EINVAL);
	KERRB("r dput @entry($arg1)::::::::::^:%pD", ENTRY_CLOSE, -EINVAL);
/* fprobe exit, uretprobe; not eprobes or entry probes */
	def = AOK(&env_x86, TPP_FPROBE | TPP_RETURN, "vfs_read",
		  "f:a/b vfs_read%return v=@entry($arg2):u8");
	CHECK(def && def->args[0].entry &&
	      def->args[0].fetch.src == TPP_SRC_REG);
	tpp_free(def);
	def = AOK(&env_x86, TPP_USER | TPP_RETURN, NULL,
		  "r /bin/sh:10 v=@entry(+0(%sp)):u64 s=@entry(+0(%di)):ustring");
	CHECK(def && def->args[0].entry && def->args[1].entry &&
	      def->args[1].store == TPP_ST_USTRING &&
	      tpp_edata_size(TPP_USER, def->entry_size, 0) ==
	      round_up(8 + 8 + 4 + TPP_ENTRY_STRING, 8));
	tpp_free(def);
}

/* this_cpu_ptr() and this_cpu_read(): per-CPU values, kernel probes only */
static void test_percpu(void)
{
	struct tpp_def *def;
	const struct tpp_arg *a;

	def = KOK(&env_x86, "p vfs_read a=this_cpu_ptr(@jiffies) "
		  "b=this_cpu_read(@jiffies):u32 c=this_cpu_read(+8(%di)) "
		  "d=this_cpu_ptr(%di):string");
	a = def ? def->args : NULL;
	CHECK(a && a[0].fetch.src == TPP_SRC_SYMBOL &&
	      a[0].fetch.nr_derefs == 1 && a[0].fetch.deref[0].percpu &&
	      a[0].store == TPP_ST_RAW && !a[0].fold);
	CHECK(a && a[1].fetch.nr_derefs == 2 && a[1].fetch.deref[0].percpu &&
	      !a[1].fetch.deref[1].percpu && a[1].store == TPP_ST_MEM &&
	      a[1].fold && a[1].type == TPP_TYPE_U32);
	CHECK(a && a[2].fetch.src == TPP_SRC_REG &&
	      a[2].fetch.nr_derefs == 3 && a[2].fetch.deref[0].offset == 8 &&
	      a[2].fetch.deref[1].percpu && !a[2].fetch.deref[2].percpu);
	CHECK(a && a[3].store == TPP_ST_STRING && !a[3].fold &&
	      a[3].fetch.nr_derefs == 1);
	tpp_free(def);
	def = AOK(&env_x86, TPP_FPROBE | TPP_ENTRY, "vfs_read",
		  "f:a/b vfs_read c=this_cpu_read($arg1)");
	CHECK(def && def->args[0].fetch.nr_derefs == 2);
	tpp_free(def);
}

/* (STRUCT[,MEMBER])TARGET->FIELD: BTF typecasts, as newer kernels have */
static void test_typecast(void)
{
	struct tpp_def *def;
	const struct tpp_arg *a;

	def = KOK(&env_btf, "p vfs_read a=(file)%di->f_mode "
		  "b=(file,f_mode)+8(%si)->f_name:string "
		  "c=(file)(file)->f_comm:string "
		  "d=(file)((file)file->f_name)->f_mode");
	a = def ? def->args : NULL;
	CHECK(a && a[0].fetch.src == TPP_SRC_REG &&
	      a[0].fetch.val == X86_DI && a[0].fetch.nr_derefs == 1 &&
	      a[0].fetch.deref[0].offset == 0x14 &&
	      a[0].type == TPP_TYPE_U32 && a[0].store == TPP_ST_MEM);
/* container_of(): the value points at f_mode, 0x14 into the file */
	CHECK(a && a[1].fetch.src == TPP_SRC_REG &&
	      a[1].fetch.nr_derefs == 3 && a[1].fetch.deref[0].offset == 8 &&
	      a[1].fetch.deref[1].offset == 0x20 - 0x14 &&
	      a[1].type == TPP_TYPE_STRING && a[1].fold);
	CHECK(a && a[2].fetch.src == TPP_SRC_REG &&
	      a[2].fetch.nr_derefs == 1 &&
	      a[2].fetch.deref[0].offset == 0x30 && a[2].fold &&
	      a[2].store == TPP_ST_STRING);
	CHECK(a && a[3].fetch.nr_derefs == 2 &&
	      a[3].fetch.deref[0].offset == 0x20 &&
	      a[3].fetch.deref[1].offset == 0x14 &&
	      a[3].type == TPP_TYPE_U32);
	tpp_free(def);
	def = AOK(&env_event_btf, TPP_EVENT, NULL,
		  "e:a/b sys/ev a=(file)flags->f_mode");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_FIELD &&
	      def->args[0].fetch.nr_derefs == 1);
	tpp_free(def);
	aerr_at(&env_event_btf, TPP_EVENT, NULL,
		"e:a/b sys/ev a=(file)^nope->f_mode", TPP_E_EP_FIELD, -EINVAL,
		__LINE__);
}

static void test_limits(void)
{
	char cmd[2048];
	struct tpp_def *def;

	def = KOK(&env_x86, repeat(cmd, "p vfs_read", " \\1", 128, ""));
	CHECK(def && def->nr_args == 128 && def->size == 1024 &&
	      !strcmp(def->args[127].name, "arg128"));
	tpp_free(def);
/* 129 arguments: the caret on the first one too many, before errors */
	KERR(&env_x86, repeat(cmd, "p vfs_read", " \\1", 128, " ^\\1 %bad"),
	     TOO_MANY_ARGS, -E2BIG);
	KERR(&env_x86, repeat(cmd, "p vfs_read", " \\1", 128, " ^\\1"),
	     TOO_MANY_ARGS, -E2BIG);
/* 6 x 512 bytes fit, a seventh array does not */
	repeat(cmd, "p vfs_read", " +0(%ax):u64[64]", 6, " +0(^%ax):u64[64]");
	KERR(&env_x86, cmd, EVENT_BIG, -E2BIG);
	def = KOK(&env_x86, repeat(cmd, "p vfs_read", " +0(%ax):u64[64]", 6, ""));
	CHECK(def && def->size == 3072);
	tpp_free(def);
	def = KOK(&env_x86, "p vfs_read a=+1234567(+1234567(+1234567(+1234567("
		  "+1234567(+1234567(@12))))))");
	CHECK(def && strlen(def->args[0].comm) == 63);
	tpp_free(def);
}

static void test_btf(void)
{
	struct tpp_def *def;

	def = KOK(&env_btf, "p vfs_read $arg*");
	CHECK(def && def->nr_args == 4 && !strcmp(def->args[0].name, "file") &&
	      !strcmp(def->args[3].name, "pos") &&
	      def->args[2].type == TPP_TYPE_U64 &&
	      def->args[1].fetch.src == TPP_SRC_REG &&
	      def->args[1].fetch.val == X86_SI);
/* arguments past the written words point after the command */
	CHECK(def && def->args[0].pos == 11 && def->args[1].pos == 17);
	tpp_free(def);
	def = KOK(&env_btf, "r vfs_read $arg2 $retval $arg1:u32");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_EARG &&
	      !strcmp(def->args[0].name, "buf"));
	CHECK(def && def->args[1].type == TPP_TYPE_S64);
	CHECK(def && !strcmp(def->args[2].name, "file") &&
	      def->args[2].type == TPP_TYPE_U32);
	tpp_free(def);
	def = KOK(&env_btf, "p nobtf $arg1");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_REG);
	tpp_free(def);
	def = KOK(&env_btf, "r nobtf $retval");
	CHECK(def && def->args[0].fetch.src == TPP_SRC_RETVAL &&
	      def->args[0].type == TPP_TYPE_X64);
	tpp_free(def);

	def = KOK(&env_btf, "p vfs_read buf:string file->f_mode file->f_bits "
		  "file->f_name:ustring file->f_comm:string +0(file):u8");
	CHECK(def && def->args[0].fetch.nr_derefs == 1 &&
	      def->args[0].store == TPP_ST_STRING && def->args[0].fold);
	CHECK(def && def->args[1].type == TPP_TYPE_U32 &&
	      def->args[1].fetch.deref[0].offset == 0x14 &&
	      def->args[1].store == TPP_ST_MEM &&
	      !strcmp(def->args[1].name, "arg2"));
	CHECK(def && def->args[2].bf_bytes == 8 &&
	      def->args[2].bf_lshift == 59 && def->args[2].bf_rshift == 61);
	CHECK(def && def->args[3].fetch.nr_derefs == 2 &&
	      def->args[3].fetch.deref[1].user &&
	      def->args[3].store == TPP_ST_USTRING);
	CHECK(def && def->args[4].fetch.nr_derefs == 1 &&
	      def->args[4].store == TPP_ST_STRING);
	CHECK(def && def->args[5].type == TPP_TYPE_U8);
	tpp_free(def);
}

static void test_btf_tail_caret(void)
{
	const char *cmd = "p vfs_read $arg* %bad";
	struct tpp_error err;
	struct tpp_def *def = tpp_parse_kprobe(cmd, &env_btf, &err);

/* argument 5 maps to word 6 of 4: upstream's caret goes past the end */
	CHECK(IS_ERR(def) && err.id == TPP_E_REG && err.pos == strlen(cmd) + 1);
}

static void test_dentry(void)
{
	struct tpp_def *def;
	char cmd[512];

	def = KOK(&env_x86, "p dput $arg1:%pd f=$stack0:%pD");
	CHECK(def && !strcmp(def->args[0].comm, "+0x0(+0x28($arg1)):string") &&
	      !strcmp(def->args[0].name, "arg1"));
	CHECK(def && def->args[0].fetch.nr_derefs == 2 &&
	      def->args[0].fetch.deref[0].offset == FAKE_DNAME_OFF &&
	      def->args[0].store == TPP_ST_STRING && def->args[0].fold);
	CHECK(def && !strcmp(def->args[1].name, "f") &&
	      !strcmp(def->args[1].comm,
		      "+0x0(+0x28(+0x10($stack0))):string") &&
	      def->args[1].fetch.deref[0].offset == FAKE_FDENTRY_OFF);
	tpp_free(def);
/* the rewrite buffer holds 256 bytes in all; 6.12's errno */
	KERR(&env_x86, repeat(cmd, "p dput", " $stack0:%pd", 9, " ^$stack0:%pd"),
	     DENTRY_ROOM, -ENOMEM);
	KGOOD(&env_x86, repeat(cmd, "p dput", " $stack0:%pd", 9, ""));
}

static void free_names(struct tpp_def *def)
{
	kfree(def->group);
	kfree(def->event);
	def->group = NULL;
	def->event = NULL;
}

/* The head helpers the f, t, e and p/r (uprobe) parsers share */
static void test_head_helpers(void)
{
	struct tpp_error err = { 0, TPP_E_NONE, 0 };
	struct tpp_def def = { 0 };
	struct tpp_name n;
	char name[] = "p_a:b.c*d";

	CHECK(tpp_word_len("f:g/e vfs_read") == 5 && tpp_word_len("abc") == 3 &&
	      tpp_word_len("") == 0 && tpp_word_len(" x") == 0);
	CHECK(!tpp_parse_head_name("f vfs_read", &n, &err) && !n.group_len &&
	      !n.event_len);
	CHECK(!tpp_parse_head_name("f4:grp/ev vfs_read", &n, &err) &&
	      n.group == 3 && n.group_len == 3 && n.event == 7 &&
	      n.event_len == 2);
	CHECK(!tpp_parse_head_name("e:grp/ a.b", &n, &err) && n.group_len == 3 &&
	      !n.event_len);
	CHECK(tpp_parse_head_name("t:/ev x", &n, &err) == -EINVAL &&
	      err.id == TPP_E_GROUP_EMPTY && err.pos == 2);
	CHECK(!tpp_set_names(&def, "f:grp/ev x", &(struct tpp_name){ 2, 3, 6, 2 },
			     "fprobes", "x__entry") &&
	      !strcmp(def.group, "grp") && !strcmp(def.event, "ev"));
	free_names(&def);
	CHECK(!tpp_set_names(&def, "f x", &(struct tpp_name){ 0 }, "fprobes",
			     "x__entry") &&
	      !strcmp(def.group, "fprobes") && !strcmp(def.event, "x__entry"));
	free_names(&def);
	kshim_fail_countdown = 2;
	CHECK(tpp_set_names(&def, "f x", &(struct tpp_name){ 0 }, "fprobes",
			    "x__entry") == -ENOMEM && def.group && !def.event);
	kshim_fail_countdown = 0;
	free_names(&def);
	tpp_fix_event_name(name);
	CHECK(!strcmp(name, "p_a_b_c_d"));
	name[0] = ':';
	tpp_fix_event_name(name);
	CHECK(name[0] == ':');
}

/* Every allocation failing in turn must unwind cleanly (ASan checks) */
static struct tpp_def *parse_line(const char *cmd, const struct tpp_env *env,
				  struct tpp_error *err)
{
	if (cmd[0] == 'w')
		return tpp_parse_wprobe(cmd, env, err);
	return tpp_parse_kprobe(cmd, env, err);
}

/* Each allocation of parsing @cmd (a kprobe or wprobe line) failing */
static void test_enomem(const struct tpp_env *env, const char *cmd)
{
	struct tpp_error err;
	struct tpp_def *def;
	long n, total;

	kshim_allocs = 0;
	def = parse_line(cmd, env, &err);
	CHECK(!IS_ERR(def));
	tpp_free(IS_ERR(def) ? NULL : def);
	total = kshim_allocs;
	for (n = 1; n <= total; n++) {
		kshim_fail_countdown = n;
		def = parse_line(cmd, env, &err);
		CHECK(IS_ERR(def) && err.errnum == -ENOMEM &&
		      err.id == TPP_E_NONE);
		tpp_free(IS_ERR(def) ? NULL : def);
	}
	kshim_fail_countdown = 0;
}

/* What an accepted wprobe definition holds */
static void test_wprobe(void)
{
	struct tpp_error err;
	struct tpp_def *def;

	def = tpp_parse_wprobe("w w@jiffies", &env_x86, &err);
	CHECK(!IS_ERR(def) && def->kind == 'w' && def->flags == TPP_WATCH &&
	      def->watch.access == TPP_WATCH_W &&
	      def->watch.len == 4 && def->watch.len_pos == 11 &&
	      def->watch.pos == 2 &&
	      def->place_pos == 4 && !strcmp(def->symbol, "jiffies") &&
	      !def->offset && !def->module && !strcmp(def->group, "wprobes") &&
	      !strcmp(def->event, "jiffies") && !def->nr_args);
	tpp_free(def);
	def = tpp_parse_wprobe("w:g/e @panic_timeout+4:2 a=$addr +0($addr):u16",
			       &env_x86, &err);
	CHECK(!IS_ERR(def) && def->watch.access == TPP_WATCH_RW &&
	      def->watch.len == 2 && def->watch.len_pos == 23 &&
	      def->place_pos == 7 && def->offset == 4 &&
	      !strcmp(def->group, "g") && !strcmp(def->event, "e") &&
	      def->nr_args == 2 && def->args[0].fetch.src == TPP_SRC_WATCH &&
	      !def->args[0].fetch.nr_derefs &&
	      def->args[1].fetch.src == TPP_SRC_WATCH &&
	      def->args[1].fetch.nr_derefs == 1 &&
	      def->args[1].type == TPP_TYPE_U16 &&
	      !strcmp(def->args[1].name, "arg2"));
	tpp_free(def);
	/* $value is +0($addr) */
	def = tpp_parse_wprobe("w w@panic_timeout $value:s32", &env_x86, &err);
	CHECK(!IS_ERR(def) && def->nr_args == 1 &&
	      def->args[0].fetch.src == TPP_SRC_WATCH &&
	      def->args[0].fetch.nr_derefs == 1 &&
	      !def->args[0].fetch.deref[0].offset &&
	      def->args[0].type == TPP_TYPE_S32);
	tpp_free(def);
	def = tpp_parse_wprobe("w r@jiffies-16", &env_x86, &err);
	CHECK(!IS_ERR(def) && def->watch.access == TPP_WATCH_R &&
	      (long)def->offset == -16 && !strcmp(def->event, "jiffies"));
	tpp_free(def);
	def = tpp_parse_wprobe("w rw@trace_printk:trace_printk_irq_work:1",
			       &env_x86, &err);
	CHECK(!IS_ERR(def) && def->watch.len == 1 &&
	      !strcmp(def->module, "trace_printk") &&
	      !strcmp(def->symbol, "trace_printk:trace_printk_irq_work") &&
	      !strcmp(def->event, "trace_printk_trace_printk_irq_work"));
	tpp_free(def);
	def = tpp_parse_wprobe("w @0x1000:4", &env_x86, &err);
	CHECK(!IS_ERR(def) && !def->symbol && def->addr == 0x1000 &&
	      !strcmp(def->event, "w_0x1000"));
	tpp_free(def);
	/* -1: no address until a set_wprobe trigger gives one */
	def = tpp_parse_wprobe("w w@-1:4", &env_x86, &err);
	CHECK(!IS_ERR(def) && def->watch.unset && !def->symbol &&
	      !def->addr && def->watch.len == 4 &&
	      !strcmp(def->event, "w_unset"));
	tpp_free(def);
	def = tpp_parse_wprobe("w w@jiffies", &env_x86, &err);
	CHECK(!IS_ERR(def) && !def->watch.unset);
	tpp_free(def);
	def = tpp_parse_wprobe("w w@-1+8", &env_x86, &err);
	CHECK(PTR_ERR(def) == -EINVAL && err.id == TPP_E_WATCH_SIGN &&
	      err.pos == 4);
	/* no place: the caret goes on the 'w', not after the command */
	def = tpp_parse_wprobe("w:ev", &env_x86, &err);
	CHECK(PTR_ERR(def) == -EINVAL && err.id == TPP_E_NO_PLACE &&
	      err.pos == 0);
	/* a maxactive is refused, not taken for another probe type */
	def = tpp_parse_wprobe("w10 w@jiffies", &env_x86, &err);
	CHECK(PTR_ERR(def) == -EINVAL && err.id == TPP_E_MAXACT_ON_ENTRY &&
	      err.pos == 1);
	test_enomem(&env_x86, "w:g/e w@jiffies a=$addr +0(@jiffies):string");
}

static void test_err_table(void)
{
	int i;

	for (i = 0; i < TPP_E_MAX; i++)
		CHECK(tpp_err_text[i] && tpp_err_text[i][0]);
	CHECK(!strcmp(tpp_err_text[TPP_E_IMMSTR_OPEN],
		      "String is not closed with '\"'"));
	CHECK(!strcmp(tpp_err_text[TPP_E_EVENT_BIG],
		      "Event too big (too many fields?)"));
	CHECK(!strcmp(tpp_type_name(TPP_TYPE_SYMSTR), "symstr") &&
	      tpp_type_size(TPP_TYPE_SYMBOL) == sizeof(long) &&
	      !tpp_type_name(TPP_TYPE_MAX));
}

int main(void)
{
	test_table();
	test_wprobe();
	test_kprobe_syntax_errors();
	test_multiprobe();
	test_append_fewer_args();
	test_args_syntax(&env_x86, "%ax", "%ex");
	test_args_syntax(&env_arm64, "%x0", "%ax");
	test_args_syntax_common();
	test_maxactive();
	test_probepoint();
	test_uprobe_args();
	test_fprobe_tprobe();
	test_eprobe_args();
	test_eprobe_symbols();
	test_tree();
	test_place_and_names();
	test_vars();
	test_regs();
	test_abi_regs();
	test_arg_layout();
	test_imm_and_mem();
	test_derefs();
	test_types();
	test_arg_names();
	test_current();
	test_entry();
	test_percpu();
	test_typecast();
	test_limits();
	test_btf();
	test_btf_tail_caret();
	test_dentry();
	test_enomem(&env_x86, "r10:g/e vfs_read a=+0(%di):u32 $comm @sym+4 "
		    "\\\"s\" %ax:b4@2/8 $stack0:%pD");
	test_enomem(&env_btf, "p vfs_read $arg* file->f_mode:u8");
/* a failed BTF lookup is ENOMEM, not "no BTF" (fail-nth finding) */
	test_enomem(&env_btf, "p vfs_read $arg1 $arg2:u32");
	test_err_table();
	test_head_helpers();
	/* every BTF reference a whole structure took was given back */
	CHECK(!tpp_fake_btf_refs);
	printf("trace_probe: %d tests, %d failures\n", tests, failures);
	return failures ? 1 : 0;
}
