// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for kernel/trace/trace_probe.c and probe_fetch.c, built
 * as they are against kshim.h, trace_probe_test_env.c and fake_mem.c (see README.md).
 *
 * An input is three header bytes and a command:
 *
 *	byte 0	bits 0-1: the kernel (x86, arm64, x86 + BTF, arm64 + BTF)
 *		bits 2-4: how tpp_parse_args() is called (enum fuzz_mode)
 *		bits 5-7: the probed function it gets (fuzz_funcs[])
 *	byte 1	seeds the registers and the stack of the hit
 *	byte 2	bit 0: hand the command over as is instead of as the tracer
 *		does (argv_split() and joined by single spaces);
 *		bits 4-7 all set: also fail allocations (fail_allocs())
 *	rest	the command; the tracer's cuts apply (first line, '#')
 *
 * The command goes to tpp_parse_kprobe(), tpp_parse_wprobe() and to
 * tpp_parse_args().  A
 * failure must be a negative errno with a valid message id and a caret
 * inside the command (or one past it).  A definition is checked, compiled,
 * run against the fake machine (entry data, size, store), its record
 * checked (bytes stored as sized, __data_loc words inside the record and
 * in order), printed from a record allocated at its exact size so that
 * ASan sees any overread, and its print fmt sized and written.  A
 * definition must be appendable to, and the same probe as, itself.
 *
 * Any broken invariant abort()s with the command on stderr, so libFuzzer
 * saves the input; ASan, UBSan and LeakSanitizer report the rest.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>

#include "kshim.h"
#include "trace_probe.h"
#include "probe_fetch.h"
#include "trace_probe_test_env.h"
#include "fake_mem.h"

long kshim_fail_countdown;
long kshim_allocs;

#define FUZZ_HDR	3
#define FUZZ_MAX_CMD	4094	/* what one line of a tracefs write can hold */

/* For the report: the command, the call, the last error seen */
static const char *fuzz_cmd;
static char fuzz_call_desc[128];
static struct tpp_error fuzz_err;

static void fuzz_fail(const char *what, int line)
{
	fprintf(stderr, "%s:%d: invariant broken: %s\n"
		"  cmd: '%s'\n  call: %s\n"
		"  error: errno %d id %d (%s) pos %u\n",
		__FILE__, line, what, fuzz_cmd ?: "(none)", fuzz_call_desc,
		fuzz_err.errnum, fuzz_err.id,
		fuzz_err.id >= 0 && fuzz_err.id < TPP_E_MAX ?
		tpp_err_text[fuzz_err.id] : "-", fuzz_err.pos);
	abort();
}

#define FUZZ_CHECK(cond) \
	do { if (!(cond)) fuzz_fail(#cond, __LINE__); } while (0)

/* ---- The kernels and the ways the argument parser is called ---- */

static struct tpp_env fuzz_envs[4];

enum fuzz_mode {
	FUZZ_KPROBE,		/* kprobe at a function entry */
	FUZZ_KRETPROBE,
	FUZZ_FENTRY,
	FUZZ_FEXIT,
	FUZZ_TPROBE,
	FUZZ_UPROBE,
	FUZZ_URETPROBE,
	FUZZ_EPROBE,
};

/* Which parser a call runs */
enum fuzz_parser {
	FUZZ_PARSE_KPROBE,	/* tpp_parse_kprobe() */
	FUZZ_PARSE_WPROBE,	/* tpp_parse_wprobe() */
	FUZZ_PARSE_ARGS,	/* tpp_parse_args() */
};

static const unsigned int fuzz_flags[] = {
	[FUZZ_KPROBE] = TPP_ENTRY,
	[FUZZ_KRETPROBE] = TPP_RETURN,
	[FUZZ_FENTRY] = TPP_FPROBE | TPP_ENTRY,
	[FUZZ_FEXIT] = TPP_FPROBE | TPP_RETURN,
	[FUZZ_TPROBE] = TPP_FPROBE | TPP_TPOINT | TPP_ENTRY,
	[FUZZ_UPROBE] = TPP_USER,
	[FUZZ_URETPROBE] = TPP_USER | TPP_RETURN,
	[FUZZ_EPROBE] = TPP_EVENT,
};

/* Functions of trace_probe_test_env.c: with BTF, without, void, many parameters */
static const char *const fuzz_funcs[] = {
	NULL, "vfs_read", "kfree", "dput", "noparams", "longfunc", "nobtf",
	"do_exit",
};

/* Uprobes and eprobes have no function; fprobes always have one */
static const char *mode_func(enum fuzz_mode mode, unsigned int i)
{
	if (mode >= FUZZ_UPROBE)
		return NULL;
	if (mode >= FUZZ_FENTRY && !fuzz_funcs[i])
		return "vfs_read";
	return fuzz_funcs[i];
}

/* ---- The machine a probe hits on ---- */

#define KBASE	0xffff888000001000UL	/* 2 kernel pages */
#define KHOLE	0xffff888000003000UL	/* never mapped */
#define KEDGE	0xffff888000004000UL	/* 1 kernel page, a hole after */
#define KLONG	0xffff888000010000UL	/* 2 pages of 'x', no NUL */
#define UBASE	0x00007f0000001000UL	/* 1 user page, a hole after */
#define ULONGS	0x00007f0000010000UL	/* 2 pages of 'y', no NUL */
#define UTOP	(TASK_SIZE - FAKE_PAGE)	/* 'z' up to TASK_SIZE */
#define KS	(KBASE + 0x100)		/* 0x400 bytes of pool words */
#define K_SELF	(KBASE + 0x500)		/* points to itself */
#define K_PATH	(KBASE + 0x600)
#define K_HELLO	(KBASE + 0x620)
#define K_EMPTY	(KBASE + 0x640)
#define K_CROSS	(KBASE + 0xff8)		/* "crosspage", over a page boundary */
#define K_TAIL	(KBASE + 0x1ff8)	/* u32 1, u32 2, then the hole */
#define K_EDGE	(KEDGE + 0xffc)		/* "abcd", then the hole */
#define U_STR	(UBASE + 0x20)
#define U_EMPTY	(UBASE + 0x80)
#define U_VAL	(UBASE + 0x100)
#define U_PTRS	(UBASE + 0x200)		/* user pointers to user strings */
#define U_EDGE	(UBASE + 0xffe)		/* "xy", then the hole */
#define SP	(FAKE_STACK_TOP - 0x800)
#define SP_REG	(KSHIM_REG_SP / sizeof(long))

/* What registers, stack slots and struct members hold */
static const unsigned long pool[] = {
	KS, K_PATH, K_HELLO, K_EMPTY, K_SELF, K_CROSS, K_TAIL, K_EDGE, KHOLE,
	KLONG, KLONG + 0x1ff0, U_STR, U_EMPTY, U_VAL, U_PTRS, U_EDGE, ULONGS,
	TASK_SIZE - 8, FAKE_TEXT + 0x10, FAKE_DATA, SP, 0, 1, 3, -100UL,
	TASK_SIZE - 1, TASK_SIZE, ~0UL, 1UL << 63, KS + 0x80,
	FAKE_TEXT + 0x1001,
};

#define NR_POOL	ARRAY_SIZE(pool)

static struct pt_regs regs, entry_regs;
static u8 *guard_end;		/* 64K of memory, then a page that faults */
static bool fuzz_strict;	/* FUZZ_STRICT=1: known quirks abort too */
/* A scribbled record is filled with the input, over and over */
static const u8 *fuzz_data;
static size_t fuzz_size;

static void scribble(u8 *p, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = fuzz_data[i % fuzz_size];
}

static void put64(unsigned long addr, unsigned long v)
{
	memcpy(fake_mem_at(addr), &v, sizeof(v));
}

static void puts_at(unsigned long addr, const char *s)
{
	memcpy(fake_mem_at(addr), s, strlen(s) + 1);
}

static void world_init(void)
{
	unsigned int i;

	fake_mem_reset();
	fake_mem_map(KBASE, 2 * FAKE_PAGE, false);
	fake_mem_map(KEDGE, FAKE_PAGE, false);
	memset(fake_mem_map(KLONG, 2 * FAKE_PAGE, false), 'x', 2 * FAKE_PAGE);
	fake_mem_map(UBASE, FAKE_PAGE, true);
	memset(fake_mem_map(ULONGS, 2 * FAKE_PAGE, true), 'y', 2 * FAKE_PAGE);
	memset(fake_mem_map(UTOP, FAKE_PAGE, true), 'z', FAKE_PAGE);
	fake_mem_map(FAKE_STACK_TOP - 4 * FAKE_PAGE, 4 * FAKE_PAGE, false);
	fake_mem_map(FAKE_DATA, FAKE_PAGE, false);
	fake_mem_map(FAKE_TEXT, FAKE_PAGE, false);

	for (i = 0; i < 0x400 / sizeof(long); i++)
		put64(KS + i * sizeof(long), pool[(i * 7) % NR_POOL]);
	puts_at(KS + 0x30, "comm_in_file");	/* BTF f_comm */
	put64(K_SELF, K_SELF);
	puts_at(K_PATH, "/etc/passwd");
	puts_at(K_HELLO, "hello");
	puts_at(K_EMPTY, "");
	puts_at(K_CROSS, "crosspage");
	put64(K_TAIL, 0x0000000200000001UL);
	memcpy(fake_mem_at(K_EDGE), "abcd", 4);
	puts_at(U_STR, "user string");
	puts_at(U_EMPTY, "");
	put64(U_VAL, 0xdeadbeef);
	put64(U_PTRS, U_STR);
	put64(U_PTRS + 8, U_EMPTY);
	put64(U_PTRS + 16, U_EDGE);
	put64(U_PTRS + 24, ULONGS);
	put64(U_PTRS + 32, KHOLE);
	memcpy(fake_mem_at(U_EDGE), "xy", 2);
	put64(FAKE_DATA, 0x100000123UL);
	puts_at(FAKE_DATA + 0x40, "tbl");
	memcpy(fake_mem_at(FAKE_TEXT), "\x0f\x1f\x44", 3);
	memcpy(kshim_task.comm, "fuzz_comm_15chr", TASK_COMM_LEN);
}

/* Registers and the stack above SP, from the pool, as @seed picks */
static void world_hit(unsigned int seed)
{
	unsigned int i;

	for (i = 0; i < KSHIM_NR_REGS; i++) {
		regs.r[i] = pool[(i * 5 + seed) % NR_POOL];
		entry_regs.r[i] = pool[(i * 3 + seed / 4) % NR_POOL];
	}
	regs.r[SP_REG] = SP;
	entry_regs.r[SP_REG] = SP;
	for (i = 0; i < (FAKE_STACK_TOP - SP) / sizeof(long); i++)
		put64(SP + i * sizeof(long), pool[(i + seed) % NR_POOL]);
}

/* @SYM: fake_mem.c's symbols, and made-up addresses for other names */
static unsigned long fuzz_lookup(void *priv, const char *name)
{
	unsigned long addr = fake_kallsyms_lookup(priv, name);
	unsigned long h = 5381;

	if (addr)
		return addr;
	while (*name)
		h = h * 33 + (unsigned char)*name++;
	switch (h % 4) {
	case 1:
		return KS + h % 0x400;
	case 2:
		return KHOLE + h % FAKE_PAGE;
	case 3:
		return K_CROSS;
	}
	return 0;
}

/* ---- The command, as the tracer hands it over ---- */

/* The kernel's isspace(): Latin-1, NBSP included */
static bool kspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

/*
 * trace_parse_run_command() cuts the line at '\n' and '#'; the tracer
 * splits it with argv_split() and joins the words with single spaces.
 */
static char *make_cmd(const u8 *data, size_t size, bool raw)
{
	char *cmd = malloc(size + 1);
	size_t i, n = 0;
	bool space = false;

	for (i = 0; i < size && n < FUZZ_MAX_CMD; i++) {
		if (!data[i] || (!raw && (data[i] == '\n' || data[i] == '#')))
			break;
		if (!raw && kspace(data[i])) {
			space = n > 0;
			continue;
		}
		if (space)
			cmd[n++] = ' ';
		space = false;
		cmd[n++] = data[i];
	}
	cmd[n] = '\0';
	return cmd;
}

/* ---- Invariants ---- */

/*
 * A "$arg" other than @entry($argN)'s: the expansion of @entry($argN), and
 * of :%pd after it, map their carets back into the command.
 */
static bool has_bare_argn(const char *cmd)
{
	static const char entry[] = "@entry(";
	const size_t n = sizeof(entry) - 1;
	const char *p;

	for (p = strstr(cmd, "$arg"); p; p = strstr(p + 1, "$arg"))
		if ((size_t)(p - cmd) < n || memcmp(p - n, entry, n))
			return true;
	return false;
}

/* A '(' of a dereference; @entry('s maps its carets back */
static bool has_deref(const char *cmd)
{
	static const char entry[] = "@entry";
	const size_t n = sizeof(entry) - 1;
	const char *p;

	for (p = strchr(cmd, '('); p; p = strchr(p + 1, '('))
		if ((size_t)(p - cmd) < n || memcmp(p - n, entry, n))
			return true;
	return false;
}

/*
 * A caret points into the command or one past it.  Except after a BTF
 * expansion ($arg*, and $argN with BTF): 6.12 points argument i at word
 * i + 2 even when $arg* expanded into several arguments, plus an offset
 * inside the expanded text ("$arg1" becomes the parameter's name), so a
 * caret can land past the end of the command (the error_log prints it
 * there).  The parser keeps that on purpose (trace_probe.h, struct
 * tpp_def); the offset is bounded by the longest argument text.
 */
static bool caret_ok(const char *cmd, unsigned int pos)
{
	size_t len = strlen(cmd);

	if (pos <= len + 1)
		return true;
	/*
	 * A type error after a BTF member chain ("file->f_mode:b3/8") counts
	 * its offset from where the last member starts, and one after a
	 * dereference ("+u6(%ax):symstr") from the dereference's inner
	 * value, as 6.12 does: past the end, but by less than the command's
	 * length (make diff checks these carets against 6.12).
	 */
	if ((strstr(cmd, "->") || has_deref(cmd)) && pos <= 2 * len + 1)
		return true;
	return has_bare_argn(cmd) &&
	       pos <= len + 1 + TPP_MAX_ARG_NAME_LEN + 1 + TPP_BTF_ARGS_BUF;
}

static void check_error(const char *cmd, const struct tpp_def *def,
			const struct tpp_error *err)
{
	fuzz_err = *err;
	FUZZ_CHECK(IS_ERR(def));
	FUZZ_CHECK(err->errnum < 0 && err->errnum >= -MAX_ERRNO);
	FUZZ_CHECK(PTR_ERR(def) == err->errnum);
	FUZZ_CHECK(err->id == TPP_E_NONE ||
		   (err->id >= 0 && err->id < TPP_E_MAX));
	FUZZ_CHECK(err->id == TPP_E_NONE || tpp_err_text[err->id]);
	FUZZ_CHECK(caret_ok(cmd, err->pos));
}

static void check_arg(const struct tpp_def *def, unsigned int i,
		      unsigned int len)
{
	const struct tpp_arg *arg = &def->args[i];
	unsigned int j;

	FUZZ_CHECK(arg->name && arg->name[0] && arg->comm);
	for (j = 0; j < i; j++)
		FUZZ_CHECK(strcmp(def->args[j].name, arg->name));
	FUZZ_CHECK(arg->pos <= len + 1);
	FUZZ_CHECK(arg->type < TPP_TYPE_MAX);
	FUZZ_CHECK(arg->count <= TPP_MAX_ARRAY_LEN);
	/* a structure recorded whole is bytes read where the last deref reads */
	if (arg->whole)
		FUZZ_CHECK(arg->store == TPP_ST_WHOLE && arg->fold && arg->btf &&
			   arg->btf_id && arg->type == TPP_TYPE_U8 &&
			   !arg->count && arg->whole <= TPP_MAX_EVENT_SIZE);
	else
		FUZZ_CHECK(arg->store <= TPP_ST_SYMSTR && !arg->btf);
	FUZZ_CHECK(arg->nr_ops < TPP_MAX_OPS);
	FUZZ_CHECK(arg->fetch.nr_derefs <= TPP_MAX_DEREFS);
	FUZZ_CHECK(!arg->fetch.nr_derefs || arg->fetch.deref);
	FUZZ_CHECK(!arg->fold || arg->fetch.nr_derefs);
	FUZZ_CHECK(arg->fetch.src != TPP_SRC_NONE &&
		   arg->fetch.src <= TPP_SRC_WATCH);
	FUZZ_CHECK((arg->fetch.src != TPP_SRC_SYMBOL &&
		    arg->fetch.src != TPP_SRC_IMMSTR) || arg->fetch.str);
	FUZZ_CHECK(arg->bf_bytes == 0 || arg->bf_bytes == 1 ||
		   arg->bf_bytes == 2 || arg->bf_bytes == 4 ||
		   arg->bf_bytes == 8);
	FUZZ_CHECK(!arg->bf_bytes || (arg->bf_lshift < 8 * arg->bf_bytes &&
				      arg->bf_rshift < 8 * arg->bf_bytes &&
				      arg->bf_lshift <= arg->bf_rshift));
}

/* A wprobe's head: a watch the hardware could take, names, carets */
static void check_wprobe(const struct tpp_def *def, unsigned int len)
{
	u8 n = def->watch.len;

	FUZZ_CHECK(def->kind == 'w' && def->flags == TPP_WATCH);
	FUZZ_CHECK(def->watch.access >= TPP_WATCH_R &&
		   def->watch.access <= TPP_WATCH_RW);
	FUZZ_CHECK(n == 1 || n == 2 || n == 4 || n == 8);
	FUZZ_CHECK(def->watch.len_pos <= len && def->place_pos <= len);
	FUZZ_CHECK(!def->module || def->symbol);
	FUZZ_CHECK(def->group && def->group[0] &&
		   strlen(def->group) < TPP_MAX_EVENT_NAME_LEN);
	FUZZ_CHECK(def->event && def->event[0] &&
		   strlen(def->event) < TPP_MAX_EVENT_NAME_LEN);
}

static void check_def(const char *cmd, const struct tpp_def *def,
		      const struct tpp_error *err, enum fuzz_parser parser)
{
	unsigned int i, size = 0, len = strlen(cmd);

	FUZZ_CHECK(!err->errnum && err->id == TPP_E_NONE);
	FUZZ_CHECK(def->nr_args <= TPP_MAX_ARGS);
	FUZZ_CHECK(!def->nr_args || def->args);
	FUZZ_CHECK(def->tail_pos <= len + 1);
	for (i = 0; i < def->nr_args; i++) {
		check_arg(def, i, len);
		size += tpp_arg_bytes(&def->args[i]);
	}
	FUZZ_CHECK(size == def->size && size <= TPP_MAX_EVENT_SIZE);
	if (parser == FUZZ_PARSE_WPROBE)
		check_wprobe(def, len);
	if (parser != FUZZ_PARSE_KPROBE)
		return;
	FUZZ_CHECK(def->kind == 'p' || def->kind == 'r');
	/* 6.12: an address kretprobe is not "at an exit" for its arguments */
	FUZZ_CHECK(!(def->flags & TPP_RETURN) || def->is_return);
	FUZZ_CHECK(!def->symbol || !def->is_return ||
		   (def->flags & TPP_RETURN));
	FUZZ_CHECK(def->maxactive <= TPP_MAXACTIVE_MAX);
	FUZZ_CHECK(!def->maxactive || def->is_return);
	FUZZ_CHECK(def->group && def->group[0] &&
		   strlen(def->group) < TPP_MAX_EVENT_NAME_LEN);
	FUZZ_CHECK(def->event && def->event[0] &&
		   strlen(def->event) < TPP_MAX_EVENT_NAME_LEN);
	FUZZ_CHECK(def->place_pos <= len);
	FUZZ_CHECK(!def->module || def->symbol);
	FUZZ_CHECK(def->offset <= UINT_MAX);
}

static void check_layout(const struct tpp_def *def,
			 const struct probe_prog *prog, unsigned int hdr)
{
	const struct probe_field *f;
	unsigned int i, at = hdr;

	FUZZ_CHECK(prog->hdr_size == hdr);
	FUZZ_CHECK(prog->nr_fields == def->nr_args);
	FUZZ_CHECK(prog->is_return == def->is_return);
	for (i = 0; i < prog->nr_fields; i++) {
		f = &prog->fields[i];
		FUZZ_CHECK(!strcmp(f->name, def->args[i].name));
		FUZZ_CHECK(f->offset == at && f->count == def->args[i].count);
		FUZZ_CHECK(f->size == tpp_arg_bytes(&def->args[i]));
		FUZZ_CHECK(def->args[i].whole ||
			   f->size == tpp_type_size(def->args[i].type) *
				      (f->count ?: 1));
		at += f->size;
	}
	FUZZ_CHECK(prog->fixed_size == at && at == hdr + def->size);
}

/*
 * Every __data_loc points into the dynamic area, the strings follow one
 * another in argument order, each ends in a NUL, and together they are
 * the bytes stored.
 */
static void check_locs(const struct probe_prog *prog, const u8 *rec,
		       unsigned int rec_size, unsigned int stored)
{
	unsigned int i, j, len, at, next = prog->fixed_size;
	const struct probe_field *f;
	u32 loc;

	for (i = 0; i < prog->nr_fields; i++) {
		f = &prog->fields[i];
		if (strncmp(f->type, "__data_loc", 10))
			continue;
		for (j = 0; j < (f->count ?: 1u); j++) {
			memcpy(&loc, rec + f->offset + 4 * j, 4);
			len = probe_loc_len(loc);
			at = probe_loc_offset(loc);
			if (!len)
				continue;
			FUZZ_CHECK(at == next);
			FUZZ_CHECK(at + len <= rec_size);
			FUZZ_CHECK(!rec[at + len - 1]);
			next += len;
		}
	}
	FUZZ_CHECK(next - prog->fixed_size == stored);
}

static void check_print_fmt(const struct probe_prog *prog)
{
	int len = probe_prog_print_fmt(prog, NULL, 0);
	char *buf;
	int cut;

	FUZZ_CHECK(len > 0);
	buf = malloc(len + 1);
	FUZZ_CHECK(probe_prog_print_fmt(prog, buf, len + 1) == len);
	FUZZ_CHECK(strlen(buf) == (size_t)len);
	free(buf);
	/* cut short: still NUL-terminated, still the whole length */
	cut = len / 2 + 1;
	buf = malloc(cut);
	FUZZ_CHECK(probe_prog_print_fmt(prog, buf, cut) == len);
	FUZZ_CHECK(strlen(buf) == (size_t)cut - 1);
	free(buf);
}

/* An instruction pd_ops[] has no name for dumps as "OP<number>" */
static bool unnamed_step(const char *s)
{
	for (s = strstr(s, "OP"); s; s = strstr(s + 2, "OP"))
		if (s[2] >= '0' && s[2] <= '9')
			return true;
	return false;
}

/*
 * Each argument's dump: sized as written, cut short still terminated, and
 * lines of "#  NAME: ... END" that cover every instruction of its runs
 */
static void check_dump(const struct probe_prog *prog)
{
	unsigned int i;
	char *buf;
	int len;

	for (i = 0; i < prog->nr_fields; i++) {
		len = probe_prog_dump_arg(prog, i, NULL, 0);
		FUZZ_CHECK(len > 0);
		buf = malloc(len + 1);
		FUZZ_CHECK(probe_prog_dump_arg(prog, i, buf, len + 1) == len);
		FUZZ_CHECK(strlen(buf) == (size_t)len);
		FUZZ_CHECK(!strncmp(buf, "#  ", 3) && buf[len - 1] == '\n');
		FUZZ_CHECK(!unnamed_step(buf));
		FUZZ_CHECK(probe_prog_dump_arg(prog, i, buf, len / 2 + 1) == len);
		FUZZ_CHECK(strlen(buf) == (size_t)len / 2);
		free(buf);
	}
}

/*
 * Known (6.12 does the same, fetch_store_string() gets the room left): a
 * string whose sizing faulted, read again by the store with less room
 * than its bytes before the fault, is stored as a cut prefix instead of a
 * fault, and the strings after it lose their room (README.md, Findings).
 * True when some string faults with room to spare but not in @rec.
 */
static bool fault_took_room(const struct probe_prog *prog, const u8 *rec,
			    const u8 *rec2)
{
	const struct probe_field *f;
	unsigned int i, j;
	u32 loc, loc2;

	for (i = 0; i < prog->nr_fields; i++) {
		f = &prog->fields[i];
		if (strncmp(f->type, "__data_loc", 10))
			continue;
		for (j = 0; j < (f->count ?: 1u); j++) {
			memcpy(&loc, rec + f->offset + 4 * j, 4);
			memcpy(&loc2, rec2 + f->offset + 4 * j, 4);
			if (!probe_loc_len(loc2) && probe_loc_len(loc))
				return true;
		}
	}
	return false;
}

/*
 * Store cuts strings to the room left, so a wrong size would not show as
 * bytes stored != bytes sized.  With room to spare it must still write
 * exactly what was sized, and the same bytes.
 */
static void check_slack(const struct probe_prog *prog,
			const unsigned long *edata, const u8 *rec,
			unsigned int size, unsigned int stored)
{
	unsigned int big = size + PROBE_MAX_STRING;
	u8 *rec2;

	if (big > 0xffff)
		return;
	rec2 = malloc(big);
	memcpy(rec2, rec, prog->hdr_size);
	memset(rec2 + prog->hdr_size, 0xa5, big - prog->hdr_size);
	FUZZ_CHECK(probe_prog_store(prog, &regs, edata, rec2, big, NULL) ==
		   stored);
	if (memcmp(rec, rec2, size))
		FUZZ_CHECK(!fuzz_strict && fault_took_room(prog, rec, rec2));
	free(rec2);
}

/*
 * Point every __data_loc at the whole dynamic area, filled with non-NULs
 * so that "%.*s" reads all of it, and @past bytes beyond the record.
 */
static void print_edge(const struct probe_prog *prog, u8 *rec,
		       unsigned int size, unsigned int past)
{
	u32 loc = probe_data_loc(size - prog->fixed_size + past,
				 prog->fixed_size);
	static struct trace_seq seq;
	const struct probe_field *f;
	unsigned int i, j;
	int ret;

	memset(rec + prog->fixed_size, 'E', size - prog->fixed_size);
	for (i = 0; i < prog->nr_fields; i++) {
		f = &prog->fields[i];
		if (strncmp(f->type, "__data_loc", 10))
			continue;
		for (j = 0; j < (f->count ?: 1u); j++)
			memcpy(rec + f->offset + 4 * j, &loc, 4);
	}
	trace_seq_init(&seq);
	ret = probe_prog_print(prog, rec, size, &seq);
	FUZZ_CHECK(!ret || (ret == -EOVERFLOW && seq.full));
}

/* The probe handler, then the reader of the trace */
/*
 * What a probe with no entry data gets as @edata: an eprobe the attached
 * event's record (fields past its end are not asked for: the fake event's
 * are in its first 64 bytes), a uprobe the start of the probed mapping.
 */
static unsigned long fuzz_ctx[32] = { UBASE };

/*
 * The same hit with a probe_cache between the passes (as the kprobe and
 * fprobe handlers run it) sizes and stores the same bytes, but for the
 * quirk of fault_took_room(): a cached string is stored as it was sized,
 * so there the cached record has the fault, and is the right one.
 */
static void check_cached(const struct probe_prog *prog,
			 const unsigned long *edata, const u8 *rec,
			 unsigned int dyn, unsigned int stored)
{
	unsigned int size = prog->fixed_size + dyn;
	struct probe_cache cache;
	u8 *rec2;

	fake_stack_garbage(&cache, size);
	FUZZ_CHECK(probe_prog_hit_size(prog, &regs, edata, &cache) == dyn);
	/* without dynamic data the cache stays garbage, and is never read */
	if (probe_prog_has_dyn(prog))
		FUZZ_CHECK(cache.nr <= PROBE_CACHE_STRS &&
			   cache.used <= PROBE_CACHE_BYTES);
	rec2 = malloc(size ?: 1);
	memcpy(rec2, rec, prog->hdr_size);
	memset(rec2 + prog->hdr_size, 0xa5, size - prog->hdr_size);
	if (probe_prog_store(prog, &regs, edata, rec2, size, &cache) !=
	    stored || memcmp(rec, rec2, size))
		FUZZ_CHECK(!fuzz_strict && fault_took_room(prog, rec, rec2));
	free(rec2);
}

static void hit(const struct probe_prog *prog)
{
	static struct trace_seq seq;
	unsigned long *edata = fuzz_ctx;
	unsigned int dyn, size, stored;
	long allocs;
	u8 *rec;
	int ret;

	/* a uretprobe's entry data starts with the mapping's start too */
	if (probe_prog_edata_size(prog)) {
		edata = malloc(probe_prog_edata_size(prog));
		edata[0] = UBASE;
	}
	allocs = kshim_allocs;
	probe_prog_save_entry(prog, &entry_regs, edata);
	dyn = probe_prog_dyn_size(prog, &regs, edata, NULL);
	FUZZ_CHECK(probe_prog_has_dyn(prog) || !dyn);
	FUZZ_CHECK(dyn >= prog->dyn_const);
	size = prog->fixed_size + dyn;
	rec = malloc(size ?: 1);
	memset(rec, 0xa5, size);
	/* too small for the fixed part: nothing is written */
	if (prog->fixed_size)
		FUZZ_CHECK(!probe_prog_store(prog, &regs, edata, rec,
					     prog->fixed_size - 1, NULL));
	stored = probe_prog_store(prog, &regs, edata, rec, size, NULL);
	/* __data_loc has 16 bits of offset: a longer record is cut there */
	if (size <= 0xffff)
		FUZZ_CHECK(stored == dyn);
	else
		FUZZ_CHECK(stored <= dyn &&
			   prog->fixed_size + stored <= 0xffff);
	FUZZ_CHECK(kshim_allocs == allocs);
	check_locs(prog, rec, size, stored);
	check_slack(prog, edata, rec, size, stored);
	check_cached(prog, edata, rec, dyn, stored);
	trace_seq_init(&seq);
	ret = probe_prog_print(prog, rec, size, &seq);
	FUZZ_CHECK(!ret || (ret == -EOVERFLOW && seq.full));
	FUZZ_CHECK(seq.len < sizeof(seq.buffer));
	if (prog->fixed_size) {
		trace_seq_init(&seq);
		FUZZ_CHECK(probe_prog_print(prog, rec, prog->fixed_size - 1,
					    &seq) == -EINVAL);
	}
	/* a scribbled record: its __data_loc words point anywhere */
	scribble(rec + prog->hdr_size, size - prog->hdr_size);
	trace_seq_init(&seq);
	ret = probe_prog_print(prog, rec, size, &seq);
	FUZZ_CHECK(!ret || (ret == -EOVERFLOW && seq.full));
	/*
	 * ... up to the last byte of the record, and one past it.  libc's
	 * vsnprintf() reads the string, which ASan does not see: the record
	 * goes right before a page that faults.
	 */
	if (size > prog->fixed_size && size <= 0xffff) {
		memcpy(guard_end - size, rec, size);
		print_edge(prog, guard_end - size, size, 0);
		print_edge(prog, guard_end - size, size, 1);
	}
	FUZZ_CHECK(kshim_allocs == allocs);
	free(rec);
	if (edata != fuzz_ctx)
		free(edata);
}

static void run_def(const struct tpp_def *def)
{
	bool ret_hdr = def->is_return || (def->flags & TPP_RETURN);
	unsigned int hdr = ret_hdr ? 24 : 16;
	struct probe_prog *prog = probe_prog_compile(def, hdr);
	int ret;

	FUZZ_CHECK(!IS_ERR_OR_NULL(prog));
	check_layout(def, prog, hdr);
	ret = probe_prog_resolve_symbols(prog, fuzz_lookup, NULL);
	FUZZ_CHECK(!ret || ret == -ENOENT || ret == -EINVAL || ret == -ERANGE);
	hit(prog);
	check_print_fmt(prog);
	check_dump(prog);
	probe_prog_free(prog);
}

/* The same text twice is the same probe, and may join its own event */
static void check_self(const struct tpp_def *def, const struct tpp_def *again)
{
	struct tpp_error err = { 0, TPP_E_NONE, 0 };

	FUZZ_CHECK(!IS_ERR(again));
	FUZZ_CHECK(!tpp_check_append(def, again, &err));
	FUZZ_CHECK(!err.errnum && err.id == TPP_E_NONE);
	FUZZ_CHECK(tpp_same_probe(def, again) && tpp_same_probe(again, def));
}

static const char *const fuzz_parser_name[] = {
	"tpp_parse_kprobe", "tpp_parse_wprobe", "tpp_parse_args",
};

struct fuzz_call {
	const char *cmd;
	const struct tpp_env *env;
	enum fuzz_parser parser;
	unsigned int flags;
	const char *func;
};

static struct tpp_def *parse(const struct fuzz_call *c, struct tpp_error *err)
{
	if (c->parser == FUZZ_PARSE_KPROBE)
		return tpp_parse_kprobe(c->cmd, c->env, err);
	if (c->parser == FUZZ_PARSE_WPROBE)
		return tpp_parse_wprobe(c->cmd, c->env, err);
	return tpp_parse_args(c->cmd, 2, c->flags, c->func, c->env, err);
}

/*
 * The command without its last word defines fewer arguments (or as many,
 * when that word was a $arg* of a function without parameters): appending
 * one to the other's event fails on the arguments, never silently.
 */
static void check_shorter(const struct fuzz_call *c, const struct tpp_def *def)
{
	struct tpp_error err = { 0, TPP_E_NONE, 0 };
	const char *last = strrchr(c->cmd, ' ');
	struct fuzz_call s = *c;
	struct tpp_def *shorter;
	char *cmd;
	int ret;

	if (!last || !def->nr_args)
		return;
	cmd = strndup(c->cmd, last - c->cmd);
	s.cmd = cmd;
	shorter = parse(&s, &err);
	if (IS_ERR(shorter))
		goto out;
	FUZZ_CHECK(shorter->nr_args <= def->nr_args);
	ret = tpp_check_append(def, shorter, &err);
	fuzz_err = err;
	FUZZ_CHECK(!ret || (ret == -EEXIST && err.errnum == -EEXIST));
	FUZZ_CHECK(ret || shorter->nr_args == def->nr_args);
	FUZZ_CHECK(!ret || err.id == TPP_E_APPEND_ARGS);
	FUZZ_CHECK(err.pos <= strlen(cmd) + 1);
	if (shorter->nr_args != def->nr_args)
		FUZZ_CHECK(!tpp_same_probe(def, shorter) &&
			   !tpp_same_probe(shorter, def));
	err.errnum = 0;
	ret = tpp_check_append(shorter, def, &err);
	fuzz_err = err;
	FUZZ_CHECK(!ret || (ret == -EEXIST && err.id == TPP_E_APPEND_ARGS));
	FUZZ_CHECK(err.pos <= strlen(c->cmd) + 1);
	tpp_free(shorter);
out:
	free(cmd);
}

/* 'p' made 'r' and back: an entry and a return probe never share an event */
static void check_flipped(const struct fuzz_call *c, const struct tpp_def *def)
{
	struct tpp_error err = { 0, TPP_E_NONE, 0 };
	struct fuzz_call f = *c;
	struct tpp_def *other;
	char *cmd;
	int ret;

	if (c->parser != FUZZ_PARSE_KPROBE)
		return;
	cmd = strdup(c->cmd);
	cmd[0] = cmd[0] == 'p' ? 'r' : 'p';
	f.cmd = cmd;
	other = parse(&f, &err);
	if (IS_ERR(other))
		goto out;
	ret = tpp_check_append(def, other, &err);
	fuzz_err = err;
	if (def->is_return != other->is_return)
		FUZZ_CHECK(ret == -EEXIST && err.id == TPP_E_APPEND_KIND &&
			   !err.pos);
	else
		FUZZ_CHECK(!ret || err.id == TPP_E_APPEND_ARGS);
	tpp_free(other);
out:
	free(cmd);
}

static void one(const struct fuzz_call *c)
{
	struct tpp_error err;
	struct tpp_def *def;
	struct tpp_def *again;

	snprintf(fuzz_call_desc, sizeof(fuzz_call_desc),
		 "%s, env %u, flags 0x%x, func %s",
		 fuzz_parser_name[c->parser],
		 (unsigned int)(c->env - fuzz_envs), c->flags,
		 c->func ?: "NULL");
	def = parse(c, &err);
	fuzz_err = err;

	if (IS_ERR(def)) {
		check_error(c->cmd, def, &err);
		FUZZ_CHECK(c->parser != FUZZ_PARSE_ARGS || err.errnum != -ECANCELED);
		/* a refused "*EXPR" gave its BTF reference back */
		FUZZ_CHECK(!tpp_fake_btf_refs);
		return;
	}
	check_def(c->cmd, def, &err, c->parser);
	FUZZ_CHECK(c->parser != FUZZ_PARSE_ARGS || def->flags == c->flags);
	run_def(def);
	again = parse(c, &err);
	check_self(def, again);
	tpp_free(again);
	check_shorter(c, def);
	check_flipped(c, def);
	tpp_free(def);
	FUZZ_CHECK(!tpp_fake_btf_refs);
}

/*
 * Allocations of the parse fail, one per parse: -ENOMEM, and no leak.  At
 * most 4 of them per input, spread by @seed, so that long commands stay
 * cheap; the corpus as a whole tries them all.
 */
static void fail_allocs(const struct fuzz_call *c, unsigned int seed)
{
	struct tpp_error err;
	struct probe_prog *prog;
	struct tpp_def *def;
	long n, total, step;

	kshim_allocs = 0;
	def = parse(c, &err);
	total = kshim_allocs;
	if (!IS_ERR(def)) {
		kshim_fail_countdown = 1;
		prog = probe_prog_compile(def, 16);
		FUZZ_CHECK(PTR_ERR(prog) == -ENOMEM);
		kshim_fail_countdown = 0;
	}
	tpp_free(def);
	step = total / 4 + 1;
	for (n = 1 + seed % step; n <= total; n += step) {
		kshim_fail_countdown = n;
		def = parse(c, &err);
		fuzz_err = err;
		if (!kshim_fail_countdown) {
			FUZZ_CHECK(PTR_ERR(def) == -ENOMEM);
			FUZZ_CHECK(err.errnum == -ENOMEM &&
				   err.id == TPP_E_NONE);
		}
		kshim_fail_countdown = 0;
		tpp_free(def);
		FUZZ_CHECK(!tpp_fake_btf_refs);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_envs[0] = env_x86;
	fuzz_envs[1] = env_arm64;
	fuzz_envs[2] = env_btf;
	fuzz_envs[3] = env_arm64;
	fuzz_envs[3].btf = env_btf.btf;
	world_init();
	guard_end = mmap(NULL, 0x11000, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guard_end == MAP_FAILED ||
	    mprotect(guard_end + 0x10000, FAKE_PAGE, PROT_NONE))
		abort();
	guard_end += 0x10000;
	fuzz_strict = getenv("FUZZ_STRICT") && *getenv("FUZZ_STRICT") == '1';
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_call c;
	enum fuzz_mode mode;
	char *cmd;

	if (size < FUZZ_HDR)
		return 0;
	cmd = make_cmd(data + FUZZ_HDR, size - FUZZ_HDR, data[2] & 1);
	fuzz_cmd = cmd;
	mode = (data[0] >> 2) & 7;
	world_hit(data[1]);
	fuzz_data = data;
	fuzz_size = size;

	c.cmd = cmd;
	c.env = &fuzz_envs[data[0] & 3];
	c.parser = FUZZ_PARSE_KPROBE;
	c.flags = 0;
	c.func = NULL;
	one(&c);
	if ((data[2] & 0xf0) == 0xf0)
		fail_allocs(&c, data[1]);

	c.parser = FUZZ_PARSE_WPROBE;
	one(&c);
	if ((data[2] & 0xf0) == 0xf0)
		fail_allocs(&c, data[1]);

	c.parser = FUZZ_PARSE_ARGS;
	c.flags = fuzz_flags[mode];
	c.func = mode_func(mode, data[0] >> 5);
	one(&c);
	if ((data[2] & 0xf0) == 0xf0)
		fail_allocs(&c, data[1]);

	fuzz_cmd = NULL;
	free(cmd);
	return 0;
}
