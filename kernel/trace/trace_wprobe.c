// SPDX-License-Identifier: GPL-2.0
/*
 * Watchpoint probes: "w" definitions written to dynamic_events become
 * ftrace events written whenever the CPU accesses the watched data.
 *
 *	w[:[GRP/][EVENT]] [r|w|rw]@ADDR|[MOD:]SYM[+|-OFFS][:LEN] [FETCHARGS]
 *
 * The parser (tpp_parse_wprobe()) knows the grammar; the address is
 * checked here, against the running kernel and the architecture's
 * watchpoints (probe_arch_watch()).  A wprobe is one hardware data
 * breakpoint per online CPU, made through the hw_breakpoint layer as a
 * pinned per-CPU perf event.  They are made, disabled, when the probe is
 * defined, so that a definition the slots cannot take is refused at once
 * and an enable cannot fail for want of a slot; enabling the event enables
 * them.  CPUs that come online get theirs from a hotplug callback.
 *
 * The hit runs the probe's compiled fetch program on the registers of the
 * trap, with the watched address as entry data word 0 ($addr), and writes
 * one record headed by the instruction pointer of the trap.  Whether that
 * is the accessing instruction or the next one, and whether memory holds
 * the value before or after the access, is the architecture's (see
 * probe_arch_watch()).
 *
 * Locking: definitions change under event_mutex; the per-CPU breakpoints
 * under the CPU hotplug lock (read side here, write side in the hotplug
 * callbacks).  The handler runs in the debug exception, with preemption
 * off.
 */
#define pr_fmt(fmt)	"trace_wprobe: " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/hw_breakpoint.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/probe_regs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "trace.h"
#include "trace_dynevent.h"
#include "probe_event.h"
#include "probe_kenv.h"

#define TW_LOG		"trace_wprobe"

/**
 * struct trace_wprobe - one watchpoint probe
 * @tp: what every probe type's probe has (a wprobe event has one probe)
 * @addr: the watched address; the handler hands the fetch program its
 *	address as the entry data, whose word 0 $addr reads
 * @bps: each CPU's breakpoint, NULL where there is none
 * @node: on the hotplug state's instance list while @attached
 * @attached: the breakpoints exist (between attach and detach)
 * @armed: they are enabled; changes under the CPU hotplug read lock
 * @adding: the first breakpoints are being made: a CPU's failure fails
 *	the definition, where a CPU coming online later goes without
 *
 * A listed wprobe that is not @attached lost its breakpoints with the
 * module holding @addr: it watches nothing any more.
 */
struct trace_wprobe {
	struct trace_probe tp;
	unsigned long addr;
	struct perf_event * __percpu *bps;
	struct hlist_node node;
	bool attached;
	bool armed;
	bool adding;
};

static struct dyn_event_operations tw_dyn_ops;
static const struct probe_event_ops tw_event_ops;
static enum cpuhp_state tw_cpuhp_state;

static inline bool is_tw(struct dyn_event *ev)
{
	return ev->ops == &tw_dyn_ops;
}

static inline struct trace_wprobe *tw_of(const struct trace_probe *tp)
{
	return container_of(tp, struct trace_wprobe, tp);
}

static struct trace_wprobe *tw_first(struct probe_event *ev)
{
	struct trace_probe *tp = probe_event_first(ev);

	return tp ? tw_of(tp) : NULL;
}

/* ---- The hit path ---- */

static void tw_handler(struct perf_event *bp, struct perf_sample_data *data,
		       struct pt_regs *regs)
{
	struct trace_wprobe *tw = bp->overflow_handler_context;
	unsigned int flags = READ_ONCE(tw->tp.ev->flags);
	unsigned long ip = instruction_pointer(regs);

	if (flags & PROBE_EVENT_F_TRACE)
		probe_ip_trace(&tw->tp, regs, &tw->addr, ip, false, 0);
	if (flags & PROBE_EVENT_F_PERF)
		probe_ip_perf(&tw->tp, regs, &tw->addr, ip, false, 0);
}

NOKPROBE_SYMBOL(tw_handler);

/* ---- The breakpoints, one per online CPU ---- */

/* The hw_breakpoint type of a watch's access */
static int tw_bp_type(const struct tpp_watch *watch)
{
	return (watch->access & TPP_WATCH_R ? HW_BREAKPOINT_R : 0) |
	       (watch->access & TPP_WATCH_W ? HW_BREAKPOINT_W : 0);
}

static struct perf_event *tw_bp_new(struct trace_wprobe *tw, unsigned int cpu)
{
	const struct tpp_watch *watch = &tw->tp.def->watch;
	struct perf_event_attr attr;

	hw_breakpoint_init(&attr);
	attr.bp_addr = tw->addr;
	attr.bp_len = watch->len;	/* HW_BREAKPOINT_LEN_N is N */
	attr.bp_type = tw_bp_type(watch);
	attr.disabled = !tw->armed;
	return perf_event_create_kernel_counter(&attr, cpu, NULL, tw_handler,
						tw);
}

/*
 * Hotplug: @cpu comes online, or the probe is attached.  A CPU coming
 * online without a free slot goes unwatched rather than failing to come
 * up; only the first attach fails with it.
 */
static int tw_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct trace_wprobe *tw = hlist_entry(node, struct trace_wprobe, node);
	struct perf_event *bp = tw_bp_new(tw, cpu);

	if (IS_ERR(bp)) {
		if (tw->adding)
			return PTR_ERR(bp);
		pr_warn_ratelimited("%s: CPU %u has no free watchpoint slot; its accesses go unrecorded\n",
				    probe_event_name(tw->tp.ev), cpu);
		return 0;
	}
	*per_cpu_ptr(tw->bps, cpu) = bp;
	return 0;
}

static int tw_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct trace_wprobe *tw = hlist_entry(node, struct trace_wprobe, node);
	struct perf_event **bp = per_cpu_ptr(tw->bps, cpu);

	if (*bp)
		unregister_hw_breakpoint(*bp);
	*bp = NULL;
	return 0;
}

/* The first breakpoints: every online CPU's, or none */
static int tw_attach(struct trace_probe *tp)
{
	struct trace_wprobe *tw = tw_of(tp);
	int ret;

	lockdep_assert_held(&event_mutex);
	tw->adding = true;
	ret = cpuhp_state_add_instance(tw_cpuhp_state, &tw->node);
	tw->adding = false;
	tw->attached = !ret;
	return ret;
}

static void tw_detach(struct trace_probe *tp)
{
	struct trace_wprobe *tw = tw_of(tp);

	lockdep_assert_held(&event_mutex);
	if (!tw->attached)
		return;
	cpuhp_state_remove_instance(tw_cpuhp_state, &tw->node);
	tw->attached = false;
}

/* perf and ptrace count per CPU: count our own to say who holds them */
static unsigned int tw_nr_attached(void)
{
	struct dyn_event *pos;
	unsigned int n = 0;

	for_each_dyn_event(pos)
		if (is_tw(pos) && tw_of(to_trace_probe(pos))->attached)
			n++;
	return n;
}

static int tw_refused(const struct trace_probe *tp, int ret)
{
	struct probe_watch_arch arch;

	if (ret != -ENOSPC)
		return TPP_E_NONE;
	probe_arch_watch(&arch);
	return tw_nr_attached() >= arch.slots ? TPP_E_WATCH_OURS :
						TPP_E_WATCH_SLOTS;
}

static void tw_set_enabled(struct trace_wprobe *tw, bool on)
{
	struct perf_event *bp;
	unsigned int cpu;

	cpus_read_lock();
	tw->armed = on;
	for_each_online_cpu(cpu) {
		bp = *per_cpu_ptr(tw->bps, cpu);
		if (!bp)
			continue;
		if (on)
			perf_event_enable(bp);
		else
			perf_event_disable(bp);
	}
	cpus_read_unlock();
}

/* A wprobe whose module went away has nothing to watch */
static int tw_arm(struct probe_event *ev)
{
	struct trace_wprobe *tw = tw_first(ev);

	if (!tw || !tw->attached)
		return -ENODEV;
	tw_set_enabled(tw, true);
	return 0;
}

static void tw_disarm(struct probe_event *ev)
{
	struct trace_wprobe *tw = tw_first(ev);

	if (tw && tw->attached)
		tw_set_enabled(tw, false);
}

/* ---- Life cycle ---- */

static void tw_free(struct trace_wprobe *tw)
{
	if (!tw)
		return;
	free_percpu(tw->bps);
	probe_event_destroy_probe(&tw->tp);
	kfree(tw);
}

/* A probe for @def, which it takes over, not yet on any event */
static struct trace_wprobe *tw_alloc(struct tpp_def *def)
{
	struct trace_wprobe *tw = kzalloc(sizeof(*tw), GFP_KERNEL);
	int ret;

	if (!tw) {
		tpp_free(def);
		return ERR_PTR(-ENOMEM);
	}
	ret = probe_event_init_probe(&tw->tp, def, &tw_event_ops, &tw_dyn_ops);
	if (!ret) {
		tw->bps = alloc_percpu(struct perf_event *);
		if (!tw->bps)
			ret = -ENOMEM;
	}
	if (ret) {
		tw_free(tw);
		return ERR_PTR(ret);
	}
	return tw;
}

/* ---- The watched address ---- */

/* Where the place names, as the kernel runs now */
static int tw_resolve(const struct tpp_def *def, unsigned long *addr,
		      struct tpp_error *err)
{
	unsigned long sym;

	if (!def->symbol) {
		*addr = def->addr;
		return 0;
	}
	sym = kallsyms_lookup_name(def->symbol);
	if (!sym)	/* gone since the parse */
		return tpp_error_set(err, TPP_E_SYM_UNKNOWN, def->place_pos,
				     -ENOENT);
	*addr = sym + (long)def->offset;
	return 0;
}

/*
 * Kernel data, mapped, of a length the architecture watches, aligned to
 * it.  Text is refused: a breakpoint there is a kprobe's business, and a
 * data watchpoint on code traps on nothing but reads of it.
 */
static int tw_check_addr(const struct tpp_def *def, unsigned long addr,
			 struct tpp_error *err)
{
	unsigned int pos = def->place_pos, len = def->watch.len;
	struct probe_watch_arch arch;
	u64 buf;

	if (addr < TASK_SIZE_MAX)
		return tpp_error_set(err, TPP_E_WATCH_USER, pos, -EINVAL);
	if (kernel_text_address(addr))
		return tpp_error_set(err, TPP_E_WATCH_TEXT, pos, -EINVAL);
	if (copy_from_kernel_nofault(&buf, (void *)addr, len))
		return tpp_error_set(err, TPP_E_WATCH_UNMAPPED, pos, -EFAULT);
	probe_arch_watch(&arch);
	if (!(arch.accesses & BIT(tw_bp_type(&def->watch))))
		return tpp_error_set(err, TPP_E_WATCH_ACCESS_ARCH,
				     def->watch.pos, -EINVAL);
	if (!(arch.lens & BIT(len)))
		return tpp_error_set(err, TPP_E_WATCH_LEN_ARCH,
				     def->watch.len_pos, -EINVAL);
	if (addr & (len - 1))
		return tpp_error_set(err, TPP_E_WATCH_ALIGN, pos, -EINVAL);
	return 0;
}

/* ---- Creating a probe from its definition ---- */

/*
 * One wprobe per byte: hardware that finds two watchpoints on an access
 * may report either one or both (x86 reports both, QEMU's x86 the first
 * only), so two events on the same bytes would not both be told of every
 * access.  A byte is watched by one event, and the event's filters and
 * triggers do the rest.
 */
static int tw_check(struct trace_probe *tp, struct probe_event *ev,
		    struct tpp_error *err)
{
	const struct trace_wprobe *tw = tw_of(tp), *other;
	unsigned int len = tp->def->watch.len;
	struct dyn_event *pos;

	lockdep_assert_held(&event_mutex);
	for_each_dyn_event(pos) {
		if (!is_tw(pos))
			continue;
		other = tw_of(to_trace_probe(pos));
		if (other->attached && tw->addr < other->addr +
		    other->tp.def->watch.len && other->addr < tw->addr + len)
			return tpp_error_set(err, TPP_E_WATCH_TAKEN,
					     tp->def->place_pos, -EBUSY);
	}
	return 0;
}

/* Parse "w..." and check what it watches; errors in @err */
static struct tpp_def *tw_parse(const char *cmd, unsigned long *addr,
				struct tpp_error *err)
{
	struct probe_kenv ke;
	struct tpp_def *def;
	int ret;

	probe_kenv_init(&ke);
	def = tpp_parse_wprobe(cmd, &ke.env, err);
	probe_kenv_destroy(&ke);
	if (IS_ERR(def))
		return def;
	ret = tw_resolve(def, addr, err);
	if (!ret)
		ret = tw_check_addr(def, *addr, err);
	if (ret) {
		tpp_free(def);
		return ERR_PTR(ret);
	}
	return def;
}

static int tw_create(const char *cmd, struct tpp_error *err)
{
	struct trace_wprobe *tw;
	struct tpp_def *def;
	unsigned long addr;
	int ret;

	/* "w" or "w:NAME" and at least a watch, or it is someone else's */
	if (cmd[0] != 'w' || (cmd[1] && cmd[1] != ' ' && cmd[1] != ':'))
		return -ECANCELED;
	def = tw_parse(cmd, &addr, err);
	if (IS_ERR(def))
		return PTR_ERR(def);
	tw = tw_alloc(def);
	if (IS_ERR(tw))
		return tpp_error_set(err, TPP_E_NONE, 0, PTR_ERR(tw));
	tw->addr = addr;
	ret = probe_event_add_probe(&tw->tp, &tw_event_ops, err);
	if (ret)
		tw_free(tw);
	return ret;
}

/* Create the probe defined by @raw; -ECANCELED when it is not ours */
static int tw_dyn_create(const char *raw)
{
	return probe_event_dyn_create(raw, TW_LOG, tw_create);
}

/* ---- dyn_event operations: listing, matching, removal ---- */

/* "[r|w|rw]@PLACE:LEN", the access and the length always written out */
static char *tw_list_place(const struct trace_probe *tp)
{
	static const char *const access[] = {
		[TPP_WATCH_R] = "r", [TPP_WATCH_W] = "w", [TPP_WATCH_RW] = "rw",
	};
	const struct tpp_def *def = tp->def;
	const char *a = access[def->watch.access & TPP_WATCH_RW];
	long offs = (long)def->offset;

	if (!def->symbol)
		return kasprintf(GFP_KERNEL, "%s@0x%lx:%u", a, def->addr,
				 def->watch.len);
	if (!offs)
		return kasprintf(GFP_KERNEL, "%s@%s:%u", a, def->symbol,
				 def->watch.len);
	return kasprintf(GFP_KERNEL, "%s@%s%+ld:%u", a, def->symbol, offs,
			 def->watch.len);
}

static void tw_free_probe(struct trace_probe *tp)
{
	tw_free(tw_of(tp));
}

static const struct probe_event_ops tw_event_ops = {
	.arm = tw_arm,
	.disarm = tw_disarm,
	.head = PROBE_HEAD_IP,
	.single = true,
	.check = tw_check,
	.attach = tw_attach,
	.refused = tw_refused,
	.detach = tw_detach,
	.free_probe = tw_free_probe,
	.list_place = tw_list_place,
};

static struct dyn_event_operations tw_dyn_ops =
	PROBE_EVENT_DYN_OPS(tw_dyn_create, probe_event_dyn_free);

/* ---- Modules: a watched variable goes with its module ---- */

#ifdef CONFIG_MODULES
/*
 * MODULE_STATE_GOING comes after the module's exit function and before its
 * memory is freed: no breakpoint may stay on that memory (anything may
 * reuse it), every trace instance stops taking the event, and the event
 * can no longer be enabled.
 */
static void tw_module_going(struct trace_wprobe *tw, struct module *mod)
{
	struct probe_event *ev = tw->tp.ev;
	struct probe_event_link *link, *next;

	tw_detach(&tw->tp);
	list_for_each_entry_safe(link, next, &ev->links, list)
		trace_event_enable_disable(link->file, 0, 0);
	pr_info("%s/%s: module %s is gone: the event is disabled and watches nothing\n",
		probe_event_group(ev), probe_event_name(ev), module_name(mod));
}

static int tw_module_notify(struct notifier_block *nb, unsigned long val,
			    void *data)
{
	struct module *mod = data;
	struct trace_wprobe *tw;
	struct dyn_event *pos;

	if (val != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&event_mutex);
	for_each_dyn_event(pos) {
		if (!is_tw(pos))
			continue;
		tw = tw_of(to_trace_probe(pos));
		if (tw->attached && within_module(tw->addr, mod))
			tw_module_going(tw, mod);
	}
	mutex_unlock(&event_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block tw_module_nb = {
	.notifier_call = tw_module_notify,
};

#define tw_watch_modules()	register_module_notifier(&tw_module_nb)
#else
#define tw_watch_modules()	0
#endif

/* ---- Start-up ---- */

/* At core_initcall, so that boot-time users find wprobe events there */
static __init int tw_init_early(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "trace/wprobe:online",
				      tw_cpu_online, tw_cpu_offline);
	if (ret < 0)
		return ret;
	tw_cpuhp_state = ret;
	ret = dyn_event_register(&tw_dyn_ops);
	if (ret)
		return ret;
	return tw_watch_modules();
}
core_initcall(tw_init_early);
