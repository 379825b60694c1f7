/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel API, on top of libc, to build kernel/trace/
 * probe_parse.c in user space.  The Makefile generates the <linux/...> headers
 * the parser includes, and each just includes this one.  Helpers with kernel semantics that libc lacks
 * (kstrto*(), the Latin-1 ctype table) are written out here, because the
 * parser's accept/reject decisions depend on their exact behaviour.
 */
#ifndef KSHIM_H
#define KSHIM_H

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned int gfp_t;

#define GFP_KERNEL	0u
#define BITS_PER_LONG	((int)(8 * sizeof(long)))
#define BIT(n)		(1UL << (n))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define noinline_for_stack	__attribute__((__noinline__))
#define min(a, b)	((a) < (b) ? (a) : (b))
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))

/* ---- err.h ---- */
#define MAX_ERRNO	4095
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline bool IS_ERR(const void *ptr)
{
	return (unsigned long)ptr >= (unsigned long)-MAX_ERRNO;
}
static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR(ptr);
}

/* ---- slab.h, with allocation failure injection for the tests ---- */
extern long kshim_fail_countdown;	/* fail the Nth allocation; 0: never */
extern long kshim_allocs;		/* allocations so far */

static inline bool kshim_alloc_fails(void)
{
	kshim_allocs++;
	return kshim_fail_countdown > 0 && --kshim_fail_countdown == 0;
}

static inline void *kmalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return kshim_alloc_fails() ? NULL : malloc(size ? size : 1);
}

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return kshim_alloc_fails() ? NULL : calloc(1, size ? size : 1);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	(void)gfp;
	return kshim_alloc_fails() ? NULL : calloc(n ? n : 1, size ? size : 1);
}

static inline void kfree(const void *p) { free((void *)p); }

static inline void *kmemdup(const void *src, size_t len, gfp_t gfp)
{
	void *p = kmalloc(len, gfp);

	if (p)
		memcpy(p, src, len);
	return p;
}

static inline char *kmemdup_nul(const char *s, size_t len, gfp_t gfp)
{
	char *p = kmalloc(len + 1, gfp);

	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

static inline char *kstrdup(const char *s, gfp_t gfp)
{
	return kmemdup_nul(s, strlen(s), gfp);
}

__attribute__((format(printf, 2, 3)))
static inline char *kasprintf(gfp_t gfp, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = kmalloc(n + 1, gfp);
	if (!p)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(p, n + 1, fmt, ap);
	va_end(ap);
	return p;
}

/* ---- ctype.h: the kernel's table is Latin-1, not the C locale ---- */
static inline bool kshim_upper(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 0xc0 && c <= 0xde && c != 0xd7);
}

static inline bool kshim_lower(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 0xdf && c != 0xf7);
}

static inline bool kshim_isdigit(int c) { return c >= '0' && c <= '9'; }
static inline bool kshim_isalpha(int c)
{
	return kshim_upper(c) || kshim_lower(c);
}
static inline bool kshim_isxdigit(int c)
{
	unsigned char u = c;

	return kshim_isdigit(u) || (u >= 'a' && u <= 'f') ||
	       (u >= 'A' && u <= 'F');
}
static inline int kshim_tolower(int c)
{
	unsigned char u = c;

	return kshim_upper(u) ? u + 0x20 : u;
}

#define isdigit(c)	kshim_isdigit((unsigned char)(c))
#define isalpha(c)	kshim_isalpha((unsigned char)(c))
#define isalnum(c)	(isalpha(c) || isdigit(c))
#define isxdigit(c)	kshim_isxdigit((unsigned char)(c))
#define tolower(c)	kshim_tolower((unsigned char)(c))

/* ---- kstrtox.h: lib/kstrtox.c semantics ---- */
static inline const char *kshim_radix(const char *s, unsigned int *base)
{
	if (*base == 0) {
		if (s[0] == '0' && tolower(s[1]) == 'x' && isxdigit(s[2]))
			*base = 16;
		else
			*base = s[0] == '0' ? 8 : 10;
	}
	if (*base == 16 && s[0] == '0' && tolower(s[1]) == 'x')
		s += 2;
	return s;
}

static inline int kshim_kstrtoull(const char *s, unsigned int base,
				  unsigned long long *res)
{
	unsigned long long v = 0;
	bool overflow = false;
	const char *p;
	unsigned int d;

	s = kshim_radix(s, &base);
	for (p = s; *p; p++) {
		if (isdigit(*p))
			d = *p - '0';
		else if (isxdigit(*p))
			d = tolower(*p) - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		if (v > (ULLONG_MAX - d) / base)
			overflow = true;
		v = v * base + d;
	}
	if (overflow)
		return -ERANGE;
	if (p == s)
		return -EINVAL;
	if (*p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	*res = v;
	return 0;
}

static inline int kstrtoull(const char *s, unsigned int base,
			    unsigned long long *res)
{
	if (s[0] == '+')
		s++;
	return kshim_kstrtoull(s, base, res);
}

static inline int kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long v;
	int ret;

	if (s[0] == '-') {
		ret = kshim_kstrtoull(s + 1, base, &v);
		if (ret)
			return ret;
		if ((long long)-v > 0)
			return -ERANGE;
		*res = -v;
		return 0;
	}
	ret = kstrtoull(s, base, &v);
	if (ret)
		return ret;
	if ((long long)v < 0)
		return -ERANGE;
	*res = v;
	return 0;
}

static inline int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	unsigned long long v;
	int ret = kstrtoull(s, base, &v);

	if (!ret && v != (unsigned long)v)
		return -ERANGE;
	if (!ret)
		*res = v;
	return ret;
}

static inline int kstrtol(const char *s, unsigned int base, long *res)
{
	long long v;
	int ret = kstrtoll(s, base, &v);

	if (!ret && v != (long)v)
		return -ERANGE;
	if (!ret)
		*res = v;
	return ret;
}

static inline int kstrtouint(const char *s, unsigned int base,
			     unsigned int *res)
{
	unsigned long long v;
	int ret = kstrtoull(s, base, &v);

	if (!ret && v > UINT_MAX)
		return -ERANGE;
	if (!ret)
		*res = v;
	return ret;
}

#endif /* KSHIM_H */
