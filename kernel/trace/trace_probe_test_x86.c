// SPDX-License-Identifier: GPL-2.0
/*
 * The x86_64 answers for probe event arguments (arch/x86/kernel/kprobes/probe_regs.c) for
 * the probe parser's tests, whatever the kernel's architecture: renamed
 * so that both architectures' files link side by side, over the made-up
 * ptrace table of trace_probe_test_env.c.  The names are renamed before
 * any header declares them, so the header's helpers call the renamed ones.
 */
#define probe_arch_reg x86_probe_arch_reg
#define probe_arch_arg x86_probe_arch_arg
#define regs_query_register_offset x86_regs_query_register_offset

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/ptrace.h>
#include <linux/string.h>

#include "trace_probe_test_env.h"

/* The tests' x86 is x86_64 */
#ifndef CONFIG_X86_64
#define CONFIG_X86_64 1
#endif

#include "../../arch/x86/kernel/kprobes/probe_regs.c"
