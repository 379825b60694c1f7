// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_kprobe: a raw client of the perf kprobe PMU (no library).
 *
 *   pmu_kprobe FUNC [OFFSET] [-r]
 *
 * Opens a kprobe (or, with -r, a kretprobe) on FUNC+OFFSET through
 * perf_event_open() with the dynamic PMU type from
 * /sys/bus/event_source/devices/kprobe/type, counts the hits of 16
 * read() calls of this task, and prints:
 *
 *   kprobe_events while open: <N> bytes
 *   count=<hits>
 *
 * or, when perf_event_open() fails, "errno=<NAME>" and exits 1.  The
 * guest script asserts on these lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case EILSEQ: return "EILSEQ";
	case ENOENT: return "ENOENT";
	case EINVAL: return "EINVAL";
	case EBUSY: return "EBUSY";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case E2BIG: return "E2BIG";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENODEV: return "ENODEV";
	default: return "other";
	}
}

static long read_long(const char *path)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0) {
		fprintf(stderr, "cannot read %s: %s\n", path, strerror(errno));
		exit(2);
	}
	close(fd);
	return strtol(buf, NULL, 10);
}

/* "config:0" -> 0: the bit that selects a return probe. */
static int retprobe_bit(void)
{
	char buf[64] = "";
	int fd = open("/sys/bus/event_source/devices/kprobe/format/retprobe",
		      O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0 ||
	    strncmp(buf, "config:", 7)) {
		fprintf(stderr, "bad format/retprobe: '%s'\n", buf);
		exit(2);
	}
	close(fd);
	return atoi(buf + 7);
}

static long file_size(const char *path)
{
	char buf[4096];
	long total = 0, n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	close(fd);
	return total;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	unsigned long long offset = 0;
	int retprobe = 0, i, fd;
	const char *func = NULL;
	uint64_t count = 0;
	char buf[64];

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-r"))
			retprobe = 1;
		else if (!func)
			func = argv[i];
		else
			offset = strtoull(argv[i], NULL, 0);
	}
	if (!func) {
		fprintf(stderr, "usage: pmu_kprobe FUNC [OFFSET] [-r]\n");
		return 2;
	}

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = read_long("/sys/bus/event_source/devices/kprobe/type");
	if (retprobe)
		attr.config |= 1ULL << retprobe_bit();
	attr.kprobe_func = (uint64_t)(uintptr_t)func;
	attr.probe_offset = offset;
	attr.disabled = 1;
	attr.exclude_hv = 1;

	/* This task, any CPU: the read() calls below are ours. */
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		int e = errno;

		printf("perf_event_open(%s+%llu%s): errno=%s (%s)\n", func,
		       offset, retprobe ? ", retprobe" : "", errname(e),
		       strerror(e));
		return 1;
	}
	printf("kprobe_events while open: %ld bytes\n",
	       file_size("/sys/kernel/tracing/kprobe_events"));
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 16; i++) {
		int f = open("/proc/self/stat", O_RDONLY);

		if (f >= 0) {
			if (read(f, buf, sizeof(buf)) < 0)
				perror("read");
			close(f);
		}
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &count, sizeof(count)) != sizeof(count)) {
		perror("read count");
		return 2;
	}
	close(fd);
	printf("count=%llu\n", (unsigned long long)count);
	return 0;
}
