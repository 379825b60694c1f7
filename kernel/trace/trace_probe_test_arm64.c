// SPDX-License-Identifier: GPL-2.0
/*
 * The arm64 answers for probe event arguments (arch/arm64/kernel/probes/probe_regs.c) for
 * the probe parser's tests, whatever the kernel's architecture: renamed
 * so that both architectures' files link side by side, over the made-up
 * ptrace table of trace_probe_test_env.c.  The names are renamed before
 * any header declares them, so the header's helpers call the renamed ones.
 */
#define probe_arch_reg arm64_probe_arch_reg
#define probe_arch_arg arm64_probe_arch_arg
#define regs_query_register_offset arm64_regs_query_register_offset

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/ptrace.h>
#include <linux/string.h>

#include "trace_probe_test_env.h"

#include "../../arch/arm64/kernel/probes/probe_regs.c"
