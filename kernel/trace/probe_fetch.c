// SPDX-License-Identifier: GPL-2.0
/*
 * Fetch programs: compile a parsed probe into one flat instruction array,
 * interpret it at probe hits, print the records it wrote.  See
 * probe_fetch.h for the interface.
 *
 * Each argument compiles to a short run of instructions,
 *
 *	source [deref ...] store [bitfield]
 *
 * The source loads the interpreter's only register; each dereference
 * replaces it with the word it points at; the store ends the argument by
 * writing its field and, for strings, dynamic data.  A store that reads
 * memory itself (a scalar or string at value + offset) takes over the
 * argument's last dereference, so "+8(%di):u32" is two instructions and a
 * register argument is two.  The runs follow one another; END closes the
 * program.
 *
 * A string whose length is only known at the hit also gets a run in the
 * size program, ending in a size instruction instead of the store.  A
 * probe without such strings has no size program and never walks one.
 *
 * A dereference that faults skips to its argument's store, which writes
 * zeroes, or __data_loc words of length 0 ("(fault)") for strings: a
 * field is never left as the ring buffer had it, which would leak what an
 * earlier record held.
 */
#include <linux/array_size.h>
#include <linux/err.h>
#include <linux/kprobes.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/stdarg.h>
#include <linux/string.h>
#include <linux/trace_seq.h>
#include <linux/unaligned.h>

#include "probe_fetch.h"
#include "probe_fetch_access.h"

enum probe_op {
	PROBE_OP_END,
	/* a string the size pass cached: store it, skip @aux to its store */
	PROBE_OP_CACHED,
	/* sources: set the value */
	PROBE_OP_REG,		/* the pt_regs word at offset @arg */
	PROBE_OP_STACK,		/* kernel stack entry @arg */
	PROBE_OP_RETVAL,	/* the return value */
	PROBE_OP_ARG,		/* function argument @arg, from 0 */
	PROBE_OP_IMM,		/* @arg: \IMM, @ADDR, or @SYM once resolved */
	/* from here to PERCPU: the rarer ones, other_source() */
	PROBE_OP_STACKP,	/* the stack pointer */
	PROBE_OP_EDATA,		/* entry data slot @arg */
	PROBE_OP_FIELD,		/* eprobe: field at @arg of the event's record,
				 * @size bytes, read as enum probe_efield_kind
				 * @aux
				 */
	PROBE_OP_USTACK,	/* uprobe: user stack entry @arg */
	PROBE_OP_CURRENT,	/* the current task's address */
	PROBE_OP_FOFFS,		/* uprobe: file offset @arg, mapped: the
				 * mapping's start is entry data slot 0
				 */
	PROBE_OP_PERCPU,	/* this_cpu_ptr(): the value, made this CPU's */
	/* the word at value + @arg; on a fault, skip @aux to the store */
	PROBE_OP_DEREF,
	PROBE_OP_UDEREF,	/* in user memory */
	PROBE_OP_FDEREF,	/* uprobe: in user memory, may fault it in */
	/* stores: fill the field at @dst, end the argument */
	PROBE_OP_ST_RAW,	/* the value, @size bytes */
	PROBE_OP_ST_REG,	/* REG and ST_RAW in one: the pt_regs word at
				 * offset @arg, @size bytes
				 */
	/*
	 * From here to CONST: the text stores, exec_text_insn().  They follow
	 * ST_REG so that exec_insns()' switch has one case range, END to
	 * ST_CONST: a range with the rarer stores inside made gcc reload the
	 * pt_regs pointer for every ST_REG.
	 */
	PROBE_OP_ST_STR,	/* the string at value + @arg */
	PROBE_OP_ST_USTR,	/* the same in user memory */
	PROBE_OP_ST_STRS,	/* @count strings, their pointers at value + @arg
				 * (in user memory when @aux)
				 */
	PROBE_OP_ST_USTRS,	/* the same, user strings */
	PROBE_OP_ST_FSTR,	/* uprobe: user string, may fault it in */
	PROBE_OP_ST_FSTRS,	/* uprobe: the same for @count user pointers */
	PROBE_OP_ST_SYMSTR,	/* "sym+off/size" of the value */
	PROBE_OP_ST_COMM,	/* current->comm */
	PROBE_OP_ST_CONST,	/* the @size bytes at @arg: \"string" */
	PROBE_OP_ST_SUBREG,	/* the value's @aux bytes @rshift bits up,
				 * zero-extended to @size: "%edi", "%ah"
				 */
	PROBE_OP_ST_MEM,	/* @count elements of @size bytes at value + @arg */
	PROBE_OP_ST_UMEM,	/* the same in user memory */
	PROBE_OP_ST_FMEM,	/* uprobe: the same, may fault it in */
	PROBE_OP_ST_WHOLE,	/* the @len bytes at value + @arg, a structure */
	PROBE_OP_ST_FAULT,	/* @count strings that always fault */
	/* after a store: keep bits of each element, see emit_bitfield() */
	PROBE_OP_BITFIELD,
	/*
	 * @entry(): copy the field at entry data + @arg: @count strings
	 * when @aux is PF_ECOPY_STRS, @len bytes when PF_ECOPY_WHOLE
	 */
	PROBE_OP_ECOPY,
	/* entry program: the next string may take @arg bytes */
	PROBE_OP_ROOM,
	/* size program: count the dynamic bytes the matching store takes */
	PROBE_OP_SZ_STR,
	PROBE_OP_SZ_USTR,
	PROBE_OP_SZ_STRS,
	PROBE_OP_SZ_USTRS,
	PROBE_OP_SZ_SYMSTR,
	PROBE_OP_SZ_COMM,
	PROBE_OP_SZ_FSTR,
	PROBE_OP_SZ_FSTRS,
	PROBE_OP_SZ_ECOPY,
};

/*
 * One instruction: 16 bytes on 64-bit.  Which fields mean something
 * depends on @op, see enum probe_op.
 */
struct probe_insn {
	u8 op;
	u8 size;	/* bytes of one element of the field */
	u8 count;	/* elements of the field, 1 for a scalar */
	u8 aux;		/* derefs: instructions to the store; STRS: user ptrs;
			 * FIELD: how to read it
			 */
	u16 dst;	/* offset of the field in the record */
	union {
		struct {
			u8 lshift;	/* BITFIELD: shift left, then right,
					 * in a u64
					 */
			u8 rshift;
		};
		u16 len;	/* ST_WHOLE, whole ECOPY: bytes */
	};
	long arg;
};

/* What an ECOPY's @aux says it copies */
enum pf_ecopy { PF_ECOPY_VALUES, PF_ECOPY_STRS, PF_ECOPY_WHOLE };

/* An @SYM reference: insn[@insn].arg becomes its address plus @offset */
struct probe_sym {
	const char *name;
	long offset;
	unsigned int insn;
	unsigned int arg;	/* the argument it is in */
};

/* The print fmt spells 64-bit conversions "%Lu": tools parse it */
#define PF_LL	"L"

enum pf_kind { PF_UNSIGNED, PF_SIGNED, PF_HEX, PF_CHAR, PF_SYMBOL, PF_STRING };

/* Per enum tpp_type: the format file's field type, print fmt conversion */
static const struct {
	const char *field;
	const char *conv;
	u8 kind;
} pf_types[TPP_TYPE_MAX] = {
	[TPP_TYPE_U8] = { "u8", "%u", PF_UNSIGNED },
	[TPP_TYPE_U16] = { "u16", "%u", PF_UNSIGNED },
	[TPP_TYPE_U32] = { "u32", "%u", PF_UNSIGNED },
	[TPP_TYPE_U64] = { "u64", "%" PF_LL "u", PF_UNSIGNED },
	[TPP_TYPE_S8] = { "s8", "%d", PF_SIGNED },
	[TPP_TYPE_S16] = { "s16", "%d", PF_SIGNED },
	[TPP_TYPE_S32] = { "s32", "%d", PF_SIGNED },
	[TPP_TYPE_S64] = { "s64", "%" PF_LL "d", PF_SIGNED },
	[TPP_TYPE_X8] = { "u8", "0x%x", PF_HEX },
	[TPP_TYPE_X16] = { "u16", "0x%x", PF_HEX },
	[TPP_TYPE_X32] = { "u32", "0x%x", PF_HEX },
	[TPP_TYPE_X64] = { "u64", "0x%" PF_LL "x", PF_HEX },
	[TPP_TYPE_CHAR] = { "u8", "'%c'", PF_CHAR },
	[TPP_TYPE_SYMBOL] = { BITS_PER_LONG == 64 ? "u64" : "u32", "%pS",
			      PF_SYMBOL },
	[TPP_TYPE_STRING] = { "__data_loc char[]", "\\\"%s\\\"", PF_STRING },
	[TPP_TYPE_USTRING] = { "__data_loc char[]", "\\\"%s\\\"", PF_STRING },
	[TPP_TYPE_SYMSTR] = { "__data_loc char[]", "\\\"%s\\\"", PF_STRING },
};

/* ---- At a hit: everything below runs in the probe handler ---- */

/* The state of one walk over a program */
struct probe_hit {
	struct pt_regs *regs;
	const unsigned long *edata;
	u8 *rec;		/* the record; NULL while sizing */
	u32 dyn;		/* next free dynamic byte, or bytes sized */
	u32 end;		/* end of the record */
	struct probe_cache *fill;		/* sizing: cache strings here */
	const struct probe_cache *cache;	/* storing: take them from here */
	bool stage;		/* storing into a probe_cache's buf */
	bool cut;		/* staging: a string did not fit */
};

/* Fields are packed, so most are unaligned; x64 is the default type */
static nokprobe_inline void put_scalar(u8 *p, unsigned int size, u64 v)
{
	if (likely(size == sizeof(u64)))
		put_unaligned(v, (u64 *)p);
	else if (size == sizeof(u32))
		put_unaligned((u32)v, (u32 *)p);
	else if (size == sizeof(u16))
		put_unaligned((u16)v, (u16 *)p);
	else
		*p = v;
}

static nokprobe_inline u64 get_scalar(const u8 *p, unsigned int size)
{
	switch (size) {
	case 1:
		return *p;
	case 2:
		return get_unaligned((const u16 *)p);
	case 4:
		return get_unaligned((const u32 *)p);
	}
	return get_unaligned((const u64 *)p);
}

/* Point the field at @dst to the next @len dynamic bytes (0: a fault) */
static nokprobe_inline void put_loc(struct probe_hit *h, unsigned int dst,
				    long len)
{
	if (len < 0)
		len = 0;
	put_unaligned(probe_data_loc(len, h->dyn), (u32 *)(h->rec + dst));
	h->dyn += len;
}

/* Room for the next string: what is left, at most one string's worth */
static nokprobe_inline u32 room(const struct probe_hit *h)
{
	return min_t(u32, h->end - h->dyn, PROBE_MAX_STRING);
}

/*
 * Where memory is read: kernel (or user below TASK_SIZE), user, or user
 * with page faults allowed (uprobes).  A bool "user" converts to the
 * first two.
 */
enum pf_mem { PF_KERNEL, PF_USER, PF_FAULT };

static nokprobe_inline long mem_read(void *dst, unsigned long addr,
				     size_t size, u8 mem)
{
	if (mem == PF_FAULT)
		return pfa_fread(dst, addr, size);
	return pfa_read(dst, addr, size, mem == PF_USER);
}

/* Size of the string at @addr with its NUL, at most @max; 0 on a fault */
static nokprobe_inline u32 strsize_max(unsigned long addr, u8 mem, long max)
{
	if (mem == PF_FAULT)
		return pfa_fstrsize(addr, max);
	if (mem == PF_USER || pfa_is_user(addr))
		return pfa_ustrsize(addr, max);
	return pfa_kstrsize(addr, max);
}

static nokprobe_inline u32 strsize(unsigned long addr, u8 mem)
{
	return strsize_max(addr, mem, PROBE_MAX_STRING);
}

static nokprobe_inline void store_str(struct probe_hit *h, unsigned int dst,
				      unsigned long addr, u8 mem)
{
	char *to = (char *)h->rec + h->dyn;
	u32 n = room(h);

	if (!n)
		put_loc(h, dst, 0);
	else if (mem == PF_FAULT)
		put_loc(h, dst, pfa_fstrncpy(to, addr, n));
	else
		put_loc(h, dst, pfa_strncpy(to, addr, n, mem == PF_USER));
}

/* The memory the pointers of a string array are read from */
static nokprobe_inline u8 ptr_mem(const struct probe_insn *insn, u8 mem)
{
	return mem == PF_FAULT ? PF_FAULT : insn->aux;
}

/* Element i of an array of strings: the string at the i-th pointer */
static nokprobe_inline void store_strs(const struct probe_insn *insn,
				       struct probe_hit *h, unsigned long addr,
				       u8 mem)
{
	unsigned int i, dst = insn->dst;
	unsigned long ptr;

	for (i = 0; i < insn->count; i++, dst += 4, addr += sizeof(long)) {
		if (mem_read(&ptr, addr, sizeof(ptr), ptr_mem(insn, mem)))
			put_loc(h, dst, 0);
		else
			store_str(h, dst, ptr, mem);
	}
}

static nokprobe_inline u32 size_strs(const struct probe_insn *insn,
				     unsigned long addr, u8 mem)
{
	unsigned long ptr;
	unsigned int i;
	u32 sum = 0;

	for (i = 0; i < insn->count; i++, addr += sizeof(long))
		if (!mem_read(&ptr, addr, sizeof(ptr), ptr_mem(insn, mem)))
			sum += strsize(ptr, mem);
	return sum;
}

/* Store @len bytes of @text, the last being its NUL, cut to fit */
static nokprobe_inline void store_text(struct probe_hit *h, unsigned int dst,
				       const char *text, u32 len)
{
	u32 n = min(len, room(h));

	if (n) {
		memcpy(h->rec + h->dyn, text, n - 1);
		h->rec[h->dyn + n - 1] = '\0';
	}
	put_loc(h, dst, n);
}

/*
 * Size the string at @addr (kernel or user memory, not PF_FAULT) for the
 * field at @dst by copying it into @c, where the store pass takes it.  A
 * kernel one that does not fit in what is left is sized where the copy
 * stopped, a user one from its start.
 */
static nokprobe_inline u32 size_str_cached(struct probe_cache *c,
					   unsigned int dst,
					   unsigned long addr, u8 mem)
{
	u32 left = PROBE_CACHE_BYTES - c->used, rest;
	long len;

	if (c->nr == PROBE_CACHE_STRS || left < 2 * sizeof(long))
		return strsize(addr, mem);
	len = pfa_strncpy_once(c->buf + c->used, addr, left, mem == PF_USER);
	if (len == -E2BIG)
		return strsize(addr, mem);
	if (len >= left) {
		/* the first left - 1 bytes hold no NUL */
		rest = strsize_max(addr + left - 1, mem,
				   PROBE_MAX_STRING - (left - 1));
		return rest ? left - 1 + rest : 0;
	}
	if (len < 0)
		len = 0;
	c->ent[c->nr].dst = dst;
	c->ent[c->nr].off = c->used;
	c->ent[c->nr].len = len;
	c->nr++;
	c->used += len;
	return len;
}

/*
 * Store the string the size pass cached for @insn's field, if it did.
 * Returns the instructions to skip: to the store, or none.
 */
static nokprobe_inline unsigned int take_cached(struct probe_hit *h,
						const struct probe_insn *insn)
{
	const struct probe_cache *c = h->cache;
	unsigned int i;

	for (i = 0; c && i < c->nr; i++) {
		if (c->ent[i].dst == insn->dst) {
			store_text(h, insn->dst, c->buf + c->ent[i].off,
				   c->ent[i].len);
			return insn->aux;
		}
	}
	return 0;
}

/*
 * store_str() while staging: by the inline word copies, which tell a
 * string that does not fit from one that fills the room; then the hit is
 * sized and stored the usual way.
 */
static nokprobe_inline void stage_str(struct probe_hit *h, unsigned int dst,
				      unsigned long addr, u8 mem)
{
	u32 n = room(h);
	long len = n ? pfa_strncpy_once((char *)h->rec + h->dyn, addr, n,
					mem == PF_USER) : -E2BIG;

	if (len == -E2BIG)
		h->cut = true;
	put_loc(h, dst, len > 0 ? len : 0);
}

static nokprobe_inline u32 comm_size(void)
{
	return strnlen(pfa_comm(), TASK_COMM_LEN - 1) + 1;
}

/* Out of line: the name buffer is big, and symstr is rare */
static noinline u32 symstr_size(unsigned long addr)
{
	char buf[KSYM_SYMBOL_LEN];

	return pfa_sprint_symbol(buf, addr) + 1;
}

NOKPROBE_SYMBOL(symstr_size);

static noinline void store_symstr(struct probe_hit *h, unsigned int dst,
				  unsigned long addr)
{
	char buf[KSYM_SYMBOL_LEN];

	store_text(h, dst, buf, pfa_sprint_symbol(buf, addr) + 1);
}

NOKPROBE_SYMBOL(store_symstr);

/*
 * @count elements; one faulting element leaves the others alone.  A fault
 * costs a trip through the page fault handler (about a thousand
 * instructions), so a single element is not read a second time.
 */
static nokprobe_inline void store_mem(const struct probe_insn *insn,
				      struct probe_hit *h, unsigned long addr,
				      u8 mem)
{
	u8 *p = h->rec + insn->dst;
	unsigned int i;

	if (likely(!mem_read(p, addr, insn->size * insn->count, mem)))
		return;
	if (insn->count == 1) {
		memset(p, 0, insn->size);
		return;
	}
	for (i = 0; i < insn->count; i++, p += insn->size, addr += insn->size)
		if (mem_read(p, addr, insn->size, mem))
			memset(p, 0, insn->size);
}

/* A structure in one read: never half of it and half of the buffer's */
static nokprobe_inline void store_whole(const struct probe_insn *insn,
					struct probe_hit *h, unsigned long addr)
{
	if (pfa_read_call(h->rec + insn->dst, addr, insn->len))
		memset(h->rec + insn->dst, 0, insn->len);
}

static nokprobe_inline void apply_bitfield(const struct probe_insn *insn,
					   struct probe_hit *h)
{
	u8 *p = h->rec + insn->dst;
	unsigned int i;
	u64 v;

	for (i = 0; i < insn->count; i++, p += insn->size) {
		v = get_scalar(p, insn->size) << insn->lshift;
		put_scalar(p, insn->size, v >> insn->rshift);
	}
}

/* A dereference before @insn faulted: store the field as a fault */
static nokprobe_inline void store_fault(const struct probe_insn *insn,
					struct probe_hit *h)
{
	unsigned int i;

	switch (insn->op) {
	case PROBE_OP_ST_RAW:
	case PROBE_OP_ST_REG:
	case PROBE_OP_ST_SUBREG ... PROBE_OP_ST_FMEM:	/* not the text stores */
		memset(h->rec + insn->dst, 0, insn->size * insn->count);
		break;
	case PROBE_OP_ST_WHOLE:
		memset(h->rec + insn->dst, 0, insn->len);
		break;
	case PROBE_OP_ST_STR ... PROBE_OP_ST_CONST:
	case PROBE_OP_ST_FAULT:
		for (i = 0; i < insn->count; i++)
			put_loc(h, insn->dst + 4 * i, 0);
		break;
	}
	/* size instructions count nothing for it */
}

/*
 * @entry(): the entry program stored the field into the entry data as it
 * would into a record, its strings in the entry data too
 */
static nokprobe_inline void store_entry(const struct probe_insn *insn,
					struct probe_hit *h)
{
	const u8 *edata = (const u8 *)h->edata;
	const u8 *from = edata + insn->arg;
	unsigned int i;
	u32 loc;

	if (insn->aux == PF_ECOPY_VALUES) {
		memcpy(h->rec + insn->dst, from, insn->size * insn->count);
		return;
	}
	if (insn->aux == PF_ECOPY_WHOLE) {
		memcpy(h->rec + insn->dst, from, insn->len);
		return;
	}
	for (i = 0; i < insn->count; i++) {
		loc = get_unaligned((const u32 *)from + i);
		store_text(h, insn->dst + 4 * i,
			   (const char *)edata + probe_loc_offset(loc),
			   probe_loc_len(loc));
	}
}

/* @entry(): the exit's copy, or the entry program's room for a string */
static nokprobe_inline void exec_entry_insn(const struct probe_insn *insn,
					    struct probe_hit *h)
{
	if (insn->op == PROBE_OP_ROOM)
		h->end = h->dyn + insn->arg;
	else
		store_entry(insn, h);
}

static nokprobe_inline u32 entry_strs_size(const struct probe_insn *insn,
					   const struct probe_hit *h)
{
	const u32 *loc = (const u32 *)((const u8 *)h->edata + insn->arg);
	unsigned int i;
	u32 sum = 0;

	for (i = 0; i < insn->count; i++)
		sum += probe_loc_len(get_unaligned(loc + i));
	return sum;
}

/*
 * The stores and sizes below pass their memory kind as a constant, or as
 * a comparison the compiler knows is PF_KERNEL or PF_USER: kprobes pay
 * nothing for the uprobe kind.
 */
static nokprobe_inline u32 dyn_size_of(const struct probe_insn *insn,
				       struct probe_hit *h, unsigned long val)
{
	unsigned long addr = val + insn->arg;

	switch (insn->op) {
	case PROBE_OP_SZ_STR:
	case PROBE_OP_SZ_USTR:
		if (h->fill)
			return size_str_cached(h->fill, insn->dst, addr,
					       insn->op == PROBE_OP_SZ_USTR);
		return strsize(addr, insn->op == PROBE_OP_SZ_USTR);
	case PROBE_OP_SZ_FSTR:
		return strsize(addr, PF_FAULT);
	case PROBE_OP_SZ_STRS:
	case PROBE_OP_SZ_USTRS:
		return size_strs(insn, addr, insn->op == PROBE_OP_SZ_USTRS);
	case PROBE_OP_SZ_FSTRS:
		return size_strs(insn, addr, PF_FAULT);
	case PROBE_OP_SZ_SYMSTR:
		return symstr_size(val);
	case PROBE_OP_SZ_COMM:
		return comm_size();
	case PROBE_OP_SZ_ECOPY:
		return entry_strs_size(insn, h);
	}
	return 0;
}

/* The stores of a string, a string array or a fixed text */
static nokprobe_inline void exec_text_insn(const struct probe_insn *insn,
					   struct probe_hit *h,
					   unsigned long val)
{
	unsigned long addr = val + insn->arg;

	switch (insn->op) {
	case PROBE_OP_ST_STR:
	case PROBE_OP_ST_USTR:
		if (h->stage)
			stage_str(h, insn->dst, addr,
				  insn->op == PROBE_OP_ST_USTR);
		else
			store_str(h, insn->dst, addr,
				  insn->op == PROBE_OP_ST_USTR);
		break;
	case PROBE_OP_ST_FSTR:
		store_str(h, insn->dst, addr, PF_FAULT);
		break;
	case PROBE_OP_ST_STRS:
	case PROBE_OP_ST_USTRS:
		store_strs(insn, h, addr, insn->op == PROBE_OP_ST_USTRS);
		break;
	case PROBE_OP_ST_FSTRS:
		store_strs(insn, h, addr, PF_FAULT);
		break;
	case PROBE_OP_ST_SYMSTR:
		store_symstr(h, insn->dst, val);
		break;
	case PROBE_OP_ST_COMM:
		store_text(h, insn->dst, pfa_comm(), comm_size());
		break;
	default:	/* PROBE_OP_ST_CONST */
		store_text(h, insn->dst, (const char *)insn->arg, insn->size);
		break;
	}
}

/*
 * Everything but the common cases of exec_insns().  Returns the instructions to
 * skip: those of a string the size pass cached, or none.
 */
static nokprobe_inline unsigned int
exec_rare_insn(const struct probe_insn *insn, struct probe_hit *h,
	       unsigned long val)
{
	unsigned long addr = val + insn->arg;

	switch (insn->op) {
	case PROBE_OP_CACHED:
		return take_cached(h, insn);
	case PROBE_OP_ST_MEM:
	case PROBE_OP_ST_UMEM:
		store_mem(insn, h, addr, insn->op == PROBE_OP_ST_UMEM);
		break;
	case PROBE_OP_ST_FMEM:
		store_mem(insn, h, addr, PF_FAULT);
		break;
	case PROBE_OP_ST_WHOLE:
		store_whole(insn, h, addr);
		break;
	case PROBE_OP_ST_FAULT:
		store_fault(insn, h);
		break;
	case PROBE_OP_BITFIELD:
		apply_bitfield(insn, h);
		break;
	case PROBE_OP_ECOPY:
	case PROBE_OP_ROOM:
		exec_entry_insn(insn, h);
		break;
	case PROBE_OP_ST_SUBREG:
		/* @aux is below a word: the arch table says so */
		put_scalar(h->rec + insn->dst, insn->size,
			   val >> insn->rshift & ((1UL << (insn->aux * 8)) - 1));
		break;
	default:
		h->dyn += dyn_size_of(insn, h, val);
		break;
	}
	return 0;
}

/* The value of an eprobe's field in the attached event's record @rec */
static nokprobe_inline unsigned long field_value(const struct probe_insn *insn,
						 const u8 *rec)
{
	const u8 *p = rec + insn->arg;
	unsigned int pad = 64 - 8 * insn->size;

	switch (insn->aux) {
	case PROBE_EF_SIGNED:
		return (s64)(get_scalar(p, insn->size) << pad) >> pad;
	case PROBE_EF_DATA_LOC:
		return (unsigned long)rec +
		       probe_loc_offset(get_unaligned((const u32 *)p));
	case PROBE_EF_REL_LOC:
		return (unsigned long)p + sizeof(u32) +
		       probe_loc_offset(get_unaligned((const u32 *)p));
	case PROBE_EF_CHARS:
	case PROBE_EF_ARRAY:
		return (unsigned long)p;
	case PROBE_EF_CHAR_PTR:
		return get_unaligned((const unsigned long *)p);
	}
	return get_scalar(p, insn->size);
}

/*
 * $stack, $current, this_cpu_ptr(), entry data, and the sources only
 * eprobes and uprobes use; @val is the value so far
 */
static nokprobe_inline unsigned long other_source(const struct probe_insn *insn,
						  struct probe_hit *h,
						  unsigned long val)
{
	switch (insn->op) {
	case PROBE_OP_STACKP:
		return pfa_stack_pointer(h->regs);
	case PROBE_OP_EDATA:
		return h->edata[insn->arg];
	case PROBE_OP_FIELD:
		return field_value(insn, (const u8 *)h->edata);
	case PROBE_OP_USTACK:
		return pfa_ustack_nth(h->regs, insn->arg);
	default:
		/*
		 * Not a case of its own: a fifth one turns this switch into
		 * a jump table, which costs the other sources instructions.
		 */
		if (insn->op == PROBE_OP_CURRENT)
			return pfa_current();
		if (insn->op == PROBE_OP_PERCPU)
			return pfa_this_cpu_ptr(val);
		return h->edata[0] + insn->arg;	/* PROBE_OP_FOFFS */
	}
}

/*
 * Walk a program to its END.  Sources, dereferences and plain stores stay
 * in this switch, with the value, the registers and the record in machine
 * registers; the text stores go to exec_text_insn() from the same switch,
 * everything else through exec_rare_insn().
 */
static nokprobe_inline void exec_insns(const struct probe_insn *insn,
				       struct probe_hit *h)
{
	struct pt_regs *regs = h->regs;
	unsigned long val = 0, word;
	u8 *rec = h->rec;

	for (;; insn++) {
		switch (insn->op) {
		case PROBE_OP_END:
			return;
		case PROBE_OP_REG:
			val = pfa_reg(regs, insn->arg);
			break;
		case PROBE_OP_STACK:
			val = pfa_stack_nth(regs, insn->arg);
			break;
		case PROBE_OP_RETVAL:
			val = pfa_retval(regs);
			break;
		case PROBE_OP_ARG:
			val = pfa_arg(regs, insn->arg);
			break;
		case PROBE_OP_IMM:
			val = insn->arg;
			break;
		case PROBE_OP_STACKP ... PROBE_OP_PERCPU:
			val = other_source(insn, h, val);
			break;
		case PROBE_OP_DEREF:
		case PROBE_OP_UDEREF:
			if (likely(!pfa_read(&word, val + insn->arg, sizeof(word),
					     insn->op == PROBE_OP_UDEREF))) {
				val = word;
				break;
			}
			goto skip;
		case PROBE_OP_FDEREF:
			if (likely(!pfa_fread(&word, val + insn->arg,
					      sizeof(word)))) {
				val = word;
				break;
			}
skip:			/* the value faulted: the argument's store says so */
			insn += insn->aux;
			store_fault(insn, h);
			break;
		case PROBE_OP_ST_RAW:
			put_scalar(rec + insn->dst, insn->size, val);
			break;
		case PROBE_OP_ST_REG:
			val = pfa_reg(regs, insn->arg);
			put_scalar(rec + insn->dst, insn->size, val);
			break;
		case PROBE_OP_ST_STR ... PROBE_OP_ST_CONST:
			exec_text_insn(insn, h, val);
			break;
		default:
			insn += exec_rare_insn(insn, h, val);
			break;
		}
	}
}

/*
 * The @entry() arguments, stored into the entry data as into a record.
 * Out of line: most return probes have none.
 */
static noinline void store_entry_values(const struct probe_prog *prog,
					struct pt_regs *regs,
					unsigned long *edata)
{
	struct probe_hit h = {
		.regs = regs,
		.edata = edata,
		.rec = (u8 *)edata,
		.dyn = prog->entry_dyn,
		.end = prog->entry_dyn,
	};

	exec_insns(prog->entry_insn, &h);
}

NOKPROBE_SYMBOL(store_entry_values);

/**
 * probe_prog_save_entry - save what a return probe reads of the entry
 * @prog: the compiled probe
 * @regs: registers at the function entry
 * @edata: room for probe_prog_edata_size() bytes; a uprobe's first word
 *	is where its file is mapped
 *
 * Called from the entry handler of a return probe; the exit handler passes
 * @edata on to probe_prog_dyn_size() and probe_prog_store().  The @entry()
 * arguments are stored into it as into a record, a room per string.
 */
void probe_prog_save_entry(const struct probe_prog *prog,
			   struct pt_regs *regs, unsigned long *edata)
{
	unsigned long *slot = edata + prog->earg_base;
	unsigned long val;
	unsigned int i;

	for (i = 0; i < prog->nr_edata; i++) {
		val = tpp_earg_val(prog->edata[i]);
		switch (tpp_earg_src(prog->edata[i])) {
		case TPP_SRC_REG:
			slot[i] = pfa_reg(regs, val);
			break;
		case TPP_SRC_STACK:
			slot[i] = pfa_stack_nth(regs, val);
			break;
		default:
			slot[i] = pfa_arg(regs, val);
			break;
		}
	}
	if (prog->entry_insn)
		store_entry_values(prog, regs, edata);
}

NOKPROBE_SYMBOL(probe_prog_save_entry);

/*
 * Run the store program into @cache's buffer, as if it were the record:
 * one pass instead of a size pass and a store pass.  False when something
 * did not fit (a string that may have been cut), and nothing counts.
 */
static nokprobe_inline bool stage(const struct probe_prog *prog,
				  struct probe_hit *h,
				  struct probe_cache *cache)
{
	struct probe_hit s = {
		.regs = h->regs,
		.edata = h->edata,
		.rec = (u8 *)cache->buf,
		.dyn = prog->fixed_size,
		.end = sizeof(cache->buf),
		.stage = true,
	};

	exec_insns(prog->insn, &s);
	/* a store cut to the room fills it: it may not have fitted */
	if (s.cut || s.dyn >= s.end)
		return false;
	cache->staged = s.dyn;
	return true;
}

/**
 * probe_prog_dyn_size - size the dynamic area of a record at a hit
 * @prog: the compiled probe
 * @regs: registers at the hit
 * @edata: entry data of a return probe, the attached event's record for
 *	an eprobe, or NULL
 * @cache: where to keep the short strings read for probe_prog_store() of
 *	the same hit, or NULL
 *
 * Only worth calling when probe_prog_has_dyn().  Each string counts its
 * NUL and at most PROBE_MAX_STRING bytes; one that faults counts nothing.
 *
 * Return: bytes of dynamic data probe_prog_store() will write, unless the
 * memory changes in between (a cached string cannot).
 */
unsigned int probe_prog_dyn_size(const struct probe_prog *prog,
				 struct pt_regs *regs,
				 const unsigned long *edata,
				 struct probe_cache *cache)
{
	struct probe_hit h = { .regs = regs, .edata = edata, .fill = cache };

	if (cache) {
		probe_cache_clear(cache);
		if (prog->stage && stage(prog, &h, cache))
			return cache->staged - prog->fixed_size;
	}
	if (prog->size_insn)
		exec_insns(prog->size_insn, &h);
	return prog->dyn_const + h.dyn;
}

NOKPROBE_SYMBOL(probe_prog_dyn_size);

/**
 * __probe_prog_store - fill in the argument fields of a record at a hit
 * @prog: the compiled probe, with at least one argument
 * @regs: registers at the hit
 * @edata: entry data of a return probe, the attached event's record for
 *	an eprobe, or NULL
 * @rec: the record; its first @prog->hdr_size bytes are left alone
 * @rec_size: @prog->fixed_size plus the probe_prog_dyn_size() reserved
 * @cache: what probe_prog_dyn_size() cached at this hit, or NULL
 *
 * Strings are cut to the room left, so a string that grew since it was
 * sized cannot overrun the record.  Call it as probe_prog_store().
 *
 * Return: bytes of dynamic data written, or 0 when @rec_size is smaller
 * than the fixed part and nothing was written.
 */
unsigned int __probe_prog_store(const struct probe_prog *prog,
				struct pt_regs *regs,
				const unsigned long *edata, void *rec,
				unsigned int rec_size,
				const struct probe_cache *cache)
{
	struct probe_hit h = {
		.regs = regs,
		.edata = edata,
		.rec = rec,
		.dyn = prog->fixed_size,
		/* a __data_loc offset has 16 bits */
		.end = min(rec_size, 0xffffU),
		.cache = cache,
	};

	if (unlikely(rec_size < prog->fixed_size))
		return 0;
	exec_insns(prog->insn, &h);
	return h.dyn - prog->fixed_size;
}

NOKPROBE_SYMBOL(__probe_prog_store);

/* ---- Compile: at probe creation ---- */

/*
 * The compiler runs twice over the definition: first with @prog NULL to
 * count instructions, fields, symbols and text, then to fill the one
 * allocation that holds them all.
 */
struct pf_build {
	const struct tpp_def *def;
	struct probe_prog *prog;	/* NULL while counting */
	unsigned int nr_insn;		/* store program, so far */
	unsigned int nr_size;		/* size program, so far */
	unsigned int nr_entry;		/* entry program, so far */
	unsigned int size_base;		/* size program's index in insn[] */
	unsigned int entry_base;	/* entry program's index in insn[] */
	unsigned int eoffset;		/* the next @entry() field */
	unsigned int eroom;		/* room of the @entry() strings */
	unsigned int earg_base;		/* entry data long of $argN slot 0 */
	unsigned int nr_syms;
	unsigned int nr_edata;
	size_t text;			/* bytes of strings, so far */
	char *texts;			/* where strings go */
	unsigned int offset;		/* the next field */
	unsigned int dyn_const;
	bool has_dyn;
	unsigned int open_store;	/* ST_MEM the next argument may join */
	unsigned int open_count;	/* its elements so far */
	unsigned int arg;		/* the argument being compiled */
	struct probe_insn scratch;	/* what emit() fills while counting */
};

/* A uprobe reads the probed task's stack and memory, faulting pages in */
static u8 uprobe_op(u8 op)
{
	switch (op) {
	case PROBE_OP_STACK:
		return PROBE_OP_USTACK;
	case PROBE_OP_DEREF:
	case PROBE_OP_UDEREF:
		return PROBE_OP_FDEREF;
	case PROBE_OP_ST_MEM:
	case PROBE_OP_ST_UMEM:
		return PROBE_OP_ST_FMEM;
	case PROBE_OP_ST_STR:
	case PROBE_OP_ST_USTR:
		return PROBE_OP_ST_FSTR;
	case PROBE_OP_ST_STRS:
	case PROBE_OP_ST_USTRS:
		return PROBE_OP_ST_FSTRS;
	case PROBE_OP_SZ_STR:
	case PROBE_OP_SZ_USTR:
		return PROBE_OP_SZ_FSTR;
	case PROBE_OP_SZ_STRS:
	case PROBE_OP_SZ_USTRS:
		return PROBE_OP_SZ_FSTRS;
	}
	return op;
}

/*
 * The three programs: the store program fills the record; the size
 * program sizes its dynamic area; a return probe's entry program fills
 * the @entry() fields of its entry data.
 */
enum pf_stream { PF_STORE, PF_SIZE, PF_ENTRY };

static unsigned int *stream_len(struct pf_build *b, enum pf_stream s)
{
	return s == PF_SIZE ? &b->nr_size :
	       s == PF_ENTRY ? &b->nr_entry : &b->nr_insn;
}

/* Index in insn[] of the next instruction of @s */
static unsigned int stream_next(struct pf_build *b, enum pf_stream s)
{
	return *stream_len(b, s) + (s == PF_SIZE ? b->size_base :
				    s == PF_ENTRY ? b->entry_base : 0);
}

/* Append an instruction to one of the programs */
static struct probe_insn *emit(struct pf_build *b, enum pf_stream s, u8 op,
			       long arg)
{
	struct probe_insn *insn = &b->scratch;

	if (b->def->flags & TPP_USER)
		op = uprobe_op(op);
	if (b->prog)
		insn = b->prog->insn + stream_next(b, s);
	(*stream_len(b, s))++;
	memset(insn, 0, sizeof(*insn));
	insn->op = op;
	insn->count = 1;
	insn->arg = arg;
	return insn;
}

/* Copy a string into the program; NULL while counting */
static const char *add_text(struct pf_build *b, const char *s)
{
	size_t len = strlen(s) + 1;
	char *p = NULL;

	if (b->prog) {
		p = b->texts + b->text;
		memcpy(p, s, len);
	}
	b->text += len;
	return p;
}

/* Arguments go to entry data slots in order of first use; @n: tpp_earg() */
static unsigned int edata_slot(struct pf_build *b, unsigned long n)
{
	unsigned int i;

	if (!b->prog)
		return b->nr_edata++;	/* an upper bound */
	for (i = 0; i < b->nr_edata; i++)
		if (b->prog->edata[i] == n)
			return i;
	b->prog->edata[b->nr_edata] = n;
	return b->nr_edata++;
}

static void add_sym(struct pf_build *b, const struct tpp_fetch *f,
		    const char *name, unsigned int insn)
{
	struct probe_sym *sym;

	if (b->prog) {
		sym = &b->prog->syms[b->nr_syms];
		sym->name = name;
		sym->offset = f->val;
		sym->insn = insn;
		sym->arg = b->arg;
	}
	b->nr_syms++;
}

static const u8 pf_src_ops[] = {
	[TPP_SRC_REG] = PROBE_OP_REG,
	[TPP_SRC_STACK] = PROBE_OP_STACK,
	[TPP_SRC_STACKP] = PROBE_OP_STACKP,
	[TPP_SRC_RETVAL] = PROBE_OP_RETVAL,
	[TPP_SRC_ARG] = PROBE_OP_ARG,
	[TPP_SRC_EARG] = PROBE_OP_EDATA,
	[TPP_SRC_ADDR] = PROBE_OP_IMM,
	[TPP_SRC_SYMBOL] = PROBE_OP_IMM,
	[TPP_SRC_IMM] = PROBE_OP_IMM,
	[TPP_SRC_FIELD] = PROBE_OP_FIELD,
	[TPP_SRC_FOFFS] = PROBE_OP_FOFFS,
	[TPP_SRC_CURRENT] = PROBE_OP_CURRENT,
	/* a wprobe's handler passes the watched address as entry data word 0 */
	[TPP_SRC_WATCH] = PROBE_OP_EDATA,
};

/* $comm and \"..." have no source: their store knows where to look */
static int emit_source(struct pf_build *b, const struct tpp_fetch *f,
		       enum pf_stream s, const char *text)
{
	struct probe_insn *insn;
	long val = f->val;

	if (f->src == TPP_SRC_COMM || f->src == TPP_SRC_IMMSTR)
		return 0;
	if (f->src >= ARRAY_SIZE(pf_src_ops) || !pf_src_ops[f->src])
		return -EOPNOTSUPP;
	if (f->src == TPP_SRC_EARG)
		val = b->earg_base + edata_slot(b, f->val);
	if (f->src == TPP_SRC_SYMBOL) {
		add_sym(b, f, text, stream_next(b, s));
		val = 0;	/* reads fault until the symbol is resolved */
	}
	insn = emit(b, s, pf_src_ops[f->src], val);
	if (f->src == TPP_SRC_FIELD) {
		insn->arg = f->val & 0xffff;
		insn->size = f->val >> PROBE_EF_SIZE_SHIFT & 0xff;
		insn->aux = f->val >> PROBE_EF_KIND_SHIFT;
	}
	return 0;
}

/* The instruction that ends @arg in the store program */
static u8 store_op(const struct tpp_arg *arg)
{
	bool deref = arg->fetch.nr_derefs;

	switch (arg->store) {
	case TPP_ST_RAW:
		/* the parser lets a part of a register be a value only */
		if (arg->fetch.src == TPP_SRC_REG && arg->fetch.width)
			return PROBE_OP_ST_SUBREG;
		return PROBE_OP_ST_RAW;
	case TPP_ST_MEM:
		return PROBE_OP_ST_MEM;
	case TPP_ST_UMEM:
		return PROBE_OP_ST_UMEM;
	case TPP_ST_SYMSTR:
		return PROBE_OP_ST_SYMSTR;
	case TPP_ST_WHOLE:
		return PROBE_OP_ST_WHOLE;
	case TPP_ST_USTRING:
		if (arg->count)
			return deref ? PROBE_OP_ST_USTRS : PROBE_OP_ST_FAULT;
		return PROBE_OP_ST_USTR;
	default:
		break;
	}
	/*
	 * A string array needs pointers in memory.  \IMM as the value is
	 * accepted; the first element or two store as faults and it stops.
	 * $comm and \"..." arrays (eprobes take them) have no pointers either;
	 * ST_COMM and ST_CONST would leave all but the first element unset.
	 */
	if (arg->count)
		return deref ? PROBE_OP_ST_STRS : PROBE_OP_ST_FAULT;
	if (arg->fetch.src == TPP_SRC_COMM)
		return PROBE_OP_ST_COMM;
	if (arg->fetch.src == TPP_SRC_IMMSTR)
		return PROBE_OP_ST_CONST;
	return PROBE_OP_ST_STR;
}

/* The size instruction matching a store, or END when it needs none */
static u8 size_op(u8 op)
{
	switch (op) {
	case PROBE_OP_ST_STR:
		return PROBE_OP_SZ_STR;
	case PROBE_OP_ST_USTR:
		return PROBE_OP_SZ_USTR;
	case PROBE_OP_ST_STRS:
		return PROBE_OP_SZ_STRS;
	case PROBE_OP_ST_USTRS:
		return PROBE_OP_SZ_USTRS;
	case PROBE_OP_ST_SYMSTR:
		return PROBE_OP_SZ_SYMSTR;
	case PROBE_OP_ST_COMM:
		return PROBE_OP_SZ_COMM;
	}
	return PROBE_OP_END;
}

/*
 * Stores that read memory at value + offset take the last dereference;
 * a this_cpu_ptr() last is no read
 */
static bool takes_deref(const struct tpp_arg *arg, u8 op)
{
	const struct tpp_fetch *f = &arg->fetch;

	return f->nr_derefs && !f->deref[f->nr_derefs - 1].percpu &&
	       (arg->fold || op == PROBE_OP_ST_STRS || op == PROBE_OP_ST_USTRS);
}

/*
 * A kernel or user string (not a uprobe's, which may fault pages in) has
 * its store run start with CACHED: the size pass may have read it.
 */
static bool cacheable(const struct pf_build *b, u8 op)
{
	return !(b->def->flags & TPP_USER) &&
	       (op == PROBE_OP_ST_STR || op == PROBE_OP_ST_USTR);
}

/* source [deref ...] store, or the same ending in its size instruction */
static int emit_run(struct pf_build *b, const struct tpp_arg *arg, u8 op,
		    enum pf_stream s, const char *text)
{
	const struct tpp_fetch *f = &arg->fetch;
	unsigned int i, n = f->nr_derefs;
	struct probe_insn *insn, *cached = NULL;
	long offset = 0;
	bool user = false;
	int ret;

	if (takes_deref(arg, op)) {
		n--;
		offset = f->deref[n].offset;
		user = f->deref[n].user;
	}
	if (s == PF_STORE && cacheable(b, op))
		cached = emit(b, PF_STORE, PROBE_OP_CACHED, 0);
	/* the most common argument, a register as it is, takes one */
	if (op == PROBE_OP_ST_RAW && f->src == TPP_SRC_REG && !n) {
		insn = emit(b, s, PROBE_OP_ST_REG, f->val);
		insn->dst = s == PF_ENTRY ? b->eoffset : b->offset;
		insn->size = tpp_type_size(arg->type);
		return 0;
	}
	ret = emit_source(b, f, s, text);
	if (ret)
		return ret;
	/*
	 * $comm or \"..." stored as a number has no value of its own: zero,
	 * not what the argument before it left, nor the text's address.
	 */
	if ((f->src == TPP_SRC_COMM || f->src == TPP_SRC_IMMSTR) &&
	    op != PROBE_OP_ST_COMM && op != PROBE_OP_ST_CONST &&
	    op != PROBE_OP_ST_FAULT)
		emit(b, s, PROBE_OP_IMM, 0);
	for (i = 0; i < n; i++) {
		insn = emit(b, s, f->deref[i].percpu ? PROBE_OP_PERCPU :
				  f->deref[i].user ? PROBE_OP_UDEREF :
						     PROBE_OP_DEREF,
			    f->deref[i].offset);
		insn->aux = n - i;
	}
	insn = emit(b, s, s == PF_SIZE ? size_op(op) : op, offset);
	insn->dst = s == PF_ENTRY ? b->eoffset : b->offset;
	if (cached) {
		/* from the CACHED instruction to the store, the 2 + n of them */
		cached->aux = 2 + n;
		cached->dst = b->offset;
	}
	insn->size = tpp_type_size(arg->type);
	insn->count = arg->count ?: 1;
	insn->aux = user;
	if (op == PROBE_OP_ST_WHOLE) {
		insn->len = arg->whole;
	} else if (op == PROBE_OP_ST_CONST) {
		insn->arg = (long)text;
		insn->size = strlen(f->str) + 1;
	} else if (op == PROBE_OP_ST_SUBREG) {
		insn->aux = f->width;
		insn->rshift = f->shift;
	}
	return 0;
}

/*
 * The parser's shifts isolate the field in a container of bf_bytes; the
 * interpreter shifts a u64 holding the element zero-extended, so both
 * shifts grow by the bits the container lacks, which keeps the bits a
 * u64 shift over a smaller BTF bitfield would.
 */
static void emit_bitfield(struct pf_build *b, const struct tpp_arg *arg,
			  enum pf_stream s)
{
	unsigned int pad = 64 - 8 * arg->bf_bytes;
	struct probe_insn *insn;

	/* a field as wide as its container needs nothing */
	if (!arg->bf_bytes || !arg->bf_rshift)
		return;
	insn = emit(b, s, PROBE_OP_BITFIELD, 0);
	insn->dst = s == PF_ENTRY ? b->eoffset : b->offset;
	insn->size = tpp_type_size(arg->type);
	insn->count = arg->count ?: 1;
	insn->lshift = arg->bf_lshift + pad;
	insn->rshift = arg->bf_rshift + pad;
}

/* "u8", "u8[4]", "__data_loc char[]", "__data_loc char[][4]" */
static void add_field(struct pf_build *b, const struct tpp_arg *arg,
		      unsigned int i)
{
	const char *type = pf_types[arg->type].field;
	struct probe_field *f = NULL;
	const char *name;
	char buf[32];

	if (b->prog)
		f = &b->prog->fields[i];
	if (arg->count || arg->whole) {
		snprintf(buf, sizeof(buf), "%s[%u]", type,
			 arg->whole ?: arg->count);
		type = add_text(b, buf);
	}
	name = add_text(b, arg->name);
	if (!f)
		return;
	f->name = name;
	f->type = type;
	f->offset = b->offset;
	f->size = tpp_arg_bytes(arg);
	f->count = arg->count;
	if (arg->whole) {
		pfa_btf_get(arg->btf);
		f->btf = arg->btf;
		f->btf_id = arg->btf_id;
	}
	f->is_signed = pf_types[arg->type].kind == PF_SIGNED ||
		       pf_types[arg->type].kind == PF_STRING;
	f->tpp_type = arg->type;
}

/* A register-like source, one dereference folded into a plain store */
static bool joinable(const struct tpp_arg *arg)
{
	u8 op = store_op(arg);

	if (arg->entry)
		return false;
	switch (arg->fetch.src) {
	case TPP_SRC_REG:
		if (arg->fetch.width)
			return false;
		break;
	case TPP_SRC_STACK:
	case TPP_SRC_STACKP:
	case TPP_SRC_RETVAL:
	case TPP_SRC_ARG:
	case TPP_SRC_EARG:
	case TPP_SRC_WATCH:
		break;
	default:
		return false;
	}
	return (op == PROBE_OP_ST_MEM || op == PROBE_OP_ST_UMEM) &&
	       arg->fetch.nr_derefs == 1 && takes_deref(arg, op) &&
	       !arg->bf_bytes;
}

/* @next is @step bytes past @prev; offsets are any long, so no overflow */
static bool follows(long prev, long step, long next)
{
	return prev <= LONG_MAX - step && next == prev + step;
}

/*
 * Neighbouring arguments that read neighbouring memory from the same
 * source ("+0(%sp):u64 +8(%sp):u64", two fields of one struct) lie side
 * by side in the record too, so argument @i can join the store of the one
 * before: one read for both.  A fault still reads them one by one.
 */
static bool joins_prev(const struct pf_build *b, unsigned int i)
{
	const struct tpp_arg *p = &b->def->args[i - 1];
	const struct tpp_arg *a = &b->def->args[i];
	unsigned int size = tpp_type_size(a->type);

	return !(b->def->flags & TPP_USER) && joinable(p) && joinable(a) &&
	       store_op(p) == store_op(a) && p->fetch.src == a->fetch.src &&
	       p->fetch.val == a->fetch.val &&
	       p->fetch.deref[0].user == a->fetch.deref[0].user &&
	       tpp_type_size(p->type) == size &&
	       follows(p->fetch.deref[0].offset, (long)size * (p->count ?: 1),
		       a->fetch.deref[0].offset) &&
	       b->open_count + (a->count ?: 1) <= U8_MAX;
}

/*
 * @entry(): the entry program stores the argument into the entry data the
 * way the store program would into the record, each string cut to its
 * room there; the store program copies the field over.
 */
static int emit_entry_arg(struct pf_build *b, const struct tpp_arg *arg,
			  const char *text)
{
	unsigned int n = arg->count ?: 1, size = tpp_arg_bytes(arg) / n;
	bool str = tpp_type_is_string(arg->type);
	struct probe_insn *insn;
	int ret;

	if (str)
		emit(b, PF_ENTRY, PROBE_OP_ROOM, n * TPP_ENTRY_STRING);
	ret = emit_run(b, arg, store_op(arg), PF_ENTRY, text);
	if (ret)
		return ret;
	emit_bitfield(b, arg, PF_ENTRY);
	insn = emit(b, PF_STORE, PROBE_OP_ECOPY, b->eoffset);
	insn->dst = b->offset;
	insn->size = tpp_type_size(arg->type);
	insn->count = n;
	insn->aux = str ? PF_ECOPY_STRS : PF_ECOPY_VALUES;
	if (arg->whole) {
		insn->aux = PF_ECOPY_WHOLE;
		insn->len = arg->whole;
	}
	if (str) {
		b->has_dyn = true;
		b->eroom += n * TPP_ENTRY_STRING;
		insn = emit(b, PF_SIZE, PROBE_OP_SZ_ECOPY, b->eoffset);
		insn->count = n;
	}
	b->eoffset += size * n;
	b->offset += size * n;
	return 0;
}

static int emit_arg_runs(struct pf_build *b, unsigned int i)
{
	const struct tpp_arg *arg = &b->def->args[i];
	const char *text = arg->fetch.str ? add_text(b, arg->fetch.str) : NULL;
	u8 op = store_op(arg);
	int ret;

	b->arg = i;
	add_field(b, arg, i);
	if (arg->entry)
		return emit_entry_arg(b, arg, text);
	if (i && joins_prev(b, i)) {
		b->open_count += arg->count ?: 1;
		if (b->prog)
			b->prog->insn[b->open_store].count = b->open_count;
		b->offset += tpp_arg_bytes(arg);
		return 0;
	}
	ret = emit_run(b, arg, op, PF_STORE, text);
	if (ret)
		return ret;
	b->open_store = b->nr_insn - 1;
	b->open_count = arg->count ?: 1;
	emit_bitfield(b, arg, PF_STORE);
	if (pf_types[arg->type].kind == PF_STRING)
		b->has_dyn = true;
	if (op == PROBE_OP_ST_CONST)
		b->dyn_const += strlen(arg->fetch.str) + 1;
	else if (size_op(op) != PROBE_OP_END)
		ret = emit_run(b, arg, op, PF_SIZE, text);
	b->offset += tpp_arg_bytes(arg);
	return ret;
}

/* Compile argument @i, and note where its runs are for the dump */
static int emit_arg(struct pf_build *b, unsigned int i)
{
	unsigned int insn = b->nr_insn, size = b->nr_size, entry = b->nr_entry;
	struct probe_field *f;
	int ret;

	ret = emit_arg_runs(b, i);
	if (ret || !b->prog)
		return ret;
	f = &b->prog->fields[i];
	f->insn = insn;
	f->nr_insn = b->nr_insn - insn;
	f->size_insn = size;
	f->nr_size = b->nr_size - size;
	f->entry_insn = entry;
	f->nr_entry = b->nr_entry - entry;
	return 0;
}

static int build(struct pf_build *b)
{
	unsigned int i;
	int ret;

	for (i = 0; i < b->def->nr_args; i++) {
		ret = emit_arg(b, i);
		if (ret)
			return ret;
	}
	emit(b, PF_STORE, PROBE_OP_END, 0);
	if (b->nr_size)
		emit(b, PF_SIZE, PROBE_OP_END, 0);
	if (b->nr_entry)
		emit(b, PF_ENTRY, PROBE_OP_END, 0);
	return 0;
}

/* One allocation, laid out by decreasing alignment */
static struct probe_prog *alloc_prog(const struct pf_build *c)
{
	unsigned int nr_insn = c->nr_insn + c->nr_size + c->nr_entry;
	struct probe_prog *prog;

	prog = kzalloc(sizeof(*prog) + nr_insn * sizeof(*prog->insn) +
		       c->def->nr_args * sizeof(*prog->fields) +
		       c->nr_syms * sizeof(*prog->syms) +
		       c->nr_edata * sizeof(*prog->edata) + c->text,
		       GFP_KERNEL);
	if (!prog)
		return NULL;
	prog->insn = (struct probe_insn *)(prog + 1);
	if (c->nr_size)
		prog->size_insn = prog->insn + c->nr_insn;
	if (c->nr_entry)
		prog->entry_insn = prog->insn + c->nr_insn + c->nr_size;
	prog->fields = (struct probe_field *)(prog->insn + nr_insn);
	prog->syms = (struct probe_sym *)(prog->fields + c->def->nr_args);
	prog->edata = (u32 *)(prog->syms + c->nr_syms);
	return prog;
}

/**
 * probe_prog_compile - compile a parsed probe for its hits
 * @def: the definition, from tpp_parse_kprobe(); not referenced afterwards
 * @hdr_size: bytes of the record header before the first argument
 *	(a kprobe's trace_entry and ip: 16 on 64-bit; a kretprobe's: 24)
 *
 * @SYM arguments read nothing (they fault) until
 * probe_prog_resolve_symbols() has run.
 *
 * Return: a program to release with probe_prog_free(), or an ERR_PTR():
 * -ENOMEM, -E2BIG when @hdr_size pushes fields past 64K, or -EOPNOTSUPP
 * for an argument without a value.
 */
struct probe_prog *probe_prog_compile(const struct tpp_def *def,
				      unsigned int hdr_size)
{
	/* a uprobe's entry data starts with where its file is mapped */
	unsigned int entry_off = def->flags & TPP_USER ? sizeof(long) : 0;
	struct pf_build c = {
		.def = def, .offset = hdr_size, .eoffset = entry_off,
	};
	struct pf_build b = {
		.def = def, .offset = hdr_size, .eoffset = entry_off,
	};
	struct probe_prog *prog;
	int ret;

	ret = build(&c);
	if (ret)
		return ERR_PTR(ret);
	/* fields are placed with u16 offsets, and __data_loc has 16 bits */
	if (c.offset > 0xffff)
		return ERR_PTR(-E2BIG);
	prog = alloc_prog(&c);
	if (!prog)
		return ERR_PTR(-ENOMEM);
	b.prog = prog;
	b.size_base = c.nr_insn;
	b.entry_base = c.nr_insn + c.nr_size;
	b.earg_base = round_up(c.eoffset + c.eroom, sizeof(long)) / sizeof(long);
	b.texts = (char *)(prog->edata + c.nr_edata);
	/* cannot fail: the counting pass went the same way */
	build(&b);
	prog->hdr_size = hdr_size;
	prog->fixed_size = b.offset;
	prog->dyn_const = b.dyn_const;
	prog->is_return = def->is_return;
	prog->bare = def->kind == 'e';
	prog->has_dyn = b.has_dyn;
	/* a uprobe's strings may fault pages in: they are never cached */
	prog->stage = b.has_dyn && !(def->flags & TPP_USER) &&
		      b.offset + 2 * sizeof(long) <= PROBE_CACHE_BYTES;
	prog->nr_fields = def->nr_args;
	prog->nr_edata = b.nr_edata;
	prog->earg_base = b.earg_base;
	prog->entry_dyn = b.eoffset;
	prog->edata_size = tpp_edata_size(def->flags, b.eoffset - entry_off +
					  b.eroom, b.nr_edata);
	prog->nr_syms = b.nr_syms;
	prog->unknown_sym = -1;
	return prog;
}

/**
 * probe_prog_free - release a compiled probe
 * @prog: from probe_prog_compile(); NULL and error pointers are ignored
 */
void probe_prog_free(struct probe_prog *prog)
{
	unsigned int i;

	if (IS_ERR_OR_NULL(prog))
		return;
	for (i = 0; i < prog->nr_fields; i++)
		if (prog->fields[i].btf)
			pfa_btf_put(prog->fields[i].btf);
	kfree(prog);
}

/**
 * probe_prog_resolve_symbols - point @SYM arguments at their symbols
 * @prog: the compiled probe, not yet armed
 * @lookup: kallsyms_lookup_name() or a stand-in
 * @priv: passed to @lookup
 *
 * Called when the probe is registered, and again whenever it is
 * re-registered (a module came back): @SYM resolves then.  The argument
 * of an unknown symbol is kept for probe_prog_unknown_symbol().
 *
 * Return: 0, or -ENOENT for an unknown symbol; on an error some references
 * may be patched.
 */
int probe_prog_resolve_symbols(struct probe_prog *prog,
			       probe_sym_lookup_t lookup, void *priv)
{
	const struct probe_sym *sym;
	unsigned long addr;
	unsigned int i;

	prog->unknown_sym = -1;
	for (i = 0; i < prog->nr_syms; i++) {
		sym = &prog->syms[i];
		addr = lookup(priv, sym->name);
		if (!addr) {
			prog->unknown_sym = sym->arg;
			return -ENOENT;
		}
		prog->insn[sym->insn].arg = addr + sym->offset;
	}
	return 0;
}

/* ---- Print: reading the trace and the format file ---- */

/* A __data_loc that does not lie inside the record prints as a fault */
static void print_string(struct trace_seq *s, const u8 *rec,
			 unsigned int rec_size, u32 loc)
{
	u32 len = probe_loc_len(loc);
	u32 at = probe_loc_offset(loc);

	if (!len || at + len > rec_size)
		trace_seq_puts(s, "(fault)");
	else
		trace_seq_printf(s, "\"%.*s\"", (int)len, rec + at);
}

static void print_symbol(struct trace_seq *s, unsigned long addr)
{
	char buf[KSYM_SYMBOL_LEN];

	pfa_sprint_symbol(buf, addr);
	trace_seq_puts(s, buf);
}

/* One element at @at, printed as its type says; 64-bit wide is the same */
static void print_value(struct trace_seq *s, const struct probe_field *f,
			const u8 *rec, unsigned int rec_size, unsigned int at)
{
	unsigned int size = tpp_type_size(f->tpp_type);
	unsigned int pad = 64 - 8 * size;
	u64 v = get_scalar(rec + at, size);

	switch (pf_types[f->tpp_type].kind) {
	case PF_STRING:
		print_string(s, rec, rec_size, v);
		break;
	case PF_SYMBOL:
		print_symbol(s, v);
		break;
	case PF_CHAR:
		trace_seq_printf(s, "'%c'", (int)v);
		break;
	case PF_SIGNED:
		trace_seq_printf(s, "%lld", (long long)(v << pad) >> pad);
		break;
	case PF_HEX:
		trace_seq_printf(s, "0x%llx", (unsigned long long)v);
		break;
	default:
		trace_seq_printf(s, "%llu", (unsigned long long)v);
		break;
	}
}

/**
 * probe_prog_print - print the arguments of a record, as a trace line ends
 * @prog: the compiled probe that wrote @rec
 * @rec: the record
 * @rec_size: its size; nothing outside it is read
 * @s: where the text goes: " name=value" for each argument, arrays as
 *	"{a,b}", strings quoted or "(fault)"
 *
 * Return: 0, -EINVAL for a record smaller than its fixed part, or
 * -EOVERFLOW when @s filled up.
 */
int probe_prog_print(const struct probe_prog *prog, const void *rec,
		     unsigned int rec_size, struct trace_seq *s)
{
	const struct probe_field *f;
	unsigned int i, j, at;

	if (rec_size < prog->fixed_size)
		return -EINVAL;
	for (i = 0; i < prog->nr_fields; i++) {
		f = &prog->fields[i];
		trace_seq_printf(s, " %s=", f->name);
		if (f->btf) {
			pfa_print_whole(s, f->btf, f->btf_id,
					(const u8 *)rec + f->offset, f->size);
			continue;
		}
		if (!f->count) {
			print_value(s, f, rec, rec_size, f->offset);
			continue;
		}
		trace_seq_putc(s, '{');
		for (j = 0, at = f->offset; j < f->count; j++) {
			print_value(s, f, rec, rec_size, at);
			trace_seq_putc(s, j + 1 < f->count ? ',' : '}');
			at += tpp_type_size(f->tpp_type);
		}
	}
	return trace_seq_has_overflowed(s) ? -EOVERFLOW : 0;
}

/* snprintf() that keeps counting past the end of the buffer */
struct pf_fmt {
	char *buf;
	int len;
	int pos;
};

static __printf(2, 3) void fmt_add(struct pf_fmt *p, const char *fmt, ...)
{
	int left = p->pos < p->len ? p->len - p->pos : 0;
	va_list args;

	va_start(args, fmt);
	p->pos += vsnprintf(left ? p->buf + p->pos : NULL, left, fmt, args);
	va_end(args);
}

/* " name=conv" or " name={conv,conv}" */
static void fmt_conv(struct pf_fmt *p, const struct probe_field *f)
{
	const char *conv = pf_types[f->tpp_type].conv;
	unsigned int j;

	fmt_add(p, " %s=", f->name);
	if (!f->count) {
		fmt_add(p, "%s", f->btf ? "%s" : conv);
		return;
	}
	for (j = 0; j < f->count; j++)
		fmt_add(p, "%c%s", j ? ',' : '{', conv);
	fmt_add(p, "}");
}

/* ", REC->name" or ", __get_str(name)", per element for arrays */
static void fmt_args(struct pf_fmt *p, const struct probe_field *f)
{
	bool str = pf_types[f->tpp_type].kind == PF_STRING;
	unsigned int j;

	/* tools print a whole structure as the bytes it is */
	if (f->btf) {
		fmt_add(p, ", __print_hex_str(REC->%s, %u)", f->name, f->size);
		return;
	}
	if (!f->count) {
		fmt_add(p, str ? ", __get_str(%s)" : ", REC->%s", f->name);
		return;
	}
	for (j = 0; j < f->count; j++)
		fmt_add(p, str ? ", __get_str(%s[%u])" : ", REC->%s[%u]",
			f->name, j);
}

/**
 * probe_prog_print_fmt - the "print fmt:" of the event's format file
 * @prog: the compiled probe
 * @buf: where the text goes, NUL-terminated; may be NULL when @len is 0
 * @len: size of @buf
 *
 * Called once with a NULL @buf to size the allocation, as with snprintf().
 *
 * Return: the length of the whole text, NUL excluded, even when it did not
 * fit in @buf.
 */
int probe_prog_print_fmt(const struct probe_prog *prog, char *buf, int len)
{
	struct pf_fmt p = { .buf = buf, .len = len };
	unsigned int i;

	fmt_add(&p, "\"%s", prog->bare ? "" : prog->is_return ?
		"(%lx <- %lx)" : "(%lx)");
	for (i = 0; i < prog->nr_fields; i++)
		fmt_conv(&p, &prog->fields[i]);
	fmt_add(&p, "\"%s", prog->bare ? "" : prog->is_return ?
		", REC->__probe_func, REC->__probe_ret_ip" :
		", REC->__probe_ip");
	for (i = 0; i < prog->nr_fields; i++)
		fmt_args(&p, &prog->fields[i]);
	return p.pos;
}

/* ---- Dump: the steps an argument compiled to, for the listings ---- */

/* What a step shows of its instruction, in this order */
#define PD_ARG		BIT(0)	/* @arg, a number */
#define PD_HEX		BIT(1)	/* @arg, an address or a file offset */
#define PD_OFF		BIT(2)	/* @arg, a memory offset: +8, -16 */
#define PD_FROM		BIT(3)	/* @arg, where in the entry data */
#define PD_AT		BIT(4)	/* @dst, where in the record (entry data) */
#define PD_SIZE		BIT(5)	/* @size */
#define PD_COUNT	BIT(6)	/* @count, when more than one */
#define PD_SKIP		BIT(7)	/* @aux, instructions skipped */
#define PD_SUB		BIT(8)	/* @aux bytes @rshift bits up */
#define PD_BITS		BIT(9)	/* @lshift, @rshift */
#define PD_KIND		BIT(10)	/* @aux, enum probe_efield_kind */

/* Per enum probe_op: its name in a dump, and what it shows */
static const struct {
	const char *name;
	u16 show;
} pd_ops[] = {
	[PROBE_OP_END] = { "END", 0 },
	[PROBE_OP_CACHED] = { "CACHED", PD_AT | PD_SKIP },
	[PROBE_OP_REG] = { "REG", PD_ARG },
	[PROBE_OP_STACK] = { "STACK", PD_ARG },
	[PROBE_OP_RETVAL] = { "RETVAL", 0 },
	[PROBE_OP_ARG] = { "ARG", PD_ARG },
	[PROBE_OP_IMM] = { "IMM", PD_HEX },
	[PROBE_OP_STACKP] = { "STACKP", 0 },
	[PROBE_OP_EDATA] = { "EDATA", PD_ARG },
	[PROBE_OP_FIELD] = { "FIELD", PD_ARG | PD_SIZE | PD_KIND },
	[PROBE_OP_USTACK] = { "USTACK", PD_ARG },
	[PROBE_OP_CURRENT] = { "CURRENT", 0 },
	[PROBE_OP_FOFFS] = { "FOFFS", PD_HEX },
	[PROBE_OP_PERCPU] = { "PERCPU", 0 },
	[PROBE_OP_DEREF] = { "DEREF", PD_OFF },
	[PROBE_OP_UDEREF] = { "UDEREF", PD_OFF },
	[PROBE_OP_FDEREF] = { "FDEREF", PD_OFF },
	[PROBE_OP_ST_RAW] = { "ST_RAW", PD_AT | PD_SIZE },
	[PROBE_OP_ST_REG] = { "ST_REG", PD_ARG | PD_AT | PD_SIZE },
	[PROBE_OP_ST_SUBREG] = { "ST_SUBREG", PD_AT | PD_SIZE | PD_SUB },
	[PROBE_OP_ST_MEM] = { "ST_MEM", PD_OFF | PD_AT | PD_SIZE | PD_COUNT },
	[PROBE_OP_ST_UMEM] = { "ST_UMEM", PD_OFF | PD_AT | PD_SIZE | PD_COUNT },
	[PROBE_OP_ST_FMEM] = { "ST_FMEM", PD_OFF | PD_AT | PD_SIZE | PD_COUNT },
	[PROBE_OP_ST_WHOLE] = { "ST_WHOLE", PD_OFF | PD_AT | PD_SIZE },
	[PROBE_OP_ST_STR] = { "ST_STR", PD_OFF | PD_AT | PD_SIZE },
	[PROBE_OP_ST_USTR] = { "ST_USTR", PD_OFF | PD_AT | PD_SIZE },
	[PROBE_OP_ST_STRS] = { "ST_STRS", PD_OFF | PD_AT | PD_COUNT },
	[PROBE_OP_ST_USTRS] = { "ST_USTRS", PD_OFF | PD_AT | PD_COUNT },
	[PROBE_OP_ST_FSTR] = { "ST_FSTR", PD_OFF | PD_AT | PD_SIZE },
	[PROBE_OP_ST_FSTRS] = { "ST_FSTRS", PD_OFF | PD_AT | PD_COUNT },
	[PROBE_OP_ST_SYMSTR] = { "ST_SYMSTR", PD_AT | PD_SIZE },
	[PROBE_OP_ST_COMM] = { "ST_COMM", PD_AT | PD_SIZE },
	[PROBE_OP_ST_CONST] = { "ST_CONST", PD_AT | PD_SIZE },
	[PROBE_OP_ST_FAULT] = { "ST_FAULT", PD_AT | PD_COUNT },
	[PROBE_OP_BITFIELD] = { "BITFIELD", PD_AT | PD_SIZE | PD_COUNT | PD_BITS },
	[PROBE_OP_ECOPY] = { "ECOPY", PD_FROM | PD_AT | PD_SIZE | PD_COUNT },
	[PROBE_OP_ROOM] = { "ROOM", PD_ARG },
	[PROBE_OP_SZ_STR] = { "SZ_STR", PD_OFF },
	[PROBE_OP_SZ_USTR] = { "SZ_USTR", PD_OFF },
	[PROBE_OP_SZ_STRS] = { "SZ_STRS", PD_OFF | PD_COUNT },
	[PROBE_OP_SZ_USTRS] = { "SZ_USTRS", PD_OFF | PD_COUNT },
	[PROBE_OP_SZ_SYMSTR] = { "SZ_SYMSTR", 0 },
	[PROBE_OP_SZ_COMM] = { "SZ_COMM", 0 },
	[PROBE_OP_SZ_FSTR] = { "SZ_FSTR", PD_OFF },
	[PROBE_OP_SZ_FSTRS] = { "SZ_FSTRS", PD_OFF | PD_COUNT },
	[PROBE_OP_SZ_ECOPY] = { "SZ_ECOPY", PD_FROM | PD_COUNT },
};

static_assert(ARRAY_SIZE(pd_ops) == PROBE_OP_SZ_ECOPY + 1);

/* The @SYM an IMM instruction was given, or NULL */
static const struct probe_sym *pd_sym(const struct probe_prog *prog,
				      const struct probe_insn *insn)
{
	unsigned int i;

	for (i = 0; i < prog->nr_syms; i++)
		if (prog->insn + prog->syms[i].insn == insn)
			return &prog->syms[i];
	return NULL;
}

/* @arg of @insn: a symbol as the definition named it, not its address */
static void pd_hex(struct pf_fmt *p, const struct probe_prog *prog,
		   const struct probe_insn *insn)
{
	const struct probe_sym *sym = pd_sym(prog, insn);

	if (!sym)
		fmt_add(p, "0x%lx", insn->arg);
	else if (sym->offset)
		fmt_add(p, "@%s%+ld", sym->name, sym->offset);
	else
		fmt_add(p, "@%s", sym->name);
}

/* One of a step's values: "(" before the first, "," before the others */
static __printf(3, 4) void pd_value(struct pf_fmt *p, unsigned int *nr,
				    const char *fmt, ...)
{
	int left;
	va_list args;

	fmt_add(p, "%s", (*nr)++ ? "," : "(");
	left = p->pos < p->len ? p->len - p->pos : 0;
	va_start(args, fmt);
	p->pos += vsnprintf(left ? p->buf + p->pos : NULL, left, fmt, args);
	va_end(args);
}

/* "NAME" or "NAME(X,at=N,size=N)" */
/* Bytes a step stores: a whole structure's, else one element's */
static unsigned int pd_size(const struct probe_insn *insn)
{
	if (insn->op == PROBE_OP_ST_WHOLE ||
	    (insn->op == PROBE_OP_ECOPY && insn->aux == PF_ECOPY_WHOLE))
		return insn->len;
	return insn->size;
}

static void pd_step(struct pf_fmt *p, const struct probe_prog *prog,
		    const struct probe_insn *insn)
{
	unsigned int show, nr = 0;

	if (insn->op >= ARRAY_SIZE(pd_ops)) {
		fmt_add(p, "OP%u", insn->op);
		return;
	}
	show = pd_ops[insn->op].show;
	fmt_add(p, "%s", pd_ops[insn->op].name);
	if (show & PD_ARG)
		pd_value(p, &nr, "%ld", insn->arg);
	if (show & PD_HEX) {
		pd_value(p, &nr, "%s", "");
		pd_hex(p, prog, insn);
	}
	if (show & PD_OFF)
		pd_value(p, &nr, "%+ld", insn->arg);
	if (show & PD_FROM)
		pd_value(p, &nr, "from=%ld", insn->arg);
	if (show & PD_AT)
		pd_value(p, &nr, "at=%u", insn->dst);
	if (show & PD_SIZE)
		pd_value(p, &nr, "size=%u", pd_size(insn));
	if ((show & PD_COUNT) && insn->count > 1)
		pd_value(p, &nr, "count=%u", insn->count);
	if (show & PD_SKIP)
		pd_value(p, &nr, "skip=%u", insn->aux);
	if (show & PD_SUB)
		pd_value(p, &nr, "bytes=%u,shift=%u", insn->aux, insn->rshift);
	if (show & PD_BITS)
		pd_value(p, &nr, "lshift=%u,rshift=%u", insn->lshift,
			 insn->rshift);
	if (show & PD_KIND)
		pd_value(p, &nr, "kind=%u", insn->aux);
	if (nr)
		fmt_add(p, ")");
}

/* "#  NAME: [WHAT: ]STEP -> ... -> END\n" */
static void pd_line(struct pf_fmt *p, const struct probe_prog *prog,
		    const char *name, const char *what,
		    const struct probe_insn *insn, unsigned int n)
{
	unsigned int i;

	fmt_add(p, "#  %s: %s", name, what);
	for (i = 0; i < n; i++) {
		pd_step(p, prog, insn + i);
		fmt_add(p, " -> ");
	}
	fmt_add(p, "END\n");
}

/**
 * probe_prog_dump_arg - the steps argument @i compiled to, as comment lines
 * @prog: the compiled probe
 * @i: the argument, from 0
 * @buf: where the text goes, NUL-terminated; may be NULL when @len is 0
 * @len: size of @buf
 *
 * One line "#  NAME: STEP -> ... -> END" for the argument's run in the
 * store program, preceded by "#  NAME: entry: ..." for its run in a
 * return probe's entry program and "#  NAME: size: ..." for its run in
 * the size program, when it has them.  An argument that joined the store
 * of the one before it shows "JOINED(NAME)".  Offsets and sizes are in
 * bytes; "at=" is where in the record (in the entry data, for the entry
 * program) the step writes.
 *
 * Return: the length of the whole text, NUL excluded, even when it did not
 * fit in @buf.
 */
int probe_prog_dump_arg(const struct probe_prog *prog, unsigned int i,
			char *buf, int len)
{
	struct pf_fmt p = { .buf = buf, .len = len };
	const struct probe_field *f = &prog->fields[i];
	unsigned int j = i;

	if (buf && len)
		buf[0] = '\0';
	if (i >= prog->nr_fields)
		return 0;
	if (f->nr_entry)
		pd_line(&p, prog, f->name, "entry: ",
			prog->entry_insn + f->entry_insn, f->nr_entry);
	if (f->nr_size)
		pd_line(&p, prog, f->name, "size: ",
			prog->size_insn + f->size_insn, f->nr_size);
	if (f->nr_insn) {
		pd_line(&p, prog, f->name, "", prog->insn + f->insn,
			f->nr_insn);
		return p.pos;
	}
	while (j && !prog->fields[j].nr_insn)
		j--;
	fmt_add(&p, "#  %s: JOINED(%s) -> END\n", f->name,
		prog->fields[j].name);
	return p.pos;
}
