// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 register names for probe event arguments: exactly the names that
 * regs_query_register_offset() accepts, "x0".."x30", "lr", "sp", "pc" and
 * "pstate".
 */
#include <linux/kernel.h>
#include <linux/probe_regs.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <asm/ptrace.h>

struct arm64_probe_reg {
	const char *name;
	unsigned int offset;
};

#define ARM64_PROBE_GPR(n)	{ "x" #n, offsetof(struct pt_regs, regs[n]) }
#define ARM64_PROBE_REG(name, field)	{ name, offsetof(struct pt_regs, field) }

/* "lr" comes after "x30": a lookup by offset finds the canonical name */
static const struct arm64_probe_reg arm64_probe_regs[] = {
	ARM64_PROBE_GPR(0), ARM64_PROBE_GPR(1), ARM64_PROBE_GPR(2),
	ARM64_PROBE_GPR(3), ARM64_PROBE_GPR(4), ARM64_PROBE_GPR(5),
	ARM64_PROBE_GPR(6), ARM64_PROBE_GPR(7), ARM64_PROBE_GPR(8),
	ARM64_PROBE_GPR(9), ARM64_PROBE_GPR(10), ARM64_PROBE_GPR(11),
	ARM64_PROBE_GPR(12), ARM64_PROBE_GPR(13), ARM64_PROBE_GPR(14),
	ARM64_PROBE_GPR(15), ARM64_PROBE_GPR(16), ARM64_PROBE_GPR(17),
	ARM64_PROBE_GPR(18), ARM64_PROBE_GPR(19), ARM64_PROBE_GPR(20),
	ARM64_PROBE_GPR(21), ARM64_PROBE_GPR(22), ARM64_PROBE_GPR(23),
	ARM64_PROBE_GPR(24), ARM64_PROBE_GPR(25), ARM64_PROBE_GPR(26),
	ARM64_PROBE_GPR(27), ARM64_PROBE_GPR(28), ARM64_PROBE_GPR(29),
	ARM64_PROBE_GPR(30),
	ARM64_PROBE_REG("lr", regs[30]),
	ARM64_PROBE_REG("sp", sp),
	ARM64_PROBE_REG("pc", pc),
	ARM64_PROBE_REG("pstate", pstate),
};

/**
 * probe_arch_reg_offset() - find an arm64 register by its name
 * @name: the register name without the '%'
 *
 * Return: the offset of the register in struct pt_regs, or -EINVAL.
 */
int probe_arch_reg_offset(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(arm64_probe_regs); i++)
		if (!strcmp(arm64_probe_regs[i].name, name))
			return arm64_probe_regs[i].offset;
	return -EINVAL;
}

/**
 * probe_arch_reg_name() - find the name of the arm64 register at an offset
 * @offset: an offset in struct pt_regs
 *
 * Return: the register's name ("x30" rather than "lr"), or NULL when none
 * starts at @offset.
 */
const char *probe_arch_reg_name(unsigned int offset)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(arm64_probe_regs); i++)
		if (arm64_probe_regs[i].offset == offset)
			return arm64_probe_regs[i].name;
	return NULL;
}
