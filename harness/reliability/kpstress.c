// SPDX-License-Identifier: GPL-2.0
/*
 * kpstress - concurrency stress of kprobe events, with oracles.
 *
 * Forks six workers that run at the same time on the events of group
 * "kpstress":
 *   addrm   adds and removes probes on the shared events ev0..ev11, with
 *           multi-probe appends (same name and arguments, other symbol),
 *           return probes and two-line batches;
 *   enable  enables and disables the shared events in the top instance and
 *           in instances kps1/kps2, which it creates and removes;
 *   perf    opens perf tracepoint events on the shared events, enables
 *           them, causes hits, reads the count and closes them;
 *   reader  reads kprobe_events, kprobe_profile, dynamic_events, the
 *           format files of the group and trace_pipe (non-blocking);
 *   oracle  owns own0..own3 and checks: deleting an enabled event fails
 *           with EBUSY, deleting an event open in perf fails with EBUSY,
 *           writing to the held enable fd of a deleted event fails with
 *           ENODEV and closing it succeeds, an enabled probe's nhit in
 *           kprobe_profile grows by at least the hits the worker caused;
 *   module  loads and unloads the trace-printk sample module with the
 *           probe kpstress/mod on trace_printk_irq_work defined before the
 *           load and enabled; each load must hit it once, and deleting it
 *           while enabled must fail with EBUSY.
 * Errors of racing operations are counted in a histogram; EFAULT, EIO and
 * errnos outside the expected set are failures.  At the end the parent
 * removes everything and checks that kprobe_events, dynamic_events and
 * debugfs kprobes/list are empty and events/kpstress is gone.
 *
 * Usage: kpstress [-n ITERATIONS] [-t SECONDS] [-s SEED] [-v]
 *   -n ITERATIONS  cap on the iterations of each worker (default 100000)
 *   -t SECONDS     run time (default 30)
 *   -s SEED        PRNG seed (default 1)
 *   -v             verbose: print each worker's summary
 *
 * Perf opens of shared events and creations of owned events are kept
 * apart with a flock on /tmp/kpstress.lock, because event ids are reused.
 * A worker still running 120 s after the deadline is a failure (its
 * /proc/PID/stack is printed).  A module that cannot be loaded is a
 * failure; without trace-printk.ko the module worker does nothing.
 *
 * Prints "FAIL: reason" for each violation, a "kpstress-progress:" line
 * on stderr every 30 s and a last summary line "kpstress: key=value ...".
 * Exit status: 0 if no invariant was violated, 1 if one was, 2 on a usage
 * or setup error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kpcommon.h"

#define TR		"/sys/kernel/tracing/"
#define GRP		TR "events/kpstress"
#define KPLIST		"/sys/kernel/debug/kprobes/list"
#define PICK(a)		((a)[rn(ARRAY_SIZE(a))])
#define NERR		1024
#define NSHARED		12
#define BIGBUF		(1 << 20)
#define ARGS		"a=$arg1 b=$arg2:u32"
#define LOCKFILE	"/tmp/kpstress.lock"
#define MODDEF		"p:kpstress/mod trace_printk:trace_printk_irq_work"

enum { W_ADDRM, W_ENABLE, W_PERF, W_READER, W_ORACLE, W_MODULE, NW };

static const char *const wname[NW] = {
	"addrm", "enable", "perf", "reader", "oracle", "module",
};

struct wstat {
	unsigned long iters, ok, fails, hits, cycles, perf, enables;
	unsigned long err[NERR];
	int done;
};

static struct wstat *sh;	/* NW entries, shared with the workers */
static struct wstat *me;
static double deadline;
static unsigned long cap = 100000;
static int verbose;
static char *big;
static char ko_path[512];
static int lock_fd = -1;

static const char *const syms[] = {
	"vfs_read", "vfs_write", "ksys_read", "do_nanosleep",
	"security_file_open", "do_sys_openat2", "hrtimer_nanosleep",
};

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
	char line[1024];
	va_list va;
	int n;

	me->fails++;
	n = snprintf(line, sizeof(line), "FAIL: [%s] ",
		     me >= sh && me < sh + NW ? wname[me - sh] : "main");
	va_start(va, fmt);
	vsnprintf(line + n, sizeof(line) - n - 1, fmt, va);
	va_end(va);
	strcat(line, "\n");
	if (write(1, line, strlen(line)) < 0)
		return;
}

/* Count the result of a racing operation; r is 0 or -errno. */
static int note(const char *op, int r)
{
	static const int ok[] = {
		EINVAL, ENOENT, EEXIST, EBUSY, ENODEV, ENOMEM, EAGAIN, E2BIG,
		EADDRNOTAVAIL, EILSEQ, ENOSPC, EOPNOTSUPP, ENOTSUPP, ERANGE,
		ENOTEMPTY,
	};
	unsigned int i;
	int e = -r;

	if (!r) {
		me->ok++;
		return 0;
	}
	me->err[e > 0 && e < NERR ? e : 0]++;
	for (i = 0; i < ARRAY_SIZE(ok); i++)
		if (ok[i] == e)
			return r;
	fail("%s: unexpected %s (%d)", op, ename(e), e);
	return r;
}

/* Write s to path (open, write, close); 0 or -errno. */
static int put(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_APPEND);
	int e = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		e = -errno;
	close(fd);
	return e;
}

static int probe_cmd(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Write one definition line to kprobe_events or dynamic_events. */
static int probe_cmd(const char *fmt, ...)
{
	char cmd[1024];
	va_list va;

	va_start(va, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, va);
	va_end(va);
	return put(rn(2) ? TR "kprobe_events" : TR "dynamic_events", cmd);
}

static int running(void)
{
	return me->iters < cap && now() < deadline;
}

/*
 * Event ids are recycled: the perf worker could read the id of evN, evN
 * go away and an owned event get the id before perf_event_open().  The
 * id lock keeps the read-and-open of the perf worker apart from the
 * creation of owned events, so the owners' oracles stay exact.
 */
static void id_lock(int on)
{
	if (lock_fd < 0)
		lock_fd = open(LOCKFILE, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lock_fd >= 0 && flock(lock_fd, on ? LOCK_EX : LOCK_UN))
		fail("flock: %s", ename(errno));
}

/* Create an owned event (under the id lock). */
static int create_owned(const char *def)
{
	int r;

	id_lock(1);
	r = probe_cmd("%s\n", def);
	id_lock(0);
	return r;
}

static void hit_read(int n)
{
	char buf[128];
	int fd;

	while (n-- > 0) {
		fd = open("/proc/self/stat", O_RDONLY);
		if (fd < 0)
			continue;
		if (read(fd, buf, sizeof(buf)) > 0)
			me->hits++;
		close(fd);
	}
}

static int perf_open(const char *ev, int pid, int cpu)
{
	struct perf_event_attr attr;
	char p[256], id[32];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), GRP "/%s/id", ev);
	n = slurp(p, id, sizeof(id));
	if (n <= 0) {
		if (verbose > 1)
			printf("kpstress: read %s: %s\n", p, ename(-n));
		return n < 0 ? n : -ENOENT;
	}
	kp_tracepoint_attr(&attr, id);
	attr.disabled = 1;
	fd = syscall(__NR_perf_event_open, &attr, pid, cpu, -1, 0);
	return fd < 0 ? -errno : fd;
}

/* ---- workers ---- */

/* Shared events: 0..7 entry probes with $arg1, 8..11 return probes. */
static int add_shared(unsigned int n, const char *sym)
{
	if (n < 8)
		return probe_cmd("p:kpstress/ev%u %s %s\n", n, sym, ARGS);
	return probe_cmd("r%s:kpstress/ev%u %s ret=$retval\n",
			 rn(2) ? "" : "8", n, sym);
}

static void w_addrm(void)
{
	unsigned int n, k;
	char cmd[512];

	while (running()) {
		me->iters++;
		n = rn(NSHARED);
		k = rn(10);
		if (k < 4) {
			note("add", add_shared(n, PICK(syms)));
		} else if (k < 6) {	/* append on another symbol */
			add_shared(n, syms[0]);
			note("append", add_shared(n, syms[1 + rn(6)]));
		} else if (k == 6 && n < 8) {
			snprintf(cmd, sizeof(cmd),
				 "p:kpstress/ev%u vfs_read %s\n"
				 "p:kpstress/ev%u ksys_read %s\n",
				 n, ARGS, n, ARGS);
			note("batch", put(TR "kprobe_events", cmd));
		} else {
			note("delete", probe_cmd("-:kpstress/ev%u\n", n));
		}
	}
}

static void w_enable(void)
{
	static const char *const inst[] = {
		TR, TR "instances/kps1/", TR "instances/kps2/",
	};
	char p[256];
	unsigned int k, i;

	while (running()) {
		me->iters++;
		k = rn(12);
		i = 1 + rn(2);
		if (k < 8) {
			snprintf(p, sizeof(p), "%sevents/kpstress/ev%u/enable",
				 inst[rn(3)], rn(NSHARED));
			if (!note("enable", put(p, rn(2) ? "1" : "0")))
				me->enables++;
		} else if (k < 10) {
			snprintf(p, sizeof(p), TR "instances/kps%u", i);
			note("mkdir", mkdir(p, 0755) ? -errno : 0);
		} else if (k == 10) {
			snprintf(p, sizeof(p), TR "instances/kps%u", i);
			note("rmdir", rmdir(p) ? -errno : 0);
		} else {
			hit_read(2);
		}
	}
}

static void w_perf(void)
{
	char ev[16];
	uint64_t cnt;
	int fd;

	while (running()) {
		me->iters++;
		snprintf(ev, sizeof(ev), "ev%u", rn(NSHARED));
		id_lock(1);
		fd = perf_open(ev, 0, -1);
		id_lock(0);
		if (note("perf_open", fd < 0 ? fd : 0)) {
			if (verbose > 1)
				printf("kpstress: perf open %s: %s\n", ev,
				       ename(-fd));
			continue;
		}
		me->perf++;
		note("perf_enable", ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) ?
		     -errno : 0);
		hit_read(3);
		if (read(fd, &cnt, sizeof(cnt)) != sizeof(cnt))
			note("perf_read", -errno);
		note("perf_close", close(fd) ? -errno : 0);
	}
}

static void read_formats(void)
{
	char p[512];
	struct dirent *d;
	DIR *dir = opendir(GRP);

	if (!dir) {
		note("opendir", -errno);
		return;
	}
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || d->d_type != DT_DIR)
			continue;
		snprintf(p, sizeof(p), GRP "/%.200s/format", d->d_name);
		note("format", slurp(p, big, 65536) < 0 ? -errno : 0);
	}
	closedir(dir);
}

static void w_reader(void)
{
	static const char *const files[] = {
		TR "kprobe_events", TR "kprobe_profile", TR "dynamic_events",
	};
	ssize_t n;
	int fd;

	while (running()) {
		me->iters++;
		switch (rn(5)) {
		case 0: case 1:
			n = slurp(PICK(files), big, BIGBUF);
			note("read", n < 0 ? n : 0);
			break;
		case 2:
			read_formats();
			break;
		default:
			fd = open(TR "trace_pipe", O_RDONLY | O_NONBLOCK);
			if (note("trace_pipe", fd < 0 ? -errno : 0))
				break;
			n = read(fd, big, 65536);
			if (n < 0 && errno != EAGAIN)
				note("trace_pipe_read", -errno);
			close(fd);
		}
	}
}

/* nhit of the event called name in kprobe_profile, -1 if not listed. */
static long nhit(const char *name)
{
	char *l, ev[128];
	unsigned long h;

	if (slurp(TR "kprobe_profile", big, BIGBUF) < 0)
		return -1;
	for (l = big; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l) {
		if (sscanf(l, "%127s %lu", ev, &h) == 2 && !strcmp(ev, name))
			return h;
	}
	return -1;
}

static void must(const char *what, int r, int want)
{
	if (r == want) {
		me->ok++;
		return;
	}
	fail("%s: got %s, expected %s", what, r ? ename(-r) : "success",
	     want ? ename(-want) : "success");
}

/*
 * Delete an owned event that must be deletable now.  If it is not, say so
 * and retry for up to 2 s, so that one violation does not cascade.
 */
static void must_delete(const char *what, const char *ev)
{
	double t = now();
	int i, r;

	r = probe_cmd("-:kpstress/%s\n", ev);
	must(what, r, 0);
	for (i = 0; r && i < 200; i++) {
		usleep(10000);
		r = probe_cmd("-:kpstress/%s\n", ev);
	}
	if (i && !r)
		printf("kpstress: %s: deletable %.0f ms later\n", what,
		       (now() - t) * 1000);
	else if (i)
		fail("%s: still %s after 2 s", what, ename(-r));
}

static int own_enable(const char *ev, int inst, const char *val)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s/enable",
		 inst ? TR "instances/kpso/events/kpstress" : GRP, ev);
	return put(p, val);
}

/* Delete while enabled (top or own instance): EBUSY. */
static void o_enabled(void)
{
	int inst = rn(2), r;

	r = create_owned("p:kpstress/own1 vfs_read");
	if (r) {
		fail("create own1: %s", ename(-r));
		return;
	}
	must("enable own1", own_enable("own1", inst, "1"), 0);
	hit_read(1);
	must("delete enabled own1", probe_cmd("-:kpstress/own1\n"), -EBUSY);
	must("disable own1", own_enable("own1", inst, "0"), 0);
	must_delete("delete own1 after disable", "own1");
}

/* Delete while a perf event holds it: EBUSY. */
static void o_perf(void)
{
	int r, fd, sys = rn(2);

	r = create_owned("p:kpstress/own2 ksys_read");
	if (r) {
		fail("create own2: %s", ename(-r));
		return;
	}
	fd = perf_open("own2", sys ? -1 : 0, sys ? 0 : -1);
	if (fd < 0) {
		fail("perf open own2: %s", ename(-fd));
	} else {
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		hit_read(1);
		must("delete own2 open in perf",
		     probe_cmd("-:kpstress/own2\n"), -EBUSY);
		close(fd);
		me->perf++;
	}
	must_delete(sys ? "delete own2 after close of its cpu-0 perf fd" :
		    "delete own2 after close of its task perf fd", "own2");
}

/* Held enable fd of a deleted event: write ENODEV, close fine. */
static void o_fd(void)
{
	int r, fd;

	r = create_owned("p:kpstress/own3 do_nanosleep");
	if (r) {
		fail("create own3: %s", ename(-r));
		return;
	}
	fd = open(GRP "/own3/enable", O_WRONLY);
	if (fd < 0)
		fail("open own3/enable: %s", ename(errno));
	must_delete("delete own3 with enable fd held", "own3");
	if (fd < 0)
		return;
	r = write(fd, "1", 1) < 0 ? -errno : 0;
	must("write 1 to enable fd of deleted own3", r, -ENODEV);
	must("close enable fd of deleted own3", close(fd) ? -errno : 0, 0);
}

/* nhit grows by at least the number of calls we made. */
static void o_nhit(void)
{
	struct timespec ts = { 0, 1000 };
	long before, after;
	int r, i, k = 1 + rn(4);

	r = create_owned("p:kpstress/own0 do_nanosleep");
	if (r) {
		fail("create own0: %s", ename(-r));
		return;
	}
	must("enable own0", own_enable("own0", 0, "1"), 0);
	before = nhit("own0");
	for (i = 0; i < k; i++)
		nanosleep(&ts, NULL);
	after = nhit("own0");
	if (before < 0 || after - before < k)
		fail("own0 nhit %ld -> %ld after %d calls of do_nanosleep",
		     before, after, k);
	me->hits += k;
	must("disable own0", own_enable("own0", 0, "0"), 0);
	must_delete("delete own0 after disable", "own0");
}

static void w_oracle(void)
{
	if (mkdir(TR "instances/kpso", 0755))
		fail("mkdir instances/kpso: %s", ename(errno));
	while (running()) {
		me->iters++;
		switch (rn(4)) {
		case 0:
			o_enabled();
			break;
		case 1:
			o_perf();
			break;
		case 2:
			o_fd();
			break;
		default:
			o_nhit();
		}
	}
}

static int unload(void)
{
	int i, r = 0;

	for (i = 0; i < 100; i++) {
		r = syscall(__NR_delete_module, "trace_printk", O_NONBLOCK) ?
			-errno : 0;
		if (r != -EAGAIN && r != -EBUSY)
			break;
		usleep(20000);
	}
	return r;
}

static int load(void)
{
	int fd = open(ko_path, O_RDONLY | O_CLOEXEC), r;

	if (fd < 0)
		return -errno;
	r = syscall(__NR_finit_module, fd, "", 0) ? -errno : 0;
	close(fd);
	return r;
}

/* Module loaded and the probe defined: delete and re-create it. */
static void mod_redefine(int enabled)
{
	if (enabled)
		must("disable mod", put(GRP "/mod/enable", "0"), 0);
	must("delete mod (module loaded)", probe_cmd("-:kpstress/mod\n"), 0);
	must("re-create mod (module loaded)", create_owned(MODDEF), 0);
	if (enabled)
		must("enable mod", put(GRP "/mod/enable", "1"), 0);
}

static int mod_cycle(void)
{
	int en = rn(4) != 0, r;
	long before, after;

	must(en ? "enable mod" : "disable mod",
	     put(GRP "/mod/enable", en ? "1" : "0"), 0);
	before = nhit("mod");
	r = load();
	if (r) {
		fail("load of %s: %s", ko_path, ename(-r));
		return r;
	}
	after = nhit("mod");
	if (en && after < before + 1)
		fail("load of trace-printk: nhit of mod %ld -> %ld, no hit",
		     before, after);
	if (en && rn(3) == 0)
		must("delete enabled mod", probe_cmd("-:kpstress/mod\n"),
		     -EBUSY);
	if (rn(8) == 0)
		mod_redefine(en);
	hit_read(1);
	note("unload", unload());	/* with mod enabled if en */
	me->cycles++;
	return 0;
}

static void w_module(void)
{
	int r;

	if (!ko_path[0])
		return;
	r = create_owned(MODDEF);
	if (r) {
		fail("define mod before load: %s", ename(-r));
		return;
	}
	while (running()) {
		me->iters++;
		if (mod_cycle())
			break;	/* cannot load: said so once */
	}
	put(GRP "/mod/enable", "0");
	unload();
}

/* ---- parent ---- */

static int find_ko(const char *dir, int depth)
{
	struct dirent *d;
	char p[512];
	DIR *dp;
	int found = 0;

	dp = opendir(dir);
	if (!dp)
		return 0;
	while (!found && (d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%.300s/%.200s", dir, d->d_name);
		if (!strcmp(d->d_name, "trace-printk.ko")) {
			snprintf(ko_path, sizeof(ko_path), "%s", p);
			found = 1;
		} else if (d->d_type == DT_DIR && depth < 8) {
			found = find_ko(p, depth + 1);
		}
	}
	closedir(dp);
	return found;
}

static void run_worker(int i, unsigned long seed)
{
	me = &sh[i];
	rs = (seed + 1) * 0x9e3779b97f4a7c15ULL;
	rs ^= (i + 1) * 0xbf58476d1ce4e5b9ULL;
	rs = rs ? rs : 1;
	big = malloc(BIGBUF);
	if (!big)
		_exit(3);
	switch (i) {
	case W_ADDRM: w_addrm(); break;
	case W_ENABLE: w_enable(); break;
	case W_PERF: w_perf(); break;
	case W_READER: w_reader(); break;
	case W_ORACLE: w_oracle(); break;
	default: w_module();
	}
	me->done = 1;
	_exit(0);
}

static void report_stuck(pid_t pid, int i)
{
	char p[64], buf[4096];

	fail("worker %s (pid %d) still running 120 s after the deadline",
	     wname[i], pid);
	snprintf(p, sizeof(p), "/proc/%d/stack", pid);
	if (slurp(p, buf, sizeof(buf)) > 0)
		printf("  stack of %s:\n%s", wname[i], buf);
	kill(pid, SIGKILL);
}

/* A line on stderr every 30 s, so that a long run is not silent. */
static void progress(void)
{
	static double next;
	double t = now();
	int i;

	if (!next)
		next = t + 30;
	if (t < next)
		return;
	next = t + 30;
	fprintf(stderr, "kpstress-progress:");
	for (i = 0; i < NW; i++)
		fprintf(stderr, " %s=%lu", wname[i], sh[i].iters);
	fprintf(stderr, "\n");
}

static void wait_workers(pid_t *pids)
{
	int i, st, left = 0, killed = 0;
	double hard = deadline + 120;
	pid_t p;

	for (i = 0; i < NW; i++)
		left += pids[i] > 0;
	while (left > 0) {
		p = waitpid(-1, &st, WNOHANG);
		for (i = 0; p > 0 && i < NW; i++) {
			if (pids[i] != p)
				continue;
			pids[i] = 0;
			left--;
			if (!WIFEXITED(st) || WEXITSTATUS(st))
				fail("worker %s ended with status 0x%x",
				     wname[i], st);
		}
		if (p > 0)
			continue;
		progress();
		if (now() > hard) {
			if (killed)
				return;
			for (i = 0; i < NW; i++)
				if (pids[i] > 0)
					report_stuck(pids[i], i);
			hard = now() + 30;
			killed = 1;
		}
		usleep(50000);
	}
}

static void cleanup(void)
{
	static const char *const inst[] = {
		TR, TR "instances/kps1/", TR "instances/kps2/",
		TR "instances/kpso/",
	};
	char *l, *nl, p[512], name[128];
	unsigned int i;
	int pass;

	unload();
	for (pass = 0; pass < 6; pass++) {
		if (slurp(TR "dynamic_events", big, BIGBUF) <= 0)
			break;
		for (l = big; *l; l = nl) {
			nl = strchr(l, '\n');
			nl = nl ? nl + 1 : l + strlen(l);
			if (sscanf(l, "%*[^:]:kpstress/%127s", name) != 1)
				continue;
			for (i = 0; i < ARRAY_SIZE(inst); i++) {
				snprintf(p, sizeof(p),
					 "%sevents/kpstress/%s/enable",
					 inst[i], name);
				put(p, "0");
			}
			snprintf(p, sizeof(p), "-:kpstress/%s\n", name);
			put(TR "dynamic_events", p);
		}
	}
	for (i = 1; i < ARRAY_SIZE(inst); i++) {
		snprintf(p, sizeof(p), "%s", inst[i]);
		for (pass = 0; pass < 20; pass++) {
			if (!rmdir(p) || errno == ENOENT)
				break;
			usleep(100000);
		}
		if (pass == 20)
			fail("cannot remove %s: %s", p, ename(errno));
	}
}

static void check_empty(const char *path)
{
	ssize_t n = slurp(path, big, BIGBUF);
	char *s;

	if (n < 0) {
		fail("cannot read %s: %s", path, ename(-n));
		return;
	}
	for (s = big; *s == ' ' || *s == '\n' || *s == '\t'; s++)
		;
	if (*s)
		fail("%s not empty at the end: %.300s", path, big);
}

/*
 * "-:EVENT" unregisters its kprobe a grace period or so after the write
 * returns (one for all the deletes of that time): give it 5 s.
 */
static void check_kplist_empty(void)
{
	int i;

	for (i = 0; i < 100; i++) {
		if (slurp(KPLIST, big, BIGBUF) >= 0 && !big[strspn(big, " \n\t")])
			return;
		usleep(50000);
	}
	check_empty(KPLIST);
}

static void verify_clean(void)
{
	struct stat sb;

	check_empty(TR "kprobe_events");
	check_empty(TR "dynamic_events");
	check_kplist_empty();
	if (!stat(GRP, &sb))
		fail("%s left behind", GRP);
	if (!access("/sys/module/trace_printk", F_OK))
		fail("module trace_printk still loaded");
}

static void print_worker(int i)
{
	struct wstat *w = &sh[i];
	int e;

	fprintf(stderr, "kpstress: %s iters=%lu ok=%lu hits=%lu perf=%lu",
		wname[i], w->iters, w->ok, w->hits, w->perf);
	fprintf(stderr, " enables=%lu cycles=%lu fails=%lu errno=",
		w->enables, w->cycles, w->fails);
	for (e = 0; e < NERR; e++)
		if (w->err[e])
			fprintf(stderr, "%s:%lu,", ename(e), w->err[e]);
	fputc('\n', stderr);
}

static void summary(unsigned long seed, double secs)
{
	unsigned long err[NERR] = { 0 }, fails = me->fails, ok = 0;
	int i, e, first = 1;

	printf("kpstress: seed=%lu secs=%.1f", seed, secs);
	for (i = 0; i < NW; i++) {
		printf(" %s=%lu", wname[i], sh[i].iters);
		fails += sh[i].fails;
		ok += sh[i].ok;
		for (e = 0; e < NERR; e++)
			err[e] += sh[i].err[e];
		if (verbose)
			print_worker(i);
	}
	printf(" ok=%lu module_cycles=%lu perf_opens=%lu enables=%lu errno=",
	       ok, sh[W_MODULE].cycles, sh[W_PERF].perf + sh[W_ORACLE].perf,
	       sh[W_ENABLE].enables);
	for (e = 0; e < NERR; e++) {
		if (!err[e])
			continue;
		printf("%s%s:%lu", first ? "" : ",", ename(e), err[e]);
		first = 0;
	}
	printf("%s fails=%lu\n", first ? "none" : "", fails);
}

static void start_workers(pid_t *pids, unsigned long seed)
{
	int i;

	fflush(stdout);
	for (i = 0; i < NW; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			run_worker(i, seed);
		if (pids[i] < 0) {
			fail("fork: %s", ename(errno));
			pids[i] = 0;
		}
	}
}

static void usage(void)
{
	fprintf(stderr,
		"usage: kpstress [-n ITERS] [-t SECONDS] [-s SEED] [-v]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static struct wstat mainst;
	struct kp_opts o = { .count = cap, .secs = 30, .seed = 1 };
	unsigned long secs, seed;
	pid_t pids[NW];
	struct utsname u;
	char dir[300];
	double t0;
	int i;

	kp_options(argc, argv, &o, usage);
	cap = o.count;
	secs = o.secs;
	seed = o.seed;
	verbose = o.verbose;
	setvbuf(stdout, NULL, _IOLBF, 0);
	me = &mainst;
	big = malloc(BIGBUF);
	sh = mmap(NULL, NW * sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!big || sh == MAP_FAILED || access(TR "kprobe_events", W_OK)) {
		fprintf(stderr, "kpstress: setup failed: %m\n");
		return 2;
	}
	uname(&u);
	snprintf(dir, sizeof(dir), "/lib/modules/%.200s", u.release);
	if (!find_ko(dir, 0))
		printf("kpstress: no trace-printk.ko under %s\n", dir);
	t0 = now();
	deadline = t0 + secs;
	start_workers(pids, seed);
	wait_workers(pids);
	t0 = now() - t0;
	unlink(LOCKFILE);
	cleanup();
	verify_clean();
	summary(seed, t0);
	for (i = 0; i < NW; i++)
		if (sh[i].fails)
			me->fails++;
	return me->fails ? 1 : 0;
}
