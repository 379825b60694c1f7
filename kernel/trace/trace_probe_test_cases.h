/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cases of the probe definition parser, against the made-up kernel of
 * trace_probe_test_env.c; trace_probe_kunit.c and the user-space unit tests
 * include this table into an array of struct tpp_test_case, one case a
 * line:
 *
 *   TPP_CASE_K(ENV, CMD, ID, ERRNO)      kprobe CMD refused with TPP_E_ID
 *   TPP_CASE_A(ENV, FLAGS, FUNC, CMD, ID, ERRNO)
 *                                        its arguments, as FLAGS' probe
 *                                        type parses them, refused
 *   TPP_CASE_N(CMD, ID)                  its ":GROUP/EVENT" refused, as
 *                                        the f, t and e heads parse it
 *   TPP_CASE_OK(ENV, CMD)                kprobe CMD accepted
 *   TPP_CASE_W(ENV, CMD, ID, ERRNO)      wprobe CMD refused
 *   TPP_CASE_WOK(ENV, CMD)               wprobe CMD accepted
 *
 * A '^' in CMD marks where error_log's caret must be; it is not parsed.
 * Every caret-encoded case of the ftrace selftests is here (kprobe_syntax_
 * errors.tc, uprobe_syntax_errors.tc, dynevent/ *_syntax_errors.tc) except
 * the ones owned by other heads or by registration.  Cases that check
 * what an accepted definition compiles to are in the user-space unit tests.
 *
 * No include guard: the file is an initializer, included once per table.
 */
#ifndef NUM65
#define NUM65 "12345678901234567890123456789012345678901234567890123456789012345"
/* half of the 3072 bytes a record's arguments may take */
#define FILL1536 "+0(%di):u64[64] +0(%di):u64[64] +0(%di):u64[64] "
/* 14 dereferences of @0: the outermost overflows, at its inner value */
#define DEEP14 "+0(^+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(@0))))))))))))))"
#endif

/* test.d/kprobe/kprobe_syntax_errors.tc, in its order */
TPP_CASE_K(X86, "p^100 vfs_read", MAXACT_ON_ENTRY, -EINVAL)
TPP_CASE_K(X86, "r^1a111 vfs_read", MAXACT, -EINVAL)
TPP_CASE_K(X86, "r^100000 vfs_read", MAXACT_BIG, -EINVAL)
TPP_CASE_K(X86, "p ^non_exist_func", PLACE, -EINVAL)
TPP_CASE_K(X86, "p ^hoge-fuga", PLACE, -EINVAL)
TPP_CASE_K(X86, "p ^hoge+1000-1000", PLACE, -EINVAL)
TPP_CASE_K(X86, "r ^vfs_read+10", RET_NOT_ENTRY, -EINVAL)
TPP_CASE_K(X86, "p:^/bar vfs_read", GROUP_EMPTY, -EINVAL)
TPP_CASE_K(X86, "p:^" NUM65 "/bar vfs_read", GROUP_LONG, -EINVAL)
TPP_CASE_K(X86, "p:^foo.1/bar vfs_read", GROUP_CHARS, -EINVAL)
TPP_CASE_K(X86, "p:^ vfs_read", EVENT_EMPTY, -EINVAL)
TPP_CASE_K(X86, "p:foo/^" NUM65 " vfs_read", EVENT_LONG, -EINVAL)
TPP_CASE_K(X86, "p:foo/^bar.1 vfs_read", EVENT_CHARS, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^$retval", RETVAL_ON_ENTRY, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^$stack10000", STACK_INDEX, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^$arg10000", ARG_INDEX, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^$none_var", VAR, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^%none_reg", REG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^@12345678abcde", MEM_ADDR, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^@+10", FOFFS_ON_KERNEL, -EINVAL)
/* a number too big for its type: kstrto*()'s -ERANGE */
TPP_CASE_K(X86, "p vfs_read ^@0x10000000000000000", MEM_ADDR, -ERANGE)
TPP_CASE_K(X86, "p vfs_read a=\\^18446744073709551616", IMM, -ERANGE)
TPP_CASE_K(X86, "p vfs_read ^+99999999999999999999(@0)", DEREF_OFFS, -ERANGE)
TPP_CASE_K(X86, "p vfs_read arg1=\\^x", IMM, -EINVAL)
TPP_CASE_K(X86, "p vfs_read arg1=\\\"abcd^", IMMSTR_OPEN, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^+0@0)", DEREF_NO_BRACE, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^+0ab1(@0)", DEREF_OFFS, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(+0(@0^)", DEREF_OPEN, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(^$comm)", DEREF_VALUE, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^&1", FETCHARG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read " DEEP14, TOO_DEEP, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(@11):u8[10^", ARRAY_OPEN, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(@11):u8[10]^a", ARRAY_SUFFIX, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(@11):u8[^10a]", ARRAY_LEN, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(@11):u8[^256]", ARRAY_BIG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read @11:^unknown_type", TYPE, -EINVAL)
TPP_CASE_K(X86, "p vfs_read $stack0:^string", STRING_SRC, -EINVAL)
TPP_CASE_K(X86, "p vfs_read @11:^b10@a/16", BITFIELD, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^arg123456789012345678901234567890=@11", NAME_LONG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^=@11", NAME_EMPTY, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^var.1=@11", NAME_CHARS, -EINVAL)
TPP_CASE_K(X86, "p vfs_read var1=@11 ^var1=@12", NAME_USED, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^+1234567(+1234567(+1234567(+1234567(+1234567(+1234567(@1234))))))",
	   ARG_LONG, -E2BIG)
TPP_CASE_K(X86, "p vfs_read arg1=^", ARG_EMPTY, -EINVAL)
/* %return suffix errors */
TPP_CASE_K(X86, "p vfs_read^%hoge", PLACE_SUFFIX, -EINVAL)
TPP_CASE_K(X86, "p ^vfs_read+10%return", RET_NOT_ENTRY, -EINVAL)
/* BTF arguments: a misplaced $arg* is a bad variable (BAD_VAR) */
TPP_CASE_K(BTF, "p vfs_read args=^$arg*", VAR, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read +0(^$arg*)", VAR, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read $arg* ^$arg*", ARGS_TWICE, -EINVAL)
/* $arg* takes no type and nothing else: what follows is refused */
TPP_CASE_K(BTF, "p vfs_read $arg*^:u8", ARGS_ALONE, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read $arg*^junk", ARGS_ALONE, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read+20 ^$arg*", ARGS_PLACE, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read ^hoge", BTF_NOVAR, -ENOENT)
TPP_CASE_K(BTF, "p kfree ^$arg10", BTF_NOVAR, -ENOENT)
TPP_CASE_K(BTF, "r kfree ^$retval", VOID_RETVAL, -ENOENT)
TPP_CASE_K(X86, "p vfs_read ^$arg*", BTF_NOSUP, -EOPNOTSUPP)

/* args syntax common */
TPP_CASE_K(X86, "p vfs_read ^$stackp", VAR, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^$stack0+10", VAR, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^$stack1-10", VAR, -EINVAL)
TPP_CASE_OK(X86, "r vfs_read $retval")
TPP_CASE_K(X86, "p vfs_read +10(^$comm)", DEREF_VALUE, -EINVAL)
TPP_CASE_K(X86, "p vfs_read $comm:^x64", NEED_STRING, -EINVAL)
TPP_CASE_K(X86, "p vfs_read $stack:^string", STRING_SRC, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(%ax)^+10", FETCHARG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +u0(%di)^x", FETCHARG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(+8(%di)^x)", FETCHARG, -EINVAL)
/* a value ends at the last ) */
TPP_CASE_K(X86, "p vfs_read a=-8(^%di))", REG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(^%nope)junk", REG, -EINVAL)
/* a bad OFFS is refused as it parses, with the caret on the OFFS */
TPP_CASE_K(X86, "p vfs_read @sym^+1-1", MEM_ADDR, -EINVAL)
TPP_CASE_K(X86, "p vfs_read a=$stack @jiffies^+zz", MEM_ADDR, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +8(@jiffies^-0x)", MEM_ADDR, -EINVAL)

/* test.d/kprobe/kretprobe_maxactive.tc */
TPP_CASE_K(X86, "a:myprobeaccept inet_csk_accept", NONE, -ECANCELED)
TPP_CASE_K(X86, "r^1000000:myprobeaccept inet_csk_accept", MAXACT_BIG, -EINVAL)
TPP_CASE_K(X86, "r^10fuzz:myprobeaccept inet_csk_accept", MAXACT, -EINVAL)
TPP_CASE_K(X86, "r^0 vfs_read", MAXACT, -EINVAL)
TPP_CASE_K(X86, "r^4097 vfs_read", MAXACT_BIG, -EINVAL)
TPP_CASE_K(X86, "r^4294967296 vfs_read", MAXACT, -EINVAL)
TPP_CASE_K(X86, "r^" NUM65 ":x vfs_read", MAXACT, -EINVAL)
TPP_CASE_K(X86, "p^1:ev vfs_read", MAXACT_ON_ENTRY, -EINVAL)

/* test.d/kprobe/probepoint.tc */
TPP_CASE_OK(X86, "p:testprobe tracefs_create_dir")
TPP_CASE_K(X86, "p:testprobe ^tracefs_create_dir-16", PLACE, -EINVAL)
TPP_CASE_K(X86, "p:testprobe ^tracefs_create_dir+0xfffffffffffffff0", PLACE, -EINVAL)
TPP_CASE_K(X86, "p:testprobe ^tracefs_create_dir+0x100000000", PLACE, -EINVAL)

/* test.d/kprobe/uprobe_syntax_errors.tc: the argument part */
TPP_CASE_A(X86, TPP_USER, NULL, "p /bin/sh:10 ^@+ab", FOFFS, -EINVAL)
TPP_CASE_A(X86, TPP_USER, NULL, "p /bin/sh:10 ^@symbol", SYM_ON_USER, -EINVAL)
TPP_CASE_A(X86, TPP_USER, NULL, "p /bin/sh:10 $stack0:^symstr", TYPE, -EINVAL)
TPP_CASE_A(X86, TPP_USER, NULL, "p /bin/sh:10 $stack0:^symbol", TYPE, -EINVAL)
/* a uprobe line is not a kprobe: dynamic_events asks the next one */
TPP_CASE_K(X86, "p /bin/sh:10", NONE, -ECANCELED)
/* no $arg* expansion for uprobes: it is a bad $argN */
TPP_CASE_A(X86, TPP_USER, NULL, "p /bin/sh:10 ^$arg*", VAR, -EINVAL)
TPP_CASE_A(X86, TPP_USER, NULL, "p /bin/sh:10 ^$arg1", ARGS_PLACE, -EINVAL)
TPP_CASE_A(X86, TPP_USER, NULL, "p /bin/sh:10 ^$retval", RETVAL_ON_ENTRY, -EINVAL)

/* dynevent/fprobe_syntax_errors.tc and tprobe_syntax_errors.tc */
TPP_CASE_N("f:^/bar vfs_read", GROUP_EMPTY)
TPP_CASE_N("f:^" NUM65 "/bar vfs_read", GROUP_LONG)
TPP_CASE_N("f:^foo.1/bar vfs_read", GROUP_CHARS)
TPP_CASE_N("f:^ vfs_read", EVENT_EMPTY)
TPP_CASE_N("f:foo/^" NUM65 " vfs_read", EVENT_LONG)
TPP_CASE_N("f:foo/^bar.1 vfs_read", EVENT_CHARS)
TPP_CASE_N("t:^/bar kfree", GROUP_EMPTY)
TPP_CASE_N("t:^" NUM65 "/bar kfree", GROUP_LONG)
TPP_CASE_N("t:^foo.1/bar kfree", GROUP_CHARS)
TPP_CASE_N("t:^ kfree", EVENT_EMPTY)
TPP_CASE_N("t:foo/^" NUM65 " kfree", EVENT_LONG)
TPP_CASE_N("t:foo/^bar.1 kfree", EVENT_CHARS)
TPP_CASE_A(BTF, TPP_FPROBE | TPP_RETURN, "kfree", "f kfree%return ^$retval", VOID_RETVAL, -ENOENT)
TPP_CASE_A(BTF, TPP_FPROBE | TPP_RETURN, "vfs_read", "f vfs_read%return $retval->^foo", BTF_NOT_PTR,
	   -EINVAL)

/* dynevent/eprobes_syntax_errors.tc: the argument part */
TPP_CASE_N("e:^/bar syscalls/sys_enter_openat", GROUP_EMPTY)
TPP_CASE_N("e:^" NUM65 "/bar syscalls/sys_enter_openat", GROUP_LONG)
TPP_CASE_N("e:^foo.1/bar syscalls/sys_enter_openat", GROUP_CHARS)
TPP_CASE_N("e:^ syscalls/sys_enter_openat", EVENT_EMPTY)
TPP_CASE_N("e:foo/^" NUM65 " syscalls/sys_enter_openat", EVENT_LONG)
TPP_CASE_N("e:foo/^bar.1 syscalls/sys_enter_openat", EVENT_CHARS)

/* place and names */
TPP_CASE_K(X86, "p:grp/^my-ev vfs_read", EVENT_CHARS, -EINVAL)
TPP_CASE_K(X86, "p:grp/^ev:x vfs_read", EVENT_CHARS, -EINVAL)
TPP_CASE_K(X86, "p:^1grp/ev vfs_read", GROUP_CHARS, -EINVAL)
TPP_CASE_K(X86, "p ^trace_printk:nosuch", PLACE, -EINVAL)
TPP_CASE_K(X86, "p ^name_show", SYM_AMBIGUOUS, -EINVAL)
TPP_CASE_K(X86, "p ^dup:dupsym", SYM_AMBIGUOUS, -EINVAL)
TPP_CASE_K(X86, "p vfs_read^%returnx", PLACE_SUFFIX, -EINVAL)
TPP_CASE_K(X86, "p vfs_read+0^%", PLACE_SUFFIX, -EINVAL)
/* but a parameter's name needs the function: refused with a record */
TPP_CASE_K(BTF, "r 0x1000 ^file", BTF_NOSUP, -EINVAL)
TPP_CASE_K(X86, "p 0x1000 ^$retval", RETVAL_ON_ENTRY, -EINVAL)
TPP_CASE_K(X86, "p 0x1000 ^@entry(%di)", ENTRY_ON_PROBE, -EINVAL)
TPP_CASE_K(X86, "p ^0x1000%return", PLACE, -EINVAL)
TPP_CASE_K(X86, "p", NONE, -ECANCELED)
TPP_CASE_K(X86, "", NONE, -ECANCELED)
TPP_CASE_K(X86, "x vfs_read", NONE, -ECANCELED)
TPP_CASE_K(X86, "-:ev", NONE, -ECANCELED)

/* vars */
/* without BTF nothing may follow $retval: "$retvalue" is not $retval */
TPP_CASE_K(X86, "r vfs_read ^$retvalue", VAR, -EINVAL)
TPP_CASE_K(X86, "r vfs_read x=^$retval2", VAR, -EINVAL)
TPP_CASE_K(X86, "r vfs_read ^$retval->f_mode", BTF_NOSUP, -EOPNOTSUPP)
TPP_CASE_K(X86, "r vfs_read ^$retval.x", BTF_NOSUP, -EOPNOTSUPP)
TPP_CASE_K(BTF, "r 0x1000 ^$retval->f_mode", BTF_NOSUP, -EOPNOTSUPP)
TPP_CASE_A(X86, TPP_USER | TPP_RETURN, NULL, "r /bin/sh:10 ^$retvalue", VAR, -EINVAL)
TPP_CASE_A(X86, TPP_USER | TPP_RETURN, NULL, "r /bin/sh:10 +0(^$retval->x)", BTF_NOSUP, -EOPNOTSUPP)
TPP_CASE_K(X86, "p vfs_read ^$stack2049", STACK_INDEX, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^$stack99999999999999999999999", VAR, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^$arg0", ARG_INDEX, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^$arg2049", ARG_INDEX, -EINVAL)
TPP_CASE_K(X86, "p vfs_read+4 ^$arg1", ARGS_PLACE, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^$argx", VAR, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^$arg", VAR, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^$", VAR, -EINVAL)
TPP_CASE_K(X86, "p vfs_read a=^$comm[2]", VAR, -EINVAL)
TPP_CASE_K(X86, "p vfs_read a=^%", REG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read+4 ^hoge", BTF_NOSUP, -EINVAL)
/* without BTF there is no expansion, and the last $arg is blamed */
TPP_CASE_K(X86, "p vfs_read $arg* ^$arg1", BTF_NOSUP, -EOPNOTSUPP)
TPP_CASE_K(X86, "p vfs_read a=$arg1 ^$arg0", ARG_INDEX, -EINVAL)

/* regs */
TPP_CASE_K(ARM64, "p vfs_read ^%x31", REG, -EINVAL)
TPP_CASE_K(ARM64, "p vfs_read ^%rdi", REG, -EINVAL)

/* The assembler's names, with their width (a deliberate extension) */
TPP_CASE_K(X86, "p vfs_read +0(^%edi)", REG_PART, -EINVAL)
TPP_CASE_K(X86, "p vfs_read a=+8(+0(^%eax)):u32", REG_PART, -EINVAL)
TPP_CASE_K(X86, "p vfs_read a=+u0^(%r8d):string", REG_PART, -EINVAL)
TPP_CASE_K(X86, "p vfs_read %dil:^symstr", REG_PART, -EINVAL)
TPP_CASE_K(X86, "p vfs_read %ecx:^string", STRING_SRC, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^%r16d", REG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^%r8q", REG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^%r8dd", REG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^%eip", REG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^%w0", REG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read a=^%RDI", REG, -EINVAL)
TPP_CASE_K(ARM64, "p vfs_read ^%w31", REG, -EINVAL)
TPP_CASE_K(ARM64, "p vfs_read ^%wsp", REG, -EINVAL)
TPP_CASE_K(ARM64, "p vfs_read ^%w", REG, -EINVAL)
TPP_CASE_K(ARM64, "p vfs_read ^%w00", REG, -EINVAL)
TPP_CASE_K(ARM64, "p vfs_read ^%edi", REG, -EINVAL)

/* Where $argN is: the calling convention of each arch */
TPP_CASE_K(ARM64, "p vfs_read+4 ^$arg9", ARGS_PLACE, -EINVAL)

/* imm and mem */
TPP_CASE_K(X86, "p vfs_read \\^", IMM, -EINVAL)
TPP_CASE_K(X86, "p vfs_read \\^-", IMM, -EINVAL)
TPP_CASE_K(X86, "p vfs_read \\^--1", IMM, -EINVAL)
TPP_CASE_K(X86, "p vfs_read \\\"^", IMMSTR_OPEN, -EINVAL)
TPP_CASE_K(X86, "p vfs_read \\\"abc\":^u8", NEED_STRING, -EINVAL)
TPP_CASE_K(X86, "p vfs_read \\\"a:^b\"", NEED_STRING, -EINVAL)
TPP_CASE_K(X86, "p vfs_read $comm:^string[2]", NEED_STRING, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^@0x1z", MEM_ADDR, -EINVAL)

/* derefs */
/* after 'u' the caret for the inner value is one byte early (ABI) */
TPP_CASE_K(X86, "p vfs_read +u0^(%nope)", REG, -EINVAL)
/* after a negative offset the caret is on the value at fault */
TPP_CASE_K(X86, "p vfs_read a=+-8(^$nope)", VAR, -EINVAL)
TPP_CASE_K(X86, "p vfs_read a=+u-8(^$nope)", VAR, -EINVAL)
TPP_CASE_K(X86, "p vfs_read a=+-0x10(^$nope):u8", VAR, -EINVAL)
TPP_CASE_K(X86, "p vfs_read a=+-8($stack^", DEREF_OPEN, -EINVAL)
TPP_CASE_K(X86, "p vfs_read a=+-8(^$comm)", DEREF_VALUE, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +u0(+u^0(%nope))", REG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read -0(^%nope)", REG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(^)", FETCHARG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^--1(%ax)", DEREF_OFFS, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^+uu1(%ax)", DEREF_OFFS, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(\\^x)", IMM, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(^\\\"x\")", DEREF_VALUE, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +u0(%ax):^symstr", SYMSTR_SRC, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +u0(%ax):^u8[2]", ARRAY_SRC, -EINVAL)
TPP_CASE_K(X86, "p vfs_read %ax:^u8[2]", ARRAY_SRC, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(%ax):^b4@5/8", BITFIELD, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(%di):^b17@0/16", BITFIELD, -EINVAL)
/* a bitfield's container is 8, 16, 32 or 64; another is a BITFIELD error */
TPP_CASE_K(X86, "p vfs_read +0(%di):^b3@0/24", BITFIELD, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(%di):^b3@0/x", BITFIELD, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(%di):^bogus", TYPE, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +8(+0(%di)):^u7", TYPE, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(^+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(@foo)))))))))))))", TOO_DEEP,
	   -EINVAL)

/* types */
TPP_CASE_K(X86, "p vfs_read %ax:^b4@5/8", BITFIELD, -EINVAL)
/* width + offset may not fit the container by wrapping to 0 */
TPP_CASE_K(X86, "p vfs_read %ax:^b18446744073709551615@1/32", BITFIELD, -EINVAL)
TPP_CASE_K(X86, "p vfs_read %ax:^b1@18446744073709551615/32", BITFIELD, -EINVAL)
/* a width or offset past an unsigned long does not wrap to a small one */
TPP_CASE_K(X86, "p vfs_read +0(%di):^b18446744073709551619@0/16", BITFIELD, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(%di):^b3@18446744073709551616/16", BITFIELD, -EINVAL)
TPP_CASE_K(X86, "p vfs_read +0(%di):^b0x10000000000000003@0/16", BITFIELD, -EINVAL)
TPP_CASE_K(X86, "p vfs_read %ax:^b33@0/32", BITFIELD, -EINVAL)
TPP_CASE_K(X86, "p vfs_read %ax:^b0@0/8", BITFIELD, -EINVAL)
TPP_CASE_K(X86, "p vfs_read %ax:^b4@/8", BITFIELD, -EINVAL)
TPP_CASE_K(X86, "p vfs_read %ax:^b4/8", BITFIELD, -EINVAL)
TPP_CASE_K(X86, "p vfs_read %ax:^b4@0/7", BITFIELD, -EINVAL)
TPP_CASE_K(X86, "p vfs_read %ax:^bogus", TYPE, -EINVAL)
TPP_CASE_K(X86, "p vfs_read %ax:^", TYPE, -EINVAL)
TPP_CASE_K(X86, "p vfs_read %ax:^u8[1]", ARRAY_SRC, -EINVAL)
TPP_CASE_K(X86, "p vfs_read $stack:^symstr", SYMSTR_SRC, -EINVAL)
TPP_CASE_K(X86, "p vfs_read $comm:^symstr", NEED_STRING, -EINVAL)
TPP_CASE_K(X86, "p vfs_read \\1:^symstr", SYMSTR_SRC, -EINVAL)
TPP_CASE_K(X86, "p vfs_read @1:u8[^0]", ARRAY_LEN, -EINVAL)
TPP_CASE_K(X86, "p vfs_read @1:u8[^4294967296]", ARRAY_LEN, -EINVAL)
TPP_CASE_K(X86, "p vfs_read @1:u8[1]^]", ARRAY_SUFFIX, -EINVAL)
TPP_CASE_K(X86, "p vfs_read @1:u8[^65]", ARRAY_BIG, -EINVAL)

/* arg names */
TPP_CASE_K(X86, "p vfs_read arg2=%ax ^%bx", NAME_USED, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^common_pid=%ax", NAME_USED, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^__probe_ip=%ax", NAME_USED, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^1a=%ax", NAME_CHARS, -EINVAL)

/* $current: the task's address, dereferenced by offset or through BTF */
TPP_CASE_K(X86, "p vfs_read ^$currentx", VAR, -EINVAL)
TPP_CASE_K(X86, "p vfs_read ^$curren", VAR, -EINVAL)
TPP_CASE_K(X86, "p vfs_read $current:^string", STRING_SRC, -EINVAL)
TPP_CASE_K(X86, "p vfs_read $current:^symstr", SYMSTR_SRC, -EINVAL)
TPP_CASE_A(X86, TPP_USER, NULL, "p /bin/sh:10 ^$current", VAR, -EINVAL)
/* not even BTF for it: at an address, "->" needs BTF */
TPP_CASE_K(X86, "p 0x1000 ^$current->f_name", BTF_NOSUP, -EOPNOTSUPP)
TPP_CASE_K(BTF, "p vfs_read $current->^nope", BTF_NOFIELD, -ENOENT)
TPP_CASE_K(BTF, "p vfs_read $current^.f_bits", BTF_DOT_ARG, -EOPNOTSUPP)
TPP_CASE_K(BTF, "p vfs_read $current^-f_bits", BTF_HYPHEN, -EINVAL)

/* @entry(VALUE): VALUE read at the function entry, kept for the exit */
/* only a return probe has an entry to read it at */
TPP_CASE_K(X86, "p vfs_read a=^@entry($arg1)", ENTRY_ON_PROBE, -EINVAL)
TPP_CASE_K(X86, "r vfs_read a=@entry($arg1^", ENTRY_CLOSE, -EINVAL)
TPP_CASE_K(X86, "r vfs_read a=@entry($arg1)+8^:u8", ENTRY_CLOSE, -EINVAL)
TPP_CASE_K(X86, "r vfs_read a=@entry(^)", FETCHARG, -EINVAL)
TPP_CASE_K(X86, "r vfs_read a=@entry(^$retval)", RETVAL_ON_ENTRY, -EINVAL)
TPP_CASE_K(X86, "r vfs_read a=+0(^@entry($arg1))", ENTRY_PLACE, -EINVAL)
TPP_CASE_K(X86, "r vfs_read a=@entry(^@entry($arg1))", ENTRY_PLACE, -EINVAL)
/* carets map back through both rewrites: @entry($argN), then :%pD */
TPP_CASE_K(BTF, "r longfunc ^@entry($arg1):%pD", ARG_LONG, -E2BIG)
TPP_CASE_K(BTF, "r longfunc @entry($arg1):^u128", TYPE, -EINVAL)
/* what follows @entry(...)'s own ')' is junk, as after +0(...) */
TPP_CASE_K(X86, "r vfs_read @entry(%di)^@entry(%si)", FETCHARG, -EINVAL)
TPP_CASE_K(X86, "r vfs_read a=@entry(+0(%di))^(%si)", FETCHARG, -EINVAL)
/* at an exit, $argN is the word the entry saved, as @entry($argN) is */
TPP_CASE_OK(X86, "r vfs_read $arg1:symstr")
TPP_CASE_OK(X86, "r vfs_read @entry(%di):symstr")
TPP_CASE_K(X86, "r vfs_read +u0($arg1):^symstr", SYMSTR_SRC, -EINVAL)
TPP_CASE_K(X86, "r vfs_read a=@entry($arg1):^nope", TYPE, -EINVAL)
TPP_CASE_K(X86, "r vfs_read a=@entry(%ax):^string", STRING_SRC, -EINVAL)
TPP_CASE_K(X86, "r vfs_read a=@entry(^$arg10000)", ARG_INDEX, -EINVAL)
TPP_CASE_K(BTF, "r vfs_read @entry($arg3):^nope", TYPE, -EINVAL)
TPP_CASE_K(BTF, "r vfs_read @entry(^$arg9)", BTF_NOVAR, -ENOENT)
TPP_CASE_K(BTF, "r vfs_read @entry(^$arg0)", ARG_INDEX, -EINVAL)
TPP_CASE_K(BTF, "r vfs_read @entry(^$arg4294967297)", ARG_INDEX, -EINVAL)
TPP_CASE_K(BTF, "r vfs_read @entry($arg1)+8^:u8", ENTRY_CLOSE, -EINVAL)
TPP_CASE_K(BTF, "r vfs_read file ^@entry($arg1)", NAME_USED, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read ^@entry($arg1)", ENTRY_ON_PROBE, -EINVAL)
TPP_CASE_K(X86, "r dput n=@entry(^%nope):%pd", REG, -EINVAL)
TPP_CASE_K(X86, "p dput n=^@entry($arg1):%pd", ENTRY_ON_PROBE, -EINVAL)
TPP_CASE_A(X86, TPP_USER, NULL, "p /bin/sh:10 ^@entry(%ax)", ENTRY_ON_PROBE, -EINVAL)
TPP_CASE_A(X86, TPP_EVENT, NULL, "e:a/b sys/ev ^@entry($comm)", ENTRY_ON_PROBE, -EINVAL)

/* this_cpu_ptr() and this_cpu_read(): per-CPU values, kernel probes only */
TPP_CASE_K(X86, "p vfs_read a=this_cpu_read(%di^", DEREF_OPEN, -EINVAL)
/* nothing after the ')' (it is no + or - of a dereference) */
TPP_CASE_K(X86, "p vfs_read this_cpu_read(@jiffies)^+8", FETCHARG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read this_cpu_ptr(@jiffies)^garbage", FETCHARG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read a=this_cpu_ptr(^%edi)", REG_PART, -EINVAL)
TPP_CASE_K(X86, "p vfs_read a=this_cpu_ptr(^$comm)", DEREF_VALUE, -EINVAL)
TPP_CASE_K(X86, "p vfs_read a=this_cpu_ptr(^%nope)", REG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read a=this_cpu_ptr(%di):^u8[2]", ARRAY_SRC, -EINVAL)
TPP_CASE_A(X86, TPP_USER, NULL, "p /bin/sh:10 a=^this_cpu_read(%ax)", NOSUP_PERCPU, -EINVAL)
TPP_CASE_A(X86, TPP_EVENT, NULL, "e:a/b sys/ev a=^this_cpu_ptr($dfd)", NOSUP_PERCPU, -EINVAL)
/* at a return, and read at the entry */
TPP_CASE_OK(X86, "r vfs_read this_cpu_read(@jiffies) @entry(this_cpu_read(@jiffies))")

/* (STRUCT[,MEMBER])TARGET->FIELD: BTF typecasts */
/* the typecast cases of kprobe_syntax_errors.tc, on the fake struct file */
TPP_CASE_K(BTF, "p vfs_read arg1=(file)file^", TYPECAST_REQ_FIELD, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read arg1=(a)((b)((c)(^(d)file->d)->c)->b)->a", TOO_MANY_NESTED, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read arg1=(file,^f_bits)file->f_mode", TYPECAST_NOT_ALIGNED, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read arg1=(file,^foo_bar)file->f_mode", BTF_NOFIELD, -ENOENT)
/* an unknown type: its own text, as "not a pointer" would mislead */
TPP_CASE_K(BTF, "p vfs_read arg1=(^file1234)file->f_mode", TYPECAST_NO_STRUCT, -EINVAL)
/* a nested typecast without its own "->": at that typecast */
TPP_CASE_K(BTF, "p vfs_read (file)^(file)$arg1->f_mode", TYPECAST_REQ_FIELD, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read (file)(^(file)$arg1)->f_mode", TYPECAST_REQ_FIELD, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read arg1=(file,f_mode^->x)file->f_name", TYPECAST_BAD_ARROW, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read arg1=(file,^->f_mode)file->f_name", BTF_NOFIELD, -ENOENT)
TPP_CASE_K(BTF, "p vfs_read arg1=(file,^.f_mode)file->f_name", BTF_NOFIELD, -ENOENT)
TPP_CASE_K(BTF, "p vfs_read arg1=(file)^@jiffies+10->f_mode", TYPECAST_SYM_OFFSET, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read arg1=(file)%di->^nope", BTF_NOFIELD, -ENOENT)
TPP_CASE_K(BTF, "p vfs_read arg1=(file)^%edi->f_mode", REG_PART, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read arg1=(file)^$comm->f_mode", DEREF_VALUE, -EINVAL)
TPP_CASE_K(X86, "p vfs_read a=^(file)%di->f_mode", BTF_NOSUP, -EOPNOTSUPP)
TPP_CASE_A(BTF, TPP_USER, NULL, "p /bin/sh:10 a=^(file)%di->f_mode", BTF_NOSUP, -EOPNOTSUPP)
/* not a typecast: what it was before */
TPP_CASE_K(BTF, "p vfs_read a=^(%di)->f_mode", FETCHARG, -EINVAL)
/* any place, and inside @entry(); an eprobe's field without '$' */
TPP_CASE_OK(BTF, "p vfs_read+8 a=(file)%di->f_mode")
TPP_CASE_OK(BTF, "r vfs_read a=@entry((file)file->f_name):string")

/* whole structures: "*EXPR" (kprobetrace.rst "Whole structures") */
TPP_CASE_OK(BTF, "p vfs_read f=*file")
TPP_CASE_OK(BTF, "p vfs_read p=*file->f_path")
TPP_CASE_OK(BTF, "p vfs_read f=*(file)%di")
TPP_CASE_OK(BTF, "p vfs_read+8 f=*(file)%di")
TPP_CASE_OK(BTF, "r vfs_read f=@entry(*file)")
TPP_CASE_K(BTF, "p vfs_read m=*file->^f_mode", WHOLE_NOT_STRUCT, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read c=*^count", WHOLE_NOT_STRUCT, -EINVAL)
TPP_CASE_K(BTF, "r vfs_read r=*^$retval", WHOLE_NOT_STRUCT, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read t=*^$current", EVENT_BIG, -E2BIG)
/* with 3072 bytes recorded already, a structure is too many */
TPP_CASE_K(BTF, "p vfs_read " FILL1536 FILL1536 "f=*^file", EVENT_BIG, -E2BIG)
TPP_CASE_K(BTF, "p vfs_read f=*file:^u32", WHOLE_TYPE, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read f=*^%di", WHOLE_NO_BTF, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read f=*^+0(%di)", WHOLE_NO_BTF, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read f=*^", FETCHARG, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read f=+0(^*file)", FETCHARG, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read f=*^*file", FETCHARG, -EINVAL)
TPP_CASE_K(X86, "p vfs_read f=*^file", BTF_NOSUP, -EOPNOTSUPP)
TPP_CASE_K(BTF, "p vfs_read f=*^@entry(file)", ENTRY_PLACE, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read f=*^$arg1", WHOLE_NO_BTF, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read f=*^@jiffies", WHOLE_NO_BTF, -EINVAL)

/* btf */
TPP_CASE_K(BTF, "p vfs_read ^$arg1x", VAR, -ENOENT)
TPP_CASE_K(BTF, "p vfs_read ^$arg0", ARG_INDEX, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read ^$arg4294967296", ARG_INDEX, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read ^$arg4294967295", ARG_INDEX, -EINVAL)
/* an N that wraps is no index either: $arg4294967297 is not $arg1 */
TPP_CASE_K(BTF, "p vfs_read ^$arg4294967297", ARG_INDEX, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read ^$arg18446744073709551617", ARG_INDEX, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read ^$arg2147483648:u8", ARG_INDEX, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read ^$arg2147483647", BTF_NOVAR, -ENOENT)
TPP_CASE_K(BTF, "p longfunc ^$arg*", ARGS_LONG, -E2BIG)
TPP_CASE_K(BTF, "p noparams ^$arg*", BTF_NOSUP, -EOPNOTSUPP)
TPP_CASE_K(BTF, "p nobtf ^$arg*", BTF_NOSUP, -EOPNOTSUPP)
TPP_CASE_K(BTF, "p nobtf ^foo", BTF_NOFUNC, -ENOENT)
TPP_CASE_K(BTF, "p vfs_read file->^f_mode:string", BTF_STRTYPE, -EINVAL)
/* a type error after a member: at the type */
TPP_CASE_K(BTF, "p vfs_read file->f_mode:^symstr[1]", STRING_SRC, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read file->f_mode:^b9@0/8", BITFIELD, -EINVAL)
TPP_CASE_K(BTF, "p vfs_read +8(file->f_mode):^b9@0/8", BITFIELD, -EINVAL)

/* dentry */
/* the limit applies to the rewritten text */
TPP_CASE_K(X86, "p dput ^+1234567(+1234567(+1234567(+1234567($stack)))):%pd", ARG_LONG, -E2BIG)
/* carets are mapped back into the written argument */
TPP_CASE_K(X86, "p dput ^%nope:%pd", REG, -EINVAL)
TPP_CASE_K(X86, "p dput a=^%nope:%pD", REG, -EINVAL)
TPP_CASE_K(X86, "p dput a=%ax:^u8:%pd", TYPE, -EINVAL)
TPP_CASE_K(X86, "p dput $stack:u8[2]^:%pd", ARRAY_SUFFIX, -EINVAL)

/* wprobes: the watch, then what the accessing instruction has to give */
TPP_CASE_WOK(X86, "w w@jiffies")
TPP_CASE_WOK(X86, "w:grp/ev r@panic_timeout:4 v=+0($addr):s32 $comm")
TPP_CASE_WOK(X86, "w @0xffff888000001000:8 $addr +0($addr):x64")
TPP_CASE_WOK(ARM64, "w:ev rw@jiffies:8 $value @panic_timeout")
TPP_CASE_WOK(X86, "w:ev w@jiffies-8:2 +0(@linux_proc_banner):string")
TPP_CASE_WOK(X86, "w:ev w@trace_printk:trace_printk_irq_work+8:2")
/* a ':' of MOD:SYM is no length */
TPP_CASE_WOK(X86, "w:ev w@trace_printk:trace_printk_irq_work")
TPP_CASE_WOK(BTF, "w:ev w@jiffies $current->f_mode (file)$addr->f_mode")
TPP_CASE_WOK(X86, "w:ev w@-1:8 +0($addr):u64")
TPP_CASE_WOK(ARM64, "w rw@-1")
TPP_CASE_W(X86, "w:ev w@^-2", WATCH_SIGN, -EINVAL)
TPP_CASE_W(X86, "w @^-2", WATCH_SIGN, -EINVAL)
TPP_CASE_W(X86, "w @^+8", WATCH_SIGN, -EINVAL)
TPP_CASE_W(X86, "w:ev w@^-1+8", WATCH_SIGN, -EINVAL)
TPP_CASE_W(X86, "w:ev w@-1:^5", WATCH_LEN, -EINVAL)
TPP_CASE_W(X86, "w:ev ^jiffies", WATCH_SPEC, -EINVAL)
TPP_CASE_W(X86, "w:ev ^x@jiffies", WATCH_ACCESS, -EINVAL)
TPP_CASE_W(X86, "w:ev ^wr@jiffies", WATCH_ACCESS, -EINVAL)
TPP_CASE_W(X86, "w:ev w@jiffies:^3", WATCH_LEN, -EINVAL)
TPP_CASE_W(X86, "w:ev w@jiffies:^16", WATCH_LEN, -EINVAL)
TPP_CASE_W(X86, "w:ev w@jiffies:^", WATCH_LEN, -EINVAL)
/* a length that is not decimal digits, or one too many, is no MOD:SYM */
TPP_CASE_W(X86, "w w@jiffies:^0x8", WATCH_LEN, -EINVAL)
TPP_CASE_W(X86, "w w@jiffies:^+8", WATCH_LEN, -EINVAL)
TPP_CASE_W(X86, "w w@jiffies:^-8", WATCH_LEN, -EINVAL)
TPP_CASE_W(X86, "w w@jiffies:^8:8", WATCH_LEN, -EINVAL)
TPP_CASE_W(X86, "w w@trace_printk:trace_printk_irq_work:^4:8", WATCH_LEN, -EINVAL)
TPP_CASE_W(X86, "w:ev w@^nosuch", SYM_UNKNOWN, -ENOENT)
TPP_CASE_W(X86, "w:ev w@^nosuch:4", SYM_UNKNOWN, -ENOENT)
TPP_CASE_W(X86, "w:ev w@^nomod:var", SYM_UNKNOWN, -ENOENT)
TPP_CASE_W(X86, "w:ev w@^name_show", SYM_AMBIGUOUS, -EINVAL)
TPP_CASE_W(X86, "w:ev w@jiffies^+x", PLACE, -EINVAL)
TPP_CASE_W(X86, "w:ev w@^0xzz", PLACE, -EINVAL)
TPP_CASE_W(X86, "w:ev rw@^:4", PLACE, -EINVAL)
TPP_CASE_W(X86, "w:ev w@^", PLACE, -EINVAL)
TPP_CASE_W(X86, "w:^ w@jiffies", EVENT_EMPTY, -EINVAL)
TPP_CASE_W(X86, "w:^1ev w@jiffies", EVENT_CHARS, -EINVAL)
TPP_CASE_W(X86, "w:ev w@jiffies ^$arg1", ARGS_PLACE, -EINVAL)
TPP_CASE_W(BTF, "w:ev w@jiffies ^$arg*", ARGS_PLACE, -EINVAL)
TPP_CASE_W(X86, "w:ev w@jiffies ^$retval", RETVAL_ON_ENTRY, -EINVAL)
TPP_CASE_W(X86, "w:ev w@jiffies ^@entry($addr)", ENTRY_ON_PROBE, -EINVAL)
TPP_CASE_W(BTF, "w:ev w@jiffies ^file", BTF_NOSUP, -EINVAL)
TPP_CASE_W(X86, "w:ev w@jiffies ^$addrx", VAR, -EINVAL)
TPP_CASE_W(X86, "w:ev w@jiffies ^$stack99999999", WATCH_REGS, -EINVAL)
TPP_CASE_W(X86, "w:ev w@jiffies ^$stack", WATCH_REGS, -EINVAL)
TPP_CASE_W(X86, "w:ev w@jiffies ^%ax", WATCH_REGS, -EINVAL)
TPP_CASE_W(X86, "w:ev w@jiffies a=+8(^%sp)", WATCH_REGS, -EINVAL)
TPP_CASE_W(ARM64, "w:ev w@jiffies ^%x0", WATCH_REGS, -EINVAL)
TPP_CASE_W(X86, "^w", NO_PLACE, -EINVAL)
TPP_CASE_W(X86, "^w:ev", NO_PLACE, -EINVAL)
TPP_CASE_W(X86, "w^10 w@jiffies", MAXACT_ON_ENTRY, -EINVAL)
TPP_CASE_W(X86, "w:ev w@jiffies a=$addr ^a=$comm", NAME_USED, -EINVAL)
TPP_CASE_W(X86, "wx:ev w@jiffies", NONE, -ECANCELED)
TPP_CASE_W(X86, "p:ev vfs_read", NONE, -ECANCELED)
/* $addr is a wprobe's only */
TPP_CASE_K(X86, "p vfs_read ^$addr", VAR, -EINVAL)
