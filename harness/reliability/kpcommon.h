/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kpcommon.h: what the guest programs of make check-debug share (kpfuzz,
 * kpstress): a seeded PRNG, a monotonic clock, errno names,
 * reading a file, options.
 * Static functions in a header: each program is one file built alone.
 */
#ifndef KPCOMMON_H
#define KPCOMMON_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#ifndef ENOTSUPP
#define ENOTSUPP 524	/* the kernel's, not in the libc headers */
#endif

/* xorshift64 state: seed it non-zero */
static uint64_t rs;

static uint64_t rnd(void)
{
	uint64_t x = rs;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rs = x;
}

static unsigned int rn(unsigned int n)
{
	return n ? (unsigned int)(rnd() % n) : 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *ename(int e)
{
	static char s[16];
	static const struct { int e; const char *n; } t[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EIO, "EIO" },
		{ E2BIG, "E2BIG" }, { ENOMEM, "ENOMEM" }, { EFAULT, "EFAULT" },
		{ EBUSY, "EBUSY" }, { EEXIST, "EEXIST" }, { ENODEV, "ENODEV" },
		{ EINVAL, "EINVAL" }, { ENOSPC, "ENOSPC" },
		{ ERANGE, "ERANGE" }, { EOPNOTSUPP, "EOPNOTSUPP" },
		{ EADDRNOTAVAIL, "EADDRNOTAVAIL" }, { EILSEQ, "EILSEQ" },
		{ ENOTSUPP, "ENOTSUPP" }, { EAGAIN, "EAGAIN" },
		{ ESRCH, "ESRCH" }, { ENOEXEC, "ENOEXEC" },
		{ EACCES, "EACCES" },
		{ ENOTEMPTY, "ENOTEMPTY" }, { EINTR, "EINTR" },
		{ ENOSYS, "ENOSYS" }, { ENOTDIR, "ENOTDIR" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		if (t[i].e == e)
			return t[i].n;
	snprintf(s, sizeof(s), "E%d", e);
	return s;
}

/* A file's text, NUL-terminated; its length, or -errno */
static ssize_t slurp(const char *path, char *buf, size_t size)
{
	ssize_t n, len = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	while ((size_t)len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			len = -errno;
			break;
		}
		if (n == 0)
			break;
		len += n;
	}
	if (len >= 0)
		buf[len] = '\0';
	close(fd);
	return len;
}

/* The options both test programs take: -n COUNT -t SECONDS -s SEED -v */
struct kp_opts {
	unsigned long count, secs, seed;
	int verbose;
};

/* Parse into @o, which holds the defaults; an unknown option: usage() */
static void kp_options(int argc, char **argv, struct kp_opts *o,
		       void (*usage)(void))
{
	int c;

	while ((c = getopt(argc, argv, "n:t:s:v")) != -1) {
		switch (c) {
		case 'n':
			o->count = strtoul(optarg, NULL, 0);
			break;
		case 't':
			o->secs = strtoul(optarg, NULL, 0);
			break;
		case 's':
			o->seed = strtoul(optarg, NULL, 0);
			break;
		case 'v':
			o->verbose++;
			break;
		default:
			usage();
		}
	}
}

/* perf attributes for sampling every hit of the tracepoint with id @id */
static void kp_tracepoint_attr(struct perf_event_attr *attr, const char *id)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->size = sizeof(*attr);
	attr->config = strtoull(id, NULL, 10);
	attr->sample_period = 1;
	attr->sample_type = PERF_SAMPLE_RAW;
}

#endif /* KPCOMMON_H */
