/* SPDX-License-Identifier: GPL-2.0 */
/* arm64 in-place kernel reads of probe events: see asm-generic/probe_fetch.h */
#ifndef __ASM_PROBE_FETCH_H
#define __ASM_PROBE_FETCH_H

#include <linux/compiler.h>
#include <linux/types.h>

/* copy_from_kernel_nofault_allowed() accepts every address on arm64 */
#define arch_probe_kread_inline arch_probe_kread_inline
static __always_inline bool arch_probe_kread_inline(unsigned long addr,
						    size_t size)
{
	return true;
}

#endif /* __ASM_PROBE_FETCH_H */
