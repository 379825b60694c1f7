/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel API, on top of libc, to build kernel/trace/
 * trace_probe.c and probe_fetch.c in user space.  The Makefile generates the
 * <linux/...> headers they include, and each just includes this one.
 * Helpers with kernel semantics that libc lacks (kstrto*(), the Latin-1
 * ctype table) are written out here, because the parser's accept/reject
 * decisions depend on their exact behaviour.
 *
 * The fetch interpreter's machine (probe_fetch_access.h) maps onto a fake
 * x86_64-like one: struct pt_regs indexed by the x86 offsets of trace_probe_test_env.c,
 * and an address space of page-aligned user and kernel regions with
 * faulting holes between them (fake_mem.c).  Its nofault helpers follow
 * mm/maccess.c of 6.12, quirks included.
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
#define U8_MAX		((u8)~0U)
#define BIT(n)		(1UL << (n))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define static_assert(expr, ...)	_Static_assert(expr, #expr)
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

/* -E2BIG when @src was cut to fit; the kernel's contract */
static inline long strscpy(char *dst, const char *src, size_t size)
{
	size_t len = strnlen(src, size);

	if (!size)
		return -E2BIG;
	if (len == size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dst, src, len + 1);
	return len;
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

/* ---- compiler.h, kprobes.h, kconfig.h ---- */
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define noinline		__attribute__((__noinline__))
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define __always_unused		__attribute__((__unused__))
#define __user
#define __force
#define nokprobe_inline		inline __attribute__((__always_inline__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define NOKPROBE_SYMBOL(fn)
#define IS_ENABLED(option)	(option)

/* Run-time switches, so that the tests can try both kinds of arch */
extern bool kshim_non_overlapping;	/* x86, arm64: true */
#define CONFIG_ARCH_HAS_NON_OVERLAPPING_ADDRESS_SPACE	kshim_non_overlapping
#define CONFIG_HAVE_FUNCTION_ARG_ACCESS_API		1

/* ---- unaligned.h: as the kernel's, through a packed struct ---- */
#define get_unaligned(p) ({						\
	const struct { __typeof__(*(p)) x; } __attribute__((packed))	\
		*__pp = (const void *)(p);				\
	__pp->x; })
#define put_unaligned(v, p) do {					\
	struct { __typeof__(*(p)) x; } __attribute__((packed))		\
		*__pp = (void *)(p);					\
	__pp->x = (v);							\
} while (0)

/* ---- ptrace.h: x86_64's struct pt_regs, by offset ---- */
#define KSHIM_NR_REGS		34	/* arm64's 33 fit as well */
struct pt_regs {
	unsigned long r[KSHIM_NR_REGS];
};

#define KSHIM_REG_R9		64
#define KSHIM_REG_R8		72
#define KSHIM_REG_AX		80
#define KSHIM_REG_CX		88
#define KSHIM_REG_DX		96
#define KSHIM_REG_SI		104
#define KSHIM_REG_DI		112
#define KSHIM_REG_SP		152

static inline unsigned long *kshim_reg(struct pt_regs *regs, unsigned int off)
{
	return &regs->r[off / sizeof(long)];
}

static inline unsigned long regs_get_register(struct pt_regs *regs,
					      unsigned int offset)
{
	if (offset > sizeof(*regs) - sizeof(long))
		return 0;
	return *kshim_reg(regs, offset);
}

/* The stack pointer's offset: x86_64's, or arm64's for its layout tests */
extern unsigned int kshim_sp_offset;

static inline unsigned long kernel_stack_pointer(struct pt_regs *regs)
{
	return *kshim_reg(regs, kshim_sp_offset);
}

static inline unsigned long user_stack_pointer(struct pt_regs *regs)
{
	return *kshim_reg(regs, KSHIM_REG_SP);
}

static inline unsigned long regs_return_value(struct pt_regs *regs)
{
	return *kshim_reg(regs, KSHIM_REG_AX);
}

/* Each arch's ptrace names, from trace_probe_test_env.c, which includes
 * the arch files renamed to call theirs
 */
int regs_query_register_offset(const char *name);

/* Entry @n of the stack above the stack pointer, 0 outside the stack */
unsigned long regs_get_kernel_stack_nth(struct pt_regs *regs, unsigned int n);

/* x86_64: six in registers, then the stack above the return address */
static inline unsigned long regs_get_kernel_argument(struct pt_regs *regs,
						     unsigned int n)
{
	static const unsigned int offs[] = {
		KSHIM_REG_DI, KSHIM_REG_SI, KSHIM_REG_DX, KSHIM_REG_CX,
		KSHIM_REG_R8, KSHIM_REG_R9,
	};

	if (n >= ARRAY_SIZE(offs))
		return regs_get_kernel_stack_nth(regs, n - ARRAY_SIZE(offs) + 1);
	return regs_get_register(regs, offs[n]);
}

/* ---- sched.h ---- */
#define TASK_COMM_LEN		16
#define TASK_SIZE		0x00007ffffffff000UL
#define round_up(x, y)		((((x) - 1) | (__typeof__(x))((y) - 1)) + 1)
#define access_ok(p, n)		((unsigned long)(p) + (n) <= TASK_SIZE)

struct task_struct {
	char comm[TASK_COMM_LEN];
};

extern struct task_struct kshim_task;
#define current			(&kshim_task)
/* this CPU's per-CPU offset, as raw_cpu_ptr() adds it */
extern unsigned long kshim_cpu_offset;
#define __percpu
#define raw_cpu_ptr(p)		((void *)((unsigned long)(p) + kshim_cpu_offset))

/* ---- uaccess.h: the nofault helpers, on the fake address space ---- */
long copy_from_kernel_nofault(void *dst, const void *src, size_t size);
long copy_from_user_nofault(void *dst, const void *src, size_t size);
long strncpy_from_kernel_nofault(char *dst, const void *src, long count);
long strncpy_from_user_nofault(char *dst, const void *src, long count);
long strnlen_user_nofault(const void *src, long count);

/* Little-endian, as on x86 and arm64 */
#define CONFIG_CPU_BIG_ENDIAN	0

/* A user access section: each read is a nofault copy */
#define user_read_access_begin(p, len)	access_ok(p, len)
#define user_read_access_end()		do { } while (0)
#define unsafe_get_user(x, p, label)					\
do {									\
	if (copy_from_user_nofault(&(x), (p), sizeof(*(p))))		\
		goto label;						\
} while (0)
#define pagefault_disable()	do { } while (0)
#define pagefault_enable()	do { } while (0)
#define nmi_uaccess_okay()	true

/* The faulting user copies of uprobes: the fake memory has no lazy pages */
static inline unsigned long copy_from_user(void *dst, const void *src,
					   unsigned long size)
{
	return copy_from_user_nofault(dst, src, size) ? size : 0;
}

/* The length without the NUL, @count when none came, or -EFAULT */
long strncpy_from_user(char *dst, const char *src, long count);

static inline long strnlen_user(const char *src, long count)
{
	return strnlen_user_nofault(src, count);
}

/* ---- kallsyms.h ---- */
#define KSYM_SYMBOL_LEN		600
int sprint_symbol(char *buffer, unsigned long address);

/* ---- trace_seq.h ---- */
struct trace_seq {
	char buffer[8192];
	unsigned int len;
	bool full;
};

static inline void trace_seq_init(struct trace_seq *s)
{
	s->len = 0;
	s->full = false;
}

static inline bool trace_seq_has_overflowed(struct trace_seq *s)
{
	return s->full;
}

/* As seq_buf: a write that does not fit, with its NUL, is dropped */
__printf(2, 3)
static inline void trace_seq_printf(struct trace_seq *s, const char *fmt, ...)
{
	unsigned int left = sizeof(s->buffer) - s->len;
	va_list ap;
	int n;

	if (s->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(s->buffer + s->len, left, fmt, ap);
	va_end(ap);
	if (n < 0 || (unsigned int)n >= left)
		s->full = true;
	else
		s->len += n;
}

static inline void trace_seq_puts(struct trace_seq *s, const char *str)
{
	trace_seq_printf(s, "%s", str);
}

static inline void trace_seq_putc(struct trace_seq *s, unsigned char c)
{
	trace_seq_printf(s, "%c", c);
}

#endif /* KSHIM_H */
