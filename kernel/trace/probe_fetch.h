/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fetch programs: a parsed probe definition (struct tpp_def) compiled, once,
 * into one flat instruction array for all of the probe's arguments, plus the
 * layout and print formats of the records it writes.  At a hit the probe
 * handler only walks the array:
 *
 *	dsize = probe_prog_hit_size(prog, regs, edata, &cache);
 *	rec = <reserve prog->fixed_size + dsize bytes>;
 *	<fill in the header: struct trace_entry, then ip or func/ret_ip>;
 *	probe_prog_store(prog, regs, edata, rec, prog->fixed_size + dsize,
 *			 &cache);
 *
 * A record (tracefs ABI, described by the format file): the probe's header
 * (@hdr_size bytes), one field per argument in order, each at its natural
 * size and packed without padding, then the dynamic area with the strings
 * the fields' __data_loc words point at, in argument order.
 *
 * Return probes that read $argN or @entry() save them when the function
 * is entered: probe_prog_save_entry() fills probe_prog_edata_size() bytes
 * that the exit handler passes back as @edata.
 */
#ifndef _TRACE_PROBE_FETCH_H
#define _TRACE_PROBE_FETCH_H

#include <linux/types.h>

#include "trace_probe.h"

struct pt_regs;
struct trace_seq;
struct probe_insn;
struct probe_sym;

/* Longest string one field stores, NUL included: PATH_MAX */
#define PROBE_MAX_STRING	4096

/* __data_loc: the data's length << 16 | its offset from the record start */
static inline u32 probe_data_loc(u32 len, u32 offset)
{
	return len << 16 | (offset & 0xffff);
}

static inline u32 probe_loc_len(u32 loc)
{
	return loc >> 16;
}

static inline u32 probe_loc_offset(u32 loc)
{
	return loc & 0xffff;
}

/**
 * struct probe_field - one argument's field in the record
 * @name: the argument's name
 * @type: its type as the format file's "field:" line spells it, e.g.
 *	"u64", "s32", "__data_loc char[]", "u8[4]" (what to hand to
 *	trace_define_field())
 * @offset: from the record start
 * @size: bytes, all elements of an array
 * @count: array elements, 0 for a scalar
 * @is_signed: the format file's "signed:" flag
 * @tpp_type: enum tpp_type of the elements
 * @insn: where the argument's run starts in the store program
 * @nr_insn: its instructions there, 0 when it joined the store of the
 *	argument before it
 * @size_insn: where its run starts in the size program, from its start
 * @nr_size: its instructions there, 0 for none
 * @entry_insn: where its run starts in the entry program, from its start
 * @nr_entry: its instructions there, 0 for none
 * @btf: a structure recorded whole: the BTF that describes it, referenced
 *	while the probe is; NULL for any other field
 * @btf_id: its type id in @btf
 *
 * The runs are kept for probe_prog_dump_arg() only.
 */
struct probe_field {
	const char *name;
	const char *type;
	u16 offset;
	u16 size;
	u8 count;
	bool is_signed;
	u8 tpp_type;
	u16 insn;
	u16 nr_insn;
	u16 size_insn;
	u16 nr_size;
	u16 entry_insn;
	u16 nr_entry;
	void *btf;
	u32 btf_id;
};

/**
 * struct probe_prog - a compiled probe: program, layout, symbols
 * @hdr_size: bytes of the probe's header before the first argument
 * @fixed_size: @hdr_size plus all argument fields: where dynamic data starts
 * @dyn_const: bytes of dynamic data whose size is known at compile time
 *	(immediate strings)
 * @is_return: a return probe (print fmt "(%lx <- %lx)")
 * @bare: no ip in the header (an eprobe): the print fmt has the arguments
 *	only
 * @has_dyn: the record has a dynamic area (some string field)
 * @stage: the whole record fits in a struct probe_cache, so the size pass
 *	builds it there and the store pass copies it
 * @nr_fields: argument fields, one per argument
 * @fields: the fields, in record order
 * @edata_size: bytes of entry data a return probe saves, 0 for none:
 *	see tpp_edata_size() for the layout
 * @entry_dyn: where the strings of the @entry() area start in it
 * @earg_base: the entry data long of slot 0 of @edata
 * @nr_edata: $argN slots of entry data a return probe saves
 * @edata: the argument each entry data slot saves, as tpp_earg() has it
 * @nr_syms: @SYM references that probe_prog_resolve_symbols() patches
 * @syms: those references
 * @unknown_sym: the argument whose symbol the last
 *	probe_prog_resolve_symbols() did not find, or -1
 * @insn: the store program, ending in an END instruction
 * @size_insn: the program that sizes the dynamic area at a hit, or NULL
 *	when @dyn_const says it all
 * @entry_insn: the program that stores the @entry() arguments into the
 *	entry data, or NULL
 *
 * Allocated in one piece by probe_prog_compile() and never changed after
 * probe_prog_resolve_symbols(), so any number of CPUs may run it at once.
 */
struct probe_prog {
	unsigned int hdr_size;
	unsigned int fixed_size;
	unsigned int dyn_const;
	bool is_return;
	bool bare;
	bool has_dyn;
	bool stage;
	unsigned int nr_fields;
	struct probe_field *fields;
	unsigned int edata_size;
	unsigned int entry_dyn;
	unsigned int earg_base;
	unsigned int nr_edata;
	u32 *edata;
	unsigned int nr_syms;
	struct probe_sym *syms;
	int unknown_sym;
	struct probe_insn *insn;
	struct probe_insn *size_insn;
	struct probe_insn *entry_insn;
};

/*
 * Eprobe fields.  An eprobe's source values are fields of the record of
 * the event it is attached to; the record is passed where a return probe
 * passes its entry data.  &tpp_env.event_field answers the parser with a
 * cookie that says where the field is and how to read it, and the parser
 * keeps it as the argument's value.
 */
enum probe_efield_kind {
	PROBE_EF_UNSIGNED,	/* a number of 1, 2, 4 or 8 bytes */
	PROBE_EF_SIGNED,	/* the same, sign-extended */
	PROBE_EF_DATA_LOC,	/* __data_loc: offset from the record start */
	PROBE_EF_REL_LOC,	/* __rel_loc: offset from the end of the field */
	PROBE_EF_CHARS,		/* a char array, in place */
	PROBE_EF_CHAR_PTR,	/* a pointer to a string */
	PROBE_EF_ARRAY,		/* wider than a long (an array): its address */
};

#define PROBE_EF_SIZE_SHIFT	16
#define PROBE_EF_KIND_SHIFT	24

/* The cookie for a field at @offset of @size bytes; never negative */
static inline int probe_efield(unsigned int offset, unsigned int size,
			       enum probe_efield_kind kind)
{
	if (size != 1 && size != 2 && size != 4)
		size = 8;
	return (offset & 0xffff) | size << PROBE_EF_SIZE_SHIFT |
	       kind << PROBE_EF_KIND_SHIFT;
}

#define PROBE_CACHE_STRS	4
#define PROBE_CACHE_BYTES	192

/**
 * struct probe_cache - strings a hit's size pass read, for its store pass
 * @nr: strings cached
 * @used: bytes of @buf they take
 * @staged: bytes of a whole record the size pass built in @buf, or 0
 * @ent: each one's field (@dst), place in @buf (@off) and bytes with its
 *	NUL (@len, 0 for a fault)
 * @buf: the strings
 *
 * Sizing a string reads it once and storing it reads it again, each time
 * walking its dereferences.  A handler that keeps one of these on its
 * stack across both passes has a short string (and a faulting one) read
 * once: the size pass copies it here, the store pass copies it on into
 * the record, and the dereferences before it are skipped.  Longer
 * strings are read twice.  A handler's cache starts uninitialized: each
 * hit sizes through probe_prog_hit_size(), which clears it first for a
 * probe with dynamic data.  A probe without has nothing to cache, and its
 * cache is never read: it costs its hits nothing.
 *
 * A record that fits in @buf whole is not sized at all: the size pass
 * runs the store program into @buf (@staged bytes, header included) and
 * the store pass copies that (see stage()).
 */
struct probe_cache {
	u8 nr;
	u16 used;
	u16 staged;
	struct {
		u16 dst;
		u16 off;
		u16 len;
	} ent[PROBE_CACHE_STRS];
	char buf[PROBE_CACHE_BYTES] __aligned(sizeof(long));
};

/* Looks up a kernel symbol for @SYM; returns 0 when there is none */
typedef unsigned long (*probe_sym_lookup_t)(void *priv, const char *name);

struct probe_prog *probe_prog_compile(const struct tpp_def *def,
				      unsigned int hdr_size);
void probe_prog_free(struct probe_prog *prog);
int probe_prog_resolve_symbols(struct probe_prog *prog,
			       probe_sym_lookup_t lookup, void *priv);

/**
 * probe_prog_unknown_symbol() - the argument whose @SYM did not resolve
 * @prog: the compiled probe, or NULL
 *
 * Return: its index in the definition, or -1 when the last
 * probe_prog_resolve_symbols() found every symbol (or did not run).
 */
static inline int probe_prog_unknown_symbol(const struct probe_prog *prog)
{
	return prog ? prog->unknown_sym : -1;
}

void probe_prog_save_entry(const struct probe_prog *prog,
			   struct pt_regs *regs, unsigned long *edata);
unsigned int probe_prog_dyn_size(const struct probe_prog *prog,
				 struct pt_regs *regs,
				 const unsigned long *edata,
				 struct probe_cache *cache);
unsigned int __probe_prog_store(const struct probe_prog *prog,
				struct pt_regs *regs,
				const unsigned long *edata, void *rec,
				unsigned int rec_size,
				const struct probe_cache *cache);

static __always_inline bool probe_prog_has_dyn(const struct probe_prog *prog)
{
	return prog->has_dyn;
}

/* Forget an earlier hit: no string kept, no record staged */
static __always_inline void probe_cache_clear(struct probe_cache *cache)
{
	cache->nr = 0;
	cache->used = 0;
	cache->staged = 0;
}

/**
 * probe_prog_hit_size - size the dynamic area of a record, for any probe
 * @prog: the compiled probe
 * @regs: registers at the hit
 * @edata: entry data of a return probe, or NULL
 * @cache: the handler's cache for this hit, in any state
 *
 * Return: as probe_prog_dyn_size(); 0 for a probe without dynamic data,
 * whose @cache is left as it is.
 */
static __always_inline unsigned int
probe_prog_hit_size(const struct probe_prog *prog, struct pt_regs *regs,
		    const unsigned long *edata, struct probe_cache *cache)
{
	if (!probe_prog_has_dyn(prog))
		return 0;
	return probe_prog_dyn_size(prog, regs, edata, cache);
}

int probe_prog_print(const struct probe_prog *prog, const void *rec,
		     unsigned int rec_size, struct trace_seq *s);
int probe_prog_print_fmt(const struct probe_prog *prog, char *buf, int len);
int probe_prog_dump_arg(const struct probe_prog *prog, unsigned int i,
			char *buf, int len);

/**
 * probe_prog_store - fill in the argument fields of a record at a hit
 * @prog: the compiled probe
 * @regs: registers at the hit
 * @edata: entry data of a return probe, the attached event's record for
 *	an eprobe, or NULL
 * @rec: the record; its first @prog->hdr_size bytes are left alone
 * @rec_size: @prog->fixed_size plus the probe_prog_dyn_size() reserved
 * @cache: what probe_prog_dyn_size() of this hit cached, or NULL
 *
 * A probe without arguments costs its hits no call, a staged record
 * one memcpy().  See __probe_prog_store() for the rest.
 *
 * Return: bytes of dynamic data written.
 */
static __always_inline unsigned int
probe_prog_store(const struct probe_prog *prog, struct pt_regs *regs,
		 const unsigned long *edata, void *rec, unsigned int rec_size,
		 const struct probe_cache *cache)
{
	if (!prog->nr_fields)
		return 0;
	/* without dynamic data, no size pass filled the cache */
	if (!probe_prog_has_dyn(prog))
		cache = NULL;
	/* staged by the size pass: the record is ready but for its header */
	if (cache && cache->staged && rec_size >= cache->staged) {
		memcpy((u8 *)rec + prog->hdr_size, cache->buf + prog->hdr_size,
		       cache->staged - prog->hdr_size);
		return cache->staged - prog->fixed_size;
	}
	return __probe_prog_store(prog, regs, edata, rec, rec_size, cache);
}

/**
 * probe_prog_stage_record - the whole record of a hit, outside the ring buffer
 * @prog: the compiled probe
 * @regs: registers at the hit
 * @edata: entry data of a return probe, the attached event's record for
 *	an eprobe, or NULL
 * @rec_size: @prog->fixed_size plus what probe_prog_hit_size() returned
 * @cache: the cache probe_prog_hit_size() of this hit filled
 *
 * The record the size pass staged in @cache, or else, for a probe
 * without dynamic data, the one the store pass builds there.
 *
 * Return: the record, all but its first @prog->hdr_size bytes written, or
 * NULL when it does not fit in @cache.
 */
static __always_inline void *
probe_prog_stage_record(const struct probe_prog *prog, struct pt_regs *regs,
			const unsigned long *edata, unsigned int rec_size,
			struct probe_cache *cache)
{
	if (probe_prog_has_dyn(prog))
		return cache->staged == rec_size ? cache->buf : NULL;
	if (rec_size > sizeof(cache->buf))
		return NULL;
	probe_prog_store(prog, regs, edata, cache->buf, rec_size, NULL);
	return cache->buf;
}

/* Bytes of entry data a return probe saves; 0: it needs no entry handler */
static inline unsigned int probe_prog_edata_size(const struct probe_prog *prog)
{
	return prog->edata_size;
}

#endif /* _TRACE_PROBE_FETCH_H */
