// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 answers for probe event arguments (see <linux/probe_regs.h>).
 *
 * Registers: every name regs_query_register_offset() knows ("x0".."x30",
 * "lr", "sp", "pc", "pstate") reads the whole pt_regs word.  "w0".."w30"
 * read the low 32 bits of x0..x30, and the AAPCS64 names "ip0", "ip1" and
 * "fp" are x16, x17 and x29.
 *
 * Arguments follow AAPCS64: the first eight in x0..x7, the others on the
 * stack at the entry, one 8-byte slot each from the stack pointer up.
 */
#include <linux/kernel.h>
#include <linux/probe_regs.h>
#include <linux/ptrace.h>
#include <linux/string.h>

static const struct probe_reg_alias arm64_probe_reg_aliases[] = {
	{ "ip0", "x16", 8, 0 }, { "ip1", "x17", 8, 0 }, { "fp", "x29", 8, 0 },
};

/* "wN" is the low half of "xN", for every N ptrace knows */
static int arm64_probe_reg_low(const char *name, struct probe_reg *reg)
{
	char xname[4];
	int offset;

	if (name[0] != 'w' || strlen(name) > 3)
		return -EINVAL;
	xname[0] = 'x';
	strscpy(xname + 1, name + 1, sizeof(xname) - 1);
	offset = regs_query_register_offset(xname);
	if (offset < 0)
		return offset;
	*reg = (struct probe_reg){ .offset = offset, .size = 4 };
	return 0;
}

/**
 * probe_arch_reg() - find an arm64 register name ptrace does not know
 * @name: the name without the '%'
 * @reg: filled in when found
 *
 * Return: 0, or -EINVAL when there is no such register.
 */
int probe_arch_reg(const char *name, struct probe_reg *reg)
{
	if (!probe_reg_from_alias(arm64_probe_reg_aliases,
				  ARRAY_SIZE(arm64_probe_reg_aliases), name, reg))
		return 0;
	return arm64_probe_reg_low(name, reg);
}

static const char *const arm64_probe_arg_regs[] = {
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7",
};

/**
 * probe_arch_arg() - find argument @n of an arm64 function at its entry
 * @n: the argument, from 0
 * @loc: filled in
 *
 * Return: 0, or a negative errno if the register table is broken.
 */
int probe_arch_arg(unsigned int n, struct probe_arg_loc *loc)
{
	return probe_arg_in_regs(arm64_probe_arg_regs,
				 ARRAY_SIZE(arm64_probe_arg_regs), 0, n, loc);
}
