// SPDX-License-Identifier: GPL-2.0
/*
 * The running kernel behind the probe definition parser (see probe_kenv.h):
 * register names from the architecture's table, symbol counts from
 * kallsyms, function entries from kprobes, and BTF from probe_btf.c.
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/probe_regs.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/thread_info.h>

#include "probe_kenv.h"

/* $stackN and $argN are both bounded by the words of a kernel stack */
#define KENV_STACK_WORDS	(THREAD_SIZE / sizeof(unsigned long))

struct kenv_count {
	const char *name;
	unsigned int n;
	unsigned long addr;
};

/*
 * The generic answers of <linux/probe_regs.h>, for architectures without
 * their own: no register names but ptrace's, and arguments only through
 * regs_get_kernel_argument(), which probe_arch_arg() is never asked for
 * without HAVE_FUNCTION_ARG_ACCESS_API (see probe_kenv_init()), no
 * instruction the architecture would refuse that error_log could name, and
 * every register exact at a kprobe taken through ftrace only where ftrace
 * saves pt_regs.
 */
int __weak probe_arch_reg(const char *name, struct probe_reg *reg)
{
	return -EINVAL;
}

int __weak probe_arch_arg(unsigned int n, struct probe_arg_loc *loc)
{
	loc->kind = PROBE_ARG_API;
	loc->val = n;
	return 0;
}

enum probe_insn_verdict __weak probe_arch_insn_check(unsigned long addr)
{
	return PROBE_INSN_OK;
}

bool __weak probe_arch_ftrace_reg(unsigned int offset)
{
	return IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS);
}

/* ptrace's names first: they read the whole word, whatever the arch adds */
static int kenv_reg(void *priv, const char *name, struct tpp_reg *out)
{
	int offset = regs_query_register_offset(name);
	struct probe_reg reg = { .size = sizeof(unsigned long) };

	if (offset >= 0)
		reg.offset = offset;
	else if (probe_arch_reg(name, &reg))
		return -EINVAL;
	out->offset = reg.offset;
	out->width = reg.size < sizeof(unsigned long) ? reg.size : 0;
	out->shift = out->width ? reg.shift : 0;
	return 0;
}

static int kenv_arg_at(void *priv, unsigned int n, unsigned long *val)
{
	static const u8 srcs[] = {
		[PROBE_ARG_REG] = TPP_SRC_REG,
		[PROBE_ARG_STACK] = TPP_SRC_STACK,
		[PROBE_ARG_API] = TPP_SRC_ARG,
	};
	struct probe_arg_loc loc;
	int ret = probe_arch_arg(n, &loc);

	if (ret)
		return ret;
	if (loc.kind >= ARRAY_SIZE(srcs))
		return -EINVAL;
	*val = loc.val;
	return srcs[loc.kind];
}

/* kallsyms already matched the name: every call is one more symbol */
static int kenv_count_match(void *data, unsigned long addr)
{
	struct kenv_count *c = data;

	c->n++;
	c->addr = addr;
	return 0;
}

static int kenv_count_named(void *data, const char *name, unsigned long addr)
{
	struct kenv_count *c = data;

	if (!strcmp(name, c->name))
		c->n++;
	return 0;
}

#ifdef CONFIG_MODULES
/* A reference on module @name, or NULL when it is not loaded or going away */
static struct module *kenv_module_get(const char *name)
{
	struct module *mod;
	bool live;

	rcu_read_lock_sched();	/* what find_module() needs */
	mod = find_module(name);
	live = mod && try_module_get(mod);
	rcu_read_unlock_sched();
	return live ? mod : NULL;
}
#else
static struct module *kenv_module_get(const char *name)
{
	return NULL;
}
#endif

/* probe_kenv_sym_count(), and in *@addr the address of the last match */
static int kenv_count(const char *mod, const char *sym, unsigned long *addr)
{
	struct kenv_count c = { .name = sym };
	struct module *owner = NULL;
	unsigned int vmlinux = 0;

	if (mod) {
		owner = kenv_module_get(mod);
		if (!owner)
			return -ENODEV;
	} else {
		kallsyms_on_each_match_symbol(kenv_count_match, sym, &c);
		vmlinux = c.n;
	}
	module_kallsyms_on_each_symbol(mod, kenv_count_named, &c);
	module_put(owner);
	/* only a vmlinux match came with its address */
	*addr = c.n == 1 && vmlinux == 1 ? c.addr : 0;
	return min_t(unsigned int, c.n, INT_MAX);
}

/**
 * probe_kenv_sym_count() - count the kallsyms entries of a name
 * @mod: a module name, or NULL for vmlinux and every loaded module
 * @sym: the symbol name
 *
 * A module that is being removed counts as not loaded.
 *
 * Return: how many symbols are called @sym (in @mod when given), or
 * -ENODEV when @mod is given but not loaded.
 */
int probe_kenv_sym_count(const char *mod, const char *sym)
{
	unsigned long addr;

	return kenv_count(mod, sym, &addr);
}

static int kenv_sym_count(void *priv, const char *mod, const char *sym)
{
	struct probe_kenv *ke = probe_kenv_of(priv);
	int n = kenv_count(mod, sym, &ke->sym_addr);

	ke->sym = mod ? NULL : sym;
	return n;
}

/* "[MOD:]SYM": by the address counted, else kprobes looks the name up */
static int kenv_func_entry(void *priv, const char *sym, unsigned long offset)
{
	struct probe_kenv *ke = probe_kenv_of(priv);

	/* fprobe events build without kprobes; they only sit on entries */
	if (!IS_ENABLED(CONFIG_KPROBES))
		return offset ? -EINVAL : 0;
	if (ke->sym_addr && ke->sym == sym)
		return kprobe_on_func_entry((kprobe_opcode_t *)ke->sym_addr,
					    NULL, offset);
	return kprobe_on_func_entry(NULL, sym, offset);
}

/**
 * probe_kenv_init() - set up the kernel's answers for one parse
 * @ke: the environment to fill; &ke->env goes to the parser
 *
 * Pair every call with probe_kenv_destroy() once the parse returned.
 * $argN is offered only where the architecture can fetch arguments, and
 * BTF only with CONFIG_PROBE_EVENTS_BTF_ARGS.  &ke->env.event_field is
 * NULL: an eprobe caller sets its own, which finds the attached event in
 * &ke->event through probe_kenv_of(&tpp_env.priv).
 */
void probe_kenv_init(struct probe_kenv *ke)
{
	bool args = IS_ENABLED(CONFIG_HAVE_FUNCTION_ARG_ACCESS_API);

	*ke = (struct probe_kenv) {
		.env = {
			.priv = &ke->btf,
			.reg = kenv_reg,
			.arg_at = kenv_arg_at,
			.sym_count = kenv_sym_count,
			.func_entry = kenv_func_entry,
			.max_stack = KENV_STACK_WORDS,
			.max_arg = args ? KENV_STACK_WORDS : 0,
			.dentry_name_off = offsetof(struct dentry, d_name.name),
			.file_dentry_off = offsetof(struct file, f_path.dentry),
		},
	};
	if (IS_ENABLED(CONFIG_PROBE_EVENTS_BTF_ARGS))
		ke->env.btf = &probe_btf_ops;
}

/**
 * probe_kenv_destroy() - drop what a parse left in its environment
 * @ke: an environment set up by probe_kenv_init()
 *
 * Releases the cached BTF.  @ke may be set up again afterwards.
 */
void probe_kenv_destroy(struct probe_kenv *ke)
{
	probe_btf_release(&ke->btf);
}
