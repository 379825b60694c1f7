/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Register names of probe event arguments ("%ax", "%x0", ...).  Each
 * architecture that supports probe events keeps one table of the names
 * regs_query_register_offset() accepts there, with the offset of each
 * register in struct pt_regs, and answers these two questions from it.
 */
#ifndef _LINUX_PROBE_REGS_H
#define _LINUX_PROBE_REGS_H

/**
 * probe_arch_reg_offset() - find a register by its name
 * @name: the register name as a probe argument writes it, without the '%'
 *
 * Return: the offset of the register in struct pt_regs, or -EINVAL when the
 * architecture has no register of that name.
 */
int probe_arch_reg_offset(const char *name);

/**
 * probe_arch_reg_name() - find the name of the register at an offset
 * @offset: an offset in struct pt_regs
 *
 * Where two names share an offset (arm64's "x30" and "lr"), the canonical
 * one comes back, so that a listing shows the name the ABI has for it.
 *
 * Return: the name, or NULL when no register starts at @offset.
 */
const char *probe_arch_reg_name(unsigned int offset);

#endif /* _LINUX_PROBE_REGS_H */
