// SPDX-License-Identifier: GPL-2.0
/*
 * Uprobe-based event tracer: "p" and "r" definitions on a file offset,
 * written to uprobe_events or dynamic_events, become ftrace events written
 * when any process runs the probed instruction (or returns from the
 * probed function).
 *
 *	p|r[:[GRP/][EVENT]] PATH:OFFSET[%return][(REF_CTR_OFFSET)] [FETCHARGS]
 *
 * The head is parsed here; the arguments go to the pure parser with
 * TPP_USER, which makes the compiler emit the faulting user-memory form of
 * every read (probe_fetch.c).  A probe handler runs in the probed task and
 * may sleep, so the record is built once per hit in a per-CPU page, under
 * that page's mutex, and copied to every trace instance and to perf.
 *
 * Perf may ask for some processes only: the event keeps the perf events
 * that want a task (struct tu_perf), and the uprobe consumer's filter lets
 * the uprobes core put breakpoints into those processes only.
 *
 * Locking: definitions, events, registration and the per-CPU pages'
 * lifetime change under event_mutex; the handlers read the event's flags
 * and trace files under RCU.  A return probe's saved entry data has its
 * own lock (struct tu_entries).
 */
#define pr_fmt(fmt)	"trace_uprobe: " fmt

#include <linux/bpf.h>
#include <linux/ctype.h>
#include <linux/filter.h>
#include <linux/namei.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uprobes.h>

#include "trace.h"
#include "trace_dynevent.h"
#include "trace_probe.h"
#include "probe_event.h"
#include "probe_kenv.h"

#define TU_GROUP	"uprobes"
#define TU_LOG		"trace_uprobe"

/**
 * struct trace_uprobe - one uprobe of a probe event
 * @tp: what every probe type's probe has; @tp.def->offset is the file
 *	offset
 * @consumer: what the uprobes core calls
 * @uprobe: registered while the event is enabled, else NULL
 * @path: the probed file, referenced
 * @filename: the file as written
 * @ref_ctr_offset: file offset of the USDT semaphore, or 0
 * @nhits: hits, per CPU, for uprobe_profile
 * @entries: a return probe's saved entry data (@entry()), or NULL
 */
struct trace_uprobe {
	struct trace_probe tp;
	struct uprobe_consumer consumer;
	struct uprobe *uprobe;
	struct path path;
	char *filename;
	unsigned long ref_ctr_offset;
	unsigned long __percpu *nhits;
	struct tu_entries *entries;
};

/**
 * struct tu_perf - which processes perf wants probed, per event
 * @lock: guards the rest against the consumer filter
 * @nr_systemwide: perf events on every process
 * @events: perf events on one task each, by &perf_event.hw.tp_list
 */
struct tu_perf {
	rwlock_t lock;
	int nr_systemwide;
	struct list_head events;
};

/* Defined with their callbacks, below */
static struct dyn_event_operations tu_dyn_ops;
static const struct probe_event_ops tu_event_ops;

static inline bool is_tu(struct dyn_event *ev)
{
	return ev->ops == &tu_dyn_ops;
}

static inline struct trace_uprobe *to_tu(struct dyn_event *ev)
{
	return container_of(ev, struct trace_uprobe, tp.devent);
}

static inline struct trace_uprobe *tu_of(const struct trace_probe *tp)
{
	return container_of(tp, struct trace_uprobe, tp);
}

static inline bool tu_is_return(const struct trace_uprobe *tu)
{
	return tu->tp.def->is_return;
}

static inline unsigned long tu_offset(const struct trace_uprobe *tu)
{
	return tu->tp.def->offset;
}

static struct trace_uprobe *tu_first(struct probe_event *ev)
{
	struct trace_probe *tp = probe_event_first(ev);

	return tp ? tu_of(tp) : NULL;
}

static struct tu_perf *tu_perf_of(const struct trace_uprobe *tu)
{
	return tu->tp.ev->data;
}

/* ---- Per-CPU record pages, while any uprobe event is enabled ---- */

/**
 * struct tu_page - where a hit builds its record
 * @lock: serializes the hits that use @rec (a task may migrate while it
 *	holds it), from building the record to the last copy of it
 * @rec: one page
 */
struct tu_page {
	struct mutex lock;	/* see above */
	void *rec;
};

static struct tu_page __percpu *tu_pages;
static unsigned int tu_pages_users;

/* A record is cut to a page, and to what perf takes */
#define TU_MAX_REC	min_t(unsigned int, PAGE_SIZE, \
			      PERF_MAX_TRACE_SIZE - sizeof(u64))

static void tu_pages_free(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		free_page((unsigned long)per_cpu_ptr(tu_pages, cpu)->rec);
	free_percpu(tu_pages);
	tu_pages = NULL;
}

static int tu_pages_get(void)
{
	struct tu_page *page;
	int cpu;

	lockdep_assert_held(&event_mutex);
	if (tu_pages_users++)
		return 0;
	tu_pages = alloc_percpu(struct tu_page);
	if (!tu_pages)
		goto undo;
	for_each_possible_cpu(cpu) {
		page = per_cpu_ptr(tu_pages, cpu);
		mutex_init(&page->lock);
		page->rec = (void *)__get_free_page(GFP_KERNEL);
		if (!page->rec) {
			tu_pages_free();
			goto undo;
		}
	}
	return 0;
undo:
	tu_pages_users--;
	return -ENOMEM;
}

static void tu_pages_put(void)
{
	lockdep_assert_held(&event_mutex);
	if (!--tu_pages_users)
		tu_pages_free();
}

/* ---- The hit path ---- */

/**
 * struct tu_hit - one hit, shared by its trace and perf records
 * @page: the page the record was built in, locked; NULL until built
 * @size: bytes of the record
 * @head: the record's header words: the ip, or function and return ip
 * @base: where the probed file's offset 0 is mapped, for @+OFFS
 * @edata: what the program reads as entry data: @base, or a return
 *	probe's saved entry data starting with a copy of @base
 */
struct tu_hit {
	struct tu_page *page;
	unsigned int size;
	unsigned long head[2];
	unsigned long base;
	unsigned long *edata;
};

static void tu_build(const struct trace_uprobe *tu, struct pt_regs *regs,
		     struct tu_hit *hit)
{
	const struct probe_prog *prog = tu->tp.prog;
	unsigned int size = prog->fixed_size;

	if (hit->page)
		return;
	if (!hit->edata)
		hit->edata = &hit->base;
	if (probe_prog_has_dyn(prog))
		size += probe_prog_dyn_size(prog, regs, hit->edata, NULL);
	hit->size = min(size, TU_MAX_REC);
	hit->page = per_cpu_ptr(tu_pages, raw_smp_processor_id());
	mutex_lock(&hit->page->lock);
	probe_prog_store(prog, regs, hit->edata, hit->page->rec, hit->size,
			 NULL);
}

static void tu_hit_done(struct tu_hit *hit)
{
	if (hit->page)
		mutex_unlock(&hit->page->lock);
}

static void tu_fill_head(const struct trace_uprobe *tu, void *rec,
			 const struct tu_hit *hit)
{
	unsigned long *head = (unsigned long *)((struct trace_entry *)rec + 1);

	head[0] = hit->head[0];
	if (tu_is_return(tu))
		head[1] = hit->head[1];
}

/* The header, then the arguments as built */
static void tu_fill(const struct trace_uprobe *tu, void *rec, const struct tu_hit *hit)
{
	unsigned int hdr = tu->tp.prog->hdr_size;

	tu_fill_head(tu, rec, hit);
	memcpy(rec + hdr, hit->page->rec + hdr, hit->size - hdr);
}

static void tu_trace(const struct trace_uprobe *tu, struct pt_regs *regs,
		     struct tu_hit *hit)
{
	struct probe_event_link *link;
	struct trace_event_buffer fbuffer __uninitialized;
	void *rec;
	int path;

	tu_build(tu, regs, hit);
	rcu_read_lock();
	probe_event_for_each_file(tu->tp.ev, link) {
		path = probe_record_path(link->file);
		if (path < 0)
			continue;
		if (path == TRACE_EVENT_PATH_FILTER) {
			tu_fill_head(tu, hit->page->rec, hit);
			if (probe_record_filter(link->file, hit->page->rec,
						hit->size))
				continue;
		}
		rec = probe_record_reserve(&fbuffer, path, link->file, hit->size);
		if (!rec)
			continue;
		tu_fill(tu, rec, hit);
		probe_record_commit(&fbuffer, path, NULL);
	}
	rcu_read_unlock();
}

#ifdef CONFIG_PERF_EVENTS
/* ---- Entry data of return probes ---- */

/*
 * A uretprobe reads its @entry() values when the function is entered and
 * records them when it returns, and the uprobes core keeps nothing for a
 * consumer in between.  So each such probe has TU_ENTRY_SLOTS slots: the
 * entry handler fills one for its task; the return handler takes the
 * task's slot whose stack pointer is the nearest at or below its own (a
 * call returns at or above the stack pointer of its entry, and calls in
 * flight return in order), and frees the task's slots below that: their
 * frames were dropped by a longjmp().  A full pool gives up its oldest
 * slot.  A return without a slot (a fork() child returning from its
 * parent's call, a slot given up) records its @entry() values as faults.
 */
#define TU_ENTRY_SLOTS	64

enum tu_slot_state { TU_SLOT_FREE, TU_SLOT_BUSY, TU_SLOT_LIVE };

/**
 * struct tu_slot - the entry data of one call in flight
 * @task: the task that made the call
 * @start_time: @task's, so that a new task at the same address is another
 * @sp: user stack pointer at the entry
 * @seq: when the slot was filled, to give up the oldest
 * @state: FREE; BUSY while a handler fills or reads it; LIVE in between
 * @data: the entry data, probe_prog_edata_size() bytes; the first word
 *	is where the file is mapped, as the handler reading it sees it
 */
struct tu_slot {
	struct task_struct *task;
	u64 start_time;
	unsigned long sp;
	u64 seq;
	enum tu_slot_state state;
	unsigned long data[];
};

/**
 * struct tu_entries - the slots of one uretprobe
 * @lock: guards the slots' states and keys, not their data
 * @seq: fill count
 * @stride: bytes per slot
 * @none_lock: serializes the returns that use @none
 * @none: zeroed entry data for a return without a slot
 * @slots: TU_ENTRY_SLOTS slots of @stride bytes
 */
struct tu_entries {
	spinlock_t lock;	/* see above */
	u64 seq;
	unsigned int stride;
	struct mutex none_lock;	/* see above */
	unsigned long *none;
	u8 slots[];
};

static struct tu_slot *tu_slot_at(struct tu_entries *e, unsigned int i)
{
	return (struct tu_slot *)(e->slots + i * e->stride);
}

static void tu_entries_free(struct tu_entries *e)
{
	if (e)
		kfree(e->none);
	kvfree(e);
}

static struct tu_entries *tu_entries_alloc(unsigned int size)
{
	unsigned int stride = ALIGN(sizeof(struct tu_slot) + size,
				    sizeof(long));
	struct tu_entries *e;

	e = kvzalloc(struct_size(e, slots, (size_t)stride * TU_ENTRY_SLOTS),
		     GFP_KERNEL);
	if (!e)
		return NULL;
	e->none = kzalloc(size, GFP_KERNEL);
	if (!e->none) {
		tu_entries_free(e);
		return NULL;
	}
	spin_lock_init(&e->lock);
	mutex_init(&e->none_lock);
	e->stride = stride;
	return e;
}

/* A free slot, else the oldest live one; NULL when all are busy */
static struct tu_slot *tu_slot_get(struct tu_entries *e)
{
	struct tu_slot *slot, *old = NULL;
	unsigned int i;

	for (i = 0; i < TU_ENTRY_SLOTS; i++) {
		slot = tu_slot_at(e, i);
		if (slot->state == TU_SLOT_FREE)
			return slot;
		if (slot->state == TU_SLOT_LIVE && (!old || slot->seq < old->seq))
			old = slot;
	}
	return old;
}

static void tu_save_entry(struct trace_uprobe *tu, struct pt_regs *regs,
			  unsigned long base)
{
	struct tu_entries *e = tu->entries;
	struct tu_slot *slot;

	spin_lock(&e->lock);
	slot = tu_slot_get(e);
	if (slot)
		slot->state = TU_SLOT_BUSY;
	spin_unlock(&e->lock);
	if (!slot)
		return;
	/* may fault pages in: not under the lock */
	slot->data[0] = base;
	probe_prog_save_entry(tu->tp.prog, regs, slot->data);
	spin_lock(&e->lock);
	slot->task = current;
	slot->start_time = current->start_time;
	slot->sp = user_stack_pointer(regs);
	slot->seq = ++e->seq;
	slot->state = TU_SLOT_LIVE;
	spin_unlock(&e->lock);
}

static bool tu_slot_mine(const struct tu_slot *slot)
{
	return slot->state == TU_SLOT_LIVE && slot->task == current &&
	       slot->start_time == current->start_time;
}

/* The slot of the call returning with stack pointer @sp, made BUSY */
static struct tu_slot *tu_slot_find(struct tu_entries *e, unsigned long sp)
{
	struct tu_slot *slot, *best = NULL;
	unsigned int i;

	spin_lock(&e->lock);
	for (i = 0; i < TU_ENTRY_SLOTS; i++) {
		slot = tu_slot_at(e, i);
		if (!tu_slot_mine(slot) || slot->sp > sp)
			continue;
		/* nearer, or the later of a tail call's two */
		if (!best || slot->sp > best->sp ||
		    (slot->sp == best->sp && slot->seq > best->seq))
			best = slot;
	}
	for (i = 0; best && i < TU_ENTRY_SLOTS; i++) {
		slot = tu_slot_at(e, i);
		if (tu_slot_mine(slot) && slot->sp < best->sp)
			slot->state = TU_SLOT_FREE;
	}
	if (best)
		best->state = TU_SLOT_BUSY;
	spin_unlock(&e->lock);
	return best;
}

/* Point @hit at the entry data of its call; tu_entry_done() after */
static struct tu_slot *tu_entry_take(struct trace_uprobe *tu,
				     struct pt_regs *regs, struct tu_hit *hit)
{
	struct tu_entries *e = tu->entries;
	struct tu_slot *slot = tu_slot_find(e, user_stack_pointer(regs));

	if (slot) {
		hit->edata = slot->data;
	} else {
		mutex_lock(&e->none_lock);
		hit->edata = e->none;
	}
	hit->edata[0] = hit->base;
	return slot;
}

static void tu_entry_done(struct trace_uprobe *tu, struct tu_slot *slot)
{
	struct tu_entries *e = tu->entries;

	if (!slot) {
		mutex_unlock(&e->none_lock);
		return;
	}
	spin_lock(&e->lock);
	slot->state = TU_SLOT_FREE;
	spin_unlock(&e->lock);
}

/* Forget the calls in flight of an earlier arming; no handler runs */
static void tu_entries_reset(struct tu_entries *e)
{
	unsigned int i;

	for (i = 0; e && i < TU_ENTRY_SLOTS; i++)
		tu_slot_at(e, i)->state = TU_SLOT_FREE;
}

/*
 * BPF programs attached through perf decide whether perf records it.  A
 * uprobe handler may sleep, and so may its sleepable programs: the array
 * is read under the tasks_trace flavour of RCU, as the BPF core wants.
 */
static bool tu_run_bpf(struct trace_event_call *call, struct pt_regs *regs)
{
#ifdef CONFIG_BPF_EVENTS
	const struct bpf_prog_array *progs;
	u32 ret;

	if (!bpf_prog_array_valid(call))
		return true;
	rcu_read_lock_trace();
	progs = rcu_dereference_check(call->prog_array,
				      rcu_read_lock_trace_held());
	ret = bpf_prog_run_array_uprobe(progs, regs, bpf_prog_run);
	rcu_read_unlock_trace();
	return ret;
#else
	return true;
#endif
}

static void tu_perf(const struct trace_uprobe *tu, struct pt_regs *regs,
		    struct tu_hit *hit)
{
	struct trace_event_call *call = &tu->tp.ev->call;
	struct hlist_head *head;
	int size, rctx;
	void *rec;

	if (!tu_run_bpf(call, regs))
		return;
	tu_build(tu, regs, hit);
	/* perf adds a u32 size in front; keep the whole u64 aligned */
	size = ALIGN(hit->size + sizeof(u32), sizeof(u64)) - sizeof(u32);
	preempt_disable();
	head = this_cpu_ptr(call->perf_events);
	if (hlist_empty(head))
		goto out;
	rec = perf_trace_buf_alloc(size, NULL, &rctx);
	if (!rec)
		goto out;
	tu_fill(tu, rec, hit);
	memset(rec + hit->size, 0, size - hit->size);
	perf_trace_buf_submit(rec, size, rctx, call->event.type, 1, regs,
			      head, NULL);
out:
	preempt_enable();
}

static bool tu_perf_wants_mm(struct tu_perf *p, struct mm_struct *mm)
{
	struct perf_event *event;

	list_for_each_entry(event, &p->events, hw.tp_list)
		if (event->hw.target->mm == mm)
			return true;
	return false;
}

/* The consumer filter while perf has the event: does it want @mm? */
static bool tu_perf_filter(struct uprobe_consumer *uc, struct mm_struct *mm)
{
	struct tu_perf *p = tu_perf_of(container_of(uc, struct trace_uprobe, consumer));
	bool ret;

	if (READ_ONCE(p->nr_systemwide))
		return true;
	read_lock(&p->lock);
	ret = tu_perf_wants_mm(p, mm);
	read_unlock(&p->lock);
	return ret;
}
#else
static inline void tu_perf(const struct trace_uprobe *tu, struct pt_regs *regs,
			   struct tu_hit *hit)
{
}

static inline bool tu_perf_filter(struct uprobe_consumer *uc,
				  struct mm_struct *mm)
{
	return true;
}
#endif

/* BPF's bpf_get_func_ip() finds the probed address there */
static void tu_tell_bpf(struct trace_uprobe *tu, struct uprobe_dispatch_data *udd,
			unsigned long bp_addr)
{
	udd->tu = tu;
	udd->bp_addr = bp_addr;
	current->utask->vaddr = (unsigned long)udd;
}

/* A return probe records on the way out; its entry only counts and filters */
static int tu_entry(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct trace_uprobe *tu = container_of(uc, struct trace_uprobe, consumer);
	unsigned long ip = instruction_pointer(regs);
	struct tu_hit hit = { .head = { ip }, .base = ip - tu_offset(tu) };
	unsigned int flags = READ_ONCE(tu->tp.ev->flags);
	struct uprobe_dispatch_data udd;
	int ret = 0;

	this_cpu_inc(*tu->nhits);
	tu_tell_bpf(tu, &udd, ip);
	if (unlikely(!tu_pages))
		return 0;
	if ((flags & PROBE_EVENT_F_TRACE) && !tu_is_return(tu))
		tu_trace(tu, regs, &hit);
	if (flags & PROBE_EVENT_F_PERF) {
		if (!tu_perf_filter(uc, current->mm))
			ret = UPROBE_HANDLER_REMOVE;
		else if (!tu_is_return(tu))
			tu_perf(tu, regs, &hit);
	}
	tu_hit_done(&hit);
	/* a removed breakpoint makes no return for it */
	if (tu->entries && !ret)
		tu_save_entry(tu, regs, hit.base);
	return ret;
}

static int tu_exit(struct uprobe_consumer *uc, unsigned long func,
		   struct pt_regs *regs)
{
	struct trace_uprobe *tu = container_of(uc, struct trace_uprobe, consumer);
	struct tu_hit hit = {
		.head = { func, instruction_pointer(regs) },
		.base = func - tu_offset(tu),
	};
	unsigned int flags = READ_ONCE(tu->tp.ev->flags);
	struct uprobe_dispatch_data udd;
	struct tu_slot *slot = NULL;

	tu_tell_bpf(tu, &udd, func);
	if (unlikely(!tu_pages))
		return 0;
	if (tu->entries)
		slot = tu_entry_take(tu, regs, &hit);
	if (flags & PROBE_EVENT_F_TRACE)
		tu_trace(tu, regs, &hit);
	if (flags & PROBE_EVENT_F_PERF)
		tu_perf(tu, regs, &hit);
	tu_hit_done(&hit);
	if (tu->entries)
		tu_entry_done(tu, slot);
	return 0;
}

/* ---- Arming: uprobes are registered while the event is enabled ---- */

static int tu_uprobe_on(struct trace_uprobe *tu, bool perf)
{
	struct uprobe *uprobe;

	tu->consumer.filter = perf ? tu_perf_filter : NULL;
	tu_entries_reset(tu->entries);
	uprobe = uprobe_register(d_real_inode(tu->path.dentry), tu_offset(tu),
				 tu->ref_ctr_offset, &tu->consumer);
	if (IS_ERR(uprobe))
		return PTR_ERR(uprobe);
	tu->uprobe = uprobe;
	return 0;
}

/* Returns whether a uprobe went, which then wants uprobe_unregister_sync() */
static bool tu_uprobe_off(struct trace_uprobe *tu)
{
	if (!tu->uprobe)
		return false;
	uprobe_unregister_nosync(tu->uprobe, &tu->consumer);
	tu->uprobe = NULL;
	return true;
}

static void tu_uprobes_off(struct probe_event *ev)
{
	bool sync = false;
	struct trace_uprobe *tu;

	list_for_each_entry(tu, &ev->members, tp.member)
		sync |= tu_uprobe_off(tu);
	if (sync)
		uprobe_unregister_sync();
}

static void tu_disarm(struct probe_event *ev)
{
	tu_uprobes_off(ev);
	tu_pages_put();
}

static int tu_arm(struct probe_event *ev)
{
	bool perf = READ_ONCE(ev->flags) & PROBE_EVENT_F_PERF;
	struct trace_uprobe *tu;
	int ret;

	ret = tu_pages_get();
	if (ret)
		return ret;
	list_for_each_entry(tu, &ev->members, tp.member) {
		ret = tu_uprobe_on(tu, perf);
		if (ret) {
			tu_disarm(ev);
			return ret;
		}
	}
	return 0;
}

/* "(0x%lx)", or "(0x%lx <- 0x%lx)": uprobe ips print as numbers */
static void tu_show_place(struct probe_event *ev, struct trace_seq *s,
			  const unsigned long *head)
{
	if (ev->head == PROBE_HEAD_RET)
		trace_seq_printf(s, "0x%lx <- 0x%lx", head[1], head[0]);
	else
		trace_seq_printf(s, "0x%lx", head[0]);
}

/* ---- Perf: which processes get breakpoints ---- */

#ifdef CONFIG_PERF_EVENTS
/* Count @event in; true when the breakpoints already serve it */
static bool tu_perf_add(struct tu_perf *p, struct perf_event *event)
{
	struct task_struct *task = event->hw.target;
	bool served;

	write_lock(&p->lock);
	if (task) {
		/* a child inherits the parent's; exec and mmap install them */
		served = p->nr_systemwide || event->parent ||
			 event->attr.enable_on_exec ||
			 tu_perf_wants_mm(p, task->mm);
		list_add(&event->hw.tp_list, &p->events);
	} else {
		served = p->nr_systemwide;
		p->nr_systemwide++;
	}
	write_unlock(&p->lock);
	return served;
}

/* Count @event out; true when the breakpoints are still wanted as they are */
static bool tu_perf_del(struct tu_perf *p, struct perf_event *event)
{
	struct task_struct *task = event->hw.target;
	bool wanted;

	write_lock(&p->lock);
	if (task) {
		list_del(&event->hw.tp_list);
		wanted = p->nr_systemwide || (task->flags & PF_EXITING) ||
			 tu_perf_wants_mm(p, task->mm);
	} else {
		wanted = --p->nr_systemwide;
	}
	write_unlock(&p->lock);
	return wanted;
}

static int tu_perf_apply(struct probe_event *ev, bool add)
{
	struct trace_uprobe *tu;
	int ret;

	list_for_each_entry(tu, &ev->members, tp.member) {
		if (!tu->uprobe)
			continue;
		ret = uprobe_apply(tu->uprobe, &tu->consumer, add);
		if (ret)
			return ret;
	}
	return 0;
}

static int tu_perf_close(struct probe_event *ev, struct perf_event *event)
{
	if (tu_perf_del(ev->data, event))
		return 0;
	return tu_perf_apply(ev, false);
}

static int tu_perf_open(struct probe_event *ev, struct perf_event *event)
{
	int ret;

	if (tu_perf_add(ev->data, event))
		return 0;
	ret = tu_perf_apply(ev, true);
	if (ret)
		tu_perf_close(ev, event);
	return ret;
}
#endif

/*
 * The event's &trace_event_class.reg: as probe_event_reg(), but ftrace and perf
 * exclude each other (the consumer filter is perf's or nobody's), and perf
 * opens and closes choose the processes.
 */
static int tu_reg(struct trace_event_call *call, enum trace_reg type,
		  void *data)
{
	struct probe_event *ev = probe_event_from_call(call);
	unsigned int flags = ev->flags;

	switch (type) {
	case TRACE_REG_REGISTER:
		if (flags & PROBE_EVENT_F_PERF)
			return -EINTR;
		break;
	case TRACE_REG_UNREGISTER:
		probe_event_reg(call, type, data);
		return 0;
#ifdef CONFIG_PERF_EVENTS
	case TRACE_REG_PERF_REGISTER:
		if (flags & PROBE_EVENT_F_TRACE)
			return -EINTR;
		break;
	case TRACE_REG_PERF_OPEN:
		return tu_perf_open(ev, data);
	case TRACE_REG_PERF_CLOSE:
		return tu_perf_close(ev, data);
#endif
	default:
		break;
	}
	return probe_event_reg(call, type, data);
}

/* ---- Life cycle of a probe and its event ---- */

static void tu_free(struct trace_uprobe *tu)
{
	if (!tu)
		return;
	path_put(&tu->path);
	free_percpu(tu->nhits);
	tu_entries_free(tu->entries);
	probe_event_destroy_probe(&tu->tp);
	kfree(tu->filename);
	kfree(tu);
}

/* A probe for @def, which it takes over with @path; not on any event */
static struct trace_uprobe *tu_alloc(struct tpp_def *def, struct path *path,
				     const char *filename, unsigned long ref_ctr_offset)
{
	struct trace_uprobe *tu = kzalloc(sizeof(*tu), GFP_KERNEL);
	int ret;

	if (!tu) {
		path_put(path);
		tpp_free(def);
		return ERR_PTR(-ENOMEM);
	}
	tu->path = *path;
	tu->ref_ctr_offset = ref_ctr_offset;
	tu->consumer.handler = tu_entry;
	if (def->is_return)
		tu->consumer.ret_handler = tu_exit;
	ret = probe_event_init_probe(&tu->tp, def, &tu_event_ops, &tu_dyn_ops);
	tu->filename = kstrdup(filename, GFP_KERNEL);
	tu->nhits = alloc_percpu(unsigned long);
	if (!ret && def->is_return && probe_prog_edata_size(tu->tp.prog)) {
		tu->entries = tu_entries_alloc(probe_prog_edata_size(tu->tp.prog));
		if (!tu->entries)
			ret = -ENOMEM;
	}
	if (ret || !tu->filename || !tu->nhits) {
		tu_free(tu);
		return ERR_PTR(ret ?: -ENOMEM);
	}
	return tu;
}

/* A new event's perf state: perf opens choose the processes (tu_reg()) */
static int tu_init_event(struct probe_event *ev)
{
	struct tu_perf *perf = kzalloc(sizeof(*perf), GFP_KERNEL);

	if (!perf)
		return -ENOMEM;
	rwlock_init(&perf->lock);
	INIT_LIST_HEAD(&perf->events);
	ev->data = perf;
	ev->class.reg = tu_reg;
	return 0;
}

/* An appended probe may go while the event is enabled: its uprobe first */
static void tu_detach(struct trace_probe *tp)
{
	if (tu_uprobe_off(tu_of(tp)))
		uprobe_unregister_sync();
}

static bool tu_same_place(const struct trace_probe *a, const struct trace_probe *b)
{
	return d_real_inode(tu_of(a)->path.dentry) == d_real_inode(tu_of(b)->path.dentry);
}

/*
 * The uprobes core takes one USDT semaphore per probed place: another
 * semaphore, or none where another event has one, would fail when the
 * event is enabled.  Refused here, the caret on the place word.
 */
static int tu_check(struct trace_probe *tp, struct probe_event *ev,
		    struct tpp_error *err)
{
	const struct trace_uprobe *tu = tu_of(tp);
	struct dyn_event *pos;
	struct trace_uprobe *other;

	for_each_dyn_event(pos) {
		if (!is_tu(pos))
			continue;
		other = to_tu(pos);
		if (tu_same_place(tp, &other->tp) &&
		    tu_offset(tu) == tu_offset(other) &&
		    tu->ref_ctr_offset != other->ref_ctr_offset) {
			return tpp_error_set(err, TPP_E_REFCTR_MISMATCH,
					     tp->def->place_pos, -EINVAL);
		}
	}
	return 0;
}

/* ---- Parsing the head: "p|r[:NAME] PATH:OFFSET[%return][(REF)]" ---- */

/**
 * struct tu_head - what the first two words of a definition say
 * @is_return: 'r', or "%return"
 * @name: group and event spans, when word 0 is "p:..." or "r:..."
 * @w1: offset of the place word
 * @w1_end: its end
 * @colon: offset of the ':' before OFFSET (the last one in the word)
 * @offset: the file offset
 * @ref_ctr_offset: the semaphore's file offset, or 0
 * @nr_args: argument words
 */
struct tu_head {
	bool is_return;
	struct tpp_name name;
	unsigned int w1;
	unsigned int w1_end;
	unsigned int colon;
	unsigned long offset;
	unsigned long ref_ctr_offset;
	unsigned int nr_args;
};

/* kstrtoul() of cmd[@start, @end); an error points at @start */
static int tu_number(const char *cmd, unsigned int start, unsigned int end,
		     unsigned long *val, int id, struct tpp_error *err)
{
	char *num = kmemdup_nul(cmd + start, end - start, GFP_KERNEL);
	int ret;

	if (!num)
		return -ENOMEM;
	ret = kstrtoul(num, 0, val);
	kfree(num);
	return ret ? tpp_error_set(err, id, start, ret) : 0;
}

/* "(REF)" at the end of the place word; returns where OFFSET ends */
static int tu_parse_ref_ctr(const char *cmd, struct tu_head *h,
			    unsigned int *end, struct tpp_error *err)
{
	const char *open = memchr(cmd + h->colon, '(', h->w1_end - h->colon);
	const char *close;

	*end = h->w1_end;
	if (!open)
		return 0;
	close = memchr(open, ')', cmd + h->w1_end - open);
	if (!close)
		return tpp_error_set(err, TPP_E_REFCTR_OPEN, h->w1_end,
				     -EINVAL);
	if (close + 1 != cmd + h->w1_end)
		return tpp_error_set(err, TPP_E_REFCTR_SUFFIX, close + 1 - cmd,
				     -EINVAL);
	*end = open - cmd;
	return tu_number(cmd, open + 1 - cmd, close - cmd, &h->ref_ctr_offset,
			 TPP_E_REFCTR, err);
}

/* "OFFSET[%return][(REF)]" after the last ':' */
static int tu_parse_offset(const char *cmd, struct tu_head *h,
			   struct tpp_error *err)
{
	unsigned int start = h->colon + 1, end;
	const char *pct;
	int ret;

	ret = tu_parse_ref_ctr(cmd, h, &end, err);
	if (ret)
		return ret;
	pct = memchr(cmd + start, '%', end - start);
	if (pct) {
		if (cmd + end - pct != strlen("%return") ||
		    strncmp(pct, "%return", strlen("%return")))
			return tpp_error_set(err, TPP_E_PLACE_SUFFIX,
					     pct - cmd, -EINVAL);
		h->is_return = true;
		end = pct - cmd;
	}
	return tu_number(cmd, start, end, &h->offset, TPP_E_UPROBE_OFFS, err);
}

/*
 * Hold the file @name in @path: 0, a negative errno when there is no such
 * file, or 1 (nothing held) when it is not a regular file.
 */
static int tu_hold_file(const char *name, struct path *path)
{
	int ret = kern_path(name, LOOKUP_FOLLOW, path);

	if (ret || d_is_reg(path->dentry))
		return ret;
	path_put(path);
	return 1;
}

/* The probed file must exist and be a regular file; @path is then held */
static int tu_lookup_file(const char *cmd, const struct tu_head *h,
			  struct path *path, struct tpp_error *err)
{
	char *name = kmemdup_nul(cmd + h->w1, h->colon - h->w1, GFP_KERNEL);
	int ret;

	if (!name)
		return -ENOMEM;
	ret = tu_hold_file(name, path);
	kfree(name);
	if (ret < 0)
		return tpp_error_set(err, TPP_E_NO_FILE, h->w1, ret);
	if (ret)
		return tpp_error_set(err, TPP_E_NOT_REGULAR, h->w1, -EINVAL);
	return 0;
}

/*
 * Whether the command is a uprobe at all (-ECANCELED if not), then, in
 * ABI order: too many arguments, the file, OFFSET, the name.  The
 * probed file is held in @path on success.
 */
static int tu_parse_head(const char *cmd, struct tu_head *h,
			 struct path *path, struct tpp_error *err)
{
	unsigned int len = tpp_word_len(cmd);
	const char *w, *colon, *past_limit = NULL;
	int ret;

	if ((cmd[0] != 'p' && cmd[0] != 'r') || !cmd[len])
		return -ECANCELED;
	h->is_return = cmd[0] == 'r';
	h->w1 = len + 1;
	h->w1_end = h->w1 + tpp_word_len(cmd + h->w1);
	for (w = cmd + h->w1_end; *w == ' '; w += tpp_word_len(w)) {
		w++;
		if (++h->nr_args == TPP_MAX_ARGS + 1)
			past_limit = w;
	}
	if (past_limit)
		return tpp_error_set(err, TPP_E_TOO_MANY_ARGS, past_limit - cmd,
				     -E2BIG);
	w = cmd + h->w1;
	colon = w;
	while (memchr(colon, ':', cmd + h->w1_end - colon))
		colon = (const char *)memchr(colon, ':',
					     cmd + h->w1_end - colon) + 1;
	if (!memchr(w, '/', h->w1_end - h->w1) || colon == w ||
	    !isdigit(*colon))
		return -ECANCELED;
	h->colon = colon - 1 - cmd;
	ret = tu_lookup_file(cmd, h, path, err);
	if (ret)
		return ret;
	ret = tu_parse_offset(cmd, h, err);
	if (!ret && cmd[1] == ':')
		ret = tpp_parse_event_name(cmd, 2, len - 2, &h->name, err);
	if (ret)
		path_put(path);
	return ret;
}

/* "p_FILE_0xOFFSET", FILE the file's base name up to a '.', '-' or '_' */
static void tu_auto_event(char *buf, size_t size, const char *filename,
			  unsigned long offset)
{
	const char *base = kbasename(filename);

	snprintf(buf, size, "p_%.*s_0x%lx", (int)strcspn(base, ".-_"), base,
		 offset);
}

/* Fill in what tpp_parse_args() leaves to us: kind, names, place */
static int tu_fill_def(struct tpp_def *def, const char *cmd,
		       const struct tu_head *h, const char *filename)
{
	char event[TPP_MAX_EVENT_NAME_LEN];

	def->kind = h->is_return ? 'r' : 'p';
	def->is_return = h->is_return;
	def->offset = h->offset;
	def->place_pos = h->w1;
	tu_auto_event(event, sizeof(event), filename, h->offset);
	return tpp_set_names(def, cmd, &h->name, TU_GROUP, event);
}

/* The arguments, parsed as a uprobe's */
static struct tpp_def *tu_parse_args(const char *cmd, const struct tu_head *h,
				     const char *filename,
				     struct tpp_error *err)
{
	unsigned int flags = TPP_USER | (h->is_return ? TPP_RETURN : 0);
	struct probe_kenv ke;
	struct tpp_def *def;

	probe_kenv_init(&ke);
	ke.env.btf = NULL;
	def = tpp_parse_args(cmd, 2, flags, NULL, &ke.env, err);
	probe_kenv_destroy(&ke);
	if (!IS_ERR(def) && tu_fill_def(def, cmd, h, filename)) {
		tpp_free(def);
		def = ERR_PTR(tpp_error_set(err, TPP_E_NONE, 0, -ENOMEM));
	}
	return def;
}

static int tu_create(const char *cmd, struct tpp_error *err)
{
	struct tu_head h = { 0 };
	struct tpp_def *def;
	struct path path;
	char *filename;
	struct trace_uprobe *tu;
	int ret;

	ret = tu_parse_head(cmd, &h, &path, err);
	if (ret)
		return ret;
	filename = kmemdup_nul(cmd + h.w1, h.colon - h.w1, GFP_KERNEL);
	def = filename ? tu_parse_args(cmd, &h, filename, err) :
			 ERR_PTR(-ENOMEM);
	if (IS_ERR(def)) {
		path_put(&path);
		kfree(filename);
		return PTR_ERR(def);
	}
	tu = tu_alloc(def, &path, filename, h.ref_ctr_offset);
	kfree(filename);
	if (IS_ERR(tu))
		return PTR_ERR(tu);
	ret = probe_event_add_probe(&tu->tp, &tu_event_ops, err);
	if (ret)
		tu_free(tu);
	return ret;
}

/* Create the probe defined by @raw; -ECANCELED when it is not ours */
static int tu_dyn_create(const char *raw)
{
	return probe_event_dyn_create(raw, TU_LOG, tu_create);
}

/* ---- dyn_event operations and the uprobe_events files ---- */

/* "PATH:0x%016lx", then "(0x%lx)" with a semaphore */
static char *tu_list_place(const struct trace_probe *tp)
{
	const struct trace_uprobe *tu = tu_of(tp);

	if (tu->ref_ctr_offset)
		return kasprintf(GFP_KERNEL, "%s:0x%0*lx(0x%lx)", tu->filename,
				 (int)(sizeof(void *) * 2), tu_offset(tu),
				 tu->ref_ctr_offset);
	return kasprintf(GFP_KERNEL, "%s:0x%0*lx", tu->filename,
			 (int)(sizeof(void *) * 2), tu_offset(tu));
}

static void tu_free_probe(struct trace_probe *tp)
{
	tu_free(tu_of(tp));
}

/*
 * No .attach: uprobes are registered while the event is enabled, so an
 * appended probe is not armed before the event is enabled again.
 */
static const struct probe_event_ops tu_event_ops = {
	.arm = tu_arm,
	.disarm = tu_disarm,
	.show_place = tu_show_place,
	.type_flag = TRACE_EVENT_FL_UPROBE | TRACE_EVENT_FL_CAP_ANY,
	.head = PROBE_HEAD_IP,
	.init_event = tu_init_event,
	.check = tu_check,
	.same_place = tu_same_place,
	.detach = tu_detach,
	.free_probe = tu_free_probe,
	.list_place = tu_list_place,
};

static struct dyn_event_operations tu_dyn_ops =
	PROBE_EVENT_DYN_OPS(tu_dyn_create, probe_event_dyn_free);

static int tu_profile_line(struct seq_file *m, struct dyn_event *ev)
{
	struct trace_uprobe *tu = to_tu(ev);
	unsigned long hits = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		hits += *per_cpu_ptr(tu->nhits, cpu);
	seq_printf(m, "  %s %-44s %15lu\n", tu->filename, probe_event_name(tu->tp.ev),
		   hits);
	return 0;
}

/* uprobe_events takes uprobes only: there is nothing to try next */
static int tu_command(const char *raw)
{
	return probe_event_command(raw, &tu_dyn_ops, TU_LOG);
}

static const struct probe_event_list tu_events_list = {
	.ops = &tu_dyn_ops,
	.line = probe_event_dyn_show,
	.command = tu_command,
};

static const struct probe_event_list tu_profile_list = {
	.ops = &tu_dyn_ops,
	.line = tu_profile_line,
};

/* ---- perf's uprobe PMU and BPF ---- */

#ifdef CONFIG_PERF_EVENTS
/**
 * bpf_get_uprobe_info - what a perf event on a uprobe event probes
 * @event: the perf event
 * @fd_type: set to BPF_FD_TYPE_UPROBE or BPF_FD_TYPE_URETPROBE
 * @filename: set to the probed file as written
 * @probe_offset: set to the file offset
 * @probe_addr: set to 0
 * @perf_type_tracepoint: @event was opened on the event's id (tracefs
 *	event), not through the uprobe PMU; either way @event's event has
 *	the probe
 *
 * Return: 0, or -EINVAL when @event is on no uprobe event.
 */
int bpf_get_uprobe_info(const struct perf_event *event, u32 *fd_type,
			const char **filename, u64 *probe_offset,
			u64 *probe_addr, bool perf_type_tracepoint)
{
	struct trace_event_call *call = event->tp_event;
	struct trace_uprobe *tu;

	tu = tu_first(probe_event_from_call(call));
	if (!tu)
		return -EINVAL;
	*fd_type = tu_is_return(tu) ? BPF_FD_TYPE_URETPROBE :
				      BPF_FD_TYPE_UPROBE;
	*filename = tu->filename;
	*probe_offset = tu_offset(tu);
	*probe_addr = 0;
	return 0;
}

/* What perf asks for: no arguments, group "uprobes" */
static struct tpp_def *tu_local_def(unsigned long offs, bool is_return)
{
	struct tpp_def *def = kzalloc(sizeof(*def), GFP_KERNEL);

	if (!def)
		return NULL;
	def->kind = is_return ? 'r' : 'p';
	def->is_return = is_return;
	def->offset = offs;
	def->flags = TPP_USER;
	def->group = kstrdup(TU_GROUP, GFP_KERNEL);
	def->event = kstrdup("DUMMY_EVENT", GFP_KERNEL);
	if (!def->group || !def->event) {
		tpp_free(def);
		return NULL;
	}
	return def;
}

/**
 * create_local_trace_uprobe - a uprobe event for one perf event only
 * @name: the probed file
 * @offs: the file offset
 * @ref_ctr_offset: the USDT semaphore's file offset, or 0
 * @is_return: a uretprobe
 *
 * The event is not listed anywhere and has no arguments.  Called with
 * event_mutex held.
 *
 * Return: its call, or an ERR_PTR().
 */
struct trace_event_call *
create_local_trace_uprobe(char *name, unsigned long offs,
			  unsigned long ref_ctr_offset, bool is_return)
{
	struct tpp_def *def;
	struct path path;
	struct probe_event *ev;
	struct trace_uprobe *tu;
	int ret;

	ret = tu_hold_file(name, &path);
	if (ret)
		return ERR_PTR(ret < 0 ? ret : -EINVAL);
	def = tu_local_def(offs, is_return);
	if (!def) {
		path_put(&path);
		return ERR_PTR(-ENOMEM);
	}
	tu = tu_alloc(def, &path, name, ref_ctr_offset);
	if (IS_ERR(tu))
		return ERR_CAST(tu);
	ev = probe_event_new(def, &tu_event_ops);
	if (IS_ERR(ev)) {
		tu_free(tu);
		return ERR_CAST(ev);
	}
	probe_event_link(ev, &tu->tp);
	return &ev->call;
}

/**
 * destroy_local_trace_uprobe - release what create_local_trace_uprobe() made
 * @call: its call, no longer enabled
 */
void destroy_local_trace_uprobe(struct trace_event_call *call)
{
	struct trace_uprobe *tu = tu_first(probe_event_from_call(call));

	if (!tu || WARN_ON_ONCE(probe_event_enabled(tu->tp.ev)))
		return;
	probe_event_unlink(&tu->tp);
	tu_free(tu);
}
#endif /* CONFIG_PERF_EVENTS */

/* ---- Start-up ---- */

static __init int tu_init(void)
{
	int ret = dyn_event_register(&tu_dyn_ops);

	if (ret || tracing_init_dentry())
		return ret;
	trace_create_file("uprobe_events", TRACE_MODE_WRITE, NULL,
			  (void *)&tu_events_list, &probe_event_list_fops);
	trace_create_file("uprobe_profile", TRACE_MODE_READ, NULL,
			  (void *)&tu_profile_list, &probe_event_list_fops);
	return 0;
}
fs_initcall(tu_init);
