// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kernel/trace/probe_fetch.c: parse a definition with the
 * committed parser, compile it, run it against fake registers and a fake
 * address space with faulting holes (fake_mem.c), and compare the record,
 * the printed arguments and the print fmt with what 6.12 produces.
 *
 * Each case gives the expected record (after the probe's header) in a small
 * spec, fields separated by '|':
 *
 *	u8:V u16:V u32:V u64:V	a field, little-endian (V may be negative)
 *	loc:LEN@OFF		a __data_loc word
 *	s:TEXT			dynamic data: TEXT and its NUL
 *
 * and on every case checks the invariants: the bytes stored are the bytes
 * sized, every __data_loc lies inside the record, printing reads nothing
 * outside it (ASan: the record is allocated at its exact size), and the hit
 * allocates nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kshim.h"
#include "trace_probe.h"
#include "probe_fetch.h"
#include "trace_probe_test_env.h"
#include "fake_mem.h"

long kshim_fail_countdown;
long kshim_allocs;

static int tests, failures;

#define CHECK(cond) check(!!(cond), #cond, __LINE__)

static bool check(bool ok, const char *what, int line)
{
	tests++;
	if (!ok) {
		failures++;
		fprintf(stderr, "probe_fetch_test.c:%d: FAIL: %s\n", line, what);
	}
	return ok;
}

/* ---- The fake machine every case runs on ---- */

#define KBASE	0xffff888000001000UL	/* 2 kernel pages */
#define KHOLE	0xffff888000003000UL	/* never mapped */
#define KEDGE	0xffff888000004000UL	/* 1 kernel page, a hole after */
#define KLONG	0xffff888000010000UL	/* 2 pages of 'x', no NUL */
#define UBASE	0x00007f0000001000UL	/* 1 user page, a hole after */
#define ULONGS	0x00007f0000010000UL	/* 2 pages of 'y', no NUL */
#define KS	(KBASE + 0x100)		/* a struct, see world() */
#define K_PATH	KBASE
#define K_HELLO	(KBASE + 0x20)
#define K_EMPTY	(KBASE + 0x40)
#define K_SELF	(KBASE + 0x500)		/* points to itself */
#define K_CROSS	(KBASE + 0xff8)		/* "crosspage", over a page boundary */
#define K_TAIL	(KBASE + 0x1ff8)	/* u32 1, u32 2, then the hole */
#define K_EDGE	(KEDGE + 0xffc)		/* "abcd", then the hole */
#define U_STR	(UBASE + 0x20)
#define U_EMPTY	(UBASE + 0x80)
#define U_VAL	(UBASE + 0x100)
#define U_PTRS	(UBASE + 0x200)		/* U_STR, U_EMPTY */
#define U_EDGE	(UBASE + 0xffe)		/* "xy", then the hole */
#define SP	(FAKE_STACK_TOP - 0x100)

static struct pt_regs regs;

static void put64(unsigned long addr, unsigned long v)
{
	memcpy(fake_mem_at(addr), &v, sizeof(v));
}

static void put32(unsigned long addr, unsigned int v)
{
	memcpy(fake_mem_at(addr), &v, sizeof(v));
}

static void puts_at(unsigned long addr, const char *s, size_t len)
{
	memcpy(fake_mem_at(addr), s, len);
}

static void world_memory(void)
{
	fake_mem_reset();
	fake_mem_map(KBASE, 2 * FAKE_PAGE, false);
	fake_mem_map(KEDGE, FAKE_PAGE, false);
	memset(fake_mem_map(KLONG, 2 * FAKE_PAGE, false), 'x', 2 * FAKE_PAGE);
	fake_mem_map(UBASE, FAKE_PAGE, true);
	memset(fake_mem_map(ULONGS, 2 * FAKE_PAGE, true), 'y', 2 * FAKE_PAGE);
	fake_mem_map(FAKE_STACK_TOP - 4 * FAKE_PAGE, 4 * FAKE_PAGE, false);
	fake_mem_map(FAKE_DATA, FAKE_PAGE, false);
	fake_mem_map(FAKE_TEXT, FAKE_PAGE, false);
}

static void world_struct(void)
{
	put64(KS, 0x1122334455667788UL);
	put64(KS + 0x08, K_PATH);
	put64(KS + 0x10, U_STR);
	put32(KS + 0x18, 0xb5);			/* BTF f_bits */
	put64(KS + 0x20, K_HELLO);		/* BTF f_name */
	puts_at(KS + 0x30, "comm_in_file", 13);	/* BTF f_comm */
	put64(KS + 0x40, KS);
	puts_at(KS + 0x48, "test", 4);
	put64(KS + 0x50, FAKE_TEXT + 0x10);
	put64(KS + 0x58, K_PATH);
	put64(KS + 0x60, K_HELLO);
	put64(KS + 0x68, KHOLE);
	put64(KS + 0x70, KHOLE);
	puts_at(KS + 0x78, "\xb5\x80\xfe\xff\xf0\xff\xff\xff", 8);
	put64(KS + 0x80, U_PTRS);
}

static void world(void)
{
	world_memory();
	world_struct();
	puts_at(K_PATH, "/etc/passwd", 12);
	puts_at(K_HELLO, "hello", 6);
	puts_at(K_CROSS, "crosspage", 10);
	put64(K_SELF, K_SELF);
	put32(K_TAIL, 1);
	put32(K_TAIL + 4, 2);
	puts_at(K_EDGE, "abcd", 4);
	puts_at(U_STR, "user string", 12);
	put32(U_VAL, 0xdeadbeef);
	put64(U_PTRS, U_STR);
	put64(U_PTRS + 8, U_EMPTY);
	puts_at(U_EDGE, "xy", 2);
	put64(SP, 0xffffffff81000123UL);
	put64(SP + 8, 0x77);
	put64(SP + 16, 0x88);
	put64(FAKE_DATA, 0x100000123UL);
	puts_at(FAKE_DATA + 0x40, "tbl", 4);
	puts_at(FAKE_TEXT, "\x0f\x1f\x44", 3);
	strcpy(kshim_task.comm, "bash");

	memset(&regs, 0, sizeof(regs));
	*kshim_reg(&regs, KSHIM_REG_DI) = KS;
	*kshim_reg(&regs, KSHIM_REG_SI) = K_PATH;
	*kshim_reg(&regs, KSHIM_REG_DX) = U_STR;
	*kshim_reg(&regs, KSHIM_REG_CX) = -100UL;
	*kshim_reg(&regs, KSHIM_REG_R8) = FAKE_TEXT + 0x10;
	*kshim_reg(&regs, KSHIM_REG_R9) = 6;
	*kshim_reg(&regs, KSHIM_REG_AX) = 3;
	*kshim_reg(&regs, KSHIM_REG_SP) = SP;
	*kshim_reg(&regs, 40) = KHOLE;		/* %bx */
	*kshim_reg(&regs, 56) = U_EDGE;		/* %r10 */
	*kshim_reg(&regs, 48) = K_EDGE;		/* %r11 */
	*kshim_reg(&regs, 24) = U_EMPTY;	/* %r12 */
	*kshim_reg(&regs, 16) = K_CROSS;	/* %r13 */
	*kshim_reg(&regs, 8) = K_SELF;		/* %r14 */
}

/* ---- Running one probe ---- */

struct hit {
	struct tpp_def *def;
	struct probe_prog *prog;
	unsigned char *rec;
	unsigned int size;
	unsigned int dyn;
	struct trace_seq seq;
	unsigned long edata[TPP_MAX_ENTRY_DATA / sizeof(long) + 8];
};

static struct probe_prog *compile(const struct tpp_env *env, const char *cmd,
				  struct hit *h, int line)
{
	struct tpp_error err;

	memset(h, 0, sizeof(*h));
	h->def = tpp_parse_kprobe(cmd, env, &err);
	if (!check(!IS_ERR(h->def), "parses", line)) {
		fprintf(stderr, "  '%s': error %d at %u\n", cmd, err.id, err.pos);
		h->def = NULL;
		return NULL;
	}
	h->prog = probe_prog_compile(h->def, h->def->is_return ? 24 : 16);
	if (!check(!IS_ERR(h->prog), "compiles", line)) {
		h->prog = NULL;
		return NULL;
	}
	check(!probe_prog_resolve_symbols(h->prog, fake_kallsyms_lookup, NULL),
	      "symbols resolve", line);
	return h->prog;
}

static void release(struct hit *h)
{
	probe_prog_free(h->prog);
	tpp_free(h->def);
	free(h->rec);
	h->prog = NULL;
	h->def = NULL;
	h->rec = NULL;
}

/* Every __data_loc lies in the dynamic area, its data ending in a NUL */
static void check_locs(const struct hit *h, int line)
{
	const struct probe_prog *prog = h->prog;
	const struct probe_field *f;
	unsigned int i, j, n, len, at;
	u32 loc;

	for (i = 0; i < prog->nr_fields; i++) {
		f = &prog->fields[i];
		if (strncmp(f->type, "__data_loc", 10))
			continue;
		n = f->count ? f->count : 1;
		for (j = 0; j < n; j++) {
			memcpy(&loc, h->rec + f->offset + 4 * j, 4);
			len = probe_loc_len(loc);
			at = probe_loc_offset(loc);
			check(at >= prog->fixed_size && at + len <= h->size,
			      "__data_loc inside the record", line);
			if (len && at + len <= h->size)
				check(!h->rec[at + len - 1], "NUL-terminated",
				      line);
		}
	}
}

/*
 * The kprobe handler's way: the size pass caches short strings for the
 * store pass, in a cache the handler did not initialize.  It must write
 * the record fire() just wrote.
 */
static void fire_cached(struct hit *h, unsigned int stored, int line)
{
	const struct probe_prog *prog = h->prog;
	struct probe_cache cache;
	u8 *rec = malloc(h->size);
	u8 *stage;

	fake_stack_garbage(&cache, h->size);
	check(probe_prog_hit_size(prog, &regs, h->edata, &cache) == h->dyn,
	      "sized the same with a cache", line);
	memset(rec, 0xa5, h->size);
	check(probe_prog_store(prog, &regs, h->edata, rec, h->size, &cache) ==
	      stored, "stored the same with a cache", line);
	check(!memcmp(rec, h->rec, h->size), "the same record with a cache",
	      line);
	free(rec);
	/* the filter path's record, built whole in the cache when it fits */
	stage = probe_prog_stage_record(prog, &regs, h->edata, h->size, &cache);
	if (stage)
		check(!memcmp(stage + prog->hdr_size, h->rec + prog->hdr_size,
			      h->size - prog->hdr_size),
		      "the same record built in the cache", line);
	else
		check(h->size > sizeof(cache.buf) ||
		      (probe_prog_has_dyn(prog) && !cache.staged),
		      "a record that fits is built in the cache", line);
}

static void fire_exit(struct hit *h, int line);

/*
 * The entry handler of a return probe: writes its entry data and nothing
 * past it (a uprobe's first word is the caller's)
 */
static void save_entry(struct hit *h, struct pt_regs *entry, int line)
{
	unsigned int from = probe_prog_edata_size(h->prog);
	u8 *p = (u8 *)h->edata;
	long allocs = kshim_allocs;
	unsigned int i;

	/* an eprobe's is the event's record, a uprobe's first word its base */
	if (!h->prog->is_return) {
		probe_prog_save_entry(h->prog, entry, h->edata);
		return;
	}
	if (from < sizeof(long))
		from = sizeof(long);
	memset(p + from, 0x5a, sizeof(h->edata) - from);
	probe_prog_save_entry(h->prog, entry, h->edata);
	for (i = from; i < sizeof(h->edata) && p[i] == 0x5a; i++)
		;
	check(i == sizeof(h->edata), "entry data stays in its size", line);
	check(kshim_allocs == allocs, "an entry allocates nothing", line);
}

/* The probe handler: entry data, size, reserve, store */
static void fire(struct hit *h, struct pt_regs *entry, int line)
{
	save_entry(h, entry, line);
	fire_exit(h, line);
}

/* The exit handler, or any other: size, reserve, store */
static void fire_exit(struct hit *h, int line)
{
	const struct probe_prog *prog = h->prog;
	long allocs = kshim_allocs;
	unsigned int stored;

	h->dyn = probe_prog_dyn_size(prog, &regs, h->edata, NULL);
	if (!probe_prog_has_dyn(prog))
		check(!h->dyn, "no dynamic data, none sized", line);
	h->size = prog->fixed_size + h->dyn;
	h->rec = malloc(h->size);
	memset(h->rec, 0xa5, h->size);
	stored = probe_prog_store(prog, &regs, h->edata, h->rec, h->size, NULL);
	check(stored == h->dyn, "stored as sized", line);
	fire_cached(h, stored, line);
	check(kshim_allocs == allocs, "a hit allocates nothing", line);
	check_locs(h, line);
	trace_seq_init(&h->seq);
	check(!probe_prog_print(prog, h->rec, h->size, &h->seq), "prints",
	      line);
}

/* Turn a spec (see the top of the file) into bytes */
static size_t spec_bytes(const char *spec, unsigned char *out)
{
	unsigned long long v;
	size_t n = 0, len;
	unsigned int w;
	const char *end;
	char *stop;

	while (*spec) {
		end = strchr(spec, '|');
		len = end ? (size_t)(end - spec) : strlen(spec);
		if (!strncmp(spec, "s:", 2)) {
			memcpy(out + n, spec + 2, len - 2);
			n += len - 2;
			out[n++] = '\0';
		} else if (!strncmp(spec, "loc:", 4)) {
			v = strtoul(spec + 4, &stop, 0) << 16;
			v |= strtoul(stop + 1, NULL, 0);
			memcpy(out + n, &v, 4);
			n += 4;
		} else {
			w = strtoul(spec + 1, &stop, 10) / 8;
			v = stop[1] == '-' ? (unsigned long long)
				strtoll(stop + 1, NULL, 0) :
				strtoull(stop + 1, NULL, 0);
			memcpy(out + n, &v, w);
			n += w;
		}
		spec += len + !!end;
	}
	return n;
}

static void dump(const char *what, const unsigned char *p, size_t n)
{
	size_t i;

	fprintf(stderr, "  %s:", what);
	for (i = 0; i < n; i++)
		fprintf(stderr, " %02x", p[i]);
	fprintf(stderr, "\n");
}

static void check_record(const struct hit *h, const char *spec, int line)
{
	unsigned int hdr = h->prog->hdr_size;
	unsigned char want[8192];
	size_t n = spec_bytes(spec, want);

	if (!check(n == h->size - hdr && !memcmp(want, h->rec + hdr, n),
		   "record bytes", line)) {
		dump("want", want, n);
		dump("got ", h->rec + hdr, h->size - hdr);
	}
}

static void check_print(const struct hit *h, const char *want, int line)
{
	if (!check(h->seq.len == strlen(want) &&
		   !memcmp(h->seq.buffer, want, h->seq.len), "printed", line))
		fprintf(stderr, "  want '%s'\n  got  '%.*s'\n", want,
			(int)h->seq.len, h->seq.buffer);
}

/* Parse, compile, fire, and compare; the record is NULL to skip it */
static void case_at(const struct tpp_env *env, const char *cmd,
		    const char *print, const char *spec, int line)
{
	struct hit h;

	if (!compile(env, cmd, &h, line))
		goto out;
	fire(&h, &regs, line);
	check_print(&h, print, line);
	if (spec)
		check_record(&h, spec, line);
out:
	release(&h);
}

/* The shared table, also run by the KUnit suite (trace_probe_kunit.c) */
static const struct tpp_fetch_case fetch_table[] = {
#include "probe_fetch_test_cases.h"
};

#define TWORLD	0xffff888000030000UL	/* the table's world, 1 page */

/* Each case on a world of its own; world() sets the other tests' up */
static void test_table(void)
{
	unsigned char raw[TPP_TEST_REGS_SIZE];
	unsigned int i;
	struct hit h;

	for (i = 0; i < ARRAY_SIZE(fetch_table); i++) {
		fake_mem_reset();
		fake_mem_map(TWORLD, FAKE_PAGE, false);
		tpp_test_fetch_world(fake_mem_at(TWORLD), TWORLD);
		tpp_test_fetch_regs(raw, TWORLD);
		memcpy(&regs, raw, sizeof(regs));
		if (compile(&env_x86, fetch_table[i].cmd, &h, __LINE__)) {
			fire(&h, &regs, __LINE__);
			check_print(&h, fetch_table[i].print, __LINE__);
		} else {
			fprintf(stderr, "  probe_fetch_test_cases.h: '%s'\n",
				fetch_table[i].cmd);
		}
		release(&h);
	}
}

/* The dump cases, also run by the KUnit suite */
static const struct tpp_dump_case dump_table[] = {
#include "probe_dump_test_cases.h"
};

/* Each argument's dump, one after the other, into @buf */
static void dump_args(const struct probe_prog *prog, char *buf, size_t len)
{
	unsigned int i;
	size_t at = 0;
	int n;

	buf[0] = '\0';
	for (i = 0; i < prog->nr_fields; i++) {
		n = probe_prog_dump_arg(prog, i, NULL, 0);
		if (at + n + 1 > len)
			return;
		check(probe_prog_dump_arg(prog, i, buf + at, len - at) == n,
		      "dump sized as written", __LINE__);
		at += n;
	}
}

static void test_dump_table(void)
{
	char buf[4096];
	unsigned int i;
	struct hit h;

	for (i = 0; i < ARRAY_SIZE(dump_table); i++) {
		if (!compile(&env_x86, dump_table[i].cmd, &h, __LINE__)) {
			fprintf(stderr, "  probe_dump_test_cases.h: '%s'\n",
				dump_table[i].cmd);
			continue;
		}
		dump_args(h.prog, buf, sizeof(buf));
		if (!check(!strcmp(buf, dump_table[i].dump), "dump", __LINE__))
			fprintf(stderr, "  '%s':\n%s", dump_table[i].cmd, buf);
		release(&h);
	}
}

#define CASE(cmd, print, spec)	case_at(&env_x86, cmd, print, spec, __LINE__)
#define CASEB(cmd, print, spec)	case_at(&env_btf, cmd, print, spec, __LINE__)

/* ---- Sources ---- */

/* $current is the address of the (fake) task: it moves with the build */
static void test_current_source(void)
{
	struct hit h;
	u64 got = 0;

	if (compile(&env_x86, "p vfs_read c=$current:x64", &h, __LINE__)) {
		fire(&h, &regs, __LINE__);
		memcpy(&got, h.rec + h.prog->hdr_size, sizeof(got));
		CHECK(got == (u64)(unsigned long)&kshim_task);
	}
	release(&h);
}

static void test_sources(void)
{
	CASE("p vfs_read %di", " arg1=0xffff888000001100",
	     "u64:0xffff888000001100");
	CASE("r vfs_read $retval", " arg1=0x3", "u64:3");
	CASE("p vfs_read $stack $stack0 $stack1 $stack2:u8 $stack600",
	     " arg1=0xffffc90000003f00 arg2=0xffffffff81000123 arg3=0x77"
	     " arg4=136 arg5=0x0",
	     "u64:0xffffc90000003f00|u64:0xffffffff81000123|u64:0x77|u8:0x88"
	     "|u64:0");
	/* x86_64: arguments 7 and up are on the stack, past the return */
	CASE("p vfs_read $arg1 +0($arg2):string $arg4:s32 $arg7 $arg8:u8",
	     " arg1=0xffff888000001100 arg2=\"/etc/passwd\" arg3=-100"
	     " arg4=0x77 arg5=136",
	     "u64:0xffff888000001100|loc:12@41|u32:-100|u64:0x77|u8:0x88"
	     "|s:/etc/passwd");
	CASE("p vfs_read c=$comm $comm:string", " c=\"bash\" arg2=\"bash\"",
	     "loc:5@24|loc:5@29|s:bash|s:bash");
	test_current_source();
	CASE("p vfs_read \\1 \\-5:s32 \\0x10:x8 \\\"abc\"",
	     " arg1=0x1 arg2=-5 arg3=0x10 arg4=\"abc\"",
	     "u64:1|u32:-5|u8:0x10|loc:4@33|s:abc");
	CASE("p vfs_read @0xffff888000001100:u64 @0xffff888000001000:string "
	     "@0xffff888000003000:u32",
	     " arg1=1234605616436508552 arg2=\"/etc/passwd\" arg3=0",
	     "u64:0x1122334455667788|loc:12@32|u32:0|s:/etc/passwd");
	CASE("p vfs_read @jiffies @fake_table:string @jiffies+4:u32 "
	     "@vfs_read:x8",
	     " arg1=0x100000123 arg2=\"tbl\" arg3=1 arg4=0xf",
	     "u64:0x100000123|loc:4@33|u32:1|u8:0xf|s:tbl");
}

/* ---- Types ---- */

static void test_types(void)
{
	CASE("p vfs_read a=%cx:s32 b=%cx:u32 c=%cx:x32 d=%cx:s64 e=%cx:u64 "
	     "f=%cx:x16 g=%cx:s8 h=%cx:u8 i=%cx:x8 j=%cx:s16 k=%cx:u16 "
	     "l=%cx:x64",
	     " a=-100 b=4294967196 c=0xffffff9c d=-100 e=18446744073709551516"
	     " f=0xff9c g=-100 h=156 i=0x9c j=-100 k=65436"
	     " l=0xffffffffffffff9c",
	     "u32:-100|u32:-100|u32:-100|u64:-100|u64:-100|u16:-100|u8:-100"
	     "|u8:-100|u8:-100|u16:-100|u16:-100|u64:-100");
	CASE("p vfs_read +0x48(%di):char", " arg1='t'", "u8:0x74");
	CASE("p vfs_read %r8:symbol \\0xffffffff81001008:symbol "
	     "\\0x1234:symbol",
	     " arg1=vfs_read+0x10/0x170 arg2=mod_fn+0x8/0x30 [mymod]"
	     " arg3=0x1234",
	     "u64:0xffffffff81000010|u64:0xffffffff81001008|u64:0x1234");
	CASE("p vfs_read %r8:symstr +0x50(%di):symstr $stack0:symstr "
	     "+0(%bx):symstr",
	     " arg1=\"vfs_read+0x10/0x170\" arg2=\"vfs_read+0x10/0x170\""
	     " arg3=\"vfs_read+0x123/0x170\" arg4=(fault)",
	     "loc:20@32|loc:20@52|loc:21@72|loc:0@93"
	     "|s:vfs_read+0x10/0x170|s:vfs_read+0x10/0x170"
	     "|s:vfs_read+0x123/0x170");
}

/* ---- Dereferences, user memory, faults ---- */

static void test_derefs(void)
{
	CASE("p vfs_read +0(%di):u64 +0(+8(%di)):string +0(+8(%di)):u8 "
	     "+0(+0x40(+0x40(%di))):x64",
	     " arg1=1234605616436508552 arg2=\"/etc/passwd\" arg3=47"
	     " arg4=0x1122334455667788",
	     "u64:0x1122334455667788|loc:12@37|u8:47|u64:0x1122334455667788"
	     "|s:/etc/passwd");
	/* a string at %di + 8 is the pointer's own bytes: "" */
	CASE("p vfs_read +8(%di):string", " arg1=\"\"", "loc:1@20|s:");
	CASE("p vfs_read +u0(%dx):string +0(%dx):ustring +0(%dx):string "
	     "+u0xe0(%dx):x32 +0(+0x10(%di)):ustring +0(%dx):u32",
	     " arg1=\"user string\" arg2=\"user string\" arg3=\"user string\""
	     " arg4=0xdeadbeef arg5=\"user string\" arg6=1919251317",
	     "loc:12@40|loc:12@52|loc:12@64|u32:0xdeadbeef|loc:12@76"
	     "|u32:1919251317|s:user string|s:user string|s:user string"
	     "|s:user string");
	/* 14 dereferences, the most the parser takes */
	CASE("p vfs_read +0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(%r14)"
	     ")))))))))))):x32",
	     " arg1=0x1500", "u32:0x1500");
}

static void test_faults(void)
{
	CASE("p vfs_read +0(%bx):u32 +0(+0x70(%di)):u64 +0(+0(%bx)):u64 "
	     "+8(+0(%bx)):u8[2] +0(+0(%bx)):b4@2/8",
	     " arg1=0 arg2=0 arg3=0 arg4={0,0} arg5=0",
	     "u32:0|u64:0|u64:0|u8:0|u8:0|u8:0");
	/*
	 * A fault stores length 0 at the next free byte; the partial copies
	 * of "abcd" and "xy" are overwritten by the next string.
	 */
	CASE("p vfs_read +0(%bx):string +0(+0(%bx)):string +0(%r11):string "
	     "+0(%r10):ustring +0(%r13):string +0(%r12):ustring "
	     "@0xffff888000001040:string",
	     " arg1=(fault) arg2=(fault) arg3=(fault) arg4=(fault)"
	     " arg5=\"crosspage\" arg6=\"\" arg7=\"\"",
	     "loc:0@44|loc:0@44|loc:0@44|loc:0@44|loc:10@44|loc:1@54"
	     "|loc:1@55|s:crosspage|s:|s:");
	/* where the address spaces overlap, a kernel read never goes user */
	kshim_non_overlapping = false;
	CASE("p vfs_read +0(%dx):string +0(%dx):ustring +0(%dx):u32 "
	     "+u0(%dx):u32",
	     " arg1=(fault) arg2=\"user string\" arg3=0 arg4=1919251317",
	     "loc:0@32|loc:12@32|u32:0|u32:1919251317|s:user string");
	kshim_non_overlapping = true;
}

/*
 * Neighbouring reads from one source share one store (joins_prev()); the
 * record must be what separate reads give, faults included.
 */
static void test_joined_reads(void)
{
	CASE("p vfs_read +0(%di):u64 +8(%di):x64 +0x10(%di):u64",
	     " arg1=1234605616436508552 arg2=0xffff888000001000"
	     " arg3=139637976731680",
	     "u64:0x1122334455667788|u64:0xffff888000001000"
	     "|u64:0x7f0000001020");
	/* an array and a scalar after it; a different size is not joined */
	CASE("p vfs_read +0(%di):u64[2] +0x10(%di):x64 +0x18(%di):u32",
	     " arg1={1234605616436508552,18446612682070036480}"
	     " arg2=0x7f0000001020 arg3=181",
	     "u64:0x1122334455667788|u64:0xffff888000001000"
	     "|u64:0x7f0000001020|u32:0xb5");
	/* "abcd" and then a hole: the second half faults alone */
	CASE("p vfs_read +0(%r11):u32 +4(%r11):u32",
	     " arg1=1684234849 arg2=0", "u32:0x64636261|u32:0");
	/* the next offset of a read at LONG_MAX would overflow: not joined */
	CASE("p vfs_read +0x7fffffffffffffff(%di) +0(%di)",
	     " arg1=0x0 arg2=0x1122334455667788",
	     "u64:0|u64:0x1122334455667788");
	CASE("p vfs_read +0x7fffffffffffffff(%di):u8 -0x8000000000000000(%di):u8",
	     " arg1=0 arg2=0", "u8:0|u8:0");
	/* not contiguous, or another register: separate reads */
	CASE("p vfs_read +0(%di):u64 +0x10(%di):u64 +0(%si):u8",
	     " arg1=1234605616436508552 arg2=139637976731680 arg3=47",
	     "u64:0x1122334455667788|u64:0x7f0000001020|u8:47");
}

/* ---- Bitfields, arrays ---- */

static void test_bitfields(void)
{
	CASE("p vfs_read +0x78(%di):b4@2/8 %cx:b3@1/32 +0x78(%di):b8@0/8 "
	     "+0x78(%di):b1@7/8 +0x78(%di):b4@4/8[2] +0x7c(%di):b16@8/32 "
	     "%cx:b60@4/64 +0x7a(%di):b3@13/16",
	     " arg1=13 arg2=6 arg3=181 arg4=1 arg5={11,8} arg6=65535"
	     " arg7=1152921504606846969 arg8=7",
	     "u8:13|u32:6|u8:181|u8:1|u8:11|u8:8|u32:65535"
	     "|u64:1152921504606846969|u16:7");
	/* BTF: a 3-bit member at bit 2 of a u32, shifted as a u64 */
	CASEB("p vfs_read file->f_bits file->f_mode file->f_name:string "
	      "file->f_comm:string buf:string count:s32",
	      " arg1=5 arg2=32512 arg3=\"hello\" arg4=\"comm_in_file\""
	      " buf=\"/etc/passwd\" count=4128",
	      "u32:5|u32:32512|loc:6@40|loc:13@46|loc:12@59|u32:4128|s:hello"
	      "|s:comm_in_file|s:/etc/passwd");
}

/* " NAME=" and the @n bytes at @addr in hex, as a whole structure prints */
static const char *hex_print(char *buf, const char *name, unsigned long addr,
			     unsigned int n)
{
	const unsigned char *p = addr ? fake_mem_at(addr) : NULL;
	char *q = buf + sprintf(buf, " %s=", name);
	unsigned int i;

	for (i = 0; i < n; i++)
		q += sprintf(q, "%02x", p ? p[i] : 0);
	return buf;
}

/*
 * Whole structures (env_btf's struct file is 0x60 bytes, its f_path 16
 * at 0x38): the bytes as they are, in hex without the kernel's BTF; all
 * zero when the read faults, however much of it was readable
 */
static void test_whole(void)
{
	char want[512], cmd[128];
	struct hit h;

	hex_print(want, "p", KS + 0x38, 16);
	strcat(want, " n=4128");
	CASEB("p vfs_read p=*file->f_path n=count:u32", want, NULL);
	CASEB("r vfs_read p=@entry(*file->f_path) n=@entry(count):u32", want,
	      NULL);
	CASEB("p vfs_read f=*file", hex_print(want, "f", KS, 0x60), NULL);
	CASEB("p vfs_read f=*(file)%bx", hex_print(want, "f", 0, 0x60), NULL);
	/* the page ends 0x20 into the structure */
	snprintf(cmd, sizeof(cmd), "p vfs_read f=*(file)@0x%lx",
		 KEDGE + 0xfe0);
	CASEB(cmd, hex_print(want, "f", 0, 0x60), NULL);
	if (compile(&env_btf, "p vfs_read f=*file", &h, __LINE__))
		CHECK(!strcmp(h.prog->fields[0].type, "u8[96]") &&
		      h.prog->fields[0].size == 0x60 &&
		      !h.prog->fields[0].count);
	release(&h);
	CHECK(!tpp_fake_btf_refs);
}

static void test_arrays(void)
{
	/* the last array runs into a hole: the elements there read 0 */
	CASE("p vfs_read +0x78(%di):u8[4] +0x78(%di):s8[2] +0x7a(%di):s16[1] "
	     "+0x7c(%di):x32[1] +0x48(%di):char[4] +0(%di):u64[2] "
	     "+0x1ef8(%di):u32[4]",
	     " arg1={181,128,254,255} arg2={-75,-128} arg3={-2}"
	     " arg4={0xfffffff0} arg5={'t','e','s','t'}"
	     " arg6={1234605616436508552,18446612682070036480}"
	     " arg7={1,2,0,0}",
	     "u8:181|u8:128|u8:254|u8:255|u8:-75|u8:-128|u16:-2"
	     "|u32:0xfffffff0|u8:0x74|u8:0x65|u8:0x73|u8:0x74"
	     "|u64:0x1122334455667788|u64:0xffff888000001000|u32:1|u32:2"
	     "|u32:0|u32:0");
	/*
	 * string[N]: N pointers.  \IMM has none; 6.12 stores the first
	 * elements as faults and gives up, we store them all as faults.
	 */
	CASE("p vfs_read +0x58(%di):string[3] +u0(+0x80(%di)):string[2] "
	     "+0(+0x80(%di)):ustring[2] \\1:string[2] "
	     "@0xffff888000001158:string[2]",
	     " arg1={\"/etc/passwd\",\"hello\",(fault)}"
	     " arg2={\"user string\",\"\"} arg3={\"user string\",\"\"}"
	     " arg4={(fault),(fault)} arg5={\"/etc/passwd\",\"hello\"}",
	     "loc:12@60|loc:6@72|loc:0@78|loc:12@78|loc:1@90|loc:12@91"
	     "|loc:1@103|loc:0@104|loc:0@104|loc:12@104|loc:6@116"
	     "|s:/etc/passwd|s:hello|s:user string|s:|s:user string|s:"
	     "|s:/etc/passwd|s:hello");
}

/*
 * Parse only the arguments of @cmd (an eprobe, uprobe, ... of @flags),
 * set the kind to @kind and compile with @hdr header bytes.
 */
static bool compile_args(struct hit *h, const char *cmd, unsigned int flags,
			 char kind, unsigned int hdr, int line)
{
	struct tpp_error err;

	memset(h, 0, sizeof(*h));
	h->def = tpp_parse_args(cmd, 2, flags, NULL, &env_x86, &err);
	if (!check(!IS_ERR(h->def), "parses", line)) {
		h->def = NULL;
		return false;
	}
	h->def->kind = kind;
	h->prog = probe_prog_compile(h->def, hdr);
	if (check(!IS_ERR(h->prog), "compiles", line))
		return true;
	h->prog = NULL;
	release(h);
	return false;
}

/*
 * Eprobes take $comm and \"..." as string arrays (6.12 skips their type
 * check there).  Every element must be stored; they used to leave all but
 * the first __data_loc unset.  Found by fuzz_probe
 * (fuzz/crashes/eprobe-comm-string-array).
 */
static void test_eprobe_string_arrays(void)
{
	struct hit h;

	if (!compile_args(&h, "e:ev sys/ev $comm:string[2] \\\"ab\":string[2]",
			  TPP_EVENT, 'e', 16, __LINE__))
		return;
	fire(&h, &regs, __LINE__);
	check_print(&h, " arg1={(fault),(fault)} arg2={(fault),(fault)}",
		    __LINE__);
	check_record(&h, "loc:0@32|loc:0@32|loc:0@32|loc:0@32", __LINE__);
	release(&h);
}

/*
 * An eprobe's $comm or \"..." stored as a number is 0, not the value the
 * argument before it left in the interpreter.  Found by fuzz_probe
 * (fuzz/crashes/eprobe-immstr-number-after-cached).
 */
static void test_eprobe_text_as_number(void)
{
	struct hit h;

	if (!compile_args(&h, "e:ev sys/ev \\0x1234 $comm:u64 \\0x5678 "
			  "\\\"xy\\\"", TPP_EVENT, 'e', 16, __LINE__))
		return;
	fire(&h, &regs, __LINE__);
	check_print(&h, " arg1=0x1234 arg2=0 arg3=0x5678 arg4=0x0", __LINE__);
	release(&h);
}

/* Write @v, @size bytes, at @off of the fake event record in @h */
static void put_rec(struct hit *h, unsigned int off, u64 v, unsigned int size)
{
	memcpy((char *)h->edata + off, &v, size);
}

/*
 * Eprobe fields come from the attached event's record, which the handler
 * passes as entry data: numbers by size and sign, strings by address.
 */
static void test_eprobe_fields(void)
{
	unsigned long base, want[3];
	struct hit h;
	char buf[160];

	if (!compile_args(&h, "e:ev sys/ev $dfd:s64 $flags:x64 $small:s64 "
			  "a=$filename:x64 b=$name:x64 c=$rel:x64 "
			  "d=$ptr:x64 e=$dfd:u8", TPP_EVENT, 'e', 8, __LINE__))
		return;
	put_rec(&h, FAKE_EF_DFD, (u32)-100, 4);
	put_rec(&h, FAKE_EF_FLAGS, 0x8241, 8);
	put_rec(&h, FAKE_EF_SMALL, (u16)-2, 2);
	put_rec(&h, FAKE_EF_FILENAME, 5 << 16 | 64, 4);
	put_rec(&h, FAKE_EF_REL, 3 << 16 | 12, 4);
	put_rec(&h, FAKE_EF_PTR, FAKE_DATA + 8, 8);
	base = (unsigned long)h.edata;
	want[0] = base + 64;
	want[1] = base + FAKE_EF_NAME;
	want[2] = base + FAKE_EF_REL + 4 + 12;
	fire(&h, &regs, __LINE__);
	snprintf(buf, sizeof(buf), " arg1=-100 arg2=0x8241 arg3=-2 a=0x%lx "
		 "b=0x%lx c=0x%lx d=0x%lx e=156", want[0], want[1], want[2],
		 FAKE_DATA + 8);
	check_print(&h, buf, __LINE__);
	release(&h);

	/*
	 * A field wider than a long is its address, for +OFFS($args) to read
	 * an element (the record is no fake memory: the guest test reads)
	 */
	if (!compile_args(&h, "e:ev sys/ev a=$args", TPP_EVENT, 'e', 8,
			  __LINE__))
		return;
	put_rec(&h, FAKE_EF_ARGS, 0x1234, 8);
	fire(&h, &regs, __LINE__);
	snprintf(buf, sizeof(buf), " a=0x%lx",
		 (unsigned long)h.edata + FAKE_EF_ARGS);
	check_print(&h, buf, __LINE__);
	release(&h);
}

/* The print fmt of an eprobe has no ip */
static void test_eprobe_format(void)
{
	struct tpp_error err;
	struct probe_prog *prog;
	struct tpp_def *def;
	char buf[128];

	def = tpp_parse_args("e:ev sys/ev $dfd", 2, TPP_EVENT, NULL, &env_x86,
			     &err);
	if (!CHECK(!IS_ERR(def)))
		return;
	def->kind = 'e';
	prog = probe_prog_compile(def, 8);
	if (CHECK(!IS_ERR(prog))) {
		probe_prog_print_fmt(prog, buf, sizeof(buf));
		CHECK(!strcmp(buf, "\" arg1=0x%Lx\", REC->arg1"));
		probe_prog_free(prog);
	}
	tpp_free(def);
}

/*
 * Uprobes read the task's stack and memory (faulting them in), and map
 * @+OFFS through the probed mapping, whose start comes as entry data.
 */
static void test_uprobe(void)
{
	struct pt_regs saved = regs;
	struct hit h;
	char buf[160];

	if (!compile_args(&h, "p:u /bin/sh:0x10 a=+0(%ax):u32 b=$stack1:x64 "
			  "c=+0($stack0):string d=@+0x100:u32 "
			  "e=+0(+8($stack)):string f=$stack5:x64", TPP_USER, 'p',
			  16, __LINE__))
		return;
	*kshim_reg(&regs, KSHIM_REG_AX) = U_VAL;
	*kshim_reg(&regs, KSHIM_REG_SP) = U_PTRS;
	h.edata[0] = UBASE;
	fire(&h, &regs, __LINE__);
	snprintf(buf, sizeof(buf), " a=3735928559 b=0x%lx c=\"user string\" "
		 "d=3735928559 e=\"\" f=0x0", U_EMPTY);
	check_print(&h, buf, __LINE__);
	release(&h);

	/* a uretprobe's @entry() area follows the word of the base */
	if (!compile_args(&h, "r:u /bin/sh:0x10 a=@entry(+0(%ax)):u32 "
			  "d=@entry(@+0x100):u32 c=@entry(+0($stack0)):string "
			  "b=$stack1:x64", TPP_USER | TPP_RETURN, 'r', 24,
			  __LINE__))
		return;
	h.def->is_return = true;
	h.prog->is_return = true;
	CHECK(probe_prog_edata_size(h.prog) ==
	      round_up(8 + 4 + 4 + 4 + TPP_ENTRY_STRING, 8));
	h.edata[0] = UBASE;
	save_entry(&h, &regs, __LINE__);
	put32(U_VAL, 1);
	puts_at(U_STR, "USER", 5);
	fire_exit(&h, __LINE__);
	snprintf(buf, sizeof(buf), " a=3735928559 d=3735928559 "
		 "c=\"user string\" b=0x%lx", U_EMPTY);
	check_print(&h, buf, __LINE__);
	regs = saved;
	release(&h);
	world();
}

/* ---- Return probes: $argN saved at the entry ---- */

static void test_entry_data(void)
{
	struct pt_regs entry;
	struct hit h;

	if (!compile(&env_x86, "r vfs_read $arg1:x32 +0($arg2):string $retval:s32 "
		     "+0x78($arg1):u8 $arg1", &h, __LINE__))
		goto out;
	CHECK(h.prog->nr_edata == 2 &&
	      h.prog->edata[0] == tpp_earg(TPP_SRC_REG, KSHIM_REG_DI) &&
	      h.prog->edata[1] == tpp_earg(TPP_SRC_REG, KSHIM_REG_SI) &&
	      probe_prog_edata_size(h.prog) == 2 * sizeof(long));
	CHECK(h.prog->hdr_size == 24 && h.prog->is_return);
	entry = regs;
	*kshim_reg(&regs, KSHIM_REG_DI) = 0;
	*kshim_reg(&regs, KSHIM_REG_SI) = 0;
	*kshim_reg(&regs, KSHIM_REG_AX) = -2UL;
	fire(&h, &entry, __LINE__);
	regs = entry;
	check_print(&h, " arg1=0x1100 arg2=\"/etc/passwd\" arg3=-2 arg4=181"
		    " arg5=0xffff888000001100", __LINE__);
	check_record(&h, "u32:0x1100|loc:12@45|u32:-2|u8:181"
		     "|u64:0xffff888000001100|s:/etc/passwd", __LINE__);
out:
	release(&h);

	/* slots go in order of first use, each argument once */
	if (compile(&env_x86, "r vfs_read $arg3 $arg1 $arg3 +0($arg1):u8",
		    &h, __LINE__))
		CHECK(h.prog->nr_edata == 2 &&
		      h.prog->edata[0] == tpp_earg(TPP_SRC_REG, KSHIM_REG_DX) &&
		      h.prog->edata[1] == tpp_earg(TPP_SRC_REG, KSHIM_REG_DI));
	release(&h);
	if (compile(&env_x86, "p vfs_read $arg3", &h, __LINE__))
		CHECK(h.prog->nr_edata == 0 && !probe_prog_edata_size(h.prog));
	release(&h);
}

/* ---- @entry(): values read at the entry, recorded at the exit ---- */

static void test_entry_values(void)
{
	struct pt_regs entry = regs;
	struct hit h;
	char cmd[1024];
	unsigned int i;

	if (!compile(&env_x86, "r vfs_read v=@entry(+0($arg1)):u32 "
		     "n=@entry(+0($arg2)):string w=+0($arg1):u32 "
		     "s=+0($arg2):string c=@entry($comm) "
		     "b=@entry(+0x18($arg1)):b3@2/8 f=@entry(+0(%bx)):u16 "
		     "g=@entry(+0(%bx)):string a=@entry(+0(+0x80($arg1))):ustring[2]",
		     &h, __LINE__))
		return;
	CHECK(probe_prog_edata_size(h.prog) ==
	      round_up(4 + 2 + 1 + 5 * 4 + 5 * TPP_ENTRY_STRING, 8) + 16);
	save_entry(&h, &entry, __LINE__);
	/*
	 * The function changes what the arguments point at: w and s read
	 * the saved pointers at the exit
	 */
	put32(KS, 0xcafe);
	puts_at(K_PATH, "/tmp/x", 7);
	put32(KS + 0x18, 0);
	strcpy(kshim_task.comm, "sh");
	*kshim_reg(&regs, KSHIM_REG_DI) = 0;	/* and the registers */
	*kshim_reg(&regs, KSHIM_REG_SI) = 0;
	fire_exit(&h, __LINE__);
	check_print(&h, " v=1432778632 n=\"/etc/passwd\" w=51966 s=\"/tmp/x\""
		    " c=\"bash\" b=5 f=0 g=(fault) a={\"user string\",\"\"}",
		    __LINE__);
	release(&h);
	world();

	/* each string keeps TPP_ENTRY_STRING bytes, its NUL included */
	if (compile(&env_x86, "r vfs_read l=@entry($comm) "
		    "k=@entry(+0(%r10)):string x=@entry(@0xffff888000010000):string",
		    &h, __LINE__)) {
		save_entry(&h, &regs, __LINE__);
		fire_exit(&h, __LINE__);
		CHECK(h.dyn == 5 + TPP_ENTRY_STRING);
	}
	release(&h);

	/* fifteen strings fill the entry data; each still gets its room */
	strcpy(cmd, "r vfs_read");
	for (i = 0; i < 15; i++)
		strcat(cmd, " @entry(@0xffff888000010000):string");
	if (compile(&env_x86, cmd, &h, __LINE__)) {
		CHECK(probe_prog_edata_size(h.prog) <= TPP_MAX_ENTRY_DATA);
		save_entry(&h, &regs, __LINE__);
		fire_exit(&h, __LINE__);
		CHECK(h.dyn == 15 * TPP_ENTRY_STRING);
	}
	release(&h);

	/* with $argN slots after the @entry() area */
	if (compile(&env_x86, "r vfs_read @entry($comm) $arg2 +0($arg1):u8",
		    &h, __LINE__)) {
		CHECK(h.prog->nr_edata == 2 &&
		      probe_prog_edata_size(h.prog) ==
		      round_up(4 + TPP_ENTRY_STRING, 8) + 16);
		entry = regs;
		fire(&h, &entry, __LINE__);
		check_print(&h, " arg1=\"bash\" arg2=0xffff888000001000"
			    " arg3=136", __LINE__);
	}
	release(&h);
}

/* ---- this_cpu_ptr(), this_cpu_read(): this CPU's per-CPU data ---- */

static void test_percpu(void)
{
	char print[256];

	/* "this CPU" is 0x20 bytes into each per-CPU area */
	kshim_cpu_offset = 0x20;
	snprintf(print, sizeof(print), " a=0x%lx b=0x%lx c=0x%lx s=\"hello\""
		 " u=181", KS + 0x20, K_HELLO, K_HELLO);
	CASE("p vfs_read a=this_cpu_ptr(%di) b=this_cpu_read(%di) "
	     "c=this_cpu_read(@0xffff888000001100) s=this_cpu_ptr(+8(%di)):string "
	     "u=+0x58(this_cpu_ptr(%di)):u8", print, NULL);
	/* a symbol is a static per-CPU variable: its address, then its word */
	kshim_cpu_offset = 0x8;
	snprintf(print, sizeof(print), " a=0x%lx b=0x%lx",
		 FAKE_DATA + 8, 0UL);
	CASE("p vfs_read a=this_cpu_ptr(@jiffies) b=this_cpu_read(@jiffies)",
	     print, NULL);
	kshim_cpu_offset = 0;
}

/* ---- The assembler's register names, and arm64's argument layout ---- */

static void test_abi_regs(void)
{
	unsigned long ax = *kshim_reg(&regs, KSHIM_REG_AX);

	*kshim_reg(&regs, KSHIM_REG_AX) = 0x1122334455667788UL;
	CASE("p vfs_read %ax %rax %eax %al %ah %eax:u64 %ah:s8 %eax:x16",
	     " arg1=0x1122334455667788 arg2=0x1122334455667788"
	     " arg3=1432778632 arg4=136 arg5=119 arg6=1432778632 arg7=119"
	     " arg8=0x7788",
	     "u64:0x1122334455667788|u64:0x1122334455667788|u32:0x55667788"
	     "|u8:0x88|u8:0x77|u64:0x55667788|u8:0x77|u16:0x7788");
	/* next to strings (a size pass) and a bitfield of a part */
	CASE("p vfs_read %edi +0(%rsi):string %ah:b4@4/8 %si",
	     " arg1=4352 arg2=\"/etc/passwd\" arg3=7 arg4=0xffff888000001000",
	     NULL);
	*kshim_reg(&regs, KSHIM_REG_AX) = ax;
	CASE("p vfs_read %edi %dil %r9d %r9w %r9b",
	     " arg1=4352 arg2=0 arg3=6 arg4=6 arg5=6", NULL);
}

/*
 * arm64: x0..x7, then the stack at the entry, from the stack pointer up
 * (here the words SP, SP + 8, SP + 16 of setup())
 */
static void test_arm64_args(void)
{
	struct pt_regs saved = regs, entry;
	unsigned int i;
	struct hit h;

	memset(&regs, 0, sizeof(regs));
	for (i = 0; i < 8; i++)
		*kshim_reg(&regs, i * 8) = 0x100 + i;
	*kshim_reg(&regs, 31 * 8) = SP;
	kshim_sp_offset = 31 * 8;
	case_at(&env_arm64, "p vfs_read $arg1 $arg8 $arg9 $arg10 $arg11:u8 %w7",
		" arg1=0x100 arg2=0x107 arg3=0xffffffff81000123 arg4=0x77"
		" arg5=136 arg6=263", NULL, __LINE__);
	if (compile(&env_arm64, "r vfs_read $arg2 $arg10", &h,
		    __LINE__)) {
		entry = regs;
		*kshim_reg(&regs, 8) = 0;
		*kshim_reg(&regs, 31 * 8) = SP + 16;
		fire(&h, &entry, __LINE__);
		check_print(&h, " arg1=0x101 arg2=0x77", __LINE__);
	}
	release(&h);
	kshim_sp_offset = KSHIM_REG_SP;
	regs = saved;
}

/* ---- Format files ---- */

/* The "field:" lines 6.12's f_show() prints for our fields */
static void render_fields(const struct probe_prog *prog, char *buf,
			  size_t size)
{
	const struct probe_field *f;
	const char *arr;
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < prog->nr_fields; i++) {
		f = &prog->fields[i];
		arr = strncmp(f->type, "__data_loc", 10) ? strchr(f->type, '[') :
							    NULL;
		/* trace_define_field() passes no length: "name[]" */
		if (arr)
			n += snprintf(buf + n, size - n,
				      "\tfield:%.*s %s[];", (int)(arr - f->type),
				      f->type, f->name);
		else
			n += snprintf(buf + n, size - n, "\tfield:%s %s;",
				      f->type, f->name);
		n += snprintf(buf + n, size - n,
			      "\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			      f->offset, f->size, f->is_signed);
	}
}

static void format_at(const char *cmd, const char *fmt, const char *fields,
		      int line)
{
	char buf[4096];
	struct hit h;
	int len;

	if (!compile(&env_x86, cmd, &h, line))
		goto out;
	len = probe_prog_print_fmt(h.prog, NULL, 0);
	check(len == (int)strlen(fmt), "print fmt length", line);
	probe_prog_print_fmt(h.prog, buf, sizeof(buf));
	if (!check(!strcmp(buf, fmt), "print fmt", line))
		fprintf(stderr, "  want %s\n  got  %s\n", fmt, buf);
	/* cut short, it still ends in a NUL and tells the whole length */
	check(probe_prog_print_fmt(h.prog, buf, 8) == len && strlen(buf) == 7,
	      "print fmt, short buffer", line);
	render_fields(h.prog, buf, sizeof(buf));
	if (!check(!strcmp(buf, fields), "fields", line))
		fprintf(stderr, "  want\n%s  got\n%s", fields, buf);
out:
	release(&h);
}

#define FORMAT(cmd, fmt, fields) format_at(cmd, fmt, fields, __LINE__)

static void test_formats(void)
{
	struct hit h;

	/* contract.md 3.4, on our fake registers */
	FORMAT("p:myprobe vfs_read dfd=%cx filename=+0(%dx):ustring "
	       "flags=+0(%di):x64",
	       "\"(%lx) dfd=0x%Lx filename=\\\"%s\\\" flags=0x%Lx\", "
	       "REC->__probe_ip, REC->dfd, __get_str(filename), REC->flags",
	       "\tfield:u64 dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
	       "\tfield:__data_loc char[] filename;\toffset:24;\tsize:4;"
	       "\tsigned:1;\n"
	       "\tfield:u64 flags;\toffset:28;\tsize:8;\tsigned:0;\n");
	CASE("p:myprobe vfs_read dfd=%cx filename=+0(%dx):ustring "
	     "flags=+0(%di):x64",
	     " dfd=0xffffffffffffff9c filename=\"user string\""
	     " flags=0x1122334455667788",
	     "u64:-100|loc:12@36|u64:0x1122334455667788|s:user string");
	FORMAT("r10:kprobes/myretprobe vfs_read $retval",
	       "\"(%lx <- %lx) arg1=0x%Lx\", REC->__probe_func, "
	       "REC->__probe_ret_ip, REC->arg1",
	       "\tfield:u64 arg1;\toffset:24;\tsize:8;\tsigned:0;\n");
	FORMAT("p vfs_read a=%ax:u8 b=%ax:u16 c=%ax:u32 d=%ax:u64 e=%ax:s8 "
	       "f=%ax:s16 g=%ax:s32 h=%ax:s64 i=%ax:x8 j=%ax:x16 k=%ax:x32 "
	       "l=%ax:x64 m=%ax:char n=%ax:symbol o=%ax:symstr "
	       "p=+0(%ax):string q=+0(%ax):ustring",
	       "\"(%lx) a=%u b=%u c=%u d=%Lu e=%d f=%d g=%d h=%Ld i=0x%x "
	       "j=0x%x k=0x%x l=0x%Lx m='%c' n=%pS o=\\\"%s\\\" p=\\\"%s\\\" "
	       "q=\\\"%s\\\"\", REC->__probe_ip, REC->a, REC->b, REC->c, "
	       "REC->d, REC->e, REC->f, REC->g, REC->h, REC->i, REC->j, "
	       "REC->k, REC->l, REC->m, REC->n, __get_str(o), __get_str(p), "
	       "__get_str(q)",
	       "\tfield:u8 a;\toffset:16;\tsize:1;\tsigned:0;\n"
	       "\tfield:u16 b;\toffset:17;\tsize:2;\tsigned:0;\n"
	       "\tfield:u32 c;\toffset:19;\tsize:4;\tsigned:0;\n"
	       "\tfield:u64 d;\toffset:23;\tsize:8;\tsigned:0;\n"
	       "\tfield:s8 e;\toffset:31;\tsize:1;\tsigned:1;\n"
	       "\tfield:s16 f;\toffset:32;\tsize:2;\tsigned:1;\n"
	       "\tfield:s32 g;\toffset:34;\tsize:4;\tsigned:1;\n"
	       "\tfield:s64 h;\toffset:38;\tsize:8;\tsigned:1;\n"
	       "\tfield:u8 i;\toffset:46;\tsize:1;\tsigned:0;\n"
	       "\tfield:u16 j;\toffset:47;\tsize:2;\tsigned:0;\n"
	       "\tfield:u32 k;\toffset:49;\tsize:4;\tsigned:0;\n"
	       "\tfield:u64 l;\toffset:53;\tsize:8;\tsigned:0;\n"
	       "\tfield:u8 m;\toffset:61;\tsize:1;\tsigned:0;\n"
	       "\tfield:u64 n;\toffset:62;\tsize:8;\tsigned:0;\n"
	       "\tfield:__data_loc char[] o;\toffset:70;\tsize:4;\tsigned:1;\n"
	       "\tfield:__data_loc char[] p;\toffset:74;\tsize:4;\tsigned:1;\n"
	       "\tfield:__data_loc char[] q;\toffset:78;\tsize:4;\tsigned:1;\n");
	FORMAT("p vfs_read a=+0(%ax):u8[2] b=+0(%ax):string[2] "
	       "c=+0(%ax):char[3] d=+0(%ax):b4@2/8",
	       "\"(%lx) a={%u,%u} b={\\\"%s\\\",\\\"%s\\\"} c={'%c','%c','%c'}"
	       " d=%u\", REC->__probe_ip, REC->a[0], REC->a[1], "
	       "__get_str(b[0]), __get_str(b[1]), REC->c[0], REC->c[1], "
	       "REC->c[2], REC->d",
	       "\tfield:u8 a[];\toffset:16;\tsize:2;\tsigned:0;\n"
	       "\tfield:__data_loc char[][2] b;\toffset:18;\tsize:8;"
	       "\tsigned:1;\n"
	       "\tfield:u8 c[];\toffset:26;\tsize:3;\tsigned:0;\n"
	       "\tfield:u8 d;\toffset:29;\tsize:1;\tsigned:0;\n");
	FORMAT("p vfs_read", "\"(%lx)\", REC->__probe_ip", "");
	/* what trace_define_field() gets for arrays */
	if (compile(&env_x86, "p vfs_read +0(%ax):x32[4] +0(%ax):ustring[3]",
		    &h, __LINE__))
		CHECK(!strcmp(h.prog->fields[0].type, "u32[4]") &&
		      !strcmp(h.prog->fields[1].type, "__data_loc char[][3]") &&
		      h.prog->fields[0].count == 4 &&
		      h.prog->fields[1].size == 12);
	release(&h);
}

/* ---- Dynamic data: sizes, limits, races ---- */

/* Every start and length around word boundaries sizes like a byte loop */
static void test_strsize_sweep(void)
{
	unsigned long addr;
	unsigned int off, len;
	char cmd[128], want[64], text[32];
	struct hit h;

	for (off = 0; off < 16; off++) {
		for (len = 0; len <= 20; len++) {
			addr = KBASE + 0x800 + off;
			memset(text, 'a' + off, len);
			text[len] = '\0';
			memset(fake_mem_at(KBASE + 0x800), 0xff, 64);
			puts_at(addr, text, len + 1);
			snprintf(cmd, sizeof(cmd), "p vfs_read \\0x%lx:string",
				 addr);
			if (!compile(&env_x86, cmd, &h, __LINE__))
				break;
			fire(&h, &regs, __LINE__);
			CHECK(h.dyn == len + 1);
			snprintf(want, sizeof(want), " arg1=\"%s\"", text);
			check_print(&h, want, __LINE__);
			release(&h);
		}
	}
	/* a NUL as the last byte before a hole is no fault */
	puts_at(KEDGE + 0xffd, "ab", 3);
	CASE("p vfs_read \\0xffff888000004ffd:string", " arg1=\"ab\"",
	     "loc:3@20|s:ab");
	puts_at(KEDGE + 0xffc, "abcd", 4);
}

/* Strings stop at PROBE_MAX_STRING with their NUL, kernel or user */
static void long_string_at(const char *cmd, char c, int line)
{
	char want[PROBE_MAX_STRING + 64];
	struct hit h;
	u32 loc;

	if (!compile(&env_x86, cmd, &h, line))
		goto out;
	fire(&h, &regs, line);
	check(h.dyn == PROBE_MAX_STRING, "sized to the limit", line);
	memcpy(&loc, h.rec + 16, sizeof(loc));
	check(loc == probe_data_loc(PROBE_MAX_STRING, 20), "loc", line);
	strcpy(want, " arg1=\"");
	memset(want + 7, c, PROBE_MAX_STRING - 1);
	strcpy(want + 7 + PROBE_MAX_STRING - 1, "\"");
	check_print(&h, want, line);
out:
	release(&h);
}

static void test_long_strings(void)
{
	long_string_at("p vfs_read \\0xffff888000010000:string", 'x', __LINE__);
	long_string_at("p vfs_read \\0x00007f0000010000:ustring", 'y', __LINE__);
}

/* Constant strings are sized when compiled; no size program runs */
static void test_dyn_kinds(void)
{
	struct hit h;

	if (compile(&env_x86, "p vfs_read \\\"abc\" %ax", &h, __LINE__))
		CHECK(probe_prog_has_dyn(h.prog) && !h.prog->size_insn &&
		      h.prog->dyn_const == 4 &&
		      probe_prog_dyn_size(h.prog, &regs, NULL, NULL) == 4);
	release(&h);
	if (compile(&env_x86, "p vfs_read %ax +0(%ax):u32[2]", &h, __LINE__))
		CHECK(!probe_prog_has_dyn(h.prog) && !h.prog->size_insn &&
		      h.prog->fixed_size == 32);
	release(&h);
	if (compile(&env_x86, "p vfs_read $comm +0(%si):string", &h, __LINE__))
		CHECK(probe_prog_has_dyn(h.prog) && h.prog->size_insn &&
		      !h.prog->dyn_const);
	release(&h);
}

/* Size and store one hit through @cache; returns the store pass's reads */
static long fire_with(struct hit *h, struct probe_cache *cache)
{
	long copies;

	free(h->rec);
	h->dyn = probe_prog_dyn_size(h->prog, &regs, NULL, cache);
	h->size = h->prog->fixed_size + h->dyn;
	h->rec = calloc(1, h->size);
	copies = fake_mem_copies;
	probe_prog_store(h->prog, &regs, NULL, h->rec, h->size, cache);
	copies = fake_mem_copies - copies;
	trace_seq_init(&h->seq);
	probe_prog_print(h->prog, h->rec, h->size, &h->seq);
	return copies;
}

/* 192 bytes of fixed fields: too big a record to stage, so strings cache */
#define BIG " +0(%di):x64[24]"

/*
 * The size pass caches short strings, faults included: the store pass
 * reads none of them again, nor the pointers on the way to them.
 */
static void test_string_cache(void)
{
	const char *want = " arg1=\"/etc/passwd\" arg2=\"user string\""
			   " arg3=(fault)";
	struct probe_cache cache;
	struct hit h;

	if (compile(&env_x86, "p vfs_read +0(+8(%di)):string "
		    "+0(+16(%di)):ustring +0(+104(%di)):string" BIG, &h,
		    __LINE__)) {
		/* two pointers read, the third faults; strings: not counted */
		CHECK(fire_with(&h, NULL) == 4);
		CHECK(fire_with(&h, &cache) == 1);
		CHECK(!cache.staged);
		CHECK(cache.nr == 3 && cache.used == 12 + 12 + 0);
		CHECK(cache.ent[2].len == 0);
		CHECK(!strncmp(h.seq.buffer, want, strlen(want)));
	}
	release(&h);
	/* five strings: the fifth is read twice */
	if (compile(&env_x86, "p vfs_read +0(%si):string +0(%si):string "
		    "+0(%si):string +0(%si):string +0(+8(%di)):string" BIG,
		    &h, __LINE__)) {
		CHECK(fire_with(&h, &cache) == 2);
		CHECK(cache.nr == PROBE_CACHE_STRS && cache.used == 48);
		CHECK(h.dyn == 5 * 12);
	}
	release(&h);
	/* longer than the cache: sized from where the copy stopped */
	if (compile(&env_x86, "p vfs_read +0(%dx):ustring \\0x7f0000010000:ustring",
		    &h, __LINE__)) {
		fire_with(&h, &cache);
		CHECK(cache.nr == 1 && h.dyn == 12 + PROBE_MAX_STRING);
		CHECK(h.rec[h.size - 1] == '\0' && h.rec[h.size - 2] == 'y');
	}
	release(&h);
	/* a cached string is stored as it was sized, even if it changed */
	if (compile(&env_x86, "p vfs_read +0(%si):string", &h, __LINE__)) {
		h.dyn = probe_prog_dyn_size(h.prog, &regs, NULL, &cache);
		puts_at(K_PATH, "/etc/group!", 12);
		h.size = h.prog->fixed_size + h.dyn;
		h.rec = calloc(1, h.size);
		probe_prog_store(h.prog, &regs, NULL, h.rec, h.size, &cache);
		trace_seq_init(&h.seq);
		probe_prog_print(h.prog, h.rec, h.size, &h.seq);
		check_print(&h, " arg1=\"/etc/passwd\"", __LINE__);
		puts_at(K_PATH, "/etc/passwd", 12);
	}
	release(&h);
}

/*
 * A record that fits in the cache is staged there whole by the size pass:
 * the store pass reads nothing, and the record is the one two passes
 * would have written.
 */
static void test_stage(void)
{
	static const char *const defs[] = {
		"p vfs_read +0(+8(%di)):string +0(+16(%di)):ustring "
		"+0(+104(%di)):string %di:u32 $comm",
		"p vfs_read +0(%si):string +0(%si):string +0(%si):string "
		"+0(%si):string +0(%si):string +0(+8(%di)):string",
	};
	struct probe_cache cache;
	unsigned int i, size;
	struct hit h;
	char *two;

	for (i = 0; i < ARRAY_SIZE(defs); i++) {
		if (!compile(&env_x86, defs[i], &h, __LINE__))
			continue;
		fire_with(&h, NULL);
		size = h.size;
		two = malloc(size);
		memcpy(two, h.rec, size);
		CHECK(fire_with(&h, &cache) == 0);
		CHECK(cache.staged == size && h.size == size);
		CHECK(!memcmp(two + h.prog->hdr_size, h.rec + h.prog->hdr_size,
			      size - h.prog->hdr_size));
		free(two);
		release(&h);
	}
	/* a string too long to stage: sized and stored in two passes */
	if (compile(&env_x86, "p vfs_read \\0x7f0000010000:ustring", &h,
		    __LINE__)) {
		fire_with(&h, &cache);
		CHECK(!cache.staged && h.dyn == PROBE_MAX_STRING);
	}
	release(&h);
}

/* A string that grew after it was sized is cut to the room reserved */
static void test_string_grew(void)
{
	struct hit h;
	unsigned int stored;
	u32 loc;

	if (!compile(&env_x86, "p vfs_read +0(%si):string $comm", &h, __LINE__))
		goto out;
	h.dyn = probe_prog_dyn_size(h.prog, &regs, NULL, NULL);
	CHECK(h.dyn == 12 + 5);
	puts_at(K_PATH, "/etc/passwd-longer", 19);
	h.size = h.prog->fixed_size + h.dyn;
	h.rec = calloc(1, h.size);
	stored = probe_prog_store(h.prog, &regs, NULL, h.rec, h.size, NULL);
	CHECK(stored == h.dyn);
	memcpy(&loc, h.rec + 16, 4);
	CHECK(loc == probe_data_loc(17, 24));
	memcpy(&loc, h.rec + 20, 4);
	CHECK(loc == probe_data_loc(0, 41));
	trace_seq_init(&h.seq);
	probe_prog_print(h.prog, h.rec, h.size, &h.seq);
	check_print(&h, " arg1=\"/etc/passwd-long\" arg2=(fault)", __LINE__);
	puts_at(K_PATH, "/etc/passwd\0-longer", 19);
	/* a record smaller than the fixed part is left alone */
	memset(h.rec, 0x5a, h.size);
	CHECK(!probe_prog_store(h.prog, &regs, NULL, h.rec, 23, NULL) &&
	      h.rec[16] == 0x5a);
	CHECK(probe_prog_print(h.prog, h.rec, 23, &h.seq) == -EINVAL);
out:
	release(&h);
}

/* Printing trusts no __data_loc, and stops when the buffer is full */
static void test_print_guards(void)
{
	struct hit h;
	u32 loc;

	if (!compile(&env_x86, "p vfs_read +0(%si):string", &h, __LINE__))
		goto out;
	fire(&h, &regs, __LINE__);
	loc = probe_data_loc(13, 20);	/* one byte past the record */
	memcpy(h.rec + 16, &loc, 4);
	trace_seq_init(&h.seq);
	CHECK(!probe_prog_print(h.prog, h.rec, h.size, &h.seq));
	check_print(&h, " arg1=(fault)", __LINE__);
	trace_seq_init(&h.seq);
	h.seq.len = sizeof(h.seq.buffer) - 4;
	CHECK(probe_prog_print(h.prog, h.rec, h.size, &h.seq) == -EOVERFLOW);
out:
	release(&h);
}

/* ---- Compile and register time ---- */

static void test_symbols(void)
{
	struct tpp_error err;
	struct probe_prog *prog;
	struct tpp_def *def;
	struct hit h;

	/* until resolved, @SYM reads address 0 + OFFS, which faults */
	def = tpp_parse_kprobe("p vfs_read @jiffies @fake_table:string",
			       &env_x86, &err);
	prog = probe_prog_compile(def, 16);
	if (CHECK(!IS_ERR(prog)) && CHECK(prog->nr_syms == 3)) {
		memset(&h, 0, sizeof(h));
		h.prog = prog;
		fire(&h, &regs, __LINE__);
		check_print(&h, " arg1=0x0 arg2=(fault)", __LINE__);
		free(h.rec);
		CHECK(!probe_prog_resolve_symbols(prog, fake_kallsyms_lookup,
						  NULL));
		h.rec = NULL;
		fire(&h, &regs, __LINE__);
		check_print(&h, " arg1=0x100000123 arg2=\"tbl\"", __LINE__);
		free(h.rec);
		probe_prog_free(prog);
	}
	tpp_free(def);

	/* an unknown symbol: -ENOENT, and which argument it is in */
	def = tpp_parse_kprobe("p vfs_read @jiffies $comm +8(@nosuch)",
			       &env_x86, &err);
	prog = probe_prog_compile(def, 16);
	CHECK(probe_prog_unknown_symbol(prog) == -1);
	CHECK(probe_prog_resolve_symbols(prog, fake_kallsyms_lookup, NULL) ==
	      -ENOENT);
	CHECK(probe_prog_unknown_symbol(prog) == 2);
	probe_prog_free(prog);
	tpp_free(def);
	/* found again (a module came back): no argument at fault */
	def = tpp_parse_kprobe("p vfs_read @jiffies", &env_x86, &err);
	prog = probe_prog_compile(def, 16);
	CHECK(!probe_prog_resolve_symbols(prog, fake_kallsyms_lookup, NULL));
	CHECK(probe_prog_unknown_symbol(prog) == -1);
	probe_prog_free(prog);
	tpp_free(def);
}

/*
 * A wprobe: the handler passes the watched address as entry data word 0,
 * which $addr reads; the value is read through it.
 */
static void test_wprobe(void)
{
	struct tpp_error err;
	struct hit h;
	u32 *var = fake_mem_at(KBASE + 64);

	memset(&h, 0, sizeof(h));
	h.def = tpp_parse_wprobe("w:ev w@0x1000:4 $addr v=+0($addr):u32 "
				 "+4($addr):s32", &env_x86, &err);
	if (!CHECK(!IS_ERR(h.def))) {
		h.def = NULL;
		return;
	}
	h.prog = probe_prog_compile(h.def, 16);
	if (CHECK(!IS_ERR(h.prog))) {
		var[0] = 1234;
		var[1] = (u32)-5;
		h.edata[0] = KBASE + 64;
		fire_exit(&h, __LINE__);
		check_print(&h, " arg1=0xffff888000001040 v=1234 arg3=-5",
			    __LINE__);
	} else {
		h.prog = NULL;
	}
	release(&h);
}

static void test_compile_errors(void)
{
	const char *cmd = "r10:g/e vfs_read a=+0(%di):u32 $comm @jiffies "
			  "\\\"s\" %ax:b4@2/8 $stack0:%pD $arg2 +0($arg1):string";
	struct tpp_error err;
	struct probe_prog *prog;
	struct tpp_def *def;
	long n, total;


	/* the one allocation fails cleanly */
	def = tpp_parse_kprobe(cmd, &env_x86, &err);
	kshim_allocs = 0;
	prog = probe_prog_compile(def, 24);
	total = kshim_allocs;
	CHECK(!IS_ERR(prog) && total == 1);
	probe_prog_free(prog);
	for (n = 1; n <= total; n++) {
		kshim_fail_countdown = n;
		CHECK(PTR_ERR(probe_prog_compile(def, 24)) == -ENOMEM);
	}
	kshim_fail_countdown = 0;
	tpp_free(def);
	probe_prog_free(NULL);
	probe_prog_free(ERR_PTR(-ENOMEM));
}

/* 128 arguments, and the biggest fixed part the parser allows */
static void test_limits(void)
{
	char cmd[4096];
	struct hit h;
	int i, n;

	n = snprintf(cmd, sizeof(cmd), "p vfs_read");
	for (i = 0; i < TPP_MAX_ARGS; i++)
		n += snprintf(cmd + n, sizeof(cmd) - n, " \\%d:u64", i);
	if (compile(&env_x86, cmd, &h, __LINE__)) {
		fire(&h, &regs, __LINE__);
		CHECK(h.prog->fixed_size == 16 + 8 * TPP_MAX_ARGS &&
		      h.rec[16 + 8 * 127] == 127);
		CHECK(!strncmp(h.seq.buffer + h.seq.len - 11, " arg128=127", 11));
	}
	release(&h);
	n = snprintf(cmd, sizeof(cmd), "p vfs_read");
	for (i = 0; i < 6; i++)
		n += snprintf(cmd + n, sizeof(cmd) - n, " +0(%%di):u64[64]");
	if (compile(&env_x86, cmd, &h, __LINE__)) {
		fire(&h, &regs, __LINE__);
		CHECK(h.prog->fixed_size == 16 + 3072);
	}
	release(&h);
}

int main(void)
{
	test_table();
	test_dump_table();
	world();
	test_sources();
	test_types();
	test_derefs();
	test_faults();
	test_joined_reads();
	test_bitfields();
	test_whole();
	test_arrays();
	test_eprobe_string_arrays();
	test_wprobe();
	test_eprobe_fields();
	test_eprobe_format();
	test_uprobe();
	test_entry_data();
	test_entry_values();
	test_percpu();
	test_abi_regs();
	test_arm64_args();
	test_formats();
	test_strsize_sweep();
	test_long_strings();
	test_dyn_kinds();
	test_string_grew();
	test_string_cache();
	test_stage();
	test_eprobe_text_as_number();
	test_print_guards();
	test_symbols();
	test_compile_errors();
	test_limits();
	fake_mem_reset();
	printf("probe_fetch: %d tests, %d failures\n", tests, failures);
	return failures ? 1 : 0;
}
