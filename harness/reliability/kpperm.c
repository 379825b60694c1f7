// SPDX-License-Identifier: GPL-2.0
/*
 * kpperm: who may use probe events (reliability plan T6).
 *
 * Prints one "phase check: result" line per check, result "ok" or the
 * errno's name, for the host to compare with the same program's output
 * on KERNEL=upstream.  Phases:
 *   nobody    uid/gid 65534, no capabilities: tracefs files, the kprobe
 *             and uprobe PMUs, a tracepoint open of a kprobe event;
 *   perfmon   uid 65534 with CAP_PERFMON only: the same;
 *   root      the kprobe PMU on a bad address and a missing symbol;
 *   delegate  tracefs remounted gid=65534,mode=0750, then kprobe_events
 *             made group-writable: what uid 65534 may do then;
 *   lockdown  (-L, instead of the others, last in a boot: it cannot be
 *             undone) lockdown=integrity, then confidentiality, as root.
 * Exit status: 0, or 2 when the set-up (as root) failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define T		"/sys/kernel/tracing/"
#define EV		"events/kprobes/kpperm/"
#define NOBODY		65534

static const char *phase;
static int kprobe_type = -1, uprobe_type = -1, event_id = -1;

static const char *ename(int err)
{
	static char buf[16];

	switch (err) {
	case 0: return "ok";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EBUSY: return "EBUSY";
	case ENODEV: return "ENODEV";
	case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case E2BIG: return "E2BIG";
	case EFAULT: return "EFAULT";
	}
	snprintf(buf, sizeof(buf), "errno%d", err);
	return buf;
}

static void report(const char *check, int err)
{
	printf("%s %s: %s\n", phase, check, ename(err));
	fflush(stdout);
}

static int read_int(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static int try_open(const char *file, int flags)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), T "%s", file);
	fd = open(path, flags);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int try_write(const char *file, const char *s)
{
	char path[256];
	int fd, err = 0;

	snprintf(path, sizeof(path), T "%s", file);
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) < 0)
		err = errno;
	close(fd);
	return err;
}

static int perf_open(int type, uint64_t config, uint64_t c1, uint64_t c2,
		     int raw)
{
	struct perf_event_attr attr;
	int fd;

	if (type < 0)
		return ENODEV;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.config1 = c1;
	attr.config2 = c2;
	attr.disabled = 1;
	if (raw)
		attr.sample_type = PERF_SAMPLE_RAW;
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static void file_checks(void)
{
	static const char *const files[] = {
		"kprobe_events", "dynamic_events", "uprobe_events",
		"kprobe_profile", "error_log", "trace", EV "enable",
		EV "format", NULL
	};
	char check[128];
	int i;

	for (i = 0; files[i]; i++) {
		snprintf(check, sizeof(check), "read %s", files[i]);
		report(check, try_open(files[i], O_RDONLY));
		snprintf(check, sizeof(check), "write %s", files[i]);
		report(check, try_open(files[i], O_WRONLY));
	}
	report("add kprobe", try_write("kprobe_events",
				       "p:kprobes/kpperm2 vfs_read\n"));
}

static void perf_checks(void)
{
	const char *func = "vfs_read", *path = "/bin/busybox";

	report("perf kprobe", perf_open(kprobe_type, 0,
					(uintptr_t)func, 0, 0));
	report("perf kretprobe", perf_open(kprobe_type, 1,
					   (uintptr_t)func, 0, 0));
	report("perf uprobe", perf_open(uprobe_type, 0,
					(uintptr_t)path, 0x1000, 0));
	report("perf tracepoint", perf_open(PERF_TYPE_TRACEPOINT,
					    event_id, 0, 0, 0));
	report("perf tracepoint raw", perf_open(PERF_TYPE_TRACEPOINT,
						event_id, 0, 0, 1));
}

static int drop_to_nobody(int keep_perfmon)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = { { 0 } };

	if (keep_perfmon && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
		return -1;
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return -1;
	if (keep_perfmon) {
		data[CAP_TO_INDEX(CAP_PERFMON)].permitted =
			CAP_TO_MASK(CAP_PERFMON);
		data[CAP_TO_INDEX(CAP_PERFMON)].effective =
			CAP_TO_MASK(CAP_PERFMON);
	}
	return syscall(__NR_capset, &hdr, data);
}

/* Run fn in a child as uid 65534 (with CAP_PERFMON if asked). */
static void as_nobody(const char *name, int perfmon, void (*fn)(void))
{
	int status;
	pid_t pid;

	phase = name;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (drop_to_nobody(perfmon)) {
			report("drop privileges", errno);
			_exit(1);
		}
		fn();
		_exit(0);
	}
	waitpid(pid, &status, 0);
}

static void nobody_all(void)
{
	file_checks();
	perf_checks();
}

static void root_checks(void)
{
	phase = "root";
	report("perf kprobe unmapped addr",
	       perf_open(kprobe_type, 0, 0, 0xffffffffff000000ull, 0));
	report("perf kprobe user addr", perf_open(kprobe_type, 0, 0, 0x1000, 0));
	report("perf kprobe missing symbol",
	       perf_open(kprobe_type, 0, (uintptr_t)"kpperm_no_such_fn", 0, 0));
	report("perf kprobe", perf_open(kprobe_type, 0, (uintptr_t)"vfs_read",
					0, 0));
}

static void delegated(void)
{
	report("read kprobe_events", try_open("kprobe_events", O_RDONLY));
	report("add kprobe", try_write("kprobe_events",
				       "p:deleg/jiffies vfs_read j=@jiffies_64:u64\n"));
}

static void delegate_checks(void)
{
	if (mount("tracefs", "/sys/kernel/tracing", NULL, MS_REMOUNT,
		  "gid=65534,mode=0750")) {
		phase = "delegate";
		report("remount", errno);
		return;
	}
	as_nobody("delegate-ro", 0, delegated);
	chmod(T "kprobe_events", 0660);
	as_nobody("delegate-rw", 0, delegated);
	phase = "delegate";
	report("listing", system("grep -q '^p:deleg/jiffies vfs_read' "
				 T "kprobe_events") ? ENOENT : 0);
	try_write("kprobe_events", "-:deleg/jiffies\n");
	chmod(T "kprobe_events", 0640);
	mount("tracefs", "/sys/kernel/tracing", NULL, MS_REMOUNT,
	      "gid=0,mode=0700");
}

static void lockdown_level(const char *level)
{
	int fd = open("/sys/kernel/security/lockdown", O_WRONLY);

	phase = level;
	if (fd < 0 || write(fd, level, strlen(level)) < 0) {
		report("set lockdown", errno);
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	report("read kprobe_events", try_open("kprobe_events", O_RDONLY));
	report("read trace", try_open("trace", O_RDONLY));
	report("read kprobe_profile", try_open("kprobe_profile", O_RDONLY));
	report("add kprobe", try_write("kprobe_events",
				       "p:kprobes/kpperm_lk vfs_read\n"));
	report("add dynamic", try_write("dynamic_events",
					"p:kprobes/kpperm_lk2 vfs_write\n"));
	report("perf kprobe", perf_open(kprobe_type, 0, (uintptr_t)"vfs_read",
					0, 0));
	try_write("kprobe_events", "-:kprobes/kpperm_lk\n");
	try_write("dynamic_events", "-:kprobes/kpperm_lk2\n");
}

int main(int argc, char **argv)
{
	int lockdown = argc > 1 && !strcmp(argv[1], "-L");

	kprobe_type = read_int("/sys/bus/event_source/devices/kprobe/type");
	uprobe_type = read_int("/sys/bus/event_source/devices/uprobe/type");
	if (lockdown) {
		mount("securityfs", "/sys/kernel/security", "securityfs", 0,
		      NULL);
		lockdown_level("integrity");
		lockdown_level("confidentiality");
		return 0;
	}
	if (try_write("kprobe_events", "p:kprobes/kpperm vfs_read\n")) {
		perror("kpperm: set-up");
		return 2;
	}
	event_id = read_int(T EV "id");
	as_nobody("nobody", 0, nobody_all);
	as_nobody("perfmon", 1, nobody_all);
	root_checks();
	delegate_checks();
	try_write("kprobe_events", "-:kprobes/kpperm\n");
	return 0;
}
