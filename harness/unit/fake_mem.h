/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fake machine of the fetch tests: page-aligned regions of user and
 * kernel memory with faulting holes between them, a kernel stack, a small
 * kallsyms.  See fake_mem.c.
 */
#ifndef FAKE_MEM_H
#define FAKE_MEM_H

#define FAKE_PAGE	4096UL
#define FAKE_TEXT	0xffffffff81000000UL	/* vfs_read, do_sys_openat2 */
#define FAKE_DATA	0xffffffff82000000UL	/* jiffies, fake_table */
#define FAKE_STACK_TOP	0xffffc90000004000UL	/* regs_get_kernel_stack_nth */

/* Forget all regions; back to an x86-like arch */
void fake_mem_reset(void);
/* copy_from_{kernel,user}_nofault() calls so far */
extern long fake_mem_copies;
/* Map [start, start + len), zeroed; both page-aligned.  Returns its bytes. */
void *fake_mem_map(unsigned long start, unsigned long len, bool user);
/* The bytes behind a mapped address */
void *fake_mem_at(unsigned long addr);
/* kallsyms_lookup_name() of the fake kallsyms */
unsigned long fake_kallsyms_lookup(void *priv, const char *name);

struct probe_cache;
/*
 * What a handler's uninitialized cache may hold, at its worst: a record
 * of @size bytes that looks staged.  Nothing of it may reach a record.
 */
void fake_stack_garbage(struct probe_cache *cache, unsigned int size);

#endif /* FAKE_MEM_H */
