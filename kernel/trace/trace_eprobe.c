// SPDX-License-Identifier: GPL-2.0
/*
 * Event probes: "e" definitions written to dynamic_events become ftrace
 * events written whenever another trace event is, from the fields of its
 * record.
 *
 *	e[:[GRP/][EVENT]] SYSTEM.EVENT [FETCHARGS] [if FILTER]
 *
 * The head is parsed here, the fetch arguments by the pure parser with an
 * environment that answers $FIELD from the attached event's fields; the
 * compiled program then reads those fields out of the record it is handed,
 * as a return probe reads its entry data.  FILTER applies to the attached
 * event's records.
 *
 * An eprobe hooks the attached event of every trace instance it is enabled
 * in: a trigger on that instance's file of the attached event, which sees
 * each record before it is committed and writes one of ours to the same
 * instance.  The hook is a trigger only to get at the record; it is not in
 * the user's trigger list, and the trigger file does not show it.
 *
 * Locking: definitions, events and hooks change under event_mutex; the
 * trigger runs in the attached event's tracepoint, under RCU-sched.
 */
#define pr_fmt(fmt)	"trace_eprobe: " fmt

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/rculist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace.h"
#include "trace_dynevent.h"
#include "probe_event.h"
#include "probe_kenv.h"

#define TE_GROUP	"eprobes"
#define TE_LOG		"event_probe"

/**
 * struct trace_eprobe - one event probe
 * @tp: what every probe type's probe has (an eprobe event has one probe)
 * @src: the attached event, referenced for as long as we live
 * @filter: FILTER of the definition, on @src's fields, or NULL
 * @hooks: struct te_hook, one per trace instance we are enabled in
 */
struct trace_eprobe {
	struct trace_probe tp;
	struct trace_event_call *src;
	char *filter;
	struct list_head hooks;
};

/**
 * struct te_hook - an eprobe enabled in one trace instance
 * @trig: on @in's trigger list; its filter is @te's FILTER
 * @node: in &te.hooks
 * @te: the eprobe
 * @in: the instance's file of the attached event
 * @out: the instance's file of our event
 * @gone: the instance took @trig off @in's list itself (it is being
 *	removed); only we free the hook
 */
struct te_hook {
	struct event_trigger_data trig;
	struct list_head node;
	struct trace_eprobe *te;
	struct trace_event_file *in;
	struct trace_event_file *out;
	bool gone;
};

/* Defined with their callbacks, below */
static struct dyn_event_operations te_dyn_ops;
static const struct probe_event_ops te_event_ops;

static inline struct trace_eprobe *te_of(const struct trace_probe *tp)
{
	return container_of(tp, struct trace_eprobe, tp);
}

static struct trace_eprobe *te_first(struct probe_event *ev)
{
	struct trace_probe *tp = probe_event_first(ev);

	return tp ? te_of(tp) : NULL;
}

static const char *te_src_system(const struct trace_eprobe *te)
{
	return te->src->class->system;
}

/* ---- The hit path: a record of the attached event is being written ---- */

static void te_trigger(struct event_trigger_data *data,
		       struct trace_buffer *buffer, void *rec,
		       struct ring_buffer_event *rbe)
{
	struct te_hook *hook = container_of(data, struct te_hook, trig);
	const struct probe_prog *prog = hook->te->tp.prog;
	struct probe_cache cache __uninitialized;
	struct trace_event_buffer fbuffer __uninitialized;
	unsigned int size;
	void *entry;
	int path;

	if (unlikely(!rec))
		return;
	path = probe_record_path(hook->out);
	if (path < 0)
		return;
	size = prog->fixed_size + probe_prog_hit_size(prog, NULL, rec, &cache);
	if (path == TRACE_EVENT_PATH_FILTER &&
	    probe_record_filter(hook->out,
				probe_prog_stage_record(prog, NULL, rec, size,
							&cache), size))
		return;
	entry = probe_record_reserve(&fbuffer, path, hook->out, size);
	if (!entry)
		return;
	probe_prog_store(prog, NULL, rec, entry, size, &cache);
	probe_record_commit(&fbuffer, path, NULL);
}

/* Removing an instance clears its triggers before disabling its events */
static void te_trigger_gone(struct event_trigger_data *data)
{
	container_of(data, struct te_hook, trig)->gone = true;
}

/* Not in the trigger file, which lists only the user's triggers */
static int te_trigger_print(struct seq_file *m,
			    struct event_trigger_data *data)
{
	return 0;
}

static struct event_command te_trigger_cmd = {
	.name = "eprobe",
	.trigger_type = ETT_EVENT_EPROBE,
	.flags = EVENT_CMD_FL_NEEDS_REC,
	.trigger = te_trigger,
	.print = te_trigger_print,
	.free = te_trigger_gone,
};

/* ---- Hooks, one per instance the event is enabled in ---- */

static struct te_hook *te_hook_alloc(struct trace_eprobe *te,
				     struct trace_event_file *out)
{
	struct event_filter *filter = NULL;
	struct trace_event_file *in;
	struct te_hook *hook;
	int ret;

	in = find_event_file(out->tr, te_src_system(te),
			     trace_event_name(te->src));
	if (!in)
		return ERR_PTR(-ENOENT);
	hook = kzalloc(sizeof(*hook), GFP_KERNEL);
	if (!hook)
		return ERR_PTR(-ENOMEM);
	if (te->filter) {
		ret = create_event_filter(out->tr, te->src, te->filter, false,
					  &filter);
		if (ret) {
			kfree(hook);
			return ERR_PTR(ret);
		}
	}
	hook->te = te;
	hook->in = in;
	hook->out = out;
	hook->trig.cmd_ops = &te_trigger_cmd;
	hook->trig.flags = EVENT_TRIGGER_FL_PROBE;
	hook->trig.count = -1;
	RCU_INIT_POINTER(hook->trig.filter, filter);
	return hook;
}

static int te_file_on(struct probe_event *ev, struct trace_event_file *file)
{
	struct trace_eprobe *te = te_first(ev);
	struct te_hook *hook;

	lockdep_assert_held(&event_mutex);
	hook = te_hook_alloc(te, file);
	if (IS_ERR(hook))
		return PTR_ERR(hook);
	list_add_tail(&hook->node, &te->hooks);
	list_add_tail_rcu(&hook->trig.list, &hook->in->triggers);
	trace_event_trigger_enable_disable(hook->in, 1);
	update_cond_flag(hook->in);
	return 0;
}

static void te_file_off(struct probe_event *ev, struct trace_event_file *file)
{
	struct trace_eprobe *te = te_first(ev);
	struct te_hook *hook;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(hook, &te->hooks, node)
		if (hook->out == file)
			goto found;
	return;
found:
	list_del(&hook->node);
	if (!hook->gone) {
		list_del_rcu(&hook->trig.list);
		trace_event_trigger_enable_disable(hook->in, 0);
		update_cond_flag(hook->in);
	}
	/* the trigger may still run on another CPU */
	tracepoint_synchronize_unregister();
	free_event_filter(rcu_access_pointer(hook->trig.filter));
	kfree(hook);
}

/* Hooks do it all; perf gets nothing from eprobes */
static int te_arm(struct probe_event *ev)
{
	return 0;
}

static void te_disarm(struct probe_event *ev)
{
}

static void te_show_place(struct probe_event *ev, struct trace_seq *s,
			  const unsigned long *head)
{
	struct trace_eprobe *te = te_first(ev);

	if (te)
		trace_seq_printf(s, "%s.%s", te_src_system(te),
				 trace_event_name(te->src));
}

/* ---- Life cycle ---- */

static void te_free(struct trace_eprobe *te)
{
	if (!te)
		return;
	if (te->src)
		trace_event_put_ref(te->src);
	kfree(te->filter);
	probe_event_destroy_probe(&te->tp);
	kfree(te);
}

/* ---- Parsing "e[:NAME] SYSTEM.EVENT [ARGS] [if FILTER]" ---- */

/**
 * struct te_head - what the words around the arguments say
 * @name: our group and event, as spans of the command
 * @src: the attached event's system and name, as spans
 * @w1: offset of the SYSTEM.EVENT word
 * @args_end: length of the command without " if FILTER"
 * @nr_args: argument words
 * @filter: offset of FILTER, 0 when there is none
 * @no_filter: "if" is the last word
 */
struct te_head {
	struct tpp_name name;
	struct tpp_name src;
	unsigned int w1;
	unsigned int args_end;
	unsigned int nr_args;
	unsigned int filter;
	bool no_filter;
};

/*
 * "SYSTEM.EVENT" (or "SYSTEM/EVENT").  error_log gets what is wrong with
 * the names, then that both are needed: two records.
 */
static int te_parse_src(const char *cmd, struct te_head *h,
			struct tpp_error *err)
{
	struct tpp_error name_err = { .id = TPP_E_NONE };
	unsigned int len = tpp_word_len(cmd + h->w1);

	if (!tpp_parse_event_name(cmd, h->w1, len, &h->src, &name_err) &&
	    h->src.group_len && h->src.event_len)
		return 0;
	probe_event_log_err(TE_LOG, cmd, &name_err);
	return tpp_error_set(err, TPP_E_EP_NAMES, h->w1, -EINVAL);
}

/* Count the argument words and find "if"; FILTER is the rest */
static int te_split_filter(const char *cmd, struct te_head *h,
			   struct tpp_error *err)
{
	const char *w = cmd + h->w1 + tpp_word_len(cmd + h->w1);
	const char *past_limit = NULL;
	unsigned int len;

	h->args_end = strlen(cmd);
	for (; *w == ' '; w += len) {
		w++;
		len = tpp_word_len(w);
		if (len == 2 && !strncmp(w, "if", 2)) {
			h->args_end = w - 1 - cmd;
			if (w[len])
				h->filter = w + len + 1 - cmd;
			else
				h->no_filter = true;
			break;
		}
		if (++h->nr_args == TPP_MAX_ARGS + 1)
			past_limit = w;
	}
	if (!past_limit)
		return 0;
	return tpp_error_set(err, TPP_E_TOO_MANY_ARGS, past_limit - cmd, -E2BIG);
}

static int te_parse_head(const char *cmd, struct te_head *h,
			 struct tpp_error *err)
{
	int ret;

	ret = tpp_parse_head_name(cmd, &h->name, err);
	if (ret)
		return ret;
	h->w1 = tpp_word_len(cmd) + 1;
	ret = te_parse_src(cmd, h, err);
	if (ret)
		return ret;
	return te_split_filter(cmd, h, err);
}

/* The attached event, referenced; eprobes attach to no probe event */
static struct trace_event_call *te_find_src(const char *cmd,
					    const struct te_head *h)
{
	const unsigned int skip = TRACE_EVENT_FL_IGNORE_ENABLE |
		TRACE_EVENT_FL_KPROBE | TRACE_EVENT_FL_UPROBE |
		TRACE_EVENT_FL_EPROBE;
	const char *sys = cmd + h->src.group, *name = cmd + h->src.event;
	struct trace_event_call *call;
	const char *s, *n;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(call, &ftrace_events, list) {
		s = call->class->system;
		n = trace_event_name(call);
		if ((call->flags & skip) || !s || !n ||
		    strlen(s) != h->src.group_len ||
		    strncmp(s, sys, h->src.group_len) ||
		    strlen(n) != h->src.event_len ||
		    strncmp(n, name, h->src.event_len))
			continue;
		return trace_event_try_get_ref(call) ? call : NULL;
	}
	return NULL;
}

/* FILTER is checked against the top instance when the probe is made */
static int te_check_filter(struct trace_eprobe *te, const char *cmd,
			   const struct te_head *h, struct tpp_error *err)
{
	struct event_filter *filter = NULL;
	int ret;

	if (h->no_filter)
		return tpp_error_set(err, TPP_E_EP_FILTER, strlen(cmd) + 1,
				     -EINVAL);
	if (!te->filter)
		return 0;
	ret = create_event_filter(top_trace_array(), te->src, te->filter, true,
				  &filter);
	free_event_filter(filter);
	return ret ? -EINVAL : 0;
}

static enum probe_efield_kind te_field_kind(const struct ftrace_event_field *f)
{
	switch (f->filter_type) {
	case FILTER_DYN_STRING:
		return PROBE_EF_DATA_LOC;
	case FILTER_RDYN_STRING:
		return PROBE_EF_REL_LOC;
	case FILTER_STATIC_STRING:
		return PROBE_EF_CHARS;
	case FILTER_PTR_STRING:
		return PROBE_EF_CHAR_PTR;
	default:
		break;
	}
	/*
	 * A field wider than a long is fetched as its address, not as its
	 * first long, so that +OFFS($FIELD) can read any of its elements.
	 */
	if (f->size > sizeof(long))
		return PROBE_EF_ARRAY;
	return f->is_signed ? PROBE_EF_SIGNED : PROBE_EF_UNSIGNED;
}

/* &tpp_env.event_field: where field @name is in the attached records */
static int te_event_field(void *priv, const char *name)
{
	struct trace_event_call *call = probe_kenv_of(priv)->event;
	struct ftrace_event_field *f;

	list_for_each_entry(f, trace_get_fields(call), link)
		if (!strcmp(f->name, name))
			return probe_efield(f->offset, f->size,
					    te_field_kind(f));
	return -ENOENT;
}

/* &tpp_env.sym_addr, and the lookup of probe_prog_resolve_symbols() */
static unsigned long te_sym_addr(void *priv, const char *name)
{
	return kallsyms_lookup_name(name);
}

/* The arguments; the command is cut before " if" for the parser */
static struct tpp_def *te_parse_args(const char *cmd, const struct te_head *h,
				     struct trace_event_call *src,
				     struct tpp_error *err)
{
	struct probe_kenv ke;
	struct tpp_def *def;
	char *args;

	args = kmemdup_nul(cmd, h->args_end, GFP_KERNEL);
	if (!args)
		return ERR_PTR(-ENOMEM);
	probe_kenv_init(&ke);
	ke.event = src;
	ke.env.event_field = te_event_field;
	ke.env.sym_addr = te_sym_addr;
	def = tpp_parse_args(args, 2, TPP_EVENT, NULL, &ke.env, err);
	probe_kenv_destroy(&ke);
	kfree(args);
	return def;
}

/* Name the definition: ours as given, or after the attached event */
static int te_fill_def(struct tpp_def *def, const char *cmd,
		       const struct te_head *h)
{
	char event[TPP_MAX_EVENT_NAME_LEN];

	def->kind = 'e';
	snprintf(event, sizeof(event), "%.*s", (int)h->src.event_len,
		 cmd + h->src.event);
	return tpp_set_names(def, cmd, &h->name, TE_GROUP, event);
}

/* ---- Creating a probe from its definition ---- */

static struct trace_eprobe *te_alloc(struct trace_event_call *src, const char *cmd,
				     const struct te_head *h)
{
	struct trace_eprobe *te = kzalloc(sizeof(*te), GFP_KERNEL);

	if (!te) {
		trace_event_put_ref(src);
		return NULL;
	}
	te->src = src;
	INIT_LIST_HEAD(&te->hooks);
	if (h->filter) {
		te->filter = kstrdup(cmd + h->filter, GFP_KERNEL);
		if (!te->filter) {
			te_free(te);
			return NULL;
		}
	}
	return te;
}

/* Parse the arguments, compile them, and make the event */
static int te_build(struct trace_eprobe *te, const char *cmd, const struct te_head *h,
		    struct tpp_error *err)
{
	struct tpp_def *def;
	int ret;

	def = te_parse_args(cmd, h, te->src, err);
	if (IS_ERR(def))
		return PTR_ERR(def);
	if (te_fill_def(def, cmd, h)) {
		tpp_free(def);
		return tpp_error_set(err, TPP_E_NONE, 0, -ENOMEM);
	}
	ret = probe_event_init_probe(&te->tp, def, &te_event_ops, &te_dyn_ops);
	if (!ret)	/* the parser has found every @SYM already */
		ret = probe_prog_resolve_symbols(te->tp.prog, te_sym_addr, NULL);
	if (ret)
		return tpp_error_set(err, TPP_E_NONE, 0, ret);
	return probe_event_add_probe(&te->tp, &te_event_ops, err);
}

/* Errors come in ABI order: names, event, filter, arguments, exists */
static int te_create(const char *cmd, struct tpp_error *err)
{
	struct trace_event_call *src;
	struct te_head h = { 0 };
	struct trace_eprobe *te;
	int ret;

	if (cmd[0] != 'e' || !strchr(cmd, ' '))
		return -ECANCELED;
	ret = te_parse_head(cmd, &h, err);
	if (ret)
		return ret;
	mutex_lock(&event_mutex);
	src = te_find_src(cmd, &h);
	mutex_unlock(&event_mutex);
	if (!src)
		return tpp_error_set(err, TPP_E_EP_EVENT, h.w1, -ENODEV);
	te = te_alloc(src, cmd, &h);
	if (!te)
		return -ENOMEM;
	ret = te_check_filter(te, cmd, &h, err);
	if (!ret)
		ret = te_build(te, cmd, &h, err);
	if (ret)
		te_free(te);
	return ret;
}

/* Create the probe defined by @raw; -ECANCELED when it is not ours */
static int te_dyn_create(const char *raw)
{
	return probe_event_dyn_create(raw, TE_LOG, te_create);
}

/* ---- dyn_event operations: listing, matching, removal ---- */

static char *te_list_place(const struct trace_probe *tp)
{
	const struct trace_eprobe *te = te_of(tp);

	return kasprintf(GFP_KERNEL, "%s.%s", te_src_system(te),
			 trace_event_name(te->src));
}

/* "SYSTEM.EVENT" or "SYSTEM/EVENT" names the attached event */
static bool te_match_place(const struct trace_probe *tp, const char *word)
{
	const struct trace_eprobe *te = te_of(tp);
	const char *sys = te_src_system(te);
	size_t n = strlen(sys);

	return !strncmp(word, sys, n) && (word[n] == '.' || word[n] == '/') &&
	       !strcmp(word + n + 1, trace_event_name(te->src));
}

static void te_free_probe(struct trace_probe *tp)
{
	te_free(te_of(tp));
}

static const struct probe_event_ops te_event_ops = {
	.arm = te_arm,
	.disarm = te_disarm,
	.file_on = te_file_on,
	.file_off = te_file_off,
	.show_place = te_show_place,
	.type_flag = TRACE_EVENT_FL_EPROBE,
	.head = PROBE_HEAD_NONE,
	.single = true,
	.free_probe = te_free_probe,
	.list_place = te_list_place,
	.match_place = te_match_place,
};

static struct dyn_event_operations te_dyn_ops =
	PROBE_EVENT_DYN_OPS(te_dyn_create, probe_event_dyn_free);

/* At core_initcall, so that boot-time users find eprobes there */
static __init int te_init_early(void)
{
	return dyn_event_register(&te_dyn_ops);
}
core_initcall(te_init_early);
