// SPDX-License-Identifier: GPL-2.0
/*
 * kpfuzz - grammar-aware fuzzer of the tracefs probe definition interface.
 *
 * Generates kprobe definitions (and a few eprobe, fprobe and tprobe ones)
 * from templates of the kprobe_events grammar, mutates some of them (byte
 * flips, deletions, insertions, token duplication, splicing, truncation)
 * and writes them, as single lines or as multi-line batches with comments
 * and blank lines, to kprobe_events and dynamic_events.  About every 50
 * writes it works on the events that exist (read back from dynamic_events):
 * enable/disable in the top instance and in instances/kpfuzz, perf
 * tracepoint opens, filters, traceoff triggers, calls that hit the probed
 * functions, reads of trace files, deletes.  At the end it removes what it
 * created and checks that nothing is left.
 *
 * Usage: kpfuzz [-n COUNT] [-t SECONDS] [-s SEED] [-v]
 *   -n COUNT    stop after COUNT definition lines (default 20000)
 *   -t SECONDS  stop after SECONDS (default 60), whichever comes first
 *   -s SEED     PRNG seed (default 1); the input depends only on the seed
 *               and on the kernel's symbol table
 *   -v          print some accepted lines and every rejected line's errno
 *
 * Invariants, each violation is reported on a "FAIL: " line:
 *   - a write fails only with EINVAL, ENOENT, E2BIG, EEXIST, EBUSY, ENOMEM,
 *     EADDRNOTAVAIL, EILSEQ, ENOSPC, ENODEV, EOPNOTSUPP, ENOTSUPP, EPERM or
 *     ERANGE, and never writes less than asked;
 *   - a rejected single-line definition (not a delete) leaves
 *     dynamic_events unchanged (checked for about every 20th rejection);
 *   - an accepted unmutated single line that creates (deletes) GRP/EV
 *     leaves GRP/EV present (absent) in dynamic_events;
 *   - deleting an event that is enabled, has a trigger or is open in perf
 *     fails with EBUSY, and such an event never disappears;
 *   - opening a probe file with O_TRUNC fails only with EBUSY;
 *   - at the end kprobe_events, dynamic_events and debugfs kprobes/list
 *     are empty and no events/ directory that was created is left.
 * The last line is the summary "kpfuzz: key=value ..."; every 30 s a
 * "kpfuzz-progress:" line goes to stderr.
 *
 * Exit status: 0 if no invariant was violated, 1 if one was, 2 on a usage
 * or setup error.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kpcommon.h"

#define TR		"/sys/kernel/tracing/"
#define INST		TR "instances/kpfuzz"
#define KPLIST		"/sys/kernel/debug/kprobes/list"
#define PICK(a)		((a)[rn(ARRAY_SIZE(a))])
#define BUFSZ		16384
#define BATCHSZ		65536
#define READSZ		(1 << 20)
#define NAMELEN		128
#define MAXEV		256
#define MAXSEEN		4096
#define MAXGRP		512
#define NKS		256
#define NERR		1024

struct buf {
	char s[BUFSZ];
	size_t n;
};

struct ev {
	char grp[NAMELEN], name[NAMELEN];
	char kind;
	int en_top, en_inst, trig, seen, perf_fd;
};

struct ksym {
	char name[NAMELEN];
	unsigned long addr;
};

static struct {
	unsigned long lines, writes, accepted, rejected, regs, enables;
	unsigned long perf, deletes, actions, checks, truncs, fails;
	unsigned long err[NERR], aerr[NERR];
} st;

static int verbose;
static int is_arm64;
static int fd_kpe = -1, fd_dyn = -1;
static struct ev evs[MAXEV];
static int nevs;
static char seen_ev[MAXSEEN][NAMELEN];
static int nseen;
static char groups[MAXGRP][NAMELEN];
static int ngroups;
static char pre_groups[MAXGRP][NAMELEN];
static int npre;
static struct ksym ks[NKS];
static int nks;
static unsigned long real_addr[16];
static char rdbuf[READSZ], rdbuf2[READSZ];
static int samples;
/* GRP/EV an unmutated single line must create or delete if accepted */
static char last_add[2 * NAMELEN + 2], last_del[2 * NAMELEN + 2];

static const char *const real_syms[] = {
	"vfs_read", "vfs_write", "do_sys_openat2", "kernel_clone", "schedule",
	"do_nanosleep", "hrtimer_nanosleep", "ksys_read", "security_file_open",
};

static void ap(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void ap(struct buf *b, const char *fmt, ...)
{
	va_list va;
	int r;

	if (b->n >= sizeof(b->s) - 1)
		return;
	va_start(va, fmt);
	r = vsnprintf(b->s + b->n, sizeof(b->s) - b->n, fmt, va);
	va_end(va);
	if (r < 0)
		return;
	b->n += r;
	if (b->n > sizeof(b->s) - 1)
		b->n = sizeof(b->s) - 1;
}

static void count_err(unsigned long *h, int e)
{
	h[e > 0 && e < NERR ? e : 0]++;
}

/* Print s (len bytes) with non-printable bytes escaped, at most 600. */
static void print_esc(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && i < 600; i++) {
		unsigned char c = s[i];

		if (c == '\n')
			fputs("\\n", stdout);
		else if (c == '\\')
			fputs("\\\\", stdout);
		else if (isprint(c))
			putchar(c);
		else
			printf("\\x%02x", c);
	}
	if (len > 600)
		printf("...(%zu bytes)", len);
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
	va_list va;

	st.fails++;
	fputs("FAIL: ", stdout);
	va_start(va, fmt);
	vprintf(fmt, va);
	va_end(va);
	putchar('\n');
	fflush(stdout);
}

/* Write s to path; 0 or -errno. */
static int put(const char *path, const char *s, int flags)
{
	int fd = open(path, O_WRONLY | flags);
	ssize_t r;
	int e = 0;

	if (fd < 0)
		return -errno;
	r = write(fd, s, strlen(s));
	if (r < 0)
		e = -errno;
	close(fd);
	return e;
}

static int only_blank(const char *s)
{
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return 0;
	return 1;
}

static void add_str(char (*set)[NAMELEN], int *n, int max, const char *s)
{
	int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(set[i], s))
			return;
	if (*n < max)
		snprintf(set[(*n)++], NAMELEN, "%s", s);
}

static int has_str(char (*set)[NAMELEN], int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(set[i], s))
			return 1;
	return 0;
}

static int busy(const struct ev *e)
{
	return e->en_top || e->en_inst || e->trig || e->perf_fd >= 0;
}

static void ev_path(char *p, size_t sz, const struct ev *e, int inst,
		    const char *file)
{
	snprintf(p, sz, "%s/events/%s/%s/%s", inst ? INST : TR, e->grp,
		 e->name, file);
}

static struct ev *find_ev(const char *grp, const char *name)
{
	int i;

	for (i = 0; i < nevs; i++)
		if (!strcmp(evs[i].grp, grp) && !strcmp(evs[i].name, name))
			return &evs[i];
	return NULL;
}

/* Parse "K[N]:GRP/EV ..." of one dynamic_events line. */
static int parse_head(const char *l, char *kind, char *grp, char *name)
{
	const char *c = strchr(l, ':'), *sp = strchr(l, ' ');
	const char *sl;
	size_t n;

	if (!c || (sp && sp < c))
		return -1;
	*kind = l[0];
	c++;
	sl = strchr(c, '/');
	n = sp ? (size_t)(sp - c) : strlen(c);
	if (!sl || sl > c + n)
		return -1;
	snprintf(grp, NAMELEN, "%.*s", (int)(sl - c), c);
	snprintf(name, NAMELEN, "%.*s", (int)(c + n - sl - 1), sl + 1);
	return 0;
}

static void forget(int i)
{
	if (evs[i].perf_fd >= 0)
		close(evs[i].perf_fd);
	evs[i] = evs[--nevs];
}

static void note_new(char kind, const char *grp, const char *name)
{
	struct ev *e = &evs[nevs++];
	char s[NAMELEN * 2 + 2];

	memset(e, 0, sizeof(*e));
	snprintf(e->grp, NAMELEN, "%s", grp);
	snprintf(e->name, NAMELEN, "%s", name);
	e->kind = kind;
	e->seen = 1;
	e->perf_fd = -1;
	st.regs++;
	add_str(groups, &ngroups, MAXGRP, grp);
	snprintf(s, sizeof(s), "%s/%s", grp, name);
	add_str(seen_ev, &nseen, MAXSEEN, s);
}

/* Re-read dynamic_events and update the table of live events. */
static void refresh(void)
{
	char *l, *nl, kind, grp[NAMELEN], name[NAMELEN];
	struct ev *e;
	int i;

	if (slurp(TR "dynamic_events", rdbuf, READSZ) < 0)
		return;
	for (i = 0; i < nevs; i++)
		evs[i].seen = 0;
	for (l = rdbuf; *l; l = nl) {
		nl = strchr(l, '\n');
		if (nl)
			*nl++ = '\0';
		else
			nl = l + strlen(l);
		if (parse_head(l, &kind, grp, name))
			continue;
		e = find_ev(grp, name);
		if (e)
			e->seen = 1;
		else if (nevs < MAXEV)
			note_new(kind, grp, name);
	}
	for (i = nevs - 1; i >= 0; i--) {
		if (evs[i].seen)
			continue;
		if (busy(&evs[i]))
			fail("busy %s/%s (en %d/%d trig %d perf %d) vanished",
			     evs[i].grp, evs[i].name, evs[i].en_top,
			     evs[i].en_inst, evs[i].trig, evs[i].perf_fd >= 0);
		forget(i);
	}
}

static void load_kallsyms(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256], t;
	unsigned long addr, seen = 0;
	unsigned int i;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %255s", &addr, &t, name) != 3)
			continue;
		if (t != 't' && t != 'T')
			continue;
		if (strchr(line, '['))
			continue;
		for (i = 0; i < ARRAY_SIZE(real_syms); i++)
			if (!strcmp(name, real_syms[i]))
				real_addr[i] = addr;
		seen++;
		if (nks < NKS) {
			i = nks++;
		} else {
			i = rnd() % seen;
			if (i >= NKS)
				continue;
		}
		snprintf(ks[i].name, NAMELEN, "%.127s", name);
		ks[i].addr = addr;
	}
	fclose(f);
}

/* ---- generator ---- */

static void gen_name(struct buf *b)
{
	static const char punct[] = "-.*!@:%,+";

	switch (rn(24)) {
	case 0:
		ap(b, "e%064u", rn(10));
		break;
	case 1:
		ap(b, "%uev", rn(10));
		break;
	case 2:
		ap(b, "ev%c%u", punct[rn(sizeof(punct) - 1)], rn(4));
		break;
	case 3:
		break;
	case 4:
		ap(b, "e%062u", rn(10));
		break;
	default:
		ap(b, "ev%u", rn(16));
	}
}

static void gen_group(struct buf *b)
{
	static const char *const g[] = {
		"kpfuzz", "kpfuzz", "kpfuzz", "kpfuzz2", "kpfuzz2", "kprobes",
		"kp-fuzz", "1grp", "grp.x", "", "_kpf", "kpfuzz/x",
	};

	if (rn(30) == 0)
		ap(b, "g%064u", 7);
	else
		ap(b, "%s", PICK(g));
}

static void gen_head(struct buf *b, int *is_ret)
{
	static const char *const maxact[] = {
		"0", "1", "4", "10", "64", "4096", "4097", "100000", "1a",
		"18446744073709551616", "-1", "00",
	};
	int r = rn(10) < 3;

	ap(b, "%c", r ? 'r' : 'p');
	if (rn(r ? 5 : 40) == 0) {
		const char *m = PICK(maxact);

		/* big pools cost memory: keep 4096 rare */
		if (!strcmp(m, "4096") && rn(8))
			m = "16";
		ap(b, "%s", m);
	}
	switch (rn(10)) {
	case 0:
		break;
	case 1:
		ap(b, ":");
		gen_name(b);
		break;
	case 2:
		ap(b, ":");
		gen_group(b);
		ap(b, "/");
		break;
	case 3:
		ap(b, ":");
		gen_group(b);
		ap(b, ".");
		gen_name(b);
		break;
	default:
		ap(b, ":");
		gen_group(b);
		ap(b, "/");
		gen_name(b);
	}
	*is_ret = r;
}

static void gen_offs(struct buf *b, int *entry)
{
	static const char *const huge[] = {
		"+4294967295", "+4294967296", "+0xffffffffffffffff",
		"+99999999999999999999", "+-1", "+0x", "+1a",
	};

	switch (rn(12)) {
	case 6:
		ap(b, "+0");
		break;
	case 7:
		ap(b, "+%u", 1 + rn(16));
		*entry = 0;
		break;
	case 8:
		ap(b, "+0x%x", rn(0x400) | 1);
		*entry = 0;
		break;
	case 9:
		ap(b, "%s", PICK(huge));
		*entry = 0;
		break;
	default:
		break;
	}
}

static void gen_place(struct buf *b, int *is_ret)
{
	static const char *const mods[] = {
		"trace_printk:trace_printk_irq_work",
		"trace_printk:trace_printk_exit", "trace_printk:nosuch",
		"nosuchmod:vfs_read", "vmlinux:vfs_read", ":vfs_read",
		"trace_printk:", "trace_printk:trace_printk_init",
	};
	static const char *const bad[] = {
		"0xzz", "0x", "-1", "vfs_read-4", "vfs_read+", "+0x10",
		"vfs_read+0x10+0x10", "%return", "vfs_read%ret", "hoge-fuga",
		"vfs_read%return%return", "\"vfs_read\"", "@vfs_read",
	};
	unsigned int k = rn(100), i;
	int entry = 1;

	if (k < 55) {
		ap(b, "%s", PICK(real_syms));
	} else if (k < 78 && nks) {
		ap(b, "%s", ks[rn(nks)].name);
	} else if (k < 83) {
		ap(b, rn(2) ? "no_such_sym_%u" : "vfs_reed%u", rn(100));
	} else if (k < 88) {
		ap(b, "%s", PICK(mods));
	} else if (k < 94) {
		i = rn(ARRAY_SIZE(real_syms));
		if (rn(2) && nks)
			ap(b, "0x%lx", ks[rn(nks)].addr + rn(3) * rn(64));
		else
			ap(b, "0x%lx", real_addr[i] + (rn(4) ? 0 : rn(32)));
	} else {
		ap(b, "%s", PICK(bad));
	}
	if (k < 88)
		gen_offs(b, &entry);
	if (!*is_ret && rn(10) == 0) {
		ap(b, "%%return");
		*is_ret = 1;
	}
}

static void gen_reg(struct buf *b)
{
	static const char *const x86[] = {
		"ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "ip", "r8",
		"r9", "r10", "r11", "r12", "r13", "r14", "r15", "flags",
		"orig_ax", "cs", "ss",
	};
	static const char *const arm[] = {
		"sp", "pc", "lr", "pstate",
	};
	static const char *const bogus[] = {
		"rax", "none_reg", "", "x31", "r16", "eax", "di:", "%di",
	};

	if (rn(8) == 0)
		ap(b, "%%%s", PICK(bogus));
	else if (!is_arm64)
		ap(b, "%%%s", PICK(x86));
	else if (rn(5) == 0)
		ap(b, "%%%s", PICK(arm));
	else
		ap(b, "%%x%u", rn(31));
}

static void gen_simple(struct buf *b, int k)
{
	static const char *const mem[] = {
		"@jiffies", "@jiffies+8", "@init_task-8", "@nosuch_var", "@0",
		"@12345678abcde", "@+10", "@jiffies_64+0x10", "@init_task",
	};
	static const char *const var[] = {
		"$comm", "$COMM", "$current", "$none_var", "$", "$retval",
		"$stack", "$arg*",
	};
	static const char *const imm[] = {
		"\\1", "\\-5", "\\0x1234", "\\x", "\\\"imm\"", "\\\"abcd",
		"\\18446744073709551615", "\\\"a b\"", "\\\"\"", "\\",
	};
	static const char *const btf[] = {
		"file", "count", "buf", "pos", "$arg1->f_pos", "filename",
		"file->f_path.dentry", "$retval->x", "how->flags", "nosuchname",
		"file->f_inode->i_ino", "$arg2->name", "args", "clone_flags",
		"$arg1->nosuch", "file->", "->x",
	};

	switch (k) {
	case 0: case 1:
		gen_reg(b);
		break;
	case 2:
		if (rn(3) == 0 && nks)
			ap(b, "@0x%lx", ks[rn(nks)].addr);
		else
			ap(b, "%s", PICK(mem));
		break;
	case 3:
		ap(b, "$stack%u", rn(10) ? rn(12) : 10000);
		break;
	case 4: case 5: case 6:
		ap(b, "$arg%u", rn(21));
		break;
	case 7: case 8:
		ap(b, "%s", PICK(var));
		break;
	case 9:
		ap(b, "%s", PICK(imm));
		break;
	default:
		ap(b, "%s", PICK(btf));
	}
}

static void gen_fetch(struct buf *b, int depth)
{
	static const char *const offs[] = {
		"0", "8", "16", "0x10", "4096", "1234567", "0ab1", "", "u0",
		"u8", "18446744073709551616",
	};
	unsigned int k = rn(depth ? 16 : 20);

	if (k < 11 || depth > 6) {
		gen_simple(b, k % 11);
		return;
	}
	ap(b, "%c%s", rn(5) ? '+' : '-', PICK(offs));
	if (rn(40) == 0) {		/* missing brace */
		gen_simple(b, rn(11));
		return;
	}
	ap(b, "(");
	gen_fetch(b, depth + 1);
	if (rn(40))
		ap(b, ")");
}

static void gen_type(struct buf *b)
{
	static const char *const types[] = {
		"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "x8",
		"x16", "x32", "x64", "char", "string", "ustring", "symbol",
		"symstr", "%pd", "%pD", "string", "ustring", "u128", "sym",
		"", "unknown_type",
	};
	static const char *const w[] = {
		"1", "3", "8", "32", "63", "64", "65", "0",
		"18446744073709551615", "a",
	};
	static const char *const o[] = {
		"0", "1", "7", "31", "63", "64", "99",
	};
	static const char *const sz[] = { "8", "16", "32", "64", "7", "0", "" };
	static const char *const arr[] = {
		"[4]", "[0]", "[1]", "[16]", "[65]", "[128]", "[256]",
		"[4294967296]", "[", "[4]x", "[-1]", "[10a]",
	};

	ap(b, ":");
	if (rn(7) == 0)
		ap(b, "b%s@%s/%s", PICK(w), PICK(o), PICK(sz));
	else
		ap(b, "%s", PICK(types));
	if (rn(7) == 0)
		ap(b, "%s", PICK(arr));
}

static void gen_arg(struct buf *b, unsigned int idx)
{
	static const char *const resv[] = {
		"common_pid", "common_type", "common_flags", "__probe_ip",
		"__probe_func", "__probe_ret_ip", "ip", "func", "common_cpu",
	};
	static const char *const bad[] = {
		"", "1a", "a.b", "a-b", "arg1", "$x", "a b", "a=b",
	};

	switch (rn(20)) {
	case 8 ... 14:
		ap(b, "a%u=", idx);
		break;
	case 15:
		ap(b, "a0=");
		break;
	case 16:
		ap(b, "arg%032u=", idx);
		break;
	case 17:
		ap(b, "%s=", PICK(resv));
		break;
	case 18:
		ap(b, "%s=", PICK(bad));
		break;
	default:
		break;
	}
	gen_fetch(b, 0);
	if (rn(2))
		gen_type(b);
}

static unsigned int nargs(void)
{
	unsigned int k = rn(100);

	if (k < 70)
		return rn(5);
	if (k < 90)
		return 5 + rn(12);
	if (k < 97)
		return 20 + rn(40);
	return 100 + rn(31);
}

/* A line of exactly the length drawn, near WRITE_BUFSIZE (4096). */
static void gen_long(struct buf *b)
{
	static const unsigned int len[] = {
		4000, 4093, 4094, 4095, 4096, 4097, 5000, 8000,
	};
	unsigned int target = PICK(len), i = 0;

	for (; b->n + 40 < target && i < 127; i++)
		ap(b, " a%u=+%u(%%%s):u64", i, i * 8, is_arm64 ? "x0" : "di");
	if (b->n + 5 < target) {
		ap(b, " \\\"");
		while (b->n + 1 < target)
			ap(b, "x");
		ap(b, "\"");
	}
}

static void gen_def(struct buf *b)
{
	unsigned int i, n;
	int is_ret;

	gen_head(b, &is_ret);
	ap(b, " ");
	gen_place(b, &is_ret);
	if (rn(33) == 0) {
		gen_long(b);
		return;
	}
	n = nargs();
	for (i = 0; i < n; i++) {
		ap(b, " ");
		gen_arg(b, i);
	}
}

static void gen_del(struct buf *b)
{
	static const char *const odd[] = {
		"-:", "-", "-:kpfuzz/", "-:kpfuzz/*", "-:*", "-:/ev1",
		"!p:kpfuzz/ev1", "-:kprobes/", "- :ev1", "-:kpfuzz.ev1",
	};
	unsigned int k = rn(10);
	int is_ret = 0;

	if (k == 0) {
		ap(b, "%s", PICK(odd));
		return;
	}
	ap(b, "-:");
	if (k < 6 && nevs) {
		struct ev *e = &evs[rn(nevs)];

		if (rn(4)) {
			ap(b, "%s/", e->grp);
			snprintf(last_del, sizeof(last_del), "%s/%s",
				 e->grp, e->name);
		}
		ap(b, "%s", e->name);
	} else {
		gen_group(b);
		ap(b, "/");
		gen_name(b);
	}
	if (rn(5) == 0) {
		last_del[0] = '\0';
		ap(b, " ");
		gen_place(b, &is_ret);
		if (rn(2))
			gen_arg(b, 0);
	}
}

static void gen_eprobe(struct buf *b)
{
	static const char *const tgt[] = {
		"sched.sched_switch", "sched.sched_process_fork",
		"kpfuzz.ev1", "nosuch.ev", "sched/sched_switch", "sched.",
	};
	static const char *const fld[] = {
		"$prev_pid", "pid=$prev_pid:u32", "comm=$prev_comm:string",
		"$common_pid", "$nosuch", "+0($prev_comm):u8", "$next_pid:x32",
		"$child_pid", "$comm", "$arg1", "\\1",
	};
	unsigned int i, n = rn(4);

	ap(b, "e");
	if (rn(5)) {
		ap(b, ":");
		if (rn(2)) {
			gen_group(b);
			ap(b, "/");
		}
		gen_name(b);
	}
	if (rn(3) == 0 && nevs)
		ap(b, " %s.%s", evs[rn(nevs)].grp, evs[rn(nevs)].name);
	else
		ap(b, " %s", PICK(tgt));
	for (i = 0; i < n; i++)
		ap(b, " %s", PICK(fld));
}

static void gen_other(struct buf *b)
{
	static const char *const tps[] = {
		"sched_switch", "sched_process_fork", "nosuch_tp",
		"sched:sched_switch", "sched_wakeup",
	};
	unsigned int i, n = rn(4), k = rn(3);
	int is_ret = 0;

	if (k == 0) {
		gen_eprobe(b);
		return;
	}
	ap(b, "%c", k == 1 ? 'f' : 't');
	if (rn(5)) {
		ap(b, ":");
		gen_group(b);
		ap(b, "/");
		gen_name(b);
	}
	ap(b, " ");
	if (k == 1)
		gen_place(b, &is_ret);
	else
		ap(b, "%s", PICK(tps));
	for (i = 0; i < n; i++) {
		ap(b, " ");
		gen_arg(b, i);
	}
}

static void gen_junk(struct buf *b)
{
	static const char *const tok[] = {
		":", "(", ")", "+", "%", "$", "@", "\\", "\"", "=", "[", "]",
		"/", ".", "-", " ", "#", "->", "0x", "%return", "$arg1", "+0(",
		"18446744073709551615", "4294967296", "-1", "p", "r",
		"vfs_read",
		":u8", ":string", "\t", ":b4@4/32", "%di", "%x0", "$retval",
	};
	unsigned int i, n = 1 + rn(12);

	for (i = 0; i < n; i++)
		ap(b, "%s", PICK(tok));
}

static void insert(struct buf *b, size_t pos, const char *s, size_t len)
{
	if (b->n + len >= sizeof(b->s))
		len = sizeof(b->s) - 1 - b->n;
	memmove(b->s + pos + len, b->s + pos, b->n - pos);
	memcpy(b->s + pos, s, len);
	b->n += len;
	b->s[b->n] = '\0';
}

static void gen_line(struct buf *b, int depth);

/* Our head up to pos, then the tail of another line. */
static void splice_line(struct buf *b, size_t pos)
{
	struct buf *o = malloc(sizeof(*o));
	size_t e;

	if (!o)
		return;
	o->n = 0;
	o->s[0] = '\0';
	gen_line(o, 1);
	b->n = pos;
	e = rn(o->n + 1);
	insert(b, b->n, o->s + e, o->n - e);
	free(o);
}

static void mutate_one(struct buf *b)
{
	static const char *const tok[] = {
		":", "(", ")", "+", "%", "$", "@", "\\", "\"", "=", "[", "]",
		"/", ".", "-", " ", "#", "->", "0x", "%return", "$arg1", "+0(",
		"18446744073709551615", ":u32[4]", "\t", ":string", "$comm",
	};
	size_t pos = rn(b->n + 1), e, cnt;
	char c;

	switch (rn(7)) {
	case 0:
		if (pos < b->n)
			b->s[pos] = rn(4) ? 0x20 + rn(95) : rn(256);
		break;
	case 1:
		cnt = 1 + rn(8);
		if (pos + cnt > b->n)
			cnt = b->n - pos;
		memmove(b->s + pos, b->s + pos + cnt, b->n - pos - cnt);
		b->n -= cnt;
		break;
	case 2:
		insert(b, pos, PICK(tok), strlen(PICK(tok)));
		break;
	case 3:	/* duplicate the word around pos */
		while (pos > 0 && b->s[pos - 1] != ' ')
			pos--;
		for (e = pos; e < b->n && b->s[e] != ' '; e++)
			;
		{
			char w[BUFSZ];

			w[0] = ' ';
			memcpy(w + 1, b->s + pos, e - pos);
			insert(b, e, w, e - pos + 1);
		}
		break;
	case 4:
		splice_line(b, pos);
		break;
	case 5:
		b->n = pos;
		break;
	default:
		c = rn(256);
		insert(b, pos, &c, 1);
	}
	b->s[b->n] = '\0';
}

/* A definition that should be accepted, to keep the event set busy. */
static void gen_valid(struct buf *b)
{
	static const char *const args[] = {
		"$arg1", "$arg2:u32", "+0($arg1):x64", "$comm", "$stack0",
		"@jiffies", "\\1", "\\\"str\"", "$arg1:symbol", "$stack",
		"+0($arg1):b4@4/32", "+0($arg1):u8[4]", "+8(+0($arg1)):s16",
		"-8(+16($arg1)):x8", "$arg3:s64", "$arg4:char",
		"+0($arg2):u16[2]",
		"$arg1:symstr",
	};
	const char *sym = PICK(real_syms);
	unsigned int i, n = rn(6);
	int r = rn(4) == 0;

	snprintf(last_add, sizeof(last_add), "kpfuzz%s/ev%u",
		 rn(3) ? "" : "2", rn(16));
	ap(b, "%c:%s %s", r ? 'r' : 'p', last_add, sym);
	if (r && rn(2))
		ap(b, " $retval");
	for (i = 0; i < n; i++) {
		if (rn(2))
			ap(b, " v%u=", i);
		else
			ap(b, " ");
		if (rn(6) == 0)
			gen_reg(b);
		else
			ap(b, "%s", PICK(args));
	}
}

static void gen_line(struct buf *b, int depth)
{
	unsigned int k = rn(100), i;

	if (!depth)
		last_add[0] = last_del[0] = '\0';
	if (k < 30)
		gen_valid(b);
	else if (k < 72)
		gen_def(b);
	else if (k < 84)
		gen_del(b);
	else if (k < 91)
		gen_other(b);
	else if (k < 97)
		gen_junk(b);
	else
		ap(b, "%s", rn(2) ? "   " : "# just a comment");
	if (!depth && rn(100) < 30) {
		for (i = 1 + rn(3); i; i--)
			mutate_one(b);
		last_add[0] = last_del[0] = '\0';
	}
}

/* ---- actions on live events ---- */

static void hit(void)
{
	struct timespec ts = { 0, 1000000 };
	char buf[256];
	pid_t pid;
	int fd;

	fd = open("/proc/self/stat", O_RDONLY);
	if (fd >= 0) {
		if (read(fd, buf, sizeof(buf)) < 0)
			st.aerr[0]++;
		close(fd);
	}
	fd = open("/tmp/kpfuzz.tmp", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		if (write(fd, "kpfuzz\n", 7) < 0 || pread(fd, buf, 7, 0) < 0)
			st.aerr[0]++;
		close(fd);
	}
	nanosleep(&ts, NULL);
	pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static int set_enable(struct ev *e, int inst, int on)
{
	char p[512];
	int r;

	ev_path(p, sizeof(p), e, inst, "enable");
	r = put(p, on ? "1" : "0", 0);
	if (r) {
		count_err(st.aerr, -r);
		return r;
	}
	if (inst)
		e->en_inst = on;
	else
		e->en_top = on;
	if (on)
		st.enables++;
	return 0;
}

static void set_trigger(struct ev *e, int on)
{
	char p[512];
	int r;

	ev_path(p, sizeof(p), e, 0, "trigger");
	r = put(p, on ? "traceoff" : "!traceoff", O_TRUNC);
	if (r)
		count_err(st.aerr, -r);
	else
		e->trig = on;
	if (!on)
		put(TR "tracing_on", "1", 0);
}

static void perf_toggle(struct ev *e)
{
	struct perf_event_attr attr;
	char p[512], id[32];
	int fd;

	if (e->perf_fd >= 0) {
		close(e->perf_fd);
		e->perf_fd = -1;
		return;
	}
	ev_path(p, sizeof(p), e, 0, "id");
	if (slurp(p, id, sizeof(id)) <= 0)
		return;
	kp_tracepoint_attr(&attr, id);
	if (rn(2))
		fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);
	else
		fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		count_err(st.aerr, errno);
		return;
	}
	e->perf_fd = fd;
	st.perf++;
}

static void unbusy(struct ev *e)
{
	if (e->perf_fd >= 0)
		perf_toggle(e);
	if (e->trig)
		set_trigger(e, 0);
	if (e->en_top)
		set_enable(e, 0, 0);
	if (e->en_inst)
		set_enable(e, 1, 0);
}

static int write_dyn(const char *s)
{
	return write(fd_dyn, s, strlen(s)) < 0 ? -errno : 0;
}

static void delete_ev(struct ev *e)
{
	char cmd[NAMELEN * 2 + 8], id[NAMELEN * 2 + 2];
	int r, was = busy(e);

	snprintf(cmd, sizeof(cmd), "-:%s/%s\n", e->grp, e->name);
	snprintf(id, sizeof(id), "%s/%s", e->grp, e->name);
	r = write_dyn(cmd);
	if (was && !r)
		fail("deleting busy event %s succeeded", id);
	else if (was && r != -EBUSY)
		fail("deleting busy event %s: %s, expected EBUSY", id,
		     ename(-r));
	if (was && r) {
		unbusy(e);
		r = write_dyn(cmd);
	}
	if (r)
		count_err(st.aerr, -r);
	else
		st.deletes++;
	refresh();
}

static void read_some(void)
{
	static const char *const files[] = {
		TR "trace", TR "kprobe_profile", TR "kprobe_events",
		TR "dynamic_events", TR "error_log", TR "README",
	};
	char p[512];
	ssize_t n;
	int fd;

	if (rn(3) == 0 && nevs) {
		ev_path(p, sizeof(p), &evs[rn(nevs)], rn(2), "format");
		slurp(p, rdbuf2, 65536);
		return;
	}
	snprintf(p, sizeof(p), "%s", PICK(files));
	fd = open(p, O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, rdbuf2, 65536);
	if (n < 0)
		count_err(st.aerr, errno);
	close(fd);
	if (rn(20) == 0)
		put(TR "error_log", "", O_TRUNC);
}

static void action(void)
{
	struct ev *e = nevs ? &evs[rn(nevs)] : NULL;
	char p[512];

	st.actions++;
	switch (rn(8)) {
	case 0: case 1:
		if (e) {
			int inst = rn(2);

			set_enable(e, inst, !(inst ? e->en_inst : e->en_top));
		}
		break;
	case 2:
		if (e)
			perf_toggle(e);
		break;
	case 3:
		if (!e)
			break;
		if (rn(2)) {
			set_trigger(e, !e->trig);
			break;
		}
		ev_path(p, sizeof(p), e, rn(2), "filter");
		count_err(st.aerr, -put(p, rn(2) ? "common_pid != 0" : "0", 0));
		st.aerr[0] = 0;
		break;
	case 4:
		hit();
		break;
	case 5:
		read_some();
		break;
	default:
		if (e)
			delete_ev(e);
	}
	refresh();
}

static void cleanup_events(void)
{
	char *l, *nl, kind, grp[NAMELEN], name[NAMELEN], cmd[300];
	char (*list)[300] = malloc(MAXSEEN * sizeof(*list));
	int i, n, pass;

	for (i = 0; i < nevs; i++)
		unbusy(&evs[i]);
	for (pass = 0; pass < 8 && list; pass++) {
		if (slurp(TR "dynamic_events", rdbuf, READSZ) <= 0)
			break;
		n = 0;
		for (l = rdbuf; *l && n < MAXSEEN; l = nl) {
			nl = strchr(l, '\n');
			if (nl)
				*nl++ = '\0';
			else
				nl = l + strlen(l);
			if (!parse_head(l, &kind, grp, name))
				snprintf(list[n++], 300, "%s/%s", grp, name);
		}
		for (i = n - 1; i >= 0; i--) {
			snprintf(cmd, sizeof(cmd), "%s/events/%s/enable",
				 pass ? INST : TR, list[i]);
			if (pass)
				put(cmd, "0", 0);
			snprintf(cmd, sizeof(cmd), "-:%s\n", list[i]);
			write_dyn(cmd);
		}
	}
	free(list);
	refresh();
}

/* ---- main loop ---- */

static void check_unchanged(const char *line, size_t len)
{
	if (slurp(TR "dynamic_events", rdbuf2, READSZ) < 0)
		return;
	st.checks++;
	if (strcmp(rdbuf, rdbuf2)) {
		fail("rejected single line changed dynamic_events:");
		fputs("  line: ", stdout);
		print_esc(line, len);
		putchar('\n');
	}
}

static int present(const char *id)
{
	char grp[NAMELEN];
	const char *sl = strchr(id, '/');

	snprintf(grp, sizeof(grp), "%.*s", (int)(sl - id), id);
	return find_ev(grp, sl + 1) != NULL;
}

/* An accepted unmutated line must have done what it says. */
static void check_accepted(struct buf *b)
{
	const char *what = NULL;

	if (last_add[0] && !present(last_add))
		what = last_add;
	else if (last_del[0] && present(last_del))
		what = last_del;
	else
		return;
	fail("write accepted but %s is %s in dynamic_events:", what,
	     what == last_add ? "missing" : "still");
	fputs("  ", stdout);
	print_esc(b->s, b->n);
	putchar('\n');
}

static int allowed(int e)
{
	static const int ok[] = {
		EINVAL, ENOENT, E2BIG, EEXIST, EBUSY, ENOMEM, EADDRNOTAVAIL,
		EILSEQ, ENOSPC, ENODEV, EOPNOTSUPP, ENOTSUPP, EPERM, ERANGE,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ok); i++)
		if (ok[i] == e)
			return 1;
	return 0;
}

static int any_busy(int kprobes_only)
{
	int i;

	for (i = 0; i < nevs; i++)
		if (busy(&evs[i]) && (!kprobes_only || evs[i].kind == 'p' ||
				      evs[i].kind == 'r'))
			return 1;
	return 0;
}

static void do_trunc(void)
{
	int dyn = rn(2), fd;

	st.truncs++;
	fd = open(dyn ? TR "dynamic_events" : TR "kprobe_events",
		  O_WRONLY | O_TRUNC);
	if (fd >= 0)
		close(fd);
	else if (errno != EBUSY)
		fail("O_TRUNC open of %s: %s", dyn ? "dynamic_events" :
		     "kprobe_events", ename(errno));
	else if (!any_busy(!dyn))
		count_err(st.aerr, errno);
	refresh();
}

/* Build one write: a line or a batch; returns the number of lines. */
static unsigned int build(struct buf *b, int *single)
{
	unsigned int i, n = 1;
	struct buf *l;

	b->n = 0;
	b->s[0] = '\0';
	*single = rn(100) >= 15;
	if (*single) {
		gen_line(b, 0);
	} else {
		l = malloc(sizeof(*l));
		n = 2 + rn(7);
		for (i = 0; l && i < n; i++) {
			l->n = 0;
			l->s[0] = '\0';
			switch (rn(10)) {
			case 0:
				ap(l, "# comment %u", i);
				break;
			case 1:
				break;
			default:
				gen_line(l, 0);
				if (rn(8) == 0)
					ap(l, " # trailing");
			}
			if (b->n + l->n + 2 < sizeof(b->s))
				ap(b, "%s%s", i ? "\n" : "", l->s);
		}
		free(l);
		last_add[0] = last_del[0] = '\0';
	}
	if (rn(2))
		ap(b, "\n");
	if (*single && memchr(b->s, '\n', b->n ? b->n - 1 : 0))
		*single = 0;
	return n;
}

static void one_write(struct buf *b, int *armed)
{
	int single, check, fd;
	const char *p;
	ssize_t r;

	st.lines += build(b, &single);
	for (p = b->s; *p == ' ' || *p == '\t'; p++)
		;
	check = single && *armed && *p != '-' && *p != '!';
	if (check && slurp(TR "dynamic_events", rdbuf, READSZ) < 0)
		check = 0;
	fd = rn(5) < 3 ? fd_kpe : fd_dyn;
	st.writes++;
	r = write(fd, b->s, b->n);
	if (r == (ssize_t)b->n) {
		st.accepted++;
		if (verbose && samples < 12) {
			samples++;
			fputs("accepted: ", stdout);
			print_esc(b->s, b->n);
			putchar('\n');
		}
		refresh();
		check_accepted(b);
		return;
	}
	if (r >= 0) {
		fail("short write %zd of %zu", r, b->n);
		return;
	}
	st.rejected++;
	count_err(st.err, errno);
	if (!allowed(errno)) {
		fail("write returned %s (%d) for:", ename(errno), errno);
		fputs("  ", stdout);
		print_esc(b->s, b->n);
		putchar('\n');
	} else if (verbose > 1) {
		printf("rejected %s: ", ename(errno));
		print_esc(b->s, b->n);
		putchar('\n');
	}
	if (check) {
		check_unchanged(b->s, b->n);
		*armed = 0;
	}
	if (st.rejected % 20 == 0)
		*armed = 1;
	if (!single)
		refresh();
}

/* ---- end state ---- */

static void check_empty(const char *path)
{
	ssize_t n = slurp(path, rdbuf, READSZ);

	if (n < 0) {
		fail("cannot read %s: %s", path, ename(-n));
		return;
	}
	if (only_blank(rdbuf))
		return;
	fail("%s not empty at the end:", path);
	print_esc(rdbuf, n > 400 ? 400 : n);
	putchar('\n');
}

/*
 * "-:EVENT" unregisters its kprobe a grace period or so after the write
 * returns (one for all the deletes of that time): give it 5 s.
 */
static void check_kplist_empty(void)
{
	int i;

	for (i = 0; i < 100; i++) {
		if (slurp(KPLIST, rdbuf, READSZ) >= 0 && only_blank(rdbuf))
			return;
		usleep(50000);
	}
	check_empty(KPLIST);
}

static void verify_clean(void)
{
	struct stat sb;
	char p[512];
	int i;

	for (i = 0; i < 20 && rmdir(INST) && errno == EBUSY; i++)
		usleep(100000);
	if (!stat(INST, &sb))
		fail("cannot remove %s: %s", INST, ename(errno));
	check_empty(TR "kprobe_events");
	check_empty(TR "dynamic_events");
	check_kplist_empty();
	for (i = 0; i < nseen; i++) {
		snprintf(p, sizeof(p), TR "events/%.127s", seen_ev[i]);
		if (!stat(p, &sb))
			fail("%s left behind", p);
	}
	for (i = 0; i < ngroups; i++) {
		if (has_str(pre_groups, npre, groups[i]))
			continue;
		snprintf(p, sizeof(p), TR "events/%.127s", groups[i]);
		if (!stat(p, &sb))
			fail("group directory %s left behind", p);
	}
}

static void list_pre_groups(void)
{
	DIR *d = opendir(TR "events");
	struct dirent *e;

	while (d && (e = readdir(d)))
		add_str(pre_groups, &npre, MAXGRP, e->d_name);
	if (d)
		closedir(d);
}

static void print_hist(const char *key, const unsigned long *h)
{
	int e, first = 1;

	printf(" %s=", key);
	for (e = 1; e < NERR; e++) {
		if (!h[e])
			continue;
		printf("%s%s:%lu", first ? "" : ",", ename(e), h[e]);
		first = 0;
	}
	if (first)
		printf("none");
}

static void summary(unsigned long seed, const char *arch, double el)
{
	printf("kpfuzz: seed=%lu arch=%s secs=%.1f lines=%lu writes=%lu",
	       seed, arch, el, st.lines, st.writes);
	printf(" accepted=%lu rejected=%lu regs=%lu enables=%lu perf=%lu",
	       st.accepted, st.rejected, st.regs, st.enables, st.perf);
	printf(" deletes=%lu truncs=%lu actions=%lu checks=%lu ksyms=%d",
	       st.deletes, st.truncs, st.actions, st.checks, nks);
	printf(" lines_per_s=%.1f regs_per_s=%.2f",
	       el > 0 ? st.lines / el : 0, el > 0 ? st.regs / el : 0);
	print_hist("errno", st.err);
	print_hist("action_errno", st.aerr);
	printf(" fails=%lu\n", st.fails);
}

/* A line on stderr every 30 s, so that a long run is not silent. */
static void progress(double t0)
{
	static double next;
	double t = now();

	if (!next)
		next = t0 + 30;
	if (t < next)
		return;
	next = t + 30;
	fprintf(stderr, "kpfuzz-progress: secs=%.0f lines=%lu regs=%lu\n",
		t - t0, st.lines, st.regs);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: kpfuzz [-n COUNT] [-t SECONDS] [-s SEED] [-v]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct kp_opts o = { .count = 20000, .secs = 60, .seed = 1 };
	unsigned long count, secs;
	struct utsname u;
	struct buf *b = malloc(sizeof(*b));
	double t0, el;
	int armed = 1;

	kp_options(argc, argv, &o, usage);
	count = o.count;
	secs = o.secs;
	verbose = o.verbose;
	setvbuf(stdout, NULL, _IOLBF, 0);
	rs = o.seed * 0x9e3779b97f4a7c15ULL + 0x2545f4914f6cdd1dULL;
	rs = rs ? rs : 1;
	if (!uname(&u))
		is_arm64 = !strcmp(u.machine, "aarch64");
	fd_kpe = open(TR "kprobe_events", O_WRONLY | O_APPEND);
	fd_dyn = open(TR "dynamic_events", O_WRONLY | O_APPEND);
	if (fd_kpe < 0 || fd_dyn < 0 || !b) {
		fprintf(stderr, "kpfuzz: cannot open probe files: %m\n");
		return 2;
	}
	list_pre_groups();
	load_kallsyms();
	if (mkdir(INST, 0755) && errno != EEXIST)
		fail("mkdir %s: %s", INST, ename(errno));
	refresh();
	t0 = now();
	while (st.lines < count && now() - t0 < secs) {
		if (rn(50) == 0)
			action();
		if (rn(400) == 0)
			do_trunc();
		if (nevs > 64) {
			cleanup_events();
			continue;
		}
		one_write(b, &armed);
		progress(t0);
	}
	el = now() - t0;
	cleanup_events();
	close(fd_kpe);
	close(fd_dyn);
	put(TR "tracing_on", "1", 0);
	verify_clean();
	summary(o.seed, u.machine, el);
	return st.fails ? 1 : 0;
}
