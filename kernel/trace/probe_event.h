/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event side of a probe: one ftrace event (events/GRP/EVENT) that one or
 * more probe points write.  A probe type (kprobe, ...) embeds nothing of it;
 * its probes embed a struct trace_probe, which the shared flow here puts on
 * an event, new or existing, and takes off again.  The type tells the event,
 * by &probe_event_ops, how to register, arm, list and free its probes.
 *
 * The event owns its record layout: a fetch program compiled from the first
 * definition, kept until the event goes, so that the trace buffer can be
 * printed while member probes come and go (appended probes have the same
 * fields by construction).
 *
 * Locking: everything but the hit path runs under event_mutex.  The hit path
 * reads @flags and walks @links under RCU (probe handlers run with
 * preemption disabled).
 */
#ifndef _TRACE_PROBE_EVENT_H
#define _TRACE_PROBE_EVENT_H

#include <linux/list.h>
#include <linux/trace_events.h>

#include "trace_dynevent.h"
#include "probe_fetch.h"

struct probe_event;
struct trace_probe;
struct trace_seq;

/* What a record starts with after struct trace_entry */
enum probe_event_head {
	PROBE_HEAD_IP,		/* unsigned long __probe_ip */
	PROBE_HEAD_RET,		/* __probe_func, then __probe_ret_ip */
	PROBE_HEAD_NONE,		/* nothing: the arguments follow */
};

/* probe_event.flags: who the event writes for */
#define PROBE_EVENT_F_TRACE	BIT(0)	/* some trace instance enabled it */
#define PROBE_EVENT_F_PERF	BIT(1)	/* perf (and BPF) use it */

/**
 * struct probe_event_ops - what the probe type does for its event
 * @arm: start hitting on every member probe; 0 or a negative errno, in
 *	which case nothing stays armed
 * @disarm: stop hitting on every member probe
 * @arm_many: optional: @arm every event on @evs (linked by &probe_event.batch, all
 *	of this type) at once; 0 or a negative errno, in which case none
 *	stays armed.  A group enable waits to arm events of a type that has it
 * @disarm_many: @disarm every event on @evs at once; needed with @arm_many
 * @file_on: optional: the event is being enabled in @file's trace
 *	instance; 0 or a negative errno, in which case it is not
 * @file_off: optional: undo @file_on, after the hit path let go of @file
 * @show_place: optional: what a trace line shows between parentheses,
 *	given the record's header words after struct trace_entry; without
 *	it, the probed ip symbolically (and the return site for
 *	PROBE_HEAD_RET)
 * @type_flag: TRACE_EVENT_FL_KPROBE and the like, for the type's events
 * @head: record header of the type's entry probes; return probes have
 *	PROBE_HEAD_RET
 * @single: an event has one probe only: a name in use is refused
 * @init_event: optional: set up a new event (&probe_event.data, its
 *	class) before it is registered; 0 or a negative errno
 * @check: optional: the type's own checks before @tp goes on @ev, the
 *	type's event of that name (NULL when there is none); 0, or a negative
 *	errno with the error in @err
 * @same_place: optional: whether two probes whose definitions give the
 *	same place probe the same object; without it, they do
 * @attach: optional: register the probe point of @tp, which is on its
 *	event; 0 or a negative errno, in which case nothing is registered
 * @refused: optional: why @attach failed with @ret, as the error_log
 *	message that names the reason (TPP_E_*), or TPP_E_NONE when the
 *	errno tells all there is to tell
 * @detach: optional: undo @attach, as the probe is taken out
 * @free_probe: free the type's probe object; see probe_event_dyn_free()
 * @list_kind: optional: the kind of a listing line ("r16"); without it,
 *	&tpp_def.kind and, for a return probe, &tpp_def.maxactive if set
 * @list_place: the place as a listing line shows it, in a new string
 *	(kfree() it), or NULL without memory
 * @match_place: optional: whether the place word of a "-:" line names
 *	@tp; without it, the word must be what @list_place gives
 *
 * @arm and @disarm see the event go from disabled to enabled anywhere and
 * back; @file_on and @file_off see every instance, for probe types whose
 * probe points depend on it (eprobes hook the attached event's file).
 */
struct probe_event_ops {
	int (*arm)(struct probe_event *ev);
	void (*disarm)(struct probe_event *ev);
	int (*arm_many)(struct list_head *evs);
	void (*disarm_many)(struct list_head *evs);
	int (*file_on)(struct probe_event *ev, struct trace_event_file *file);
	void (*file_off)(struct probe_event *ev, struct trace_event_file *file);
	void (*show_place)(struct probe_event *ev, struct trace_seq *s,
			   const unsigned long *head);
	int type_flag;
	enum probe_event_head head;
	bool single;
	int (*init_event)(struct probe_event *ev);
	int (*check)(struct trace_probe *tp, struct probe_event *ev,
		     struct tpp_error *err);
	bool (*same_place)(const struct trace_probe *a,
			   const struct trace_probe *b);
	int (*attach)(struct trace_probe *tp);
	int (*refused)(const struct trace_probe *tp, int ret);
	void (*detach)(struct trace_probe *tp);
	void (*free_probe)(struct trace_probe *tp);
	void (*list_kind)(struct seq_file *m, const struct trace_probe *tp);
	char *(*list_place)(const struct trace_probe *tp);
	bool (*match_place)(const struct trace_probe *tp, const char *word);
};

/**
 * struct probe_event - one probe event
 * @call: the ftrace event; @call.data points back here
 * @class: its class; @class.system is the group
 * @funcs: its printer
 * @head: record header kind
 * @flags: PROBE_EVENT_F_*, read locklessly at hits
 * @armed: @ops->arm succeeded and @ops->disarm did not follow yet
 * @name_hash: probe_event_name_hash() of @call.name: its key in the name index
 * @name_node: in the name index while registered (see probe_event_find())
 * @batch: on the list of events whose arming waits for the end of a group
 *	enable or disable (see probe_event_batch_begin()); empty otherwise
 * @members: the probe type's probe points, in creation order
 * @links: trace_event_file links this event writes to (RCU)
 * @off_gp: RCU state when a trace file last stopped taking its records
 * @layout: record layout and print format, owned
 * @ops: the probe type's callbacks
 * @data: the probe type's, for the whole event; kfree()d with the event
 */
struct probe_event {
	struct trace_event_call call;
	struct trace_event_class class;
	struct trace_event_functions funcs;
	enum probe_event_head head;
	unsigned int flags;
	bool armed;
	u32 name_hash;
	struct hlist_node name_node;
	struct list_head batch;
	struct list_head members;
	struct list_head links;
	unsigned long off_gp;
	struct probe_prog *layout;
	const struct probe_event_ops *ops;
	void *data;
};

/**
 * struct probe_event_link - a trace instance the event writes to
 * @list: in &probe_event.links
 * @file: the instance's file of this event
 * @rcu: deferred free
 */
struct probe_event_link {
	struct list_head list;
	struct trace_event_file *file;
	struct rcu_head rcu;
};

#define probe_event_for_each_file(ev, link) \
	list_for_each_entry_rcu(link, &(ev)->links, list)

/*
 * One record of a hit, for one trace file.
 *
 * Most hits go to a file with no filter, trigger, soft disable or pid
 * filter, in an instance without stack traces: those skip the event
 * machinery, which costs as much as the ring buffer write itself.  A file
 * with only a filter has the record built outside the ring buffer
 * (probe_record_filter()), so that a hit the filter rejects costs the
 * fetch and the test, and no reserve.  The handler keeps the path in a
 * local of its own, not in the trace_event_buffer whose address the full
 * path takes, so that it stays in a register.
 *
 * How a record of this hit goes to @file: an &enum trace_event_path, or -1
 * when it takes none (soft disabled, pid filter).
 */
static __always_inline int probe_record_path(struct trace_event_file *file)
{
	enum trace_event_path path = trace_event_file_path(file);

	if (path == TRACE_EVENT_PATH_FULL && trace_trigger_soft_disabled(file))
		return -1;
	return path;
}

/*
 * On the filter path, test @rec, a whole record of @size bytes built
 * outside the ring buffer (its trace_entry is filled here), and write it
 * when it matches.  True when that was done; false without such a record
 * (NULL): the hit then goes the full way, through probe_record_reserve().
 */
static __always_inline bool probe_record_filter(struct trace_event_file *file,
						void *rec, unsigned int size)
{
	if (!rec)
		return false;
	if (trace_event_plain_filter(file, rec))
		trace_event_plain_write(file, rec, size);
	return true;
}

/*
 * The record, or NULL when the buffer takes none (the hit then ends).  On
 * the plain path @fb keeps only the ring buffer.
 */
static __always_inline void *probe_record_reserve(struct trace_event_buffer *fb,
						  int path,
						  struct trace_event_file *file,
						  unsigned int size)
{
	if (path == TRACE_EVENT_PATH_PLAIN)
		return trace_event_plain_reserve(file, size, &fb->buffer);
	return trace_event_buffer_reserve(fb, file, size);
}

/* @regs: for the stack trace option, or NULL */
static __always_inline void probe_record_commit(struct trace_event_buffer *fb,
						int path, struct pt_regs *regs)
{
	if (path == TRACE_EVENT_PATH_PLAIN) {
		trace_event_plain_commit(fb->buffer);
		return;
	}
	fb->regs = regs;
	trace_event_buffer_commit(fb);
}

/**
 * struct trace_probe - what every probe type's probe object starts with
 * @devent: its entry on the dyn_event list (perf's one-off probes have
 *	none)
 * @member: in &probe_event.members
 * @ev: the event it writes; NULL while it is on none
 * @def: the parsed definition, owned
 * @prog: the compiled fetch program, owned
 *
 * struct trace_kprobe, trace_fprobe, trace_eprobe and trace_uprobe embed
 * it as their member tp.  It changes under event_mutex; the hit path reads
 * @ev and @prog, which stay while the probe point is registered.
 */
struct trace_probe {
	struct dyn_event devent;
	struct list_head member;
	struct probe_event *ev;
	struct tpp_def *def;
	struct probe_prog *prog;
};

static inline struct trace_probe *to_trace_probe(struct dyn_event *devent)
{
	return container_of(devent, struct trace_probe, devent);
}

/* The first probe of @ev, or NULL */
static inline struct trace_probe *probe_event_first(struct probe_event *ev)
{
	return list_first_entry_or_null(&ev->members, struct trace_probe, member);
}

#define probe_event_for_each_probe(ev, tp) \
	list_for_each_entry(tp, &(ev)->members, member)

static inline struct probe_event *probe_event_from_call(struct trace_event_call *call)
{
	return call->data;
}

static inline const char *probe_event_name(const struct probe_event *ev)
{
	return ev->call.name;
}

static inline const char *probe_event_group(const struct probe_event *ev)
{
	return ev->class.system;
}

static inline bool probe_event_enabled(const struct probe_event *ev)
{
	return READ_ONCE(ev->flags) & (PROBE_EVENT_F_TRACE | PROBE_EVENT_F_PERF);
}

static inline unsigned int probe_event_head_size(enum probe_event_head head)
{
	static const u8 words[] = {
		[PROBE_HEAD_IP] = 1, [PROBE_HEAD_RET] = 2, [PROBE_HEAD_NONE] = 0,
	};

	return sizeof(struct trace_entry) + words[head] * sizeof(unsigned long);
}

/*
 * The trace hit of kprobe and fprobe events, whose records start with a
 * PROBE_HEAD_IP or PROBE_HEAD_RET head: @ip, the probed function or
 * address, then for a return probe (@is_ret) @ret_ip.  The handlers
 * inline all of it, one frame a hit, with @is_ret a constant, so that an
 * entry hit does not test it.
 */
static __always_inline void probe_ip_fill_head(void *rec, unsigned long ip,
					       bool is_ret, unsigned long ret_ip)
{
	unsigned long *head = (unsigned long *)((struct trace_entry *)rec + 1);

	head[0] = ip;
	if (is_ret)
		head[1] = ret_ip;
}

/* Reserve, fill and commit; inlined once with the plain path a constant */
static __always_inline void
probe_ip_write(const struct trace_probe *tp, struct trace_event_file *file,
	       int path, struct pt_regs *regs, const unsigned long *edata,
	       unsigned int size, const struct probe_cache *cache,
	       unsigned long ip, bool is_ret, unsigned long ret_ip)
{
	struct trace_event_buffer fbuffer __uninitialized;
	void *rec = probe_record_reserve(&fbuffer, path, file, size);

	if (!rec)
		return;
	probe_ip_fill_head(rec, ip, is_ret, ret_ip);
	probe_prog_store(tp->prog, regs, edata, rec, size, cache);
	probe_record_commit(&fbuffer, path, regs);
}

static __always_inline void
probe_ip_trace_file(const struct trace_probe *tp, struct trace_event_file *file,
		    struct pt_regs *regs, const unsigned long *edata,
		    unsigned long ip, bool is_ret, unsigned long ret_ip)
{
	struct probe_cache cache __uninitialized;
	int path = probe_record_path(file);
	unsigned int size;
	void *rec;

	if (path < 0)
		return;
	size = tp->prog->fixed_size +
	       probe_prog_hit_size(tp->prog, regs, edata, &cache);
	if (path == TRACE_EVENT_PATH_PLAIN) {
		probe_ip_write(tp, file, TRACE_EVENT_PATH_PLAIN, regs, edata,
			       size, &cache, ip, is_ret, ret_ip);
		return;
	}
	if (path == TRACE_EVENT_PATH_FILTER) {
		rec = probe_prog_stage_record(tp->prog, regs, edata, size,
					      &cache);
		if (rec)
			probe_ip_fill_head(rec, ip, is_ret, ret_ip);
		if (probe_record_filter(file, rec, size))
			return;
	}
	probe_ip_write(tp, file, path, regs, edata, size, &cache, ip, is_ret,
		       ret_ip);
}

/* One record of the hit for each trace instance the event is enabled in */
static __always_inline void probe_ip_trace(const struct trace_probe *tp,
					   struct pt_regs *regs,
					   const unsigned long *edata,
					   unsigned long ip, bool is_ret,
					   unsigned long ret_ip)
{
	struct probe_event_link *link;

	probe_event_for_each_file(tp->ev, link)
		probe_ip_trace_file(tp, link->file, regs, edata, ip, is_ret,
				    ret_ip);
}

#ifdef CONFIG_PERF_EVENTS
void probe_ip_perf(const struct trace_probe *tp, struct pt_regs *regs,
		   const unsigned long *edata, unsigned long ip, bool is_ret,
		   unsigned long ret_ip);
#else
static inline void probe_ip_perf(const struct trace_probe *tp,
				 struct pt_regs *regs,
				 const unsigned long *edata, unsigned long ip,
				 bool is_ret, unsigned long ret_ip)
{
}
#endif

struct probe_event *probe_event_new(const struct tpp_def *def,
				    const struct probe_event_ops *ops);
void probe_event_free(struct probe_event *ev);
int probe_event_register(struct probe_event *ev);
bool probe_event_busy(struct probe_event *ev);
int probe_event_unregister(struct probe_event *ev);
struct probe_event *probe_event_find(const char *group, const char *event);
int probe_event_reg(struct trace_event_call *call, enum trace_reg type, void *data);

int probe_event_init_probe(struct trace_probe *tp, struct tpp_def *def,
			   const struct probe_event_ops *ops,
			   struct dyn_event_operations *dyn_ops);
void probe_event_destroy_probe(struct trace_probe *tp);
void probe_event_link(struct probe_event *ev, struct trace_probe *tp);
void probe_event_unlink(struct trace_probe *tp);
int probe_event_add_probe(struct trace_probe *tp, const struct probe_event_ops *ops,
			  struct tpp_error *err);
int probe_event_dyn_show(struct seq_file *m, struct dyn_event *devent);
bool probe_event_dyn_busy(struct dyn_event *devent);
int probe_event_dyn_free(struct dyn_event *devent);
bool probe_event_dyn_match(const char *system, const char *event, int argc,
			   const char **argv, struct dyn_event *devent);

/*
 * A probe type's dyn_event operations: listing, matching and the busy
 * check are the event object's; @create_fn runs one definition line and
 * @free_fn takes one probe out (probe_event_dyn_free() for most types).
 */
#define PROBE_EVENT_DYN_OPS(create_fn, free_fn) {	\
	.create = (create_fn),				\
	.free = (free_fn),				\
	.show = probe_event_dyn_show,			\
	.is_busy = probe_event_dyn_busy,		\
	.match = probe_event_dyn_match,			\
}

struct seq_file;
struct dyn_event;
struct dyn_event_operations;

/**
 * struct probe_event_list - a tracefs file that lists a probe type's events
 *	(kprobe_events, kprobe_profile, ...): created with probe_event_list_fops and
 *	this as its data
 * @ops: the type's dyn_event operations; only its events are listed
 * @line: prints one event's line
 * @command: runs one line written to the file; NULL for a read-only
 *	file.  A writable file clears the type's events on an O_TRUNC open.
 * @release_all: optional: what clears them (0 or a negative errno);
 *	without it, dyn_events_release_all()
 */
struct probe_event_list {
	struct dyn_event_operations *ops;
	int (*line)(struct seq_file *m, struct dyn_event *ev);
	int (*command)(const char *raw);
	int (*release_all)(void);
};

extern const struct file_operations probe_event_list_fops;
int probe_event_command(const char *raw, struct dyn_event_operations *ops,
			const char *loc);

char *probe_event_join_words(const char *raw);
int probe_event_dyn_create(const char *raw, const char *loc,
			   int (*create)(const char *cmd, struct tpp_error *err));
void probe_event_show_args(struct seq_file *m, const struct tpp_def *def);
bool probe_event_match_name(const struct probe_event *ev, const char *system,
			    const char *event);
bool probe_event_match_args(const struct tpp_def *def, int argc, const char **argv);
void probe_event_log_err(const char *loc, const char *cmd,
			 const struct tpp_error *err);

#endif /* _TRACE_PROBE_EVENT_H */
