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

/* What a record starts with after struct trace_entry */
enum pev_head {
	PEV_HEAD_IP,		/* unsigned long __probe_ip */
	PEV_HEAD_RET,		/* __probe_func, then __probe_ret_ip */
};

/* pev.flags: who the event writes for */
#define PEV_F_TRACE	BIT(0)	/* some trace instance enabled it */
#define PEV_F_PERF	BIT(1)	/* perf (and BPF) use it */

/**
 * struct pev_ops - what the probe type does for its event
 * @arm: start hitting on every member probe; 0 or a negative errno, in
 *	which case nothing stays armed
 * @disarm: stop hitting on every member probe
 */
struct pev_ops {
	int (*arm)(struct pev *ev);
	void (*disarm)(struct pev *ev);
};

/**
 * struct pev - one probe event
 * @call: the ftrace event; @call.data points back here
 * @class: its class; @class.system is the group
 * @funcs: its printer
 * @head: record header kind
 * @flags: PEV_F_*, read locklessly at hits
 * @members: the probe type's probe points, in creation order
 * @links: trace_event_file links this event writes to (RCU)
 * @layout: record layout and print format, owned
 * @ops: the probe type's callbacks
 */
struct pev {
	struct trace_event_call call;
	struct trace_event_class class;
	struct trace_event_functions funcs;
	enum pev_head head;
	unsigned int flags;
	struct list_head members;
	struct list_head links;
	struct probe_prog *layout;
	const struct pev_ops *ops;
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
	return sizeof(struct trace_entry) +
	       (head == PEV_HEAD_RET ? 2 : 1) * sizeof(unsigned long);
}

struct pev *pev_alloc(const struct tpp_def *def, enum pev_head head,
		      const struct pev_ops *ops, int type_flag);
void pev_free(struct pev *ev);
int pev_register(struct pev *ev);
int pev_unregister(struct pev *ev);
struct pev *pev_find(const char *group, const char *event);
int pev_reg(struct trace_event_call *call, enum trace_reg type, void *data);

char *pev_join_words(const char *raw);
void pev_log_err(const char *loc, const char *cmd,
		 const struct tpp_error *err);
int pev_register_error(unsigned int place_pos, int ret,
		       struct tpp_error *err);

#endif /* _TRACE_PROBE_EVENT_H */
