// SPDX-License-Identifier: GPL-2.0
/*
 * Whether arm64 refuses a kprobe at an address (see <linux/probe_regs.h>).
 *
 * A kprobe needs a 4-byte aligned address outside the exception tables,
 * holding an instruction the kprobe decoder can single-step or simulate:
 * the checks arch_prepare_kprobe() answers with -EINVAL, one by one.
 */
#include <linux/extable.h>
#include <linux/kprobes.h>
#include <linux/probe_regs.h>

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
