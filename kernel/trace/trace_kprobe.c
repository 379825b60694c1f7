// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobe-based event tracer: probe definitions written to kprobe_events or
 * dynamic_events become ftrace events that kprobes and kretprobes write.
 *
 * A definition goes through three steps.  The pure parser (trace_probe.c)
 * turns the text into a tree, or an error with its caret; the compiler
 * (probe_fetch.c) turns the tree into one flat fetch program; this file
 * registers the kprobe and attaches it to a probe event (probe_event.c),
 * new or existing.  At a hit the handler only walks the program.
 *
 * Locking: definitions, events and the dyn_event list change under
 * event_mutex; the handlers read the event's flags and trace files under
 * RCU, since kprobe handlers run with preemption disabled.
 */
#define pr_fmt(fmt)	"trace_kprobe: " fmt

#include <linux/bpf-cgroup.h>
#include <linux/bug.h>
#include <linux/error-injection.h>
#include <linux/ftrace.h>
#include <linux/jump_label.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/probe_regs.h>
#include <linux/rculist.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <asm/setup.h>	/* COMMAND_LINE_SIZE */

#include "trace_dynevent.h"
#include "trace_kprobe_selftest.h"
#include "trace_probe.h"
#include "probe_event.h"
#include "probe_kenv.h"

#define TK_GROUP	TPP_DEFAULT_GROUP
#define TK_MAX_CMD	4096

/**
 * struct trace_kprobe - one kprobe or kretprobe of a probe event
 * @tp: what every probe type's probe has: its event, definition, program
 * @nhit: hits, per CPU
 * @sym_addr: address of the vmlinux symbol probed, found by the parse, or
 *	0: then kprobes looks the name up
 * @registered: the kprobe is registered with the kprobes core
 * @frees_ev: taken out as the last probe of @ev: tk_unregister_pending() frees @ev too
 * @rp: the kretprobe; a plain kprobe uses only @rp.kp
 */
struct trace_kprobe {
	struct trace_probe tp;
	unsigned long __percpu *nhit;
	unsigned long sym_addr;
	bool registered;
	bool frees_ev;
	struct kretprobe rp;
};

/* Defined with their callbacks, below */
static struct dyn_event_operations tk_dyn_ops;
static const struct probe_event_ops tk_event_ops;

static inline bool is_tk(struct dyn_event *ev)
{
	return ev->ops == &tk_dyn_ops;
}

static inline struct trace_kprobe *to_tk(struct dyn_event *ev)
{
	return container_of(ev, struct trace_kprobe, tp.devent);
}

static inline struct trace_kprobe *tk_of(const struct trace_probe *tp)
{
	return container_of(tp, struct trace_kprobe, tp);
}

static inline bool tk_is_return(const struct trace_kprobe *tk)
{
	return tk->tp.def->is_return;
}

static unsigned long tk_nhit(const struct trace_kprobe *tk)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(tk->nhit, cpu);
	return sum;
}

static unsigned long tk_nmissed(const struct trace_kprobe *tk)
{
	unsigned long n = tk->rp.kp.nmissed;

	return tk_is_return(tk) ? n + tk->rp.nmissed : n;
}

/* Where the probe sits, once registered (or for an address probe) */
static unsigned long tk_address(const struct trace_kprobe *tk)
{
	if (tk->rp.kp.addr)
		return (unsigned long)tk->rp.kp.addr;
	if (!tk->tp.def->symbol)
		return tk->tp.def->addr;
	return (unsigned long)kallsyms_lookup_name(tk->tp.def->symbol) +
	       tk->tp.def->offset;
}

static struct trace_kprobe *tk_first(struct probe_event *ev)
{
	struct trace_probe *tp = probe_event_first(ev);

	return tp ? tk_of(tp) : NULL;
}

/* ---- The hit path ---- */

#ifdef CONFIG_PERF_EVENTS
/* Returns 1 when a BPF program moved the ip (kprobe override) */
static int tk_perf(const struct trace_kprobe *tk, struct pt_regs *regs,
		   const unsigned long *edata, unsigned long ret_ip)
{
	struct trace_event_call *call = &tk->tp.ev->call;

	if (bpf_prog_array_valid(call)) {
		unsigned long ip = instruction_pointer(regs);
		unsigned int run = trace_call_bpf(call, regs);

		if (!tk_is_return(tk) && ip != instruction_pointer(regs))
			return 1;
		if (!run)
			return 0;
	}
	probe_ip_perf(&tk->tp, regs, edata, (unsigned long)tk->rp.kp.addr,
		      tk_is_return(tk), ret_ip);
	return 0;
}

NOKPROBE_SYMBOL(tk_perf);
#else
static inline int tk_perf(const struct trace_kprobe *tk, struct pt_regs *regs,
			  const unsigned long *edata, unsigned long ret_ip)
{
	return 0;
}
#endif

/* Inlined into each handler: a hit runs in one frame (probe_ip_trace()) */
static nokprobe_inline int tk_hit(const struct trace_kprobe *tk,
				  struct pt_regs *regs,
				  const unsigned long *edata,
				  bool is_ret, unsigned long ret_ip)
{
	unsigned int flags = READ_ONCE(tk->tp.ev->flags);
	int ret = 0;

	raw_cpu_inc(*tk->nhit);
	if (flags & PROBE_EVENT_F_TRACE)
		probe_ip_trace(&tk->tp, regs, edata,
			       (unsigned long)tk->rp.kp.addr, is_ret, ret_ip);
	if (flags & PROBE_EVENT_F_PERF)
		ret = tk_perf(tk, regs, edata, ret_ip);
	return ret;
}

static int tk_kprobe_handler(struct kprobe *kp, struct pt_regs *regs)
{
	return tk_hit(container_of(kp, struct trace_kprobe, rp.kp), regs, NULL,
		      false, 0);
}

NOKPROBE_SYMBOL(tk_kprobe_handler);

/* The probe of a kretprobe instance; NULL while it is unregistered */
static nokprobe_inline struct trace_kprobe *tk_of_instance(struct kretprobe_instance *ri)
{
	struct kretprobe *rp = get_kretprobe(ri);

	return rp ? container_of(rp, struct trace_kprobe, rp) : NULL;
}

/* Save the $argN and @entry() values a return probe prints, on the way in */
static int tk_entry_handler(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct trace_kprobe *tk = tk_of_instance(ri);

	if (tk)
		probe_prog_save_entry(tk->tp.prog, regs, (unsigned long *)ri->data);
	return tk ? 0 : -ENOENT;
}

NOKPROBE_SYMBOL(tk_entry_handler);

static int tk_return_handler(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct trace_kprobe *tk = tk_of_instance(ri);
	unsigned long *edata = (unsigned long *)ri->data;

	if (tk)
		tk_hit(tk, regs, probe_prog_edata_size(tk->tp.prog) ? edata : NULL,
		       true, get_kretprobe_retaddr(ri));
	return 0;
}

NOKPROBE_SYMBOL(tk_return_handler);

/* ---- Registration with the kprobes core ---- */

#if defined(CONFIG_DYNAMIC_FTRACE) && !defined(CONFIG_KPROBE_EVENTS_ON_NOTRACE)
/* Does the function around @addr have an ftrace site, i.e. is it traceable? */
static bool tk_func_traceable(unsigned long addr)
{
	unsigned long size, off;

	if (!addr || !kallsyms_lookup_size_offset(addr, &size, &off))
		return true;
	return ftrace_location_range(addr - off, addr - off + size - 1);
}

/*
 * Probing a notrace function could recurse into the tracer.  A compiler
 * clone ("func.isra.0") has no ftrace site of its own; it is as traceable
 * as the function it was cloned from.
 */
static bool tk_on_notrace(const struct trace_kprobe *tk)
{
	unsigned long addr = tk_address(tk);
	char name[KSYM_NAME_LEN];
	char *dot;

	if (tk_func_traceable(addr))
		return false;
	if (lookup_symbol_name(addr, name))
		return true;
	dot = strchr(name, '.');
	if (!dot)
		return true;
	*dot = '\0';
	addr = (unsigned long)kprobe_lookup_name(name, 0);
	return !addr || !tk_func_traceable(addr);
}
#else
static bool tk_on_notrace(const struct trace_kprobe *tk)
{
	return false;
}
#endif

static unsigned long tk_sym_lookup(void *priv, const char *name)
{
	return kallsyms_lookup_name(name);
}

/*
 * Whether every register @tk reads at the function's entry is one that a
 * kprobe taken through ftrace has exactly (probe_arch_ftrace_reg()): a
 * kprobe's arguments, a return probe's @entry() arguments and the $argN
 * it saves.  A return probe's other arguments are read at the return,
 * which has all registers.  Then the kprobe may take the ftrace path
 * (KPROBE_FLAG_FTRACE_ARGS); otherwise it keeps the breakpoint, and reads
 * every register as the probed code left it.
 */
static bool tk_entry_regs_in_ftrace(const struct trace_kprobe *tk)
{
	const struct tpp_def *def = tk->tp.def;
	unsigned int i;

	for (i = 0; i < def->nr_args; i++) {
		const struct tpp_fetch *f = &def->args[i].fetch;
		unsigned long val = f->val;
		int src = f->src;

		if (src == TPP_SRC_EARG) {
			src = tpp_earg_src(val);
			val = tpp_earg_val(val);
		} else if (def->is_return && !def->args[i].entry) {
			continue;
		}
		if (src == TPP_SRC_REG && !probe_arch_ftrace_reg(val))
			return false;
	}
	return true;
}

/* Register the k*probe, armed when the event is enabled */
static int tk_register_kprobe(struct trace_kprobe *tk)
{
	struct kprobe *kp = &tk->rp.kp;
	int ret;

	ret = security_locked_down(LOCKDOWN_KPROBES);
	if (ret)
		return ret;
	if (tk->registered)
		return -EINVAL;
	if (tk_on_notrace(tk)) {
		pr_warn("Could not probe notrace function %ps\n",
			(void *)tk_address(tk));
		return -EINVAL;
	}
	ret = probe_prog_resolve_symbols(tk->tp.prog, tk_sym_lookup, NULL);
	if (ret)
		return ret;
	if (probe_event_enabled(tk->tp.ev))
		kp->flags &= ~KPROBE_FLAG_DISABLED;
	else
		kp->flags |= KPROBE_FLAG_DISABLED;
	if (tk_entry_regs_in_ftrace(tk))
		kp->flags |= KPROBE_FLAG_FTRACE_ARGS;
	else
		kp->flags &= ~KPROBE_FLAG_FTRACE_ARGS;
	ret = tk_is_return(tk) ? register_kretprobe(&tk->rp) :
				 register_kprobe(kp);
	tk->registered = !ret;
	return ret;
}

static void tk_unregister_kprobe(struct trace_kprobe *tk)
{
	struct kprobe *kp = &tk->rp.kp;

	if (!tk->registered)
		return;
	if (tk_is_return(tk))
		unregister_kretprobe(&tk->rp);
	else
		unregister_kprobe(kp);
	tk->registered = false;
	/* make it registrable again: the core keys on these */
	INIT_HLIST_NODE(&kp->hlist);
	INIT_LIST_HEAD(&kp->list);
	if (kp->symbol_name)
		kp->addr = NULL;
	else if (tk->sym_addr)
		kp->addr = (void *)(tk->sym_addr + tk->tp.def->offset);
}

/*
 * A place kallsyms does not know yet may be in a module to come: a MOD:SYM
 * whose module is not loaded, or any address.  Such a probe is accepted
 * and waits for the module notifier.
 */
static bool tk_may_wait(const struct trace_kprobe *tk)
{
	bool missing = !tk->tp.def->symbol;

	if (IS_ENABLED(CONFIG_MODULES) && tk->tp.def->module) {
		rcu_read_lock_sched();
		missing = !find_module(tk->tp.def->module);
		rcu_read_unlock_sched();
	}
	return missing;
}

static int tk_register_kprobe_or_wait(struct trace_kprobe *tk)
{
	int ret = tk_register_kprobe(tk);

	if (ret == -ENOENT && tk_may_wait(tk)) {
		pr_warn("This probe might be able to register after target module is loaded. Continue.\n");
		ret = 0;
	}
	return ret;
}

/* Sites the kernel rewrites at run time, which a breakpoint would corrupt */
static bool tk_on_patch_site(unsigned long addr)
{
	bool reserved;

	jump_label_lock();
	preempt_disable();
	reserved = jump_label_text_reserved((void *)addr, (void *)addr) ||
		   static_call_text_reserved((void *)addr, (void *)addr);
	preempt_enable();
	jump_label_unlock();
	return reserved;
}

/*
 * Why registering the probe point of @tp failed with @ret, for error_log:
 * the kprobes core answers -EINVAL for every address it refuses, so its
 * checks are asked again, one at a time, in the order it makes them.  The
 * notrace check comes last although it ran first: code kprobes never probe
 * has no ftrace site either, and the stronger reason is the one to read.
 * Errnos with a record of their own, and those told by none, stay as
 * they are.
 */
static int tk_refused(const struct trace_probe *tp, int ret)
{
	const struct trace_kprobe *tk = tk_of(tp);
	unsigned long addr = tk_address(tk);

	if (ret != -EINVAL || (!addr && tk->tp.def->symbol))
		return TPP_E_NONE;
	if (!core_kernel_text(addr) && !is_module_text_address(addr))
		return TPP_E_NOT_TEXT;
	if (arch_within_kprobe_blacklist(addr))
		return TPP_E_KPROBES_AREA;
	if (within_kprobe_blacklist(addr))
		return TPP_E_BLACKLISTED;
	if (tk_on_patch_site(addr))
		return TPP_E_PATCH_SITE;
	if (find_bug(addr))
		return TPP_E_INSN_REJECTED;
	switch (probe_arch_insn_check(addr)) {
	case PROBE_INSN_MISALIGNED:
		return TPP_E_INSN_BOUNDARY;
	case PROBE_INSN_REJECTED:
		return TPP_E_INSN_REJECTED;
	default:
		return tk_on_notrace(tk) ? TPP_E_NOTRACE : TPP_E_NONE;
	}
}

static bool tk_usable(struct trace_kprobe *tk)
{
	return tk->registered && !kprobe_gone(&tk->rp.kp);
}

static void tk_disarm(struct probe_event *ev)
{
	struct trace_kprobe *tk;

	list_for_each_entry(tk, &ev->members, tp.member) {
		if (!tk_usable(tk))
			continue;
		if (tk_is_return(tk))
			disable_kretprobe(&tk->rp);
		else
			disable_kprobe(&tk->rp.kp);
	}
}

static int tk_arm(struct probe_event *ev)
{
	struct trace_kprobe *tk;
	int ret;

	list_for_each_entry(tk, &ev->members, tp.member) {
		if (!tk_usable(tk))
			continue;
		ret = tk_is_return(tk) ? enable_kretprobe(&tk->rp) :
					 enable_kprobe(&tk->rp.kp);
		if (ret) {
			tk_disarm(ev);
			return ret;
		}
	}
	return 0;
}

/*
 * The kprobes of the usable probes of the events on @evs (linked by their
 * batch node), for enable_kprobes() and disable_kprobes(); in *@num.
 */
static struct kprobe **tk_kprobes_of(struct list_head *evs, int *num)
{
	struct kprobe **kps;
	struct probe_event *ev;
	struct trace_kprobe *tk;
	int n = 0;

	list_for_each_entry(ev, evs, batch)
		list_for_each_entry(tk, &ev->members, tp.member)
			n += tk_usable(tk);
	kps = kmalloc_array(max(n, 1), sizeof(*kps), GFP_KERNEL);
	if (!kps)
		return NULL;
	n = 0;
	list_for_each_entry(ev, evs, batch)
		list_for_each_entry(tk, &ev->members, tp.member)
			if (tk_usable(tk))
				kps[n++] = &tk->rp.kp;
	*num = n;
	return kps;
}

/* A group enable: one ftrace update for all the kprobes on ftrace */
static int tk_arm_many(struct list_head *evs)
{
	struct kprobe **kps;
	int n, ret;

	kps = tk_kprobes_of(evs, &n);
	if (!kps)
		return -ENOMEM;
	ret = n ? enable_kprobes(kps, n) : 0;
	kfree(kps);
	return ret;
}

static void tk_disarm_many(struct list_head *evs)
{
	struct kprobe **kps;
	struct probe_event *ev;
	int n;

	kps = tk_kprobes_of(evs, &n);
	if (!kps) {
		list_for_each_entry(ev, evs, batch)
			tk_disarm(ev);
		return;
	}
	if (n)
		disable_kprobes(kps, n);
	kfree(kps);
}

/* ---- Life cycle of a probe ---- */

static void tk_free(struct trace_kprobe *tk)
{
	if (!tk)
		return;
	probe_event_destroy_probe(&tk->tp);
	free_percpu(tk->nhit);
	kfree(tk);
}

/* Point the k(ret)probe at the place and at our handlers */
static void tk_init_kprobe(struct trace_kprobe *tk)
{
	const struct tpp_def *def = tk->tp.def;
	struct kprobe *kp = &tk->rp.kp;

	if (tk->sym_addr) {
		/* what the core would find from the name, without a lookup */
		kp->addr = (void *)(tk->sym_addr + def->offset);
	} else if (def->symbol) {
		kp->symbol_name = def->symbol;
		kp->offset = def->offset;
	} else {
		kp->addr = (void *)def->addr;
	}
	INIT_HLIST_NODE(&kp->hlist);
	INIT_LIST_HEAD(&kp->list);
	if (!def->is_return) {
		kp->pre_handler = tk_kprobe_handler;
		return;
	}
	tk->rp.handler = tk_return_handler;
	tk->rp.maxactive = def->maxactive;
	if (probe_prog_edata_size(tk->tp.prog)) {
		tk->rp.entry_handler = tk_entry_handler;
		tk->rp.data_size = probe_prog_edata_size(tk->tp.prog);
	}
}

/*
 * A probe for @def, which it takes over, not yet on any event; @sym_addr
 * is the address of its vmlinux symbol, or 0 when not known.
 */
static struct trace_kprobe *tk_alloc(struct tpp_def *def, unsigned long sym_addr)
{
	struct trace_kprobe *tk = kzalloc(sizeof(*tk), GFP_KERNEL);
	int ret;

	if (!tk) {
		tpp_free(def);
		return ERR_PTR(-ENOMEM);
	}
	tk->sym_addr = sym_addr;
	ret = probe_event_init_probe(&tk->tp, def, &tk_event_ops, &tk_dyn_ops);
	tk->nhit = alloc_percpu(unsigned long);
	if (ret || !tk->nhit) {
		tk_free(tk);
		return ERR_PTR(ret ?: -ENOMEM);
	}
	tk_init_kprobe(tk);
	return tk;
}

/*
 * Probes that "-:EVENT" took out and whose kprobes are still registered,
 * linked by devent.list, under event_mutex: tk_unregister_pending() unregisters them.
 */
static LIST_HEAD(tk_unreg_pending);
static void tk_unregister_pending(struct work_struct *work);
static DECLARE_WORK(tk_unreg_work, tk_unregister_pending);

/* Wait until what "-:EVENT" took out is unregistered and freed */
static void tk_unreg_flush(void)
{
	flush_work(&tk_unreg_work);
}

/*
 * Take @tk out of the listing, and its event out of tracefs when it is the
 * last probe; refuses with -EBUSY, changing nothing, while that event is
 * enabled or in use.  The kprobe is only disarmed here: unregistering it
 * waits for a grace period, and one write per event (perf probe -d) would
 * wait one each.  tk_unregister_pending() unregisters all that piled up meanwhile with
 * one grace period, then frees them.
 */
static int tk_remove_deferred(struct trace_kprobe *tk)
{
	struct kprobe *kp = &tk->rp.kp;
	struct probe_event *ev = tk->tp.ev;

	lockdep_assert_held(&event_mutex);
	if (list_is_singular(&ev->members)) {
		if (probe_event_unregister(ev))
			return -EBUSY;
	}
	/* a sibling of an enabled event is still armed */
	if (tk->registered && !kprobe_disabled(kp))
		disable_kprobe(kp);
	dyn_event_remove(&tk->tp.devent);
	list_del_init(&tk->tp.member);
	tk->frees_ev = list_empty(&ev->members);
	list_add_tail(&tk->tp.devent.list, &tk_unreg_pending);
	schedule_work(&tk_unreg_work);
	return 0;
}

/* ---- Creating a probe from its definition ---- */

static int tk_attach(struct trace_probe *tp)
{
	return tk_register_kprobe_or_wait(tk_of(tp));
}

/* Parse and register the kprobe of @cmd; errors in @err */
static int tk_create(const char *cmd, struct tpp_error *err)
{
	struct probe_kenv ke;
	struct tpp_def *def;
	struct trace_kprobe *tk;
	int ret;

	probe_kenv_init(&ke);
	def = tpp_parse_kprobe(cmd, &ke.env, err);
	probe_kenv_destroy(&ke);
	if (IS_ERR(def))
		return PTR_ERR(def);
	tk = tk_alloc(def, ke.sym == def->symbol ? ke.sym_addr : 0);
	if (IS_ERR(tk))
		return PTR_ERR(tk);
	ret = probe_event_add_probe(&tk->tp, &tk_event_ops, err);
	if (ret)
		tk_free(tk);
	return ret;
}

/* Create the probe defined by @raw; -ECANCELED when it is not a kprobe */
static int tk_dyn_create(const char *raw)
{
	return probe_event_dyn_create(raw, "trace_kprobe", tk_create);
}

/* A line written to kprobe_events: a definition or a "-:" removal */
/* kprobe_events takes kprobes only: there is nothing to try next */
static int tk_create_or_delete(const char *raw)
{
	return probe_event_command(raw, &tk_dyn_ops, "trace_kprobe");
}

/* What kprobe_event_gen_cmd_end() runs */
static int tk_run_command(struct dynevent_cmd *cmd)
{
	return tk_create_or_delete(cmd->seq.buffer);
}

/* ---- dyn_event operations: listing, matching, removal ---- */

/* The place as listed: "SYM", "SYM+OFFS" or a (hashed) "0xADDR" */
static char *tk_list_place(const struct trace_probe *tp)
{
	const struct trace_kprobe *tk = tk_of(tp);
	const struct tpp_def *def = tp->def;

	if (!def->symbol)
		return kasprintf(GFP_KERNEL, "0x%p", tk->rp.kp.addr);
	if (def->offset)
		return kasprintf(GFP_KERNEL, "%s+%lu", def->symbol,
				 def->offset);
	return kstrdup(def->symbol, GFP_KERNEL);
}

/* 'p' or 'r', whichever way the return probe was written */
static void tk_list_kind(struct seq_file *m, const struct trace_probe *tp)
{
	const struct trace_kprobe *tk = tk_of(tp);

	seq_putc(m, tk_is_return(tk) ? 'r' : 'p');
	/* the kprobes core fills in its default when it registers */
	if (tk_is_return(tk) && tk->rp.maxactive)
		seq_printf(m, "%d", tk->rp.maxactive);
}

static int tk_dyn_free(struct dyn_event *ev)
{
	return tk_remove_deferred(to_tk(ev));
}

static const struct probe_event_ops tk_event_ops = {
	.arm = tk_arm,
	.disarm = tk_disarm,
	.arm_many = tk_arm_many,
	.disarm_many = tk_disarm_many,
	.type_flag = TRACE_EVENT_FL_KPROBE,
	.head = PROBE_HEAD_IP,
	.attach = tk_attach,
	.refused = tk_refused,
	.list_kind = tk_list_kind,
	.list_place = tk_list_place,
};

static struct dyn_event_operations tk_dyn_ops =
	PROBE_EVENT_DYN_OPS(tk_dyn_create, tk_dyn_free);

/* ---- Deleting every kprobe event at once ---- */

/*
 * What an O_TRUNC of kprobe_events takes out: the probes, and their kprobes
 * and kretprobes to unregister together, one grace period for all where
 * unregister_kprobe() waits one each.
 */
struct tk_unreg_batch {
	struct trace_kprobe **tks;
	struct kprobe **kps;
	struct kretprobe **rps;
	int n, nk, nr;
};

static int tk_count_busy(int *n)
{
	struct dyn_event *pos;

	lockdep_assert_held(&event_mutex);
	*n = 0;
	for_each_dyn_event(pos) {
		if (!is_tk(pos))
			continue;
		if (probe_event_busy(to_tk(pos)->tp.ev))
			return -EBUSY;
		(*n)++;
	}
	return 0;
}

static void tk_unreg_batch_destroy(struct tk_unreg_batch *g)
{
	kfree(g->tks);
	kfree(g->kps);
	kfree(g->rps);
}

/* Note @tk in @g: to free, and its kprobe to unregister if registered */
static void tk_unreg_batch_note(struct trace_kprobe *tk, struct tk_unreg_batch *g)
{
	g->tks[g->n++] = tk;
	if (!tk->registered)
		return;
	if (tk_is_return(tk))
		g->rps[g->nr++] = &tk->rp;
	else
		g->kps[g->nk++] = &tk->rp.kp;
}

/* Unregister the kprobes and kretprobes noted in @g, together */
static void tk_unreg_batch_unregister(struct tk_unreg_batch *g)
{
	int i;

	if (g->nk)
		unregister_kprobes(g->kps, g->nk);
	if (g->nr)
		unregister_kretprobes(g->rps, g->nr);
	for (i = 0; i < g->n; i++)
		g->tks[i]->registered = false;
}

static int tk_unreg_batch_init(struct tk_unreg_batch *g, int n)
{
	*g = (struct tk_unreg_batch){};
	g->tks = kmalloc_array(n, sizeof(*g->tks), GFP_KERNEL);
	g->kps = kmalloc_array(n, sizeof(*g->kps), GFP_KERNEL);
	g->rps = kmalloc_array(n, sizeof(*g->rps), GFP_KERNEL);
	if (g->tks && g->kps && g->rps)
		return 0;
	tk_unreg_batch_destroy(g);
	return -ENOMEM;
}

/*
 * Take @tk off the dyn_event list, and its event out of tracefs with its
 * first probe; the kprobe stays registered, noted in @g.
 */
static int tk_take_out(struct trace_kprobe *tk, struct tk_unreg_batch *g)
{
	int ret;

	if (tk == tk_first(tk->tp.ev)) {
		ret = probe_event_unregister(tk->tp.ev);
		if (ret)
			return ret;
	}
	dyn_event_remove(&tk->tp.devent);
	tk_unreg_batch_note(tk, g);
	return 0;
}

/* Unregister what @g noted and free the probes, their events with them */
static void tk_unreg_batch_free(struct tk_unreg_batch *g)
{
	int i;

	tk_unreg_batch_unregister(g);
	for (i = 0; i < g->n; i++) {
		probe_event_unlink(&g->tks[i]->tp);
		tk_free(g->tks[i]);
	}
}

/* Free a probe tk_remove_deferred() took out, and its event if it was the last */
static void tk_free_removed(struct trace_kprobe *tk)
{
	if (tk->frees_ev)
		probe_event_free(tk->tp.ev);
	tk_free(tk);
}

/*
 * Unregister the kprobes of the probes tk_remove_deferred() took out, one grace
 * period for all of them, then free the probes.  Their events are out of
 * tracefs and their kprobes disarmed: nothing else reaches them.
 */
static void tk_unregister_pending(struct work_struct *work)
{
	struct dyn_event *pos, *next;
	LIST_HEAD(pending);
	struct tk_unreg_batch g;
	int n = 0;

	mutex_lock(&event_mutex);
	list_splice_init(&tk_unreg_pending, &pending);
	mutex_unlock(&event_mutex);
	list_for_each_entry(pos, &pending, list)
		n++;
	if (!n)
		return;
	if (!tk_unreg_batch_init(&g, n)) {
		list_for_each_entry(pos, &pending, list)
			tk_unreg_batch_note(to_tk(pos), &g);
		tk_unreg_batch_unregister(&g);
		tk_unreg_batch_destroy(&g);
	}
	list_for_each_entry_safe(pos, next, &pending, list) {
		/* without memory for @g: one grace period each */
		tk_unregister_kprobe(to_tk(pos));
		tk_free_removed(to_tk(pos));
	}
}

/* Every kprobe event goes, or (busy) none; under event_mutex */
static int tk_release_locked(struct tk_unreg_batch *g)
{
	struct dyn_event *pos, *next;
	int ret = 0;

	lockdep_assert_held(&event_mutex);
	for_each_dyn_event_safe(pos, next) {
		if (!is_tk(pos))
			continue;
		/* only a racing open of an event file fails here */
		ret = tk_take_out(to_tk(pos), g);
		if (ret)
			break;
	}
	tk_unreg_batch_free(g);
	return ret;
}

/* O_TRUNC of kprobe_events */
static int tk_release_all(void)
{
	struct tk_unreg_batch g;
	int n, ret;

	mutex_lock(&event_mutex);
	ret = tk_count_busy(&n);
	if (!ret && n && !tk_unreg_batch_init(&g, n)) {
		ret = tk_release_locked(&g);
		tk_unreg_batch_destroy(&g);
		n = 0;
	}
	/* the events are gone: their records must not outlive them */
	tracing_reset_all_online_cpus();
	mutex_unlock(&event_mutex);
	/* without memory for @g: one grace period per probe */
	if (!ret && n)
		ret = dyn_events_release_all(&tk_dyn_ops);
	/* and nothing is left registered, of earlier "-:" lines either */
	tk_unreg_flush();
	return ret;
}

/* ---- kprobe_events and kprobe_profile ---- */

static int tk_profile_line(struct seq_file *m, struct dyn_event *ev)
{
	struct trace_kprobe *tk = to_tk(ev);

	seq_printf(m, "  %-44s %15lu %15lu\n", probe_event_name(tk->tp.ev), tk_nhit(tk),
		   tk_nmissed(tk));
	return 0;
}

static const struct probe_event_list tk_events_list = {
	.ops = &tk_dyn_ops,
	.line = probe_event_dyn_show,
	.command = tk_create_or_delete,
	.release_all = tk_release_all,
};

static const struct probe_event_list tk_profile_list = {
	.ops = &tk_dyn_ops,
	.line = tk_profile_line,
};

/* A "[MOD:]SYM" to probe must be unique (in MOD); 0 or a negative errno */
static int tk_check_symbol(const char *func)
{
	const char *colon = strchr(func, ':');
	char *mod = NULL;
	int n;

	if (colon) {
		mod = kstrndup(func, colon - func, GFP_KERNEL);
		if (!mod)
			return -ENOMEM;
		func = colon + 1;
	}
	n = probe_kenv_sym_count(mod, func);
	kfree(mod);
	if (n > 1)
		return -EADDRNOTAVAIL;
	return n < 1 ? -ENOENT : 0;
}

/* ---- Modules: MOD:SYM probes follow their module ---- */

#ifdef CONFIG_MODULES
static bool tk_on_module(const struct trace_kprobe *tk, struct module *mod)
{
	if (tk->tp.def->module)
		return !strcmp(tk->tp.def->module, module_name(mod));
	return !tk->tp.def->symbol && within_module(tk->tp.def->addr, mod);
}

/* The symbol must be unique inside the module that came */
static int tk_register_on_module(struct trace_kprobe *tk)
{
	int ret = tk->tp.def->module ? tk_check_symbol(tk->tp.def->symbol) : 0;

	return ret ? ret : tk_register_kprobe(tk);
}

/*
 * A module came: each probe waiting for it goes on it.  A probe left from
 * an earlier load of the module is gone by now, so it is unregistered
 * first.
 */
static void tk_module_came(struct module *mod)
{
	struct trace_kprobe *tk;
	struct dyn_event *ev;
	int err;

	guard(mutex)(&event_mutex);
	for_each_dyn_event(ev) {
		tk = is_tk(ev) ? to_tk(ev) : NULL;
		if (!tk || !tk_on_module(tk, mod))
			continue;
		tk_unregister_kprobe(tk);
		err = tk_register_on_module(tk);
		if (err)
			pr_warn("Failed to re-register probe %s on %s: %d\n",
				probe_event_name(tk->tp.ev), module_name(mod), err);
	}
}

static int tk_module_notify(struct notifier_block *nb, unsigned long state,
			    void *mod)
{
	if (state == MODULE_STATE_COMING)
		tk_module_came(mod);
	return NOTIFY_DONE;
}

static struct notifier_block tk_module_nb = {
	.notifier_call = tk_module_notify,
	.priority = 2,	/* after the kprobes and jump_label callbacks */
};

#define tk_watch_modules()	register_module_notifier(&tk_module_nb)
#else
#define tk_watch_modules()	0
#endif

/* ---- perf's kprobe PMU and BPF ---- */

static struct trace_kprobe *tk_of_call(struct trace_event_call *call)
{
	struct probe_event *ev = probe_event_from_call(call);

	return ev ? tk_first(ev) : NULL;
}

/**
 * trace_kprobe_on_func_entry - does the kprobe event sit on a function entry?
 * @call: a kprobe event
 *
 * BPF allows bpf_override_return() only there.
 *
 * Return: true on a function entry.
 */
bool trace_kprobe_on_func_entry(struct trace_event_call *call)
{
	struct trace_kprobe *tk = tk_of_call(call);
	const struct tpp_def *def;

	if (!tk)
		return false;
	def = tk->tp.def;
	return !kprobe_on_func_entry(tk->rp.kp.addr,
				     tk->rp.kp.addr ? NULL : def->symbol,
				     tk->rp.kp.addr ? 0 : def->offset);
}

/**
 * trace_kprobe_error_injectable - may BPF override the probed function?
 * @call: a kprobe event
 *
 * Return: true when the function is on the error injection list.
 */
bool trace_kprobe_error_injectable(struct trace_event_call *call)
{
	struct trace_kprobe *tk = tk_of_call(call);

	return tk && within_error_injection_list(tk_address(tk));
}

#ifdef CONFIG_PERF_EVENTS
/**
 * bpf_get_kprobe_info - what a perf event's kprobe is, for BPF_TASK_FD_QUERY
 * @event: a perf event on a kprobe event
 * @fd_type: BPF_FD_TYPE_KPROBE or BPF_FD_TYPE_KRETPROBE
 * @symbol: the probed symbol, NULL for an address
 * @probe_offset: offset from @symbol
 * @probe_addr: the address, 0 to those who may not see kernel addresses
 * @missed: if not NULL, the missed hits
 * @perf_type_tracepoint: @event was opened on the event's id (tracefs
 *	event), not through the kprobe PMU; either way @event's event has
 *	the probe
 *
 * Return: 0, or -EINVAL when @event is not a kprobe.
 */
int bpf_get_kprobe_info(const struct perf_event *event, u32 *fd_type,
			const char **symbol, u64 *probe_offset,
			u64 *probe_addr, unsigned long *missed,
			bool perf_type_tracepoint)
{
	struct trace_event_call *call = event->tp_event;
	struct trace_kprobe *tk;

	tk = tk_of_call(call);
	if (!tk)
		return -EINVAL;
	*fd_type = tk_is_return(tk) ? BPF_FD_TYPE_KRETPROBE :
				      BPF_FD_TYPE_KPROBE;
	*probe_offset = tk->rp.kp.offset;
	*probe_addr = kallsyms_show_value(current_cred()) ?
		      (unsigned long)tk->rp.kp.addr : 0;
	*symbol = tk->tp.def->symbol;
	if (missed)
		*missed = tk_nmissed(tk);
	return 0;
}

/* A definition perf asks for: no arguments, group "kprobes" */
static struct tpp_def *tk_local_def(const char *func, void *addr,
				    unsigned long offs, bool is_return)
{
	struct tpp_def *def = kzalloc(sizeof(*def), GFP_KERNEL);

	if (!def)
		return NULL;
	def->kind = is_return ? 'r' : 'p';
	def->is_return = is_return;
	def->group = kstrdup(TK_GROUP, GFP_KERNEL);
	def->event = kstrdup(func ?: "DUMMY_EVENT", GFP_KERNEL);
	def->symbol = func ? kstrdup(func, GFP_KERNEL) : NULL;
	def->offset = offs;
	def->addr = (unsigned long)addr;
	if (!def->group || !def->event || (func && !def->symbol)) {
		tpp_free(def);
		return NULL;
	}
	return def;
}

/**
 * create_local_trace_kprobe - a kprobe event for one perf event only
 * @func: "[MOD:]SYM", or NULL for @addr
 * @addr: the address when @func is NULL
 * @offs: offset from @func
 * @is_return: a kretprobe
 *
 * The event is not listed anywhere and has no arguments.
 *
 * Return: its call, or an ERR_PTR().
 */
struct trace_event_call *
create_local_trace_kprobe(char *func, void *addr, unsigned long offs,
			  bool is_return)
{
	struct tpp_def *def;
	struct probe_event *ev;
	struct trace_kprobe *tk;
	int ret;

	ret = func ? tk_check_symbol(func) : 0;
	if (ret)
		return ERR_PTR(ret);
	def = tk_local_def(func, addr, offs, is_return);
	if (!def)
		return ERR_PTR(-ENOMEM);
	tk = tk_alloc(def, 0);
	if (IS_ERR(tk))
		return ERR_CAST(tk);
	ev = probe_event_new(def, &tk_event_ops);
	if (IS_ERR(ev)) {
		tk_free(tk);
		return ERR_CAST(ev);
	}
	probe_event_link(ev, &tk->tp);
	ret = tk_register_kprobe(tk);
	if (ret) {
		probe_event_unlink(&tk->tp);
		tk_free(tk);
		return ERR_PTR(ret);
	}
	return &ev->call;
}

/**
 * destroy_local_trace_kprobe - release what create_local_trace_kprobe() made
 * @call: its call, no longer enabled
 */
void destroy_local_trace_kprobe(struct trace_event_call *call)
{
	struct trace_kprobe *tk = tk_of_call(call);

	if (!tk || WARN_ON_ONCE(probe_event_enabled(tk->tp.ev)))
		return;
	tk_unregister_kprobe(tk);
	probe_event_unlink(&tk->tp);
	tk_free(tk);
}
#endif /* CONFIG_PERF_EVENTS */

/* ---- The in-kernel API (include/linux/trace_events.h) ---- */

/**
 * kprobe_event_cmd_init - prepare a command that creates a kprobe event
 * @cmd: the command object
 * @buf: where the command text is built
 * @maxlen: size of @buf
 *
 * Context: any; call it before the other kprobe_event_*() functions, which
 * may sleep.
 */
void kprobe_event_cmd_init(struct dynevent_cmd *cmd, char *buf, int maxlen)
{
	dynevent_cmd_init(cmd, buf, maxlen, DYNEVENT_TYPE_KPROBE,
			  tk_run_command);
}
EXPORT_SYMBOL_GPL(kprobe_event_cmd_init);

static int tk_cmd_add_word(struct dynevent_cmd *cmd, const char *word)
{
	struct dynevent_arg arg;

	dynevent_arg_init(&arg, 0);
	arg.str = word;
	return dynevent_arg_add(cmd, &arg, NULL);
}

/* Append the NULL-terminated fetch arguments @args, at most 128 in all */
static int tk_cmd_add_fields(struct dynevent_cmd *cmd, va_list args)
{
	const char *field;
	int ret = 0;

	while (!ret && (field = va_arg(args, const char *)))
		ret = ++cmd->n_fields > TPP_MAX_ARGS ? -EINVAL :
		      tk_cmd_add_word(cmd, field);
	return ret;
}

/**
 * __kprobe_event_gen_cmd_start - start a kprobe event command
 * @cmd: from kprobe_event_cmd_init()
 * @kretprobe: a return probe
 * @name: the event, in group "kprobes"
 * @loc: where to probe, as kprobe_events takes it
 * @...: fetch arguments, then NULL
 *
 * Use it through kprobe_event_gen_cmd_start() or
 * kretprobe_event_gen_cmd_start(); kprobe_event_gen_cmd_end() runs it.
 *
 * Return: 0 or a negative errno.
 */
int __kprobe_event_gen_cmd_start(struct dynevent_cmd *cmd, bool kretprobe,
				 const char *name, const char *loc, ...)
{
	char head[TPP_MAX_EVENT_NAME_LEN];
	va_list args;
	int ret;

	if (cmd->type != DYNEVENT_TYPE_KPROBE || !loc)
		return -EINVAL;
	snprintf(head, sizeof(head), "%c:%s/%s", kretprobe ? 'r' : 'p',
		 TK_GROUP, name);
	ret = dynevent_str_add(cmd, head);
	if (!ret)
		ret = tk_cmd_add_word(cmd, loc);
	if (ret)
		return ret;
	va_start(args, loc);
	ret = tk_cmd_add_fields(cmd, args);
	va_end(args);
	return ret;
}
EXPORT_SYMBOL_GPL(__kprobe_event_gen_cmd_start);

/**
 * __kprobe_event_add_fields - add fetch arguments to a kprobe event command
 * @cmd: a started command
 * @...: fetch arguments, then NULL
 *
 * Use it through kprobe_event_add_fields() or kprobe_event_add_field().
 *
 * Return: 0 or a negative errno.
 */
int __kprobe_event_add_fields(struct dynevent_cmd *cmd, ...)
{
	va_list args;
	int ret;

	if (cmd->type != DYNEVENT_TYPE_KPROBE)
		return -EINVAL;
	va_start(args, cmd);
	ret = tk_cmd_add_fields(cmd, args);
	va_end(args);
	return ret;
}
EXPORT_SYMBOL_GPL(__kprobe_event_add_fields);

/**
 * kprobe_event_delete - delete a kprobe event
 * @name: "[GRP/]EVENT"
 *
 * Return: 0, or a negative errno (-EBUSY while it is enabled).
 */
int kprobe_event_delete(const char *name)
{
	char cmd[TPP_MAX_EVENT_NAME_LEN];
	int ret;

	snprintf(cmd, sizeof(cmd), "-:%s", name);
	ret = tk_create_or_delete(cmd);
	/* callers may rely on the kprobe being unregistered */
	tk_unreg_flush();
	return ret;
}
EXPORT_SYMBOL_GPL(kprobe_event_delete);

/* ---- kprobe_event= on the kernel command line ---- */

static char tk_boot_cmds[COMMAND_LINE_SIZE] __initdata;

static int __init tk_set_boot_cmds(char *str)
{
	strscpy(tk_boot_cmds, str, sizeof(tk_boot_cmds));
	disable_tracing_selftest("running kprobe events");
	return 1;
}
__setup("kprobe_event=", tk_set_boot_cmds);

static struct trace_event_file *tk_top_file(struct probe_event *ev)
{
	struct trace_event_file *file;

	list_for_each_entry(file, &top_trace_array()->events, list)
		if (file->event_call == &ev->call)
			return file;
	return NULL;
}

/* Probes given at boot are enabled at once, in the top instance */
static __init void tk_enable_boot_events(void)
{
	struct trace_event_file *file;
	struct dyn_event *pos;

	mutex_lock(&event_mutex);
	for_each_dyn_event(pos) {
		if (!is_tk(pos))
			continue;
		file = tk_top_file(to_tk(pos)->tp.ev);
		if (file)
			trace_event_enable_disable(file, 1, 0);
	}
	mutex_unlock(&event_mutex);
}

/* "DEF;DEF;..." with ',' for ' ' inside each definition */
static __init void tk_run_boot_cmds(void)
{
	char *next = tk_boot_cmds, *cmd;
	int ret;

	strreplace(tk_boot_cmds, ',', ' ');
	while ((cmd = strsep(&next, ";")) && *cmd) {
		ret = tk_create_or_delete(cmd);
		if (ret)
			pr_warn("Failed to add event(%d): %s\n", ret, cmd);
	}
	tk_enable_boot_events();
}

/* ---- Start-up ---- */

static __init int tk_init_early(void)
{
	int ret = dyn_event_register(&tk_dyn_ops);

	if (ret)
		return ret;
	return tk_watch_modules() ? -EINVAL : 0;
}
core_initcall(tk_init_early);

static __init int tk_init_tracefs(void)
{
	if (tracing_init_dentry())
		return 0;
	trace_create_file("kprobe_events", TRACE_MODE_WRITE, NULL,
			  (void *)&tk_events_list, &probe_event_list_fops);
	trace_create_file("kprobe_profile", TRACE_MODE_READ, NULL,
			  (void *)&tk_profile_list, &probe_event_list_fops);
	tk_run_boot_cmds();
	return 0;
}
fs_initcall(tk_init_tracefs);

/* ---- Boot-time self test (CONFIG_FTRACE_STARTUP_TEST) ---- */

#ifdef CONFIG_FTRACE_STARTUP_TEST
static const char * const tk_test_defs[] __initconst = {
	"p:testprobe kprobe_trace_selftest_target $stack $stack0 +0($stack)",
	"r:testprobe2 kprobe_trace_selftest_target $retval",
};

static const char * const tk_test_names[] __initconst = {
	"testprobe", "testprobe2",
};

/* Test probe @i; caller holds event_mutex */
static __init struct trace_kprobe *tk_test_probe(unsigned int i)
{
	struct probe_event *ev = probe_event_find(TK_GROUP, tk_test_names[i]);

	return IS_ERR_OR_NULL(ev) || ev->ops != &tk_event_ops ? NULL : tk_first(ev);
}

/* Enable (or disable) test event @i in the top instance */
static __init int tk_test_enable(unsigned int i, int on)
{
	struct trace_event_file *file = NULL;
	struct trace_kprobe *tk;

	mutex_lock(&event_mutex);
	tk = tk_test_probe(i);
	if (tk)
		file = tk_top_file(tk->tp.ev);
	if (file)
		trace_event_enable_disable(file, on, 0);
	mutex_unlock(&event_mutex);
	return file ? 0 : -ENOENT;
}

static __init unsigned long tk_test_hits(unsigned int i)
{
	unsigned long hits = 0;
	struct trace_kprobe *tk;

	mutex_lock(&event_mutex);
	tk = tk_test_probe(i);
	if (tk)
		hits = tk_nhit(tk);
	mutex_unlock(&event_mutex);
	return hits;
}

/* Create, enable, hit once, check, remove: 0 when all went well */
static __init int tk_selftest_run(void)
{
	int (*target)(int a1, int a2, int a3, int a4, int a5, int a6);
	unsigned int i;
	int bad = 0;

	for (i = 0; i < ARRAY_SIZE(tk_test_defs); i++) {
		if (tk_create_or_delete(tk_test_defs[i]) ||
		    tk_test_enable(i, 1)) {
			pr_warn("self test: cannot create %s\n",
				tk_test_names[i]);
			bad++;
		}
	}
	/* through a pointer, so the call is not optimized away */
	target = kprobe_trace_selftest_target;
	if (!bad && target(1, 2, 3, 4, 5, 6) != 21)
		bad++;
	for (i = 0; i < ARRAY_SIZE(tk_test_defs); i++) {
		if (!bad && tk_test_hits(i) != 1) {
			pr_warn("self test: %s missed its hit\n",
				tk_test_names[i]);
			bad++;
		}
		tk_test_enable(i, 0);
		if (kprobe_event_delete(tk_test_names[i]) && !bad)
			bad++;
	}
	return bad;
}

static __init int tk_selftest(void)
{
	int bad;

	if (tracing_is_disabled())
		return -ENODEV;
	if (tracing_selftest_disabled)
		return 0;
	bad = tk_selftest_run();
	/* the events are gone: their records must not outlive them */
	tracing_reset_online_cpus(&top_trace_array()->array_buffer);
	/* the optimizer must be done before __init text is freed */
	wait_for_kprobe_optimizer();
	pr_info("Testing kprobe tracing: %s\n",
		bad ? "NG: Some tests are failed. Please check them." : "OK");
	return 0;
}
late_initcall(tk_selftest);
#endif
