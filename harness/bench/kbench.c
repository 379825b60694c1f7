// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: what a kprobe event costs, measured from user space in the guest.
 *
 * Per hit: a getppid() loop timed with CLOCK_MONOTONIC, the probe on the
 * syscall's entry wrapper disabled (base) then enabled (probed), R rounds,
 * the median of the per-round deltas.  Under QEMU -icount shift=0 one
 * guest nanosecond is one guest instruction, so the figures are
 * instructions per hit and repeat exactly from boot to boot.
 *
 * Suites (-s, comma-separated): hit, floor, scale, bulk, watch.  Every
 * result is one line starting with "@@KB" (parsed by harness/kpt/bench.py):
 *
 *   @@KB base <name> ns=<per call>
 *   @@KB hit <case> base=<ns> probed=<ns> delta=<ns> mech=<how it hit>
 *   @@KB scale <case> others=<N> delta=<ns> add=<ns per add>
 *   @@KB bulk <mode> n=<N> add=<ms> enable=<ms> again=<ms> disable=<ms>
 *            delete=<ms> flush=<ms>  (again: the enable writes repeated,
 *            changing nothing; flush: an O_TRUNC of kprobe_events after
 *            the deletes)
 *   @@KB error <what> <why>           (the run then exits 1)
 *
 * Usage: kbench [-s suites] [-c case,...] [-x name=args;...] [-n iters]
 *               [-r rounds]
 *               [-N scale counts] [-B bulk counts] [-o offsets]
 *               [-m floor.ko]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing"
#define KPLIST "/sys/kernel/debug/kprobes/list"
#define OPTSYSCTL "/proc/sys/debug/kprobes-optimization"
#define MAXR 64

#if defined(__x86_64__)
#define SYM "__x64_sys_getppid"
#define R4 "%di %si %dx %cx"
#define R8 R4 " %r8 %r9 %ax %bx"
#define CSREG "%bx"		/* callee-saved; ftrace saves every register */
#define P "%di"			/* struct pt_regs *regs of the wrapper */
#define UARG "+112(%di)"	/* regs->di: getppid's ignored 1st arg */
#define ENTRY_MECH "ftrace"
#define ARG8 "$arg1 $arg2 $arg3 $arg4 $arg5 $arg6 $arg7 $arg8"
#define ARG2 "$arg1 $arg2"
/* An fprobe names the function as ftrace does (the wrapper is an alias) */
#define FSYM "__do_sys_getppid"
#elif defined(__aarch64__)
#define SYM "__arm64_sys_getppid"
#define R4 "%x0 %x1 %x2 %x3"
/* callee-saved: not in ftrace_regs, so the probe takes the BRK */
#define CSREG "%x19"
#define R8 R4 " %x4 %x5 %x6 %x7"
#define P "%x0"
#define UARG "+0(%x0)"		/* regs->regs[0] */
#define ENTRY_MECH "brk"
/* BTF knows __arm64_sys_getppid(const struct pt_regs *): only $arg1 */
#define ARG8 NULL
#define ARG2 "$arg1 %x4"
#define FSYM SYM
#else
#error "kbench: x86_64 or arm64"
#endif

/*
 * BTF gives the fprobe's function one parameter, a pointer: the 4
 * arguments read through it.  The kernel may have no fprobe events at
 * all (have_fprobes()).
 */
#define FARG4 "$arg1 +0($arg1):u64 +8($arg1):u64 +16($arg1):u64"
#define FRET4 "$retval $arg1 +0($arg1):u64 +8($arg1):u64"

#define DEREF4 "+0(" P "):u64 +8(" P "):u64 +16(" P "):u64 +24(" P "):u64"
/* 64 bytes at P: as 8 u64 members, and whole as struct ifla_vf_stats */
#define MEMBERS8 DEREF4 " +32(" P "):u64 +40(" P "):u64 +48(" P "):u64" \
	" +56(" P "):u64"
#define WHOLE64 "s=*(ifla_vf_stats)" P
#define KSTR "@init_uts_ns:string"	/* "Linux", init_uts_ns.name.sysname */
/* The first word of init_uts_ns ("Linux\0\0\0") taken as an address: user
 * range, so each read goes through the page fault handler and faults. */
#define KFAULT "+0(@init_uts_ns)"
#define USTR "+0(" UARG "):ustring"	/* ustr below, 14 chars */
/* The uprobe cases' function gets ustr as its first argument. */
#define UARGSTR "+0(" P "):string"
/* The eprobe case's event: write(-1, ustr, len), refused with EBADF. */
#define EP_EVENT "syscalls.sys_enter_write"
#define EP_FIELDS "fd=$fd buf=+0($buf):ustring"
#define MIX16 R4 " " ARG2 " +0(" P "):u64 +8(" P "):u32 +16(" P "):s16" \
	" +24(" P "):x8 $comm " USTR " " KSTR " @jiffies $stack0" \
	" +32(" P "):b4@2/32"

/* getppid() ignores its argument; the ustring cases read it. */
static const char ustr[] = "kbench-ustring";

/*
 * How the case probes, which decides what its loop calls: getppid() for
 * the kprobe, fprobe and tprobe (sys_enter) cases, ufunc() of this
 * program for the uprobe ones, write(-1, ...) for the eprobe ones.
 */
enum how { ENTRY, INT3, OPT, RET, UPROBE, URET, FENTRY, FEXIT, TPROBE, EPROBE,
	   WATCH };

struct hcase {
	const char *name;
	enum how how;
	const char *args;
	const char *filter;	/* rejects every hit */
	int tracing_off;
	const char *feature;	/* skipped when the kernel refuses it */
};

static const struct hcase hcases[] = {
	{ "kprobe-0",       ENTRY, "" },
	{ "kprobe-4reg",    ENTRY, R4 },
	{ "kprobe-8reg",    ENTRY, R8 },
	{ "kprobe-8arg",    ENTRY, ARG8 },
	{ "kprobe-4deref",  ENTRY, DEREF4 },
	{ "kprobe-8member", ENTRY, MEMBERS8 },
	{ "kprobe-whole64", ENTRY, WHOLE64, NULL, 0, "whole structures" },
	{ "kprobe-string",  ENTRY, KSTR },
	{ "kprobe-strfault", ENTRY, KFAULT ":string" },
	{ "kprobe-fault",   ENTRY, KFAULT ":u64" },
	{ "kprobe-ustring", ENTRY, USTR },
	{ "kprobe-comm",    ENTRY, "$comm" },
	{ "kprobe-16mix",   ENTRY, MIX16 },
	{ "kprobe-1reg",    ENTRY, P },
	{ "kprobe-csreg",   ENTRY, CSREG },
	{ "int3-0",         INT3,  "" },
	{ "optprobe-0",     OPT,   "" },
	{ "kretprobe-0",    RET,   "" },
	{ "kretprobe-retval", RET, "$retval" },
	{ "filter-drop",    ENTRY, P, "common_pid == 0" },
	/* arg1 is the wrapper's struct pt_regs pointer, never 0 */
	{ "filter-drop-4arg", ENTRY, R4, "arg1 == 0" },
	{ "tracing-off",    ENTRY, "", NULL, 1 },
	{ "uprobe-0",       UPROBE, "" },
	{ "uprobe-4reg",    UPROBE, R4 },
	{ "uprobe-string",  UPROBE, UARGSTR },
	{ "uretprobe-retval", URET, "$retval" },
	{ "fprobe-0",       FENTRY, "" },
	{ "fprobe-4arg",    FENTRY, FARG4 },
	{ "fexit-0",        FEXIT, "" },
	{ "fexit-4arg",     FEXIT, FRET4 },
	{ "tprobe-0",       TPROBE, "" },
	{ "eprobe-0",       EPROBE, "" },
	{ "eprobe-2field",  EPROBE, EP_FIELDS },
};
#define NHCASES (sizeof(hcases) / sizeof(hcases[0]))

static long iters = 200000;
static int rounds = 5;
static const char *caselist;
static const char *extracases;	/* -x "name=args;name=args" */
static const char *counts = "0,1000";
static const char *bulkcounts = "10,100,1000";
static const char *offsets = "";
static const char *floormod;
static int failed;

static void err(const char *what, const char *fmt, ...)
{
	va_list ap;

	printf("@@KB error %s ", what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	failed = 1;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static volatile long sink;

/* The uprobe cases' function, probed at its entry and its return. */
__attribute__((noinline)) long ufunc(const char *s, long a, long b, long c)
{
	__asm__ volatile("" : : "r"(s) : "memory");
	return a + b + c;
}

static double watch_loop(long n);

/* ns per call of the work a case of this kind probes, over n calls */
static double loop_of(enum how how, long n)
{
	double t0 = now_ns();
	long i;

	switch (how) {
	case UPROBE:
	case URET:
		for (i = 0; i < n; i++)
			sink = ufunc(ustr, i, 2, 3);
		break;
	case EPROBE:
		for (i = 0; i < n; i++)
			syscall(SYS_write, -1, ustr, sizeof(ustr) - 1);
		break;
	case WATCH:
		return watch_loop(n);
	default:
		for (i = 0; i < n; i++)
			syscall(SYS_getppid, ustr);
	}
	return (now_ns() - t0) / n;
}

/* ns per getppid() call over n calls */
static double loop(long n)
{
	return loop_of(ENTRY, n);
}

/*
 * A uprobe hit traps twice (the breakpoint and the single step) and costs
 * ten times a kprobe's: fewer calls give the same resolution.
 */
static long iters_of(enum how how)
{
	long n = how == UPROBE || how == URET || how == WATCH ? iters / 8 :
		 iters;

	return n > 0 ? n : 1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* write(2) s to path; 0 or -errno */
static int wfile(const char *path, const char *s, int flags)
{
	int fd = open(path, O_WRONLY | flags);
	ssize_t len = strlen(s), n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	if (n != len) {
		int e = n < 0 ? errno : EIO;

		close(fd);
		return -e;
	}
	return close(fd) ? -errno : 0;
}

static int tfile(const char *rel, const char *s)
{
	char path[256];

	snprintf(path, sizeof(path), TRACEFS "/%s", rel);
	return wfile(path, s, O_TRUNC);
}

static int add_event(const char *def)
{
	return wfile(TRACEFS "/kprobe_events", def, O_APPEND);
}

static int enable(const char *grp, const char *ev, int on)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "events/%s/%s/enable", grp, ev);
	return tfile(rel, on ? "1" : "0");
}

/* read a whole small file into a malloc'd string */
static char *slurp(const char *path)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap + 1);
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((n = read(fd, buf + len, cap - len)) > 0) {
		len += n;
		if (len == cap) {
			char *nb = realloc(buf, 2 * cap + 1);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	close(fd);
	buf[len] = 0;
	return buf;
}

/*
 * How the probe on SYM+off hits, from debugfs kprobes/list: "ftrace",
 * "opt", "int3"/"brk" (a plain breakpoint), "disabled" or "none".
 */
static const char *mechanism(const char *sym, long off)
{
	char want[128], *list = slurp(KPLIST), *line, *save;
	const char *m = "none";

	/*
	 * kallsyms may name the wrapper's alias (__do_sys_getppid).  A probe
	 * on the entry may sit at the ftrace call site (arm64 takes one there
	 * when it reads only what ftrace saves): for off 0, any offset does,
	 * as a case has one probe.
	 */
	if (off)
		snprintf(want, sizeof(want), "%s+0x%lx ",
			 strchr(sym + 2, '_'), off);
	else
		snprintf(want, sizeof(want), "%s+0x", strchr(sym + 2, '_'));
	for (line = list ? strtok_r(list, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char tmp[512];

		snprintf(tmp, sizeof(tmp), "%s ", line);
		if (!strstr(tmp, want))
			continue;
		if (strstr(line, "[OPTIMIZED]"))
			m = "opt";	/* disabled or not: the jump is there */
		else if (strstr(line, "[DISABLED]"))
			m = "disabled";
		else if (strstr(line, "[FTRACE]"))
			m = "ftrace";
		else
			m = strcmp(ENTRY_MECH, "brk") ? "int3" : "brk";
		break;
	}
	if (!strcmp(m, "none") && getenv("KBENCH_DEBUG"))
		printf("kbench: '%s' not in %s:\n%s\n", want, KPLIST,
		       slurp(KPLIST));
	free(list);
	return m;
}

/*
 * Wait until the probe is (on) or is no longer (!on) optimized, then let
 * the optimizer's own aftermath (its grace periods, the frees) finish:
 * under icount it would otherwise run on the other CPU inside the
 * measured loop, which moved optprobe-0 by up to 50 instructions from
 * one run to the next.  Idle time is free under icount.
 */
static int wait_optimized(const char *sym, long off, int on)
{
	for (int i = 0; i < 500; i++) {
		if ((strcmp(mechanism(sym, off), "opt") == 0) == on) {
			usleep(300000);
			return 0;
		}
		usleep(10000);
	}
	return -1;
}

static int set_optimization(int on)
{
	return wfile(OPTSYSCTL, on ? "1" : "0", O_TRUNC);
}

/*
 * A kernel may finish a "-:" delete in the background (ours unregisters
 * the kprobe a grace period later): wait for it with an O_TRUNC of
 * kprobe_events, so that it does not run inside the next measurement.
 */
static void settle_deletes(void)
{
	wfile(TRACEFS "/kprobe_events", "", O_TRUNC);
}

/* first offset of -o that takes a probe (and, for OPT, optimizes) */
static long pick_offset(enum how how)
{
	char *list = strdup(offsets), *tok, *save;
	long found = -1;

	set_optimization(how == OPT);
	for (tok = strtok_r(list, ",", &save); tok && found < 0;
	     tok = strtok_r(NULL, ",", &save)) {
		long off = strtol(tok, NULL, 0);
		char def[128];

		snprintf(def, sizeof(def), "p:kbo/pick %s+%ld", SYM, off);
		if (add_event(def))
			continue;
		if (how != OPT)
			found = off;
		else if (!enable("kbo", "pick", 1) &&
			 !wait_optimized(SYM, off, 1))
			found = off;
		enable("kbo", "pick", 0);
		add_event("-:kbo/pick");
		settle_deletes();
	}
	free(list);
	return found;
}

/*
 * Per-hit delta of the enabled event grp/ev on SYM+off: R rounds of
 * (disabled loop, enabled loop).  Fills base/probed/delta medians.
 */
static int measure(const char *grp, const char *ev, long off, int wait_opt,
		   int tracing_off, enum how how, double out[3])
{
	double b[MAXR], p[MAXR], d[MAXR];
	long n = iters_of(how);

	if (enable(grp, ev, 1))
		return -1;
	loop_of(how, n / 4);	/* warm up */
	for (int r = 0; r < rounds; r++) {
		if (enable(grp, ev, 0))
			return -1;
		/* a disabled optprobe keeps its jump until unoptimized */
		if (wait_opt && wait_optimized(SYM, off, 0))
			return -2;
		b[r] = loop_of(how, n);
		if (enable(grp, ev, 1))
			return -1;
		if (wait_opt && wait_optimized(SYM, off, 1))
			return -2;
		if (tracing_off)
			tfile("tracing_on", "0");
		p[r] = loop_of(how, n);
		if (tracing_off)
			tfile("tracing_on", "1");
		d[r] = p[r] - b[r];
	}
	out[0] = median(b, rounds);
	out[1] = median(p, rounds);
	out[2] = median(d, rounds);
	return 0;
}

static int selected(const char *name)
{
	char *list, *tok, *save;
	int hit = 0;

	if (!caselist || !*caselist)
		return 1;
	list = strdup(caselist);
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		hit |= !strcmp(tok, name);
	free(list);
	return hit;
}

/*
 * The watch suite: one write of a kernel variable per call, and what
 * finding out who writes it costs, three ways.  The loop writes "0" to
 * /proc/sys/kernel/panic: proc_dointvec() stores it into panic_timeout,
 * which nothing else touches.
 *
 *   wprobe-write        a wprobe event on panic_timeout (ours only)
 *   wprobe-write-val    the same, recording the value
 *   perf-bp-write       perf's mem:ADDR:w, as perf record -a samples it:
 *                       a breakpoint perf event on CPU 0, where the suite
 *                       runs, IP, TID and TIME into a ring buffer
 *                       mmap()ed here
 *   kprobe-store        a kprobe event on the instruction that stores
 *                       (found with the perf event first: its sample's IP
 *                       is that instruction on arm64, the next one on x86)
 */
#define WATCH_VAR "panic_timeout"
#define WATCH_FILE "/proc/sys/kernel/panic"
#define PERF_PAGES 256		/* data pages: a round's samples fit */

static int watch_fd = -1;

static double watch_loop(long n)
{
	double t0 = now_ns();

	for (long i = 0; i < n; i++)
		pwrite(watch_fd, "0\n", 2, 0);
	return (now_ns() - t0) / n;
}

/*
 * One pass over kallsyms: the address of symbol @name, or (@name NULL) the
 * start of the text symbol holding @addr, named in @sym
 */
static unsigned long kallsyms_find(const char *name, unsigned long addr,
				   char *sym, size_t len)
{
	unsigned long a, best = 0;
	char line[512], n[256], t;
	FILE *f = fopen("/proc/kallsyms", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %255s", &a, &t, n) != 3)
			continue;
		if (name && !strcmp(n, name)) {
			best = a;
			break;
		}
		if (!name && (t == 't' || t == 'T') && a <= addr && a > best) {
			best = a;
			snprintf(sym, len, "%s", n);
		}
	}
	if (f)
		fclose(f);
	return best;
}

static unsigned long ksym_addr(const char *name)
{
	return kallsyms_find(name, 0, NULL, 0);
}

static unsigned long ksym_holding(unsigned long addr, char *sym, size_t len)
{
	return kallsyms_find(NULL, addr, sym, len);
}

struct perf_bp {
	int fd;
	struct perf_event_mmap_page *meta;
	size_t size;
};

static int perf_bp_open(struct perf_bp *pb, unsigned long addr)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_BREAKPOINT,
		.size = sizeof(attr),
		.bp_type = HW_BREAKPOINT_W,
		.bp_addr = addr,
		.bp_len = HW_BREAKPOINT_LEN_4,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME,
		.disabled = 1,
	};

	/* CPU 0's, as perf record -a: arm64 takes no kernel breakpoint per task */
	pb->size = (1 + PERF_PAGES) * sysconf(_SC_PAGESIZE);
	pb->fd = syscall(SYS_perf_event_open, &attr, -1, 0, -1, 0);
	if (pb->fd < 0)
		return -errno;
	pb->meta = mmap(NULL, pb->size, PROT_READ | PROT_WRITE, MAP_SHARED,
			pb->fd, 0);
	if (pb->meta == MAP_FAILED) {
		close(pb->fd);
		return -ENOMEM;
	}
	return 0;
}

static void perf_bp_close(struct perf_bp *pb)
{
	munmap(pb->meta, pb->size);
	close(pb->fd);
}

/* Drop what the buffer holds, as perf record would have read it */
static void perf_bp_drain(struct perf_bp *pb)
{
	__atomic_store_n(&pb->meta->data_tail,
			 __atomic_load_n(&pb->meta->data_head, __ATOMIC_ACQUIRE),
			 __ATOMIC_RELEASE);
}

/* The IP of the first sample in the buffer, or 0 */
static unsigned long perf_bp_first_ip(struct perf_bp *pb)
{
	char *data = (char *)pb->meta + pb->meta->data_offset;
	struct perf_event_header *h = (void *)(data + pb->meta->data_tail %
					       pb->meta->data_size);

	if (__atomic_load_n(&pb->meta->data_head, __ATOMIC_ACQUIRE) ==
	    pb->meta->data_tail || h->type != PERF_RECORD_SAMPLE)
		return 0;
	return *(unsigned long *)(h + 1);
}

static int perf_bp_enable(struct perf_bp *pb, int on)
{
	return ioctl(pb->fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE,
		     0) ? -errno : 0;
}

/* Per write, the median over rounds, with the perf event on and off */
static void run_perf_bp(struct perf_bp *pb, const char *name)
{
	double b[MAXR], p[MAXR], d[MAXR];
	long n = iters_of(WATCH);

	if (perf_bp_enable(pb, 1)) {
		err(name, "enable: %s", strerror(errno));
		return;
	}
	watch_loop(n / 4);
	for (int r = 0; r < rounds; r++) {
		perf_bp_enable(pb, 0);
		b[r] = watch_loop(n);
		perf_bp_drain(pb);
		perf_bp_enable(pb, 1);
		p[r] = watch_loop(n);
		d[r] = p[r] - b[r];
	}
	perf_bp_enable(pb, 0);
	if (median(d, rounds) < 20)
		err(name, "the breakpoint never hit");
	printf("@@KB hit %s base=%.1f probed=%.1f delta=%.1f mech=perf off=0\n",
	       name, median(b, rounds), median(p, rounds), median(d, rounds));
	fflush(stdout);
}

/*
 * "SYM+OFF" of the instruction that stores into the variable: the IP of a
 * perf sample, and on x86 (a trap comes after the access) the last
 * instruction boundary before it, which is the first offset below where
 * a kprobe registers.
 */
static int store_place(unsigned long ip, char *sym, size_t len, long *off)
{
	unsigned long at = ksym_holding(ip, sym, len);
	char def[512];

	if (!at)
		return -1;
	*off = ip - at;
#ifdef __x86_64__
	for (long o = *off - 1; o >= 0 && o >= *off - 15; o--) {
		snprintf(def, sizeof(def), "p:kb/s %s+%ld", sym, o);
		if (add_event(def))
			continue;
		wfile(TRACEFS "/kprobe_events", "-:kb/s", O_APPEND);
		*off = o;
		return 0;
	}
	return -1;
#else
	(void)def;
	return 0;
#endif
}

/* A wprobe or kprobe event kb/e, measured as the hit suite does */
static void run_watch_event(const char *name, const char *file,
			    const char *def, const char *sym, long off)
{
	const char *mech = "wprobe";
	double v[3];
	int rc = wfile(file, def, O_APPEND);

	if (rc) {
		err(name, "adding '%s': %s", def, strerror(-rc));
		return;
	}
	rc = measure("kb", "e", 0, 0, 0, WATCH, v);
	if (sym)	/* a kprobe: how it hits */
		mech = mechanism(sym, off);
	enable("kb", "e", 0);
	wfile(file, "-:kb/e", O_APPEND);
	settle_deletes();
	if (rc || v[2] < 20) {
		err(name, rc ? "enable failed" : "the probe never hit");
		return;
	}
	printf("@@KB hit %s base=%.1f probed=%.1f delta=%.1f mech=%s off=0\n",
	       name, v[0], v[1], v[2], mech);
	fflush(stdout);
}

/* Whether tracefs README documents a definition starting with @head */
static int readme_has(const char *head)
{
	char *readme = slurp(TRACEFS "/README");
	int yes = readme && strstr(readme, head);

	free(readme);
	return yes;
}

static int have_wprobes(void)
{
	return readme_has("w[:[<group>/][<event>]]");
}

static int have_fprobes(void)
{
	return readme_has("f[:[<group>/][<event>]]");
}

static void suite_watch(void)
{
	unsigned long addr = ksym_addr(WATCH_VAR), ip;
	char sym[256] = "", def[400];
	long off = 0;
	struct perf_bp pb = { .fd = -1 };
	double v[MAXR];
	int rc;

	cpu_set_t cpu0;

	/* the writes happen where the perf event watches */
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		err("watch", "cannot run on CPU 0: %s", strerror(errno));
	watch_fd = open(WATCH_FILE, O_WRONLY);
	if (watch_fd < 0 || !addr) {
		err("watch", "no %s or no %s in kallsyms", WATCH_FILE, WATCH_VAR);
		return;
	}
	for (int r = 0; r < rounds; r++)
		v[r] = watch_loop(iters_of(WATCH));
	printf("@@KB base write-panic ns=%.1f\n", median(v, rounds));
	rc = perf_bp_open(&pb, addr);
	if (rc) {
		err("perf-bp-write", "perf_event_open: %s", strerror(-rc));
		return;
	}
	perf_bp_enable(&pb, 1);
	watch_loop(1);
	perf_bp_enable(&pb, 0);
	ip = perf_bp_first_ip(&pb);
	if (selected("perf-bp-write"))
		run_perf_bp(&pb, "perf-bp-write");
	perf_bp_close(&pb);
	if (selected("kprobe-store")) {
		if (!ip || store_place(ip, sym, sizeof(sym), &off)) {
			err("kprobe-store", "no store instruction (ip %lx)", ip);
		} else {
			snprintf(def, sizeof(def), "p:kb/e %s+%ld", sym, off);
			run_watch_event("kprobe-store", TRACEFS "/kprobe_events",
					def, sym, off);
		}
	}
	for (int i = 0; i < 2; i++) {
		const char *name = i ? "wprobe-write-val" : "wprobe-write";

		if (!selected(name))
			continue;
		if (!have_wprobes()) {
			printf("@@KB skip %s no wprobe events\n", name);
			continue;
		}
		snprintf(def, sizeof(def), "w:kb/e w@" WATCH_VAR ":4%s",
			 i ? " val=+0($addr):s32" : "");
		run_watch_event(name, TRACEFS "/dynamic_events", def, NULL, 0);
	}
	close(watch_fd);
}

/* PATH:0xOFFSET of ufunc() in this program's file, a uprobe's place */
static int uprobe_place(char *buf, size_t len)
{
	unsigned long lo, hi, off, addr = (unsigned long)ufunc;
	char line[512], perm[8], path[256];
	FILE *f = fopen("/proc/self/maps", "r");
	int rc = -1;

	while (f && rc && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %255s", &lo, &hi,
			   perm, &off, path) != 5)
			continue;
		if (addr >= lo && addr < hi) {
			snprintf(buf, len, "%s:0x%lx", path, addr - lo + off);
			rc = 0;
		}
	}
	if (f)
		fclose(f);
	return rc;
}

/* What a case that is no kprobe shows in the notes */
static const char *const probe_kind[] = {
	[UPROBE] = "uprobe", [URET] = "uprobe", [FENTRY] = "fprobe",
	[FEXIT] = "fprobe", [TPROBE] = "tprobe", [EPROBE] = "eprobe",
};

/* The definition of case c as event kb/e, and the file it is written to */
static int case_def(const struct hcase *c, long off, char *def, size_t len,
		    const char **file)
{
	char place[300];

	*file = TRACEFS "/dynamic_events";
	switch (c->how) {
	case UPROBE:
	case URET:
		if (uprobe_place(place, sizeof(place)))
			return -1;
		*file = TRACEFS "/uprobe_events";
		snprintf(def, len, "%c:kb/e %s %s", c->how == URET ? 'r' : 'p',
			 place, c->args);
		break;
	case FENTRY:
	case FEXIT:
		snprintf(def, len, "f:kb/e %s%s %s", FSYM,
			 c->how == FEXIT ? "%return" : "", c->args);
		break;
	case TPROBE:
		snprintf(def, len, "t:kb/e sys_enter %s", c->args);
		break;
	case EPROBE:
		snprintf(def, len, "e:kb/e " EP_EVENT " %s", c->args);
		break;
	default:
		*file = TRACEFS "/kprobe_events";
		snprintf(def, len, "%c:kb/e %s+%ld %s",
			 c->how == RET ? 'r' : 'p', SYM, off, c->args);
	}
	return 0;
}

static void run_hcase(const struct hcase *c)
{
	char def[1024];
	const char *file, *mech;
	long off = 0;
	double v[3];
	int rc;

	if (!c->args) {
		printf("@@KB skip %s not on this arch\n", c->name);
		return;
	}
	if ((c->how == FENTRY || c->how == FEXIT || c->how == TPROBE) &&
	    !have_fprobes()) {
		printf("@@KB skip %s no fprobe events\n", c->name);
		return;
	}
	if (c->how == INT3 || c->how == OPT) {
		if (c->how == OPT && access(OPTSYSCTL, F_OK)) {
			printf("@@KB skip %s no optprobes\n", c->name);
			return;
		}
		off = pick_offset(c->how);
		if (off < 0) {
			err(c->name, "no usable offset in -o '%s'", offsets);
			return;
		}
		set_optimization(c->how == OPT);
	}
	if (case_def(c, off, def, sizeof(def), &file)) {
		err(c->name, "no place for the probe");
		return;
	}
	rc = wfile(file, def, O_APPEND);
	if (rc && c->feature) {
		printf("@@KB skip %s no %s\n", c->name, c->feature);
		return;
	}
	if (rc) {
		char *log = slurp(TRACEFS "/error_log");
		char *last = log ? strrchr(log, '[') : NULL;

		err(c->name, "adding '%s': %s; error_log ends: %s", def,
		    strerror(-rc), last ? last : "-");
		free(log);
		return;
	}
	if (c->filter && (rc = tfile("events/kb/e/filter", c->filter)))
		err(c->name, "filter: %s", strerror(-rc));
	rc = measure("kb", "e", off, c->how == OPT, c->tracing_off, c->how, v);
	mech = probe_kind[c->how] ? probe_kind[c->how] : mechanism(SYM, off);
	enable("kb", "e", 0);
	wfile(file, "-:kb/e", O_APPEND);
	settle_deletes();
	if (c->how == INT3 || c->how == OPT)
		set_optimization(1);
	if (rc) {
		err(c->name, rc == -2 ? "optimization state never settled"
				  : "enable failed");
		return;
	}
	/* every case costs more than a few instructions when it hits */
	if (v[2] < 20)
		err(c->name, "the probe never hit: %.1f per call", v[2]);
	printf("@@KB hit %s base=%.1f probed=%.1f delta=%.1f mech=%s off=%ld\n",
	       c->name, v[0], v[1], v[2], mech, off);
	fflush(stdout);
}

/* -x: ad-hoc entry probe cases, "name=args;name=args", for experiments */
static void run_extra_cases(void)
{
	char *list, *tok, *save, *eq;

	if (!extracases)
		return;
	list = strdup(extracases);
	for (tok = strtok_r(list, ";", &save); tok;
	     tok = strtok_r(NULL, ";", &save)) {
		struct hcase c = { .name = tok, .how = ENTRY };

		eq = strchr(tok, '=');
		if (!eq) {
			err("extra", "'%s' is not name=args", tok);
			continue;
		}
		*eq = '\0';
		c.args = eq + 1;
		run_hcase(&c);
	}
	free(list);
}

static void suite_hit(void)
{
	double v[MAXR];

	for (int r = 0; r < rounds; r++)
		v[r] = loop(iters);
	printf("@@KB base getppid ns=%.1f\n", median(v, rounds));
	fflush(stdout);
	for (size_t i = 0; i < NHCASES; i++)
		if (selected(hcases[i].name))
			run_hcase(&hcases[i]);
	run_extra_cases();
}

/*
 * The floor, without the event tracer: a bare kprobe from a module
 * (harness/bench/kbfloor.c) with an empty handler (mode=0), and one that
 * reserves and commits an 8-byte entry in a private ring buffer (mode=1).
 */
static void floor_case(const char *name, int mode)
{
	double b[MAXR], p[MAXR], d[MAXR];
	char cmd[512];

	for (int r = 0; r < rounds; r++) {
		b[r] = loop(iters);
		snprintf(cmd, sizeof(cmd), "insmod %s sym=%s mode=%d",
			 floormod, SYM, mode);
		if (system(cmd)) {
			err(name, "'%s' failed", cmd);
			return;
		}
		if (r == 0)
			loop(iters / 4);
		p[r] = loop(iters);
		if (system("rmmod kbfloor")) {
			err(name, "rmmod failed");
			return;
		}
		d[r] = p[r] - b[r];
	}
	printf("@@KB hit %s base=%.1f probed=%.1f delta=%.1f mech=module off=0\n",
	       name, median(b, rounds), median(p, rounds), median(d, rounds));
	fflush(stdout);
}

static void suite_floor(void)
{
	if (!floormod || access(floormod, R_OK)) {
		err("floor", "no module (-m)");
		return;
	}
	if (selected("floor-kprobe"))
		floor_case("floor-kprobe", 0);
	if (selected("floor-rb"))
		floor_case("floor-rb", 1);
}

/*
 * Up to n probe-able function names from available_filter_functions:
 * no modules, no duplicates, no compiler clones, none of the names the
 * tracer itself or the probe path runs through.
 */
static const char *const avoid[] = {
	"rcu", "_raw_", "raw_", "lock", "preempt", "trace", "ring_buffer",
	"rb_", "kprobe", "ftrace", "arch_", "irq", "__irq", "do_int3",
	"text_poke", "perf", "__x64_sys_getppid", "__arm64_sys_getppid",
	"__do_sys_getppid", "kb_", "schedule", "__schedule", "sched",
	"tick", "hrtimer", "timer", "clock", "ktime", "native_", "x86_",
	"apic", "idle", "cpuidle", "default_idle", "do_idle", "mutex",
	"down", "up_", "_cond_resched", "console", "printk", "vprintk",
	"serial", "uart", "memcpy", "memset", "strlen", "strcmp",
};

static int avoided(const char *name)
{
	for (size_t i = 0; i < sizeof(avoid) / sizeof(avoid[0]); i++)
		if (!strncmp(name, avoid[i], strlen(avoid[i])) ||
		    (avoid[i][0] != '_' && strstr(name, avoid[i])))
			return 1;
	return strchr(name, '.') != NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char **funcs;
static int nfuncs;

static int load_funcs(void)
{
	char *text = slurp(TRACEFS "/available_filter_functions"), *line, *save;
	char **all;
	int n = 0, cap = 1024;

	if (funcs)
		return 0;
	if (!text)
		return -1;
	all = malloc(cap * sizeof(*all));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strchr(line, ' ') || strchr(line, '['))
			continue;
		if (n == cap)
			all = realloc(all, (cap *= 2) * sizeof(*all));
		all[n++] = line;
	}
	qsort(all, n, sizeof(*all), cmp_str);
	funcs = malloc(n * sizeof(*funcs));
	for (int i = 0; i < n; i++) {
		int dup = (i > 0 && !strcmp(all[i], all[i - 1])) ||
			  (i + 1 < n && !strcmp(all[i], all[i + 1]));

		if (!dup && !avoided(all[i]))
			funcs[nfuncs++] = all[i];
	}
	free(all);
	return 0;
}

/* add events grp/fI for funcs[from..to); return how many were accepted */
static int add_many(const char *grp, int from, int to, int *accepted)
{
	int fd = open(TRACEFS "/kprobe_events", O_WRONLY | O_APPEND), ok = 0;
	char def[256];

	if (fd < 0)
		return -1;
	for (int i = from; i < to && i < nfuncs; i++) {
		int len = snprintf(def, sizeof(def), "p:%s/f%d %s\n", grp, i,
				   funcs[i]);

		if (write(fd, def, len) == len) {
			ok++;
			if (accepted)
				accepted[i] = 1;
		}
	}
	close(fd);
	return ok;
}

static int parse_counts(const char *counts, int *v, int max)
{
	char *list = strdup(counts), *tok, *save;
	int n = 0;

	for (tok = strtok_r(list, ",", &save); tok && n < max;
	     tok = strtok_r(NULL, ",", &save))
		v[n++] = atoi(tok);
	free(list);
	return n;
}

/*
 * Per-hit cost of the target kprobe (created first, so it sits behind
 * the others in its kprobe hash chain) with N other, disabled kprobe
 * events registered.  N grows (counts ascending); nothing is deleted.
 */
static void suite_scale(void)
{
	int ns[16], n = parse_counts(counts, ns, 16), have = 0;
	double v[3];
	char name[32];

	if (load_funcs()) {
		err("scale", "no available_filter_functions");
		return;
	}
	if (add_event("p:kbs/t " SYM)) {
		err("scale", "adding the target failed");
		return;
	}
	for (int i = 0; i < n; i++) {
		double t0 = now_ns(), add = 0;
		int got;

		if (ns[i] > have) {
			got = add_many("kbn", have, ns[i], NULL);
			add = got > 0 ? (now_ns() - t0) / got : 0;
			have = ns[i];
			if (have > nfuncs)
				err("scale", "only %d functions", nfuncs);
		}
		snprintf(name, sizeof(name), "scale-%d", ns[i]);
		if (measure("kbs", "t", 0, 0, 0, ENTRY, v)) {
			err(name, "enable failed");
			continue;
		}
		printf("@@KB scale %s others=%d base=%.1f probed=%.1f "
		       "delta=%.1f add=%.0f mech=%s\n", name, ns[i], v[0], v[1],
		       v[2], add, mechanism(SYM, 0));
		enable("kbs", "t", 0);
		fflush(stdout);
	}
}

static double ms_since(double t0)
{
	return (now_ns() - t0) / 1e6;
}

/* one write() of all accepted definitions */
static int add_batch(const char *grp, int n, const int *accepted)
{
	size_t cap = (size_t)n * 96 + 1, len = 0;
	char *buf = malloc(cap);
	int ok = 0, rc;

	for (int i = 0; i < n && i < nfuncs; i++)
		if (accepted[i]) {
			len += snprintf(buf + len, cap - len, "p:%s/f%d %s\n",
					grp, i, funcs[i]);
			ok++;
		}
	rc = wfile(TRACEFS "/kprobe_events", buf, O_APPEND);
	free(buf);
	return rc ? rc : ok;
}

/* echo 1 (or 0) > events/grp/fI/enable for each accepted event */
static int enable_each(const char *grp, int n, const int *accepted, int on)
{
	char ev[32];
	int bad = 0;

	for (int i = 0; i < n && i < nfuncs; i++) {
		if (!accepted[i])
			continue;
		snprintf(ev, sizeof(ev), "f%d", i);
		bad += !!enable(grp, ev, on);
	}
	return bad;
}

/* echo -:grp/fI >> kprobe_events for each accepted event */
static int delete_each(const char *grp, int n, const int *accepted)
{
	char def[64];
	int bad = 0;

	for (int i = 0; i < n && i < nfuncs; i++) {
		if (!accepted[i])
			continue;
		snprintf(def, sizeof(def), "-:%s/f%d\n", grp, i);
		bad += !!add_event(def);
	}
	return bad;
}

/*
 * The boot's first event enable expands the ring buffer from its boot
 * size, which allocates the pages and waits for a grace period: how long
 * that wait is under icount depends on where the tick is, tens of ms
 * either way.  Expand it before anything is timed, as writing its size
 * does ("7 (expanded: 1408)" until then).
 */
static void expand_buffer(void)
{
	char *cur = slurp(TRACEFS "/buffer_size_kb");
	char *kb = cur ? strstr(cur, "expanded: ") : NULL;
	char num[32];

	if (kb) {
		snprintf(num, sizeof(num), "%d", atoi(kb + strlen("expanded: ")));
		tfile("buffer_size_kb", num);
	}
	free(cur);
}

/*
 * Each phase has a group of its own.  The first lookup of a group's
 * directory after it was removed and made again prunes the dentries the
 * old one left in eventfs: about 3.3 ms on arm64 for the thousand event
 * directories the line phase opened, paid by whatever opens the group
 * next, on both kernels alike.  With one name for both phases, the batch
 * enable's open() took that, four times what its write() costs.
 */
static void group_name(char *buf, size_t len, int batch, int n)
{
	snprintf(buf, len, "kb%c%d", batch ? 'b' : 'l', n);
}

/*
 * Add, enable, disable and delete N kprobe events, first one write per
 * event ("line": a definition per write, each event's enable file, a
 * "-:" line per write), then in one write each ("batch": all
 * definitions, the group's enable file, O_TRUNC of kprobe_events).
 * Between enable and disable, "again" repeats the enable writes.
 */
static void suite_bulk(void)
{
	int ns[16], n = parse_counts(bulkcounts, ns, 16);

	if (load_funcs()) {
		err("bulk", "no available_filter_functions");
		return;
	}
	expand_buffer();
	for (int i = 0; i < n; i++) {
		int *acc = calloc(ns[i] + 1, sizeof(int));

		for (int batch = 0; batch < 2; batch++) {
			double t0, add, en, again, dis, del, flush;
			char grp[32], gen[48];
			int got, bad;

			group_name(grp, sizeof(grp), batch, ns[i]);
			snprintf(gen, sizeof(gen), "events/%s/enable", grp);
			t0 = now_ns();
			got = batch ? add_batch(grp, ns[i], acc)
				    : add_many(grp, 0, ns[i], acc);
			add = ms_since(t0);
			if (got <= 0) {
				err("bulk", "adding %d events: %d", ns[i], got);
				break;
			}
			t0 = now_ns();
			bad = batch ? !!tfile(gen, "1")
				    : enable_each(grp, ns[i], acc, 1);
			en = ms_since(t0);
			/* the same writes again, changing nothing: their floor */
			t0 = now_ns();
			bad += batch ? !!tfile(gen, "1")
				     : enable_each(grp, ns[i], acc, 1);
			again = ms_since(t0);
			t0 = now_ns();
			bad += batch ? !!tfile(gen, "0")
				     : enable_each(grp, ns[i], acc, 0);
			dis = ms_since(t0);
			t0 = now_ns();
			bad += batch ? !!wfile(TRACEFS "/kprobe_events", "",
					       O_TRUNC)
				     : delete_each(grp, ns[i], acc);
			del = ms_since(t0);
			/* an O_TRUNC waits for kprobes still unregistering */
			t0 = now_ns();
			bad += !!wfile(TRACEFS "/kprobe_events", "", O_TRUNC);
			flush = ms_since(t0);
			if (bad)
				err("bulk", "%d writes failed (%s, %d events)",
				    bad, batch ? "batch" : "line", ns[i]);
			printf("@@KB bulk %s n=%d events=%d add=%.1f enable=%.1f "
			       "again=%.1f disable=%.1f delete=%.1f flush=%.1f\n",
			       batch ? "batch" : "line", ns[i], got, add, en,
			       again, dis, del, flush);
			fflush(stdout);
		}
		free(acc);
	}
}

/*
 * Let the boot finish: x86 switches to the refined TSC clocksource a
 * second or so after userland starts, and the first probes of the
 * remaining devices still run.  (Idle time is free under icount.)
 */
static void settle(void)
{
	for (int i = 0; i < 100; i++) {
		char *cs = slurp("/sys/devices/system/clocksource/clocksource0/"
				 "current_clocksource");
		int tsc = cs && !strncmp(cs, "tsc", 3);

		free(cs);
		if (tsc || strcmp(ENTRY_MECH, "ftrace"))
			break;
		usleep(100000);
	}
	sleep(2);
}

static void usage(void)
{
	fprintf(stderr, "usage: kbench [-s hit,floor,scale,bulk,watch] [-c cases] "
		"[-n iters] [-r rounds] [-N counts] [-B counts] [-o offsets] "
		"[-m ko]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *suites = "hit";
	char *list, *tok, *save;
	int opt;

	while ((opt = getopt(argc, argv, "s:c:x:n:r:N:B:o:m:")) != -1) {
		switch (opt) {
		case 's': suites = optarg; break;
		case 'c': caselist = optarg; break;
		case 'x': extracases = optarg; break;
		case 'n': iters = atol(optarg); break;
		case 'r': rounds = atoi(optarg); break;
		case 'N': counts = optarg; break;
		case 'B': bulkcounts = optarg; break;
		case 'o': offsets = optarg; break;
		case 'm': floormod = optarg; break;
		default: usage();
		}
	}
	if (iters < 1 || rounds < 1 || rounds > MAXR)
		usage();
	settle();
	wfile(TRACEFS "/kprobe_events", "", O_TRUNC);
	list = strdup(suites);
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "hit"))
			suite_hit();
		else if (!strcmp(tok, "floor"))
			suite_floor();
		else if (!strcmp(tok, "scale"))
			suite_scale();
		else if (!strcmp(tok, "bulk"))
			suite_bulk();
		else if (!strcmp(tok, "watch"))
			suite_watch();
		else
			err("suite", "unknown suite '%s'", tok);
	}
	printf("@@KB done failed=%d\n", failed);
	return failed;
}
