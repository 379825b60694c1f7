// SPDX-License-Identifier: GPL-2.0
/*
 * arch/arm64/kernel/probes/probe_regs.c for the user-space tests, renamed
 * so that the x86 file links beside it.
 */
#define probe_arch_reg arm64_probe_arch_reg
#define probe_arch_arg arm64_probe_arch_arg
#define regs_query_register_offset arm64_regs_query_register_offset
int arm64_regs_query_register_offset(const char *name);

#include "../../arch/arm64/kernel/probes/probe_regs.c"
