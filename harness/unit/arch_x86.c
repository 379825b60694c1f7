// SPDX-License-Identifier: GPL-2.0
/*
 * arch/x86/kernel/kprobes/probe_regs.c for the user-space tests, as x86_64
 * builds it, renamed so that the arm64 file links beside it.
 */
#define CONFIG_X86_64 1
#define probe_arch_reg x86_probe_arch_reg
#define probe_arch_arg x86_probe_arch_arg
#define regs_query_register_offset x86_regs_query_register_offset
int x86_regs_query_register_offset(const char *name);

#include "../../arch/x86/kernel/kprobes/probe_regs.c"
