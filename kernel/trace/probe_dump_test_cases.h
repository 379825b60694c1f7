/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cases of the fetch program dump (probe_prog_dump_arg()): a kprobe
 * definition, parsed against env_x86 of trace_probe_test_env.c and
 * compiled, and the comment lines its arguments dump to, one after the
 * other.  trace_probe_kunit.c and the user-space unit tests run them; one
 * macro a case:
 *
 *   TPP_DUMP(CMD, TEXT)
 *
 * No include guard: the file is an initializer, included once per table.
 */

TPP_DUMP("p vfs_read a=%di:x64",
	 "#  a: ST_REG(112,at=16,size=8) -> END\n")
TPP_DUMP("p vfs_read a=+8(%di):u32 b=+0(+0x10(%di)):x64",
	 "#  a: REG(112) -> ST_MEM(+8,at=16,size=4) -> END\n"
	 "#  b: REG(112) -> DEREF(+16) -> ST_MEM(+0,at=20,size=8) -> END\n")
TPP_DUMP("p vfs_read s=+0(%si):string u=+0(%si):ustring c=$comm k=\\\"abc\"",
	 "#  s: size: REG(104) -> SZ_STR(+0) -> END\n"
	 "#  s: CACHED(at=16,skip=2) -> REG(104) -> ST_STR(+0,at=16,size=4) -> END\n"
	 "#  u: size: REG(104) -> SZ_USTR(+0) -> END\n"
	 "#  u: CACHED(at=20,skip=2) -> REG(104) -> ST_USTR(+0,at=20,size=4) -> END\n"
	 "#  c: size: SZ_COMM -> END\n"
	 "#  c: ST_COMM(at=24,size=4) -> END\n"
	 "#  k: ST_CONST(at=28,size=4) -> END\n")
TPP_DUMP("p vfs_read i=\\1 j=@jiffies k=@jiffies+8:u32 s=$stack2 p=$stack a=$arg2",
	 "#  i: IMM(0x1) -> ST_RAW(at=16,size=8) -> END\n"
	 "#  j: IMM(@jiffies) -> ST_MEM(+0,at=24,size=8) -> END\n"
	 "#  k: IMM(@jiffies+8) -> ST_MEM(+0,at=32,size=4) -> END\n"
	 "#  s: STACK(2) -> ST_RAW(at=36,size=8) -> END\n"
	 "#  p: STACKP -> ST_RAW(at=44,size=8) -> END\n"
	 "#  a: ST_REG(104,at=52,size=8) -> END\n")
TPP_DUMP("p vfs_read a=+0x18(%di):b3@2/32 b=+0x48(%di):u16[4] e=%edi",
	 "#  a: REG(112) -> ST_MEM(+24,at=16,size=4) -> BITFIELD(at=16,size=4,lshift=59,rshift=61) -> END\n"
	 "#  b: REG(112) -> ST_MEM(+72,at=20,size=2,count=4) -> END\n"
	 "#  e: REG(112) -> ST_SUBREG(at=28,size=4,bytes=4,shift=0) -> END\n")
TPP_DUMP("p vfs_read a=+0(%sp):u64 b=+8(%sp):u64 c=+16(%sp):u64",
	 "#  a: REG(152) -> ST_MEM(+0,at=16,size=8,count=3) -> END\n"
	 "#  b: JOINED(a) -> END\n"
	 "#  c: JOINED(a) -> END\n")
TPP_DUMP("p vfs_read y=+0(%di):symstr c=$current s=+0(%si):string[2]",
	 "#  y: size: REG(112) -> DEREF(+0) -> SZ_SYMSTR -> END\n"
	 "#  y: REG(112) -> DEREF(+0) -> ST_SYMSTR(at=16,size=4) -> END\n"
	 "#  c: CURRENT -> ST_RAW(at=20,size=8) -> END\n"
	 "#  s: size: REG(104) -> SZ_STRS(+0,count=2) -> END\n"
	 "#  s: REG(104) -> ST_STRS(+0,at=28,count=2) -> END\n")
TPP_DUMP("r vfs_read r=$retval e=@entry(%di):x64 s=@entry(+0(%si)):string",
	 "#  r: RETVAL -> ST_RAW(at=24,size=8) -> END\n"
	 "#  e: entry: ST_REG(112,at=0,size=8) -> END\n"
	 "#  e: ECOPY(from=0,at=32,size=8) -> END\n"
	 "#  s: entry: ROOM(256) -> REG(104) -> ST_STR(+0,at=8,size=4) -> END\n"
	 "#  s: size: SZ_ECOPY(from=8) -> END\n"
	 "#  s: ECOPY(from=8,at=40,size=4) -> END\n")
TPP_DUMP("r vfs_read a=$arg1 b=+8($arg2):u32",
	 "#  a: EDATA(0) -> ST_RAW(at=24,size=8) -> END\n"
	 "#  b: EDATA(1) -> ST_MEM(+8,at=32,size=4) -> END\n")
TPP_DUMP("p vfs_read a=+u8(%di):u32 b=+0(+u8(%di)):u64 c=this_cpu_ptr(@jiffies):x64",
	 "#  a: REG(112) -> ST_UMEM(+8,at=16,size=4) -> END\n"
	 "#  b: REG(112) -> UDEREF(+8) -> ST_MEM(+0,at=20,size=8) -> END\n"
	 "#  c: IMM(@jiffies) -> PERCPU -> ST_RAW(at=28,size=8) -> END\n")
TPP_DUMP("p vfs_read a=+u0(%si):ustring[2] b=$arg7",
	 "#  a: size: REG(104) -> SZ_USTRS(+0,count=2) -> END\n"
	 "#  a: REG(104) -> ST_USTRS(+0,at=16,count=2) -> END\n"
	 "#  b: STACK(1) -> ST_RAW(at=24,size=8) -> END\n")
