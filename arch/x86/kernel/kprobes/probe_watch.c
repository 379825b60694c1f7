// SPDX-License-Identifier: GPL-2.0
/*
 * x86 hardware data watchpoints, as wprobe events use them (see
 * <linux/probe_regs.h>).
 *
 * A data breakpoint is a trap: #DB comes once the accessing instruction has
 * completed, so a wprobe's handler sees the registers after it (the ip at
 * the next instruction) and the memory it wrote.  DR7 watches 1, 2, 4 and,
 * in long mode, 8 bytes at an address aligned to them, for writes or for
 * reads and writes: it has no read-only kind.  DR0-DR3 are the slots.
 */
#include <linux/bits.h>
#include <linux/hw_breakpoint.h>
#include <linux/probe_regs.h>

void probe_arch_watch(struct probe_watch_arch *w)
{
	w->slots = HBP_NUM;
	w->lens = BIT(1) | BIT(2) | BIT(4) |
		  (IS_ENABLED(CONFIG_X86_64) ? BIT(8) : 0);
	w->accesses = BIT(HW_BREAKPOINT_W) | BIT(HW_BREAKPOINT_RW);
}

/* #DB comes after the access already */
void probe_arch_watch_bp(struct perf_event *bp)
{
}
