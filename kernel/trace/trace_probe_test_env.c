// SPDX-License-Identifier: GPL-2.0
/*
 * The made-up kernel the probe parser's tests run against, and the runner
 * of their cases (see trace_probe_test_env.h).  The data is made up; only
 * its shape matches the kernel (pt_regs offsets, duplicate symbols, modules
 * that are loaded or not, a void function, char pointers).  Built into the
 * KUnit suite, and in user space by the unit tests over kernel shims.
 */
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/probe_regs.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "probe_fetch.h"
#include "trace_probe_test_env.h"

struct fake_reg {
	const char *name;
	int offset;
};

/* The ptrace names of struct pt_regs on x86_64 */
static const struct fake_reg x86_regs[] = {
	{ "r15", 0 }, { "r14", 8 }, { "r13", 16 }, { "r12", 24 },
	{ "bp", 32 }, { "bx", 40 }, { "r11", 48 }, { "r10", 56 },
	{ "r9", 64 }, { "r8", 72 }, { "ax", 80 }, { "cx", 88 },
	{ "dx", 96 }, { "si", 104 }, { "di", 112 }, { "orig_ax", 120 },
	{ "ip", 128 }, { "cs", 136 }, { "flags", 144 }, { "sp", 152 },
	{ "ss", 160 }, { NULL, 0 },
};

int x86_regs_query_register_offset(const char *name)
{
	const struct fake_reg *r;

	for (r = x86_regs; r->name; r++)
		if (!strcmp(r->name, name))
			return r->offset;
	return -EINVAL;
}

/* The ptrace names of struct user_pt_regs on arm64: x0..x30, lr, sp, ... */
int arm64_regs_query_register_offset(const char *name)
{
	char buf[16];
	int i;

	for (i = 0; i <= 30; i++) {
		snprintf(buf, sizeof(buf), "x%d", i);
		if (!strcmp(buf, name))
			return i * 8;
	}
	if (!strcmp(name, "lr"))
		return 30 * 8;
	if (!strcmp(name, "sp"))
		return 31 * 8;
	if (!strcmp(name, "pc"))
		return 32 * 8;
	if (!strcmp(name, "pstate"))
		return 33 * 8;
	return -EINVAL;
}

/*
 * The arch files themselves (trace_probe_test_{x86,arm64}.c), behind
 * what probe_kenv.c does with them: ptrace's names first, then the arch's.
 */
struct fake_arch {
	int (*query)(const char *name);
	int (*reg)(const char *name, struct probe_reg *reg);
	int (*arg)(unsigned int n, struct probe_arg_loc *loc);
};

static const struct fake_arch fake_x86 = {
	x86_regs_query_register_offset, x86_probe_arch_reg, x86_probe_arch_arg,
};

static const struct fake_arch fake_arm64 = {
	arm64_regs_query_register_offset, arm64_probe_arch_reg,
	arm64_probe_arch_arg,
};

static int fake_reg(const struct fake_arch *arch, const char *name,
		    struct tpp_reg *out)
{
	struct probe_reg reg = { .size = sizeof(long) };
	int offset = arch->query(name);

	if (offset >= 0)
		reg.offset = offset;
	else if (arch->reg(name, &reg))
		return -EINVAL;
	out->offset = reg.offset;
	out->width = reg.size < sizeof(long) ? reg.size : 0;
	out->shift = out->width ? reg.shift : 0;
	return 0;
}

static int fake_arg_at(const struct fake_arch *arch, unsigned int n,
		       unsigned long *val)
{
	struct probe_arg_loc loc;
	int ret = arch->arg(n, &loc);

	if (ret)
		return ret;
	*val = loc.val;
	switch (loc.kind) {
	case PROBE_ARG_REG:
		return TPP_SRC_REG;
	case PROBE_ARG_STACK:
		return TPP_SRC_STACK;
	default:
		return TPP_SRC_ARG;
	}
}

static int x86_reg(void *priv, const char *name, struct tpp_reg *reg)
{
	(void)priv;
	return fake_reg(&fake_x86, name, reg);
}

static int x86_arg_at(void *priv, unsigned int n, unsigned long *val)
{
	(void)priv;
	return fake_arg_at(&fake_x86, n, val);
}

static int arm64_reg(void *priv, const char *name, struct tpp_reg *reg)
{
	(void)priv;
	return fake_reg(&fake_arm64, name, reg);
}

static int arm64_arg_at(void *priv, unsigned int n, unsigned long *val)
{
	(void)priv;
	return fake_arg_at(&fake_arm64, n, val);
}

/* An architecture without its own table: arguments through the API */
static int api_arg_at(void *priv, unsigned int n, unsigned long *val)
{
	(void)priv;
	*val = n;
	return TPP_SRC_ARG;
}

struct fake_sym {
	const char *mod;
	const char *name;
};

static const struct fake_sym syms[] = {
	{ NULL, "vfs_read" }, { NULL, "vfs_read.isra.0" }, { NULL, "do_exit" },
	{ NULL, "kernel_clone" }, { NULL, "kfree" }, { NULL, "dput" },
	{ NULL, "inet_csk_accept" }, { NULL, "tracefs_create_dir" },
	{ NULL, "_sdata" }, { NULL, "linux_proc_banner" },
	{ NULL, "name_show" }, { NULL, "name_show" }, { NULL, "name_show" },
	{ NULL, "longfunc" }, { NULL, "noparams" }, { NULL, "nobtf" },
	{ NULL, "jiffies" }, { NULL, "panic_timeout" },
	{ "trace_printk", "trace_printk_irq_work" },
	{ "dup", "dupsym" }, { "dup", "dupsym" },
	{ NULL, NULL },
};

static const char *const loaded[] = { "trace_printk", "dup", NULL };

static bool mod_loaded(const char *mod)
{
	int i;

	for (i = 0; loaded[i]; i++)
		if (!strcmp(loaded[i], mod))
			return true;
	return false;
}

static int sym_count(void *priv, const char *mod, const char *sym)
{
	const struct fake_sym *s;
	int n = 0;

	(void)priv;
	if (mod && !mod_loaded(mod))
		return -ENODEV;
	for (s = syms; s->name; s++)
		if (!strcmp(s->name, sym) &&
		    (!mod || (s->mod && !strcmp(s->mod, mod))))
			n++;
	return n;
}

/* Every function starts at offset 0 of its symbol */
static int func_entry(void *priv, const char *sym, unsigned long offset)
{
	const char *colon = strchr(sym, ':');
	char mod[64] = "";
	int n;

	if (colon) {
		snprintf(mod, sizeof(mod), "%.*s", (int)(colon - sym), sym);
		sym = colon + 1;
	}
	n = sym_count(priv, colon ? mod : NULL, sym);
	if (n <= 0)
		return -ENOENT;
	return offset ? -EINVAL : 0;
}

/* The attached event of the eprobe tests: a record laid out as below */
static const struct {
	const char *name;
	unsigned int offset;
	unsigned int size;
	enum probe_efield_kind kind;
} fake_fields[] = {
	{ "dfd", FAKE_EF_DFD, 4, PROBE_EF_SIGNED },
	{ "filename", FAKE_EF_FILENAME, 4, PROBE_EF_DATA_LOC },
	{ "flags", FAKE_EF_FLAGS, 8, PROBE_EF_UNSIGNED },
	{ "name", FAKE_EF_NAME, 16, PROBE_EF_CHARS },
	{ "rel", FAKE_EF_REL, 4, PROBE_EF_REL_LOC },
	{ "ptr", FAKE_EF_PTR, 8, PROBE_EF_CHAR_PTR },
	{ "small", FAKE_EF_SMALL, 2, PROBE_EF_SIGNED },
	{ "args", FAKE_EF_ARGS, 48, PROBE_EF_ARRAY },
};

static int event_field(void *priv, const char *name)
{
	unsigned int i;

	(void)priv;
	for (i = 0; i < ARRAY_SIZE(fake_fields); i++)
		if (!strcmp(fake_fields[i].name, name))
			return probe_efield(fake_fields[i].offset,
					    fake_fields[i].size,
					    fake_fields[i].kind);
	return -ENOENT;
}

/* ---- BTF ---- */

struct fake_param {
	const char *name;
	enum tpp_type type;
	enum tpp_btf_kind kind;
	bool is_file;		/* pointer to struct file */
};

struct fake_func {
	const char *name;
	bool void_ret;
	int nr;
	struct fake_param p[5];
};

#define LONGP "a_thirty_character_param_name_"

#define P(n, t, k, f)	{ n, TPP_TYPE_##t, TPP_BTF_##k, f }
#define NOP		P(NULL, X64, PLAIN, false)

static const struct fake_func funcs[] = {
	{ "vfs_read", false, 4, { P("file", X64, PLAIN, true),
		P("buf", X64, CHAR_PTR, false), P("count", U64, PLAIN, false),
		P("pos", X64, PLAIN, false), NOP } },
	{ "kfree", true, 1, { P("object", X64, PLAIN, false), NOP, NOP, NOP,
		NOP } },
	{ "dput", true, 1, { P("dentry", X64, PLAIN, false), NOP, NOP, NOP,
		NOP } },
	{ "noparams", false, 0, { NOP, NOP, NOP, NOP, NOP } },
	{ "longfunc", false, 5, { P(LONGP "1", S32, PLAIN, false),
		P(LONGP "2", S32, PLAIN, false), P(LONGP "3", S32, PLAIN, false),
		P(LONGP "4", S32, PLAIN, false),
		P(LONGP "5", S32, PLAIN, false) } },
	{ NULL, false, 0, { NOP, NOP, NOP, NOP, NOP } },
};

struct fake_field {
	const char *name;
	long offset;
	enum tpp_type type;
	enum tpp_btf_kind kind;
	unsigned char bitsize, bitoffs;
	unsigned int struct_size;	/* an embedded structure's */
};

static const struct fake_field file_fields[] = {
	{ "f_mode", 0x14, TPP_TYPE_U32, TPP_BTF_PLAIN, 0, 0, 0 },
	{ "f_bits", 0x18, TPP_TYPE_U32, TPP_BTF_PLAIN, 3, 2, 0 },
	{ "f_name", 0x20, TPP_TYPE_X64, TPP_BTF_CHAR_PTR, 0, 0, 0 },
	{ "f_comm", 0x30, TPP_TYPE_X64, TPP_BTF_CHAR_ARRAY, 0, 0, 0 },
	{ "f_path", 0x38, TPP_TYPE_X64, TPP_BTF_PLAIN, 0, 0, 16 },
	{ NULL, 0, TPP_TYPE_X64, TPP_BTF_PLAIN, 0, 0, 0 },
};

/*
 * Whole structures: struct file is 0x60 bytes, type id 1, and its
 * f_path id 2; the task_struct $current points at is id 3 and bigger
 * than any record.  The references resolve() hands out are counted, so
 * that a test can see each one given back.
 */
#define FAKE_FILE_SIZE		0x60
#define FAKE_TASK_SIZE		0x2400

int tpp_fake_btf_refs;
static char fake_btf_obj;

static void fake_whole(struct tpp_btf_req *req, u32 id, unsigned int size,
		       bool in_place)
{
	tpp_fake_btf_refs++;
	req->whole_btf = &fake_btf_obj;
	req->whole_id = id;
	req->whole_size = size;
	req->whole_in_place = in_place;
}

static void btf_put(void *btf)
{
	if (btf == &fake_btf_obj)
		tpp_fake_btf_refs--;
}

static const struct fake_func *find_func(const char *name)
{
	const struct fake_func *f;

	for (f = funcs; name && f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

/* The kernel's lookup allocates (a copy of the name): so does this one */
static int btf_nr_params(void *priv, const char *func, unsigned int flags)
{
	const struct fake_func *f = find_func(func);
	char *copy = kstrdup(func, GFP_KERNEL);

	(void)priv;
	(void)flags;
	if (!copy)
		return -ENOMEM;
	kfree(copy);
	return f ? f->nr : -ENOENT;
}

static const char *btf_param_name(void *priv, const char *func,
				  unsigned int flags, unsigned int idx)
{
	const struct fake_func *f = find_func(func);

	(void)priv;
	(void)flags;
	return f && idx < (unsigned int)f->nr ? f->p[idx].name : NULL;
}

static int req_fail(struct tpp_btf_req *req, int id, unsigned int at, int err)
{
	req->id = id;
	req->at = at;
	return err;
}

/* "->FIELD" of a struct file pointer, starting at byte @at of the expr */
static int resolve_field(struct tpp_btf_req *req, unsigned int at)
{
	const struct fake_field *f;
	unsigned int n = req->len - at;

	for (f = file_fields; f->name; f++) {
		if (strlen(f->name) != n || memcmp(f->name, req->expr + at, n))
			continue;
		req->field[0].offset = f->offset;
		req->field[0].at = at;
		req->nr_fields = 1;
		req->late_at = at;
		req->type = f->type;
		req->kind = f->kind;
		req->bitsize = f->bitsize;
		req->bitoffs = f->bitoffs;
		if (!req->whole)
			return 0;
		if (!f->struct_size)
			return req_fail(req, TPP_E_WHOLE_NOT_STRUCT, at,
					-EINVAL);
		fake_whole(req, 2, f->struct_size, true);
		return 0;
	}
	return req_fail(req, TPP_E_BTF_NOFIELD, at, -ENOENT);
}

static int resolve_retval(struct tpp_btf_req *req, const struct fake_func *f)
{
	if (!f)
		return 0;	/* no BTF entry: an untyped $retval */
	if (f->void_ret)
		return req_fail(req, TPP_E_VOID_RETVAL, 0, -ENOENT);
	req->typed = true;
	req->type = TPP_TYPE_S64;
	if (req->whole)		/* an int */
		return req_fail(req, TPP_E_WHOLE_NOT_STRUCT, 0, -EINVAL);
	if (req->len > 7)	/* "$retval->..." on a non-pointer */
		return req_fail(req, TPP_E_BTF_NOT_PTR, 9, -EINVAL);
	return 0;
}

/* ",MEMBER" of a typecast at @at..@end: struct file's, byte-aligned */
static int resolve_cast_member(struct tpp_btf_req *req, unsigned int at,
			       unsigned int end)
{
	const struct fake_field *f;
	const char *dash = memchr(req->expr + at, '-', end - at);

	if (at == end || req->expr[at] == '-' || req->expr[at] == '.')
		return req_fail(req, TPP_E_BTF_NOFIELD, at, -ENOENT);
	if (dash)
		return req_fail(req, TPP_E_TYPECAST_BAD_ARROW,
				dash - req->expr, -EINVAL);
	for (f = file_fields; f->name; f++) {
		if (strlen(f->name) != end - at ||
		    memcmp(f->name, req->expr + at, end - at))
			continue;
		if (f->bitsize)
			return req_fail(req, TPP_E_TYPECAST_NOT_ALIGNED, at,
					-EINVAL);
		req->cast_offset = f->offset;
		return 0;
	}
	return req_fail(req, TPP_E_BTF_NOFIELD, at, -ENOENT);
}

/* "(file[,MEMBER])TARGET->FIELD": the only structure is struct file */
static int resolve_cast(struct tpp_btf_req *req)
{
	unsigned int end = 1 + req->cast_len, n = 0;
	int ret;

	while (1 + n < end && req->expr[1 + n] != ',')
		n++;
	if (n != 4 || memcmp(req->expr + 1, "file", 4))
		return req_fail(req, TPP_E_TYPECAST_NO_STRUCT, 1, -EINVAL);
	if (1 + n < end) {
		ret = resolve_cast_member(req, 2 + n, end);
		if (ret)
			return ret;
	}
	req->typed = true;
	if (!req->chain) {	/* "*(file)X": the structure X points at */
		fake_whole(req, 1, FAKE_FILE_SIZE, false);
		return 0;
	}
	return resolve_field(req, req->chain + 2);
}

static int btf_resolve(void *priv, struct tpp_btf_req *req)
{
	const struct fake_func *f = find_func(req->func);
	unsigned int n = 0;
	int i;

	(void)priv;
	if (req->cast_len)
		return resolve_cast(req);
	while (n < req->len && req->expr[n] != '.' && req->expr[n] != '-')
		n++;
	/* $current points at a task_struct; the fake one has file's fields */
	if (n == 8 && !memcmp(req->expr, "$current", 8)) {
		req->src = TPP_SRC_CURRENT;
		if (n == req->len) {	/* only "*$current" asks */
			fake_whole(req, 3, FAKE_TASK_SIZE, false);
			return 0;
		}
		if (req->expr[n] == '.')
			return req_fail(req, TPP_E_BTF_DOT_ARG, n, -EOPNOTSUPP);
		if (n + 1 >= req->len || req->expr[n + 1] != '>')
			return req_fail(req, TPP_E_BTF_HYPHEN, n, -EINVAL);
		req->typed = true;
		return resolve_field(req, n + 2);
	}
	req->src = TPP_SRC_RETVAL;
	if (req->len >= 7 && !memcmp(req->expr, "$retval", 7))
		return resolve_retval(req, f);
	if (!f)
		return req_fail(req, TPP_E_BTF_NOFUNC, 0, -ENOENT);
	for (i = 0; i < f->nr; i++)
		if (strlen(f->p[i].name) == n &&
		    !memcmp(f->p[i].name, req->expr, n))
			break;
	if (i == f->nr)
		return req_fail(req, TPP_E_BTF_NOVAR, 0, -ENOENT);
	req->src = TPP_SRC_ARG;
	req->param = i;
	req->typed = true;
	req->type = f->p[i].type;
	req->kind = f->p[i].kind;
	if (n == req->len && req->whole && !f->p[i].is_file)
		return req_fail(req, TPP_E_WHOLE_NOT_STRUCT, 0, -EINVAL);
	if (n == req->len && req->whole)
		fake_whole(req, 1, FAKE_FILE_SIZE, false);
	if (n == req->len)
		return 0;
	if (req->expr[n] == '.')
		return req_fail(req, TPP_E_BTF_DOT_ARG, n, -EOPNOTSUPP);
	if (n + 1 >= req->len || req->expr[n + 1] != '>')
		return req_fail(req, TPP_E_BTF_HYPHEN, n, -EINVAL);
	if (!f->p[i].is_file)
		return req_fail(req, TPP_E_BTF_NOT_PTR, n + 2, -EINVAL);
	return resolve_field(req, n + 2);
}

static const struct tpp_btf_ops fake_btf = {
	.nr_params = btf_nr_params,
	.param_name = btf_param_name,
	.resolve = btf_resolve,
	.put = btf_put,
};

/* eprobes look @SYM up as they parse: the symbols above, from 0x1000 */
static unsigned long sym_addr(void *priv, const char *name)
{
	const struct fake_sym *s;

	(void)priv;
	for (s = syms; s->name; s++)
		if (!s->mod && !strcmp(s->name, name))
			return 0x1000 + 0x100 * (unsigned long)(s - syms);
	return 0;
}

#define FAKE_ENV(regs, args, btf_ops, lookup)			\
	{							\
		.reg = regs,					\
		.arg_at = args,					\
		.sym_count = sym_count,				\
		.func_entry = func_entry,			\
		.event_field = event_field,			\
		.sym_addr = lookup,				\
		.max_stack = FAKE_MAX_STACK,			\
		.max_arg = FAKE_MAX_STACK,			\
		.dentry_name_off = FAKE_DNAME_OFF,		\
		.file_dentry_off = FAKE_FDENTRY_OFF,		\
		.btf = btf_ops,					\
	}

const struct tpp_env env_x86 = FAKE_ENV(x86_reg, x86_arg_at, NULL, NULL);
const struct tpp_env env_arm64 = FAKE_ENV(arm64_reg, arm64_arg_at, NULL, NULL);
const struct tpp_env env_btf = FAKE_ENV(x86_reg, x86_arg_at, &fake_btf, NULL);
const struct tpp_env env_generic = FAKE_ENV(x86_reg, api_arg_at, NULL, NULL);
const struct tpp_env env_event = FAKE_ENV(x86_reg, x86_arg_at, NULL, sym_addr);
const struct tpp_env env_event_btf = FAKE_ENV(x86_reg, x86_arg_at, &fake_btf,
					      sym_addr);

static const struct tpp_env *const tpp_test_envs[] = {
	[TPP_TEST_X86] = &env_x86,
	[TPP_TEST_ARM64] = &env_arm64,
	[TPP_TEST_BTF] = &env_btf,
	[TPP_TEST_GENERIC] = &env_generic,
	[TPP_TEST_EVENT] = &env_event,
	[TPP_TEST_EVENT_BTF] = &env_event_btf,
};

/**
 * tpp_test_err_name - the error_log text of an error id, for reports
 * @id: a TPP_E_* id
 *
 * Return: the text, or "(none)" for %TPP_E_NONE.
 */
const char *tpp_test_err_name(int id)
{
	if (id == TPP_E_NONE)
		return "(none)";
	return id >= 0 && id < TPP_E_MAX ? tpp_err_text[id] : "(bad id)";
}

/* Copy @in to @out without its '^'; the '^''s offset, or 0 without one */
static unsigned int tpp_test_uncaret(const char *in, char *out, size_t size)
{
	const char *c = strchr(in, '^');

	if (!c) {
		strscpy(out, in, size);
		return 0;
	}
	snprintf(out, size, "%.*s%s", (int)(c - in), in, c + 1);
	return c - in;
}

/* The ":GROUP/EVENT" of word 0 of @cmd, as the f, t and e heads parse it */
static int tpp_test_name(const char *cmd, struct tpp_error *err)
{
	const char *colon = strchr(cmd, ':');
	const char *space = strchr(cmd, ' ');
	struct tpp_name name;
	unsigned int at;

	if (!colon || !space || space < colon)
		return -EINVAL;
	at = colon + 1 - cmd;
	return tpp_parse_event_name(cmd, at, space - cmd - at, &name, err);
}

/* Whether a refused parse gave what @c asks; @ret is its errno */
static bool tpp_test_refused(const struct tpp_test_case *c,
			     const struct tpp_test_got *got, long ret)
{
	const struct tpp_error *err = &got->err;

	return ret == c->errnum && err->errnum == c->errnum &&
	       err->id == c->id &&
	       (c->id == TPP_E_NONE || err->pos == got->caret);
}

/**
 * tpp_test_run - parse one case of trace_probe_test_cases.h
 * @c: the case
 * @got: what the parser gave, and where the case wants the caret
 *
 * Return: whether the parse gave what @c asks: its error id, errno and
 * caret, or (%TPP_TEST_ACCEPT) a definition.
 */
bool tpp_test_run(const struct tpp_test_case *c, struct tpp_test_got *got)
{
	const struct tpp_env *env = tpp_test_envs[c->env];
	struct tpp_def *def;
	char *cmd;
	long ret;

	memset(got, 0, sizeof(*got));
	got->err.id = TPP_E_NONE;
	cmd = kmalloc(TPP_TEST_CMD_MAX, GFP_KERNEL);
	if (!cmd) {
		got->err.errnum = -ENOMEM;
		return false;
	}
	got->caret = tpp_test_uncaret(c->cmd, cmd, TPP_TEST_CMD_MAX);
	if (c->kind == TPP_TEST_NAME) {
		ret = tpp_test_name(cmd, &got->err);
		kfree(cmd);
		/* the name parser's record has no errno of its own */
		return ret == -EINVAL && got->err.id == c->id &&
		       got->err.pos == got->caret;
	}
	if (c->kind == TPP_TEST_ARGS)
		def = tpp_parse_args(cmd, 2, c->flags, c->func, env, &got->err);
	else if (c->kind == TPP_TEST_WPROBE || c->kind == TPP_TEST_WACCEPT)
		def = tpp_parse_wprobe(cmd, env, &got->err);
	else
		def = tpp_parse_kprobe(cmd, env, &got->err);
	ret = IS_ERR(def) ? PTR_ERR(def) : 0;
	if (!ret)
		tpp_free(def);
	kfree(cmd);
	if (c->kind == TPP_TEST_ACCEPT || c->kind == TPP_TEST_WACCEPT)
		return !ret && !got->err.errnum;
	return tpp_test_refused(c, got, ret);
}

/**
 * tpp_test_fetch_world - fill in the world of the fetch cases
 * @w: where it is
 * @addr: its address as the probe reads it (@w in the kernel)
 */
void tpp_test_fetch_world(struct tpp_fetch_world *w, unsigned long addr)
{
	static const u16 arr[] = { 1, 2, 3, 4 };

	memset(w, 0, sizeof(*w));
	w->val = 0x1122334455667788ULL;
	w->str_ptr = addr + offsetof(struct tpp_fetch_world, str);
	w->self = addr;
	w->small = 0xb5;
	w->neg = -100;
	memcpy(w->str, "hello", sizeof("hello"));
	memcpy(w->name, "comm_in_file", sizeof("comm_in_file"));
	memcpy(w->arr, arr, sizeof(arr));
}

/* Set the x86_64 register @name of @regs, at env_x86's offset */
static void tpp_test_set_reg(void *regs, const char *name, unsigned long val)
{
	int offset = x86_regs_query_register_offset(name);

	if (offset >= 0 && offset + sizeof(long) <= TPP_TEST_REGS_SIZE)
		memcpy((char *)regs + offset, &val, sizeof(val));
}

/**
 * tpp_test_fetch_regs - point the registers of a fetch case at its world
 * @regs: TPP_TEST_REGS_SIZE bytes, read as a struct pt_regs
 * @addr: the world's address as the probe reads it
 */
void tpp_test_fetch_regs(void *regs, unsigned long addr)
{
	memset(regs, 0, TPP_TEST_REGS_SIZE);
	tpp_test_set_reg(regs, "di", addr);
	tpp_test_set_reg(regs, "si",
			 addr + offsetof(struct tpp_fetch_world, str));
	tpp_test_set_reg(regs, "dx", 0);
	tpp_test_set_reg(regs, "cx", -100UL);
	tpp_test_set_reg(regs, "r8", 0x1234);
}
