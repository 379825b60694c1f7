// SPDX-License-Identifier: GPL-2.0
/*
 * Probe definition parser; see trace_probe.h for the interface.
 *
 * One function per grammar rule:
 *
 *   command  := head place fetcharg*             tpp_parse_kprobe()
 *   wcommand := 'w' [':' name] watch fetcharg*   tpp_parse_wprobe()
 *   watch    := ['r' | 'w' | 'rw'] '@' (ADDR | [MOD:]SYM[+|-OFFS]) [':' LEN]
 *                                                parse_watch()
 *   head     := ('p' | 'r' [MAXACTIVE]) [':' name] parse_head()
 *   name     := [GROUP ('/' | '.')] [EVENT]      tpp_parse_event_name()
 *   place    := ADDR | [MOD:]SYM[+|-OFFS][%return] parse_place()
 *   fetcharg := [NAME '='] body                  parse_arg_name()
 *   body     := value [':' TYPE ['[' N ']']]     parse_arg_body()
 *   value    := $var | %reg | @mem | deref | \imm | btf-var  parse_value()
 *   deref    := ('+' | '-') ['u'] OFFS '(' value ')'         parse_deref()
 *
 * Nothing here writes into the command: rules pass byte offsets around and
 * copy a span into a small buffer when a C string is needed.  Caret
 * columns are tracefs ABI (ftracetest checks them); where one lands
 * somewhere surprising, the rule that puts it there says so.
 */
#include <linux/array_size.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/kstrtox.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/string.h>

#include "trace_probe.h"

#define TPP_ERR(id, text) \
	[TPP_E_##id] = (text),

/* Indexed by enum tpp_err; tracing_log_err() takes this array as is. */
const char *tpp_err_text[TPP_E_MAX] = {
#include "trace_probe_errors.h"
};

#undef TPP_ERR

/* A span cut out of one argument body always fits, with a sign in front */
#define TPP_SPAN_BUF		(TPP_MAX_ARGSTR_LEN + 2)

/* Flags that tell function entry and exit apart from everything else */
#define TPP_LOC_MASK		(TPP_USER | TPP_EVENT | TPP_RETURN | TPP_ENTRY)

static const struct {
	const char *name;
	u8 size;
} tpp_types[TPP_TYPE_MAX] = {
	[TPP_TYPE_U8] = { "u8", 1 },	[TPP_TYPE_U16] = { "u16", 2 },
	[TPP_TYPE_U32] = { "u32", 4 },	[TPP_TYPE_U64] = { "u64", 8 },
	[TPP_TYPE_S8] = { "s8", 1 },	[TPP_TYPE_S16] = { "s16", 2 },
	[TPP_TYPE_S32] = { "s32", 4 },	[TPP_TYPE_S64] = { "s64", 8 },
	[TPP_TYPE_X8] = { "x8", 1 },	[TPP_TYPE_X16] = { "x16", 2 },
	[TPP_TYPE_X32] = { "x32", 4 },	[TPP_TYPE_X64] = { "x64", 8 },
	[TPP_TYPE_CHAR] = { "char", 1 },
	[TPP_TYPE_SYMBOL] = { "symbol", sizeof(long) },
	/* strings are stored as a 32-bit __data_loc */
	[TPP_TYPE_STRING] = { "string", 4 },
	[TPP_TYPE_USTRING] = { "ustring", 4 },
	[TPP_TYPE_SYMSTR] = { "symstr", 4 },
};

/* Field names every probe event format already has */
static const char * const tpp_reserved[] = {
	"common_type", "common_flags", "common_preempt_count", "common_pid",
	"common_tgid", "__probe_ip", "__probe_ret_ip", "__probe_func",
};

/* A word of the command: argv[i] of the writer */
struct tpp_word {
	unsigned int start;
	unsigned int len;
};

/*
 * A rewrite of an argument's text (@entry($argN) to its BTF name, :%pd to
 * the dereferences): its output keeps "NAME=" and one VALUE of its input,
 * so that a caret maps back.
 */
struct tpp_rewrite {
	unsigned int name_len;	/* "NAME=" */
	unsigned int val_at;	/* VALUE in the output */
	unsigned int val_len;
	unsigned int val_from;	/* VALUE in the input */
};

/* @entry($argN), then :%pd */
#define TPP_MAX_REWRITES	2

/* One argument to parse: a word of the command, or what a word became */
struct tpp_text {
	const char *s;
	unsigned int len;
	unsigned int pos;	/* caret position of s[0] */
	bool tail;		/* pos is "after the last word": offsets drop */
	unsigned int nr_rewrites;
	struct tpp_rewrite rw[TPP_MAX_REWRITES];
};

struct tpp_state {
	const char *cmd;
	unsigned int len;
	const struct tpp_env *env;
	struct tpp_error *err;
	struct tpp_def *def;
	unsigned int flags;
	const char *func;		/* the probed function, for BTF */
	unsigned int nr_words;
	struct tpp_word *word;
	bool has_name;			/* ":NAME" in the head */
	unsigned int name_at;
	unsigned int name_len;
	unsigned int first;		/* word of the first fetcharg */
	unsigned int nr_texts;
	struct tpp_text *text;
	int nr_params;			/* BTF parameters of func */
	unsigned int aused;
	unsigned int dused;
	char abuf[TPP_BTF_ARGS_BUF];
	char dbuf[TPP_DENTRY_ARGS_BUF];
};

/*
 * Work area for one argument; offsets are into s.
 *
 * late_at: errors found after the value is parsed (types, size, stores)
 * point at the inner value of the outermost dereference, or at the body
 * when there is none, plus the offset of TYPE in the body for type errors.
 * Those columns are ABI: ftracetest checks them.
 *
 * nops counts fetch program slots the way a 16-entry program ending in END
 * fills up: one for the value (two for @SYM, which keeps a placeholder),
 * one per dereference, one for the store unless it takes over the last
 * dereference, one each for a bitfield and an array.  No op may take the
 * last slot: that is TOO_DEEP, at the nesting depth the ABI allows.
 */
struct tpp_argp {
	struct tpp_state *st;
	const struct tpp_text *t;
	const char *s;
	struct tpp_arg *arg;
	unsigned int idx;
	unsigned int body;		/* start of the body */
	unsigned int vend;		/* end of the value (the ':' or the end) */
	unsigned int type_at;		/* start of TYPE, 0 when none */
	unsigned int type_len;		/* TYPE up to a '[' */
	bool bitfield;			/* TYPE is b<w>@<o>/<c> */
	unsigned int late_at;		/* caret for errors after the value */
	bool late_btf;			/* late_at is at a BTF member */
	unsigned int nops;		/* fetch slots used so far */
	unsigned int nr_derefs;
	struct tpp_deref deref[TPP_MAX_DEREFS];
	bool btf_typed;			/* the BTF fields below are valid */
	enum tpp_btf_kind btf_kind;
	enum tpp_type btf_type;
	u8 bitsize;
	u8 bitoffs;
	unsigned int casts;		/* typecasts so far */
	bool whole;			/* "*EXPR": a whole structure ... */
	unsigned int whole_at;		/* ... whose EXPR starts here */
};

static int parse_value(struct tpp_argp *a, unsigned int start,
		       unsigned int end, unsigned int at);

/**
 * tpp_error_set - record an error unless an earlier one is recorded
 * @err: the error context
 * @id: error_log message, or TPP_E_NONE for an error that is not logged
 * @pos: caret position, a byte offset into the command
 * @errnum: negative errno for the writer
 *
 * The register step uses this too, so that one context holds the first
 * error of the whole command.
 *
 * Return: @errnum.
 */
int tpp_error_set(struct tpp_error *err, int id, unsigned int pos, int errnum)
{
	if (!err->errnum) {
		err->errnum = errnum;
		err->id = id;
		err->pos = pos;
	}
	return errnum;
}

/* A caret for a word past the last one goes after the command */
static unsigned int word_pos(const struct tpp_state *st, unsigned int i)
{
	return i < st->nr_words ? st->word[i].start : st->len + 1;
}

static const char *word_str(const struct tpp_state *st, unsigned int i)
{
	return st->cmd + st->word[i].start;
}

static int word_fail(struct tpp_state *st, unsigned int i, unsigned int off,
		     int id, int errnum)
{
	unsigned int pos = word_pos(st, i);

	if (i < st->nr_words)
		pos += off;
	return tpp_error_set(st->err, id, pos, errnum);
}

/*
 * An offset into a rewrite's output points at the same byte of its input:
 * inside VALUE it moves back, in the added parts it sticks to the nearest
 * end of VALUE.
 */
static unsigned int rewrite_offset(const struct tpp_rewrite *rw,
				   unsigned int off)
{
	if (off < rw->name_len)
		return off;
	if (off < rw->val_at)
		return rw->name_len;
	if (off < rw->val_at + rw->val_len)
		return rw->val_from + off - rw->val_at;
	return rw->val_from + rw->val_len;
}

/* Undo the rewrites of @t, the last first, back to the text as written */
static unsigned int text_offset(const struct tpp_text *t, unsigned int off)
{
	unsigned int i = t->nr_rewrites;

	while (i--)
		off = rewrite_offset(&t->rw[i], off);
	return off;
}

static void push_rewrite(struct tpp_text *t, unsigned int name_len,
			 unsigned int val_at, unsigned int val_len,
			 unsigned int val_from)
{
	struct tpp_rewrite *rw;

	/* the expansions make TPP_MAX_REWRITES at most */
	if (t->nr_rewrites == TPP_MAX_REWRITES)
		return;
	rw = &t->rw[t->nr_rewrites++];
	rw->name_len = name_len;
	rw->val_at = val_at;
	rw->val_len = val_len;
	rw->val_from = val_from;
}

/* The caret of offset @off of @t, in the command as written */
static unsigned int text_caret(const struct tpp_text *t, unsigned int off)
{
	return t->tail ? t->pos : t->pos + text_offset(t, off);
}

static int arg_fail(const struct tpp_argp *a, int id, unsigned int off,
		    int errnum)
{
	return tpp_error_set(a->st->err, id, text_caret(a->t, off), errnum);
}

static int no_memory(struct tpp_state *st)
{
	return tpp_error_set(st->err, TPP_E_NONE, 0, -ENOMEM);
}

static bool span_eq(const char *s, unsigned int len, const char *lit)
{
	return strlen(lit) == len && !memcmp(s, lit, len);
}

static bool span_starts(const char *s, unsigned int len, const char *lit)
{
	size_t n = strlen(lit);

	return len >= n && !memcmp(s, lit, n);
}

#define TPP_ENTRY_OPEN		"@entry("
#define TPP_ENTRY_OPEN_LEN	(sizeof(TPP_ENTRY_OPEN) - 1)
#define TPP_ENTRY_ARGN		TPP_ENTRY_OPEN "$arg"
#define TPP_ENTRY_ARGN_LEN	(sizeof(TPP_ENTRY_ARGN) - 1)

static bool is_entry(const char *s, unsigned int len)
{
	return span_starts(s, len, TPP_ENTRY_OPEN);
}

static const char *span_rchr(const char *s, unsigned int len, char c)
{
	while (len--)
		if (s[len] == c)
			return s + len;
	return NULL;
}

static unsigned int span_cspn(const char *s, unsigned int len,
			      const char *reject)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		if (strchr(reject, s[i]))
			break;
	return i;
}

/*
 * kstrto*() and the ops want C strings: copy instead of cutting the command.
 * Helpers with such a buffer stay out of line (noinline_for_stack), so that
 * the recursion of nested dereferences does not carry the buffers along.
 */
static char *span_str(char *buf, size_t size, const char *s, unsigned int len)
{
	if (len >= size)
		return NULL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return buf;
}

static noinline_for_stack int span_ul(const char *s, unsigned int len,
				      unsigned int base, unsigned long *v)
{
	char buf[TPP_SPAN_BUF];

	if (!span_str(buf, sizeof(buf), s, len))
		return -ERANGE;
	return kstrtoul(buf, base, v);
}

static noinline_for_stack int span_l(const char *s, unsigned int len,
				     long *v)
{
	char buf[TPP_SPAN_BUF];

	if (!span_str(buf, sizeof(buf), s, len))
		return -ERANGE;
	return kstrtol(buf, 0, v);
}

/*
 * simple_strtoul() over a span, the number grammar of bitfields and $argN:
 * base 0 guesses the radix, and parsing stops at the first non-digit, *stop
 * being the first byte not parsed.  A number that does not fit an unsigned
 * long is -ERANGE where simple_strtoul() would wrap it: every number of a
 * definition means what it says, or the definition is refused.
 */
static int span_scan(const char *s, const char *end, unsigned int base,
		     unsigned long *v, const char **stop)
{
	bool wrapped = false;
	unsigned int d;

	*v = 0;
	if (!base) {
		base = (s < end && *s == '0') ? 8 : 10;
		if (base == 8 && end - s > 2 && tolower(s[1]) == 'x' &&
		    isxdigit(s[2])) {
			base = 16;
			s += 2;
		}
	}
	for (; s < end; s++) {
		if (isdigit(*s))
			d = *s - '0';
		else if (isxdigit(*s))
			d = tolower(*s) - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		wrapped |= *v > (ULONG_MAX - d) / base;
		*v = *v * base + d;
	}
	*stop = s;
	return wrapped ? -ERANGE : 0;
}

/* A C identifier; a group name may also use '-' */
static bool good_name(const char *s, unsigned int len, bool hyphen)
{
	unsigned int i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] == '_' || isalpha(s[i]) || (hyphen && s[i] == '-'))
			continue;
		if (i && isdigit(s[i]))
			continue;
		return false;
	}
	return true;
}

static bool at_entry(unsigned int flags)
{
	return (flags & TPP_LOC_MASK) == TPP_ENTRY;
}

static bool at_exit(unsigned int flags)
{
	return (flags & TPP_LOC_MASK) == TPP_RETURN;
}

/**
 * tpp_parse_event_name - parse "[GROUP/]EVENT" or "[GROUP.]EVENT"
 * @cmd: the command
 * @start: offset of the text after the head's ':'
 * @len: its length
 * @name: filled with the spans found
 * @err: error context; carets point at the start of the bad part
 *
 * "GROUP/" alone asks for a generated event name in GROUP.
 *
 * Return: 0, or -EINVAL with the error in @err.
 */
int tpp_parse_event_name(const char *cmd, unsigned int start, unsigned int len,
			 struct tpp_name *name, struct tpp_error *err)
{
	const char *s = cmd + start;
	const char *sep = memchr(s, '/', len);
	unsigned int glen;

	memset(name, 0, sizeof(*name));
	if (!sep)
		sep = memchr(s, '.', len);
	if (sep) {
		glen = sep - s;
		if (!glen)
			return tpp_error_set(err, TPP_E_GROUP_EMPTY, start, -EINVAL);
		if (glen >= TPP_MAX_EVENT_NAME_LEN)
			return tpp_error_set(err, TPP_E_GROUP_LONG, start, -EINVAL);
		if (!good_name(s, glen, true))
			return tpp_error_set(err, TPP_E_GROUP_CHARS, start, -EINVAL);
		name->group = start;
		name->group_len = glen;
		start += glen + 1;
		len -= glen + 1;
	}
	name->event = start;
	if (!len)
		return sep ? 0 : tpp_error_set(err, TPP_E_EVENT_EMPTY, start, -EINVAL);
	if (len >= TPP_MAX_EVENT_NAME_LEN)
		return tpp_error_set(err, TPP_E_EVENT_LONG, start, -EINVAL);
	if (!good_name(cmd + start, len, false))
		return tpp_error_set(err, TPP_E_EVENT_CHARS, start, -EINVAL);
	name->event_len = len;
	return 0;
}

/* All maxactive errors point at the byte after 'r' */
static int parse_maxactive(struct tpp_state *st, const char *s,
			   unsigned int len)
{
	char buf[TPP_MAX_EVENT_NAME_LEN];
	unsigned int v;

	if (!st->def->is_return)
		return word_fail(st, 0, 1, TPP_E_MAXACT_ON_ENTRY, -EINVAL);
	if (!span_str(buf, sizeof(buf), s, len) || kstrtouint(buf, 0, &v) || !v)
		return word_fail(st, 0, 1, TPP_E_MAXACT, -EINVAL);
	if (v > TPP_MAXACTIVE_MAX)
		return word_fail(st, 0, 1, TPP_E_MAXACT_BIG, -EINVAL);
	st->def->maxactive = v;
	return 0;
}

/*
 * 'p' or 'r', MAXACTIVE, ":NAME".  Only a digit right after the letter
 * starts MAXACTIVE; anything else up to ':' is ignored.
 * NAME is parsed after the place, which is the order errors come in.
 */
static int parse_head(struct tpp_state *st)
{
	const char *w = word_str(st, 0);
	unsigned int len = st->word[0].len;
	const char *colon = memchr(w, ':', len);
	unsigned int head = colon ? colon - w : len;

	st->def->kind = w[0];
	st->def->is_return = w[0] == 'r';
	if (colon) {
		st->has_name = true;
		st->name_at = st->word[0].start + head + 1;
		st->name_len = len - head - 1;
	}
	if (len > 1 && isdigit(w[1]))
		return parse_maxactive(st, w + 1, head - 1);
	return 0;
}

/* The place's "[MOD:]SYM", @len bytes at @s: &tpp_def.symbol and .module */
static int set_symbol(struct tpp_state *st, const char *s, unsigned int len)
{
	struct tpp_def *def = st->def;
	const char *colon;

	def->symbol = kmemdup_nul(s, len, GFP_KERNEL);
	if (!def->symbol)
		return no_memory(st);
	colon = strchr(def->symbol, ':');
	if (colon) {
		def->module = kmemdup_nul(def->symbol, colon - def->symbol,
					  GFP_KERNEL);
		if (!def->module)
			return no_memory(st);
	}
	return 0;
}

/* kallsyms entries of the place's symbol; -ENODEV: its module is not loaded */
static int count_symbol(const struct tpp_state *st)
{
	const struct tpp_def *def = st->def;
	const char *sym = def->symbol;

	if (def->module)
		sym = strchr(sym, ':') + 1;
	return st->env->sym_count(st->env->priv, def->module, sym);
}

/* SYM[+|-OFFS]: the offset must be 0..UINT_MAX */
static int split_symbol(struct tpp_state *st, const char *text)
{
	const char *sign = strpbrk(text, "+-");
	long offs = 0;

	if ((sign && kstrtol(sign, 0, &offs)) || offs < 0 || offs > UINT_MAX)
		return word_fail(st, 1, 0, TPP_E_PLACE, -EINVAL);
	st->def->offset = offs;
	return set_symbol(st, text, sign ? (size_t)(sign - text) : strlen(text));
}

/*
 * The symbol must be unique.  A missing symbol fails with -EINVAL here,
 * the errno the tracefs ABI gives for it.
 */
static int check_symbol(struct tpp_state *st)
{
	const struct tpp_def *def = st->def;
	int n = count_symbol(st);

	if (n == -ENODEV && def->module)
		return 0;	/* the probe waits for the module */
	if (n > 1)
		return word_fail(st, 1, 0, TPP_E_SYM_AMBIGUOUS, -EINVAL);
	if (n <= 0)
		return word_fail(st, 1, 0, TPP_E_PLACE, -EINVAL);
	return 0;
}

/* Only a probe on a symbol learns whether it sits at entry or exit */
static int check_entry(struct tpp_state *st)
{
	const struct tpp_def *def = st->def;
	int ret;

	ret = st->env->func_entry(st->env->priv, def->symbol, def->offset);
	if (def->is_return)
		st->flags |= TPP_RETURN;
	else if (!ret)
		st->flags |= TPP_ENTRY;
	/* -ENOENT (module not loaded yet) is left to the register step */
	if (ret == -EINVAL && def->is_return)
		return word_fail(st, 1, 0, TPP_E_RET_NOT_ENTRY, -EINVAL);
	return 0;
}

static int parse_place_symbol(struct tpp_state *st, const char *text,
			      const char *pct)
{
	const char *w = word_str(st, 1);
	unsigned int len = st->word[1].len;
	int ret;

	/* PATH:OFFS is a uprobe: let dynamic_events try the next parser */
	if (memchr(w, '/', len) && memchr(w, ':', len))
		return tpp_error_set(st->err, TPP_E_NONE, 0, -ECANCELED);
	if (pct) {
		if (!span_eq(pct, len - (pct - w), "%return"))
			return word_fail(st, 1, pct - w, TPP_E_PLACE_SUFFIX,
					 -EINVAL);
		st->def->is_return = true;
	}
	ret = split_symbol(st, text);
	if (!ret)
		ret = check_symbol(st);
	if (!ret)
		ret = check_entry(st);
	return ret;
}

/* ADDR, or [MOD:]SYM[+|-OFFS][%return] */
static int parse_place(struct tpp_state *st)
{
	const char *w = word_str(st, 1);
	unsigned int len = st->word[1].len;
	const char *pct = memchr(w, '%', len);
	char *text;
	int ret = 0;

	st->def->place_pos = st->word[1].start;
	text = kmemdup_nul(w, pct ? pct - w : len, GFP_KERNEL);
	if (!text)
		return no_memory(st);
	if (pct || kstrtoul(text, 0, &st->def->addr))
		ret = parse_place_symbol(st, text, pct);
	/*
	 * A return probe on an address is at a function's exit: the kprobes
	 * core refuses it unless the address is a function entry.  So it is
	 * a return probe like any other, and $retval is allowed there.
	 */
	else if (st->def->is_return)
		st->flags |= TPP_RETURN;
	kfree(text);
	return ret;
}

/* "p_SYM_OFFS" or "p_0x%p" (a hashed pointer), with ":.*" made '_' */
static void auto_event_name(const struct tpp_def *def, char *buf, size_t size)
{
	char kind = def->is_return ? 'r' : 'p';

	if (def->symbol)
		snprintf(buf, size, "%c_%s_%lu", kind, def->symbol, def->offset);
	else
		snprintf(buf, size, "%c_0x%p", kind, (void *)def->addr);
	tpp_fix_event_name(buf);
}

static int parse_name(struct tpp_state *st)
{
	char event[TPP_MAX_EVENT_NAME_LEN];
	struct tpp_name n = { 0 };
	int ret;

	if (st->has_name) {
		ret = tpp_parse_event_name(st->cmd, st->name_at, st->name_len,
					   &n, st->err);
		if (ret)
			return ret;
	}
	auto_event_name(st->def, event, sizeof(event));
	if (tpp_set_names(st->def, st->cmd, &n, TPP_DEFAULT_GROUP, event))
		return no_memory(st);
	return 0;
}

/*
 * Every word that starts with "$arg" is checked before any argument is
 * parsed: they need a function entry or exit, "$arg*" comes once.
 * Return: 1 when one was found, 0 when none, or a negative errno.
 */
static int scan_var_args(struct tpp_state *st, int *star, unsigned int *last)
{
	unsigned int i, len;
	const char *w;
	int found = 0;

	for (i = st->first; i < st->nr_words; i++) {
		w = word_str(st, i);
		len = st->word[i].len;
		/* @entry($argN) of a function exit gets BTF as $argN does */
		if (span_starts(w, len, TPP_ENTRY_ARGN) && at_exit(st->flags)) {
			found = 1;
			continue;
		}
		if (!span_starts(w, len, "$arg"))
			continue;
		*last = i;
		if (!at_entry(st->flags) && !at_exit(st->flags))
			return word_fail(st, i, 0, TPP_E_ARGS_PLACE, -EINVAL);
		found = 1;
		if (len > 4 && isdigit(w[4]))
			continue;
		if (len == 4 || w[4] != '*')
			return word_fail(st, i, 0, TPP_E_VAR, -EINVAL);
		/* "$arg*:u8" is refused, not read as "$arg*" */
		if (len > 5)
			return word_fail(st, i, 5, TPP_E_ARGS_ALONE, -EINVAL);
		if (*star >= 0)
			return word_fail(st, i, 0, TPP_E_ARGS_TWICE, -EINVAL);
		*star = i;
	}
	return found;
}

/* BTF's name of parameter @idx, or NULL with an error at byte @at of @w */
static const char *btf_param_name(struct tpp_state *st, unsigned int w,
				  unsigned int at, unsigned long idx)
{
	const struct tpp_env *env = st->env;
	const char *name;

	if (idx >= (unsigned int)st->nr_params) {
		word_fail(st, w, at, TPP_E_BTF_NOVAR, -ENOENT);
		return NULL;
	}
	name = env->btf->param_name(env->priv, st->func, st->flags, idx);
	if (!name)
		word_fail(st, w, 0, TPP_E_BTF_NOFUNC, -ENOENT);
	return name;
}

/* Append the text to abuf as argument text @t, which stands for word @w */
static __printf(4, 5) int abuf_print(struct tpp_state *st, unsigned int w,
				     struct tpp_text *t, const char *fmt, ...)
{
	unsigned int room = sizeof(st->abuf) - st->aused;
	va_list args;
	int n;

	va_start(args, fmt);
	n = vsnprintf(st->abuf + st->aused, room, fmt, args);
	va_end(args);
	if (n >= (int)room)
		return word_fail(st, w, 0, TPP_E_ARGS_LONG, -E2BIG);
	t->s = st->abuf + st->aused;
	t->len = n;
	st->aused += n + 1;
	return 0;
}

/* Append "NAME SUFFIX" of BTF parameter @idx to abuf as argument text @t */
static int btf_print(struct tpp_state *st, unsigned int w, unsigned long idx,
		     const char *suffix, unsigned int slen, struct tpp_text *t)
{
	const char *name = btf_param_name(st, w, 0, idx);

	if (!name)
		return st->err->errnum;
	return abuf_print(st, w, t, "%s%.*s", name, (int)slen, suffix);
}

/* "$argN[:TYPE]" becomes "NAME[:TYPE]" */
static int expand_argn(struct tpp_state *st, unsigned int w,
		       struct tpp_text *t)
{
	const char *s = word_str(st, w);
	const char *end = s + st->word[w].len;
	const char *type;
	unsigned long n;
	int ret = span_scan(s + 4, end, 10, &n, &type);

	if (type < end && *type != ':')
		return word_fail(st, w, 0, TPP_E_VAR, -ENOENT);
	/*
	 * N past an int is no index, as 0 is not: kept in an int, such an N
	 * would wrap ($arg4294967297 would be $arg1) or read out of bounds.
	 */
	if (ret || !n || n > INT_MAX)
		return word_fail(st, w, 0, TPP_E_ARG_INDEX, -EINVAL);
	return btf_print(st, w, n - 1, type, end - type, t);
}

/*
 * "@entry($argN)[:TYPE]" becomes "NAME=@entry(NAME)[:TYPE]": the parameter's
 * name and type, as "$argN" gets them.  What follows "$argN" is copied as
 * written, so the caret of an error there maps back to it; anything else
 * after "$argN" is left to the parser.
 */
static int expand_entry_argn(struct tpp_state *st, unsigned int w,
			     struct tpp_text *t)
{
	const char *s = word_str(st, w);
	const char *end = s + st->word[w].len;
	const char *name, *close;
	unsigned long n;
	int ret;

	if (span_scan(s + TPP_ENTRY_ARGN_LEN, end, 10, &n, &close) ||
	    close == s + TPP_ENTRY_ARGN_LEN || close == end || *close != ')' ||
	    (close + 1 < end && close[1] != ':'))
		return 0;
	if (!n || n > INT_MAX)
		return word_fail(st, w, TPP_ENTRY_OPEN_LEN, TPP_E_ARG_INDEX,
				 -EINVAL);
	name = btf_param_name(st, w, TPP_ENTRY_OPEN_LEN, n - 1);
	if (!name)
		return st->err->errnum;
	ret = abuf_print(st, w, t, "%s=" TPP_ENTRY_OPEN "%s%.*s", name, name,
			 (int)(end - close), close);
	if (ret)
		return ret;
	/* only ")[:TYPE]" is as written: carets before it go to the word */
	push_rewrite(t, 0, t->len - (end - close), end - close, close - s);
	return 0;
}

static int expand_word(struct tpp_state *st, unsigned int w, int star,
		       struct tpp_text *t, unsigned int *j)
{
	unsigned int k;
	int ret = 0;

	if ((int)w == star) {
		for (k = 0; k < (unsigned int)st->nr_params && !ret; k++)
			ret = btf_print(st, w, k, "", 0, &t[(*j)++]);
		return ret;
	}
	if (span_starts(word_str(st, w), st->word[w].len, "$arg"))
		return expand_argn(st, w, &t[(*j)++]);
	t[*j].s = word_str(st, w);
	t[*j].len = st->word[w].len;
	if (span_starts(t[*j].s, t[*j].len, TPP_ENTRY_ARGN) && at_exit(st->flags))
		ret = expand_entry_argn(st, w, &t[*j]);
	(*j)++;
	return ret;
}

static int expand_texts(struct tpp_state *st, int star)
{
	unsigned int n = st->nr_words - st->first;
	unsigned int i, j = 0;
	struct tpp_text *t;
	int ret = 0;

	if (star >= 0)
		n += st->nr_params - 1;
	t = kcalloc(n, sizeof(*t), GFP_KERNEL);
	if (!t)
		return no_memory(st);
	for (i = st->first; i < st->nr_words && !ret; i++)
		ret = expand_word(st, i, star, t, &j);
	if (ret) {
		kfree(t);
		return ret;
	}
	kfree(st->text);
	st->text = t;
	st->nr_texts = n;
	return 0;
}

/* $arg* and $argN turn into BTF parameter names, word by word */
static int expand_var_args(struct tpp_state *st)
{
	const struct tpp_env *env = st->env;
	unsigned int last = 0;
	int star = -1;
	int found;

	found = scan_var_args(st, &star, &last);
	if (found <= 0)
		return found;
	if (!env->btf)
		st->nr_params = -EOPNOTSUPP;
	else if (!st->func)
		st->nr_params = -EINVAL;
	else
		st->nr_params = env->btf->nr_params(env->priv, st->func,
						    st->flags);
	/* not "no BTF": $argN would silently stay a register read */
	if (st->nr_params == -ENOMEM)
		return no_memory(st);
	if (st->nr_params > 0)
		return expand_texts(st, star);
	if (star < 0)
		return 0;
	/* The caret goes to the last "$arg" word */
	return word_fail(st, last, 0, TPP_E_BTF_NOSUP, -EOPNOTSUPP);
}

/*
 * "[NAME=]VALUE:%pd" becomes "[NAME=]+0x0(+0xOFF(VALUE)):string", and
 * ":%pD" gets one more dereference; length limits and errors apply to the
 * expanded text.  error_log shows the command as written, not its
 * expansion, with carets mapped back to it.
 */
static int expand_dentry(struct tpp_state *st, struct tpp_text *t)
{
	const struct tpp_env *env = st->env;
	unsigned int room = sizeof(st->dbuf) - st->dused;
	char *out = st->dbuf + st->dused;
	unsigned int cut, nlen, plen, ent = 0;
	const char *eq;
	char pre[64];
	char c;
	int n;

	if (t->len < 4 || memcmp(t->s + t->len - 4, ":%p", 3))
		return 0;
	c = t->s[t->len - 1];
	if (c != 'd' && c != 'D')
		return 0;
	cut = t->len - 4;
	eq = memchr(t->s, '=', cut);
	nlen = eq ? eq + 1 - t->s : 0;
	/* @entry(VALUE):%pd reads the name at the entry */
	if (is_entry(t->s + nlen, cut - nlen)) {
		/* its value ends before the type, as parse_entry() says */
		if (t->s[cut - 1] != ')')
			return tpp_error_set(st->err, TPP_E_ENTRY_CLOSE,
					     text_caret(t, cut), -EINVAL);
		ent = TPP_ENTRY_OPEN_LEN;
	}
	if (c == 'd')
		plen = snprintf(pre, sizeof(pre), "+0x0(+0x%lx(",
				env->dentry_name_off);
	else
		plen = snprintf(pre, sizeof(pre), "+0x0(+0x%lx(+0x%lx(",
				env->dentry_name_off, env->file_dentry_off);
	n = snprintf(out, room, "%.*s%s%.*s%s%s:string", (int)(nlen + ent),
		     t->s, pre, (int)(cut - nlen - ent - !!ent), t->s + nlen + ent,
		     c == 'd' ? "))" : ")))", ent ? ")" : "");
	/* a full buffer is -ENOMEM to the writer (ABI), with a record */
	if (n >= (int)room)
		return tpp_error_set(st->err, TPP_E_DENTRY_ROOM, t->pos, -ENOMEM);
	push_rewrite(t, nlen, nlen + ent + plen, cut - nlen - ent - !!ent,
		     nlen + ent);
	t->s = out;
	t->len = n;
	st->dused += n + 1;
	return 0;
}

static struct tpp_text *plain_texts(struct tpp_state *st)
{
	unsigned int i;

	st->nr_texts = st->nr_words - st->first;
	st->text = kcalloc(st->nr_texts, sizeof(*st->text), GFP_KERNEL);
	for (i = 0; st->text && i < st->nr_texts; i++) {
		st->text[i].s = word_str(st, st->first + i);
		st->text[i].len = st->word[st->first + i].len;
	}
	return st->text;
}

/* Argument i points at word first + i, even after $arg* expanded */
static void place_texts(struct tpp_state *st)
{
	unsigned int i, w;

	for (i = 0; i < st->nr_texts; i++) {
		w = st->first + i;
		st->text[i].pos = word_pos(st, w);
		st->text[i].tail = w >= st->nr_words;
	}
	st->def->tail_pos = word_pos(st, st->first + st->nr_texts);
}

/* Names are copies: the caller may free the command */
static char *auto_arg_name(const struct tpp_argp *a)
{
	const char *colon;
	unsigned int n;

	/* With BTF arguments built in, a bare identifier names itself */
	if (a->st->env->btf) {
		colon = memchr(a->s, ':', a->t->len);
		n = colon ? colon - a->s : a->t->len;
		if (good_name(a->s, n, false))
			return kmemdup_nul(a->s, n, GFP_KERNEL);
	}
	return kasprintf(GFP_KERNEL, "arg%u", a->idx + 1);
}

static bool arg_name_used(const struct tpp_argp *a)
{
	const char *name = a->arg->name;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tpp_reserved); i++)
		if (!strcmp(name, tpp_reserved[i]))
			return true;
	for (i = 0; i < a->idx; i++)
		if (!strcmp(name, a->st->def->args[i].name))
			return true;
	return false;
}

/* [NAME=]: every name error points at the start of the argument */
static int parse_arg_name(struct tpp_argp *a)
{
	const char *eq = memchr(a->s, '=', a->t->len);
	unsigned int nlen = eq ? eq - a->s : 0;

	if (eq) {
		if (nlen > TPP_MAX_ARG_NAME_LEN)
			return arg_fail(a, TPP_E_NAME_LONG, 0, -EINVAL);
		if (!nlen)
			return arg_fail(a, TPP_E_NAME_EMPTY, 0, -EINVAL);
		a->body = nlen + 1;
		a->arg->name = kmemdup_nul(a->s, nlen, GFP_KERNEL);
	} else {
		a->arg->name = auto_arg_name(a);
	}
	if (!a->arg->name)
		return no_memory(a->st);
	if (!good_name(a->arg->name, strlen(a->arg->name), false))
		return arg_fail(a, TPP_E_NAME_CHARS, 0, -EINVAL);
	if (arg_name_used(a))
		return arg_fail(a, TPP_E_NAME_USED, 0, -EINVAL);
	return 0;
}

/* '[' N ']' closing the body; @at is the byte after '[' */
static int parse_array_len(struct tpp_argp *a, unsigned int at)
{
	unsigned int end = a->t->len;
	const char *close = memchr(a->s + at, ']', end - at);
	char buf[TPP_SPAN_BUF];
	unsigned int n;

	if (!close)
		return arg_fail(a, TPP_E_ARRAY_OPEN, end, -EINVAL);
	if (close + 1 != a->s + end)
		return arg_fail(a, TPP_E_ARRAY_SUFFIX, close + 1 - a->s, -EINVAL);
	if (!span_str(buf, sizeof(buf), a->s + at, close - a->s - at) ||
	    kstrtouint(buf, 0, &n) || !n)
		return arg_fail(a, TPP_E_ARRAY_LEN, at, -EINVAL);
	if (n > TPP_MAX_ARRAY_LEN)
		return arg_fail(a, TPP_E_ARRAY_BIG, at, -EINVAL);
	a->arg->count = n;
	return 0;
}

/* b<w>@<o>/<c>: only the container <c> picks the type, the rest is later */
static int lookup_bitfield_type(struct tpp_argp *a, const char *t,
				unsigned int n)
{
	const char *slash = memchr(t, '/', n);
	unsigned long c;

	if (!slash)
		return -1;
	a->bitfield = true;
	if (span_ul(slash + 1, n - (slash + 1 - t), 0, &c))
		return -1;
	switch (c) {
	case 8:
		return TPP_TYPE_U8;
	case 16:
		return TPP_TYPE_U16;
	case 32:
		return TPP_TYPE_U32;
	case 64:
		return TPP_TYPE_U64;
	}
	return -1;
}

static int lookup_type(struct tpp_argp *a)
{
	const char *t = a->s + a->type_at;
	unsigned int n = a->type_len;
	int i;

	if (!a->type_at)
		return BITS_PER_LONG == 64 ? TPP_TYPE_X64 : TPP_TYPE_X32;
	if ((a->st->flags & TPP_USER) &&
	    (span_eq(t, n, "symbol") || span_eq(t, n, "symstr")))
		return -1;
	if (n && t[0] == 'b')
		return lookup_bitfield_type(a, t, n);
	for (i = 0; i < TPP_TYPE_MAX; i++)
		if (span_eq(t, n, tpp_types[i].name))
			return i;
	return -1;
}

static bool type_is(const struct tpp_argp *a, const char *name)
{
	return span_eq(a->s + a->type_at, a->type_len, name);
}

/* $comm and \"..." already are string addresses (eprobes aside) */
static bool value_is_string(const struct tpp_argp *a)
{
	const char *v = a->s + a->body;
	unsigned int n = a->vend - a->body;

	if (a->st->flags & TPP_EVENT)
		return false;
	/* @entry(VALUE) is typed as VALUE */
	if (is_entry(v, n) && v[n - 1] == ')') {
		v += TPP_ENTRY_OPEN_LEN;
		n -= TPP_ENTRY_OPEN_LEN + 1;
	}
	return span_eq(v, n, "$comm") || span_eq(v, n, "$COMM") ||
	       span_starts(v, n, "\\\"");
}

static int pick_type(struct tpp_argp *a)
{
	unsigned int at = a->type_at ?: a->body;
	int type;

	if (value_is_string(a)) {
		/* only "string" fits, and not as an array */
		if (a->arg->count || (a->type_at && !type_is(a, "string")))
			return arg_fail(a, TPP_E_NEED_STRING, at, -EINVAL);
		a->arg->type = TPP_TYPE_STRING;
		return 0;
	}
	type = lookup_type(a);
	/* A bad bitfield such as b3@0/24 is a BITFIELD error, not a TYPE one */
	if (type < 0)
		return arg_fail(a, a->bitfield ? TPP_E_BITFIELD : TPP_E_TYPE, at,
				-EINVAL);
	a->arg->type = type;
	return 0;
}

/* [':' TYPE ['[' N ']']]: the first ':' of the body starts TYPE */
static int parse_type_suffix(struct tpp_argp *a)
{
	unsigned int end = a->t->len;
	const char *colon = memchr(a->s + a->body, ':', end - a->body);
	const char *open;
	int ret;

	a->vend = colon ? colon - a->s : end;
	if (colon) {
		a->type_at = a->vend + 1;
		open = memchr(a->s + a->type_at, '[', end - a->type_at);
		a->type_len = (open ? open - a->s : end) - a->type_at;
		if (open) {
			ret = parse_array_len(a, open - a->s + 1);
			if (ret)
				return ret;
		}
	}
	return pick_type(a);
}

/* The first value of the chain; it always takes the first fetch slot */
static int set_src(struct tpp_argp *a, enum tpp_src src, unsigned long val)
{
	a->arg->fetch.src = src;
	a->arg->fetch.val = val;
	a->nops = 1;
	return 0;
}

static int push_deref(struct tpp_argp *a, long offset, bool user,
		      unsigned int at)
{
	if (a->nops >= TPP_MAX_OPS - 1)
		return arg_fail(a, TPP_E_TOO_DEEP, at, -EINVAL);
	a->deref[a->nr_derefs].offset = offset;
	a->deref[a->nr_derefs].user = user;
	a->deref[a->nr_derefs].percpu = false;
	a->nr_derefs++;
	a->nops++;
	return 0;
}

/*
 * Argument @idx (from 0) of the probed function, where the architecture
 * has it at the entry; a return probe saves it there.  A tprobe's
 * parameter 0 is the stub's data: its arguments start at 1.
 */
static int set_arg_src(struct tpp_argp *a, unsigned int idx)
{
	const struct tpp_env *env = a->st->env;
	unsigned int flags = a->st->flags;
	unsigned long val;
	int src;

	src = env->arg_at(env->priv, idx + !!(flags & TPP_TPOINT), &val);
	if (src < 0)
		return src;
	if (val != tpp_earg_val(val))	/* must fit entry data */
		return -E2BIG;
	if (at_exit(flags))
		return set_src(a, TPP_SRC_EARG, tpp_earg(src, val));
	return set_src(a, src, val);
}

/*
 * The members a resolved BTF expression dereferences, and its type; a
 * typecast's first member is counted from where its option points
 */
static int apply_btf_fields(struct tpp_argp *a, const struct tpp_btf_req *req,
			    unsigned int at)
{
	unsigned int i, n = min_t(unsigned int, req->nr_fields,
				  ARRAY_SIZE(req->field));
	long offset;
	int ret;

	for (i = 0; i < n; i++) {
		offset = req->field[i].offset - (i ? 0 : req->cast_offset);
		ret = push_deref(a, offset, false, at + req->field[i].at);
		if (ret)
			return ret;
	}
	a->late_at = at + req->late_at;
	a->late_btf = true;
	a->btf_typed = req->typed;
	a->btf_type = req->type;
	a->btf_kind = req->kind;
	a->bitsize = req->bitsize;
	a->bitoffs = req->bitoffs;
	return 0;
}

/* Hand VAR[->FIELD...] or $retval[->FIELD...] to the BTF resolver */
static int apply_btf(struct tpp_argp *a, const struct tpp_btf_req *req,
		     unsigned int at)
{
	if (req->src == TPP_SRC_RETVAL || req->src == TPP_SRC_CURRENT)
		set_src(a, req->src, 0);
	else if (set_arg_src(a, req->param))
		return arg_fail(a, TPP_E_ARG_INDEX, at, -EINVAL);
	return apply_btf_fields(a, req, at);
}

/*
 * "*EXPR" resolved: the argument keeps the structure's BTF (its reference
 * too) and reads it in place of the last member, or where the value
 * points, which is a typecast's STRUCT when it has no member
 */
static int apply_whole(struct tpp_argp *a, const struct tpp_btf_req *req)
{
	struct tpp_arg *arg = a->arg;

	arg->btf = req->whole_btf;
	arg->btf_id = req->whole_id;
	arg->whole = req->whole_size;
	if (req->whole_in_place)
		return 0;
	return push_deref(a, req->nr_fields ? 0 : -req->cast_offset, false,
			  a->late_at);
}

/*
 * Hand [@start, @end) to the BTF resolver; a typecast with its @cast_len
 * and @chain (see struct tpp_btf_req), 0 for anything else
 */
static int ask_btf(struct tpp_argp *a, unsigned int start, unsigned int end,
		   unsigned int at, unsigned int cast_len, unsigned int chain)
{
	const struct tpp_env *env = a->st->env;
	struct tpp_btf_req *req;
	int ret;

	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return no_memory(a->st);
	req->func = a->st->func;
	req->flags = a->st->flags;
	req->expr = a->s + start;
	req->len = end - start;
	req->cast_len = cast_len;
	req->chain = chain;
	req->whole = a->whole && start == a->whole_at;
	req->id = TPP_E_NONE;
	ret = env->btf->resolve(env->priv, req);
	if (ret)
		arg_fail(a, req->id, at + req->at, ret);
	else if (cast_len)
		ret = apply_btf_fields(a, req, at);
	else
		ret = apply_btf(a, req, at);
	if (!ret && req->whole)
		ret = apply_whole(a, req);
	else if (req->whole_btf)
		env->btf->put(req->whole_btf);
	kfree(req);
	return ret;
}

static int resolve_btf(struct tpp_argp *a, unsigned int start,
		       unsigned int end, unsigned int at)
{
	if (!a->st->env->btf)
		return arg_fail(a, TPP_E_BTF_NOSUP, at, -EOPNOTSUPP);
	/* A probe without a function fails here, with nothing logged */
	if (!a->st->func && !span_starts(a->s + start, end - start, "$current"))
		return arg_fail(a, TPP_E_NONE, at, -EINVAL);
	return ask_btf(a, start, end, at, 0, 0);
}

/*
 * A bare identifier: a parameter of the probed function, at its entry or
 * exit only (a return probe on an address is at an exit of no known one)
 */
static int parse_btf_var(struct tpp_argp *a, unsigned int start,
			 unsigned int end, unsigned int at)
{
	unsigned int flags = a->st->flags;

	if ((!at_entry(flags) && !at_exit(flags)) || !a->st->func)
		return arg_fail(a, TPP_E_BTF_NOSUP, at, -EINVAL);
	return resolve_btf(a, start, end, at);
}

/*
 * $current, the current task's address; $current->FIELD... reads it with
 * the kernel's BTF, wherever the probe is.  Uprobes have no use for it.
 */
static int parse_current(struct tpp_argp *a, unsigned int start,
			 unsigned int end, unsigned int at)
{
	const unsigned int n = sizeof("$current") - 1;

	if (a->st->flags & TPP_USER)
		return arg_fail(a, TPP_E_VAR, at, -EINVAL);
	/* "*$current" asks BTF what it points at */
	if (end - start == n && !(a->whole && start == a->whole_at))
		return set_src(a, TPP_SRC_CURRENT, 0);
	if (end - start == n)
		return resolve_btf(a, start, end, at);
	if (a->s[start + n] != '-' && a->s[start + n] != '.')
		return arg_fail(a, TPP_E_VAR, at, -EINVAL);
	return resolve_btf(a, start, end, at);
}

/* eprobe: $FIELD of the attached event, $comm or $current */
static noinline_for_stack int parse_event_var(struct tpp_argp *a,
					      const char *v, unsigned int n,
					      unsigned int at)
{
	const struct tpp_env *env = a->st->env;
	char buf[TPP_SPAN_BUF];
	int idx = -ENOENT;

	if (env->event_field && span_str(buf, sizeof(buf), v, n))
		idx = env->event_field(env->priv, buf);
	if (idx >= 0)
		return set_src(a, TPP_SRC_FIELD, idx);
	if (span_eq(v, n, "comm") || span_eq(v, n, "COMM"))
		return set_src(a, TPP_SRC_COMM, 0);
	if (span_starts(v, n, "current"))
		return parse_current(a, v - 1 - a->s, v + n - a->s, at);
	return arg_fail(a, TPP_E_VAR, at, -EINVAL);
}

/*
 * "$retval", or with BTF "$retval->FIELD..." (BTF judges what follows).
 * Without BTF to ask (uprobes, return probes on an address, kernels
 * without BTF) anything after "$retval" is refused: "$retvalue" or
 * "$retval->f" is not read as $retval.
 */
static int parse_retval(struct tpp_argp *a, unsigned int start,
			unsigned int end, unsigned int at)
{
	unsigned int rest = start + sizeof("$retval") - 1;
	unsigned int flags = a->st->flags;

	if (!(flags & TPP_RETURN))
		return arg_fail(a, TPP_E_RETVAL_ON_ENTRY, at, -EINVAL);
	if (!(flags & TPP_USER) && a->st->env->btf && a->st->func)
		return resolve_btf(a, start, end, at);
	if (rest == end)
		return set_src(a, TPP_SRC_RETVAL, 0);
	if (a->s[rest] != '-' && a->s[rest] != '.')
		return arg_fail(a, TPP_E_VAR, at, -EINVAL);
	return arg_fail(a, TPP_E_BTF_NOSUP, at, -EOPNOTSUPP);
}

/* $stack or $stackN; @d is what follows "$stack" */
static int parse_stack(struct tpp_argp *a, const char *d, unsigned int n,
		       unsigned int at)
{
	unsigned long i;

	/* the stack at an access is the compiler's, as the registers are */
	if (a->st->flags & TPP_WATCH)
		return arg_fail(a, TPP_E_WATCH_REGS, at, -EINVAL);
	if (!n)
		return set_src(a, TPP_SRC_STACKP, 0);
	if (!isdigit(d[0]) || span_ul(d, n, 10, &i))
		return arg_fail(a, TPP_E_VAR, at, -EINVAL);
	if (!(a->st->flags & TPP_USER) && i > a->st->env->max_stack)
		return arg_fail(a, TPP_E_STACK_INDEX, at, -EINVAL);
	return set_src(a, TPP_SRC_STACK, i);
}

/* $argN; @d is what follows "$arg" */
static int parse_argn(struct tpp_argp *a, const char *d, unsigned int n,
		      unsigned int at)
{
	unsigned int flags = a->st->flags;
	unsigned long i;

	if (span_ul(d, n, 10, &i))
		return arg_fail(a, TPP_E_VAR, at, -EINVAL);
	if (!i || i > a->st->env->max_arg)
		return arg_fail(a, TPP_E_ARG_INDEX, at, -EINVAL);
	if (!at_entry(flags) && !at_exit(flags))
		return arg_fail(a, TPP_E_ARGS_PLACE, at, -EINVAL);
	if (set_arg_src(a, i - 1))
		return arg_fail(a, TPP_E_ARG_INDEX, at, -EINVAL);
	return 0;
}

static int parse_var(struct tpp_argp *a, unsigned int start, unsigned int end,
		     unsigned int at)
{
	const char *v = a->s + start + 1;
	unsigned int n = end - start - 1;

	if (a->st->flags & TPP_EVENT)
		return parse_event_var(a, v, n, at);
	if (span_starts(v, n, "retval"))
		return parse_retval(a, start, end, at);
	if (span_starts(v, n, "stack"))
		return parse_stack(a, v + 5, n - 5, at);
	if (span_eq(v, n, "comm") || span_eq(v, n, "COMM"))
		return set_src(a, TPP_SRC_COMM, 0);
	if (span_starts(v, n, "current"))
		return parse_current(a, start, end, at);
	if ((a->st->flags & TPP_WATCH) && span_eq(v, n, "addr"))
		return set_src(a, TPP_SRC_WATCH, 0);
	if ((a->st->flags & TPP_WATCH) && span_eq(v, n, "value")) {
		set_src(a, TPP_SRC_WATCH, 0);	/* "+0($addr)" */
		return push_deref(a, 0, false, at);
	}
	if (a->st->env->max_arg && span_starts(v, n, "arg"))
		return parse_argn(a, v + 3, n - 3, at);
	return arg_fail(a, TPP_E_VAR, at, -EINVAL);
}

static noinline_for_stack int parse_reg(struct tpp_argp *a, unsigned int start,
					unsigned int end, unsigned int at)
{
	const struct tpp_env *env = a->st->env;
	struct tpp_fetch *f = &a->arg->fetch;
	char buf[TPP_SPAN_BUF];
	struct tpp_reg reg;
	int ret = -EINVAL;

	/* fprobes and eprobes have no pt_regs to read */
	if (a->st->flags & (TPP_FPROBE | TPP_EVENT))
		return arg_fail(a, TPP_E_VAR, at, -EINVAL);
	if (a->st->flags & TPP_WATCH)
		return arg_fail(a, TPP_E_WATCH_REGS, at, -EINVAL);
	if (span_str(buf, sizeof(buf), a->s + start + 1, end - start - 1))
		ret = env->reg(env->priv, buf, &reg);
	if (ret)
		return arg_fail(a, TPP_E_REG, at, -EINVAL);
	set_src(a, TPP_SRC_REG, reg.offset);
	f->width = reg.width;
	f->shift = reg.shift;
	return 0;
}

/*
 * A register name narrower than the word ("%edi", "%w0") is read at its
 * width, and without a TYPE it is an unsigned number of that width.
 */
static void apply_reg_width(struct tpp_argp *a)
{
	const struct tpp_fetch *f = &a->arg->fetch;

	if (f->src != TPP_SRC_REG || !f->width || a->nr_derefs || a->type_at)
		return;
	if (f->width == 1)
		a->arg->type = TPP_TYPE_U8;
	else if (f->width == 2)
		a->arg->type = TPP_TYPE_U16;
	else if (f->width == 4)
		a->arg->type = TPP_TYPE_U32;
}

/*
 * @SYM[+|-OFFS] is resolved when the probe is registered (or, for an
 * eprobe, once its argument has parsed): an unknown symbol fails then.  A
 * bad OFFS fails here.  Either is logged at its argument, not at the
 * probe's place, which is not at fault.
 */
static int parse_mem_symbol(struct tpp_argp *a, unsigned int start,
			    unsigned int end, unsigned int at)
{
	struct tpp_fetch *f = &a->arg->fetch;
	const char *s = a->s + start;
	unsigned int n = end - start;
	unsigned int i = span_cspn(s, n, "+-");
	long offs = 0;
	int ret;

	if (a->st->flags & TPP_USER)
		return arg_fail(a, TPP_E_SYM_ON_USER, at, -EINVAL);
	if (i < n) {
		ret = span_l(s + i, n - i, &offs);
		if (ret)
			return arg_fail(a, TPP_E_MEM_ADDR, at + 1 + i, ret);
	}
	f->str = kmemdup_nul(s, i, GFP_KERNEL);
	if (!f->str)
		return no_memory(a->st);
	set_src(a, TPP_SRC_SYMBOL, offs);
	a->nops = 2;	/* the name takes a slot of the 16 too */
	return 0;
}

/* @ADDR, @+OFFS (uprobe file offset) or @SYM: all read memory there */
static int parse_mem(struct tpp_argp *a, unsigned int start, unsigned int end,
		     unsigned int at)
{
	const char *s = a->s + start + 1;
	unsigned int n = end - start - 1;
	unsigned long addr;
	long offs;
	int ret;

	if (n && isdigit(s[0])) {
		ret = span_ul(s, n, 0, &addr);
		if (ret)	/* -ERANGE or -EINVAL, as kstrtoul() says */
			return arg_fail(a, TPP_E_MEM_ADDR, at, ret);
		set_src(a, TPP_SRC_ADDR, addr);
	} else if (n && s[0] == '+') {
		if (!(a->st->flags & TPP_USER))
			return arg_fail(a, TPP_E_FOFFS_ON_KERNEL, at, -EINVAL);
		ret = span_l(s + 1, n - 1, &offs);
		if (ret)
			return arg_fail(a, TPP_E_FOFFS, at, ret);
		set_src(a, TPP_SRC_FOFFS, offs);
	} else {
		ret = parse_mem_symbol(a, start + 1, end, at);
		if (ret)
			return ret;
	}
	return push_deref(a, 0, false, at);
}

/* "-u8(" means -8: put the sign back in front of the digits */
static noinline_for_stack int deref_offset(bool neg, const char *d,
					   unsigned int n, long *offs)
{
	char buf[TPP_SPAN_BUF];

	buf[0] = '-';
	if (!span_str(buf + neg, sizeof(buf) - 1, d, n))
		return -ERANGE;
	return kstrtol(buf, 0, offs);
}

/* The ')' that closes the '(' at @open, before @end; 0 when none does */
static unsigned int match_paren(const char *s, unsigned int open,
				unsigned int end)
{
	unsigned int depth = 0, i;

	for (i = open; i < end; i++) {
		if (s[i] == '(')
			depth++;
		else if (s[i] == ')' && !--depth)
			return i;
	}
	return 0;
}

/*
 * A value in parentheses ends at its ')': "+0(%di)junk" is no dereference,
 * and what follows the last ')' is refused, not ignored.  @at is where
 * the ')' is in the command.
 */
static int check_closed(struct tpp_argp *a, const char *close,
			unsigned int end, unsigned int at)
{
	if (close + 1 == a->s + end)
		return 0;
	return arg_fail(a, TPP_E_FETCHARG, at + 1, -EINVAL);
}

/*
 * +|-[u]OFFS(VALUE).  The value ends at the last ')', which ends the
 * argument too (check_closed()).  After 'u' the caret for the
 * inner value is one byte early: that column is ABI.  After a negative
 * OFFS ("+-8(", "+u-8(") the caret is on the value at fault, not one or
 * two bytes before it.
 */
static int parse_deref(struct tpp_argp *a, unsigned int start,
		       unsigned int end, unsigned int at)
{
	const char *s = a->s;
	bool user = start + 1 < end && s[start + 1] == 'u';
	unsigned int num = start + 1 + user;
	const char *open = memchr(s + num, '(', end - num);
	const char *close;
	unsigned int in, in_at;
	enum tpp_src src;
	long offs;
	int ret;

	if (!open)
		return arg_fail(a, TPP_E_DEREF_NO_BRACE, at, -EINVAL);
	ret = deref_offset(s[start] == '-', s + num, open - s - num, &offs);
	if (ret)
		return arg_fail(a, TPP_E_DEREF_OFFS, at, ret);
	in = open - s + 1;
	in_at = at + (in - start) - (user && s[num] != '-');
	close = span_rchr(s + in, end - in, ')');
	if (!close)
		return arg_fail(a, TPP_E_DEREF_OPEN, in_at + end - in, -EINVAL);
	ret = parse_value(a, in, close - s, in_at);
	if (ret)
		return ret;
	ret = check_closed(a, close, end, at + (close - s) - start);
	if (ret)
		return ret;
	if (a->arg->fetch.src == TPP_SRC_REG && a->arg->fetch.width)
		return arg_fail(a, TPP_E_REG_PART, in_at, -EINVAL);
	a->late_at = in_at;
	a->late_btf = false;
	src = a->arg->fetch.src;
	if (!a->nr_derefs && (src == TPP_SRC_COMM || src == TPP_SRC_IMMSTR))
		return arg_fail(a, TPP_E_DEREF_VALUE, in_at, -EINVAL);
	a->btf_typed = false;	/* BTF typed the pointer, not its target */
	return push_deref(a, offs, user, in_at);
}

#define TPP_PERCPU_READ		"this_cpu_read("
#define TPP_PERCPU_PTR		"this_cpu_ptr("

/*
 * The value ends in a memory read (a dereference, or @ADDR and @SYM),
 * which a store may take over: not in this_cpu_ptr()
 */
static bool ends_in_read(const struct tpp_argp *a)
{
	return a->nr_derefs && !a->deref[a->nr_derefs - 1].percpu;
}

/* A static per-CPU variable is @SYM's address, not the word there */
static void percpu_address(struct tpp_argp *a)
{
	enum tpp_src src = a->arg->fetch.src;

	if (a->nr_derefs == 1 && (src == TPP_SRC_SYMBOL || src == TPP_SRC_ADDR)) {
		a->nr_derefs = 0;
		a->nops--;
	}
}

/*
 * this_cpu_ptr(VALUE): VALUE as a per-CPU address, made this CPU's;
 * this_cpu_read(VALUE) reads the word there.  Kernel probes only.  As
 * for a dereference, the value ends at the last ')'.
 */
static int parse_percpu(struct tpp_argp *a, unsigned int start,
			unsigned int end, unsigned int at)
{
	bool read = span_starts(a->s + start, end - start, TPP_PERCPU_READ);
	unsigned int in = start + (read ? sizeof(TPP_PERCPU_READ) :
				   sizeof(TPP_PERCPU_PTR)) - 1;
	unsigned int in_at = at + in - start;
	const char *close;
	int ret;

	if (a->st->flags & (TPP_USER | TPP_EVENT))
		return arg_fail(a, TPP_E_NOSUP_PERCPU, at, -EINVAL);
	close = span_rchr(a->s + in, end - in, ')');
	if (!close)
		return arg_fail(a, TPP_E_DEREF_OPEN, in_at + end - in, -EINVAL);
	ret = parse_value(a, in, close - a->s, in_at);
	if (ret)
		return ret;
	ret = check_closed(a, close, end, at + (close - a->s) - start);
	if (ret)
		return ret;
	if (a->arg->fetch.src == TPP_SRC_REG && a->arg->fetch.width)
		return arg_fail(a, TPP_E_REG_PART, in_at, -EINVAL);
	if (!a->nr_derefs && (a->arg->fetch.src == TPP_SRC_COMM ||
			      a->arg->fetch.src == TPP_SRC_IMMSTR))
		return arg_fail(a, TPP_E_DEREF_VALUE, in_at, -EINVAL);
	percpu_address(a);
	a->btf_typed = false;
	ret = push_deref(a, 0, false, in_at);
	if (ret)
		return ret;
	a->deref[a->nr_derefs - 1].percpu = true;
	return read ? push_deref(a, 0, false, in_at) : 0;
}

/* Typecasts one value may go through, nested ones included */
#define TPP_MAX_CASTS		3

/* The first "->" in @from..@end outside parentheses; 0 when none */
static unsigned int find_arrow(const char *s, unsigned int from,
			       unsigned int end)
{
	unsigned int depth = 0, i;

	for (i = from; i + 1 < end; i++) {
		if (s[i] == '(')
			depth++;
		else if (s[i] == ')' && depth)
			depth--;
		else if (!depth && s[i] == '-' && s[i + 1] == '>')
			return i;
	}
	return 0;
}

/* An eprobe's typecast takes a field by its bare name */
static noinline_for_stack int parse_cast_field(struct tpp_argp *a,
					       unsigned int t,
					       unsigned int tend,
					       unsigned int at)
{
	const struct tpp_env *env = a->st->env;
	char buf[TPP_SPAN_BUF];
	int idx = -ENOENT;

	if (env->event_field && span_str(buf, sizeof(buf), a->s + t, tend - t))
		idx = env->event_field(env->priv, buf);
	if (idx < 0)
		return arg_fail(a, TPP_E_EP_FIELD, at, -EINVAL);
	return set_src(a, TPP_SRC_FIELD, idx);
}

/* TARGET of a typecast: "(VALUE)", an eprobe's field, or a value */
static int parse_cast_target(struct tpp_argp *a, unsigned int t,
			     unsigned int tend, unsigned int at)
{
	const char *s = a->s;
	unsigned int n = tend - t;

	if (n && s[t] == '(' && match_paren(s, t, tend) == tend - 1)
		return parse_value(a, t + 1, tend - 1, at + 1);
	if (n && (a->st->flags & TPP_EVENT) && (isalpha(s[t]) || s[t] == '_'))
		return parse_cast_field(a, t, tend, at);
	/* "@SYM+8->F" would read as a member of SYM+8: ask for parentheses */
	if (n && s[t] == '@' && span_cspn(s + t + 1, n - 1, "+-") < n - 1)
		return arg_fail(a, TPP_E_TYPECAST_SYM_OFFSET, at, -EINVAL);
	return parse_value(a, t, tend, at);
}

/*
 * "(NAME" or "(NAME,MEMBER...": a typecast; anything else in parentheses
 * is no fetch argument, as before typecasts
 */
static bool is_cast(const char *s, unsigned int len)
{
	unsigned int i;

	if (len < 2 || (!isalpha(s[1]) && s[1] != '_'))
		return false;
	for (i = 2; i < len && s[i] != ')'; i++)
		if (!isalnum(s[i]) && !strchr("_,.->", s[i]))
			return false;
	return i < len;
}

/*
 * (STRUCT[,MEMBER[.MEMBER...]])TARGET->FIELD...: TARGET's value is the
 * address of a STRUCT (of its MEMBER, as container_of() takes it), read
 * through the kernel's BTF at any kernel probe.  TARGET is any value, in
 * parentheses when it has a "->" of its own.  Newer kernels' syntax,
 * their errors and carets.
 */
static int parse_typecast(struct tpp_argp *a, unsigned int start,
			  unsigned int end, unsigned int at)
{
	const char *s = a->s;
	const char *close = memchr(s + start, ')', end - start);
	unsigned int t, arrow;
	enum tpp_src src;
	int ret;

	if (!is_cast(s + start, end - start))
		return arg_fail(a, TPP_E_FETCHARG, at, -EINVAL);
	if (++a->casts > TPP_MAX_CASTS)
		return arg_fail(a, TPP_E_TOO_MANY_NESTED, at, -EINVAL);
	if ((a->st->flags & TPP_USER) || !a->st->env->btf)
		return arg_fail(a, TPP_E_BTF_NOSUP, at, -EOPNOTSUPP);
	t = close + 1 - s;
	arrow = find_arrow(s, t, end);
	/*
	 * After the value, where its "->" is missing; a nested typecast's
	 * own, before the outer one's "->": at the typecast.  A structure
	 * recorded whole needs no member.
	 */
	if (!arrow && !(a->whole && start == a->whole_at))
		return arg_fail(a, TPP_E_TYPECAST_REQ_FIELD,
				a->casts > 1 ? at : at + end - start, -EINVAL);
	ret = parse_cast_target(a, t, arrow ?: end, at + t - start);
	if (ret)
		return ret;
	src = a->arg->fetch.src;
	if (src == TPP_SRC_REG && a->arg->fetch.width)
		return arg_fail(a, TPP_E_REG_PART, at + t - start, -EINVAL);
	if (!a->nr_derefs && (src == TPP_SRC_COMM || src == TPP_SRC_IMMSTR))
		return arg_fail(a, TPP_E_DEREF_VALUE, at + t - start, -EINVAL);
	return ask_btf(a, start, end, at, close - s - start - 1,
		       arrow ? arrow - start : 0);
}

/* \"STR": everything up to a final '"', quotes inside included */
static int parse_imm_string(struct tpp_argp *a, unsigned int from,
			    unsigned int end, unsigned int at)
{
	unsigned int n = end - from;

	if (!n || a->s[end - 1] != '"')
		return arg_fail(a, TPP_E_IMMSTR_OPEN, at + 2 + n, -EINVAL);
	a->arg->fetch.str = kmemdup_nul(a->s + from, n - 1, GFP_KERNEL);
	if (!a->arg->fetch.str)
		return no_memory(a->st);
	return set_src(a, TPP_SRC_IMMSTR, 0);
}

/* \IMM: unsigned, or with a sign; the caret points after the '\' */
static int parse_imm(struct tpp_argp *a, unsigned int start, unsigned int end,
		     unsigned int at)
{
	const char *s = a->s + start + 1;
	unsigned int n = end - start - 1;
	unsigned long v = 0;
	int ret = -EINVAL;
	long l = 0;

	if (n && s[0] == '"')
		return parse_imm_string(a, start + 2, end, at);
	if (n && isdigit(s[0])) {
		ret = span_ul(s, n, 0, &v);
	} else if (n && (s[0] == '-' || s[0] == '+')) {
		/* kstrtol() takes "-N" but not "+N" */
		ret = s[0] == '-' ? span_l(s, n, &l) : span_l(s + 1, n - 1, &l);
		v = l;
	}
	if (ret)
		return arg_fail(a, TPP_E_IMM, at + 1, ret);
	return set_src(a, TPP_SRC_IMM, v);
}

/* One value in [start, end); @at is where its errors point */
static int parse_value(struct tpp_argp *a, unsigned int start,
		       unsigned int end, unsigned int at)
{
	char c = start < end ? a->s[start] : '\0';

	switch (c) {
	case '$':
		return parse_var(a, start, end, at);
	case '%':
		return parse_reg(a, start, end, at);
	case '@':
		if (is_entry(a->s + start, end - start))
			return arg_fail(a, TPP_E_ENTRY_PLACE, at, -EINVAL);
		return parse_mem(a, start, end, at);
	case '+':
	case '-':
		return parse_deref(a, start, end, at);
	case '\\':
		return parse_imm(a, start, end, at);
	case '(':
		return parse_typecast(a, start, end, at);
	}
	if (span_starts(a->s + start, end - start, TPP_PERCPU_READ) ||
	    span_starts(a->s + start, end - start, TPP_PERCPU_PTR))
		return parse_percpu(a, start, end, at);
	if (isalpha(c) || c == '_')
		return parse_btf_var(a, start, end, at);
	return arg_fail(a, TPP_E_FETCHARG, at, -EINVAL);
}

/* With a BTF-typed value, the type comes from BTF unless one is given */
static int apply_btf_type(struct tpp_argp *a)
{
	enum tpp_type type = a->arg->type;

	if (a->arg->whole) {
		a->arg->type = TPP_TYPE_U8;	/* bytes, as the format says */
		return 0;
	}
	if (!a->btf_typed)
		return 0;
	if (!a->type_at) {
		a->arg->type = a->btf_type;
		return 0;
	}
	if ((type != TPP_TYPE_STRING && type != TPP_TYPE_USTRING) ||
	    a->btf_kind == TPP_BTF_CHAR_ARRAY)
		return 0;
	if (a->btf_kind != TPP_BTF_CHAR_PTR)
		return arg_fail(a, TPP_E_BTF_STRTYPE, a->late_at, -EINVAL);
	/* char *: the string is where it points */
	if (a->nops >= TPP_MAX_OPS - 1)
		return arg_fail(a, TPP_E_TOO_DEEP, a->late_at, -E2BIG);
	return push_deref(a, 0, type == TPP_TYPE_USTRING, a->late_at);
}

static int account_size(struct tpp_argp *a)
{
	struct tpp_def *def = a->st->def;

	def->size += tpp_arg_bytes(a->arg);
	if (def->size > TPP_MAX_EVENT_SIZE)
		return arg_fail(a, TPP_E_EVENT_BIG, a->late_at, -E2BIG);
	return 0;
}

/*
 * Type errors point at TYPE.  Its offset is taken from the command, not
 * counted from where the value ended up: that would put the caret inside
 * the type or past it after a dereference, and make it noise that
 * changes every boot after a BTF member.
 */
static unsigned int type_caret(const struct tpp_argp *a)
{
	if (a->type_at)
		return a->type_at;
	return a->late_at;
}

/* Values that already are the address of a string */
static bool src_is_address(enum tpp_src src)
{
	return src == TPP_SRC_IMM || src == TPP_SRC_COMM ||
	       src == TPP_SRC_IMMSTR || src == TPP_SRC_FIELD;
}

/*
 * A word symstr may print.  A return probe's $argN is the word its entry
 * saved, as @entry($argN) is, and takes the same types.
 */
static bool src_fits_symstr(enum tpp_src src)
{
	return src == TPP_SRC_REG || src == TPP_SRC_STACK ||
	       src == TPP_SRC_RETVAL || src == TPP_SRC_ARG ||
	       src == TPP_SRC_EARG || src == TPP_SRC_FIELD;
}

static int store_string(struct tpp_argp *a)
{
	struct tpp_arg *arg = a->arg;
	bool symstr = arg->type == TPP_TYPE_SYMSTR;
	bool deref = ends_in_read(a);
	bool user = deref && a->deref[a->nr_derefs - 1].user;
	enum tpp_src src = arg->fetch.src;

	/* a this_cpu_ptr() is an address, as a dereference's value is */
	if (symstr && (a->nr_derefs ? user : !src_fits_symstr(src)))
		return arg_fail(a, TPP_E_SYMSTR_SRC, type_caret(a), -EINVAL);
	if (symstr && !a->nr_derefs && arg->fetch.width)
		return arg_fail(a, TPP_E_REG_PART, type_caret(a), -EINVAL);
	if (!symstr && !a->nr_derefs && !src_is_address(src))
		return arg_fail(a, TPP_E_STRING_SRC, type_caret(a), -EINVAL);
	/* An array holds string pointers: keep the last deref for those */
	arg->fold = !symstr && deref && !arg->count;
	if (!arg->fold) {
		if (a->nops >= TPP_MAX_OPS - 1)
			return arg_fail(a, TPP_E_TOO_DEEP, a->late_at, -EINVAL);
		a->nops++;
	}
	if (arg->type == TPP_TYPE_USTRING || (arg->fold && user))
		arg->store = TPP_ST_USTRING;
	else if (symstr)
		arg->store = TPP_ST_SYMSTR;
	else
		arg->store = TPP_ST_STRING;
	return 0;
}

static int store_scalar(struct tpp_argp *a)
{
	struct tpp_arg *arg = a->arg;

	if (ends_in_read(a)) {
		arg->fold = true;
		arg->store = a->deref[a->nr_derefs - 1].user ? TPP_ST_UMEM :
							       TPP_ST_MEM;
		return 0;
	}
	if (a->nops >= TPP_MAX_OPS - 1)
		return arg_fail(a, TPP_E_TOO_DEEP, a->late_at, -E2BIG);
	a->nops++;
	arg->store = TPP_ST_RAW;
	return 0;
}

static void set_bitfield(struct tpp_arg *arg, unsigned int bits,
			 unsigned long width, unsigned long offs)
{
	arg->bf_bytes = bits / 8;
	arg->bf_lshift = bits - (width + offs);
	arg->bf_rshift = bits - width;
}

/*
 * b<w>@<o>/<c>, with simple_strtoul() rules for <w> and <o>.  A <w> or
 * <o> past an unsigned long is refused rather than wrapped, and width +
 * offs is checked against the container bits without wrapping either.
 */
static int store_type_bitfield(struct tpp_argp *a)
{
	const char *t = a->s + a->type_at;
	const char *end = t + a->type_len;
	unsigned int bits = tpp_types[a->arg->type].size * 8;
	unsigned long width, offs;
	const char *p, *q;
	int ret;

	ret = span_scan(t + 1, end, 0, &width, &p);
	if (ret || !width || p == end || *p != '@')
		return arg_fail(a, TPP_E_BITFIELD, type_caret(a), -EINVAL);
	ret = span_scan(p + 1, end, 0, &offs, &q);
	if (ret || q == p + 1 || q == end || *q != '/')
		return arg_fail(a, TPP_E_BITFIELD, type_caret(a), -EINVAL);
	if (a->nops >= TPP_MAX_OPS - 1 || width > bits || offs > bits - width)
		return arg_fail(a, TPP_E_BITFIELD, type_caret(a), -EINVAL);
	a->nops++;
	set_bitfield(a->arg, bits, width, offs);
	return 0;
}

static int store_bitfield(struct tpp_argp *a)
{
	if (a->bitfield)
		return store_type_bitfield(a);
	/* A BTF bitfield member, when no type overrides it */
	if (a->type_at || !a->btf_typed || (!(a->bitsize % 8) && !a->bitoffs))
		return 0;
	if (a->nops >= TPP_MAX_OPS - 1)
		return arg_fail(a, TPP_E_TOO_DEEP, a->late_at, -EINVAL);
	a->nops++;
	set_bitfield(a->arg, 64, a->bitsize, a->bitoffs);
	return 0;
}

static int store_array(struct tpp_argp *a)
{
	enum tpp_store store = a->arg->store;

	/* symstr arrays are no arrays of memory: STRING_SRC's text */
	if (store == TPP_ST_SYMSTR)
		return arg_fail(a, TPP_E_STRING_SRC, type_caret(a), -EINVAL);
	/* Other arrays not of memory: "String accepts only..." would mislead */
	if (store != TPP_ST_MEM && store != TPP_ST_STRING &&
	    store != TPP_ST_USTRING)
		return arg_fail(a, TPP_E_ARRAY_SRC, type_caret(a), -EINVAL);
	if (a->nops >= TPP_MAX_OPS - 1)
		return arg_fail(a, TPP_E_TOO_DEEP, a->late_at, -E2BIG);
	a->nops++;
	return 0;
}

/* How the value lands in the record, and the slots that costs */
static int parse_arg_store(struct tpp_argp *a)
{
	enum tpp_type type = a->arg->type;
	int ret;

	/* the structure is read where the last dereference would read */
	if (a->arg->whole) {
		a->arg->fold = true;
		a->arg->store = TPP_ST_WHOLE;
		return 0;
	}
	if (type == TPP_TYPE_STRING || type == TPP_TYPE_USTRING ||
	    type == TPP_TYPE_SYMSTR)
		ret = store_string(a);
	else
		ret = store_scalar(a);
	if (!ret)
		ret = store_bitfield(a);
	if (!ret && a->arg->count)
		ret = store_array(a);
	return ret;
}

/*
 * "*EXPR": the structure or union EXPR names or points at, recorded whole.
 * EXPR must be a value BTF gives a type; the record keeps the bytes, and
 * the trace prints them by that type.
 */
static int parse_whole(struct tpp_argp *a, unsigned int start,
		       unsigned int end)
{
	int ret;

	if (a->type_at)
		return arg_fail(a, TPP_E_WHOLE_TYPE, a->type_at, -EINVAL);
	a->whole = true;
	a->whole_at = start + 1;
	ret = parse_value(a, start + 1, end, start + 1);
	if (!ret && !a->arg->whole)
		return arg_fail(a, TPP_E_WHOLE_NO_BTF, start + 1, -EINVAL);
	return ret;
}

/* The value of an argument or of its @entry(): a value, or "*EXPR" */
static int parse_top_value(struct tpp_argp *a, unsigned int start,
			   unsigned int end)
{
	if (start < end && a->s[start] == '*')
		return parse_whole(a, start, end);
	return parse_value(a, start, end, start);
}

/*
 * @entry(VALUE): VALUE as the function entry sees it, saved by the return
 * probe and recorded at its exit.  It parses as at the entry ($retval is
 * not there) and takes the argument's type.
 */
static int parse_entry(struct tpp_argp *a)
{
	struct tpp_state *st = a->st;
	unsigned int flags = st->flags;
	unsigned int in = a->body + TPP_ENTRY_OPEN_LEN;
	unsigned int close;
	int ret;

	if (!(flags & TPP_RETURN))
		return arg_fail(a, TPP_E_ENTRY_ON_PROBE, a->body, -EINVAL);
	if (a->vend <= in || a->s[a->vend - 1] != ')')
		return arg_fail(a, TPP_E_ENTRY_CLOSE, a->vend, -EINVAL);
	/* "@entry(A)B" is junk after a value, as "+0(A)B" is */
	close = match_paren(a->s, in - 1, a->vend);
	if (close && close + 1 < a->vend)
		return arg_fail(a, TPP_E_FETCHARG, close + 1, -EINVAL);
	st->flags &= ~TPP_RETURN;
	if (!(flags & TPP_USER))
		st->flags |= TPP_ENTRY;
	ret = parse_top_value(a, in, a->vend - 1);
	st->flags = flags;
	a->arg->entry = true;
	return ret;
}

static int parse_arg_value(struct tpp_argp *a)
{
	int ret;

	if (is_entry(a->s + a->body, a->vend - a->body))
		ret = parse_entry(a);
	else
		ret = parse_top_value(a, a->body, a->vend);
	if (!ret)
		apply_reg_width(a);
	return ret;
}

static int parse_arg_body(struct tpp_argp *a)
{
	unsigned int blen = a->t->len - a->body;
	int ret;

	if (blen > TPP_MAX_ARGSTR_LEN)
		return arg_fail(a, TPP_E_ARG_LONG, a->body, -E2BIG);
	if (!blen)
		return arg_fail(a, TPP_E_ARG_EMPTY, a->body, -EINVAL);
	a->arg->comm = kmemdup_nul(a->s + a->body, blen, GFP_KERNEL);
	if (!a->arg->comm)
		return no_memory(a->st);
	a->late_at = a->body;
	ret = parse_type_suffix(a);
	if (!ret)
		ret = parse_arg_value(a);
	if (!ret)
		ret = apply_btf_type(a);
	if (!ret)
		ret = account_size(a);
	return ret;
}

/* The entry data must fit a kretprobe's (KRETPROBE_MAX_DATA_SIZE) */
static int account_entry(struct tpp_argp *a)
{
	struct tpp_def *def = a->st->def;
	const struct tpp_arg *arg = a->arg;
	unsigned int i;

	if (arg->entry) {
		def->entry_size += tpp_entry_bytes(arg);
	} else if (arg->fetch.src == TPP_SRC_EARG) {
		for (i = 0; i < a->idx; i++)
			if (def->args[i].fetch.src == TPP_SRC_EARG &&
			    def->args[i].fetch.val == arg->fetch.val)
				return 0;
		def->nr_eargs++;
	} else {
		return 0;
	}
	if (tpp_edata_size(a->st->flags, def->entry_size, def->nr_eargs) >
	    TPP_MAX_ENTRY_DATA)
		return arg_fail(a, TPP_E_ENTRY_BIG, a->body, -E2BIG);
	return 0;
}

static int commit_derefs(struct tpp_argp *a)
{
	struct tpp_fetch *f = &a->arg->fetch;

	a->arg->nr_ops = a->nops;
	if (!a->nr_derefs)
		return 0;
	f->deref = kmemdup(a->deref, a->nr_derefs * sizeof(*a->deref),
			   GFP_KERNEL);
	if (!f->deref)
		return no_memory(a->st);
	f->nr_derefs = a->nr_derefs;
	return 0;
}

/*
 * An event probe has no registration step to resolve @SYM in: the symbol
 * is looked up as soon as its argument has parsed, so an unknown one
 * fails the definition there, before any later argument, with -ENOENT and
 * the record the register step gives other probes, so that the failure
 * is logged and not only returned as an errno.
 */
static int lookup_symbol_now(struct tpp_argp *a)
{
	const struct tpp_fetch *f = &a->arg->fetch;
	const struct tpp_env *env = a->st->env;

	if (!env->sym_addr || f->src != TPP_SRC_SYMBOL)
		return 0;
	if (!env->sym_addr(env->priv, f->str))
		return tpp_error_set(a->st->err, TPP_E_SYM_UNKNOWN,
				     a->arg->pos, -ENOENT);
	return 0;
}

static int parse_arg(struct tpp_state *st, unsigned int i)
{
	struct tpp_argp a = {
		.st = st,
		.t = &st->text[i],
		.s = st->text[i].s,
		.arg = &st->def->args[i],
		.idx = i,
	};
	int ret;

	a.arg->pos = a.t->pos;
	ret = parse_arg_name(&a);
	if (!ret)
		ret = parse_arg_body(&a);
	if (!ret)
		ret = parse_arg_store(&a);
	if (!ret)
		ret = account_entry(&a);
	if (!ret)
		ret = commit_derefs(&a);
	if (!ret)
		ret = lookup_symbol_now(&a);
	return ret;
}

/* Expansions first, then the count, then each argument in order */
static int parse_fetchargs(struct tpp_state *st)
{
	bool expand = !(st->flags & (TPP_USER | TPP_EVENT));
	unsigned int i;
	int ret = 0;

	st->def->tail_pos = word_pos(st, st->first);
	if (st->first >= st->nr_words)
		return 0;
	if (!plain_texts(st))
		return no_memory(st);
	if (expand)
		ret = expand_var_args(st);
	if (ret)
		return ret;
	/* the caret is on the first argument past the limit */
	if (st->nr_texts > TPP_MAX_ARGS)
		return word_fail(st, min(st->first + TPP_MAX_ARGS, st->nr_words - 1),
				 0, TPP_E_TOO_MANY_ARGS, -E2BIG);
	place_texts(st);
	for (i = 0; expand && i < st->nr_texts && !ret; i++)
		ret = expand_dentry(st, &st->text[i]);
	if (ret)
		return ret;
	st->def->args = kcalloc(st->nr_texts, sizeof(*st->def->args),
				GFP_KERNEL);
	if (!st->def->args)
		return no_memory(st);
	st->def->nr_args = st->nr_texts;
	for (i = 0; i < st->nr_texts && !ret; i++)
		ret = parse_arg(st, i);
	return ret;
}

static unsigned int count_words(const char *cmd)
{
	unsigned int i, n = 0;

	for (i = 0; cmd[i]; i++)
		if (cmd[i] != ' ' && (!i || cmd[i - 1] == ' '))
			n++;
	return n;
}

/* Fill st->word, room for count_words() of them */
static void split_words(struct tpp_state *st)
{
	unsigned int i;

	for (i = 0; i < st->len; i++) {
		if (st->cmd[i] == ' ')
			continue;
		if (!i || st->cmd[i - 1] == ' ')
			st->word[st->nr_words++].start = i;
		st->word[st->nr_words - 1].len++;
	}
}

static struct tpp_state *state_new(const char *cmd, const struct tpp_env *env,
				   struct tpp_error *err)
{
	struct tpp_state *st;

	err->errnum = 0;
	err->id = TPP_E_NONE;
	err->pos = 0;
	/* the words after the state, in the same allocation */
	st = kzalloc(sizeof(*st) + count_words(cmd) * sizeof(*st->word),
		     GFP_KERNEL);
	if (!st)
		goto fail;
	st->def = kzalloc(sizeof(*st->def), GFP_KERNEL);
	if (!st->def)
		goto free_state;
	st->def->btf_ops = env->btf;
	st->cmd = cmd;
	st->len = strlen(cmd);
	st->env = env;
	st->err = err;
	st->word = (struct tpp_word *)(st + 1);
	split_words(st);
	return st;

free_state:
	kfree(st);
fail:
	tpp_error_set(err, TPP_E_NONE, 0, -ENOMEM);
	return NULL;
}

static struct tpp_def *state_finish(struct tpp_state *st, int ret)
{
	struct tpp_def *def = st->def;

	kfree(st->text);
	kfree(st);
	if (!ret)
		return def;
	tpp_free(def);
	return ERR_PTR(ret);
}

static int parse_kprobe(struct tpp_state *st)
{
	int ret;

	ret = parse_head(st);
	if (!ret)
		ret = parse_place(st);
	if (!ret)
		ret = parse_name(st);
	if (ret)
		return ret;
	st->def->flags = st->flags;
	st->func = st->def->symbol;
	st->first = 2;
	return parse_fetchargs(st);
}

/**
 * tpp_parse_kprobe - parse a kprobe definition ('p' or 'r' line)
 * @cmd: the command: argv joined by single spaces, comments stripped
 * @env: registers, kallsyms and BTF of the running kernel
 * @err: filled with the first error
 *
 * Checks everything that can be checked before registering: syntax, limits,
 * that the symbol exists and is unique, and that a return probe sits on a
 * function entry.  Registration-time checks (instruction boundaries,
 * blacklist, @SYM lookup, appending to an existing event) are not done.
 * A line that is not a kprobe gives -ECANCELED and logs nothing, so that
 * dynamic_events can offer it to the next parser.
 *
 * Return: a new definition to release with tpp_free(), or an ERR_PTR()
 * holding @err->errnum.
 */
struct tpp_def *tpp_parse_kprobe(const char *cmd, const struct tpp_env *env,
				 struct tpp_error *err)
{
	struct tpp_state *st = state_new(cmd, env, err);
	char c;
	int ret;

	if (!st)
		return ERR_PTR(-ENOMEM);
	c = st->nr_words ? cmd[st->word[0].start] : '\0';
	if ((c != 'p' && c != 'r') || st->nr_words < 2)
		ret = tpp_error_set(err, TPP_E_NONE, 0, -ECANCELED);
	else
		ret = parse_kprobe(st);
	return state_finish(st, ret);
}

/*
 * wprobes: "w[:NAME] [r|w|rw]@PLACE[:LEN] FETCHARG...", PLACE an address,
 * [MOD:]SYM[+|-OFFS], or -1 for a wprobe that set_wprobe triggers place.
 * The parser knows the grammar and kallsyms; whether the address may be
 * watched (aligned, data, mapped, a free slot) is the wprobe tracer's to
 * check, against the running kernel.
 */

/*
 * "w" or "w:NAME"; "w" and a digit is a wprobe line with a maxactive,
 * which parse_wprobe() refuses; any other first word is not a wprobe line
 */
static bool wprobe_head(struct tpp_state *st)
{
	const char *w = word_str(st, 0);
	unsigned int len = st->word[0].len;

	if (w[0] != 'w' || (len > 1 && w[1] != ':' && !isdigit(w[1])))
		return false;
	st->def->kind = 'w';
	if (len > 1 && w[1] == ':') {
		st->has_name = true;
		st->name_at = st->word[0].start + 2;
		st->name_len = len - 2;
	}
	return true;
}

/* What comes before the '@': nothing (both), r, w or rw */
static int parse_watch_access(struct tpp_state *st, unsigned int n)
{
	const char *w = word_str(st, 1);
	u8 *access = &st->def->watch.access;

	if (!n || span_eq(w, n, "rw"))
		*access = TPP_WATCH_RW;
	else if (span_eq(w, n, "r"))
		*access = TPP_WATCH_R;
	else if (span_eq(w, n, "w"))
		*access = TPP_WATCH_W;
	else
		return word_fail(st, 1, 0, TPP_E_WATCH_ACCESS, -EINVAL);
	return 0;
}

static bool span_digits(const char *s, unsigned int len)
{
	while (len--)
		if (!isdigit(s[len]))
			return false;
	return true;
}

/* What follows a ':' is a length, not MOD:SYM's symbol: no symbol is */
static bool watch_len_start(const char *s, unsigned int len)
{
	return !len || isdigit(s[0]) || s[0] == '+' || s[0] == '-';
}

/*
 * ":LEN" ends the word when what follows its last ':' starts as a number
 * does (or is nothing); otherwise that ':' is MOD:SYM's.  LEN is decimal
 * digits, and only one: a second ':' before it that a number follows is a
 * length too many.  @at is the offset of the place in word 1, @len the
 * rest of the word; *@place_len is set to the length of the place.
 */
static int parse_watch_len(struct tpp_state *st, unsigned int at,
			   unsigned int len, unsigned int *place_len)
{
	const char *s = word_str(st, 1) + at;
	const char *colon = span_rchr(s, len, ':');
	struct tpp_watch *watch = &st->def->watch;
	unsigned int n = colon ? len - (colon + 1 - s) : 0;
	unsigned int start = st->word[1].start + at;
	unsigned long v;

	watch->len = TPP_WATCH_LEN_DEFAULT;
	watch->len_pos = st->word[1].start + st->word[1].len;
	*place_len = len;
	if (!colon || !watch_len_start(colon + 1, n))
		return 0;
	*place_len = colon - s;
	watch->len_pos = start + *place_len + 1;
	if (!n || !span_digits(colon + 1, n) ||
	    span_ul(colon + 1, n, 10, &v) ||
	    (v != 1 && v != 2 && v != 4 && v != 8))
		return tpp_error_set(st->err, TPP_E_WATCH_LEN, watch->len_pos,
				     -EINVAL);
	colon = span_rchr(s, *place_len, ':');
	if (colon && watch_len_start(colon + 1, *place_len - (colon + 1 - s)))
		return tpp_error_set(st->err, TPP_E_WATCH_LEN,
				     start + (colon + 1 - s), -EINVAL);
	watch->len = v;
	return 0;
}

/* [MOD:]SYM[+|-OFFS]: one kallsyms entry of that name; any long offset */
static int parse_watch_symbol(struct tpp_state *st, const char *s,
			      unsigned int len)
{
	unsigned int n = span_cspn(s, len, "+-");
	unsigned int pos = st->def->place_pos;
	long offs = 0;
	int count;

	if (n < len && span_l(s + n, len - n, &offs))
		return tpp_error_set(st->err, TPP_E_PLACE, pos + n, -EINVAL);
	st->def->offset = offs;
	if (set_symbol(st, s, n))
		return -ENOMEM;
	count = count_symbol(st);
	if (count > 1)
		return tpp_error_set(st->err, TPP_E_SYM_AMBIGUOUS, pos, -EINVAL);
	if (count <= 0)	/* a module not loaded has nothing to watch yet */
		return tpp_error_set(st->err, TPP_E_SYM_UNKNOWN, pos, -ENOENT);
	return 0;
}

/* ADDR, or a symbol when it does not start with a digit */
static int parse_watch_place(struct tpp_state *st, unsigned int at,
			     unsigned int len)
{
	const char *s = word_str(st, 1) + at;

	st->def->place_pos = st->word[1].start + at;
	if (!len)
		return tpp_error_set(st->err, TPP_E_PLACE, st->def->place_pos,
				     -EINVAL);
	if (span_eq(s, len, "-1")) {	/* set_wprobe triggers place it */
		st->def->watch.unset = true;
		return 0;
	}
	if (s[0] == '+' || s[0] == '-')
		return tpp_error_set(st->err, TPP_E_WATCH_SIGN,
				     st->def->place_pos, -EINVAL);
	if (!isdigit(s[0]))
		return parse_watch_symbol(st, s, len);
	if (span_ul(s, len, 0, &st->def->addr))
		return tpp_error_set(st->err, TPP_E_PLACE, st->def->place_pos,
				     -EINVAL);
	return 0;
}

/* [r|w|rw]@PLACE[:LEN], word 1 */
static int parse_watch(struct tpp_state *st)
{
	const char *w = word_str(st, 1);
	unsigned int len = st->word[1].len;
	const char *at = memchr(w, '@', len);
	unsigned int place_len;
	int ret;

	st->def->watch.pos = st->word[1].start;
	if (!at)
		return word_fail(st, 1, 0, TPP_E_WATCH_SPEC, -EINVAL);
	ret = parse_watch_access(st, at - w);
	if (!ret)
		ret = parse_watch_len(st, at + 1 - w, len - (at + 1 - w),
				      &place_len);
	if (!ret)
		ret = parse_watch_place(st, at + 1 - w, place_len);
	return ret;
}

/* "SYM" whatever the offset ("MOD_SYM"), "w_0xADDR" or "w_unset" */
static void wprobe_event_name(const struct tpp_def *def, char *buf,
			      size_t size)
{
	if (def->watch.unset)
		snprintf(buf, size, "w_unset");
	else if (!def->symbol)
		snprintf(buf, size, "w_0x%lx", def->addr);
	else
		snprintf(buf, size, "%s", def->symbol);
	tpp_fix_event_name(buf);
}

static int parse_wprobe(struct tpp_state *st)
{
	char event[TPP_MAX_EVENT_NAME_LEN];
	struct tpp_name n = { 0 };
	int ret;

	/* a watch fires on data, not on a function's exit */
	if (isdigit(word_str(st, 0)[1]))
		return word_fail(st, 0, 1, TPP_E_MAXACT_ON_ENTRY, -EINVAL);
	if (st->nr_words < 2)
		return tpp_error_set(st->err, TPP_E_NO_PLACE, 0, -EINVAL);
	ret = parse_watch(st);
	if (!ret && st->has_name)
		ret = tpp_parse_event_name(st->cmd, st->name_at, st->name_len,
					   &n, st->err);
	if (ret)
		return ret;
	wprobe_event_name(st->def, event, sizeof(event));
	if (tpp_set_names(st->def, st->cmd, &n, TPP_WPROBE_GROUP, event))
		return no_memory(st);
	st->flags = TPP_WATCH;
	st->def->flags = st->flags;
	st->first = 2;
	return parse_fetchargs(st);
}

/**
 * tpp_parse_wprobe - parse a wprobe definition ('w' line)
 * @cmd: the command: argv joined by single spaces, comments stripped
 * @env: registers, kallsyms and BTF of the running kernel
 * @err: filled with the first error
 *
 * Checks the grammar, that LEN is 1, 2, 4 or 8 and that a symbol exists
 * and is unique; a place of -1 sets &tpp_watch.unset.  $addr is the
 * watched address; arguments of a function entry or exit ($argN, $retval,
 * @entry()) are refused.  Whether the address can be watched is left to
 * the caller.  A line that is not a wprobe gives -ECANCELED and logs
 * nothing.
 *
 * Return: a new definition (&tpp_def.kind 'w') to release with tpp_free(),
 * or an ERR_PTR() holding @err->errnum.
 */
struct tpp_def *tpp_parse_wprobe(const char *cmd, const struct tpp_env *env,
				 struct tpp_error *err)
{
	struct tpp_state *st = state_new(cmd, env, err);
	int ret;

	if (!st)
		return ERR_PTR(-ENOMEM);
	if (!st->nr_words || !wprobe_head(st))
		ret = tpp_error_set(err, TPP_E_NONE, 0, -ECANCELED);
	else
		ret = parse_wprobe(st);
	return state_finish(st, ret);
}

/**
 * tpp_parse_args - parse only the FETCHARGs of a command
 * @cmd: the command: argv joined by single spaces
 * @first: index of the word holding the first FETCHARG
 * @flags: TPP_* flags saying where the probe sits
 * @func: the probed function for BTF lookups, or NULL
 * @env: registers, kallsyms and BTF of the running kernel
 * @err: filled with the first error
 *
 * For probe kinds whose head has its own grammar (uprobe, fprobe, tprobe,
 * eprobe).  $arg* and :%pd expansion only happen for kernel function probes
 * (neither TPP_USER nor TPP_EVENT).
 *
 * Return: a definition with only @flags and the arguments filled in, to
 * release with tpp_free(), or an ERR_PTR() holding @err->errnum.
 */
struct tpp_def *tpp_parse_args(const char *cmd, unsigned int first,
			       unsigned int flags, const char *func,
			       const struct tpp_env *env,
			       struct tpp_error *err)
{
	struct tpp_state *st = state_new(cmd, env, err);

	if (!st)
		return ERR_PTR(-ENOMEM);
	st->first = first;
	st->flags = flags;
	st->func = func;
	st->def->flags = flags;
	return state_finish(st, parse_fetchargs(st));
}

/**
 * tpp_free - release a definition
 * @def: from tpp_parse_kprobe() or tpp_parse_args(); NULL and error
 *	pointers are ignored
 */
void tpp_free(struct tpp_def *def)
{
	unsigned int i;

	if (IS_ERR_OR_NULL(def))
		return;
	for (i = 0; def->args && i < def->nr_args; i++) {
		kfree(def->args[i].name);
		kfree(def->args[i].comm);
		kfree(def->args[i].fetch.str);
		kfree(def->args[i].fetch.deref);
		if (def->args[i].btf)
			def->btf_ops->put(def->args[i].btf);
	}
	kfree(def->args);
	kfree(def->module);
	kfree(def->symbol);
	kfree(def->event);
	kfree(def->group);
	kfree(def);
}

/* The counts are compared before anything else: that decides the caret */
static int first_arg_mismatch(const struct tpp_def *old,
			      const struct tpp_def *new)
{
	const struct tpp_arg *a, *b;
	unsigned int i;

	if (old->nr_args != new->nr_args)
		return min(old->nr_args, new->nr_args);
	for (i = 0; i < new->nr_args; i++) {
		a = &new->args[i];
		b = &old->args[i];
		if (a->type != b->type || a->count != b->count ||
		    a->whole != b->whole || a->btf != b->btf ||
		    a->btf_id != b->btf_id || strcmp(a->name, b->name))
			return i;
	}
	return -1;
}

/**
 * tpp_check_append - may @new join the event @old belongs to?
 * @old: a probe of the existing event
 * @new: the definition being added, with the same group and event name
 * @err: error context; carets point into @new's command
 *
 * Both must be entry or both return probes, with the same argument names,
 * types and array lengths.  The caller checks tpp_same_probe() against
 * every probe of the event afterwards.
 *
 * Return: 0, or -EEXIST with the error in @err.
 */
int tpp_check_append(const struct tpp_def *old, const struct tpp_def *new,
		     struct tpp_error *err)
{
	int i;

	if (old->is_return != new->is_return)
		return tpp_error_set(err, TPP_E_APPEND_KIND, 0, -EEXIST);
	i = first_arg_mismatch(old, new);
	if (i < 0)
		return 0;
	return tpp_error_set(err, TPP_E_APPEND_ARGS,
			     (unsigned int)i < new->nr_args ? new->args[i].pos :
							      new->tail_pos,
			     -EEXIST);
}

/**
 * tpp_same_probe - would @b duplicate @a?
 * @a: a probe of an event
 * @b: another definition of the same event
 *
 * Same place and the same argument text.  All address probes count as
 * the same place.
 *
 * Return: true for a duplicate (report TPP_E_APPEND_SAME at 0).
 */
bool tpp_same_probe(const struct tpp_def *a, const struct tpp_def *b)
{
	unsigned int i;

	if (strcmp(a->symbol ?: "unknown", b->symbol ?: "unknown") ||
	    a->offset != b->offset || a->nr_args != b->nr_args)
		return false;
	for (i = 0; i < a->nr_args; i++)
		if (strcmp(a->args[i].comm, b->args[i].comm))
			return false;
	return true;
}

/**
 * tpp_type_name - name of a field type as written after ':'
 * @type: the type
 *
 * Return: the name, or NULL for an invalid @type.
 */
const char *tpp_type_name(enum tpp_type type)
{
	return (unsigned int)type < TPP_TYPE_MAX ? tpp_types[type].name : NULL;
}

/**
 * tpp_type_size - bytes a field of @type takes in the fixed record part
 * @type: the type
 *
 * Return: the size (4 for the __data_loc of a string), 0 for an invalid
 * @type.
 */
unsigned int tpp_type_size(enum tpp_type type)
{
	return (unsigned int)type < TPP_TYPE_MAX ? tpp_types[type].size : 0;
}

/**
 * tpp_word_len - length of the word at @s
 * @s: a position in a command, whose words are separated by single spaces
 *
 * Return: the bytes up to the next space or the end of the command.
 */
unsigned int tpp_word_len(const char *s)
{
	const char *sp = strchr(s, ' ');

	return sp ? (unsigned int)(sp - s) : strlen(s);
}

/**
 * tpp_parse_head_name - parse the ":[GROUP/]EVENT" of a head word
 * @cmd: the command; its word 0 is "KIND[N][:NAME]"
 * @name: filled with the spans found, all zero when word 0 has no ':'
 * @err: error context, as for tpp_parse_event_name()
 *
 * The first ':' after the kind letter starts NAME; NAME ends with word 0.
 *
 * Return: 0, or -EINVAL with the error in @err.
 */
int tpp_parse_head_name(const char *cmd, struct tpp_name *name,
			struct tpp_error *err)
{
	unsigned int len = tpp_word_len(cmd);
	const char *colon = len ? memchr(cmd + 1, ':', len - 1) : NULL;
	unsigned int at;

	memset(name, 0, sizeof(*name));
	if (!colon)
		return 0;
	at = colon + 1 - cmd;
	return tpp_parse_event_name(cmd, at, len - at, name, err);
}

/**
 * tpp_set_names - give a definition its group and event names
 * @def: the definition, with no group or event name yet
 * @cmd: the command @name's spans point into
 * @name: from tpp_parse_event_name(), all zero when the head names nothing
 * @group: the group when @name gives none
 * @event: the event name when @name gives none
 *
 * Return: 0, or -ENOMEM; what was set is released by tpp_free() either way.
 */
int tpp_set_names(struct tpp_def *def, const char *cmd,
		  const struct tpp_name *name, const char *group,
		  const char *event)
{
	if (name->group_len)
		def->group = kmemdup_nul(cmd + name->group, name->group_len,
					 GFP_KERNEL);
	else
		def->group = kstrdup(group, GFP_KERNEL);
	if (name->event_len)
		def->event = kmemdup_nul(cmd + name->event, name->event_len,
					 GFP_KERNEL);
	else
		def->event = kstrdup(event, GFP_KERNEL);
	return def->group && def->event ? 0 : -ENOMEM;
}

/**
 * tpp_fix_event_name - make a generated event name a valid one
 * @name: the name, NUL-terminated
 *
 * Every ':', '.' and '*' after the first character becomes '_'; the first
 * character is left as it is.
 */
void tpp_fix_event_name(char *name)
{
	char *p;

	for (p = name + 1; *name && *p; p++)
		if (*p == ':' || *p == '.' || *p == '*')
			*p = '_';
}
