/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event side of a probe: one ftrace event (events/GRP/EVENT) that one or
 * more probe points write.  A probe type (kprobe, ...) embeds nothing of it;
 * it allocates a struct pev, links its probe points to it and tells it, by
 * &pev_ops, how to arm and disarm them.
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

struct pev;
struct trace_seq;

/* What a record starts with after struct trace_entry */
enum pev_head {
	PEV_HEAD_IP,		/* unsigned long __probe_ip */
	PEV_HEAD_RET,		/* __probe_func, then __probe_ret_ip */
	PEV_HEAD_NONE,		/* nothing: the arguments follow */
};

/* pev.flags: who the event writes for */
#define PEV_F_TRACE	BIT(0)	/* some trace instance enabled it */
#define PEV_F_PERF	BIT(1)	/* perf (and BPF) use it */

/**
 * struct pev_ops - what the probe type does for its event
 * @arm: start hitting on every member probe; 0 or a negative errno, in
 *	which case nothing stays armed
 * @disarm: stop hitting on every member probe
 * @arm_many: optional: @arm every event on @evs (linked by &pev.batch, all
 *	of this type) at once; 0 or a negative errno, in which case none
 *	stays armed.  A group enable waits to arm events of a type that has it
 * @disarm_many: @disarm every event on @evs at once; needed with @arm_many
 * @file_on: optional: the event is being enabled in @file's trace
 *	instance; 0 or a negative errno, in which case it is not
 * @file_off: optional: undo @file_on, after the hit path let go of @file
 * @show_place: optional: what a trace line shows between parentheses,
 *	given the record's header words after struct trace_entry; without
 *	it, the probed ip symbolically (and the return site for
 *	PEV_HEAD_RET)
 *
 * @arm and @disarm see the event go from disabled to enabled anywhere and
 * back; @file_on and @file_off see every instance, for probe types whose
 * probe points depend on it (eprobes hook the attached event's file).
 */
struct pev_ops {
	int (*arm)(struct pev *ev);
	void (*disarm)(struct pev *ev);
	int (*arm_many)(struct list_head *evs);
	void (*disarm_many)(struct list_head *evs);
	int (*file_on)(struct pev *ev, struct trace_event_file *file);
	void (*file_off)(struct pev *ev, struct trace_event_file *file);
	void (*show_place)(struct pev *ev, struct trace_seq *s,
			   const unsigned long *head);
};

/**
 * struct pev - one probe event
 * @call: the ftrace event; @call.data points back here
 * @class: its class; @class.system is the group
 * @funcs: its printer
 * @head: record header kind
 * @flags: PEV_F_*, read locklessly at hits
 * @armed: @ops->arm succeeded and @ops->disarm did not follow yet
 * @name_hash: full_name_hash() of @call.name, for pev_find()
 * @batch: on the list of events whose arming waits for the end of a group
 *	enable or disable (see trace_probe_batch_begin()); empty otherwise
 * @members: the probe type's probe points, in creation order
 * @links: trace_event_file links this event writes to (RCU)
 * @off_gp: RCU state when a trace file last stopped taking its records
 * @layout: record layout and print format, owned
 * @ops: the probe type's callbacks
 * @data: the probe type's, for the whole event; it frees it
 */
struct pev {
	struct trace_event_call call;
	struct trace_event_class class;
	struct trace_event_functions funcs;
	enum pev_head head;
	unsigned int flags;
	bool armed;
	u32 name_hash;
	struct list_head batch;
	struct list_head members;
	struct list_head links;
	unsigned long off_gp;
	struct probe_prog *layout;
	const struct pev_ops *ops;
	void *data;
};

/**
 * struct pev_link - a trace instance the event writes to
 * @list: in &pev.links
 * @file: the instance's file of this event
 * @rcu: deferred free
 */
struct pev_link {
	struct list_head list;
	struct trace_event_file *file;
	struct rcu_head rcu;
};

#define pev_for_each_file(ev, link) \
	list_for_each_entry_rcu(link, &(ev)->links, list)

static inline struct pev *pev_from_call(struct trace_event_call *call)
{
	return call->data;
}

static inline const char *pev_name(const struct pev *ev)
{
	return ev->call.name;
}

static inline const char *pev_group(const struct pev *ev)
{
	return ev->class.system;
}

static inline bool pev_enabled(const struct pev *ev)
{
	return READ_ONCE(ev->flags) & (PEV_F_TRACE | PEV_F_PERF);
}

static inline unsigned int pev_head_size(enum pev_head head)
{
	static const u8 words[] = {
		[PEV_HEAD_IP] = 1, [PEV_HEAD_RET] = 2, [PEV_HEAD_NONE] = 0,
	};

	return sizeof(struct trace_entry) + words[head] * sizeof(unsigned long);
}

struct pev *pev_alloc(const struct tpp_def *def, enum pev_head head,
		      const struct pev_ops *ops, int type_flag);
void pev_free(struct pev *ev);
int pev_register(struct pev *ev);
bool pev_busy(struct pev *ev);
int pev_unregister(struct pev *ev);
struct pev *pev_find(const char *group, const char *event);
int pev_reg(struct trace_event_call *call, enum trace_reg type, void *data);

struct seq_file;
struct dyn_event;
struct dyn_event_operations;

/**
 * struct pev_list - a tracefs file that lists a probe type's events
 *	(kprobe_events, kprobe_profile, ...): created with pev_list_fops and
 *	this as its data
 * @ops: the type's dyn_event operations; only its events are listed
 * @line: prints one event's line
 * @command: runs one line written to the file; NULL for a read-only
 *	file.  A writable file clears the type's events on an O_TRUNC open.
 * @release_all: optional: what clears them (0 or a negative errno);
 *	without it, dyn_events_release_all()
 */
struct pev_list {
	struct dyn_event_operations *ops;
	int (*line)(struct seq_file *m, struct dyn_event *ev);
	int (*command)(const char *raw);
	int (*release_all)(void);
};

extern const struct file_operations pev_list_fops;
int pev_command(const char *raw, struct dyn_event_operations *ops);

char *pev_join_words(const char *raw);
int pev_dyn_create(const char *raw, const char *loc,
		   int (*create)(const char *cmd, struct tpp_error *err));
void pev_show_args(struct seq_file *m, const struct tpp_def *def);
bool pev_match_name(const struct pev *ev, const char *system,
		    const char *event);
bool pev_match_args(const struct tpp_def *def, int argc, const char **argv);
void pev_log_err(const char *loc, const char *cmd,
		 const struct tpp_error *err);
int pev_register_error(unsigned int place_pos, int ret,
		       struct tpp_error *err);

#endif /* _TRACE_PROBE_EVENT_H */
