/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event side of a probe: one ftrace event (events/GRP/EVENT) that one or
 * more probe points write.  A probe type (kprobe, ...) embeds nothing of it;
 * it allocates a struct probe_event, links its probe points to it and tells it, by
 * &probe_event_ops, how to arm and disarm them.
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

#include "probe_fetch.h"

struct probe_event;
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
};

/**
 * struct probe_event - one probe event
 * @call: the ftrace event; @call.data points back here
 * @class: its class; @class.system is the group
 * @funcs: its printer
 * @head: record header kind
 * @flags: PROBE_EVENT_F_*, read locklessly at hits
 * @armed: @ops->arm succeeded and @ops->disarm did not follow yet
 * @name_hash: full_name_hash() of @call.name, for probe_event_find()
 * @batch: on the list of events whose arming waits for the end of a group
 *	enable or disable (see trace_probe_batch_begin()); empty otherwise
 * @members: the probe type's probe points, in creation order
 * @links: trace_event_file links this event writes to (RCU)
 * @off_gp: RCU state when a trace file last stopped taking its records
 * @layout: record layout and print format, owned
 * @ops: the probe type's callbacks
 * @data: the probe type's, for the whole event; it frees it
 */
struct probe_event {
	struct trace_event_call call;
	struct trace_event_class class;
	struct trace_event_functions funcs;
	enum probe_event_head head;
	unsigned int flags;
	bool armed;
	u32 name_hash;
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

struct probe_event *probe_event_alloc(const struct tpp_def *def, enum probe_event_head head,
				      const struct probe_event_ops *ops, int type_flag);
void probe_event_free(struct probe_event *ev);
int probe_event_register(struct probe_event *ev);
bool probe_event_busy(struct probe_event *ev);
int probe_event_unregister(struct probe_event *ev);
struct probe_event *probe_event_find(const char *group, const char *event);
int probe_event_reg(struct trace_event_call *call, enum trace_reg type, void *data);

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
int probe_event_command(const char *raw, struct dyn_event_operations *ops);

char *probe_event_join_words(const char *raw);
int probe_event_dyn_create(const char *raw, const char *loc,
			   int (*create)(const char *cmd, struct tpp_error *err));
void probe_event_show_args(struct seq_file *m, const struct tpp_def *def);
bool probe_event_match_name(const struct probe_event *ev, const char *system,
			    const char *event);
bool probe_event_match_args(const struct tpp_def *def, int argc, const char **argv);
void probe_event_log_err(const char *loc, const char *cmd,
			 const struct tpp_error *err);
int probe_event_register_error(unsigned int place_pos, int ret,
			       struct tpp_error *err);

#endif /* _TRACE_PROBE_EVENT_H */
