// SPDX-License-Identifier: GPL-2.0
/*
 * Probe events: the ftrace event that probe points write, its fields,
 * printer, registration and enable bookkeeping.  See probe_event.h.
 */
#define pr_fmt(fmt)	"trace_probe: " fmt

#include <linux/ctype.h>
#include <linux/hashtable.h>
#include <linux/kprobes.h>
#include <linux/rcupdate.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/stringhash.h>
#include <linux/trace_events.h>

#include "trace.h"
#include "trace_dynevent.h"
#include "trace_output.h"
#include "probe_event.h"

/* ---- Fields and printing ---- */

static int probe_event_field(struct trace_event_call *call, const char *type,
			     const char *name, unsigned int offset, unsigned int size,
			     bool is_signed)
{
	return trace_define_field(call, type, name, offset, size, is_signed,
				  FILTER_OTHER);
}

static int probe_event_define_head(struct trace_event_call *call,
				   enum probe_event_head head)
{
	const unsigned int at = sizeof(struct trace_entry);
	const unsigned int sz = sizeof(unsigned long);
	int ret;

	if (head == PROBE_HEAD_NONE)
		return 0;
	if (head == PROBE_HEAD_IP)
		return probe_event_field(call, "unsigned long", "__probe_ip", at, sz,
				 false);
	ret = probe_event_field(call, "unsigned long", "__probe_func", at, sz, false);
	if (ret)
		return ret;
	return probe_event_field(call, "unsigned long", "__probe_ret_ip", at + sz, sz,
			 false);
}

static int probe_event_define_fields(struct trace_event_call *call)
{
	struct probe_event *ev = probe_event_from_call(call);
	const struct probe_field *f;
	unsigned int i;
	int ret;

	ret = probe_event_define_head(call, ev->head);
	for (i = 0; !ret && i < ev->layout->nr_fields; i++) {
		f = &ev->layout->fields[i];
		/* the bytes of a whole structure compare to nothing */
		if (f->btf)
			ret = trace_define_field(call, f->type, f->name,
						 f->offset, f->size, false,
						 FILTER_NONE);
		else
			ret = probe_event_field(call, f->type, f->name,
						f->offset, f->size,
						f->is_signed);
	}
	return ret;
}

static struct trace_event_fields probe_event_fields_array[] = {
	{ .type = TRACE_FUNCTION_TYPE, .define_fields = probe_event_define_fields },
	{}
};

/* What goes between the parentheses: the probe type's say, or the ips */
static bool probe_event_print_place(struct probe_event *ev, struct trace_seq *s,
				    const unsigned long *head, int flags)
{
	if (ev->ops->show_place) {
		ev->ops->show_place(ev, s, head);
		return !trace_seq_has_overflowed(s);
	}
	if (ev->head != PROBE_HEAD_RET)
		return seq_print_ip_sym(s, head[0], flags | TRACE_ITER_SYM_OFFSET);
	if (!seq_print_ip_sym(s, head[1], flags | TRACE_ITER_SYM_OFFSET))
		return false;
	trace_seq_puts(s, " <- ");
	return seq_print_ip_sym(s, head[0], flags & ~TRACE_ITER_SYM_OFFSET);
}

/* "NAME: (where)" then the arguments */
static enum print_line_t probe_event_print(struct trace_iterator *iter, int flags,
					   struct trace_event *event)
{
	struct probe_event *ev = container_of(event, struct probe_event, call.event);
	const unsigned long *head = (void *)(iter->ent + 1);
	struct trace_seq *s = &iter->seq;

	trace_seq_printf(s, "%s: (", probe_event_name(ev));
	if (!probe_event_print_place(ev, s, head, flags))
		goto out;
	trace_seq_putc(s, ')');
	if (probe_prog_print(ev->layout, iter->ent, iter->ent_size, s))
		goto out;
	trace_seq_putc(s, '\n');
out:
	return trace_handle_return(s);
}

static int probe_event_set_print_fmt(struct probe_event *ev)
{
	int len = probe_prog_print_fmt(ev->layout, NULL, 0);

	ev->call.print_fmt = kmalloc(len + 1, GFP_KERNEL);
	if (!ev->call.print_fmt)
		return -ENOMEM;
	probe_prog_print_fmt(ev->layout, ev->call.print_fmt, len + 1);
	return 0;
}

/* ---- Life cycle ---- */

static enum probe_event_head probe_event_head_of(const struct probe_event_ops *ops,
						 const struct tpp_def *def)
{
	return def->is_return ? PROBE_HEAD_RET : ops->head;
}

/* The key of a probe event's name in the name index (probe_event_find()) */
static u32 probe_event_name_hash(const char *name)
{
	return full_name_hash(NULL, name, strlen(name));
}

/* What probe_event_new() makes, but for &probe_event_ops.init_event */
static struct probe_event *probe_event_alloc(const struct tpp_def *def,
					     const struct probe_event_ops *ops)
{
	struct probe_event *ev = kzalloc(sizeof(*ev), GFP_KERNEL);

	if (!ev)
		return ERR_PTR(-ENOMEM);
	INIT_LIST_HEAD(&ev->members);
	INIT_LIST_HEAD(&ev->links);
	INIT_LIST_HEAD(&ev->batch);
	INIT_LIST_HEAD(&ev->class.fields);
	ev->head = probe_event_head_of(ops, def);
	ev->ops = ops;
	ev->layout = probe_prog_compile(def, probe_event_head_size(ev->head));
	if (IS_ERR(ev->layout)) {
		int ret = PTR_ERR(ev->layout);

		ev->layout = NULL;
		probe_event_free(ev);
		return ERR_PTR(ret);
	}
	ev->call.name = kstrdup(def->event, GFP_KERNEL);
	ev->name_hash = probe_event_name_hash(def->event);
	ev->class.system = kstrdup(def->group, GFP_KERNEL);
	if (!ev->call.name || !ev->class.system || probe_event_set_print_fmt(ev)) {
		probe_event_free(ev);
		return ERR_PTR(-ENOMEM);
	}
	ev->funcs.trace = probe_event_print;
	ev->call.event.funcs = &ev->funcs;
	ev->call.class = &ev->class;
	ev->call.flags = ops->type_flag;
	ev->call.data = ev;
	ev->class.fields_array = probe_event_fields_array;
	ev->class.reg = probe_event_reg;
	ev->off_gp = get_completed_synchronize_rcu();
	return ev;
}

/**
 * probe_event_new - a new, unregistered probe event for a parsed definition
 * @def: gives the group, the event name and the fields
 * @ops: the probe type's callbacks; &probe_event_ops.init_event has run
 *
 * Return: the event, with no probe on it, or an ERR_PTR().
 */
struct probe_event *probe_event_new(const struct tpp_def *def,
				    const struct probe_event_ops *ops)
{
	struct probe_event *ev = probe_event_alloc(def, ops);
	int ret;

	if (IS_ERR(ev) || !ops->init_event)
		return ev;
	ret = ops->init_event(ev);
	if (!ret)
		return ev;
	probe_event_free(ev);
	return ERR_PTR(ret);
}

/**
 * probe_event_free - release an event that is not (or no longer) registered
 * @ev: the event, or NULL
 */
void probe_event_free(struct probe_event *ev)
{
	if (!ev)
		return;
	WARN_ON_ONCE(!list_empty(&ev->batch));
	probe_prog_free(ev->layout);
	kfree(ev->data);
	kfree(ev->call.print_fmt);
	kfree(ev->call.name);
	kfree(ev->class.system);
	kfree(ev);
}

/*
 * Registered probe events by the hash of their name, under event_mutex.
 * Adding an event looks its name up first; with thousands of probe
 * events defined, walking them all on every add would cost more than the
 * rest of the add.
 */
static DEFINE_HASHTABLE(probe_event_names, 9);

/* The registered probe event called @group/@event, or NULL */
static struct probe_event *probe_event_lookup(const char *group,
					      const char *event, u32 hash)
{
	struct probe_event *ev;

	hash_for_each_possible(probe_event_names, ev, name_node, hash) {
		if (ev->name_hash == hash && !strcmp(event, ev->call.name) &&
		    !strcmp(group, ev->class.system))
			return ev;
	}
	return NULL;
}

/* Whether an event other than a probe event is called @group/@event */
static bool probe_event_name_foreign(const char *group, const char *event)
{
	struct trace_event_call *call;
	const char *name;

	/* Most names differ at their first byte, which costs them no call */
	list_for_each_entry(call, &ftrace_events, list) {
		if (call->class->reg == probe_event_reg)
			continue;
		name = trace_event_name(call);
		if (!name || name[0] != event[0])
			continue;
		if (!strcmp(event, name) && call->class->system &&
		    !strcmp(group, call->class->system))
			return true;
	}
	return false;
}

/**
 * probe_event_find - the event called @group/@event, of any kind
 * @group: its system
 * @event: its name
 *
 * Return: the probe event, ERR_PTR(-EEXIST) when an event of another kind
 * has the name, or NULL.  Caller holds event_mutex.
 */
struct probe_event *probe_event_find(const char *group, const char *event)
{
	struct probe_event *ev;

	lockdep_assert_held(&event_mutex);
	ev = probe_event_lookup(group, event, probe_event_name_hash(event));
	if (ev)
		return ev;
	return probe_event_name_foreign(group, event) ? ERR_PTR(-EEXIST) : NULL;
}

/**
 * probe_event_register - make the event visible under events/GRP/EVENT
 * @ev: from probe_event_new()
 *
 * The caller found the name free with probe_event_find() and has held
 * event_mutex since: every probe type looks the name up anyway, to append
 * to an event or to refuse a name that is taken, so registering does not
 * look it up again.
 *
 * Return: 0 or a negative errno.
 */
int probe_event_register(struct probe_event *ev)
{
	int ret;

	lockdep_assert_held(&event_mutex);
	if (!register_trace_event(&ev->call.event))
		return -ENODEV;
	ret = trace_add_event_call(&ev->call);
	if (ret) {
		unregister_trace_event(&ev->call.event);
		return ret;
	}
	hash_add(probe_event_names, &ev->name_node, ev->name_hash);
	return 0;
}

/* Whether @tr's buffers hold no record at all */
static bool probe_event_tr_empty(struct trace_array *tr)
{
#ifdef CONFIG_TRACER_MAX_TRACE
	if (tr->max_buffer.buffer && !ring_buffer_empty(tr->max_buffer.buffer))
		return false;
#endif
	return !tr->array_buffer.buffer ||
	       ring_buffer_empty(tr->array_buffer.buffer);
}

/*
 * Removing an event that was enabled in an instance marks the instance
 * (tr->clear_trace) for a clear of its buffers, lest a later event given
 * the same type id misread its records.  Whoever removed the event then
 * clears the marked instances, waiting a grace period for each.  An
 * instance whose buffers hold nothing has nothing to misread, once the
 * event stopped writing over a grace period ago (probe_event.off_gp), so that
 * removing one event after another, a "-:" line each, need not wait a
 * grace period each.
 *
 * With @unmark, take the mark off the instances whose buffers are empty.
 * Return: whether an instance is still marked.
 */
static bool probe_event_marked(bool unmark)
{
	struct trace_array *tr;
	bool marked = false;

	lockdep_assert_held(&event_mutex);
	mutex_lock(&trace_types_lock);
	list_for_each_entry(tr, &ftrace_trace_arrays, list) {
		if (unmark && tr->clear_trace && probe_event_tr_empty(tr))
			tr->clear_trace = false;
		marked |= tr->clear_trace;
	}
	mutex_unlock(&trace_types_lock);
	return marked;
}

/**
 * probe_event_busy - whether probe_event_unregister() refuses the event
 * @ev: a registered event
 *
 * Return: true while it is enabled or in use.  Caller holds event_mutex.
 */
bool probe_event_busy(struct probe_event *ev)
{
	lockdep_assert_held(&event_mutex);
	return probe_event_enabled(ev) || trace_event_dyn_busy(&ev->call);
}

/**
 * probe_event_unregister - remove the event from tracefs
 * @ev: a registered event
 *
 * When no instance was marked for a clear before, and the event stopped
 * writing over a grace period ago, unmarks the instances whose buffers
 * are empty: those it marked have nothing of it to misread.  A mark that
 * was there before belongs to another removal, of any event type, whose
 * clear has not run yet: then every mark stays.
 *
 * Return: 0, or -EBUSY while enabled or in use (then nothing changed).
 * Caller holds event_mutex.
 */
int probe_event_unregister(struct probe_event *ev)
{
	bool marked;
	int ret;

	lockdep_assert_held(&event_mutex);
	if (probe_event_busy(ev))
		return -EBUSY;
	marked = probe_event_marked(false);
	ret = trace_remove_event_call(&ev->call);
	if (ret)
		return ret;
	hash_del(&ev->name_node);
	if (!marked && poll_state_synchronize_rcu(ev->off_gp))
		probe_event_marked(true);
	return 0;
}

/* ---- Probes on their events ---- */

/**
 * probe_event_init_probe - set up what every probe type's probe shares
 * @tp: the probe, zeroed
 * @def: its definition, which it takes over
 * @ops: its type's callbacks
 * @dyn_ops: its type's dyn_event operations
 *
 * Compiles the fetch program for the record header the type's events have.
 *
 * Return: 0 or a negative errno; either way probe_event_destroy_probe()
 * releases what @tp holds.
 */
int probe_event_init_probe(struct trace_probe *tp, struct tpp_def *def,
			   const struct probe_event_ops *ops,
			   struct dyn_event_operations *dyn_ops)
{
	enum probe_event_head head = probe_event_head_of(ops, def);
	int ret;

	tp->def = def;
	INIT_LIST_HEAD(&tp->member);
	dyn_event_init(&tp->devent, dyn_ops);
	tp->prog = probe_prog_compile(def, probe_event_head_size(head));
	if (!IS_ERR(tp->prog))
		return 0;
	ret = PTR_ERR(tp->prog);
	tp->prog = NULL;
	return ret;
}

/**
 * probe_event_destroy_probe - release the definition and program of a probe
 * @tp: a probe on no event
 */
void probe_event_destroy_probe(struct trace_probe *tp)
{
	probe_prog_free(tp->prog);
	tpp_free(tp->def);
	tp->prog = NULL;
	tp->def = NULL;
}

/**
 * probe_event_link - put a probe on an event, last
 * @ev: the event
 * @tp: a probe on no event
 */
void probe_event_link(struct probe_event *ev, struct trace_probe *tp)
{
	tp->ev = ev;
	list_add_tail(&tp->member, &ev->members);
}

/**
 * probe_event_unlink - take a probe off its event
 * @tp: the probe, on an event or on none
 *
 * The last probe out frees the event, which must be out of tracefs.
 */
void probe_event_unlink(struct trace_probe *tp)
{
	struct probe_event *ev = tp->ev;

	list_del_init(&tp->member);
	tp->ev = NULL;
	if (ev && list_empty(&ev->members))
		probe_event_free(ev);
}

/*
 * How error_log tells that @tp did not register with @ret: a reason its
 * type can name (&probe_event_ops.refused of @ops; NULL when the event
 * failed, not the probe point) at the place word, else what the errno
 * says.  Nothing for -ENOMEM and -EEXIST, whose errno says it all.
 * Returns @ret.
 */
static int probe_event_register_error(const struct trace_probe *tp,
				      const struct probe_event_ops *ops,
				      int ret, struct tpp_error *err)
{
	unsigned int place_pos = tp->def->place_pos;
	int sym = probe_prog_unknown_symbol(tp->prog);
	int why;

	/*
	 * An @SYM argument named no symbol: the record is that argument's,
	 * not the place's, since the place was found and only the symbol
	 * is unknown.
	 */
	if (ret == -ENOENT && sym >= 0)
		return tpp_error_set(err, TPP_E_SYM_UNKNOWN,
				     tp->def->args[sym].pos, ret);
	why = ops && ops->refused ? ops->refused(tp, ret) : TPP_E_NONE;
	if (why != TPP_E_NONE)
		tpp_error_set(err, why, place_pos, ret);
	else if (ret == -EILSEQ)
		tpp_error_set(err, TPP_E_INSN_BOUNDARY, place_pos, ret);
	else if (ret == -ENOENT)
		tpp_error_set(err, TPP_E_PLACE, place_pos, ret);
	else if (ret != -ENOMEM && ret != -EEXIST)
		tpp_error_set(err, TPP_E_REGISTER, place_pos, ret);
	else
		tpp_error_set(err, TPP_E_NONE, 0, ret);
	return ret;
}

/*
 * The probe point of @tp, just linked, did not register: take @tp off its
 * event, and the event out of tracefs when nothing else is on it (a new
 * one).  Nobody can have enabled or opened that event: event_mutex has been
 * held since it was registered.
 */
static void probe_event_unlink_failed(struct trace_probe *tp)
{
	struct probe_event *ev = tp->ev;

	if (list_is_singular(&ev->members) &&
	    WARN_ON_ONCE(probe_event_unregister(ev))) {
		/* still in tracefs: leave it empty rather than free it */
		list_del_init(&tp->member);
		tp->ev = NULL;
		return;
	}
	probe_event_unlink(tp);
}

/*
 * Put @tp on @ev, register its probe point and list it.  On failure nothing
 * is left behind: @tp is off @ev, and a new event that would stay empty is
 * removed.
 */
static int probe_event_attach(struct trace_probe *tp, struct probe_event *ev,
			      struct tpp_error *err)
{
	int ret;

	probe_event_link(ev, tp);
	ret = ev->ops->attach ? ev->ops->attach(tp) : 0;
	if (ret) {
		probe_event_register_error(tp, ev->ops, ret, err);
		probe_event_unlink_failed(tp);
		return ret;
	}
	dyn_event_add(&tp->devent, &ev->call);
	return 0;
}

/* Whether @b would duplicate a probe of @ev */
static bool probe_event_has_same(struct probe_event *ev, const struct trace_probe *b)
{
	const struct probe_event_ops *ops = ev->ops;
	struct trace_probe *a;

	probe_event_for_each_probe(ev, a)
		if (tpp_same_probe(a->def, b->def) &&
		    (!ops->same_place || ops->same_place(a, b)))
			return true;
	return false;
}

/* Same fields, a place not probed yet: then @tp joins @ev */
static int probe_event_append(struct trace_probe *tp, struct probe_event *ev,
			      struct tpp_error *err)
{
	int ret;

	ret = tpp_check_append(probe_event_first(ev)->def, tp->def, err);
	if (ret)
		return ret;
	if (probe_event_has_same(ev, tp))
		return tpp_error_set(err, TPP_E_APPEND_SAME, 0, -EEXIST);
	return probe_event_attach(tp, ev, err);
}

/*
 * A new event for @tp.  A failed event registration is told in error_log,
 * at the place word, only by the types that register their probe point as
 * they define it (&probe_event_ops.attach): for them, defining the event and
 * registering the place are one step whose failure names the place.
 */
static int probe_event_add_new(struct trace_probe *tp, const struct probe_event_ops *ops,
			       struct tpp_error *err)
{
	struct probe_event *ev;
	int ret;

	ev = probe_event_new(tp->def, ops);
	if (IS_ERR(ev))
		return tpp_error_set(err, TPP_E_NONE, 0, PTR_ERR(ev));
	ret = probe_event_register(ev);
	if (!ret)
		return probe_event_attach(tp, ev, err);
	probe_event_free(ev);
	if (ret == -EEXIST)
		return tpp_error_set(err, TPP_E_EVENT_EXISTS, 0, ret);
	pr_warn("Failed to register probe event(%d)\n", ret);
	if (!ops->attach)
		return tpp_error_set(err, TPP_E_NONE, 0, ret);
	return probe_event_register_error(tp, NULL, ret, err);
}

/**
 * probe_event_add_probe - put a new probe on its event, existing or new
 * @tp: from probe_event_init_probe(), on no event
 * @ops: its type's callbacks
 * @err: the error, if any
 *
 * The event of @tp's group and name takes it when it is of the same type,
 * the type appends (not &probe_event_ops.single), and its checks and
 * tpp_check_append() pass; without such an event, @tp gets a new one.  Its
 * probe point is registered (&probe_event_ops.attach), and it is listed.
 * Takes event_mutex.
 *
 * Return: 0, or a negative errno with the error in @err; then @tp is on no
 * event and nothing of it is left in tracefs.
 */
int probe_event_add_probe(struct trace_probe *tp, const struct probe_event_ops *ops,
			  struct tpp_error *err)
{
	struct probe_event *ev;
	int ret;

	guard(mutex)(&event_mutex);
	ev = probe_event_find(tp->def->group, tp->def->event);
	if (!IS_ERR_OR_NULL(ev) && ev->ops != ops)
		ev = ERR_PTR(-EEXIST);
	ret = ops->check ? ops->check(tp, IS_ERR(ev) ? NULL : ev, err) : 0;
	if (ret)
		return ret;
	if (IS_ERR(ev) || (ev && ops->single))
		return tpp_error_set(err, TPP_E_EVENT_EXISTS, 0, -EEXIST);
	if (ev)
		return probe_event_append(tp, ev, err);
	return probe_event_add_new(tp, ops, err);
}

/*
 * Take a listed probe out: the event out of tracefs first when @tp is its
 * last probe, then unregister @tp's probe point (&probe_event_ops.detach),
 * unlist @tp and take it off the event, which goes with its last probe.
 * @tp is left for its type to free.  Returns 0, or -EBUSY, changing
 * nothing, while that event is enabled or in use.
 */
static int probe_event_remove_probe(struct trace_probe *tp)
{
	struct probe_event *ev = tp->ev;

	lockdep_assert_held(&event_mutex);
	if (list_is_singular(&ev->members) && probe_event_unregister(ev))
		return -EBUSY;
	if (ev->ops->detach)
		ev->ops->detach(tp);
	dyn_event_remove(&tp->devent);
	probe_event_unlink(tp);
	return 0;
}

/* ---- Enable and disable ---- */

/*
 * A group enable (events/GRP/enable, events/enable, set_event) reaches its
 * events one by one, and arming a kprobe on ftrace costs one update of
 * every ftrace call site.  Between probe_event_batch_begin() and
 * probe_event_batch_end(), an event whose type arms many at once
 * (probe_event_ops.arm_many) only goes on probe_event_batch; the end arms or disarms what
 * is there with one call per type.  Both under event_mutex.
 */
static LIST_HEAD(probe_event_batch);
static unsigned int probe_event_batch_depth;

/* Leave arming or disarming @ev to the end of the batch, if one is open */
static bool probe_event_defer(struct probe_event *ev)
{
	lockdep_assert_held(&event_mutex);
	if (!probe_event_batch_depth || !ev->ops->arm_many)
		return false;
	if (list_empty(&ev->batch))
		list_add_tail(&ev->batch, &probe_event_batch);
	return true;
}

static int probe_event_arm(struct probe_event *ev)
{
	int ret;

	if (probe_event_defer(ev))
		return 0;
	ret = ev->ops->arm(ev);
	ev->armed = !ret;
	return ret;
}

static void probe_event_disarm(struct probe_event *ev)
{
	if (probe_event_defer(ev) || !ev->armed)
		return;
	ev->ops->disarm(ev);
	ev->armed = false;
}

static int probe_event_enable(struct probe_event *ev, struct trace_event_file *file)
{
	bool was = probe_event_enabled(ev);
	struct probe_event_link *link = NULL;
	int ret;

	if (file) {
		link = kmalloc(sizeof(*link), GFP_KERNEL);
		if (!link)
			return -ENOMEM;
		ret = ev->ops->file_on ? ev->ops->file_on(ev, file) : 0;
		if (ret)
			goto free_link;
		link->file = file;
		list_add_tail_rcu(&link->list, &ev->links);
		WRITE_ONCE(ev->flags, ev->flags | PROBE_EVENT_F_TRACE);
	} else {
		WRITE_ONCE(ev->flags, ev->flags | PROBE_EVENT_F_PERF);
	}
	if (was)
		return 0;
	ret = probe_event_arm(ev);
	if (!ret)
		return 0;
	WRITE_ONCE(ev->flags, 0);
	if (!link)
		return ret;
	list_del_rcu(&link->list);
	if (ev->ops->file_off)
		ev->ops->file_off(ev, file);
	/* a member armed before the one that failed may have hit meanwhile */
	ev->off_gp = get_state_synchronize_rcu();
	kfree_rcu(link, rcu);
	return ret;
free_link:
	kfree(link);
	return ret;
}

static struct probe_event_link *probe_event_link_of(struct probe_event *ev,
						    struct trace_event_file *file)
{
	struct probe_event_link *link;

	list_for_each_entry(link, &ev->links, list)
		if (link->file == file)
			return link;
	return NULL;
}

static int probe_event_disable(struct probe_event *ev, struct trace_event_file *file)
{
	struct probe_event_link *link = NULL;
	unsigned int flags = ev->flags;

	if (file) {
		link = probe_event_link_of(ev, file);
		if (!link)
			return -ENOENT;
		list_del_rcu(&link->list);
		if (list_empty(&ev->links))
			flags &= ~PROBE_EVENT_F_TRACE;
	} else {
		flags &= ~PROBE_EVENT_F_PERF;
	}
	WRITE_ONCE(ev->flags, flags);
	if (!flags)
		probe_event_disarm(ev);
	if (!link)
		return 0;
	if (ev->ops->file_off)
		ev->ops->file_off(ev, file);
	/*
	 * Handlers still walking @links finish before it goes; nobody waits
	 * for them here (a grace period each made disabling N events N times
	 * a grace period).  probe_event_unregister() notes whether they are done.
	 */
	ev->off_gp = get_state_synchronize_rcu();
	kfree_rcu(link, rcu);
	return 0;
}

/*
 * A group enable or disable starts: until probe_event_batch_end(), events
 * whose type arms many probes at once are only marked enabled or
 * disabled.  Caller holds event_mutex.
 */
static void probe_event_batch_begin(void)
{
	lockdep_assert_held(&event_mutex);
	probe_event_batch_depth++;
}

/*
 * The enable of @ev failed at the end of a batch: take it out of every
 * trace instance that enabled it in the batch, which is all of them, since
 * it was disabled before.
 */
static void probe_event_drop_files(struct probe_event *ev)
{
	struct probe_event_link *link, *next;

	list_for_each_entry_safe(link, next, &ev->links, list)
		trace_event_enable_disable(link->file, 0, 0);
}

/* Arm the events on @evs, of type @ops: all at once, else one by one */
static int probe_event_arm_list(const struct probe_event_ops *ops, struct list_head *evs)
{
	struct probe_event *ev, *next;
	int ret = 0, bulk_err, err;

	if (list_empty(evs))
		return 0;
	bulk_err = ops->arm_many(evs);
	list_for_each_entry_safe(ev, next, evs, batch) {
		list_del_init(&ev->batch);
		/* the bulk call armed none of them: try each alone */
		err = bulk_err ? ops->arm(ev) : 0;
		if (err) {
			probe_event_drop_files(ev);
			ret = ret ?: err;
			continue;
		}
		ev->armed = true;
	}
	return ret;
}

static void probe_event_disarm_list(const struct probe_event_ops *ops, struct list_head *evs)
{
	struct probe_event *ev, *next;

	if (list_empty(evs))
		return;
	ops->disarm_many(evs);
	list_for_each_entry_safe(ev, next, evs, batch) {
		list_del_init(&ev->batch);
		ev->armed = false;
	}
}

/* Move the batched events of type @ops that must change to @arm or @disarm */
static void probe_event_batch_take(const struct probe_event_ops *ops, struct list_head *arm,
				   struct list_head *disarm)
{
	struct probe_event *ev, *next;

	list_for_each_entry_safe(ev, next, &probe_event_batch, batch) {
		if (ev->ops != ops)
			continue;
		if (probe_event_enabled(ev) == ev->armed)
			list_del_init(&ev->batch);
		else
			list_move_tail(&ev->batch, ev->armed ? disarm : arm);
	}
}

/*
 * Arm and disarm what the group enable left.  Caller holds event_mutex.
 * An event that could not be armed is disabled again in every instance.
 * Returns 0, or the first error arming an event.
 */
static int probe_event_batch_end(void)
{
	const struct probe_event_ops *ops;
	LIST_HEAD(disarm);
	LIST_HEAD(arm);
	int ret = 0, err;

	lockdep_assert_held(&event_mutex);
	if (WARN_ON_ONCE(!probe_event_batch_depth) || --probe_event_batch_depth)
		return 0;
	while (!list_empty(&probe_event_batch)) {
		ops = list_first_entry(&probe_event_batch, struct probe_event, batch)->ops;
		probe_event_batch_take(ops, &arm, &disarm);
		probe_event_disarm_list(ops, &disarm);
		err = probe_event_arm_list(ops, &arm);
		ret = ret ?: err;
	}
	return ret;
}

static struct trace_event_batch probe_event_batch_ops = {
	.begin = probe_event_batch_begin,
	.end = probe_event_batch_end,
};

static int __init probe_event_batch_init(void)
{
	trace_event_batch_register(&probe_event_batch_ops);
	return 0;
}
core_initcall(probe_event_batch_init);

/**
 * probe_event_reg - &trace_event_class.reg of every probe event
 * @call: the event
 * @type: what ftrace or perf asks
 * @data: the trace_event_file for TRACE_REG_(UN)REGISTER
 *
 * Return: 0 or a negative errno.  Called under event_mutex.
 */
int probe_event_reg(struct trace_event_call *call, enum trace_reg type, void *data)
{
	struct probe_event *ev = probe_event_from_call(call);

	switch (type) {
	case TRACE_REG_REGISTER:
		return probe_event_enable(ev, data);
	case TRACE_REG_UNREGISTER:
		return probe_event_disable(ev, data);
#ifdef CONFIG_PERF_EVENTS
	case TRACE_REG_PERF_REGISTER:
		return probe_event_enable(ev, NULL);
	case TRACE_REG_PERF_UNREGISTER:
		return probe_event_disable(ev, NULL);
#endif
	default:
		return 0;
	}
}

/* ---- What every probe type's command path shares ---- */

/**
 * probe_event_join_words - the words of a command, one space between each
 * @raw: the line as written
 *
 * The parser and error_log see this form.
 *
 * Return: a new string (kfree() it), or NULL without memory.
 */
char *probe_event_join_words(const char *raw)
{
	char *cmd = kmalloc(strlen(raw) + 1, GFP_KERNEL), *p = cmd;
	const char *s = raw;

	if (!cmd)
		return NULL;
	/* the words argv_split() would make, without its allocations */
	for (s = skip_spaces(s); *s; s = skip_spaces(s)) {
		if (p != cmd)
			*p++ = ' ';
		while (*s && !isspace(*s))
			*p++ = *s++;
	}
	*p = '\0';
	return cmd;
}

/**
 * probe_event_log_err - the one place a parse or register error reaches error_log
 * @loc: the tracer, e.g. "trace_kprobe"
 * @cmd: the command from probe_event_join_words()
 * @err: the first error; nothing is logged for TPP_E_NONE
 */
void probe_event_log_err(const char *loc, const char *cmd,
			 const struct tpp_error *err)
{
	if (err->id != TPP_E_NONE)
		tracing_log_err(NULL, loc, cmd, tpp_err_text, err->id,
				err->pos);
}

/**
 * probe_event_dyn_create - the dyn_event create of a probe type
 * @raw: the definition as written
 * @loc: where error_log says the error comes from, e.g. "trace_uprobe"
 * @create: creates the probe from the command's words joined by single
 *	spaces; returns 0, -ECANCELED for a command of another type, or a
 *	negative errno with the error in its last argument
 *
 * A blank line defines nothing and is no error.
 *
 * Return: what @create returned, or -ENOMEM.
 */
int probe_event_dyn_create(const char *raw, const char *loc,
			   int (*create)(const char *cmd, struct tpp_error *err))
{
	struct tpp_error err = { .id = TPP_E_NONE };
	char *cmd = probe_event_join_words(raw);
	int ret;

	if (!cmd)
		return -ENOMEM;
	ret = cmd[0] ? create(cmd, &err) : 0;
	if (ret == -ENOMEM && err.id == TPP_E_NONE)
		err = (struct tpp_error){ .id = TPP_E_NO_MEMORY, .errnum = ret };
	if (ret && ret != -ECANCELED)
		probe_event_log_err(loc, cmd, &err);
	kfree(cmd);
	return ret;
}

/**
 * probe_event_show_args - the arguments of a listing line, " NAME=FETCHARG" each
 * @m: the listing
 * @def: the definition
 */
void probe_event_show_args(struct seq_file *m, const struct tpp_def *def)
{
	unsigned int i;

	for (i = 0; i < def->nr_args; i++)
		seq_printf(m, " %s=%s", def->args[i].name, def->args[i].comm);
}

/**
 * probe_event_match_name - whether "-:[GRP/]EVENT" names @ev
 * @ev: the event
 * @system: GRP, or NULL when not given
 * @event: EVENT, or "" when not given
 *
 * Return: true when every part given matches.
 */
bool probe_event_match_name(const struct probe_event *ev, const char *system,
			    const char *event)
{
	return (!event[0] || !strcmp(event, probe_event_name(ev))) &&
	       (!system || !strcmp(system, probe_event_group(ev)));
}

/**
 * probe_event_match_args - whether the words of a removal are @def's first arguments
 * @def: the definition
 * @argc: words after the place
 * @argv: each "NAME=FETCHARG" as the listing shows it
 *
 * Return: true when they match, in order; no words match any definition.
 */
bool probe_event_match_args(const struct tpp_def *def, int argc, const char **argv)
{
	const struct tpp_arg *arg;
	size_t n;
	int i;

	if (argc > def->nr_args)
		return false;
	for (i = 0; i < argc; i++) {
		arg = &def->args[i];
		n = strlen(arg->name);
		if (strncmp(argv[i], arg->name, n) || argv[i][n] != '=' ||
		    strcmp(argv[i] + n + 1, arg->comm))
			return false;
	}
	return true;
}

/* ---- dyn_event operations every probe type shares ---- */

/* "KIND[N]": the letter as written, and a return probe's maxactive */
static void probe_event_list_kind(struct seq_file *m, const struct trace_probe *tp)
{
	const struct tpp_def *def = tp->def;

	seq_putc(m, def->kind);
	if (def->is_return && def->maxactive)
		seq_printf(m, "%u", def->maxactive);
}

/*
 * With CONFIG_PROBE_EVENTS_DUMP_FETCHARG, a listing line is followed by
 * what each argument compiled to, as comment lines: writing the listing
 * back skips them.
 */
static void probe_event_show_prog(struct seq_file *m,
				  const struct probe_prog *prog)
{
	unsigned int i;
	char *buf;
	int len;

	for (i = 0; i < prog->nr_fields; i++) {
		len = probe_prog_dump_arg(prog, i, NULL, 0);
		buf = kmalloc(len + 1, GFP_KERNEL);
		if (!buf)
			return;
		probe_prog_dump_arg(prog, i, buf, len + 1);
		seq_puts(m, buf);
		kfree(buf);
	}
}

/**
 * probe_event_dyn_show - &dyn_event_operations.show of a probe type
 * @m: the listing
 * @devent: a probe's
 *
 * Prints "KIND:GRP/EVENT PLACE NAME=FETCHARG..." as the definition is
 * written back, and with CONFIG_PROBE_EVENTS_DUMP_FETCHARG the steps of
 * each argument after it.
 *
 * Return: 0, or -ENOMEM.
 */
int probe_event_dyn_show(struct seq_file *m, struct dyn_event *devent)
{
	const struct trace_probe *tp = to_trace_probe(devent);
	const struct probe_event_ops *ops = tp->ev->ops;
	char *place = ops->list_place(tp);

	if (!place)
		return -ENOMEM;
	if (ops->list_kind)
		ops->list_kind(m, tp);
	else
		probe_event_list_kind(m, tp);
	seq_printf(m, ":%s/%s %s", probe_event_group(tp->ev), probe_event_name(tp->ev),
		   place);
	probe_event_show_args(m, tp->def);
	seq_putc(m, '\n');
	if (IS_ENABLED(CONFIG_PROBE_EVENTS_DUMP_FETCHARG))
		probe_event_show_prog(m, tp->prog);
	kfree(place);
	return 0;
}

/**
 * probe_event_dyn_busy - &dyn_event_operations.is_busy of a probe type
 * @devent: a probe's
 *
 * Return: whether the probe's event is enabled.
 */
bool probe_event_dyn_busy(struct dyn_event *devent)
{
	return probe_event_enabled(to_trace_probe(devent)->ev);
}

/**
 * probe_event_dyn_free - &dyn_event_operations.free of a probe type
 * @devent: a probe's
 *
 * Takes the probe out, its event with it when it is the last probe, and
 * frees it (&probe_event_ops.free_probe).
 *
 * Return: 0, or -EBUSY, changing nothing.  Caller holds event_mutex.
 */
int probe_event_dyn_free(struct dyn_event *devent)
{
	struct trace_probe *tp = to_trace_probe(devent);
	const struct probe_event_ops *ops = tp->ev->ops;
	int ret = probe_event_remove_probe(tp);

	if (!ret)
		ops->free_probe(tp);
	return ret;
}

static bool probe_event_match_place(const struct trace_probe *tp, const char *word)
{
	const struct probe_event_ops *ops = tp->ev->ops;
	char *place;
	bool same;

	if (ops->match_place)
		return ops->match_place(tp, word);
	place = ops->list_place(tp);
	same = place && !strcmp(place, word);
	kfree(place);
	return same;
}

/**
 * probe_event_dyn_match - &dyn_event_operations.match of a probe type
 * @system: GRP of "-:[GRP/]EVENT [PLACE [ARG...]]", or NULL
 * @event: EVENT, or ""
 * @argc: words after the name
 * @argv: PLACE, then "NAME=FETCHARG" each
 * @devent: a probe's
 *
 * Return: true when the name, the place and the leading arguments given
 * match the probe.
 */
bool probe_event_dyn_match(const char *system, const char *event, int argc,
			   const char **argv, struct dyn_event *devent)
{
	const struct trace_probe *tp = to_trace_probe(devent);

	if (!probe_event_match_name(tp->ev, system, event))
		return false;
	if (!argc)
		return true;
	return probe_event_match_place(tp, argv[0]) &&
	       probe_event_match_args(tp->def, argc - 1, argv + 1);
}

/* ---- The tracefs files that list a probe type's events ---- */

/*
 * A record for @raw, a line of a probe type's file, with the caret at @pos
 * of its words as probe_event_join_words() joins them.  A line no
 * definition claims (NOT_PROBE) that is a probe kind alone lacks its
 * place instead: the caret goes after its end.
 */
static void probe_event_log_line(const char *raw, const char *loc, int id,
				 unsigned int pos)
{
	struct tpp_error err = { .id = id, .pos = pos };
	char *cmd = probe_event_join_words(raw);

	if (!cmd)
		return;
	if (id == TPP_E_NOT_PROBE && (cmd[0] == 'p' || cmd[0] == 'r') &&
	    !strchr(cmd, ' ')) {
		err.id = TPP_E_NO_PLACE;
		err.pos = strlen(cmd) + 1;
	}
	probe_event_log_err(loc, cmd, &err);
	kfree(cmd);
}

/**
 * probe_event_command - run one line written to a probe type's events file
 * @raw: "-:..." removes, anything else defines
 * @ops: the probe type's dyn_event operations
 * @loc: where error_log says the error comes from, e.g. "trace_kprobe"
 *
 * The file takes its own type only: a line no other type claims either
 * is invalid.
 *
 * Return: 0 or a negative errno.
 */
int probe_event_command(const char *raw, struct dyn_event_operations *ops,
			const char *loc)
{
	int ret;

	if (raw[0] == '-') {
		ret = dyn_event_release(raw, ops);
		/* at the name: none matches, or the one that does is busy */
		if (ret == -ENOENT || ret == -EBUSY)
			probe_event_log_line(raw, loc, ret == -ENOENT ?
					     TPP_E_NO_SUCH_EVENT :
					     TPP_E_EVENT_BUSY, 2);
		return ret;
	}
	ret = dyn_event_create(raw, ops);
	if (ret != -ECANCELED)
		return ret;
	probe_event_log_line(raw, loc, TPP_E_NOT_PROBE, 0);
	return -EINVAL;
}

static const struct probe_event_list *probe_event_list_of(struct file *file)
{
	return file_inode(file)->i_private;
}

static int probe_event_list_show(struct seq_file *m, void *v)
{
	const struct probe_event_list *list = m->private;
	struct dyn_event *ev = v;

	return ev->ops == list->ops ? list->line(m, ev) : 0;
}

static const struct seq_operations probe_event_list_seq_ops = {
	.start = dyn_event_seq_start,
	.next = dyn_event_seq_next,
	.stop = dyn_event_seq_stop,
	.show = probe_event_list_show,
};

static int probe_event_list_open(struct inode *inode, struct file *file)
{
	const struct probe_event_list *list = inode->i_private;
	bool trunc = (file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC);
	int ret = security_locked_down(LOCKDOWN_TRACEFS);

	if (!ret && trunc && list->command)
		ret = list->release_all ? list->release_all() :
		      dyn_events_release_all(list->ops);
	if (ret < 0)
		return ret;
	ret = seq_open(file, &probe_event_list_seq_ops);
	if (!ret)
		((struct seq_file *)file->private_data)->private = (void *)list;
	return ret;
}

static ssize_t probe_event_list_write(struct file *file, const char __user *ubuf,
				      size_t len, loff_t *pos)
{
	const struct probe_event_list *list = probe_event_list_of(file);

	if (!list->command)
		return -EINVAL;
	return trace_parse_run_command(file, ubuf, len, pos, list->command);
}

/* Open with a struct probe_event_list as the file's data; see probe_event.h */
const struct file_operations probe_event_list_fops = {
	.open = probe_event_list_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
	.write = probe_event_list_write,
};

#ifdef CONFIG_PERF_EVENTS
/**
 * probe_ip_perf - the perf record of a kprobe or fprobe hit
 * @tp: the probe that was hit
 * @regs: registers at the hit
 * @edata: entry data of a return probe, or NULL
 * @ip: the probed function or address, the record's first head word
 * @is_ret: a return probe's hit: @ret_ip is the head's second word
 * @ret_ip: where the function returns to
 *
 * Writes the record to the perf events on this CPU, if there are any;
 * strings are cut to fit perf's buffer.
 */
void probe_ip_perf(const struct trace_probe *tp, struct pt_regs *regs,
		   const unsigned long *edata, unsigned long ip, bool is_ret,
		   unsigned long ret_ip)
{
	struct trace_event_call *call = &tp->ev->call;
	unsigned int fixed = tp->prog->fixed_size, dsize;
	struct probe_cache cache __uninitialized;
	struct hlist_head *head;
	int size, rctx;
	void *rec;

	head = this_cpu_ptr(call->perf_events);
	if (hlist_empty(head))
		return;
	dsize = probe_prog_hit_size(tp->prog, regs, edata, &cache);
	/* perf adds a u32 size in front; keep the whole u64 aligned */
	size = ALIGN(fixed + dsize + sizeof(u32), sizeof(u64)) - sizeof(u32);
	/* perf's buffer holds 8 KiB (and WARNs beyond): cut strings to fit */
	size = min_t(int, size, PERF_MAX_TRACE_SIZE - sizeof(u32));
	rec = perf_trace_buf_alloc(size, NULL, &rctx);
	if (!rec)
		return;
	memset(rec + fixed, 0, size - fixed);
	probe_ip_fill_head(rec, ip, is_ret, ret_ip);
	probe_prog_store(tp->prog, regs, edata, rec, size, &cache);
	perf_trace_buf_submit(rec, size, rctx, call->event.type, 1, regs,
			      head, NULL);
}

NOKPROBE_SYMBOL(probe_ip_perf);
#endif
