/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel strings for synthetic events: the size of a NUL-terminated string
 * that may fault, and its copy into a record's dynamic area, with the
 * fetch programs' rules (probe_fetch_access.h): below TASK_SIZE a string is
 * a user string where the address spaces do not overlap, and no string is
 * longer than PROBE_MAX_STRING.  Header-only, so that synthetic events
 * build without probe events.
 */
#ifndef _TRACE_PROBE_KERNEL_H
#define _TRACE_PROBE_KERNEL_H

#include "probe_fetch.h"
#include "probe_fetch_access.h"

/* Bytes the string at @addr takes with its NUL; 0 when it faults */
static nokprobe_inline int fetch_store_strlen(unsigned long addr)
{
	if (pfa_is_user(addr))
		return pfa_ustrsize(addr, PROBE_MAX_STRING);
	return pfa_kstrsize(addr, PROBE_MAX_STRING);
}

/*
 * Copy the string at @addr to where the __data_loc word at @dest points,
 * from @base, in at most the length it gives; the word then gives the
 * bytes stored, 0 on a fault.  Returns those bytes, or a negative errno.
 */
static nokprobe_inline int fetch_store_string(unsigned long addr, void *dest,
					      void *base)
{
	u32 loc = *(u32 *)dest;
	long ret;

	if (!probe_loc_len(loc))
		return -ENOMEM;
	ret = pfa_strncpy(base + probe_loc_offset(loc), addr,
			  probe_loc_len(loc), false);
	*(u32 *)dest = probe_data_loc(ret > 0 ? ret : 0, probe_loc_offset(loc));
	return ret;
}

#endif /* _TRACE_PROBE_KERNEL_H */
