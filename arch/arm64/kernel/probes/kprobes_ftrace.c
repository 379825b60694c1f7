// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kprobes taken at a function's ftrace call site instead of through a BRK.
 *
 * ftrace_caller saves ftrace_regs, not pt_regs: x0-x8, FP, LR, SP and the
 * PC after the call site, and restores all of them but SP on the way back.
 * The kprobes core sends only the kprobes whose users set
 * KPROBE_FLAG_FTRACE_ARGS here, so the handlers get a pt_regs holding
 * those, as a BRK at the call site would have them, with every other
 * general-purpose register zero.  What the handlers change in the saved
 * registers, a kretprobe's LR or an error injection's PC and x0, goes back
 * into ftrace_regs.
 *
 * The pt_regs lives on the stack, as a BRK's exception frame would.
 */
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/string.h>

#include <asm/insn.h>
#include <asm/sysreg.h>

/*
 * Four words of a pt_regs.  The registers ftrace does not save read zero,
 * so that what a handler or a BPF program reads never depends on what the
 * stack held.  Clearing the whole pt_regs, as an initializer or the
 * compiler's stack initialization does, is a memset() call that costs
 * more than the rest of the handler; these assignments are a store pair
 * each.
 */
struct kprobe_ftrace_quad {
	u64 w[4];
};

/* The pt_regs a BRK at @ip would report, as far as ftrace saved it */
static void kprobe_ftrace_load(struct pt_regs *regs, struct ftrace_regs *fregs,
			       unsigned long ip)
{
	const struct kprobe_ftrace_quad zero = {};
	struct kprobe_ftrace_quad *mid = (void *)&regs->regs[9];
	struct kprobe_ftrace_quad *tail = (void *)&regs->orig_x0;

	/* x9-x28, then everything after PSTATE */
	BUILD_BUG_ON(offsetof(struct pt_regs, regs[29]) -
		     offsetof(struct pt_regs, regs[9]) != 5 * sizeof(*mid));
	BUILD_BUG_ON(sizeof(*regs) - offsetof(struct pt_regs, orig_x0) !=
		     2 * sizeof(*tail));
	ftrace_partial_regs(fregs, regs);
	mid[0] = zero;
	mid[1] = zero;
	mid[2] = zero;
	mid[3] = zero;
	mid[4] = zero;
	tail[0] = zero;
	tail[1] = zero;
	regs->pstate |= read_sysreg(daif);
	regs->pc = ip;
}

static void kprobe_ftrace_store(struct ftrace_regs *fregs,
				const struct pt_regs *regs)
{
	struct __arch_ftrace_regs *afregs = arch_ftrace_regs(fregs);

	memcpy(afregs->regs, regs->regs, sizeof(afregs->regs));
	afregs->fp = regs->regs[29];
	afregs->lr = regs->regs[30];
	afregs->pc = regs->pc;
}

/* Called by ftrace with preemption disabled */
void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct kprobe_ctlblk *kcb;
	struct pt_regs regs __uninitialized;
	struct kprobe *p;
	int bit;

	if (unlikely(kprobe_ftrace_disabled))
		return;
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;

	p = get_kprobe((kprobe_opcode_t *)ip);
	if (unlikely(!p) || kprobe_disabled(p))
		goto out;
	if (kprobe_running()) {
		kprobes_inc_nmissed_count(p);
		goto out;
	}

	kprobe_ftrace_load(&regs, fregs, ip);

	kcb = get_kprobe_ctlblk();
	__this_cpu_write(current_kprobe, p);
	kcb->kprobe_status = KPROBE_HIT_ACTIVE;
	/* a pre_handler that returns non-zero has set the PC to resume at */
	if (!p->pre_handler || !p->pre_handler(p, &regs)) {
		regs.pc = ip + AARCH64_INSN_SIZE;
		if (unlikely(p->post_handler)) {
			kcb->kprobe_status = KPROBE_HIT_SSDONE;
			p->post_handler(p, &regs, 0);
		}
	}
	kprobe_ftrace_store(fregs, &regs);
	__this_cpu_write(current_kprobe, NULL);
out:
	ftrace_test_recursion_unlock(bit);
}

NOKPROBE_SYMBOL(kprobe_ftrace_handler);

int arch_prepare_kprobe_ftrace(struct kprobe *p)
{
	p->ainsn.api.insn = NULL;
	p->ainsn.api.handler = NULL;
	return 0;
}
