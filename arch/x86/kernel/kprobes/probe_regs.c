// SPDX-License-Identifier: GPL-2.0
/*
 * x86 register names for probe event arguments: exactly the names that
 * regs_query_register_offset() accepts, in the order of struct pt_regs.
 */
#include <linux/kernel.h>
#include <linux/probe_regs.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <asm/ptrace.h>

struct x86_probe_reg {
	const char *name;
	unsigned int offset;
};

#define X86_PROBE_REG(reg)	{ #reg, offsetof(struct pt_regs, reg) }

static const struct x86_probe_reg x86_probe_regs[] = {
#ifdef CONFIG_X86_64
	X86_PROBE_REG(r15), X86_PROBE_REG(r14), X86_PROBE_REG(r13),
	X86_PROBE_REG(r12), X86_PROBE_REG(bp), X86_PROBE_REG(bx),
	X86_PROBE_REG(r11), X86_PROBE_REG(r10), X86_PROBE_REG(r9),
	X86_PROBE_REG(r8), X86_PROBE_REG(ax), X86_PROBE_REG(cx),
	X86_PROBE_REG(dx), X86_PROBE_REG(si), X86_PROBE_REG(di),
#else
	X86_PROBE_REG(bx), X86_PROBE_REG(cx), X86_PROBE_REG(dx),
	X86_PROBE_REG(si), X86_PROBE_REG(di), X86_PROBE_REG(bp),
	X86_PROBE_REG(ax), X86_PROBE_REG(ds), X86_PROBE_REG(es),
	X86_PROBE_REG(fs), X86_PROBE_REG(gs),
#endif
	X86_PROBE_REG(orig_ax), X86_PROBE_REG(ip), X86_PROBE_REG(cs),
	X86_PROBE_REG(flags), X86_PROBE_REG(sp), X86_PROBE_REG(ss),
};

/**
 * probe_arch_reg_offset() - find an x86 register by its name
 * @name: the register name without the '%'
 *
 * Return: the offset of the register in struct pt_regs, or -EINVAL.
 */
int probe_arch_reg_offset(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(x86_probe_regs); i++)
		if (!strcmp(x86_probe_regs[i].name, name))
			return x86_probe_regs[i].offset;
	return -EINVAL;
}

/**
 * probe_arch_reg_name() - find the name of the x86 register at an offset
 * @offset: an offset in struct pt_regs
 *
 * Return: the register's name, or NULL when none starts at @offset.
 */
const char *probe_arch_reg_name(unsigned int offset)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(x86_probe_regs); i++)
		if (x86_probe_regs[i].offset == offset)
			return x86_probe_regs[i].name;
	return NULL;
}
