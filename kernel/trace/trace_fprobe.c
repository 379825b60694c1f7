// SPDX-License-Identifier: GPL-2.0
/*
 * Fprobe-based event tracer: "f" and "t" definitions written to
 * dynamic_events become ftrace events written by an fprobe on a function's
 * entry or exit, or on the probe stub of a tracepoint.
 *
 *	f[N][:[GRP/][EVENT]] [MOD:]SYM[%return] [FETCHARGS]
 *	t[:[GRP/][EVENT]] TRACEPOINT [FETCHARGS]
 *
 * The head (kind, maxactive, name, place) is parsed here; the fetch
 * arguments go to the pure parser (tpp_parse_args()), the compiler
 * (probe_fetch.c) and the probe event object (probe_event.c), as for
 * kprobes.  At a hit the handler only walks the compiled program.
 *
 * A tprobe puts the tracepoint's __probestub_TP on the tracepoint and an
 * fprobe on that stub, so the stub's parameters are the tracepoint's
 * (after its data pointer).  A tprobe on a module's tracepoint may be
 * defined before the module is loaded: it waits, registers when the
 * module comes and unregisters, to wait again, when it goes.
 *
 * A kernel without fprobe (arm64, whose ftrace saves no pt_regs) takes
 * the same events through ftrace: an entry event with an ftrace_ops of
 * its own, exit events with one fgraph_ops that they share, or with a
 * kretprobe on the ftrace call site when their entry data is too big for
 * the shadow stack.  A
 * definition here reads no register but the arguments, the stack pointer
 * and the return value, all of which ftrace and fgraph pass in
 * ftrace_regs.  The hook functions below are the only difference.
 *
 * Locking: definitions, events, registration and the dyn_event list change
 * under event_mutex; the handlers read the event's flags and trace files
 * under RCU (fprobe, ftrace_ops and kprobe handlers run with preemption
 * disabled; the fgraph handlers' recursion lock disables it).
 */
#define pr_fmt(fmt)	"trace_fprobe: " fmt

#include <linux/ctype.h>
#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/hashtable.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "trace.h"
#include "trace_dynevent.h"
#include "probe_event.h"
#include "probe_kenv.h"

#define TF_FUNC_GROUP	"fprobes"
#define TF_TPOINT_GROUP	"tracepoints"

/**
 * struct trace_fprobe - one fprobe or tprobe of a probe event
 * @tp: what every probe type's probe has; @tp.def->kind is 'f' or 't',
 *	@tp.def->symbol the function ("[MOD:]SYM") or the tracepoint name
 * @tpoint: a tprobe's tracepoint; NULL while its module is not loaded
 * @mod: the module @tpoint or the hooked function lives in, or NULL; not
 *	referenced: the module notifiers clear it before the module goes
 * @registered: the hook is registered (and, for a tprobe, the stub is
 *	on @tpoint)
 * @fp: the fprobe; set up again before every registration
 * @ops: without fprobe, an entry probe's ftrace_ops on the function;
 *	set up again before every registration
 * @exit_node: without fprobe, a return probe's entry in tf_exits
 * @exit_id: without fprobe, what a return probe's records on the shadow
 *	stack name it by; never 0, never reused
 * @exit_site: without fprobe, a return probe's ftrace call site, by which
 *	fgraph names the function
 * @rec_words: without fprobe, the words of a return probe's records on
 *	the shadow stack
 * @rp: without fprobe, the kretprobe on the ftrace call site of a return
 *	probe whose entry data does not fit on the shadow stack; set up
 *	again before every registration
 * @entry_ip: without fprobe, the address of the probed function, which
 *	the records show as fprobe's do
 *
 * @tpoint, @mod, @registered and the hook change under event_mutex.
 */
struct trace_fprobe {
	struct trace_probe tp;
	struct tracepoint *tpoint;
	struct module *mod;
	bool registered;
#ifdef CONFIG_FPROBE
	struct fprobe fp;
#else
	struct ftrace_ops ops;
	struct hlist_node exit_node;
	unsigned long exit_id;
	unsigned long exit_site;
	unsigned int rec_words;
	struct kretprobe rp;
	unsigned long entry_ip;
#endif
};

/* Defined with their callbacks, below */
static struct dyn_event_operations tf_dyn_ops;
static const struct probe_event_ops tf_event_ops;

static inline bool is_tf(struct dyn_event *ev)
{
	return ev->ops == &tf_dyn_ops;
}

static inline struct trace_fprobe *to_tf(struct dyn_event *ev)
{
	return container_of(ev, struct trace_fprobe, tp.devent);
}

static inline struct trace_fprobe *tf_of(const struct trace_probe *tp)
{
	return container_of(tp, struct trace_fprobe, tp);
}

static inline bool tf_is_return(const struct trace_fprobe *tf)
{
	return tf->tp.def->is_return;
}

static inline bool tf_is_tpoint(const struct trace_fprobe *tf)
{
	return tf->tp.def->kind == 't';
}

/* ---- The hit path ---- */

/* Inlined into each handler: a hit runs in one frame (probe_ip_trace()) */
static nokprobe_inline void tf_hit(const struct trace_fprobe *tf,
				   struct pt_regs *regs,
				   const unsigned long *edata,
				   unsigned long entry_ip,
				   bool is_ret, unsigned long ret_ip)
{
	unsigned int flags = READ_ONCE(tf->tp.ev->flags);

	if (flags & PROBE_EVENT_F_TRACE)
		probe_ip_trace(&tf->tp, regs, edata, entry_ip, is_ret, ret_ip);
	/* fprobe events run no BPF program: perf records only */
	if (flags & PROBE_EVENT_F_PERF)
		probe_ip_perf(&tf->tp, regs, edata, entry_ip, is_ret, ret_ip);
}

#ifdef CONFIG_FPROBE

/* ---- The hook: an fprobe ---- */

static int tf_entry_handler(struct fprobe *fp, unsigned long entry_ip,
			    unsigned long ret_ip, struct pt_regs *regs,
			    void *entry_data)
{
	tf_hit(container_of(fp, struct trace_fprobe, fp), regs, NULL, entry_ip,
	       false, 0);
	return 0;
}

NOKPROBE_SYMBOL(tf_entry_handler);

/* A return probe that reads $argN or @entry() saves them on the way in */
static int tf_save_entry(struct fprobe *fp, unsigned long entry_ip,
			 unsigned long ret_ip, struct pt_regs *regs,
			 void *entry_data)
{
	struct trace_fprobe *tf = container_of(fp, struct trace_fprobe, fp);

	probe_prog_save_entry(tf->tp.prog, regs, entry_data);
	return 0;
}

NOKPROBE_SYMBOL(tf_save_entry);

static void tf_exit_handler(struct fprobe *fp, unsigned long entry_ip,
			    unsigned long ret_ip, struct pt_regs *regs,
			    void *entry_data)
{
	struct trace_fprobe *tf = container_of(fp, struct trace_fprobe, fp);

	tf_hit(tf, regs, probe_prog_edata_size(tf->tp.prog) ? entry_data : NULL,
	       entry_ip, true, ret_ip);
}

NOKPROBE_SYMBOL(tf_exit_handler);

/*
 * fprobe keeps state in struct fprobe that unregister_fprobe() does not
 * reset, so it gets a fresh one for every registration.
 */
static void tf_setup_fprobe(struct trace_fprobe *tf)
{
	struct fprobe *fp = &tf->fp;

	memset(fp, 0, sizeof(*fp));
	if (tf_is_return(tf)) {
		fp->exit_handler = tf_exit_handler;
		fp->nr_maxactive = tf->tp.def->maxactive;
		if (probe_prog_edata_size(tf->tp.prog)) {
			fp->entry_handler = tf_save_entry;
			fp->entry_data_size = probe_prog_edata_size(tf->tp.prog);
		}
	} else {
		fp->entry_handler = tf_entry_handler;
	}
	if (!probe_event_enabled(tf->tp.ev))
		fp->flags |= FPROBE_FL_DISABLED;
}

/* Hook the function at @func (a tracepoint's stub) */
static int tf_hook_addr(struct trace_fprobe *tf, unsigned long func)
{
	tf_setup_fprobe(tf);
	return register_fprobe_ips(&tf->fp, &func, 1);
}

/*
 * register_fprobe() fills the filter with the symbol and frees it again
 * when it fails: a failure leaves nothing behind.
 */
static int tf_hook_name(struct trace_fprobe *tf)
{
	tf_setup_fprobe(tf);
	return register_fprobe(&tf->fp, tf->tp.def->symbol, NULL);
}

static void tf_unhook(struct trace_fprobe *tf)
{
	unregister_fprobe(&tf->fp);
}

static void tf_hook_enable(struct trace_fprobe *tf, bool on)
{
	if (on)
		enable_fprobe(&tf->fp);
	else
		disable_fprobe(&tf->fp);
}

/* fprobe takes every function ftrace can trace */
static int tf_hook_refused(unsigned long func)
{
	return TPP_E_NONE;
}

#else /* !CONFIG_FPROBE */

/* ---- The hook: an ftrace_ops at the entry, function graph at the exit ---- */

/*
 * ftrace saved the arguments, FP, LR, SP and PC; ftrace_partial_regs()
 * puts them where the fetch program reads them.  The definition was
 * refused if it reads any other register, so the rest of the pt_regs is
 * only cleared when perf may copy it out with a sample.
 */
static void tf_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct trace_fprobe *tf = container_of(ops, struct trace_fprobe, ops);
	unsigned int flags = READ_ONCE(tf->tp.ev->flags);
	struct pt_regs regs __uninitialized;
	int bit;

	if (!(flags & (PROBE_EVENT_F_TRACE | PROBE_EVENT_F_PERF)))
		return;
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	if (flags & PROBE_EVENT_F_PERF)
		memset(&regs, 0, sizeof(regs));
	tf_hit(tf, ftrace_partial_regs(fregs, &regs), NULL, tf->entry_ip,
	       false, 0);
	ftrace_test_recursion_unlock(bit);
}

NOKPROBE_SYMBOL(tf_ftrace_handler);

/* Why kprobes refuse @func, which ftrace can trace */
static int tf_hook_refused(unsigned long func)
{
	if (arch_within_kprobe_blacklist(func))
		return TPP_E_KPROBES_AREA;
	return within_kprobe_blacklist(func) ? TPP_E_BLACKLISTED : TPP_E_NONE;
}

/*
 * Exit events share one fgraph_ops, as fgraph has few slots: its filter
 * holds each function that has one, and tf_exits finds a function's
 * events from its ftrace call site, the address fgraph gives.  At the
 * entry each armed event leaves a record on the task's shadow stack: a
 * word with its id and the record's length, then the entry data it saves.
 * On the way out only the events whose id is recorded write, so an event
 * deleted, or disabled then enabled, while the function ran writes
 * nothing, and a record never leads to a freed event.
 */
#define TF_EXIT_BITS		6
#define TF_REC_WORDS_MAX	32	/* what fgraph_reserve_data() gives */
#define TF_REC_LEN_BITS		6
#define TF_REC_LEN_MASK		((1UL << TF_REC_LEN_BITS) - 1)

static DEFINE_HASHTABLE(tf_exits, TF_EXIT_BITS);
static unsigned int tf_exit_count;	/* exit events hooked */
static unsigned long tf_exit_last_id;

static int tf_graph_entry(struct ftrace_graph_ent *trace,
			  struct fgraph_ops *gops, struct ftrace_regs *fregs);
static void tf_graph_return(struct ftrace_graph_ret *trace,
			    struct fgraph_ops *gops, struct ftrace_regs *fregs);

static struct fgraph_ops tf_exit_gops = {
	.entryfunc	= tf_graph_entry,
	.retfunc	= tf_graph_return,
};

/* Words an exit event's record takes on the shadow stack */
static unsigned int tf_rec_words(const struct trace_fprobe *tf)
{
	return 1 + DIV_ROUND_UP(probe_prog_edata_size(tf->tp.prog),
				sizeof(long));
}

/* Whether @tf's event writes records now */
static nokprobe_inline bool tf_armed(const struct trace_fprobe *tf)
{
	return READ_ONCE(tf->tp.ev->flags) &
	       (PROBE_EVENT_F_TRACE | PROBE_EVENT_F_PERF);
}

/*
 * Gather in @hit the armed exit events of @func whose records fit on the
 * shadow stack together; return the words they take.  At most
 * TF_REC_WORDS_MAX records fit, as each takes a word at least.
 */
static nokprobe_inline unsigned int tf_rec_gather(unsigned long func,
						  struct trace_fprobe **hit,
						  unsigned int *nr)
{
	struct trace_fprobe *tf;
	unsigned int words = 0;

	*nr = 0;
	hash_for_each_possible_rcu_notrace(tf_exits, tf, exit_node, func) {
		if (tf->exit_site != func || !tf_armed(tf) ||
		    words + tf->rec_words > TF_REC_WORDS_MAX)
			continue;
		hit[(*nr)++] = tf;
		words += tf->rec_words;
	}
	return words;
}

/* Fill @rec with the records of the @nr events of @hit */
static nokprobe_inline void tf_rec_fill(unsigned long *rec,
					struct trace_fprobe **hit,
					unsigned int nr,
					struct ftrace_regs *fregs)
{
	struct pt_regs regs __uninitialized;
	unsigned int i, n;

	ftrace_partial_regs(fregs, &regs);
	for (i = 0; i < nr; i++, rec += n) {
		n = hit[i]->rec_words;
		rec[0] = hit[i]->exit_id << TF_REC_LEN_BITS | n;
		if (n > 1)
			probe_prog_save_entry(hit[i]->tp.prog, &regs, rec + 1);
	}
}

/*
 * Save, for each armed exit event on the function, its id and its entry
 * data.  An event enabled while the function runs misses this call.
 */
static int tf_graph_entry(struct ftrace_graph_ent *trace,
			  struct fgraph_ops *gops, struct ftrace_regs *fregs)
{
	struct trace_fprobe *hit[TF_REC_WORDS_MAX];
	unsigned long *rec = NULL;
	unsigned int words, nr;
	int bit;

	if (!fregs)
		return 0;
	/* the lock also holds off preemption while tf_exits is walked */
	bit = ftrace_test_recursion_trylock(trace->func, 0);
	if (bit < 0)
		return 0;
	words = tf_rec_gather(trace->func, hit, &nr);
	if (words)
		rec = fgraph_reserve_data(gops->idx, words * sizeof(long));
	if (rec)
		tf_rec_fill(rec, hit, nr, fregs);
	ftrace_test_recursion_unlock(bit);
	return !!rec;
}

NOKPROBE_SYMBOL(tf_graph_entry);

static nokprobe_inline struct trace_fprobe *tf_exit_of(unsigned long func,
						       unsigned long word)
{
	unsigned long id = word >> TF_REC_LEN_BITS;
	struct trace_fprobe *tf;

	hash_for_each_possible_rcu_notrace(tf_exits, tf, exit_node, func)
		if (tf->exit_id == id)
			return tf;
	return NULL;
}

#define TF_REGS_FILLED	1
#define TF_REGS_CLEARED	2

/*
 * fregs holds the return value, the stack pointer after the return and,
 * as instruction pointer, the return address.  The definition reads
 * nothing else, so the rest of the pt_regs is only cleared for perf,
 * which may copy it out with a sample.
 */
static nokprobe_inline void tf_exit_regs(const struct trace_fprobe *tf,
					 struct ftrace_regs *fregs,
					 struct pt_regs *regs, unsigned int *state)
{
	if ((READ_ONCE(tf->tp.ev->flags) & PROBE_EVENT_F_PERF) &&
	    !(*state & TF_REGS_CLEARED)) {
		memset(regs, 0, sizeof(*regs));
		*state = TF_REGS_CLEARED;
	}
	if (!(*state & TF_REGS_FILLED)) {
		ftrace_partial_regs(fregs, regs);
		*state |= TF_REGS_FILLED;
	}
}

static void tf_graph_return(struct ftrace_graph_ret *trace,
			    struct fgraph_ops *gops, struct ftrace_regs *fregs)
{
	struct pt_regs regs __uninitialized;
	unsigned int used, words, n, state = 0;
	struct trace_fprobe *tf;
	unsigned long *rec;
	int size, bit;

	rec = fgraph_retrieve_data(gops->idx, &size);
	if (!rec || !fregs)
		return;
	bit = ftrace_test_recursion_trylock(trace->func, 0);
	if (bit < 0)
		return;
	words = size / sizeof(long);
	for (used = 0; used < words && rec[used]; used += n) {
		n = rec[used] & TF_REC_LEN_MASK;
		tf = tf_exit_of(trace->func, rec[used]);
		if (!tf)
			continue;
		tf_exit_regs(tf, fregs, &regs, &state);
		tf_hit(tf, &regs, n > 1 ? rec + used + 1 : NULL, tf->entry_ip,
		       true, instruction_pointer(&regs));
	}
	ftrace_test_recursion_unlock(bit);
}

NOKPROBE_SYMBOL(tf_graph_return);

static bool tf_exit_func_hooked(unsigned long func)
{
	struct trace_fprobe *tf;

	hash_for_each_possible(tf_exits, tf, exit_node, func)
		if (tf->exit_site == func)
			return true;
	return false;
}

/*
 * Put @tf's function in the fgraph_ops's filter unless another exit event
 * has it there, and register the fgraph_ops with the first exit event:
 * an empty filter would hook every function.
 */
static int tf_hook_exit(struct trace_fprobe *tf, unsigned long func)
{
	int ret = 0;

	func = ftrace_location(func);
	if (!tf_exit_func_hooked(func))
		ret = ftrace_set_filter_ip(&tf_exit_gops.ops, func, 0, 0);
	if (ret)
		return ret;
	tf->exit_site = func;
	tf->exit_id = ++tf_exit_last_id;
	tf->rec_words = tf_rec_words(tf);
	hash_add_rcu(tf_exits, &tf->exit_node, func);
	if (!tf_exit_count++)
		ret = register_ftrace_graph(&tf_exit_gops);
	if (ret) {
		tf_exit_count--;
		hash_del_rcu(&tf->exit_node);
		if (!tf_exit_func_hooked(func))
			ftrace_set_filter_ip(&tf_exit_gops.ops, func, 1, 0);
		synchronize_rcu();
	}
	return ret;
}

/* The reverse of tf_hook_exit(); the handlers are done with @tf after it */
static void tf_unhook_exit(struct trace_fprobe *tf)
{
	unsigned long func = tf->exit_site;

	hash_del_rcu(&tf->exit_node);
	if (!--tf_exit_count)
		unregister_ftrace_graph(&tf_exit_gops);
	if (!tf_exit_func_hooked(func))
		ftrace_set_filter_ip(&tf_exit_gops.ops, func, 1, 0);
	synchronize_rcu();
}

/* The probe of a kretprobe instance; NULL while it is unregistered */
static nokprobe_inline struct trace_fprobe *tf_of_instance(struct kretprobe_instance *ri)
{
	struct kretprobe *rp = get_kretprobe(ri);

	return rp ? container_of(rp, struct trace_fprobe, rp) : NULL;
}

/* A return probe that reads $argN or @entry() saves them on the way in */
static int tf_save_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct trace_fprobe *tf = tf_of_instance(ri);

	if (tf)
		probe_prog_save_entry(tf->tp.prog, regs, (unsigned long *)ri->data);
	return tf ? 0 : -ENOENT;
}

NOKPROBE_SYMBOL(tf_save_entry);

static int tf_return_handler(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct trace_fprobe *tf = tf_of_instance(ri);
	unsigned long *edata = (unsigned long *)ri->data;

	if (tf)
		tf_hit(tf, regs, probe_prog_edata_size(tf->tp.prog) ? edata : NULL,
		       tf->entry_ip, true, get_kretprobe_retaddr(ri));
	return 0;
}

NOKPROBE_SYMBOL(tf_return_handler);

static int tf_register_kprobe(struct trace_fprobe *tf)
{
	struct kretprobe *rp = &tf->rp;
	unsigned int size = probe_prog_edata_size(tf->tp.prog);

	rp->handler = tf_return_handler;
	rp->maxactive = tf->tp.def->maxactive;
	if (size) {
		rp->entry_handler = tf_save_entry;
		rp->data_size = size;
	}
	return register_kretprobe(rp);
}

/*
 * An exit event whose entry data does not fit in what the shadow stack
 * gives one call takes a kretprobe, put on the ftrace call site with
 * KPROBE_FLAG_FTRACE_ARGS; one the kprobes core did not put there is
 * unregistered and refused, so it never takes a breakpoint.  The kprobes
 * core keeps state in struct kretprobe: it is set up afresh each time.
 */
static bool tf_exit_on_graph(const struct trace_fprobe *tf)
{
	return tf_rec_words(tf) <= TF_REC_WORDS_MAX;
}

static int tf_hook_kretprobe(struct trace_fprobe *tf, unsigned long func)
{
	struct kretprobe *rp = &tf->rp;
	int ret;

	memset(rp, 0, sizeof(*rp));
	rp->kp.addr = (kprobe_opcode_t *)func;
	rp->kp.flags = KPROBE_FLAG_FTRACE_ARGS;
	if (!probe_event_enabled(tf->tp.ev))
		rp->kp.flags |= KPROBE_FLAG_DISABLED;
	ret = tf_register_kprobe(tf);
	if (!ret && !kprobe_ftrace(&rp->kp)) {
		unregister_kretprobe(rp);
		ret = -EINVAL;
	}
	return ret;
}

static void tf_unhook(struct trace_fprobe *tf)
{
	if (tf_is_return(tf) && tf_exit_on_graph(tf)) {
		tf_unhook_exit(tf);
		return;
	}
	if (tf_is_return(tf)) {
		unregister_kretprobe(&tf->rp);
		return;
	}
	unregister_ftrace_function(&tf->ops);
	ftrace_free_filter(&tf->ops);
}

/*
 * The entry probe's own ftrace_ops: the handler is called straight from
 * the function's call site while it is the only user there, and tests
 * the event's flags itself, so the ops stays registered while the event
 * is disabled, as an fprobe does.
 */
static int tf_hook_ftrace(struct trace_fprobe *tf, unsigned long func)
{
	struct ftrace_ops *ops = &tf->ops;
	int ret;

	memset(ops, 0, sizeof(*ops));
	ops->func = tf_ftrace_handler;
	ret = ftrace_set_filter_ip(ops, func, 0, 0);
	if (!ret)
		ret = register_ftrace_function(ops);
	if (ret)
		ftrace_free_filter(ops);
	return ret;
}

/*
 * Hook the function at @func.  A function ftrace cannot trace is refused
 * with -EINVAL, as fprobe refuses it.  So is one on the kprobe blacklist:
 * ftrace can trace some functions that the probe code itself runs.
 */
static int tf_hook_addr(struct trace_fprobe *tf, unsigned long func)
{
	if (!ftrace_location(func) || tf_hook_refused(func) != TPP_E_NONE)
		return -EINVAL;
	tf->entry_ip = func;
	if (!tf_is_return(tf))
		return tf_hook_ftrace(tf, func);
	if (tf_exit_on_graph(tf))
		return tf_hook_exit(tf, func);
	return tf_hook_kretprobe(tf, func);
}

/* "[MOD:]SYM" names a function's start, as in a kprobe definition */
static int tf_hook_name(struct trace_fprobe *tf)
{
	unsigned long func = kallsyms_lookup_name(tf->tp.def->symbol);

	return func ? tf_hook_addr(tf, func) : -ENOENT;
}

/* The ftrace_ops and fgraph handlers test their event's flags */
static void tf_hook_enable(struct trace_fprobe *tf, bool on)
{
	if (!tf_is_return(tf) || tf_exit_on_graph(tf))
		return;
	if (on)
		enable_kprobe(&tf->rp.kp);
	else
		disable_kprobe(&tf->rp.kp);
}

#endif /* CONFIG_FPROBE */

/* ---- Registration with tracepoints and the hook ---- */

static unsigned long tf_sym_lookup(void *priv, const char *name)
{
	return kallsyms_lookup_name(name);
}

/*
 * Whether another registered tprobe has the stub on @tpoint.  Several
 * tprobes share one stub: the tracepoint core takes a probe once, and
 * the stub leaves the tracepoint with the last of them.  A second tprobe
 * on a tracepoint shares its stub rather than failing with -EEXIST.
 */
static bool tf_stub_shared(const struct trace_fprobe *tf,
			   const struct tracepoint *tpoint)
{
	struct dyn_event *pos;
	struct trace_fprobe *other;

	lockdep_assert_held(&event_mutex);
	for_each_dyn_event(pos) {
		if (!is_tf(pos))
			continue;
		other = to_tf(pos);
		if (other != tf && other->registered && other->tpoint == tpoint)
			return true;
	}
	return false;
}

/*
 * The module that holds the function @sym names, or NULL.  ftrace keeps
 * an ftrace_ops's filter when the module goes, and would hook whatever
 * comes to the same address later, so a probe on a module's function
 * must leave it before the module goes.
 */
static struct module *tf_func_module(const char *sym)
{
	unsigned long addr = kallsyms_lookup_name(sym);
	struct module *mod;

	preempt_disable();
	mod = __module_text_address(addr);
	preempt_enable();
	return mod;
}

/* The stub goes on the tracepoint, then the fprobe on the stub */
static int tf_register_tpoint(struct trace_fprobe *tf)
{
	struct tracepoint *tpoint = tf->tpoint;
	unsigned long ip = (unsigned long)tpoint->probestub;
	bool shared = tf_stub_shared(tf, tpoint);
	int ret;

	if (!shared) {
		ret = tracepoint_probe_register_prio_may_exist(tpoint,
							       tpoint->probestub,
							       NULL, 0);
		if (ret < 0)
			return ret;
	}
	ret = tf_hook_addr(tf, ip);
	if (ret && !shared)
		tracepoint_probe_unregister(tpoint, tpoint->probestub, NULL);
	return ret;
}

/* Register @tf, armed when its event is enabled; a waiting tprobe waits */
static int tf_register_fprobe(struct trace_fprobe *tf)
{
	int ret;

	lockdep_assert_held(&event_mutex);
	ret = security_locked_down(LOCKDOWN_KPROBES);
	if (ret)
		return ret;
	if (tf->registered)
		return -EINVAL;
	ret = probe_prog_resolve_symbols(tf->tp.prog, tf_sym_lookup, NULL);
	if (ret)
		return ret;
	if (tf_is_tpoint(tf) && !tf->tpoint)
		return 0;
	if (tf_is_tpoint(tf))
		ret = tf_register_tpoint(tf);
	else
		ret = tf_hook_name(tf);
	tf->registered = !ret;
	if (!ret && !tf_is_tpoint(tf))
		tf->mod = tf_func_module(tf->tp.def->symbol);
	return ret;
}

static void tf_unregister_fprobe(struct trace_fprobe *tf)
{
	lockdep_assert_held(&event_mutex);
	if (!tf->registered)
		return;
	tf_unhook(tf);
	if (tf_is_tpoint(tf) && !tf_stub_shared(tf, tf->tpoint))
		tracepoint_probe_unregister(tf->tpoint, tf->tpoint->probestub,
					    NULL);
	tf->registered = false;
}

static void tf_disarm(struct probe_event *ev)
{
	struct trace_fprobe *tf;

	list_for_each_entry(tf, &ev->members, tp.member)
		if (tf->registered)
			tf_hook_enable(tf, false);
}

static int tf_arm(struct probe_event *ev)
{
	struct trace_fprobe *tf;

	list_for_each_entry(tf, &ev->members, tp.member)
		if (tf->registered)
			tf_hook_enable(tf, true);
	return 0;
}

/* ---- Life cycle of a probe ---- */

static void tf_free(struct trace_fprobe *tf)
{
	if (!tf)
		return;
	probe_event_destroy_probe(&tf->tp);
	kfree(tf);
}

/* A probe for @def, which it takes over, not yet on any event */
static struct trace_fprobe *tf_alloc(struct tpp_def *def, struct tracepoint *tpoint,
				     struct module *mod)
{
	struct trace_fprobe *tf = kzalloc(sizeof(*tf), GFP_KERNEL);
	int ret;

	if (!tf) {
		tpp_free(def);
		return ERR_PTR(-ENOMEM);
	}
	tf->tpoint = tpoint;
	tf->mod = mod;
	ret = probe_event_init_probe(&tf->tp, def, &tf_event_ops, &tf_dyn_ops);
	if (ret) {
		tf_free(tf);
		return ERR_PTR(ret);
	}
	return tf;
}

/* ---- Tracepoints by name ---- */

/**
 * struct tf_tp_query - looking a tracepoint up by name
 * @name: the tracepoint
 * @tpoint: result, or NULL
 * @mod: result: its module, or NULL
 * @get: take a reference on that module (nobody holds it loaded yet)
 */
struct tf_tp_query {
	const char *name;
	struct tracepoint *tpoint;
	struct module *mod;
	bool get;
};

static void tf_tp_kernel_cb(struct tracepoint *tp, void *priv)
{
	struct tf_tp_query *q = priv;

	if (!q->tpoint && !strcmp(tp->name, q->name))
		q->tpoint = tp;
}

static void tf_tp_module_cb(struct tracepoint *tp, struct module *mod,
			    void *priv)
{
	struct tf_tp_query *q = priv;

	if (q->tpoint || strcmp(tp->name, q->name))
		return;
	/* a module on its way out cannot be probed */
	if (q->get && mod && !try_module_get(mod))
		return;
	q->tpoint = tp;
	q->mod = mod;
}

/* The tracepoint @q->name in the kernel or any module (then referenced) */
static void tf_find_tpoint(struct tf_tp_query *q)
{
	for_each_kernel_tracepoint(tf_tp_kernel_cb, q);
	if (!q->tpoint) {
		q->get = true;
		for_each_module_tracepoint(tf_tp_module_cb, q);
	}
}

/* ---- Parsing the head: "f[N][:NAME] PLACE" and "t[:NAME] TRACEPOINT" ---- */

/**
 * struct tf_head - what the first two words of a definition say
 * @kind: 'f' or 't'
 * @maxactive: N of "fN", 0 when not given
 * @is_return: "%return", or an fprobe whose arguments read $retval
 * @w1: offset of the second word (the place)
 * @sym_len: length of the symbol or tracepoint name at @w1
 * @name: group and event spans
 */
struct tf_head {
	char kind;
	unsigned int maxactive;
	bool is_return;
	unsigned int w1;
	unsigned int sym_len;
	struct tpp_name name;
};

/* Only a digit right after the kind starts N; errors point at it */
static int tf_parse_maxactive(const char *cmd, unsigned int len,
			      struct tf_head *h, struct tpp_error *err)
{
	char buf[TPP_MAX_EVENT_NAME_LEN];

	if (!isdigit(cmd[1]))
		return 0;
	len--;
	if (len >= sizeof(buf))
		return tpp_error_set(err, TPP_E_MAXACT, 1, -EINVAL);
	memcpy(buf, cmd + 1, len);
	buf[len] = '\0';
	if (kstrtouint(buf, 0, &h->maxactive) || !h->maxactive)
		return tpp_error_set(err, TPP_E_MAXACT, 1, -EINVAL);
	if (h->maxactive > TPP_MAXACTIVE_MAX)
		return tpp_error_set(err, TPP_E_MAXACT_BIG, 1, -EINVAL);
	return 0;
}

/* A tracepoint name is a C identifier's characters, nothing more */
static int tf_check_tpoint_name(const char *cmd, const struct tf_head *h,
				struct tpp_error *err)
{
	unsigned int i;

	for (i = 0; i < h->sym_len; i++) {
		if (!isalnum(cmd[h->w1 + i]) && cmd[h->w1 + i] != '_')
			return tpp_error_set(err, TPP_E_TPOINT_CHARS, h->w1 + i,
					     -EINVAL);
	}
	return 0;
}

/*
 * An fprobe whose arguments read $retval is a return probe without
 * "%return"; a tprobe has no $retval.  Only the first "$retval" of each
 * word counts, when no identifier character follows it.
 */
static int tf_scan_retval(const char *cmd, struct tf_head *h,
			  struct tpp_error *err)
{
	const char *w = cmd + h->w1, *r;
	unsigned int len = tpp_word_len(w);

	while (w[len] == ' ') {
		w += len + 1;
		len = tpp_word_len(w);
		r = strnstr(w, "$retval", len);
		if (!r || isalnum(r[7]) || r[7] == '_')
			continue;
		if (h->kind == 't')
			return tpp_error_set(err, TPP_E_RETVAL_ON_ENTRY,
					     r - cmd, -EINVAL);
		h->is_return = true;
		break;
	}
	return 0;
}

/* The place word: "SYM", "SYM%return" (fprobes) or "TRACEPOINT" */
static int tf_parse_place(const char *cmd, struct tf_head *h,
			  struct tpp_error *err)
{
	const char *w = cmd + h->w1;
	unsigned int len = tpp_word_len(w);
	const char *pct = memchr(w, '%', len);
	int ret;

	h->sym_len = pct ? pct - w : len;
	if (pct) {
		if (h->kind == 't' || len - h->sym_len != strlen("%return") ||
		    strncmp(pct, "%return", len - h->sym_len))
			return tpp_error_set(err, TPP_E_PLACE_SUFFIX,
					     pct - cmd, -EINVAL);
		h->is_return = true;
		return 0;
	}
	if (h->kind == 't') {
		ret = tf_check_tpoint_name(cmd, h, err);
		if (ret)
			return ret;
	}
	return tf_scan_retval(cmd, h, err);
}

/* Errors come in ABI order: maxactive, place, maxactive again, name */
static int tf_parse_head(const char *cmd, struct tf_head *h,
			 struct tpp_error *err)
{
	unsigned int len = tpp_word_len(cmd);
	const char *colon = memchr(cmd + 1, ':', len - 1);
	int ret;

	h->kind = cmd[0];
	ret = tf_parse_maxactive(cmd, colon ? colon - cmd : len, h, err);
	if (ret)
		return ret;
	h->w1 = len + 1;
	ret = tf_parse_place(cmd, h, err);
	if (ret)
		return ret;
	if (h->maxactive && !h->is_return)
		return tpp_error_set(err, TPP_E_MAXACT_ON_ENTRY, 1, -EINVAL);
	return tpp_parse_head_name(cmd, &h->name, err);
}

/* "SYM__entry", "SYM__exit" or "TP" ("_TP" when it starts with a digit) */
static void tf_auto_event(char *buf, size_t size, const char *cmd,
			  const struct tf_head *h)
{
	const char *sym = cmd + h->w1;
	int len = h->sym_len;

	if (h->kind == 't')
		snprintf(buf, size, "%s%.*s", isdigit(*sym) ? "_" : "", len, sym);
	else
		snprintf(buf, size, "%.*s__%s", len, sym,
			 h->is_return ? "exit" : "entry");
	tpp_fix_event_name(buf);
}

/* Fill in what tpp_parse_args() leaves to us: kind, names, place */
static int tf_fill_def(struct tpp_def *def, const char *cmd,
		       const struct tf_head *h)
{
	char event[TPP_MAX_EVENT_NAME_LEN];

	def->kind = h->kind;
	def->is_return = h->is_return;
	def->maxactive = h->maxactive;
	def->place_pos = h->w1;
	def->symbol = kmemdup_nul(cmd + h->w1, h->sym_len, GFP_KERNEL);
	if (!def->symbol)
		return -ENOMEM;
	tf_auto_event(event, sizeof(event), cmd, h);
	return tpp_set_names(def, cmd, &h->name, h->kind == 't' ?
			     TF_TPOINT_GROUP : TF_FUNC_GROUP, event);
}

/* ---- Creating a probe from its definition ---- */

static int tf_attach(struct trace_probe *tp)
{
	return tf_register_fprobe(tf_of(tp));
}

/*
 * ftrace refuses a function without an ftrace site with -EINVAL, as it
 * does a pattern that matches nothing: name the first for error_log.
 * Without fprobe, kprobes also refuse what they must not probe.
 */
static int tf_refused(const struct trace_probe *tp, int ret)
{
	unsigned long addr, size, off;

	if (ret != -EINVAL || tf_is_tpoint(tf_of(tp)))
		return TPP_E_NONE;
	addr = kallsyms_lookup_name(tp->def->symbol);
	if (!addr || !kallsyms_lookup_size_offset(addr, &size, &off))
		return TPP_E_NONE;
	if (!ftrace_location_range(addr, addr + size - 1))
		return TPP_E_NOTRACE;
	return tf_hook_refused(addr);
}

static void tf_detach(struct trace_probe *tp)
{
	tf_unregister_fprobe(tf_of(tp));
}

/* An fprobe and a tprobe never share an event */
static int tf_check(struct trace_probe *tp, struct probe_event *ev,
		    struct tpp_error *err)
{
	if (ev && probe_event_first(ev)->def->kind != tp->def->kind)
		return tpp_error_set(err, TPP_E_APPEND_KIND, 0, -EEXIST);
	return 0;
}

/**
 * struct tf_place - what a parse needs to know about the probed place
 * @tpoint: a tprobe's tracepoint, NULL while its module is not loaded
 * @mod: the module holding @tpoint, referenced for the parse
 * @func: the function whose BTF describes the arguments
 * @stub: room for the name of @tpoint's stub
 */
struct tf_place {
	struct tracepoint *tpoint;
	struct module *mod;
	const char *func;
	char stub[KSYM_NAME_LEN];
};

/*
 * A tprobe's arguments are the parameters of its tracepoint's stub.  A
 * tracepoint nobody knows may come with a module later.
 */
static int tf_find_place(const char *sym, const struct tf_head *h,
			 struct tf_place *pl, struct tpp_error *err)
{
	struct tf_tp_query q = { .name = sym };

	pl->func = sym;
	if (h->kind != 't')
		return 0;
	tf_find_tpoint(&q);
	pl->tpoint = q.tpoint;
	pl->mod = q.mod;
	if (q.tpoint)
		pl->func = kallsyms_lookup((unsigned long)q.tpoint->probestub,
					   NULL, NULL, NULL, pl->stub);
	else if (!IS_ENABLED(CONFIG_MODULES))
		return tpp_error_set(err, TPP_E_NO_TPOINT, h->w1, -EINVAL);
	return 0;
}

/* The arguments, parsed where the head says the probe sits */
static struct tpp_def *tf_parse(const char *cmd, struct tf_head *h,
				struct tf_place *pl, struct tpp_error *err)
{
	unsigned int flags = TPP_FPROBE;
	struct probe_kenv ke;
	struct tpp_def *def;
	char *sym;
	int ret;

	ret = tf_parse_head(cmd, h, err);
	if (ret)
		return ERR_PTR(ret);
	sym = kmemdup_nul(cmd + h->w1, h->sym_len, GFP_KERNEL);
	if (!sym)
		return ERR_PTR(-ENOMEM);
	ret = tf_find_place(sym, h, pl, err);
	if (ret) {
		kfree(sym);
		return ERR_PTR(ret);
	}
	flags |= h->is_return ? TPP_RETURN : TPP_ENTRY;
	if (h->kind == 't')
		flags |= TPP_TPOINT;
	probe_kenv_init(&ke);
	def = tpp_parse_args(cmd, 2, flags, pl->func, &ke.env, err);
	probe_kenv_destroy(&ke);
	kfree(sym);
	if (!IS_ERR(def) && tf_fill_def(def, cmd, h)) {
		tpp_free(def);
		def = ERR_PTR(tpp_error_set(err, TPP_E_NONE, 0, -ENOMEM));
	}
	return def;
}

/* Parse and register the fprobe or tprobe of @cmd; errors in @err */
static int tf_create(const char *cmd, struct tpp_error *err)
{
	struct tf_head h = { 0 };
	struct tf_place pl = { 0 };
	struct tpp_def *def;
	struct trace_fprobe *tf;
	int ret;

	/* "f" or "t" and at least a place, or it is someone else's */
	if ((cmd[0] != 'f' && cmd[0] != 't') || !strchr(cmd, ' '))
		return -ECANCELED;
	def = tf_parse(cmd, &h, &pl, err);
	if (IS_ERR(def)) {
		ret = PTR_ERR(def);
		goto put_mod;
	}
	tf = tf_alloc(def, pl.tpoint, pl.mod);
	if (IS_ERR(tf)) {
		ret = PTR_ERR(tf);
		goto put_mod;
	}
	ret = probe_event_add_probe(&tf->tp, &tf_event_ops, err);
	if (ret)
		tf_free(tf);
put_mod:
	module_put(pl.mod);
	return ret;
}

/* Create the probe defined by @raw; -ECANCELED when it is not ours */
static int tf_dyn_create(const char *raw)
{
	return probe_event_dyn_create(raw, "trace_fprobe", tf_create);
}

/* ---- dyn_event operations: listing, matching, removal ---- */

static char *tf_list_place(const struct trace_probe *tp)
{
	return kasprintf(GFP_KERNEL, "%s%s", tp->def->symbol,
			 tp->def->is_return ? "%return" : "");
}

/* "-:[GRP/]EVENT [SYM [ARG...]]": SYM without %return */
static bool tf_match_place(const struct trace_probe *tp, const char *word)
{
	return !strcmp(word, tp->def->symbol);
}

static void tf_free_probe(struct trace_probe *tp)
{
	tf_free(tf_of(tp));
}

static const struct probe_event_ops tf_event_ops = {
	.arm = tf_arm,
	.disarm = tf_disarm,
	.type_flag = TRACE_EVENT_FL_FPROBE,
	.head = PROBE_HEAD_IP,
	.check = tf_check,
	.attach = tf_attach,
	.refused = tf_refused,
	.detach = tf_detach,
	.free_probe = tf_free_probe,
	.list_place = tf_list_place,
	.match_place = tf_match_place,
};

static struct dyn_event_operations tf_dyn_ops =
	PROBE_EVENT_DYN_OPS(tf_dyn_create, probe_event_dyn_free);

/*
 * ---- Modules: probes follow their module ----
 *
 * A tprobe follows its tracepoint's module, an fprobe the module of its
 * function: it leaves the function when the module goes, and the event
 * waits, listed, until a module that has the function comes.  A kprobe
 * event on MOD:SYM follows its module too.
 */

#ifdef CONFIG_MODULES
/* A waiting tprobe whose tracepoint @mod brings registers now */
static void tf_module_coming(struct trace_fprobe *tf, struct module *mod)
{
	struct tf_tp_query q = { .name = tf->tp.def->symbol };
	int ret;

	for_each_tracepoint_in_module(mod, tf_tp_module_cb, &q);
	if (!q.tpoint)
		return;
	tf->tpoint = q.tpoint;
	tf->mod = mod;
	ret = tf_register_fprobe(tf);
	if (ret)
		pr_warn("Failed to register tprobe %s on %s: %d\n",
			probe_event_name(tf->tp.ev), module_name(mod), ret);
}

/* The tracepoint goes with @mod: unregister, and wait for it again */
static void tf_module_going(struct trace_fprobe *tf)
{
	tf_unregister_fprobe(tf);
	tf->tpoint = NULL;
	tf->mod = NULL;
}

static int tf_module_notify(struct notifier_block *nb, unsigned long val,
			    void *data)
{
	struct tp_module *tp_mod = data;
	struct dyn_event *pos;
	struct trace_fprobe *tf;

	if (val != MODULE_STATE_COMING && val != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&event_mutex);
	for_each_dyn_event(pos) {
		if (!is_tf(pos) || !tf_is_tpoint(to_tf(pos)))
			continue;
		tf = to_tf(pos);
		if (val == MODULE_STATE_COMING && !tf->tpoint)
			tf_module_coming(tf, tp_mod->mod);
		else if (val == MODULE_STATE_GOING && tf->mod == tp_mod->mod)
			tf_module_going(tf);
	}
	mutex_unlock(&event_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block tf_module_nb = {
	.notifier_call = tf_module_notify,
};

/* Whether a waiting fprobe's function is in @mod, which is coming */
static bool tf_func_comes(const struct trace_fprobe *tf, struct module *mod)
{
	return !tf_is_tpoint(tf) && !tf->registered &&
	       within_module(kallsyms_lookup_name(tf->tp.def->symbol), mod);
}

/*
 * Called before ftrace forgets a going module's functions and after it
 * knows a coming module's, so the hook comes off and goes on again.
 */
static int tf_func_module_notify(struct notifier_block *nb,
				 unsigned long val, void *data)
{
	struct module *mod = data;
	struct dyn_event *pos;
	struct trace_fprobe *tf;
	int ret;

	if (val != MODULE_STATE_COMING && val != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&event_mutex);
	for_each_dyn_event(pos) {
		if (!is_tf(pos) || tf_is_tpoint(to_tf(pos)))
			continue;
		tf = to_tf(pos);
		if (val == MODULE_STATE_GOING && tf->mod == mod) {
			tf_unregister_fprobe(tf);
			tf->mod = NULL;
		} else if (val == MODULE_STATE_COMING && tf_func_comes(tf, mod)) {
			ret = tf_register_fprobe(tf);
			if (ret)
				pr_warn("Failed to register fprobe %s on %s: %d\n",
					probe_event_name(tf->tp.ev),
					module_name(mod), ret);
		}
	}
	mutex_unlock(&event_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block tf_func_module_nb = {
	.notifier_call = tf_func_module_notify,
};

static int __init tf_watch_modules(void)
{
	int ret = register_module_notifier(&tf_func_module_nb);

	return ret ? ret : register_tracepoint_module_notifier(&tf_module_nb);
}
#else
#define tf_watch_modules()	0
#endif

/* ---- Start-up ---- */

/* At core_initcall, so that boot-time users find fprobe events there */
static __init int tf_init_early(void)
{
	int ret = dyn_event_register(&tf_dyn_ops);

	if (ret)
		return ret;
	return tf_watch_modules();
}
core_initcall(tf_init_early);
