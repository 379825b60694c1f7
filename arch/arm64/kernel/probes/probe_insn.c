// SPDX-License-Identifier: GPL-2.0
/*
 * What arm64 kprobes can do at an address (see <linux/probe_regs.h>).
 *
 * A kprobe needs a 4-byte aligned address outside the exception tables,
 * holding an instruction the kprobe decoder can single-step or simulate:
 * the checks arch_prepare_kprobe() answers with -EINVAL, one by one.
 *
 * A kprobe taken at a function's ftrace call site has the registers
 * ftrace_regs holds, the ones ftrace_regs_query_register_offset() names
 * ("x0".."x8", "x29", "x30", "sp", "pc").
 */
#include <linux/extable.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/probe_regs.h>
#include <linux/ptrace.h>
#include <linux/string.h>

#include <asm/insn.h>

#include "decode-insn.h"

/**
 * probe_arch_insn_check() - would arm64 refuse a kprobe at @addr
 * @addr: an address in kernel or module text
 *
 * Return: the verdict of arch_prepare_kprobe()'s checks.
 */
enum probe_insn_verdict probe_arch_insn_check(unsigned long addr)
{
	struct arch_specific_insn asi = {};

	if (!IS_ALIGNED(addr, AARCH64_INSN_SIZE))
		return PROBE_INSN_MISALIGNED;
	if (search_exception_tables(addr) ||
	    arm_kprobe_decode_insn((kprobe_opcode_t *)addr, &asi) == INSN_REJECTED)
		return PROBE_INSN_REJECTED;
	return PROBE_INSN_OK;
}

/**
 * probe_arch_ftrace_reg() - is a register exact at a kprobe taken by ftrace
 * @offset: offset of the register's word in struct pt_regs
 *
 * Return: true when ftrace_regs holds that register.
 */
bool probe_arch_ftrace_reg(unsigned int offset)
{
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_ARGS
	char name[4];

	if (offset < offsetof(struct pt_regs, regs[31]) && !(offset % 8))
		snprintf(name, sizeof(name), "x%u", offset / 8);
	else if (offset == offsetof(struct pt_regs, sp))
		strscpy(name, "sp");
	else if (offset == offsetof(struct pt_regs, pc))
		strscpy(name, "pc");
	else
		return false;
	return ftrace_regs_query_register_offset(name) >= 0;
#else
	return false;
#endif
}
