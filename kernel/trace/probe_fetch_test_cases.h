/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cases of the fetch programs (probe_fetch.c): a kprobe definition, parsed
 * against env_x86 of trace_probe_test_env.c, compiled and run on registers
 * pointing at a struct tpp_fetch_world, and the arguments its record
 * prints.  trace_probe_kunit.c runs them on the kernel's memory accessors,
 * the user-space unit tests on a fake machine; one macro a case:
 *
 *   TPP_FETCH(CMD, PRINT)
 *
 * No include guard: the file is an initializer, included once per table.
 */

/* scalars in memory, of each size and sign */
TPP_FETCH("p vfs_read +0(%di):x64 +0(%di):u64",
	  " arg1=0x1122334455667788 arg2=1234605616436508552")
TPP_FETCH("p vfs_read +0x18(%di):u32 +0x1c(%di):s32 +0x18(%di):x8",
	  " arg1=181 arg2=-100 arg3=0xb5")
TPP_FETCH("p vfs_read %cx:s32 %cx:x16 %r8:u16", " arg1=-100 arg2=0xff9c arg3=4660")
/* dereference chains */
TPP_FETCH("p vfs_read +0(+0x10(%di)):x64 +0x18(+0x10(+0x10(%di))):u32",
	  " arg1=0x1122334455667788 arg2=181")
/* strings, through a pointer, in place, empty */
TPP_FETCH("p vfs_read +0(%si):string +0(+8(%di)):string +0x30(%di):string",
	  " arg1=\"hello\" arg2=\"hello\" arg3=\"comm_in_file\"")
TPP_FETCH("p vfs_read s=+0x50(%di):string", " s=\"\"")
/* a bitfield and an array */
TPP_FETCH("p vfs_read +0x18(%di):b3@2/32 +0x18(%di):b1@0/8",
	  " arg1=5 arg2=1")
TPP_FETCH("p vfs_read +0x48(%di):u16[4] +0x48(%di):x16[2]",
	  " arg1={1,2,3,4} arg2={0x1,0x2}")
/* immediates */
TPP_FETCH("p vfs_read \\1 \\-5:s32 \\\"abc\"",
	  " arg1=0x1 arg2=-5 arg3=\"abc\"")
/*
 * A value that faults is recorded as 0, a string as "(fault)", and the
 * other arguments as they are
 */
TPP_FETCH("p vfs_read +0(%dx):u64 +0(%dx):string +0x18(%di):u32",
	  " arg1=0 arg2=(fault) arg3=181")
TPP_FETCH("p vfs_read +0(+0x40(%di)):u32 +4(+0x40(%di)):string",
	  " arg1=0 arg2=(fault)")
