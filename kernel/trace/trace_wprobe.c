// SPDX-License-Identifier: GPL-2.0
/*
 * Watchpoint probes: "w" definitions written to dynamic_events become
 * ftrace events written whenever the CPU accesses the watched data.
 *
 *	w[:[GRP/][EVENT]] [r|w|rw]@ADDR|[MOD:]SYM[+|-OFFS]|-1[:LEN] [FETCHARGS]
 *
 * The parser (tpp_parse_wprobe()) knows the grammar; the address is
 * checked here, against the running kernel and the architecture's
 * watchpoints (probe_arch_watch()).  A wprobe is one hardware data
 * breakpoint per online CPU, made through the hw_breakpoint layer as a
 * pinned per-CPU perf event.  They hold the CPUs' debug registers, which
 * gdb, ptrace and perf also want, only while the event is enabled:
 * enabling makes them and disabling releases them.  A definition makes
 * them once and releases them at once, so that an address or a length the
 * hw_breakpoint layer will not take, or a want of free slots, is refused
 * there with its reason.  CPUs that come online get theirs from a hotplug
 * callback.
 *
 * Wprobes at a fixed address that watch the same bytes for the same
 * accesses share one set of breakpoints: the first one enabled makes
 * them, and each hit records into every enabled one.  Each is then told
 * of every access, whether or not the hardware reports every watchpoint
 * that matched one, and a slot watches those bytes once.  Wprobes that
 * only overlap have breakpoints of their own.
 *
 * The hit runs the probe's compiled fetch program on the registers as the
 * access left them, with the watched address as entry data word 0
 * ($addr), and writes one record headed by the instruction pointer the
 * hit reports: the next instruction on x86, the accessing one on arm64,
 * whose breakpoints are asked to report after they step the access
 * (probe_arch_watch_bp()).
 *
 * A wprobe defined at -1 watches nothing until a set_wprobe trigger of
 * another event gives it an address from a field of that event's record,
 * and a clear_wprobe trigger takes it away.  A trigger enables the
 * wprobe's event in its instance in soft mode, as enable_event does: the
 * breakpoints are made, and the event writes records from the set_wprobe
 * that places it to the clear_wprobe that takes it away.  An event that a
 * user enabled is busy: set_wprobe refuses it.  A trigger may run in any
 * context, NMI included: it only claims the wprobe (one address at a time,
 * set wins over set only when cleared) and queues the move, which a work
 * item makes in process context.
 *
 * Locking: definitions change under event_mutex; what the breakpoints
 * watch under the wprobe's @lock and the CPU hotplug read lock, the
 * hotplug callbacks holding its write side.  The handler runs in the
 * debug exception, with preemption off.
 */
#define pr_fmt(fmt)	"trace_wprobe: " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/ctype.h>
#include <linux/hw_breakpoint.h>
#include <linux/irq_work.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/probe_regs.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>
#include <linux/workqueue.h>

#include "trace.h"
#include "trace_dynevent.h"
#include "probe_event.h"
#include "probe_kenv.h"

#define TW_LOG		"wprobe"
#define TW_TRIGGER_LOG	"wprobe_trigger"

/**
 * struct trace_wprobe - one watchpoint probe
 * @tp: what every probe type's probe has (a wprobe event has one probe)
 * @addr: the watched address, 0 while a wprobe at -1 watches nothing; the
 *	handler hands the fetch program its address as the entry data,
 *	whose word 0 $addr reads
 * @target: (wprobe at -1) the address triggers want watched, 0 for none;
 *	a set_wprobe trigger claims it from 0, a clear_wprobe gives it back
 * @bps: each CPU's breakpoint, NULL where there is none
 * @node: on the hotplug state's instance list while @attached
 * @lock: serialises the moves of the breakpoints to @target
 * @move_irq: queued by a trigger, in any context, to queue @move
 * @move: moves the breakpoints to @target (tw_sync())
 * @attached: the breakpoints exist
 * @armed: the event is enabled: the breakpoints exist, and are enabled
 *	when @addr is set
 * @adding: the first breakpoints are being made: a CPU's failure fails
 *	the enable or the definition, where a CPU coming online later goes
 *	without
 * @gone: the module holding @addr went away: the wprobe watches nothing
 *	any more and its event can not be enabled
 * @host: (enabled, at a fixed address) the wprobe whose breakpoints record
 *	into this one, which has none; NULL otherwise
 * @guests: the wprobes whose @host this one is (RCU); while there are
 *	any, this one keeps its breakpoints, enabled or not
 * @guest: on the @guests of @host
 * @left_gp: RCU state when it last left a host, whose hits may walk past
 *	it until that grace period ends
 *
 * @addr, @attached and @armed change under @lock, with the CPU hotplug
 * read lock taken inside it; @gone, @host and @guests under event_mutex.
 */
struct trace_wprobe {
	struct trace_probe tp;
	unsigned long addr;
	unsigned long target;
	struct perf_event * __percpu *bps;
	struct hlist_node node;
	struct mutex lock;	/* serialises tw_sync() */
	struct irq_work move_irq;
	struct work_struct move;
	bool attached;
	bool armed;
	bool adding;
	bool gone;
	struct trace_wprobe *host;
	struct list_head guests;
	struct list_head guest;
	unsigned long left_gp;
};

/*
 * Where the disabled breakpoints of a wprobe that watches nothing point:
 * kernel data of every watch length, which they never trap on.
 */
static u64 tw_nowhere __aligned(8);

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

/* A record of @tw for each user of its event */
static __always_inline void tw_record(struct trace_wprobe *tw,
				      struct pt_regs *regs,
				      unsigned long addr, unsigned long ip)
{
	unsigned int flags = READ_ONCE(tw->tp.ev->flags);

	if (flags & PROBE_EVENT_F_TRACE)
		probe_ip_trace(&tw->tp, regs, &addr, ip, false, 0);
	if (flags & PROBE_EVENT_F_PERF)
		probe_ip_perf(&tw->tp, regs, &addr, ip, false, 0);
}

static void tw_handler(struct perf_event *bp, struct perf_sample_data *data,
		       struct pt_regs *regs)
{
	struct trace_wprobe *tw = bp->overflow_handler_context, *guest;
	unsigned long ip = instruction_pointer(regs);
	unsigned long addr = bp->attr.bp_addr;

	/*
	 * $addr is what the breakpoint that trapped watches.  A wprobe being
	 * moved has its new address (0 for none) before each CPU's
	 * breakpoint is moved, which disables it first: a hit of one not
	 * moved yet is at an address the wprobe no longer watches.
	 */
	if (addr != READ_ONCE(tw->addr))
		return;
	tw_record(tw, regs, addr, ip);
	/* the debug exception runs with preemption off: an RCU reader */
	list_for_each_entry_rcu(guest, &tw->guests, guest)
		tw_record(guest, regs, addr, ip);
}

NOKPROBE_SYMBOL(tw_handler);

/* ---- The breakpoints, one per online CPU ---- */

/* The hw_breakpoint type of a watch's access */
static int tw_bp_type(const struct tpp_watch *watch)
{
	return (watch->access & TPP_WATCH_R ? HW_BREAKPOINT_R : 0) |
	       (watch->access & TPP_WATCH_W ? HW_BREAKPOINT_W : 0);
}

/* Where the breakpoints point, and whether they are enabled */
static unsigned long tw_bp_addr(const struct trace_wprobe *tw)
{
	return tw->addr ?: (unsigned long)&tw_nowhere;
}

static bool tw_bp_on(const struct trace_wprobe *tw)
{
	return tw->armed && tw->addr;
}

/*
 * @bp, disabled, has just been made or moved: let the architecture set it
 * up (a move resets that) before it can hit, then enable it if it is on.
 */
static void tw_bp_ready(struct trace_wprobe *tw, struct perf_event *bp)
{
	probe_arch_watch_bp(bp);
	if (tw_bp_on(tw))
		perf_event_enable(bp);
}

static struct perf_event *tw_bp_new(struct trace_wprobe *tw, unsigned int cpu)
{
	const struct tpp_watch *watch = &tw->tp.def->watch;
	struct perf_event_attr attr;
	struct perf_event *bp;

	hw_breakpoint_init(&attr);
	attr.bp_addr = tw_bp_addr(tw);
	attr.bp_len = watch->len;	/* HW_BREAKPOINT_LEN_N is N */
	attr.bp_type = tw_bp_type(watch);
	attr.disabled = 1;
	bp = perf_event_create_kernel_counter(&attr, cpu, NULL, tw_handler, tw);
	if (!IS_ERR(bp))
		tw_bp_ready(tw, bp);
	return bp;
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

/*
 * @addr is in a module on its way out: the module notifier has taken, or
 * is about to take, every watch of the module's memory away, and nothing
 * would take away one placed after it.  Any context.
 */
static bool tw_module_leaving(unsigned long addr)
{
	struct module *mod;
	bool going;

	preempt_disable_notrace();
	mod = __module_address(addr);
	going = mod && mod->state == MODULE_STATE_GOING;
	preempt_enable_notrace();
	return going;
}

/*
 * @addr, checked when it was given, is still there to watch: mapped, and
 * its module, if any, not on its way out.  Asked under event_mutex, which
 * the module notifier takes, a yes holds until the notifier runs.
 */
static bool tw_addr_live(unsigned long addr, unsigned int len)
{
	u64 buf;

	return !tw_module_leaving(addr) &&
	       !copy_from_kernel_nofault(&buf, (void *)addr, len);
}

/*
 * The breakpoints: every online CPU's, or none; enabled where they watch
 * something if @armed.  Under @lock, so that a move (tw_sync()) sees them
 * all or none.
 */
static int tw_bps_make(struct trace_wprobe *tw, bool armed)
{
	int ret;

	lockdep_assert_held(&event_mutex);
	mutex_lock(&tw->lock);
	tw->armed = armed;
	tw->adding = true;
	ret = cpuhp_state_add_instance(tw_cpuhp_state, &tw->node);
	tw->adding = false;
	tw->attached = !ret;
	if (ret)
		tw->armed = false;
	mutex_unlock(&tw->lock);
	return ret;
}

static void tw_bps_release(struct trace_wprobe *tw)
{
	lockdep_assert_held(&event_mutex);
	mutex_lock(&tw->lock);
	if (tw->attached)
		cpuhp_state_remove_instance(tw_cpuhp_state, &tw->node);
	tw->attached = false;
	tw->armed = false;
	mutex_unlock(&tw->lock);
}

/* ---- Wprobes on the same bytes: one set of breakpoints ---- */

/*
 * The wprobe whose breakpoints would record into @tw: at the same fixed
 * address, of the same length and accesses, with breakpoints of its own.
 * NULL when there is none, or when @tw is at -1 and moves.
 */
static struct trace_wprobe *tw_host_of(const struct trace_wprobe *tw)
{
	const struct tpp_watch *watch = &tw->tp.def->watch, *w;
	struct trace_wprobe *other;
	struct dyn_event *pos;

	lockdep_assert_held(&event_mutex);
	if (watch->unset)
		return NULL;
	for_each_dyn_event(pos) {
		if (!is_tw(pos))
			continue;
		other = tw_of(to_trace_probe(pos));
		w = &other->tp.def->watch;
		if (other != tw && other->attached && !w->unset &&
		    other->addr == tw->addr && w->len == watch->len &&
		    w->access == watch->access)
			return other;
	}
	return NULL;
}

static void tw_join(struct trace_wprobe *tw, struct trace_wprobe *host)
{
	tw->host = host;
	list_add_tail_rcu(&tw->guest, &host->guests);
}

/*
 * @tw stops recording from its host's hits, which may still be walking
 * past it: tw_detach() waits for them.  A host whose own event is
 * disabled releases its breakpoints with its last guest.
 */
static void tw_leave(struct trace_wprobe *tw)
{
	struct trace_wprobe *host = tw->host;

	list_del_rcu(&tw->guest);
	tw->host = NULL;
	tw->left_gp = get_state_synchronize_rcu();
	if (list_empty(&host->guests) && !host->tp.ev->armed)
		tw_bps_release(host);
}

/* @tw's breakpoints are gone and stay gone: its guests record nothing */
static void tw_drop_guests(struct trace_wprobe *tw)
{
	struct trace_wprobe *guest, *next;

	list_for_each_entry_safe(guest, next, &tw->guests, guest) {
		list_del_rcu(&guest->guest);
		guest->host = NULL;
	}
}

/*
 * @tw goes while wprobes record from its breakpoints: the first of them
 * makes its own, for them all.  Accesses between the release and the
 * make go unrecorded, where two sets at once would record them twice.
 * Should another user take the slots in between, they record nothing,
 * and the kernel log says so.
 */
static void tw_hand_over(struct trace_wprobe *tw)
{
	struct trace_wprobe *heir, *guest;
	LIST_HEAD(guests);

	tw_bps_release(tw);
	synchronize_rcu();	/* no hit is walking @tw's guests now */
	list_splice_init(&tw->guests, &guests);
	heir = list_first_entry(&guests, struct trace_wprobe, guest);
	list_del(&heir->guest);
	heir->host = NULL;
	list_for_each_entry(guest, &guests, guest)
		guest->host = heir;
	list_splice(&guests, &heir->guests);
	if (!tw_bps_make(heir, true))
		return;
	pr_warn_ratelimited("%s: no free watchpoint slot; it and the wprobes on its bytes record nothing\n",
			    probe_event_name(heir->tp.ev));
	tw_drop_guests(heir);
}

/*
 * A definition: what its breakpoints watch must be theirs to watch now,
 * on every online CPU.  They are made disabled and released at once;
 * when another wprobe's breakpoints watch the same, they are what it
 * would record from.
 */
static int tw_attach(struct trace_probe *tp)
{
	struct trace_wprobe *tw = tw_of(tp);
	int ret;

	if (tw_host_of(tw))
		return 0;
	ret = tw_bps_make(tw, false);
	tw_bps_release(tw);
	return ret;
}

/* Deleted, so disabled: it is no guest, but may be a host */
static void tw_detach(struct trace_probe *tp)
{
	struct trace_wprobe *tw = tw_of(tp);

	/* no trigger holds the event now: no move comes after these */
	irq_work_sync(&tw->move_irq);
	cancel_work_sync(&tw->move);
	cond_synchronize_rcu(tw->left_gp);
	if (list_empty(&tw->guests))
		tw_bps_release(tw);
	else
		tw_hand_over(tw);
}

/*
 * perf and ptrace count per CPU: count the enabled wprobes to say who
 * holds them
 */
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

/*
 * One CPU's breakpoint to tw_bp_addr(), enabled as tw_bp_on() says.
 * False when the hw_breakpoint layer refuses the move (an address the
 * architecture will not watch after all, such as its own per-CPU
 * tables); the breakpoint is then disabled.
 */
static bool tw_bp_sync(struct trace_wprobe *tw, struct perf_event *bp)
{
	struct perf_event_attr attr = bp->attr;

	if (attr.bp_addr == tw_bp_addr(tw)) {
		if (tw_bp_on(tw))
			perf_event_enable(bp);
		else
			perf_event_disable(bp);
		return true;
	}
	attr.bp_addr = tw_bp_addr(tw);
	attr.disabled = 1;
	if (modify_user_hw_breakpoint(bp, &attr))
		return false;
	tw_bp_ready(tw, bp);
	return true;
}

/* Every online CPU's breakpoint to tw_bp_addr(); false if one refused */
static bool tw_bps_sync(struct trace_wprobe *tw)
{
	struct perf_event *bp;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		bp = *per_cpu_ptr(tw->bps, cpu);
		if (bp && !tw_bp_sync(tw, bp))
			return false;
	}
	return true;
}

/*
 * Every CPU's breakpoint to @tw's @target.  A target that is no longer
 * there to watch (its module is going), or that the hw_breakpoint layer
 * refuses, is given up at once: the wprobe watches nothing, and the next
 * set_wprobe may claim it.
 */
static void tw_sync(struct trace_wprobe *tw)
{
	unsigned long target;
	bool live;

	mutex_lock(&tw->lock);
	cpus_read_lock();
	target = READ_ONCE(tw->target);
	/* what the breakpoints watch is not read: that would be a hit */
	live = !target || target == tw->addr ||
	       tw_addr_live(target, tw->tp.def->watch.len);
	WRITE_ONCE(tw->addr, live ? target : 0);
	if (!tw_bps_sync(tw) || !live) {
		pr_warn_ratelimited("%s: can not watch 0x%lx; it watches nothing\n",
				    probe_event_name(tw->tp.ev), target);
		cmpxchg(&tw->target, target, 0);
		/* a CPU refused the address: point every one at nothing */
		if (tw->addr) {
			WRITE_ONCE(tw->addr, 0);
			tw_bps_sync(tw);
		}
	}
	cpus_read_unlock();
	mutex_unlock(&tw->lock);
}

static void tw_move_irq(struct irq_work *iw)
{
	schedule_work(&container_of(iw, struct trace_wprobe, move_irq)->move);
}

static void tw_move(struct work_struct *work)
{
	tw_sync(container_of(work, struct trace_wprobe, move));
}

/*
 * Enabling makes the breakpoints, which fails when another user took the
 * slots since the definition, or records from another wprobe's on the
 * same bytes.  A wprobe at -1 starts out watching nothing: no trigger
 * held its event until now.  A wprobe whose module went away has nothing
 * to watch.
 */
static int tw_arm(struct probe_event *ev)
{
	struct trace_wprobe *tw = tw_first(ev), *host;

	if (!tw || tw->gone)
		return -ENODEV;
	if (tw->tp.def->watch.unset) {
		WRITE_ONCE(tw->target, 0);
		WRITE_ONCE(tw->addr, 0);
		return tw_bps_make(tw, true);
	}
	if (tw->attached)	/* kept for its guests */
		return 0;
	host = tw_host_of(tw);
	if (host) {
		tw_join(tw, host);
		return 0;
	}
	return tw_bps_make(tw, true);
}

static void tw_disarm(struct probe_event *ev)
{
	struct trace_wprobe *tw = tw_first(ev);

	if (!tw)
		return;
	if (tw->host)
		tw_leave(tw);
	else if (list_empty(&tw->guests))
		tw_bps_release(tw);
}

/* ---- Life cycle ---- */

static void tw_free(struct trace_wprobe *tw)
{
	if (!tw)
		return;
	free_percpu(tw->bps);
	mutex_destroy(&tw->lock);
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
	mutex_init(&tw->lock);
	INIT_LIST_HEAD(&tw->guests);
	INIT_LIST_HEAD(&tw->guest);
	tw->left_gp = get_completed_synchronize_rcu();
	init_irq_work(&tw->move_irq, tw_move_irq);
	INIT_WORK(&tw->move, tw_move);
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

/* An access and a length the architecture watches */
static int tw_check_arch(const struct tpp_def *def, struct tpp_error *err)
{
	struct probe_watch_arch arch;

	probe_arch_watch(&arch);
	if (!(arch.accesses & BIT(tw_bp_type(&def->watch))))
		return tpp_error_set(err, TPP_E_WATCH_ACCESS_ARCH,
				     def->watch.pos, -EINVAL);
	if (!(arch.lens & BIT(def->watch.len)))
		return tpp_error_set(err, TPP_E_WATCH_LEN_ARCH,
				     def->watch.len_pos, -EINVAL);
	return 0;
}

/*
 * Kernel data, mapped, aligned to the length.  Text is refused: a
 * breakpoint there is a kprobe's business, and a data watchpoint on code
 * traps on nothing but reads of it.
 */
static int tw_check_addr(const struct tpp_def *def, unsigned long addr,
			 struct tpp_error *err)
{
	unsigned int pos = def->place_pos, len = def->watch.len;
	u64 buf;

	if (addr < TASK_SIZE_MAX)
		return tpp_error_set(err, TPP_E_WATCH_USER, pos, -EINVAL);
	if (kernel_text_address(addr))
		return tpp_error_set(err, TPP_E_WATCH_TEXT, pos, -EINVAL);
	if (copy_from_kernel_nofault(&buf, (void *)addr, len))
		return tpp_error_set(err, TPP_E_WATCH_UNMAPPED, pos, -EFAULT);
	if (addr & (len - 1))
		return tpp_error_set(err, TPP_E_WATCH_ALIGN, pos, -EINVAL);
	return 0;
}

/* ---- Creating a probe from its definition ---- */

/*
 * A fixed address, checked when parsed, still there under event_mutex.
 * Other wprobes may watch the same bytes (tw_host_of()).
 */
static int tw_check(struct trace_probe *tp, struct probe_event *ev,
		    struct tpp_error *err)
{
	const struct trace_wprobe *tw = tw_of(tp);

	lockdep_assert_held(&event_mutex);
	if (!tp->def->watch.unset &&
	    !tw_addr_live(tw->addr, tp->def->watch.len))
		return tpp_error_set(err, TPP_E_WATCH_UNMAPPED,
				     tp->def->place_pos, -EFAULT);
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
	*addr = 0;
	ret = tw_check_arch(def, err);
	if (!ret && !def->watch.unset)
		ret = tw_resolve(def, addr, err);
	if (!ret && !def->watch.unset)
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

	/* "w", "w:NAME" or "wN" (refused), or it is someone else's */
	if (cmd[0] != 'w' ||
	    (cmd[1] && cmd[1] != ' ' && cmd[1] != ':' && !isdigit(cmd[1])))
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

	if (def->watch.unset)
		return kasprintf(GFP_KERNEL, "%s@-1:%u", a, def->watch.len);
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

/* ---- Triggers: set_wprobe and clear_wprobe place a wprobe at -1 ---- */

#define TW_SET_CMD	"set_wprobe"
#define TW_CLEAR_CMD	"clear_wprobe"

/**
 * struct tw_trigger - one set_wprobe or clear_wprobe trigger
 * @tw: the wprobe it places; its event's reference is held
 * @wfile: the wprobe's event in the trigger's instance
 * @soft: the trigger holds @wfile in soft mode (tw_trigger_soft_on())
 * @field: the triggering event's field holding the address, NULL for a
 *	clear_wprobe that clears whatever the wprobe watches
 * @offset: added to the field's value
 * @missed: set_wprobe hits while the wprobe watched another address
 * @invalid: hits whose address the wprobe can not watch
 */
struct tw_trigger {
	struct trace_wprobe *tw;
	struct trace_event_file *wfile;
	bool soft;
	struct ftrace_event_field *field;
	long offset;
	atomic_long_t missed;
	atomic_long_t invalid;
};

static struct event_command tw_set_cmd, tw_clear_cmd;

static unsigned long tw_trigger_addr(const struct tw_trigger *t, void *rec)
{
	return get_unaligned((unsigned long *)(rec + t->field->offset)) +
	       t->offset;
}

/* A definition's checks, but none that sleeps: a trigger runs anywhere */
static bool tw_watchable(const struct trace_wprobe *tw, unsigned long addr)
{
	unsigned int len = tw->tp.def->watch.len;
	u64 buf;

	return addr >= TASK_SIZE_MAX && !(addr & (len - 1)) &&
	       !kernel_text_address(addr) && !tw_module_leaving(addr) &&
	       !copy_from_kernel_nofault(&buf, (void *)addr, len);
}

/* A count counts the triggers that moved the wprobe */
static bool tw_trigger_count(struct event_trigger_data *data,
			     struct trace_buffer *buffer, void *rec,
			     struct ring_buffer_event *rbe)
{
	return data->count;
}

static void tw_trigger_moved(struct event_trigger_data *data)
{
	struct tw_trigger *t = data->private_data;

	if (data->count != -1 && data->count)
		data->count--;
	irq_work_queue(&t->tw->move_irq);
}

static void tw_set_trigger(struct event_trigger_data *data,
			   struct trace_buffer *buffer, void *rec,
			   struct ring_buffer_event *rbe)
{
	struct tw_trigger *t = data->private_data;
	unsigned long addr, old;

	if (!rec)
		return;
	addr = tw_trigger_addr(t, rec);
	/* already its place: the checks would read, and hit, watched bytes */
	if (READ_ONCE(t->tw->target) == addr)
		return;
	if (!tw_watchable(t->tw, addr)) {
		atomic_long_inc(&t->invalid);
		return;
	}
	old = cmpxchg(&t->tw->target, 0, addr);
	if (old == addr)
		return;
	if (old) {
		atomic_long_inc(&t->missed);
		return;
	}
	clear_bit(EVENT_FILE_FL_SOFT_DISABLED_BIT, &t->wfile->flags);
	tw_trigger_moved(data);
}

static void tw_clear_trigger(struct event_trigger_data *data,
			     struct trace_buffer *buffer, void *rec,
			     struct ring_buffer_event *rbe)
{
	struct tw_trigger *t = data->private_data;
	unsigned long cur = READ_ONCE(t->tw->target);

	if (!cur)
		return;
	if (t->field && (!rec || tw_trigger_addr(t, rec) != cur))
		return;
	if (cmpxchg(&t->tw->target, cur, 0) != cur)
		return;
	set_bit(EVENT_FILE_FL_SOFT_DISABLED_BIT, &t->wfile->flags);
	tw_trigger_moved(data);
}

/* "set_wprobe:EV:FIELD+8:unlimited if FILTER # missed=M invalid=I" */
static int tw_trigger_print(struct seq_file *m,
			    struct event_trigger_data *data)
{
	struct tw_trigger *t = data->private_data;
	struct probe_event *ev = t->tw->tp.ev;

	seq_printf(m, "%s:", data->cmd_ops->name);
	if (strcmp(probe_event_group(ev), TPP_WPROBE_GROUP))
		seq_printf(m, "%s/", probe_event_group(ev));
	seq_puts(m, probe_event_name(ev));
	if (t->field)
		seq_printf(m, ":%s", t->field->name);
	if (t->offset)
		seq_printf(m, "%+ld", t->offset);
	if (data->count == -1)
		seq_puts(m, ":unlimited");
	else
		seq_printf(m, ":count=%ld", data->count);
	if (data->filter_str)
		seq_printf(m, " if %s", data->filter_str);
	seq_printf(m, " # missed=%ld invalid=%ld\n",
		   atomic_long_read(&t->missed), atomic_long_read(&t->invalid));
	return 0;
}

/*
 * A wprobe event that a user enabled, in any instance or through perf,
 * rather than the soft enable of triggers only: set_wprobe would move
 * what that user watches.
 */
static bool tw_busy(const struct trace_wprobe *tw)
{
	const struct probe_event *ev = tw->tp.ev;
	struct probe_event_link *link;

	lockdep_assert_held(&event_mutex);
	if (ev->flags & PROBE_EVENT_F_PERF)
		return true;
	list_for_each_entry(link, &ev->links, list)
		if (!(link->file->flags & EVENT_FILE_FL_SOFT_MODE))
			return true;
	return false;
}

/*
 * Put the wprobe's event of @t in soft mode in the trigger's instance,
 * which makes the breakpoints (-ENOSPC without a free slot).  set_wprobe
 * refuses a wprobe that a user enabled.  tw_trigger_free() undoes it.
 */
static int tw_trigger_soft_on(const struct event_command *cmd_ops,
			      struct tw_trigger *t)
{
	int ret;

	if (cmd_ops == &tw_set_cmd && tw_busy(t->tw))
		return -EBUSY;
	ret = trace_event_enable_disable(t->wfile, 1, 1);
	t->soft = !ret;
	return ret;
}

/*
 * No trigger of @t runs any more.  The last soft enable going: a
 * set_wprobe may have left the event soft enabled, which leaving soft
 * mode would turn into enabled for good.
 */
static void tw_trigger_soft_off(struct tw_trigger *t)
{
	if (!t->soft)
		return;
	if (atomic_read(&t->wfile->sm_ref) == 1)
		set_bit(EVENT_FILE_FL_SOFT_DISABLED_BIT, &t->wfile->flags);
	trace_event_enable_disable(t->wfile, 0, 1);
}

/*
 * The last reference: the trigger is off its file's list, whether it
 * was removed or its instance went (which frees triggers without
 * unregistering them)
 */
static void tw_trigger_free(struct event_trigger_data *data)
{
	struct tw_trigger *t = data->private_data;

	if (WARN_ON_ONCE(data->ref <= 0))
		return;
	if (--data->ref)
		return;
	trigger_data_free(data);	/* waits for running triggers */
	tw_trigger_soft_off(t);
	trace_event_put_ref(&t->tw->tp.ev->call);
	kfree(t);
}

/* The trigger of @file with @data's command for @data's wprobe, or NULL */
static struct event_trigger_data *tw_trigger_find(struct trace_event_file *file,
						  struct event_trigger_data *data)
{
	struct tw_trigger *t = data->private_data, *other;
	struct event_trigger_data *iter;

	list_for_each_entry(iter, &file->triggers, list) {
		if (iter->cmd_ops != data->cmd_ops)
			continue;
		other = iter->private_data;
		if (other->tw == t->tw)
			return iter;
	}
	return NULL;
}

static int tw_trigger_reg(char *glob, struct event_trigger_data *data,
			  struct trace_event_file *file)
{
	int ret;

	lockdep_assert_held(&event_mutex);
	if (tw_trigger_find(file, data))
		return -EEXIST;
	data->cmd_ops->init(data);
	list_add_rcu(&data->list, &file->triggers);
	update_cond_flag(file);
	ret = trace_event_trigger_enable_disable(file, 1);
	if (ret < 0) {
		list_del_rcu(&data->list);
		update_cond_flag(file);
		data->cmd_ops->free(data);
	}
	return ret;
}

static void tw_trigger_del(struct event_trigger_data *data,
			   struct trace_event_file *file)
{
	list_del_rcu(&data->list);
	trace_event_trigger_enable_disable(file, 0);
	update_cond_flag(file);
	data->cmd_ops->free(data);
}

static void tw_trigger_unreg(char *glob, struct event_trigger_data *test,
			     struct trace_event_file *file)
{
	struct event_trigger_data *data;

	lockdep_assert_held(&event_mutex);
	data = tw_trigger_find(file, test);
	if (data)
		tw_trigger_del(data, file);
}

/* Opening the trigger file with O_TRUNC removes every trigger */
static void tw_trigger_unreg_all(struct trace_event_file *file)
{
	struct event_trigger_data *data, *next;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry_safe(data, next, &file->triggers, list)
		if (data->cmd_ops == &tw_set_cmd ||
		    data->cmd_ops == &tw_clear_cmd)
			tw_trigger_del(data, file);
}

/* ---- Triggers: parsing "[!]CMD:[GRP/]WPROBE[:FIELD[+|-OFFS]][:COUNT]" ---- */

/**
 * struct tw_trigger_line - a trigger line being parsed, for its errors
 * @tr: the instance whose error_log takes them
 * @text: the line as the trigger file took it, which error_log shows
 * @param: where the words after "CMD:" start, split in place
 * @base: the offset of @param in @text
 */
struct tw_trigger_line {
	struct trace_array *tr;
	char *text;
	char *param;
	unsigned int base;
};

/* Log @id with its caret at @pos of the line */
static int tw_trigger_err_pos(const struct tw_trigger_line *l, int id,
			      unsigned int pos, int ret)
{
	if (l->text)
		tracing_log_err(l->tr, TW_TRIGGER_LOG, l->text, tpp_err_text, id,
				pos);
	return ret;
}

/* Log @id with its caret at @at, a place in the line's words */
static int tw_trigger_err(const struct tw_trigger_line *l, int id,
			  const char *at, int ret)
{
	return tw_trigger_err_pos(l, id, l->base + (at - l->param), ret);
}

/*
 * The wprobe "[GRP/]EVENT" names (GRP is wprobes when not written), or
 * NULL.  The '/' in @name becomes its end.
 */
static struct trace_wprobe *tw_find(char *name)
{
	char *event = strchr(name, '/');
	const char *group = TPP_WPROBE_GROUP;
	struct probe_event *ev;

	if (event) {
		*event++ = '\0';
		group = name;
	} else {
		event = name;
	}
	ev = probe_event_find(group, event);
	if (IS_ERR_OR_NULL(ev) || ev->ops != &tw_event_ops)
		return NULL;
	return tw_first(ev);
}

/* FIELD[+|-OFFS]: an address-wide integer field of the triggering event */
static int tw_trigger_field(const struct tw_trigger_line *l,
			    struct trace_event_file *file, char *word,
			    struct tw_trigger *t)
{
	char *offs = strpbrk(word, "+-");
	int ret = 0;

	if (offs) {
		ret = kstrtol(offs, 0, &t->offset);
		if (ret)
			return tw_trigger_err(l, TPP_E_WTRIG_OFFSET, offs, ret);
		*offs = '\0';
	}
	t->field = trace_find_event_field(file->event_call, word);
	if (!t->field)
		return tw_trigger_err(l, TPP_E_WTRIG_NO_FIELD, word, -EINVAL);
	if (t->field->filter_type != FILTER_OTHER ||
	    t->field->size != sizeof(long))
		return tw_trigger_err(l, TPP_E_WTRIG_FIELD_TYPE, word, -EINVAL);
	return 0;
}

static bool tw_is_count(const char *word)
{
	return word && isdigit(word[0]);
}

/*
 * The words after "CMD:": the wprobe, FIELD (set_wprobe's, and
 * clear_wprobe's when its second word is no count), then the count,
 * left in *@count for trigger_data_alloc().
 */
static int tw_trigger_words(const struct tw_trigger_line *l,
			    struct trace_event_file *file, bool set,
			    struct tw_trigger *t, char **count)
{
	char *rest = l->param, *name = strsep(&rest, ":");
	char *name_end = name + strlen(name), *field = NULL;

	t->tw = name[0] ? tw_find(name) : NULL;
	if (t->tw)
		t->wfile = find_event_file(file->tr,
					   probe_event_group(t->tw->tp.ev),
					   probe_event_name(t->tw->tp.ev));
	if (!t->wfile)
		return tw_trigger_err(l, TPP_E_WTRIG_NO_WPROBE, name, -ENOENT);
	if (!t->tw->tp.def->watch.unset)
		return tw_trigger_err(l, TPP_E_WTRIG_FIXED, name, -EINVAL);
	if (rest && (set || !tw_is_count(rest)))
		field = strsep(&rest, ":");
	if (set && !field)
		return tw_trigger_err(l, TPP_E_WTRIG_SET, name_end, -EINVAL);
	*count = rest ? strsep(&rest, ":") : NULL;
	if (rest)
		return tw_trigger_err(l, set ? TPP_E_WTRIG_SET :
				      TPP_E_WTRIG_CLEAR, rest, -EINVAL);
	if (*count && !tw_is_count(*count))
		return tw_trigger_err(l, TPP_E_WTRIG_COUNT, *count, -EINVAL);
	return field ? tw_trigger_field(l, file, field, t) : 0;
}

/* Why registering a trigger for @tw failed with @ret, in error_log */
static void tw_trigger_reg_err(const struct tw_trigger_line *l,
			       const struct trace_wprobe *tw, int ret)
{
	switch (ret) {
	case -EEXIST:
		tw_trigger_err_pos(l, TPP_E_WTRIG_EXISTS, 0, ret);
		break;
	case -EBUSY:
		tw_trigger_err_pos(l, TPP_E_WTRIG_BUSY, l->base, ret);
		break;
	case -ENOSPC:
		tw_trigger_err_pos(l, tw_refused(&tw->tp, ret), l->base, ret);
		break;
	}
}

/* Add the trigger @t describes to @file; @t is the trigger's from now on */
static int tw_trigger_add(const struct tw_trigger_line *l,
			  struct event_command *cmd_ops,
			  struct trace_event_file *file, char *glob,
			  struct tw_trigger *t, char *count, char *filter)
{
	struct trace_event_call *call = &t->tw->tp.ev->call;
	struct event_trigger_data *data;
	int ret;

	if (!trace_event_try_get_ref(call)) {
		kfree(t);
		return -EBUSY;
	}
	data = trigger_data_alloc(cmd_ops, cmd_ops->name, count, t);
	if (!data) {
		trace_event_put_ref(call);
		kfree(t);
		return -ENOMEM;
	}
	event_trigger_init(data);	/* the reference this function holds */
	ret = count ? kstrtoul(count, 0, &data->count) : 0;
	if (ret)
		tw_trigger_err(l, TPP_E_WTRIG_COUNT, count, ret);
	if (!ret)
		ret = event_trigger_set_filter(cmd_ops, file, filter, data);
	if (!ret)
		ret = tw_trigger_soft_on(cmd_ops, t);
	if (!ret)
		ret = event_trigger_register(cmd_ops, file, glob, data);
	tw_trigger_reg_err(l, t->tw, ret);
	tw_trigger_free(data);
	return ret;
}

/* &event_command.parse of set_wprobe and clear_wprobe */
static int tw_trigger_parse(struct event_command *cmd_ops,
			    struct trace_event_file *file, char *glob,
			    char *cmd, char *param_and_filter)
{
	struct tw_trigger_line l = { .tr = file->tr };
	struct event_trigger_data test = { .cmd_ops = cmd_ops };
	bool remove = event_trigger_check_remove(glob);
	char *count, *filter, *comment;
	struct tw_trigger *t;
	int ret;

	l.text = kasprintf(GFP_KERNEL, "%s:%s", glob, param_and_filter ?: "");
	l.base = strlen(glob) + 1;
	comment = param_and_filter ? strstr(param_and_filter, " #") : NULL;
	if (comment)		/* what the trigger file shows after its line */
		*comment = '\0';
	ret = event_trigger_separate_filter(param_and_filter, &l.param,
					    &filter, true);
	if (ret || !l.param) {
		ret = tw_trigger_err_pos(&l, cmd_ops == &tw_set_cmd ?
					 TPP_E_WTRIG_SET : TPP_E_WTRIG_CLEAR,
					 l.base, -EINVAL);
		goto out;
	}
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	ret = t ? tw_trigger_words(&l, file, cmd_ops == &tw_set_cmd, t,
				   &count) : -ENOMEM;
	if (ret || remove) {
		test.private_data = t;
		if (!ret)
			tw_trigger_unreg(glob + 1, &test, file);
		kfree(t);
		goto out;
	}
	ret = tw_trigger_add(&l, cmd_ops, file, glob, t, count, filter);
out:
	kfree(l.text);
	return ret;
}

static struct event_command tw_set_cmd = {
	.name		= TW_SET_CMD,
	.trigger_type	= ETT_WPROBE,
	.flags		= EVENT_CMD_FL_NEEDS_REC,
	.parse		= tw_trigger_parse,
	.reg		= tw_trigger_reg,
	.unreg		= tw_trigger_unreg,
	.unreg_all	= tw_trigger_unreg_all,
	.set_filter	= set_trigger_filter,
	.trigger	= tw_set_trigger,
	.count_func	= tw_trigger_count,
	.print		= tw_trigger_print,
	.init		= event_trigger_init,
	.free		= tw_trigger_free,
};

static struct event_command tw_clear_cmd = {
	.name		= TW_CLEAR_CMD,
	.trigger_type	= ETT_WPROBE,
	.flags		= EVENT_CMD_FL_NEEDS_REC,
	.parse		= tw_trigger_parse,
	.reg		= tw_trigger_reg,
	.unreg		= tw_trigger_unreg,
	.unreg_all	= tw_trigger_unreg_all,
	.set_filter	= set_trigger_filter,
	.trigger	= tw_clear_trigger,
	.count_func	= tw_trigger_count,
	.print		= tw_trigger_print,
	.init		= event_trigger_init,
	.free		= tw_trigger_free,
};

static __init int tw_register_triggers(void)
{
	int ret = register_event_command(&tw_set_cmd);

	if (!ret)
		ret = register_event_command(&tw_clear_cmd);
	return ret;
}

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

	tw->gone = true;
	if (tw->host)
		tw_leave(tw);
	tw_bps_release(tw);
	tw_drop_guests(tw);
	list_for_each_entry_safe(link, next, &ev->links, list)
		trace_event_enable_disable(link->file, 0, 0);
	pr_info("%s/%s: module %s is gone: the event is disabled and watches nothing\n",
		probe_event_group(ev), probe_event_name(ev), module_name(mod));
}

/*
 * A wprobe at -1 that triggers placed in @mod's memory goes back to
 * watching nothing, at once; its event stays as it is.
 */
static void tw_module_unwatch(struct trace_wprobe *tw, struct module *mod)
{
	unsigned long target = READ_ONCE(tw->target);

	if (within_module(target, mod))
		cmpxchg(&tw->target, target, 0);
	if (!within_module(tw->addr, mod) && !within_module(target, mod))
		return;
	tw_sync(tw);
	pr_info("%s/%s: module %s is gone: the wprobe watches nothing until set again\n",
		probe_event_group(tw->tp.ev), probe_event_name(tw->tp.ev),
		module_name(mod));
}

static int tw_module_notify(struct notifier_block *nb, unsigned long val,
			    void *data)
{
	struct module *mod = data;
	struct trace_wprobe *tw;
	struct dyn_event *pos;
	bool synced = false;

	if (val != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&event_mutex);
	for_each_dyn_event(pos) {
		if (!is_tw(pos))
			continue;
		tw = tw_of(to_trace_probe(pos));
		if (tw->tp.def->watch.unset) {
			/*
			 * A set_wprobe that found @mod live may not have
			 * claimed its wprobe yet; one that starts now finds
			 * @mod going.  Triggers run with preemption off.
			 */
			if (!synced)
				synchronize_rcu();
			synced = true;
			tw_module_unwatch(tw, mod);
		} else if (!tw->gone && within_module(tw->addr, mod)) {
			tw_module_going(tw, mod);
		}
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
	if (!ret)
		ret = tw_register_triggers();
	if (ret)
		return ret;
	return tw_watch_modules();
}
core_initcall(tw_init_early);
