/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The probe definition parser (trace_probe.c): the text written to
 * kprobe_events, dynamic_events and uprobe_events, turned into a tree that
 * probe_fetch.c compiles into a flat fetch program.
 *
 * The parser is a pure function.  It reads the command (argv joined by single
 * spaces, comments already stripped), never writes into it, never prints and
 * never sleeps on anything but GFP_KERNEL allocations.  Everything that
 * depends on the running kernel (registers, kallsyms, BTF) comes in through
 * struct tpp_env, so the same file builds in user space for unit tests.
 *
 * Errors travel in a caller-owned struct tpp_error: the first error wins and
 * carries the error_log message id, the caret position (a byte offset into
 * the command) and the errno the writer gets.
 *
 * The probe event code names its layers by prefix:
 *   tpp_	trace probe parser: this header and trace_probe.c
 *   probe_	fetch programs: compile, run, print (probe_fetch.h)
 *   pfa_	what a fetch program reads of the machine: registers, stack,
 *		memory that may fault (probe_fetch_access.h)
 *   kenv_	the running kernel behind struct tpp_env: kallsyms, kprobes,
 *		registers (probe_kenv.h)
 *   pbtf_	the BTF part of it (probe_kenv.h, probe_btf.c)
 *   probe_event_	the ftrace event one or more probes write, and the
 *		struct trace_probe every tracer's probe starts with
 *		(probe_event.h)
 *   pf_	probe_fetch.c's own statics: print kinds, the program builder
 *   tk_, tf_, te_, tu_, tw_	the kprobe, fprobe, eprobe, uprobe and
 *		wprobe tracers' own helpers, private to trace_kprobe.c,
 *		trace_fprobe.c, trace_eprobe.c, trace_uprobe.c and
 *		trace_wprobe.c (struct trace_kprobe, ...)
 */
#ifndef _TRACE_PROBE_H
#define _TRACE_PROBE_H

#include <linux/bits.h>
#include <linux/math.h>
#include <linux/types.h>

/* Limits of the definition grammar: tracefs ABI */
#define TPP_MAX_ARGS		128	/* fetch arguments per probe */
#define TPP_MAX_ARGSTR_LEN	63	/* one argument body */
#define TPP_MAX_ARG_NAME_LEN	32
#define TPP_MAX_ARRAY_LEN	64
#define TPP_MAX_EVENT_NAME_LEN	64	/* group or event name, NUL included */
#define TPP_MAXACTIVE_MAX	4096
#define TPP_MAX_OPS		16	/* fetch program slots per argument */
#define TPP_MAX_DEREFS		(TPP_MAX_OPS - 2)
#define TPP_MAX_EVENT_SIZE	3072	/* fixed-size part of one record */
#define TPP_BTF_ARGS_BUF	128	/* text $arg* and $argN expand into */
#define TPP_DENTRY_ARGS_BUF	256	/* text :%pd and :%pD expand into */
#define TPP_MAX_ENTRY_DATA	4096	/* bytes a return probe saves at entry */
#define TPP_ENTRY_STRING	256	/* room of one @entry() string */
#define TPP_DEFAULT_GROUP	"kprobes"
#define TPP_WPROBE_GROUP	"wprobes"

/* error_log message ids; TPP_E_NONE: the writer gets an errno, no log */
#define TPP_ERR(id, ...)	TPP_E_##id,
enum tpp_err {
	TPP_E_NONE = -1,
#include "trace_probe_errors.h"
	TPP_E_MAX
};

#undef TPP_ERR

extern const char *tpp_err_text[TPP_E_MAX];

/**
 * struct tpp_error - the first error of a parse
 * @errnum: 0, or the negative errno the writer of the command gets
 * @id: message for error_log, or TPP_E_NONE when nothing is logged
 * @pos: caret position, a byte offset into the command; one past the
 *	command's length ("after the last word") is possible
 */
struct tpp_error {
	int errnum;
	int id;
	unsigned int pos;
};

/* Where a probe sits; selects which FETCHARGs make sense (tpp_parse_args) */
#define TPP_USER	BIT(0)	/* uprobe: @+OFFS, no @SYM, no symbol types */
#define TPP_FPROBE	BIT(1)	/* fprobe or tprobe: no %REG */
#define TPP_TPOINT	BIT(2)	/* tprobe: parameter 1 is the stub's data */
#define TPP_EVENT	BIT(3)	/* eprobe: $NAME is a field of the event */
#define TPP_RETURN	BIT(4)	/* return probe */
#define TPP_ENTRY	BIT(5)	/* known to sit on a function entry */
#define TPP_WATCH	BIT(6)	/* wprobe: at an instruction that accessed the
				 * watched data; $addr is what it watches
				 */

/* Where the value of a FETCHARG comes from, before any dereference */
enum tpp_src {
	TPP_SRC_NONE,
	TPP_SRC_REG,		/* %REG: val = offset in struct pt_regs; see
				 * &tpp_fetch.width
				 */
	TPP_SRC_STACK,		/* $stackN: val = N */
	TPP_SRC_STACKP,		/* $stack: the stack pointer */
	TPP_SRC_RETVAL,		/* $retval */
	TPP_SRC_COMM,		/* $comm: address of current->comm */
	TPP_SRC_ARG,		/* argument val (from 0) by the arch's API */
	TPP_SRC_EARG,		/* an argument saved at entry by a return
				 * probe: val = tpp_earg()
				 */
	TPP_SRC_ADDR,		/* @ADDR: val = ADDR */
	TPP_SRC_SYMBOL,		/* @SYM[+|-OFFS]: str = SYM, val = OFFS */
	TPP_SRC_FOFFS,		/* @+OFFS (uprobe): val = file offset */
	TPP_SRC_IMM,		/* \IMM: val = IMM */
	TPP_SRC_IMMSTR,		/* \"STR": str = STR, address of a copy */
	TPP_SRC_FIELD,		/* eprobe $NAME: val = field index */
	TPP_SRC_CURRENT,	/* $current: address of the current task */
	TPP_SRC_WATCH,		/* wprobe $addr: the watched address */
};

/* Types of the record field; the order is not ABI */
enum tpp_type {
	TPP_TYPE_U8, TPP_TYPE_U16, TPP_TYPE_U32, TPP_TYPE_U64,
	TPP_TYPE_S8, TPP_TYPE_S16, TPP_TYPE_S32, TPP_TYPE_S64,
	TPP_TYPE_X8, TPP_TYPE_X16, TPP_TYPE_X32, TPP_TYPE_X64,
	TPP_TYPE_CHAR, TPP_TYPE_SYMBOL,
	TPP_TYPE_STRING, TPP_TYPE_USTRING, TPP_TYPE_SYMSTR,
	TPP_TYPE_MAX
};

/* How the fetched value lands in the record */
enum tpp_store {
	TPP_ST_RAW,		/* the value itself */
	TPP_ST_MEM,		/* memory at the value (kernel) */
	TPP_ST_UMEM,		/* memory at the value (user) */
	TPP_ST_STRING,		/* string at the value; kernel, or user below TASK_SIZE */
	TPP_ST_USTRING,		/* string at the value (user) */
	TPP_ST_SYMSTR,		/* "sym+off/size" of the value */
	TPP_ST_WHOLE,		/* &tpp_arg.whole bytes at the value (kernel) */
};

/**
 * struct tpp_deref - one +|-[u]OFFS(...) level, or a this_cpu_ptr()
 * @offset: added to the address before reading
 * @user: read user memory (the "u" form)
 * @percpu: this_cpu_ptr(): add this CPU's per-CPU offset to the value,
 *	read nothing (@offset and @user are 0)
 */
struct tpp_deref {
	long offset;
	bool user;
	bool percpu;
};

/*
 * A function argument at its entry is a register, a stack word or, where
 * the architecture tells no layout, what regs_get_kernel_argument() reads:
 * &tpp_env.arg_at gives TPP_SRC_REG, TPP_SRC_STACK or TPP_SRC_ARG and its
 * value.  A return probe saves it at the entry and reads it back as
 * TPP_SRC_EARG with both in one number.
 */
static inline unsigned long tpp_earg(int src, unsigned long val)
{
	return (unsigned long)src << 24 | val;
}

static inline int tpp_earg_src(unsigned long earg)
{
	return earg >> 24;
}

static inline unsigned long tpp_earg_val(unsigned long earg)
{
	return earg & ((1UL << 24) - 1);
}

/**
 * struct tpp_fetch - where an argument's value comes from
 * @src: the innermost value
 * @val: number attached to @src (see enum tpp_src)
 * @width: TPP_SRC_REG: bytes of the word the register name covers, 0 for
 *	all of it ("%edi": 4, "%di": 0)
 * @shift: TPP_SRC_REG with @width: bits of the word below them ("%ah": 8)
 * @str: owned NUL-terminated text for TPP_SRC_SYMBOL and TPP_SRC_IMMSTR
 * @nr_derefs: entries in @deref
 * @deref: dereferences, innermost first.  @ADDR, @SYM and @+OFFS always have
 *	an implicit first entry {0, false}: they read the memory at the address.
 */
struct tpp_fetch {
	enum tpp_src src;
	unsigned long val;
	u8 width;
	u8 shift;
	char *str;
	unsigned int nr_derefs;
	struct tpp_deref *deref;
};

/**
 * struct tpp_arg - one parsed FETCHARG
 * @name: owned; as given, from the BTF expression, or "argN"
 * @comm: owned; the body ("FETCHARG[:TYPE]") as the listing shows it.  For
 *	:%pd/:%pD and BTF-expanded $arg forms this is the expanded text.
 * @pos: caret position of this argument in the command (see tpp_def)
 * @fetch: the value and its dereferences
 * @type: field type; bitfields and BTF-typed values have their base type
 * @count: array length, 0 for a scalar
 * @store: how the value lands in the record
 * @fold: @store replaces the last dereference (it reads at its offset)
 *	instead of following the whole chain
 * @bf_bytes: bitfield container size in bytes, 0 when there is no bitfield
 * @bf_lshift: bitfield: shift left by this ...
 * @bf_rshift: ... then right by this to isolate the field
 * @nr_ops: fetch program slots this argument needs, the final END excluded
 * @entry: "@entry(FETCHARG)": the whole argument is evaluated at the
 *	function entry of a return probe, kept in its entry data, and copied
 *	into the record at the exit; @fetch and @store are how the entry
 *	reads it
 * @whole: "*EXPR": bytes of the structure or union recorded whole, else 0;
 *	@type is then u8 and @count 0
 * @btf: with @whole: the BTF that describes it, a reference the definition
 *	holds (&tpp_btf_ops.put)
 * @btf_id: with @whole: its type id in @btf
 *
 * Invariants: @nr_ops < TPP_MAX_OPS; a string @store or a non-zero @count
 * implies memory is read; @fold implies @fetch.nr_derefs > 0; @whole
 * implies @fold and TPP_ST_WHOLE.
 */
struct tpp_arg {
	char *name;
	char *comm;
	unsigned int pos;
	struct tpp_fetch fetch;
	enum tpp_type type;
	unsigned int count;
	enum tpp_store store;
	bool fold;
	u8 bf_bytes;
	u8 bf_lshift;
	u8 bf_rshift;
	unsigned int nr_ops;
	bool entry;
	unsigned int whole;
	void *btf;
	u32 btf_id;
};

/* The accesses a wprobe watches: &tpp_watch.access */
#define TPP_WATCH_R	BIT(0)
#define TPP_WATCH_W	BIT(1)
#define TPP_WATCH_RW	(TPP_WATCH_R | TPP_WATCH_W)
/* The length watched when the definition writes none: an int */
#define TPP_WATCH_LEN_DEFAULT	4

/**
 * struct tpp_watch - what a wprobe ('w' definition) watches, besides the
 *	place in &tpp_def.symbol, &tpp_def.offset and &tpp_def.addr
 * @access: TPP_WATCH_R, TPP_WATCH_W or both
 * @len: bytes watched: 1, 2, 4 or 8
 * @pos: caret position of the watch word (its access)
 * @len_pos: caret position of LEN, or of the byte after the place word
 *	when LEN was not written
 * @unset: the place was written -1: the wprobe watches nothing until a
 *	set_wprobe trigger gives it an address
 */
struct tpp_watch {
	u8 access;
	u8 len;
	bool unset;
	unsigned int pos;
	unsigned int len_pos;
};

/**
 * struct tpp_def - one parsed probe definition
 * @kind: 'p' or 'r' as written, 'w' for a wprobe
 * @is_return: return probe ('r' or the %return suffix)
 * @flags: TPP_* flags the arguments were parsed with
 * @maxactive: 0 for the kprobes core default
 * @group: owned; TPP_DEFAULT_GROUP when not given
 * @event: owned; generated ("p_SYM_OFFS", "r_0x%p") when not given
 * @place_pos: caret position of the place word (register-time errors);
 *	for a wprobe, of the place after its '@'
 * @symbol: owned "[MOD:]SYM" without the offset, NULL for an address
 * @module: owned MOD, NULL when not given
 * @offset: offset from @symbol, 0..UINT_MAX; for a wprobe a long,
 *	negative for SYM-OFFS
 * @addr: the address when @symbol is NULL
 * @size: bytes the arguments take in the fixed part of the record
 * @tail_pos: caret position "after the last argument"
 * @entry_size: bytes the @entry() arguments keep in the entry data
 * @nr_eargs: distinct $argN a return probe saves at entry
 * @nr_args: entries in @args
 * @args: the arguments, in order
 * @watch: a wprobe's access and length
 * @btf_ops: the BTF lookups the arguments were parsed with, which
 *	tpp_free() hands their references back to; NULL without BTF
 *
 * Argument carets: argument i points at word i + 2 of the command even
 * when $arg* expanded into several arguments.
 */
struct tpp_def {
	char kind;
	bool is_return;
	unsigned int flags;
	unsigned int maxactive;
	char *group;
	char *event;
	unsigned int place_pos;
	char *symbol;
	char *module;
	unsigned long offset;
	unsigned long addr;
	unsigned int size;
	unsigned int tail_pos;
	unsigned int entry_size;
	unsigned int nr_eargs;
	unsigned int nr_args;
	struct tpp_arg *args;
	struct tpp_watch watch;
	const struct tpp_btf_ops *btf_ops;
};

/**
 * struct tpp_btf_field - a member a BTF expression dereferences
 * @offset: byte offset of the member in the pointed-to structure
 * @at: byte of the expression a TOO_DEEP caret points at for this member
 */
struct tpp_btf_field {
	long offset;
	unsigned int at;
};

/* What a BTF-typed value is, as far as strings care */
enum tpp_btf_kind {
	TPP_BTF_PLAIN,
	TPP_BTF_CHAR_PTR,	/* char *: :string needs one more deref */
	TPP_BTF_CHAR_ARRAY,	/* char []: :string reads it in place */
};

/**
 * struct tpp_btf_req - one BTF expression for &tpp_btf_ops.resolve
 * @func: the probed function, NUL-terminated
 * @flags: TPP_* flags of the probe
 * @expr: "VAR[->FIELD|.FIELD...]" or "$retval[->FIELD...]", or with
 *	@cast_len a typecast "(STRUCT[,MEMBER[.MEMBER...]])TARGET->FIELD...";
 *	not NUL-terminated
 * @len: length of @expr
 * @cast_len: a typecast: the length of "STRUCT[,MEMBER...]" at @expr + 1;
 *	else 0
 * @chain: a typecast: where its "->FIELD..." starts in @expr
 * @src: result: TPP_SRC_ARG (parameter @param) or TPP_SRC_RETVAL
 * @param: result: parameter index, 0-based, as the user counts them
 * @typed: result: @type, @kind and the bit info are valid; false for a
 *	$retval whose function BTF does not know (that reads an untyped
 *	$retval, and fails with BTF_NOFUNC only if a field follows)
 * @type: result: field type to use when the user gives none; the default
 *	x64 (x32) when BTF has nothing better, as for structs
 * @kind: result: string handling of the value
 * @bitsize: result: width of a bitfield value, else 0
 * @bitoffs: result: bit offset of a bitfield value in its byte
 * @nr_fields: result: entries used in @field
 * @field: result: members dereferenced, in order; the resolver may stop
 *	after TPP_MAX_DEREFS + 1 entries, the parser rejects that many anyway
 * @late_at: result: byte of @expr later type errors point at (0 without
 *	fields, else where the last member starts)
 * @cast_offset: result: a typecast's ",MEMBER" offset in STRUCT, in bytes,
 *	which TARGET is the address of (container_of())
 * @whole: "*EXPR": the structure or union the expression names or points
 *	at is to be recorded whole; the results below say where and what
 * @whole_size: result: its size in bytes
 * @whole_id: result: its type id
 * @whole_btf: result: the BTF that holds it, referenced for the caller
 * @whole_in_place: result: the last member is the structure itself, so it
 *	is read where that member is; else the value points at it
 * @id: on failure: the error_log message, or TPP_E_NONE
 * @at: on failure: byte of @expr the caret points at
 */
struct tpp_btf_req {
	const char *func;
	unsigned int flags;
	const char *expr;
	unsigned int len;
	unsigned int cast_len;
	unsigned int chain;
	enum tpp_src src;
	unsigned int param;
	bool typed;
	enum tpp_type type;
	enum tpp_btf_kind kind;
	u8 bitsize;
	u8 bitoffs;
	unsigned int nr_fields;
	struct tpp_btf_field field[TPP_MAX_DEREFS + 1];
	unsigned int late_at;
	long cast_offset;
	bool whole;
	unsigned int whole_size;
	u32 whole_id;
	void *whole_btf;
	bool whole_in_place;
	int id;
	unsigned int at;
};

/**
 * struct tpp_btf_ops - BTF lookups; a NULL &tpp_env.btf means "no BTF"
 *	(CONFIG_PROBE_EVENTS_BTF_ARGS=n)
 * @nr_params: number of parameters of @func as the user sees them (a
 *	tprobe's hidden first one excluded), or a negative errno when BTF
 *	has no entry for it
 * @param_name: name of parameter @idx of @func, or NULL
 * @resolve: fill in @req; return 0 or a negative errno (and @req->id,
 *	@req->at) for the writer.  Errors and errnos (tracefs ABI):
 *	BTF_NOVAR and BTF_NOFUNC -ENOENT, VOID_RETVAL -ENOENT, BTF_NOFIELD
 *	-ENOENT, BTF_DOT_ARG -EOPNOTSUPP, BTF_HYPHEN, BTF_NOT_PTR and
 *	BTF_TID -EINVAL.  Only called at a function entry or exit, with a
 *	non-NULL function, except for "$current->..." (@req->func may be
 *	NULL then), which resolves in the kernel's own BTF with @req->src
 *	TPP_SRC_CURRENT, and for a typecast, which resolves there too (the
 *	parser has the value of TARGET; @req->src is left alone): an unknown
 *	STRUCT is BTF_NOT_PTR, MEMBER errors TYPECAST_BAD_ARROW and
 *	TYPECAST_NOT_ALIGNED -EINVAL, BTF_NOFIELD -ENOENT.  With
 *	@req->whole, an expression that neither is nor points at a
 *	structure or union of known size is WHOLE_NOT_STRUCT -EINVAL.
 * @put: drop the reference of a &tpp_btf_req.whole_btf
 */
struct tpp_btf_ops {
	int (*nr_params)(void *priv, const char *func, unsigned int flags);
	const char *(*param_name)(void *priv, const char *func,
				  unsigned int flags, unsigned int idx);
	int (*resolve)(void *priv, struct tpp_btf_req *req);
	void (*put)(void *btf);
};

/**
 * struct tpp_reg - a register as a %NAME argument reads it
 * @offset: of the struct pt_regs word that holds it
 * @width: bytes of the word the name covers, 0 for the whole word
 * @shift: bits of the word below them
 */
struct tpp_reg {
	unsigned int offset;
	u8 width;
	u8 shift;
};

/**
 * struct tpp_env - everything the parser asks the running kernel
 * @priv: passed back to every op
 * @reg: find register @name: 0 with @reg filled, or a negative errno
 * @arg_at: where argument @n (from 0) is at a function entry:
 *	TPP_SRC_REG, TPP_SRC_STACK or TPP_SRC_ARG with its value in @val,
 *	or a negative errno when it cannot be read
 * @sym_count: how many kallsyms entries are called @sym, in module @mod
 *	only when @mod is not NULL; -ENODEV when @mod is not loaded (the probe
 *	then waits for it)
 * @func_entry: kprobe_on_func_entry(): 0 when @sym + @offset is a function
 *	entry, -EINVAL when it is not, -ENOENT when @sym is unknown
 * @event_field: eprobe: index of field @name of the attached event, or a
 *	negative errno; may be NULL
 * @sym_addr: eprobe: the address of symbol @name, 0 when unknown; where
 *	set, each @SYM is looked up once its argument has parsed; may be NULL
 * @max_stack: largest N for $stackN (THREAD_SIZE / sizeof(long))
 * @max_arg: largest N for $argN, 0 without a way to read arguments
 * @dentry_name_off: offsetof(struct dentry, d_name.name), for :%pd
 * @file_dentry_off: offsetof(struct file, f_path.dentry), for :%pD
 * @btf: BTF lookups, or NULL
 */
struct tpp_env {
	void *priv;
	int (*reg)(void *priv, const char *name, struct tpp_reg *reg);
	int (*arg_at)(void *priv, unsigned int n, unsigned long *val);
	int (*sym_count)(void *priv, const char *mod, const char *sym);
	int (*func_entry)(void *priv, const char *sym, unsigned long offset);
	int (*event_field)(void *priv, const char *name);
	unsigned long (*sym_addr)(void *priv, const char *name);
	unsigned long max_stack;
	unsigned long max_arg;
	unsigned long dentry_name_off;
	unsigned long file_dentry_off;
	const struct tpp_btf_ops *btf;
};

/**
 * struct tpp_name - "[GROUP/]EVENT" as spans of the command
 * @group: offset of GROUP
 * @group_len: 0 when no group was given
 * @event: offset of EVENT
 * @event_len: 0 when the event name is to be generated
 */
struct tpp_name {
	unsigned int group;
	unsigned int group_len;
	unsigned int event;
	unsigned int event_len;
};

int tpp_error_set(struct tpp_error *err, int id, unsigned int pos, int errnum);
int tpp_parse_event_name(const char *cmd, unsigned int start, unsigned int len,
			 struct tpp_name *name, struct tpp_error *err);
struct tpp_def *tpp_parse_kprobe(const char *cmd, const struct tpp_env *env,
				 struct tpp_error *err);
struct tpp_def *tpp_parse_wprobe(const char *cmd, const struct tpp_env *env,
				 struct tpp_error *err);
struct tpp_def *tpp_parse_args(const char *cmd, unsigned int first,
			       unsigned int flags, const char *func,
			       const struct tpp_env *env,
			       struct tpp_error *err);
void tpp_free(struct tpp_def *def);
int tpp_check_append(const struct tpp_def *old, const struct tpp_def *new,
		     struct tpp_error *err);
bool tpp_same_probe(const struct tpp_def *a, const struct tpp_def *b);
unsigned int tpp_word_len(const char *s);
int tpp_parse_head_name(const char *cmd, struct tpp_name *name,
			struct tpp_error *err);
int tpp_set_names(struct tpp_def *def, const char *cmd,
		  const struct tpp_name *name, const char *group,
		  const char *event);
void tpp_fix_event_name(char *name);
const char *tpp_type_name(enum tpp_type type);
unsigned int tpp_type_size(enum tpp_type type);

static inline bool tpp_type_is_string(enum tpp_type type)
{
	return type == TPP_TYPE_STRING || type == TPP_TYPE_USTRING ||
	       type == TPP_TYPE_SYMSTR;
}

/* Bytes an argument's field takes in the fixed part of the record */
static inline unsigned int tpp_arg_bytes(const struct tpp_arg *arg)
{
	return arg->whole ?: (arg->count ?: 1) * tpp_type_size(arg->type);
}

/* What an @entry() argument keeps: its field, and a room per string */
static inline unsigned int tpp_entry_bytes(const struct tpp_arg *arg)
{
	unsigned int room = tpp_type_is_string(arg->type) ? TPP_ENTRY_STRING : 0;

	return tpp_arg_bytes(arg) + (arg->count ?: 1) * room;
}

/*
 * The entry data of a return probe, in bytes: a uprobe's starts with the
 * word its @+OFFS values are mapped by; then the @entry() area; then a
 * long per saved $argN.  0 when nothing is saved.
 */
static inline unsigned int tpp_edata_size(unsigned int flags,
					  unsigned int entry_size,
					  unsigned int nr_eargs)
{
	unsigned int off = flags & TPP_USER ? sizeof(long) : 0;

	if (!entry_size && !nr_eargs)
		return 0;
	return round_up(off + entry_size, sizeof(long)) +
	       nr_eargs * sizeof(long);
}

/*
 * What the rest of the tracing code asks of the probe event tracers: the
 * one-off kprobe and uprobe events perf's PMUs make (trace_event_perf.c),
 * and what BPF needs to know of a kprobe or uprobe event (bpf_trace.c).
 */
struct trace_event_call;

/**
 * struct uprobe_dispatch_data - what a uprobe event's hit leaves in
 *	current->utask->vaddr while its handler runs, for BPF's
 *	bpf_get_func_ip()
 * @tu: the uprobe event's probe
 * @bp_addr: the probed address; for a return probe, the function's
 */
struct uprobe_dispatch_data {
	void *tu;
	unsigned long bp_addr;
};

/* BPF (bpf_trace.c) asks these of kprobe events; without them, no */
#ifdef CONFIG_KPROBE_EVENTS
bool trace_kprobe_on_func_entry(struct trace_event_call *call);
bool trace_kprobe_error_injectable(struct trace_event_call *call);
#else
#define trace_kprobe_on_func_entry(call)	((void)(call), false)
#define trace_kprobe_error_injectable(call)	((void)(call), false)
#endif

#ifdef CONFIG_PERF_EVENTS
struct trace_event_call *create_local_trace_kprobe(char *func, void *addr,
						   unsigned long offs,
						   bool is_return);
void destroy_local_trace_kprobe(struct trace_event_call *call);

struct trace_event_call *create_local_trace_uprobe(char *name,
						   unsigned long offs,
						   unsigned long ref_ctr_offset,
						   bool is_return);
void destroy_local_trace_uprobe(struct trace_event_call *call);
#endif

#endif /* _TRACE_PROBE_H */
