// SPDX-License-Identifier: GPL-2.0
/*
 * kbfloor: the floor under a kprobe event, for harness/bench/kbench.c.
 *
 * A bare kprobe on sym (default the getppid syscall wrapper) whose
 * handler does nothing (mode=0), or reserves and commits one 8-byte
 * entry in a private overwrite ring buffer (mode=1): what any probe and
 * any ring-buffer write cost, with no event tracer in between.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ring_buffer.h>

static char *sym = "__x64_sys_getppid";
module_param(sym, charp, 0444);
static int mode;
module_param(mode, int, 0444);

static struct trace_buffer *buf;

static int kbfloor_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct ring_buffer_event *ev;

	if (!mode)
		return 0;
	ev = ring_buffer_lock_reserve(buf, sizeof(u64));
	if (ev) {
		*(u64 *)ring_buffer_event_data(ev) = (unsigned long)p->addr;
		ring_buffer_unlock_commit(buf);
	}
	return 0;
}

static struct kprobe kp = {
	.pre_handler = kbfloor_pre,
};

static int __init kbfloor_init(void)
{
	int ret;

	if (mode) {
		buf = ring_buffer_alloc(1 << 20, RB_FL_OVERWRITE);
		if (!buf)
			return -ENOMEM;
	}
	kp.symbol_name = sym;
	ret = register_kprobe(&kp);
	if (ret && buf)
		ring_buffer_free(buf);
	return ret;
}

static void __exit kbfloor_exit(void)
{
	unregister_kprobe(&kp);
	if (buf)
		ring_buffer_free(buf);
}

module_init(kbfloor_init);
module_exit(kbfloor_exit);
MODULE_DESCRIPTION("kprobe and ring-buffer floor for kbench");
MODULE_LICENSE("GPL");
