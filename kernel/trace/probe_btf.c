// SPDX-License-Identifier: GPL-2.0
/*
 * BTF behind the probe definition parser: parameter names of the probed
 * function, and what "VAR[->FIELD|.FIELD...]", "$retval[->FIELD...]",
 * "$current->FIELD..." or a typecast "(STRUCT)TARGET->FIELD..." reads,
 * with which type.  The errors, errnos and carets are tracefs ABI; see
 * struct tpp_btf_ops for the contract.  Also the printer of the
 * structures "*EXPR" records whole.
 *
 * The function is looked up once per parse and kept in the parse's
 * struct probe_btf_ctx (vmlinux or module BTF, whatever
 * btf_find_func_proto() finds), referenced until probe_btf_release().
 */
#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/math.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_seq.h>
#include <linux/unaligned.h>

#include "probe_kenv.h"
#include "trace_btf.h"

/*
 * One resolution in @btf (the function's, or the kernel's for $current):
 * @pos is the byte of the expression being looked at, @type the type of
 * the value so far (with @at_struct, the structure the value points at),
 * @tid the id of @type, @bitoffs the bits from the start of the structure
 * the current "->" step points at, @bitsize the width of a bitfield member
 * (0 for a plain one), @points_at_struct that the value itself points at
 * a structure ($current, a typecast), @name a NUL-terminated copy of the
 * member being looked up (the expression never is written to).
 */
struct pbtf_walk {
	struct probe_btf_ctx *ctx;
	struct btf *btf;
	bool at_struct;
	bool points_at_struct;
	struct tpp_btf_req *req;
	const struct btf_type *type;
	u32 tid;
	unsigned int pos;
	u32 bitoffs;
	u32 bitsize;
	char name[TPP_MAX_ARGSTR_LEN + 1];
};

/* Indexed by [signed][log2(bytes)] */
static const enum tpp_type pbtf_ints[2][4] = {
	{ TPP_TYPE_U8, TPP_TYPE_U16, TPP_TYPE_U32, TPP_TYPE_U64 },
	{ TPP_TYPE_S8, TPP_TYPE_S16, TPP_TYPE_S32, TPP_TYPE_S64 },
};

static int pbtf_fail(struct tpp_btf_req *req, int id, unsigned int at,
		     int err)
{
	req->id = id;
	req->at = at;
	return err;
}

/* The type of a value BTF has nothing better for: an unsigned long */
static enum tpp_type pbtf_long_type(void)
{
	return IS_ENABLED(CONFIG_64BIT) ? TPP_TYPE_X64 : TPP_TYPE_X32;
}

/**
 * probe_btf_release() - drop the BTF a parse looked up
 * @ctx: the parse's BTF state; left empty, ready for another parse
 */
void probe_btf_release(struct probe_btf_ctx *ctx)
{
	btf_put(ctx->btf);
	kfree(ctx->func);
	ctx->func = NULL;
	ctx->btf = NULL;
	ctx->proto = NULL;
}

static bool pbtf_cached(const struct probe_btf_ctx *ctx, const char *func)
{
	return ctx->btf && !strcmp(ctx->func, func);
}

/* 0, -ENOENT when BTF does not know @func, or -ENOMEM */
static int pbtf_lookup(struct probe_btf_ctx *ctx, const char *func)
{
	const struct btf_type *proto;
	struct btf *btf;
	char *name;

	if (pbtf_cached(ctx, func))
		return 0;
	proto = btf_find_func_proto(func, &btf);
	if (!proto)
		return -ENOENT;
	name = kstrdup(func, GFP_KERNEL);
	if (!name) {
		btf_put(btf);
		return -ENOMEM;
	}
	probe_btf_release(ctx);
	ctx->func = name;
	ctx->btf = btf;
	ctx->proto = proto;
	return 0;
}

/* The parameters the user sees; a tprobe's first one is the stub's data */
static const struct btf_param *pbtf_params(const struct probe_btf_ctx *ctx,
					   unsigned int flags, int *nr)
{
	const struct btf_param *param;
	s32 n = 0;

	param = btf_get_func_param(ctx->proto, &n);
	if (IS_ERR_OR_NULL(param)) {
		n = 0;
	} else if (flags & TPP_TPOINT) {
		param++;
		n--;
	}
	*nr = n;
	return n > 0 ? param : NULL;
}

static int pbtf_nr_params(void *priv, const char *func, unsigned int flags)
{
	int nr, ret;

	ret = pbtf_lookup(priv, func);
	if (ret)
		return ret;
	pbtf_params(priv, flags, &nr);
	return nr;
}

static const char *pbtf_param_name(void *priv, const char *func,
				   unsigned int flags, unsigned int idx)
{
	struct probe_btf_ctx *ctx = priv;
	const struct btf_param *param;
	int nr;

	if (pbtf_lookup(ctx, func))
		return NULL;
	param = pbtf_params(ctx, flags, &nr);
	if (idx >= (unsigned int)nr)
		return NULL;
	return btf_name_by_offset(ctx->btf, param[idx].name_off);
}

/* An unsigned 8-bit integer: what :string takes as a character */
static bool pbtf_is_char(const struct btf *btf, u32 id)
{
	const struct btf_type *t = btf_type_skip_modifiers(btf, id, NULL);

	return t && btf_type_is_int(t) && btf_int_bits(t) == 8 &&
	       !(btf_int_encoding(t) & BTF_INT_SIGNED);
}

/*
 * Only pointers and arrays of integers are asked what they point to or
 * hold, so a non-pointer never passes for a char * by accident.
 */
static enum tpp_btf_kind pbtf_kind(const struct btf *btf,
				   const struct btf_type *t)
{
	if (btf_type_is_array(t) && pbtf_is_char(btf, btf_array(t)->type))
		return TPP_BTF_CHAR_ARRAY;
	if (btf_type_is_ptr(t) && pbtf_is_char(btf, t->type))
		return TPP_BTF_CHAR_PTR;
	return TPP_BTF_PLAIN;
}

/*
 * Integers of 8 to 64 bits get their own type.  An unsigned one of another
 * width is a bitfield inside a u64; a signed one gets the default type.
 */
static enum tpp_type pbtf_int_type(struct pbtf_walk *w)
{
	bool sign = btf_int_encoding(w->type) & BTF_INT_SIGNED;
	unsigned int bits = btf_int_bits(w->type);

	if (bits >= 8 && bits <= 64 && is_power_of_2(bits))
		return pbtf_ints[sign][ilog2(bits / 8)];
	if (sign)
		return pbtf_long_type();
	w->bitsize = bits;
	w->bitoffs += btf_int_offset(w->type);
	return TPP_TYPE_U64;
}

/* The value's type when the user gives none, and its bitfield position */
static void pbtf_set_type(struct pbtf_walk *w)
{
	struct tpp_btf_req *req = w->req;

	req->typed = true;
	req->kind = pbtf_kind(w->btf, w->type);
	if (btf_type_is_int(w->type))
		req->type = pbtf_int_type(w);
	else if (btf_kind(w->type) == BTF_KIND_ENUM)
		req->type = TPP_TYPE_S32;	/* whatever its size: ABI */
	else if (btf_kind(w->type) == BTF_KIND_ENUM64)
		req->type = TPP_TYPE_S64;
	else
		req->type = pbtf_long_type();	/* pointers, structs, ... */
	req->bitsize = w->bitsize;
	req->bitoffs = w->bitoffs;
}

/*
 * The name at @pos ends at *@end.  *@next is where the next one starts,
 * 0 when none follows; *@arrow tells "->" from ".".  A '-' without '>'
 * is an error at the '-'.
 */
static int pbtf_split(struct tpp_btf_req *req, unsigned int pos,
		      unsigned int *end, unsigned int *next, bool *arrow)
{
	unsigned int i = pos;

	while (i < req->len && req->expr[i] != '.' && req->expr[i] != '-')
		i++;
	*end = i;
	*next = 0;
	*arrow = false;
	if (i == req->len)
		return 0;
	if (req->expr[i] == '.') {
		*next = i + 1;
		return 0;
	}
	if (i + 1 == req->len || req->expr[i + 1] != '>')
		return pbtf_fail(req, TPP_E_BTF_HYPHEN, i, -EINVAL);
	*next = i + 2;
	*arrow = true;
	return 0;
}

/* Member @w->pos..@end of the structure @w->type; errors point at it */
static int pbtf_member(struct pbtf_walk *w, unsigned int end)
{
	const struct btf_type *owner = NULL;
	const struct btf_member *m;
	unsigned int at = w->pos;
	u32 anon = 0;

	memcpy(w->name, w->req->expr + at, end - at);
	w->name[end - at] = '\0';
	m = btf_find_struct_member(w->btf, w->type, w->name, &anon,
				   &owner);
	if (IS_ERR(m))
		return pbtf_fail(w->req, TPP_E_BTF_TID, at, PTR_ERR(m));
	if (!m)
		return pbtf_fail(w->req, TPP_E_BTF_NOFIELD, at, -ENOENT);
	/* @anon: where the anonymous struct or union holding @m starts */
	w->bitoffs += anon + __btf_member_bit_offset(owner, m);
	w->bitsize = __btf_member_bitfield_size(owner, m);
	w->type = btf_type_skip_modifiers(w->btf, m->type, &w->tid);
	if (!w->type)
		return pbtf_fail(w->req, TPP_E_BTF_TID, at, -EINVAL);
	w->req->late_at = at;
	return 0;
}

/*
 * One "->" step: MEMBER[.MEMBER...] of the structure @w->type points at.
 * On return *@next is where the next step starts, or 0 after the last.
 */
static int pbtf_step(struct pbtf_walk *w, unsigned int *next)
{
	unsigned int end;
	bool arrow;
	int ret;

	if (w->at_struct) {
		w->at_struct = false;	/* the value already points at it */
	} else {
		if (!btf_type_is_ptr(w->type))
			return pbtf_fail(w->req, TPP_E_BTF_NOT_PTR, w->pos,
					 -EINVAL);
		w->type = btf_type_skip_modifiers(w->btf, w->type->type,
						  &w->tid);
		if (!w->type)
			return pbtf_fail(w->req, TPP_E_BTF_TID, w->pos, -EINVAL);
	}
	w->bitoffs = 0;
	do {
		ret = pbtf_split(w->req, w->pos, &end, next, &arrow);
		if (!ret)
			ret = pbtf_member(w, end);
		if (ret)
			return ret;
		if (*next)
			w->pos = *next;
	} while (*next && !arrow);
	return 0;
}

/*
 * Every "->" step is one dereference.  A step that is one too many is
 * blamed at the start of the next step, or at the last member (ABI
 * carets).  Deeper steps are left out; the parser rejects them anyway.
 */
static int pbtf_fields(struct pbtf_walk *w)
{
	struct tpp_btf_req *req = w->req;
	unsigned int next;
	int ret;

	do {
		ret = pbtf_step(w, &next);
		if (ret)
			return ret;
		req->field[req->nr_fields].offset = w->bitoffs / 8;
		req->field[req->nr_fields++].at = w->pos;
	} while (next && req->nr_fields < ARRAY_SIZE(req->field));
	w->bitoffs %= 8;
	return 0;
}

/* 1 and the type id of the return value, 0 untyped, or an error */
static int pbtf_retval(struct pbtf_walk *w, unsigned int next, u32 *tid)
{
	struct tpp_btf_req *req = w->req;
	int ret;

	req->src = TPP_SRC_RETVAL;
	ret = pbtf_lookup(w->ctx, req->func);
	if (ret == -ENOMEM)
		return pbtf_fail(req, TPP_E_NONE, 0, ret);
	if (ret && next)
		return pbtf_fail(req, TPP_E_BTF_NOFUNC, next, -ENOENT);
	if (ret)
		return 0;	/* read $retval as if there were no BTF */
	w->btf = w->ctx->btf;
	*tid = w->ctx->proto->type;
	if (!*tid)
		return pbtf_fail(req, TPP_E_VOID_RETVAL, 0, -ENOENT);
	return 1;
}

static bool pbtf_name_is(const char *name, const char *s, unsigned int n)
{
	return name && !strncmp(name, s, n) && !name[n];
}

/*
 * 1 and the type id of parameter @req->expr[0..@n), or an error.  A
 * function without parameters is rejected as BTF_NOFUNC only when this
 * parse has not found its BTF before (for $arg or $retval); else the name
 * is just not found.
 */
static int pbtf_param(struct pbtf_walk *w, unsigned int n, u32 *tid)
{
	struct tpp_btf_req *req = w->req;
	bool found_before = pbtf_cached(w->ctx, req->func);
	const struct btf_param *param;
	int i, nr, ret;

	ret = pbtf_lookup(w->ctx, req->func);
	if (ret == -ENOMEM)
		return pbtf_fail(req, TPP_E_NONE, 0, ret);
	if (ret)
		return pbtf_fail(req, TPP_E_BTF_NOFUNC, 0, -ENOENT);
	w->btf = w->ctx->btf;
	param = pbtf_params(w->ctx, req->flags, &nr);
	if (!nr && !found_before)
		return pbtf_fail(req, TPP_E_BTF_NOFUNC, 0, -ENOENT);
	for (i = 0; i < nr; i++) {
		if (pbtf_name_is(btf_name_by_offset(w->btf,
						    param[i].name_off),
				 req->expr, n)) {
			req->param = i;
			*tid = param[i].type;
			return 1;
		}
	}
	return pbtf_fail(req, TPP_E_BTF_NOVAR, 0, -ENOENT);
}

/*
 * $current->FIELD...: the value points at a task_struct of the kernel's
 * own BTF, wherever the probe is.  1 and the structure's id, or an error.
 */
static int pbtf_current(struct pbtf_walk *w, unsigned int next, u32 *tid)
{
	struct tpp_btf_req *req = w->req;
	s32 id;

	req->src = TPP_SRC_CURRENT;
	w->btf = bpf_get_btf_vmlinux();
	if (IS_ERR_OR_NULL(w->btf))
		return pbtf_fail(req, TPP_E_BTF_NOSUP, 0, -EOPNOTSUPP);
	id = btf_find_by_name_kind(w->btf, "task_struct", BTF_KIND_STRUCT);
	if (id < 0)
		return pbtf_fail(req, TPP_E_BTF_TID, 0, -EINVAL);
	w->at_struct = next;
	w->points_at_struct = true;
	*tid = id;
	return 1;
}

/*
 * The ",MEMBER[.MEMBER...]" of a typecast, @w->pos..@end in the structure
 * @w->type: where in it the value points.  "->" takes no step there.
 */
static int pbtf_cast_member(struct pbtf_walk *w, unsigned int end)
{
	struct tpp_btf_req *req = w->req;
	unsigned int from = w->pos, i;
	int ret;

	w->bitoffs = 0;
	for (;;) {
		i = w->pos;
		while (i < end && req->expr[i] != '.' && req->expr[i] != '-')
			i++;
		if (i == w->pos)
			return pbtf_fail(req, TPP_E_BTF_NOFIELD, i, -ENOENT);
		if (i < end && req->expr[i] == '-')
			return pbtf_fail(req, TPP_E_TYPECAST_BAD_ARROW, i,
					 -EINVAL);
		ret = pbtf_member(w, i);
		if (ret)
			return ret;
		if (i == end)
			break;
		w->pos = i + 1;
	}
	if (w->bitoffs % 8 || w->bitsize)
		return pbtf_fail(req, TPP_E_TYPECAST_NOT_ALIGNED, from, -EINVAL);
	req->cast_offset = w->bitoffs / 8;
	return 0;
}

/*
 * (STRUCT[,MEMBER...])TARGET->FIELD...: the parser has TARGET's value,
 * the address of a STRUCT of the kernel's own BTF (of its MEMBER with
 * the option).  1 and the structure's id, or an error.
 */
static int pbtf_cast(struct pbtf_walk *w, u32 *tid)
{
	struct tpp_btf_req *req = w->req;
	unsigned int end = 1 + req->cast_len, comma;
	s32 id;
	int ret;

	w->btf = bpf_get_btf_vmlinux();
	if (IS_ERR_OR_NULL(w->btf))
		return pbtf_fail(req, TPP_E_BTF_NOSUP, 0, -EOPNOTSUPP);
	for (comma = 1; comma < end && req->expr[comma] != ','; comma++)
		;
	memcpy(w->name, req->expr + 1, comma - 1);
	w->name[comma - 1] = '\0';
	id = btf_find_by_name_kind(w->btf, w->name, BTF_KIND_STRUCT);
	if (id < 0)
		id = btf_find_by_name_kind(w->btf, w->name, BTF_KIND_UNION);
	if (id < 0)
		return pbtf_fail(req, TPP_E_TYPECAST_NO_STRUCT, 1, -EINVAL);
	if (comma < end) {
		w->type = btf_type_by_id(w->btf, id);
		w->pos = comma + 1;
		ret = pbtf_cast_member(w, end);
		if (ret)
			return ret;
	}
	w->at_struct = true;
	w->points_at_struct = true;
	*tid = id;
	return 1;
}

/*
 * "*EXPR": the structure or union the expression ends at, read where its
 * last member is, or the one it points at.  A structure passed by value
 * is in registers, not memory: it is no such thing.
 */
static int pbtf_whole(struct pbtf_walk *w)
{
	struct tpp_btf_req *req = w->req;
	const struct btf_type *t = w->type;
	u32 id = w->tid;

	if (btf_type_is_ptr(t))
		t = btf_type_skip_modifiers(w->btf, t->type, &id);
	else if (req->nr_fields)
		req->whole_in_place = true;
	else if (!w->points_at_struct)
		t = NULL;
	if (!t || !btf_type_is_struct(t) || !t->size)
		return pbtf_fail(req, TPP_E_WHOLE_NOT_STRUCT, req->late_at,
				 -EINVAL);
	btf_get(w->btf);
	req->whole_btf = w->btf;
	req->whole_id = id;
	req->whole_size = t->size;
	return 0;
}

/* The value has type @tid; follow the fields from @next, then type it */
static int pbtf_typed(struct pbtf_walk *w, u32 tid, unsigned int next)
{
	int ret;

	w->type = btf_type_skip_modifiers(w->btf, tid, &w->tid);
	if (!w->type)
		return pbtf_fail(w->req, TPP_E_BTF_TID, 0, -EINVAL);
	if (next) {
		w->pos = next;
		ret = pbtf_fields(w);
		if (ret)
			return ret;
	}
	pbtf_set_type(w);
	return w->req->whole ? pbtf_whole(w) : 0;
}

/*
 * The order of the checks decides which error a user sees (ABI): the
 * separator after the variable first, then $retval or the parameter,
 * then the fields.
 */
static int pbtf_resolve(void *priv, struct tpp_btf_req *req)
{
	struct pbtf_walk w = { .ctx = priv, .req = req };
	unsigned int end, next;
	bool arrow;
	u32 tid;
	int ret;

	req->type = pbtf_long_type();
	if (req->len > TPP_MAX_ARGSTR_LEN)
		return pbtf_fail(req, TPP_E_ARG_LONG, 0, -E2BIG);
	if (req->cast_len) {
		ret = pbtf_cast(&w, &tid);
		if (ret < 0)
			return ret;
		return pbtf_typed(&w, tid, req->chain ? req->chain + 2 : 0);
	}
	req->src = TPP_SRC_ARG;
	ret = pbtf_split(req, 0, &end, &next, &arrow);
	if (ret)
		return ret;
	if (next && !arrow)	/* a structure passed by value */
		return pbtf_fail(req, TPP_E_BTF_DOT_ARG, next, -EOPNOTSUPP);
	if (pbtf_name_is("$current", req->expr, end))
		ret = pbtf_current(&w, next, &tid);
	else if ((req->flags & TPP_RETURN) &&
		 pbtf_name_is("$retval", req->expr, end))
		ret = pbtf_retval(&w, next, &tid);
	else
		ret = pbtf_param(&w, end, &tid);
	if (ret <= 0)
		return ret;
	return pbtf_typed(&w, tid, next);
}

/* ---- Printing a structure recorded whole ---- */

/*
 * One printing walk: where the text goes, and the bytes it may read.  The
 * text of one field stops at PBTF_TEXT_MAX bytes with "...", so that its
 * trace line fits a trace_seq, and so does a value nested deeper than
 * PBTF_DEPTH_MAX (a spinlock inside a lockref is 11 deep).
 */
struct pbtf_print {
	struct trace_seq *s;
	const struct btf *btf;
	const u8 *data;
	unsigned int size;
	unsigned int stop;
	bool cut;
};

#define PBTF_TEXT_MAX	2048
#define PBTF_DEPTH_MAX	16

static void pbtf_show(struct pbtf_print *p, u32 id, unsigned int off,
		      u32 bitoff, u32 bits, int depth);

/* Room left; once out of it, "..." once and nothing more */
static bool pbtf_room(struct pbtf_print *p)
{
	if (p->cut)
		return false;
	if (trace_seq_used(p->s) < p->stop)
		return true;
	trace_seq_puts(p->s, "...");
	p->cut = true;
	return false;
}

/*
 * @bits bits, @bitoff bits into the @size bytes at @off (a bitfield), or
 * the whole @size bytes when @bits is 0; 0 where the record ends first
 */
static u64 pbtf_value(const struct pbtf_print *p, unsigned int off,
		      unsigned int size, u32 bitoff, u32 bits)
{
	unsigned int n = bits ? DIV_ROUND_UP(bitoff + bits, 8) : size;
	u64 v = 0;

	if (n > sizeof(v) || off + n > p->size)
		return 0;
	if (!bits) {
		switch (n) {
		case 1: return p->data[off];
		case 2: return get_unaligned((const u16 *)(p->data + off));
		case 4: return get_unaligned((const u32 *)(p->data + off));
		}
		return get_unaligned((const u64 *)(p->data + off));
	}
	memcpy(&v, p->data + off, n);
#ifdef __BIG_ENDIAN_BITFIELD
	return (v << bitoff) >> (64 - bits);
#else
	return (v << (64 - bitoff - bits)) >> (64 - bits);
#endif
}

static void pbtf_show_int(struct pbtf_print *p, const struct btf_type *t,
			  unsigned int off, u32 bitoff, u32 bits)
{
	unsigned int pad;
	u64 v;

	if (!bits && (t->size > sizeof(u64) || !is_power_of_2(t->size))) {
		trace_seq_puts(p->s, "?");	/* __int128 */
		return;
	}
	pad = 64 - (bits ?: 8 * t->size);
	v = pbtf_value(p, off, t->size, bitoff, bits);
	if (btf_int_encoding(t) & BTF_INT_SIGNED)
		trace_seq_printf(p->s, "%lld", (s64)(v << pad) >> pad);
	else
		trace_seq_printf(p->s, "%llu", v);
}

/* By the name of the value, or as a number when it has none */
static void pbtf_show_enum(struct pbtf_print *p, const struct btf_type *t,
			   unsigned int off, u32 bitoff, u32 bits)
{
	bool sign = btf_type_kflag(t);
	unsigned int i, pad = 64 - (bits ?: 8 * t->size);
	u64 v = pbtf_value(p, off, t->size, bitoff, bits), e;
	u32 name;

	if (sign)
		v = (s64)(v << pad) >> pad;
	for (i = 0; i < btf_type_vlen(t); i++) {
		if (btf_is_enum64(t)) {
			e = btf_enum64_value(btf_enum64(t) + i);
			name = btf_enum64(t)[i].name_off;
		} else {
			e = sign ? (s64)btf_enum(t)[i].val :
				   (u64)(u32)btf_enum(t)[i].val;
			name = btf_enum(t)[i].name_off;
		}
		if (e == v) {
			trace_seq_puts(p->s, btf_name_by_offset(p->btf, name));
			return;
		}
	}
	trace_seq_printf(p->s, sign ? "%lld" : "%llu", v);
}

/* A char array is text up to its first NUL; other bytes print as \xNN */
static void pbtf_show_chars(struct pbtf_print *p, unsigned int off,
			    unsigned int n)
{
	unsigned int i;
	u8 c;

	trace_seq_putc(p->s, '"');
	for (i = 0; i < n && off + i < p->size; i++) {
		c = p->data[off + i];
		if (!c)
			break;
		if (isprint(c) && c != '"' && c != '\\')
			trace_seq_putc(p->s, c);
		else
			trace_seq_printf(p->s, "\\x%02x", c);
	}
	trace_seq_putc(p->s, '"');
}

static void pbtf_show_array(struct pbtf_print *p, const struct btf_type *t,
			    unsigned int off, int depth)
{
	const struct btf_array *arr = btf_array(t);
	const struct btf_type *elem;
	u32 elem_id, esize = 0, i;

	elem = btf_type_skip_modifiers(p->btf, arr->type, &elem_id);
	if (elem && btf_type_is_int(elem) && elem->size == 1) {
		pbtf_show_chars(p, off, arr->nelems);
		return;
	}
	if (!elem || IS_ERR(btf_resolve_size(p->btf, elem, &esize)))
		esize = 0;
	trace_seq_putc(p->s, '[');
	for (i = 0; i < arr->nelems && pbtf_room(p); i++) {
		if (i)
			trace_seq_putc(p->s, ',');
		pbtf_show(p, elem_id, off + i * esize, 0, 0, depth + 1);
	}
	trace_seq_putc(p->s, ']');
}

/* "{name=value,...}"; an unnamed member shows its value alone */
static void pbtf_show_struct(struct pbtf_print *p, const struct btf_type *t,
			     unsigned int off, int depth)
{
	const struct btf_member *m;
	const char *name;
	u32 i, bit;

	trace_seq_putc(p->s, '{');
	for_each_member(i, t, m) {
		if (!pbtf_room(p))
			break;
		if (i)
			trace_seq_putc(p->s, ',');
		name = btf_name_by_offset(p->btf, m->name_off);
		if (!str_is_empty(name))
			trace_seq_printf(p->s, "%s=", name);
		bit = __btf_member_bit_offset(t, m);
		pbtf_show(p, m->type, off + bit / 8, bit % 8,
			  __btf_member_bitfield_size(t, m), depth + 1);
	}
	trace_seq_putc(p->s, '}');
}

/*
 * The value of type @id at byte @off of the record; a bitfield member
 * has its @bits, @bitoff bits into it
 */
static void pbtf_show(struct pbtf_print *p, u32 id, unsigned int off,
		      u32 bitoff, u32 bits, int depth)
{
	const struct btf_type *t = btf_type_skip_modifiers(p->btf, id, NULL);

	if (depth > PBTF_DEPTH_MAX) {
		trace_seq_puts(p->s, "...");
		return;
	}
	if (!t) {
		trace_seq_puts(p->s, "?");
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		pbtf_show_int(p, t, off, bitoff, bits);
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		pbtf_show_enum(p, t, off, bitoff, bits);
		break;
	case BTF_KIND_PTR:
		trace_seq_printf(p->s, "0x%llx",
				 pbtf_value(p, off, sizeof(long), 0, 0));
		break;
	case BTF_KIND_ARRAY:
		pbtf_show_array(p, t, off, depth);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		pbtf_show_struct(p, t, off, depth);
		break;
	default:
		trace_seq_puts(p->s, "?");	/* float, ... */
		break;
	}
}

/**
 * probe_btf_print() - print a structure recorded whole, by its BTF type
 * @s: where the text goes
 * @btf: the BTF the type is in
 * @id: the structure's or union's type id
 * @data: its bytes, as recorded
 * @size: how many; nothing past them is read
 *
 * Members print as "{name=value,...}", nested structures and unions in
 * braces, arrays in brackets, char arrays as quoted strings, pointers in
 * hex and enums by name.  The text stops with "..." after PBTF_TEXT_MAX
 * bytes.
 */
void probe_btf_print(struct trace_seq *s, const void *btf, u32 id,
		     const void *data, unsigned int size)
{
	struct pbtf_print p = {
		.s = s,
		.btf = btf,
		.data = data,
		.size = size,
		.stop = trace_seq_used(s) + PBTF_TEXT_MAX,
	};

	pbtf_show(&p, id, 0, 0, 0, 0);
}

static void pbtf_put(void *btf)
{
	btf_put(btf);
}

const struct tpp_btf_ops probe_btf_ops = {
	.nr_params = pbtf_nr_params,
	.param_name = pbtf_param_name,
	.resolve = pbtf_resolve,
	.put = pbtf_put,
};
