/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The running kernel behind the probe definition parser: a struct tpp_env
 * answered from pt_regs register names, kallsyms, kprobes and BTF.
 *
 * One struct probe_kenv serves one parse:
 *
 *	struct probe_kenv ke;
 *
 *	probe_kenv_init(&ke);
 *	def = tpp_parse_kprobe(cmd, &ke.env, &err);
 *	probe_kenv_destroy(&ke);
 *
 * It caches the BTF of the probed function between the parser's questions
 * and holds a reference on that BTF until probe_kenv_destroy().  The
 * parsed definition does not point into it, so destroying it right after
 * the parse is fine.  The parse may sleep (kallsyms, BTF, GFP_KERNEL).
 */
#ifndef _TRACE_PROBE_KENV_H
#define _TRACE_PROBE_KENV_H

#include <linux/container_of.h>

#include "trace_probe.h"

struct btf;
struct btf_type;

/**
 * struct probe_btf_ctx - BTF of the function one parse asks about
 * @func: owned copy of the name @proto was found for; NULL before that
 * @btf: the BTF @proto lives in, referenced; NULL until a lookup succeeds
 * @proto: the function's BTF_KIND_FUNC_PROTO
 *
 * This is the per-parse BTF context: whether an earlier
 * question of the same parse found the function changes one error (see
 * probe_btf.c).  Names handed out by &tpp_btf_ops.param_name point into
 * @btf and stay valid while it is held.
 */
struct probe_btf_ctx {
	char *func;
	struct btf *btf;
	const struct btf_type *proto;
};

/**
 * struct probe_kenv - a struct tpp_env for one parse
 * @env: what to hand the parser; its @priv points at @btf
 * @btf: BTF state of the parse, private to probe_btf.c
 * @sym: the last vmlinux symbol name the parser had counted, as it
 *	passed it (compare pointers only: it may be freed with the parse)
 * @sym_addr: its address when it was unique, else 0
 * @event: an eprobe's attached event, for its &tpp_env.event_field
 *
 * A name lookup in kallsyms costs some 25 000 instructions; the address
 * of the probed symbol, found while counting it, spares the later ones.
 */
struct probe_kenv {
	struct tpp_env env;
	struct probe_btf_ctx btf;
	const char *sym;
	unsigned long sym_addr;
	void *event;
};

/* The environment a &tpp_env.priv of probe_kenv_init()'s belongs to */
static inline struct probe_kenv *probe_kenv_of(void *priv)
{
	return container_of(priv, struct probe_kenv, btf);
}

void probe_kenv_init(struct probe_kenv *ke);
void probe_kenv_destroy(struct probe_kenv *ke);
int probe_kenv_sym_count(const char *mod, const char *sym);

/* BTF lookups for &tpp_env.btf; only with CONFIG_PROBE_EVENTS_BTF_ARGS */
extern const struct tpp_btf_ops probe_btf_ops;

struct trace_seq;

#ifdef CONFIG_PROBE_EVENTS_BTF_ARGS
void probe_btf_release(struct probe_btf_ctx *ctx);
void probe_btf_print(struct trace_seq *s, const void *btf, u32 id,
		     const void *data, unsigned int size);
#else
static inline void probe_btf_release(struct probe_btf_ctx *ctx)
{
}
#endif

#endif /* _TRACE_PROBE_KENV_H */
