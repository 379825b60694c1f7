// SPDX-License-Identifier: GPL-2.0
/*
 * Whether x86 refuses a kprobe at an address (see <linux/probe_regs.h>).
 *
 * The decoder's refusals have an errno of their own (-EILSEQ); the one
 * -EINVAL of arch_prepare_kprobe() is a LOCK prefix that SMP alternatives
 * rewrite (alternatives_text_reserved()).
 */
#include <linux/memory.h>
#include <linux/mutex.h>
#include <linux/probe_regs.h>

#include <asm/alternative.h>

/**
 * probe_arch_insn_check() - would x86 refuse a kprobe at @addr
 * @addr: an address in kernel or module text
 *
 * Return: PROBE_INSN_REJECTED on a LOCK prefix SMP alternatives rewrite,
 * else PROBE_INSN_OK.
 */
enum probe_insn_verdict probe_arch_insn_check(unsigned long addr)
{
	int reserved;

	mutex_lock(&text_mutex);
	reserved = alternatives_text_reserved((void *)addr, (void *)addr);
	mutex_unlock(&text_mutex);
	return reserved ? PROBE_INSN_REJECTED : PROBE_INSN_OK;
}
