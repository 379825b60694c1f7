// SPDX-License-Identifier: GPL-2.0
/*
 * BTF behind the probe definition parser: parameter names of the probed
 * function, and what "VAR[->FIELD|.FIELD...]", "$retval[->FIELD...]",
 * "$current->FIELD..." or a typecast "(STRUCT)TARGET->FIELD..." reads,
 * with which type.  The errors, errnos and carets are tracefs ABI; see
 * struct tpp_btf_ops for the contract.
 *
 * The function is looked up once per parse and kept in the parse's
 * struct probe_btf_ctx (vmlinux or module BTF, whatever
 * btf_find_func_proto() finds), referenced until probe_btf_release().
 */
#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "probe_kenv.h"
#include "trace_btf.h"

/*
 * One resolution in @btf (the function's, or the kernel's for $current):
 * @pos is the byte of the expression being looked at, @type the type of
 * the value so far (with @at_struct, the structure the value points at),
 * @bitoffs the bits from the start of the structure the current "->" step
 * points at, @bitsize the width of a bitfield member (0 for a plain one),
 * @name a NUL-terminated copy of the member being looked up (the
 * expression never is written to).
 */
struct pbtf_walk {
	struct probe_btf_ctx *ctx;
	struct btf *btf;
	bool at_struct;
	struct tpp_btf_req *req;
	const struct btf_type *type;
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
	w->type = btf_type_skip_modifiers(w->btf, m->type, NULL);
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
		w->type = btf_type_skip_modifiers(w->btf, w->type->type, NULL);
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
	*tid = id;
	return 1;
}

/* The value has type @tid; follow the fields from @next, then type it */
static int pbtf_typed(struct pbtf_walk *w, u32 tid, unsigned int next)
{
	int ret;

	w->type = btf_type_skip_modifiers(w->btf, tid, NULL);
	if (!w->type)
		return pbtf_fail(w->req, TPP_E_BTF_TID, 0, -EINVAL);
	if (next) {
		w->pos = next;
		ret = pbtf_fields(w);
		if (ret)
			return ret;
	}
	pbtf_set_type(w);
	return 0;
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
		return ret < 0 ? ret : pbtf_typed(&w, tid, req->chain + 2);
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

const struct tpp_btf_ops probe_btf_ops = {
	.nr_params = pbtf_nr_params,
	.param_name = pbtf_param_name,
	.resolve = pbtf_resolve,
};
