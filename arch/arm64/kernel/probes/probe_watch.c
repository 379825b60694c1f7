// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 hardware data watchpoints, as wprobe events use them (see
 * <linux/probe_regs.h>).
 *
 * A watchpoint is a fault: the exception comes before the accessing
 * instruction executes, with the pc at it, and the kernel steps it.  A
 * wprobe's breakpoint asks for its hit after that step
 * (arch_hw_breakpoint.after_access), so that its handler sees the
 * registers and the memory as the access left them (the new value of a
 * write), as on x86, with the pc still at the accessing instruction.
 * WCR's byte address select covers 1 to 8 bytes of an aligned doubleword;
 * a power of two at an address aligned to it always fits; WCR.LSC takes
 * loads, stores or both.  ID_AA64DFR0_EL1 says how many there are.
 */
#include <linux/bits.h>
#include <linux/hw_breakpoint.h>
#include <linux/probe_regs.h>

void probe_arch_watch(struct probe_watch_arch *w)
{
	w->slots = hw_breakpoint_slots(TYPE_DATA);
	w->lens = BIT(1) | BIT(2) | BIT(4) | BIT(8);
	w->accesses = BIT(HW_BREAKPOINT_R) | BIT(HW_BREAKPOINT_W) |
		      BIT(HW_BREAKPOINT_RW);
}

void probe_arch_watch_bp(struct perf_event *bp)
{
	counter_arch_bp(bp)->after_access = true;
}
