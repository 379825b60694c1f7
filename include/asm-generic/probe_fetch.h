/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the probe event fetch interpreter (kernel/trace/probe_fetch.c) may
 * do in place on an architecture.  An architecture whose
 * copy_from_kernel_nofault_allowed() is cheap to tell inline defines
 *
 *	bool arch_probe_kread_inline(unsigned long addr, size_t size);
 *
 * true when copy_from_kernel_nofault() would accept @size bytes at kernel
 * address @addr, and a #define of the same name.  A probe's dereference
 * then loads the memory with __get_kernel_nofault() in its handler,
 * without a call.  Without it, every kernel read is a call to
 * copy_from_kernel_nofault().
 */
#ifndef __ASM_GENERIC_PROBE_FETCH_H
#define __ASM_GENERIC_PROBE_FETCH_H

#endif /* __ASM_GENERIC_PROBE_FETCH_H */
