/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything the fetch interpreter (probe_fetch.c) asks of the machine, in
 * one place: registers, the stack, function arguments, memory that may
 * fault, symbols and the current task.  Each helper is a thin inline over
 * the kernel API, so the interpreter's hot path stays free of calls it
 * does not need; the user-space unit tests put a fake machine behind the
 * same names (harness/unit/kshim.h).
 *
 * Memory reads follow 6.12 on architectures whose user and kernel address
 * spaces do not overlap (x86, arm64, ...): a "kernel" address below
 * TASK_SIZE is read as user memory.
 */
#ifndef _TRACE_PROBE_FETCH_ARCH_H
#define _TRACE_PROBE_FETCH_ARCH_H

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

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

/* Copy @size bytes at @addr; 0, or a negative errno on a fault */
static nokprobe_inline long pfa_read(void *dst, unsigned long addr,
				     size_t size, bool user)
{
	if (user || pfa_is_user(addr))
		return copy_from_user_nofault(dst, (const void __user *)addr,
					      size);
	return copy_from_kernel_nofault(dst, (const void *)addr, size);
}

/*
 * Copy the user string at @addr, at most @room bytes with its NUL; @room
 * must not be 0.  Returns the bytes stored, NUL included, or a negative
 * errno.  6.12's strncpy_from_user_nofault() returns 0 for "" (and 6.12
 * then prints it as "(fault)"); it did store the NUL, so count it.
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

/* Same for a kernel string, or a user one below TASK_SIZE */
static nokprobe_inline long pfa_strncpy(char *dst, unsigned long addr,
					long room, bool user)
{
	if (user || pfa_is_user(addr))
		return pfa_ustrncpy(dst, addr, room);
	return strncpy_from_kernel_nofault(dst, (const void *)addr, room);
}

/* Size of the user string at @addr with its NUL; 0 on a fault */
static nokprobe_inline long pfa_ustrsize(unsigned long addr, long max)
{
	long len = strnlen_user_nofault((const void __user *)addr, max);

	return len > max ? max : len;
}

/* "sym+0xoff/0xsize [mod]", as %pS prints it; returns its length */
static inline int pfa_sprint_symbol(char *buf, unsigned long addr)
{
	return sprint_symbol(buf, addr);
}

static nokprobe_inline const char *pfa_comm(void)
{
	return current->comm;
}

#endif /* _TRACE_PROBE_FETCH_ARCH_H */
