/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fake kernels for the parser tests: an x86_64-like and an arm64-like
 * register table, a small kallsyms with modules, and a small BTF.
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

extern const struct tpp_env env_x86;	/* no BTF */
extern const struct tpp_env env_arm64;	/* no BTF */
extern const struct tpp_env env_btf;	/* x86 registers, with BTF */

#endif /* FAKE_ENV_H */
