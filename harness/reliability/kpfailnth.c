// SPDX-License-Identifier: GPL-2.0
/*
 * kpfailnth: fail-nth sweep over probe definitions (reliability plan T5a).
 *
 * For each definition of a corpus, first written without injection (the
 * clean run), then again with the Nth fault-injection site of the write
 * failing, N = 1, 2, ... until the write no longer reaches an Nth site.
 * After every injected run:
 *   - a write that succeeded left exactly what the clean run left;
 *   - a write that failed left exactly what was there before it: the
 *     same listing, no event directory of its own, no kprobe armed or
 *     registered (debugfs kprobes/list);
 *   - a failure is ENOMEM or the clean run's own error.
 * The kernel must not have FAULT_INJECTION_USERCOPY: fail-nth would count
 * the copies of this program's own reads and writes of fail-nth.
 *
 * Corpus lines (file or stdin): "K def" for kprobe_events, "D def" for
 * dynamic_events, "U def" for uprobe_events; "S def" is written to
 * dynamic_events, without injection, before the next definition (the
 * state it is appended to, e.g. the first probe of a multi-probe event).
 * Blank lines and lines starting with '#' are skipped.
 *
 * Usage: kpfailnth [-m MAXN] [-t SECONDS] [-v] [CORPUS]
 * Prints one line per definition and a "kpfailnth:" summary; exits 1 if
 * any check failed, 2 on a usage or set-up error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TRACEFS		"/sys/kernel/tracing/"
#define KPLIST		"/sys/kernel/debug/kprobes/list"
#define FI		"/sys/kernel/debug/"
/* an instance, whose event directories each new event must get too */
#define INST		TRACEFS "instances/kpfnth/"
#define SNAP_MAX	(64 * 1024)
#define MAX_SETUP	8

/* What a definition can change: listings, event dirs, kprobes. */
struct snap {
	char text[SNAP_MAX];
};

struct stats {
	int defs, runs, injected, ok_present, failed_absent, fails;
};

static struct stats st;
static int verbose;
static const char *const groups[] = {
	"kprobes", "uprobes", "eprobes", "fprobes", "tracepoints", "fnth",
	NULL
};

static void fail(const char *def, int n, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL: [%s] nth=%d: ", def, n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	st.fails++;
}

static int put_file(const char *path, const char *s, int flags)
{
	int fd = open(path, O_WRONLY | flags);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Append a file's contents, or "<errno>" if it cannot be read. */
static void add_file(struct snap *sn, const char *path)
{
	size_t len = strlen(sn->text);
	int fd = open(path, O_RDONLY);
	ssize_t r = 0;

	if (fd < 0) {
		snprintf(sn->text + len, SNAP_MAX - len, "<%s: %d>\n", path,
			 errno);
		return;
	}
	while (len < SNAP_MAX - 1) {
		r = read(fd, sn->text + len, SNAP_MAX - 1 - len);
		if (r <= 0)
			break;
		len += r;
	}
	sn->text[len] = '\0';
	close(fd);
}

/* Event directories of the dynamic groups under @top, as listed. */
static void add_dirs(struct snap *sn, const char *top, const char *label)
{
	char path[256];
	struct dirent *de;
	size_t len;
	DIR *d;
	int i;

	for (i = 0; groups[i]; i++) {
		snprintf(path, sizeof(path), "%sevents/%s", top, groups[i]);
		d = opendir(path);
		if (!d)
			continue;
		len = strlen(sn->text);
		len += snprintf(sn->text + len, SNAP_MAX - len, "[%s%s]",
				label, groups[i]);
		while ((de = readdir(d)) && len < SNAP_MAX - 64)
			len += snprintf(sn->text + len, SNAP_MAX - len, " %s",
					de->d_name);
		snprintf(sn->text + len, SNAP_MAX - len, "\n");
		closedir(d);
	}
}

/*
 * Each event's format but its ID line: the event core ignores the error
 * of a probe type's define_fields(), so a field that failed to allocate
 * shows only here.
 */
static void add_formats(struct snap *sn)
{
	char path[512], line[512];
	struct dirent *de;
	size_t len;
	FILE *f;
	DIR *d;
	int i;

	for (i = 0; groups[i]; i++) {
		snprintf(path, sizeof(path), TRACEFS "events/%s", groups[i]);
		d = opendir(path);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			snprintf(path, sizeof(path), TRACEFS "events/%s/%s/format",
				 groups[i], de->d_name);
			f = fopen(path, "r");
			if (!f)
				continue;
			while (fgets(line, sizeof(line), f)) {
				len = strlen(sn->text);
				if (strncmp(line, "ID:", 3) && len < SNAP_MAX - 1)
					snprintf(sn->text + len, SNAP_MAX - len,
						 "%s", line);
			}
			fclose(f);
		}
		closedir(d);
	}
}

/*
 * How many functions ftrace hooks: an fprobe registered with an empty
 * filter hooks all of them, with the same listing.  (Only the count: the
 * lines name trampolines, new on every registration.)
 */
static void add_hooked(struct snap *sn)
{
	FILE *f = fopen(TRACEFS "enabled_functions", "r");
	size_t len = strlen(sn->text);
	int c, lines = 0;

	if (!f)
		return;
	while ((c = getc(f)) != EOF)
		lines += c == '\n';
	fclose(f);
	snprintf(sn->text + len, SNAP_MAX - len, "hooked functions: %d\n",
		 lines);
}

static void take(struct snap *sn)
{
	sn->text[0] = '\0';
	add_file(sn, TRACEFS "dynamic_events");
	add_file(sn, TRACEFS "kprobe_events");
	add_file(sn, TRACEFS "uprobe_events");
	add_file(sn, KPLIST);
	add_dirs(sn, TRACEFS, "");
	add_dirs(sn, INST, "kpfnth/");
	add_formats(sn);
	add_hooked(sn);
}

static void reset(void)
{
	put_file(TRACEFS "dynamic_events", "", O_TRUNC);
	put_file(TRACEFS "kprobe_events", "", O_TRUNC);
	put_file(TRACEFS "uprobe_events", "", O_TRUNC);
}

static const char *target(char kind)
{
	switch (kind) {
	case 'K':
		return TRACEFS "kprobe_events";
	case 'U':
		return TRACEFS "uprobe_events";
	}
	return TRACEFS "dynamic_events";
}

/* One write of def with site nth failing (0: none); errno or 0. */
static int inject(char kind, const char *def, int nth, int *hit)
{
	char buf[16];
	int fd, fn, ret = 0;
	ssize_t r;

	fd = open(target(kind), O_WRONLY | O_APPEND);
	fn = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fd < 0 || fn < 0) {
		perror("kpfailnth: open");
		exit(2);
	}
	snprintf(buf, sizeof(buf), "%d", nth);
	if (nth && write(fn, buf, strlen(buf)) < 0) {
		perror("kpfailnth: fail-nth");
		exit(2);
	}
	if (write(fd, def, strlen(def)) < 0)
		ret = errno;
	/* reading 0 back means the Nth site was reached and failed */
	r = pread(fn, buf, sizeof(buf) - 1, 0);
	*hit = nth && r > 0 && atoi(buf) == 0;
	if (write(fn, "0", 1) < 0)
		ret = ret ? ret : EIO;
	close(fn);
	close(fd);
	return ret;
}

static int apply_setup(char setup[][4096], int nsetup)
{
	int i, hit;

	for (i = 0; i < nsetup; i++)
		if (inject('D', setup[i], 0, &hit)) {
			fprintf(stderr, "kpfailnth: set-up failed: %s\n",
				setup[i]);
			return -1;
		}
	return 0;
}

static void check_run(const char *def, int n, int err, int clean_err,
		      const struct snap *before, const struct snap *after,
		      const struct snap *now)
{
	if (!err) {
		if (clean_err)
			fail(def, n, "accepted, clean run gave %d", clean_err);
		else if (strcmp(now->text, after->text))
			fail(def, n, "accepted, state differs:\n%s\n--- want\n%s",
			     now->text, after->text);
		else
			st.ok_present++;
		return;
	}
	if (err != ENOMEM && err != clean_err)
		fail(def, n, "errno %d (%s), clean run %d", err, strerror(err),
		     clean_err);
	if (strcmp(now->text, before->text))
		fail(def, n, "failed (%d), state left:\n%s\n--- want\n%s", err,
		     now->text, before->text);
	else
		st.failed_absent++;
}

/* Sweep N over one definition; returns the number of sites found. */
static int sweep(char kind, const char *def, char setup[][4096], int nsetup,
		 int maxn, time_t deadline)
{
	static struct snap before, after, now;
	int clean_err, err, hit, n;

	reset();
	if (apply_setup(setup, nsetup))
		return -1;
	take(&before);
	clean_err = inject(kind, def, 0, &hit);
	take(&after);
	for (n = 1; n <= maxn && time(NULL) < deadline; n++) {
		reset();
		if (apply_setup(setup, nsetup))
			return -1;
		err = inject(kind, def, n, &hit);
		take(&now);
		st.runs++;
		if (!hit) {
			/* past the last site: this was a clean run again */
			if (err != clean_err || strcmp(now.text, after.text))
				fail(def, n, "uninjected run differs (%d vs %d)",
				     err, clean_err);
			break;
		}
		st.injected++;
		check_run(def, n, err, clean_err, &before, &after, &now);
	}
	reset();
	if (verbose || n > maxn)
		printf("%s: %d sites, clean errno %d%s\n", def, n - 1,
		       clean_err, n > maxn ? " (stopped at -m)" : "");
	return n - 1;
}

static void quiet_injection(void)
{
	static const char *const knobs[][2] = {
		{ FI "failslab/ignore-gfp-wait", "N" },
		{ FI "failslab/verbose", "0" },
		{ FI "fail_page_alloc/ignore-gfp-wait", "N" },
		{ FI "fail_page_alloc/ignore-gfp-highmem", "N" },
		{ FI "fail_page_alloc/verbose", "0" },
	};
	size_t i;

	for (i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
		if (put_file(knobs[i][0], knobs[i][1], O_TRUNC))
			fprintf(stderr, "kpfailnth: cannot set %s\n",
				knobs[i][0]);
}

static int run_corpus(FILE *in, int maxn, time_t deadline)
{
	static char setup[MAX_SETUP][4096];
	char line[4096];
	int nsetup = 0, sites, total = 0;
	size_t len;

	while (fgets(line, sizeof(line), in) && time(NULL) < deadline) {
		len = strlen(line);
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len < 3 || line[0] == '#')
			continue;
		if (line[0] == 'S' && nsetup < MAX_SETUP) {
			strcpy(setup[nsetup++], line + 2);
			continue;
		}
		sites = sweep(line[0], line + 2, setup, nsetup, maxn, deadline);
		if (sites < 0)
			return -1;
		total += sites;
		st.defs++;
		nsetup = 0;
	}
	return total;
}

int main(int argc, char **argv)
{
	int maxn = 400, secs = 600, opt, total;
	FILE *in = stdin;

	while ((opt = getopt(argc, argv, "m:t:v")) != -1) {
		switch (opt) {
		case 'm':
			maxn = atoi(optarg);
			break;
		case 't':
			secs = atoi(optarg);
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			fprintf(stderr, "usage: kpfailnth [-m MAXN] [-t SECONDS] [-v] [CORPUS]\n");
			return 2;
		}
	}
	if (optind < argc && !(in = fopen(argv[optind], "r"))) {
		perror(argv[optind]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	quiet_injection();
	if (mkdir(INST, 0755) && errno != EEXIST) {
		perror("kpfailnth: " INST);
		return 2;
	}
	total = run_corpus(in, maxn, time(NULL) + secs);
	rmdir(INST);
	if (total < 0)
		return 2;
	printf("kpfailnth: definitions=%d sites=%d runs=%d injected=%d accepted_whole=%d failed_clean=%d failures=%d\n",
	       st.defs, total, st.runs, st.injected, st.ok_present,
	       st.failed_absent, st.fails);
	return st.fails || !st.injected ? 1 : 0;
}
