/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fake kernels for the parser tests: x86_64 and arm64 registers and
 * arguments (the arch files themselves over made-up ptrace tables), a small
 * kallsyms with modules, and a small BTF.
 */
#ifndef FAKE_ENV_H
#define FAKE_ENV_H

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

/*
 * The arch files of arch/x86 and arch/arm64 (harness/unit/arch_*.c), and
 * the ptrace names they ask for
 */
struct probe_reg;
struct probe_arg_loc;
int x86_regs_query_register_offset(const char *name);
int x86_probe_arch_reg(const char *name, struct probe_reg *reg);
int x86_probe_arch_arg(unsigned int n, struct probe_arg_loc *loc);
int arm64_regs_query_register_offset(const char *name);
int arm64_probe_arch_reg(const char *name, struct probe_reg *reg);
int arm64_probe_arch_arg(unsigned int n, struct probe_arg_loc *loc);
extern unsigned int kshim_sp_offset;	/* KSHIM_REG_SP unless arm64 */

#endif /* FAKE_ENV_H */
