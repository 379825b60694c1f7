/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything the fetch interpreter (probe_fetch.c) asks of the machine, in
 * one place: registers, the stack, function arguments, memory that may
 * fault, symbols and the current task.  Each helper is a thin inline over
 * the kernel API, so the interpreter's hot path stays free of calls it
 * does not need; the user-space unit tests put a fake machine behind the
 * same names.
 *
 * On architectures whose user and kernel address spaces do not overlap
 * (x86, arm64, ...), a "kernel" address below TASK_SIZE is read as user
 * memory.
 */
#ifndef _TRACE_PROBE_FETCH_ACCESS_H
#define _TRACE_PROBE_FETCH_ACCESS_H

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/math.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>

#include <asm/probe_fetch.h>	/* arch_probe_kread_inline() */
#include <asm/tlb.h>		/* nmi_uaccess_okay() */

static nokprobe_inline unsigned long pfa_reg(struct pt_regs *regs,
					     unsigned long offset)
{
	return regs_get_register(regs, offset);
}

static nokprobe_inline unsigned long pfa_stack_nth(struct pt_regs *regs,
						   unsigned long n)
{
	return regs_get_kernel_stack_nth(regs, n);
}

static nokprobe_inline unsigned long pfa_stack_pointer(struct pt_regs *regs)
{
	return kernel_stack_pointer(regs);
}

static nokprobe_inline unsigned long pfa_retval(struct pt_regs *regs)
{
	return regs_return_value(regs);
}

/* Argument @n, counted from 0; the parser offers $argN only with the API */
static nokprobe_inline unsigned long pfa_arg(struct pt_regs *regs,
					     unsigned long n)
{
#ifdef CONFIG_HAVE_FUNCTION_ARG_ACCESS_API
	return regs_get_kernel_argument(regs, n);
#else
	return 0;
#endif
}

static nokprobe_inline bool pfa_is_user(unsigned long addr)
{
	return IS_ENABLED(CONFIG_ARCH_HAS_NON_OVERLAPPING_ADDRESS_SPACE) &&
	       addr < TASK_SIZE;
}

#define pfa_kload(dst, addr, type, label)				\
do {									\
	type __v;							\
									\
	__get_kernel_nofault(&__v, (const type *)(addr), type, label);	\
	memcpy(dst, &__v, sizeof(type));				\
} while (0)

/*
 * Copy @size bytes of kernel memory at @addr; 0, or a negative errno.
 * A load of 1, 2, 4 or 8 bytes is done here, with its exception-table
 * fixup, as copy_from_kernel_nofault() does after its checks: the
 * dereferences of a hit then cost no calls (about 60 instructions each
 * on x86_64).  Anything else goes through copy_from_kernel_nofault().
 */
static nokprobe_inline long pfa_kread(void *dst, unsigned long addr,
				      size_t size)
{
#ifdef arch_probe_kread_inline
	if (!size || size > 8 || (size & (size - 1)) ||
	    !arch_probe_kread_inline(addr, size))
		goto call;
	pagefault_disable();
	switch (size) {
	case 1:
		pfa_kload(dst, addr, u8, fault);
		break;
	case 2:
		pfa_kload(dst, addr, u16, fault);
		break;
	case 4:
		pfa_kload(dst, addr, u32, fault);
		break;
	default:
		pfa_kload(dst, addr, u64, fault);
		break;
	}
	pagefault_enable();
	return 0;
fault:
	pagefault_enable();
	return -EFAULT;
call:
#endif
	return copy_from_kernel_nofault(dst, (const void *)addr, size);
}

/*
 * pfa_read(..., false) through the nofault copy functions only: for a
 * size the compiler cannot know, pfa_kread()'s inline loads would add
 * code and four exception-table entries to each caller, for nothing.
 */
static nokprobe_inline long pfa_read_call(void *dst, unsigned long addr,
					  size_t size)
{
	if (pfa_is_user(addr))
		return copy_from_user_nofault(dst, (const void __user *)addr,
					      size);
	return copy_from_kernel_nofault(dst, (const void *)addr, size);
}

/* Copy @size bytes at @addr; 0, or a negative errno on a fault */
static nokprobe_inline long pfa_read(void *dst, unsigned long addr,
				     size_t size, bool user)
{
	if (user || pfa_is_user(addr))
		return copy_from_user_nofault(dst, (const void __user *)addr,
					      size);
	return pfa_kread(dst, addr, size);
}

/*
 * Copy the user string at @addr, at most @room bytes with its NUL; @room
 * must not be 0.  Returns the bytes stored, NUL included, or a negative
 * errno.  strncpy_from_user_nofault() returns 0 for "", but it did store
 * the NUL: count it, so that "" is not printed as "(fault)".
 */
static nokprobe_inline long pfa_ustrncpy(char *dst, unsigned long addr,
					 long room)
{
	long ret;

	ret = strncpy_from_user_nofault(dst, (const void __user *)addr, room);
	if (ret)
		return ret;
	dst[0] = '\0';
	return 1;
}

/* Can @addr be user memory at all?  A user read anywhere else faults */
static nokprobe_inline bool pfa_user_ok(unsigned long addr)
{
	return access_ok((const void __user *)addr, 1);
}

/* Same for a kernel string, or a user one below TASK_SIZE */
static nokprobe_inline long pfa_strncpy(char *dst, unsigned long addr,
					long room, bool user)
{
	if (user || pfa_is_user(addr))
		return pfa_ustrncpy(dst, addr, room);
	return strncpy_from_kernel_nofault(dst, (const void *)addr, room);
}

/* @w with its first @i bytes (in memory order) dropped, zeroes after */
static nokprobe_inline unsigned long pfa_word_from(unsigned long w,
						   unsigned int i)
{
	return IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) ? w << 8 * i : w >> 8 * i;
}

/* A word whose first @i bytes (in memory order) are 0xff, the rest 0 */
static nokprobe_inline unsigned long pfa_word_lead(unsigned int i)
{
	return IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) ? ~(~0UL >> 8 * i) :
						   (1UL << 8 * i) - 1;
}

/*
 * The top bit of each byte of @w that is zero, and no other: exact, with
 * no borrow from one byte into the next, so it serves either byte order.
 * Open-coded rather than asm/word-at-a-time.h, whose helpers the compiler
 * may leave out of line: no call may sit in a user access section.
 */
static nokprobe_inline unsigned long pfa_zero_bytes(unsigned long w)
{
	const unsigned long low7 = ~0UL / 0xff * 0x7f;

	return ~(((w & low7) + low7) | w | low7);
}

/* Index, in memory order, of the first byte @mask marks; @mask != 0 */
static nokprobe_inline unsigned int pfa_first_marked(unsigned long mask)
{
	return (IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) ? __builtin_clzl(mask) :
						    __builtin_ctzl(mask)) / 8;
}

/*
 * Append to @dst at *@n the bytes of @w, a word read at an aligned
 * address, from its byte @i on; the bytes before are not the string's.
 * Returns true when the word held the NUL, then counted in *@n.
 */
static nokprobe_inline bool pfa_word_put(char *dst, long *n, unsigned long w,
					 unsigned int i)
{
	unsigned long zero;

	w |= pfa_word_lead(i);
	put_unaligned(pfa_word_from(w, i), (unsigned long *)(dst + *n));
	zero = pfa_zero_bytes(w);
	if (zero) {
		*n += pfa_first_marked(zero) + 1 - i;
		return true;
	}
	*n += sizeof(long) - i;
	return false;
}

/*
 * Copy the user string at @addr as pfa_ustrncpy() does (NUL included,
 * the bytes stored, or -EFAULT), or -E2BIG when it is @room - 8 bytes or
 * longer: @dst has @room bytes, and whole words are written to it.  The
 * words are read aligned in one user access section.  An aligned word
 * never straddles a page, so a word faults only when a byte of the
 * string does, and it faults once, where a copy that retries a faulting
 * word byte by byte takes the page fault twice (some 500 instructions
 * each).  Inline, it also costs a hit no calls.
 */
static nokprobe_inline long pfa_ustrcpy(char *dst, unsigned long addr,
					long room)
{
	unsigned int i = addr & (sizeof(long) - 1);
	const unsigned long __user *p;
	unsigned long w;
	long n = 0;

	p = (const unsigned long __user *)(addr - i);
	/* not a user address: x86's masked copy would fault to say so */
	if (!pfa_user_ok(addr) || !nmi_uaccess_okay())
		return -EFAULT;
	pagefault_disable();
	if (!user_read_access_begin(p, round_up(i + room, sizeof(long)))) {
		pagefault_enable();
		return -E2BIG;	/* at the top of the user range */
	}
	for (; n + (long)sizeof(long) <= room; p++, i = 0) {
		unsafe_get_user(w, p, fault);
		if (pfa_word_put(dst, &n, w, i))
			goto done;
	}
	n = -E2BIG;
done:
	user_read_access_end();
	pagefault_enable();
	return n;
fault:
	user_read_access_end();
	pagefault_enable();
	return -EFAULT;
}

/*
 * The same for a kernel string, where pfa_kread() would load inline
 * (else strncpy_from_kernel_nofault(), which reads a byte per call).
 */
static nokprobe_inline long pfa_kstrcpy(char *dst, unsigned long addr,
					long room)
{
#ifdef arch_probe_kread_inline
	unsigned int i = addr & (sizeof(long) - 1);
	unsigned long p = addr - i, w;
	long n = 0;

	if (!arch_probe_kread_inline(p, round_up(i + room, sizeof(long))))
		goto call;
	pagefault_disable();
	for (; n + (long)sizeof(long) <= room; p += sizeof(long), i = 0) {
		__get_kernel_nofault(&w, (const unsigned long *)p,
				     unsigned long, fault);
		if (pfa_word_put(dst, &n, w, i))
			goto done;
	}
	n = -E2BIG;
done:
	pagefault_enable();
	return n;
fault:
	pagefault_enable();
	return -EFAULT;
call:
#endif
	return strncpy_from_kernel_nofault(dst, (const void *)addr, room);
}

/*
 * pfa_strncpy() for a size pass, which may be the first to touch the
 * string: copied by pfa_ustrcpy() or pfa_kstrcpy() (-E2BIG: too long).
 */
static nokprobe_inline long pfa_strncpy_once(char *dst, unsigned long addr,
					     long room, bool user)
{
	if (user || pfa_is_user(addr))
		return pfa_ustrcpy(dst, addr, room);
	return pfa_kstrcpy(dst, addr, room);
}

/*
 * Size of the kernel string at @addr with its NUL, at most @max; 0 on a
 * fault.  Aligned words never cross a page, so one faults exactly when
 * one of its bytes would, and the answer is that of a byte-per-call read
 * at an eighth of the calls.
 */
static nokprobe_inline long pfa_kstrsize(unsigned long addr, long max)
{
	unsigned long word = addr & ~(sizeof(long) - 1);
	unsigned int i = addr - word;
	union {
		unsigned long w;
		u8 b[sizeof(long)];
	} u;
	long len = 0;

	for (;; word += sizeof(long), i = 0) {
		if (pfa_read(&u.w, word, sizeof(long), false))
			return 0;
		for (; i < sizeof(long); i++) {
			len++;
			if (!u.b[i] || len == max)
				return len;
		}
	}
}

/* Size of the user string at @addr with its NUL; 0 on a fault */
static nokprobe_inline long pfa_ustrsize(unsigned long addr, long max)
{
	long len = strnlen_user_nofault((const void __user *)addr, max);

	return len > max ? max : len;
}

/*
 * Uprobes run in the probed task and may take page faults: their reads
 * use the faulting user copies.
 */

/* Copy @size bytes of user memory at @addr; 0, or -EFAULT */
static nokprobe_inline long pfa_fread(void *dst, unsigned long addr,
				      size_t size)
{
	return copy_from_user(dst, (const void __user *)addr, size) ?
	       -EFAULT : 0;
}

/* Entry @n of the user stack, 0 when it cannot be read */
static nokprobe_inline unsigned long pfa_ustack_nth(struct pt_regs *regs,
						    unsigned long n)
{
	unsigned long val;

	if (pfa_fread(&val, user_stack_pointer(regs) + n * sizeof(long),
		      sizeof(val)))
		return 0;
	return val;
}

/*
 * Copy the user string at @addr, at most @room bytes with its NUL (@room
 * not 0).  Returns the bytes stored, NUL included, a string that does
 * not fit being cut, or a negative errno.
 */
static nokprobe_inline long pfa_fstrncpy(char *dst, unsigned long addr,
					 long room)
{
	long ret = strncpy_from_user(dst, (const char __user *)addr, room);

	if (ret < 0)
		return ret;
	if (ret == room) {
		dst[ret - 1] = '\0';
		return ret;
	}
	return ret + 1;
}

/*
 * Size of the user string at @addr with its NUL, at most @max (a longer
 * one is cut); 0 on a fault.  A longer one must not be sized 0 and then
 * stored in the room the next strings were sized for.
 */
static nokprobe_inline long pfa_fstrsize(unsigned long addr, long max)
{
	long len = strnlen_user((const char __user *)addr, max);

	return len > max ? max : len;
}

/* "sym+0xoff/0xsize [mod]", as %pS prints it; returns its length */
static inline int pfa_sprint_symbol(char *buf, unsigned long addr)
{
	return sprint_symbol(buf, addr);
}

/* $current: the address of the task the probe hit in */
static nokprobe_inline unsigned long pfa_current(void)
{
	return (unsigned long)current;
}

/*
 * this_cpu_ptr(): a per-CPU address made this CPU's.  Probe handlers run
 * with preemption off, so the CPU is the one the record is written on.
 */
static nokprobe_inline unsigned long pfa_this_cpu_ptr(unsigned long addr)
{
	return (unsigned long)raw_cpu_ptr((void __percpu *)addr);
}

static nokprobe_inline const char *pfa_comm(void)
{
	return current->comm;
}

/*
 * A structure recorded whole ("*EXPR") is printed by its BTF type, which
 * the compiled probe holds a reference on.  There are none without BTF
 * arguments; its bytes in hex would do.
 */
#ifdef CONFIG_PROBE_EVENTS_BTF_ARGS
#include <linux/btf.h>

#include "probe_kenv.h"		/* probe_btf_print() */

static inline void pfa_print_whole(struct trace_seq *s, const void *btf,
				   u32 id, const u8 *data, unsigned int size)
{
	probe_btf_print(s, btf, id, data, size);
}

static inline void pfa_btf_get(void *btf)
{
	btf_get(btf);
}

static inline void pfa_btf_put(void *btf)
{
	btf_put(btf);
}
#else
static inline void pfa_print_whole(struct trace_seq *s,
				   const void *btf __always_unused,
				   u32 id __always_unused, const u8 *data,
				   unsigned int size)
{
	unsigned int i;

	for (i = 0; i < size; i++)
		trace_seq_printf(s, "%02x", data[i]);
}

static inline void pfa_btf_get(void *btf __always_unused)
{
}

static inline void pfa_btf_put(void *btf __always_unused)
{
}
#endif

#endif /* _TRACE_PROBE_FETCH_ACCESS_H */
