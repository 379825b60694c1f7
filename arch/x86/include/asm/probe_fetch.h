/* SPDX-License-Identifier: GPL-2.0 */
/* x86 in-place kernel reads of probe events: see asm-generic/probe_fetch.h */
#ifndef _ASM_X86_PROBE_FETCH_H
#define _ASM_X86_PROBE_FETCH_H

#ifdef CONFIG_X86_64
#include <linux/compiler.h>
#include <linux/types.h>
#include <asm/page.h>
#include <asm/vsyscall.h>

/*
 * The direct map up to just below the vsyscall page, canonical for 4- and
 * 5-level paging: what copy_from_kernel_nofault_allowed() accepts there.
 * The fixmap and the vsyscall page itself take the call.
 */
#define arch_probe_kread_inline arch_probe_kread_inline
static __always_inline bool arch_probe_kread_inline(unsigned long addr,
						    size_t size)
{
	return addr >= PAGE_OFFSET && addr <= VSYSCALL_ADDR - size;
}
#endif

#endif /* _ASM_X86_PROBE_FETCH_H */
