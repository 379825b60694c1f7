/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A made-up kernel for the probe definition parser's tests: x86_64 and
 * arm64 registers (the arch files over made-up ptrace tables), a small
 * kallsyms with modules, a small BTF and the record of an event eprobes
 * attach to.  Its shape matches a kernel's; its data does not.
 *
 * trace_probe_test_cases.h holds cases against it, one macro a case; the
 * KUnit suite (trace_probe_kunit.c) and the user-space unit tests
 * both include that table and run each case with tpp_test_run().
 */
#ifndef _TRACE_PROBE_TEST_ENV_H
#define _TRACE_PROBE_TEST_ENV_H

#include <linux/types.h>

#include "trace_probe.h"

/* offsetof(struct dentry, d_name.name), offsetof(struct file, f_path.dentry) */
#define FAKE_DNAME_OFF	0x28
#define FAKE_FDENTRY_OFF 0x10
#define FAKE_MAX_STACK	2048	/* 16K stacks */

/* Fields of the fake event eprobes attach to, by offset in its record */
#define FAKE_EF_DFD	8	/* s32 */
#define FAKE_EF_FILENAME 12	/* __data_loc char[] */
#define FAKE_EF_FLAGS	16	/* u64 */
#define FAKE_EF_NAME	24	/* char[16] */
#define FAKE_EF_REL	40	/* __rel_loc char[] */
#define FAKE_EF_PTR	48	/* const char * */
#define FAKE_EF_SMALL	56	/* s16 */
#define FAKE_EF_ARGS	72	/* unsigned long[6] */

extern const struct tpp_env env_x86;	/* no BTF */
extern const struct tpp_env env_arm64;	/* no BTF */
extern const struct tpp_env env_btf;	/* x86 registers, with BTF */
/* x86 registers, arguments by regs_get_kernel_argument() (no arch table) */
extern const struct tpp_env env_generic;
/* x86 registers, @SYM looked up as it parses (eprobes) */
extern const struct tpp_env env_event;
extern const struct tpp_env env_event_btf;	/* the same, with BTF */
/* BTF references env_btf's resolver handed out and were not given back */
extern int tpp_fake_btf_refs;

/* The arch files, renamed to live side by side, and their ptrace names */
struct probe_reg;
struct probe_arg_loc;
int x86_regs_query_register_offset(const char *name);
int x86_probe_arch_reg(const char *name, struct probe_reg *reg);
int x86_probe_arch_arg(unsigned int n, struct probe_arg_loc *loc);
int arm64_regs_query_register_offset(const char *name);
int arm64_probe_arch_reg(const char *name, struct probe_reg *reg);
int arm64_probe_arch_arg(unsigned int n, struct probe_arg_loc *loc);

/* ---- The case table ---- */

enum tpp_test_env {
	TPP_TEST_X86,
	TPP_TEST_ARM64,
	TPP_TEST_BTF,
	TPP_TEST_GENERIC,
	TPP_TEST_EVENT,
	TPP_TEST_EVENT_BTF,
};

enum tpp_test_kind {
	TPP_TEST_KPROBE,	/* a whole kprobe definition, refused */
	TPP_TEST_ARGS,		/* the arguments from word 2 on, refused */
	TPP_TEST_NAME,		/* the ":GROUP/EVENT" of word 0, refused */
	TPP_TEST_ACCEPT,	/* a whole kprobe definition, accepted */
	TPP_TEST_WPROBE,	/* a whole wprobe definition, refused */
	TPP_TEST_WACCEPT,	/* a whole wprobe definition, accepted */
};

/**
 * struct tpp_test_case - one parse and what it must give
 * @kind: what is parsed (enum tpp_test_kind)
 * @env: the made-up kernel it is parsed against (enum tpp_test_env)
 * @flags: TPP_* for %TPP_TEST_ARGS: the probe type and place
 * @func: the probed function for %TPP_TEST_ARGS, or NULL
 * @cmd: the text; a '^' marks where the caret must be and is not parsed
 * @id: the error id (TPP_E_*)
 * @errnum: the errno
 */
struct tpp_test_case {
	u8 kind;
	u8 env;
	unsigned int flags;
	const char *func;
	const char *cmd;
	int id;
	int errnum;
};

/**
 * struct tpp_test_got - what a case's parse gave
 * @err: the parser's error (errnum 0 when it accepted)
 * @caret: where the case's '^' asks the caret to be
 */
struct tpp_test_got {
	struct tpp_error err;
	unsigned int caret;
};

/* Case macros of trace_probe_test_cases.h: ID without TPP_E_, E an errno */
#define TPP_CASE_K(env, cmd, id, e) \
	{ TPP_TEST_KPROBE, TPP_TEST_##env, 0, NULL, cmd, TPP_E_##id, e },
#define TPP_CASE_A(env, fl, fn, cmd, id, e) \
	{ TPP_TEST_ARGS, TPP_TEST_##env, fl, fn, cmd, TPP_E_##id, e },
#define TPP_CASE_N(cmd, id) \
	{ TPP_TEST_NAME, TPP_TEST_X86, 0, NULL, cmd, TPP_E_##id, -EINVAL },
#define TPP_CASE_OK(env, cmd) \
	{ TPP_TEST_ACCEPT, TPP_TEST_##env, 0, NULL, cmd, TPP_E_NONE, 0 },
#define TPP_CASE_W(env, cmd, id, e) \
	{ TPP_TEST_WPROBE, TPP_TEST_##env, 0, NULL, cmd, TPP_E_##id, e },
#define TPP_CASE_WOK(env, cmd) \
	{ TPP_TEST_WACCEPT, TPP_TEST_##env, 0, NULL, cmd, TPP_E_NONE, 0 },

/* Longer than the longest case */
#define TPP_TEST_CMD_MAX	8192

bool tpp_test_run(const struct tpp_test_case *c, struct tpp_test_got *got);
const char *tpp_test_err_name(int id);

/* ---- The fetch cases (probe_fetch_test_cases.h) ---- */

/**
 * struct tpp_fetch_world - what the registers of a fetch case point at
 * @val: 0x1122334455667788
 * @str_ptr: the address of @str
 * @self: the world's own address
 * @small: 0xb5
 * @neg: -100
 * @str: "hello"
 * @name: "comm_in_file"
 * @null_ptr: 0, which no probe can read
 * @arr: 1, 2, 3, 4
 * @empty: ""
 *
 * The registers, by their x86_64 names (env_x86): %di the world, %si its
 * @str, %dx 0, %cx -100, %r8 0x1234.
 */
struct tpp_fetch_world {
	u64 val;		/* +0x00 */
	u64 str_ptr;		/* +0x08 */
	u64 self;		/* +0x10 */
	u32 small;		/* +0x18 */
	s32 neg;		/* +0x1c */
	char str[16];		/* +0x20 */
	char name[16];		/* +0x30 */
	u64 null_ptr;		/* +0x40 */
	u16 arr[4];		/* +0x48 */
	char empty[8];		/* +0x50 */
};

/**
 * struct tpp_fetch_case - a kprobe definition and what its hit prints
 * @cmd: the definition, parsed with env_x86
 * @print: the record's arguments as the trace prints them
 */
struct tpp_fetch_case {
	const char *cmd;
	const char *print;
};

#define TPP_FETCH(cmd, print)	{ cmd, print },

/**
 * struct tpp_dump_case - a kprobe definition and what its arguments dump to
 * @cmd: the definition, parsed with env_x86
 * @dump: probe_prog_dump_arg() of each argument, one after the other
 */
struct tpp_dump_case {
	const char *cmd;
	const char *dump;
};

#define TPP_DUMP(cmd, dump)	{ cmd, dump },

/* Room for a struct pt_regs of any architecture the tests run on */
#define TPP_TEST_REGS_SIZE	512

void tpp_test_fetch_world(struct tpp_fetch_world *w, unsigned long addr);
void tpp_test_fetch_regs(void *regs, unsigned long addr);

#endif /* _TRACE_PROBE_TEST_ENV_H */
