// SPDX-License-Identifier: GPL-2.0
/*
 * The fake machine behind kshim.h's fetch helpers: an address space of
 * page-aligned user and kernel regions (everything else faults), a kernel
 * stack, a small kallsyms and the current task.  The nofault helpers follow
 * mm/maccess.c and lib/strnlen_user.c of 6.12, including what they return
 * for an empty user string and for strings longer than the limit.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kshim.h"
#include "probe_fetch.h"
#include "fake_mem.h"

bool kshim_non_overlapping = true;
struct task_struct kshim_task;
unsigned long kshim_cpu_offset;

struct fake_region {
	unsigned long start;
	unsigned long len;
	bool user;
	unsigned char *bytes;
};

#define FAKE_MAX_REGIONS	16

static struct fake_region regions[FAKE_MAX_REGIONS];
static unsigned int nr_regions;

void fake_mem_reset(void)
{
	unsigned int i;

	for (i = 0; i < nr_regions; i++)
		free(regions[i].bytes);
	nr_regions = 0;
	kshim_non_overlapping = true;
}

void *fake_mem_map(unsigned long start, unsigned long len, bool user)
{
	struct fake_region *r = &regions[nr_regions++];

	assert(nr_regions <= FAKE_MAX_REGIONS);
	assert(!(start % FAKE_PAGE) && len && !(len % FAKE_PAGE));
	assert(user == (start + len <= TASK_SIZE));
	r->start = start;
	r->len = len;
	r->user = user;
	r->bytes = calloc(1, len);
	assert(r->bytes);
	return r->bytes;
}

void *fake_mem_at(unsigned long addr)
{
	unsigned int i;

	for (i = 0; i < nr_regions; i++)
		if (addr - regions[i].start < regions[i].len)
			return regions[i].bytes + (addr - regions[i].start);
	assert(!"address not mapped");
	return NULL;
}

/* One byte of the fake space, if it is mapped as @user memory */
static bool fake_byte(unsigned long addr, bool user, char *c)
{
	unsigned int i;

	for (i = 0; i < nr_regions; i++) {
		if (addr - regions[i].start >= regions[i].len)
			continue;
		if (regions[i].user != user)
			return false;
		*c = regions[i].bytes[addr - regions[i].start];
		return true;
	}
	return false;
}

long fake_mem_copies;

static long fake_copy(void *dst, unsigned long src, size_t size, bool user)
{
	char *d = dst;
	size_t i;
	char c;

	fake_mem_copies++;

	for (i = 0; i < size; i++)
		if (!fake_byte(src + i, user, &c))
			return -EFAULT;
	for (i = 0; i < size; i++) {
		fake_byte(src + i, user, &c);
		d[i] = c;
	}
	return 0;
}

long copy_from_kernel_nofault(void *dst, const void *src, size_t size)
{
	return fake_copy(dst, (unsigned long)src, size, false);
}

long copy_from_user_nofault(void *dst, const void *src, size_t size)
{
	if ((unsigned long)src + size > TASK_SIZE)
		return -EFAULT;
	return fake_copy(dst, (unsigned long)src, size, true);
}

/* A fault stores a NUL where it happened */
long strncpy_from_kernel_nofault(char *dst, const void *src, long count)
{
	unsigned long addr = (unsigned long)src;
	long i;

	if (count <= 0)
		return 0;
	for (i = 0; i < count; i++) {
		if (!fake_byte(addr + i, false, &dst[i])) {
			dst[i] = '\0';
			return -EFAULT;
		}
		if (!dst[i])
			return i + 1;
	}
	dst[count - 1] = '\0';
	return count;
}

/* The length without the NUL, count when none came, or -EFAULT */
long strncpy_from_user(char *dst, const char *src, long count)
{
	unsigned long addr = (unsigned long)src;
	long i;

	if (addr >= TASK_SIZE)
		return -EFAULT;
	for (i = 0; i < count; i++) {
		if (!fake_byte(addr + i, true, &dst[i]))
			return -EFAULT;
		if (!dst[i])
			return i;
	}
	return count;
}

/* 6.12 counts the NUL only for a non-empty string: "" gives 0 */
long strncpy_from_user_nofault(char *dst, const void *src, long count)
{
	long ret;

	if (count <= 0)
		return 0;
	ret = strncpy_from_user(dst, src, count);
	if (ret < 0)
		return ret;
	if (ret >= count) {
		dst[count - 1] = '\0';
		return count;
	}
	return ret > 0 ? ret + 1 : ret;
}

/* The size with the NUL, count + 1 when longer, 0 on a fault */
long strnlen_user_nofault(const void *src, long count)
{
	unsigned long addr = (unsigned long)src;
	long i;
	char c;

	if (count <= 0 || addr >= TASK_SIZE)
		return 0;
	for (i = 0; i < count; i++) {
		if (!fake_byte(addr + i, true, &c))
			return 0;
		if (!c)
			return i + 1;
	}
	return count + 1;
}

unsigned long regs_get_kernel_stack_nth(struct pt_regs *regs, unsigned int n)
{
	unsigned long addr = kernel_stack_pointer(regs) + n * sizeof(long);
	unsigned long v;

	if (addr < kernel_stack_pointer(regs) || addr >= FAKE_STACK_TOP ||
	    copy_from_kernel_nofault(&v, (void *)addr, sizeof(v)))
		return 0;
	return v;
}

static const struct fake_sym {
	const char *name;
	unsigned long addr;
	unsigned long size;
	const char *mod;
} fake_syms[] = {
	{ "vfs_read", FAKE_TEXT, 0x170, NULL },
	{ "do_sys_openat2", FAKE_TEXT + 0x200, 0x170, NULL },
	{ "jiffies", FAKE_DATA, 8, NULL },
	{ "fake_table", FAKE_DATA + 0x40, 0x40, NULL },
	{ "mod_fn", FAKE_TEXT + 0x1000, 0x30, "mymod" },
	{ NULL, 0, 0, NULL },
};

/* kernel/kallsyms.c: "name+0xoff/0xsize [mod]", or the bare address */
int sprint_symbol(char *buffer, unsigned long address)
{
	const struct fake_sym *s;
	int n;

	for (s = fake_syms; s->name; s++) {
		if (address - s->addr >= s->size)
			continue;
		n = sprintf(buffer, "%s+0x%lx/0x%lx", s->name,
			    address - s->addr, s->size);
		if (s->mod)
			n += sprintf(buffer + n, " [%s]", s->mod);
		return n;
	}
	return sprintf(buffer, "0x%lx", address);
}

unsigned long fake_kallsyms_lookup(void *priv, const char *name)
{
	const struct fake_sym *s;

	(void)priv;
	for (s = fake_syms; s->name; s++)
		if (!strcmp(s->name, name))
			return s->addr;
	return 0;
}

void fake_stack_garbage(struct probe_cache *cache, unsigned int size)
{
	memset(cache, 0x5a, sizeof(*cache));
	cache->staged = size;
}
