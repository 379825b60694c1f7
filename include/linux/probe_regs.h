/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What probe event arguments ask of an architecture: the registers a %NAME
 * reads, and where a function's arguments are at its entry ($argN and BTF
 * parameters).  Both are asked when a probe is defined, never at a hit: the
 * answers are compiled into the probe's fetch program.
 *
 * An architecture with its own answers defines probe_arch_reg() and
 * probe_arch_arg(); every other one gets the generic ones in kernel/trace,
 * built on regs_query_register_offset() and regs_get_kernel_argument().
 *
 * One question is asked only after a kprobe failed to register: whether
 * the architecture refuses the instruction at the address, so that
 * error_log can say so (probe_arch_insn_check()).
 *
 * Wprobe events ask what a hardware data watchpoint is here
 * (probe_arch_watch()), when one is defined.
 */
#ifndef _LINUX_PROBE_REGS_H
#define _LINUX_PROBE_REGS_H

#include <linux/errno.h>
#include <linux/ptrace.h>
#include <linux/string.h>
#include <linux/types.h>

/**
 * struct probe_reg - a register as a %NAME probe argument reads it
 * @offset: offset in struct pt_regs of the word that holds it
 * @size: bytes of that word the name covers, counted from the low end
 *	once the word is shifted right; sizeof(long) for the whole word
 * @shift: bits of the word below the register ("%ah": 8)
 */
struct probe_reg {
	unsigned int offset;
	u8 size;
	u8 shift;
};

/**
 * probe_arch_reg() - find a register name regs_query_register_offset() lacks
 * @name: the name as written, without the '%'
 * @reg: filled in when found
 *
 * The names regs_query_register_offset() knows are looked up first, and
 * read their whole word; this adds the architecture's other names.
 *
 * Return: 0, or -EINVAL when the architecture has no register @name.
 */
int probe_arch_reg(const char *name, struct probe_reg *reg);

/* Where a function argument is at the function's entry */
enum probe_arg_kind {
	PROBE_ARG_REG,		/* a pt_regs word: @val is its offset */
	PROBE_ARG_STACK,	/* regs_get_kernel_stack_nth(regs, @val) */
	PROBE_ARG_API,		/* regs_get_kernel_argument(regs, @val) */
};

/**
 * struct probe_arg_loc - where one argument is
 * @kind: register, stack word, or the architecture's accessor
 * @val: see enum probe_arg_kind
 */
struct probe_arg_loc {
	enum probe_arg_kind kind;
	unsigned int val;
};

/**
 * probe_arch_arg() - find argument @n of a function at its entry
 * @n: the argument, from 0, counted in words as the calling convention
 *	passes them
 * @loc: filled in when found
 *
 * Return: 0, or -EOPNOTSUPP when arguments cannot be read here.
 */
int probe_arch_arg(unsigned int n, struct probe_arg_loc *loc);

/**
 * struct probe_reg_alias - another name of (part of) a register
 * @name: the name
 * @reg: the register's name for regs_query_register_offset()
 * @size: see &probe_reg.size
 * @shift: see &probe_reg.shift
 */
struct probe_reg_alias {
	const char *name;
	const char *reg;
	u8 size;
	u8 shift;
};

/**
 * probe_reg_from_alias() - look a name up in an architecture's aliases
 * @aliases: the table
 * @nr: its entries
 * @name: the name to find
 * @reg: filled in when found
 *
 * Return: 0, or -EINVAL when @name is no alias.
 */
static inline int probe_reg_from_alias(const struct probe_reg_alias *aliases,
				       size_t nr, const char *name,
				       struct probe_reg *reg)
{
	int offset;
	size_t i;

	for (i = 0; i < nr; i++) {
		if (strcmp(aliases[i].name, name))
			continue;
		offset = regs_query_register_offset(aliases[i].reg);
		if (offset < 0)
			return offset;
		reg->offset = offset;
		reg->size = aliases[i].size;
		reg->shift = aliases[i].shift;
		return 0;
	}
	return -EINVAL;
}

/**
 * probe_arg_in_regs() - find an argument where the first ones are registers
 * @regs: names of the argument registers, in order
 * @nr_regs: their number
 * @stack_first: the stack word of the first argument passed on the stack
 * @n: the argument, from 0
 * @loc: filled in
 *
 * For calling conventions that pass arguments in @regs, then one stack
 * word each.
 *
 * Return: 0, or a negative errno when a name of @regs is unknown.
 */
static inline int probe_arg_in_regs(const char *const *regs,
				    unsigned int nr_regs,
				    unsigned int stack_first, unsigned int n,
				    struct probe_arg_loc *loc)
{
	int offset;

	if (n >= nr_regs) {
		loc->kind = PROBE_ARG_STACK;
		loc->val = stack_first + n - nr_regs;
		return 0;
	}
	offset = regs_query_register_offset(regs[n]);
	if (offset < 0)
		return offset;
	loc->kind = PROBE_ARG_REG;
	loc->val = offset;
	return 0;
}

/* What an architecture says of the instruction at a kprobe's address */
enum probe_insn_verdict {
	PROBE_INSN_OK,		/* nothing it objects to */
	PROBE_INSN_MISALIGNED,	/* not where an instruction starts */
	PROBE_INSN_REJECTED,	/* one it can neither single-step nor simulate */
};

/**
 * probe_arch_insn_check() - would the architecture refuse a kprobe here
 * @addr: an address in kernel or module text
 *
 * The checks of arch_prepare_kprobe(), asked again after a registration
 * failed with -EINVAL, to name the reason in error_log.  The generic
 * answer is PROBE_INSN_OK: such architectures' errors stay generic.
 *
 * Return: the verdict.
 */
enum probe_insn_verdict probe_arch_insn_check(unsigned long addr);

/**
 * probe_arch_ftrace_reg() - is a register exact at a kprobe taken by ftrace
 * @offset: offset of the register's word in struct pt_regs
 *
 * Where ftrace saves no pt_regs, a kprobe is taken through ftrace only if
 * its handlers read no register but those ftrace saves
 * (KPROBE_FLAG_FTRACE_ARGS); the others read as zero there.  The generic
 * answer is yes where ftrace saves pt_regs, and no elsewhere.
 *
 * Return: true when a kprobe taken through ftrace reads the word at
 * @offset as the probed code left it.
 */
bool probe_arch_ftrace_reg(unsigned int offset);

/**
 * struct probe_watch_arch - a hardware data watchpoint, as wprobes use it
 * @slots: data watchpoints each CPU has
 * @lens: the lengths in bytes a watch may have, a mask of BIT(len); the
 *	watched address is aligned to its length
 * @accesses: the accesses a watch may trap on, a mask of BIT(HW_BREAKPOINT_R),
 *	BIT(HW_BREAKPOINT_W) and BIT(HW_BREAKPOINT_RW) (some hardware has no
 *	read-only kind)
 *
 * Whether the trap comes before or after the access (what the handler's
 * registers and the watched memory hold) is the architecture's too; it is
 * said where probe_arch_watch() is defined, and in kprobetrace.rst.
 */
struct probe_watch_arch {
	unsigned int slots;
	unsigned int lens;
	unsigned int accesses;
};

/**
 * probe_arch_watch() - what a data watchpoint is on this architecture
 * @w: filled in
 *
 * Each architecture that builds wprobe events (CONFIG_WPROBE_EVENTS)
 * defines it: there is no generic answer, as whether the kernel steps over
 * an access its watchpoint trapped on is the architecture's too.
 */
void probe_arch_watch(struct probe_watch_arch *w);

struct perf_event;

/**
 * probe_arch_watch_bp() - make a wprobe's new breakpoint report after the
 *	access
 * @bp: the breakpoint, made disabled and not yet enabled
 *
 * A wprobe's record holds the registers and memory as the access left
 * them on every architecture: where the watchpoint traps before the
 * access, the architecture's breakpoint code is asked to run the handler
 * once it has stepped it.
 */
void probe_arch_watch_bp(struct perf_event *bp);

#endif /* _LINUX_PROBE_REGS_H */
