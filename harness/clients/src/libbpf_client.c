// SPDX-License-Identifier: GPL-2.0
/*
 * libbpf_client: attach kprobe_counter.bpf.o's kprobe and kretprobe on
 * vfs_read with libbpf's auto-attach (the perf kprobe PMU if
 * /sys/bus/event_source/devices/kprobe/type exists, else the legacy
 * kprobe_events path), run CMD while attached, read a few files, and
 * print the counters:
 *
 *   libbpf_client OBJ [CMD]
 *
 *   kprobe_events while attached:
 *   <its content>
 *   hits=<entries> rhits=<returns> count64=<entries whose count was 64>
 *   kprobe_events after detach: <N> bytes
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KPROBE_EVENTS "/sys/kernel/tracing/kprobe_events"

static int print_fn(enum libbpf_print_level level, const char *fmt,
		    va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static long cat(const char *path)
{
	char buf[4096];
	long total = 0, n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		fwrite(buf, 1, n, stdout);
		total += n;
	}
	close(fd);
	fflush(stdout);
	return total;
}

int main(int argc, char **argv)
{
	struct bpf_link *links[8];
	struct bpf_program *prog;
	struct bpf_object *obj;
	unsigned long long v[3] = { 0, 0, 0 };
	int nlinks = 0, map_fd, i;
	char buf[64];

	if (argc < 2) {
		fprintf(stderr, "usage: libbpf_client OBJ [CMD]\n");
		return 2;
	}
	libbpf_set_print(print_fn);
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj || libbpf_get_error(obj)) {
		fprintf(stderr, "open %s failed\n", argv[1]);
		return 1;
	}
	if (bpf_object__load(obj)) {
		fprintf(stderr, "load failed\n");
		return 1;
	}
	bpf_object__for_each_program(prog, obj) {
		struct bpf_link *l = bpf_program__attach(prog);

		if (!l || libbpf_get_error(l)) {
			fprintf(stderr, "attach %s failed\n",
				bpf_program__name(prog));
			return 1;
		}
		printf("attached %s (%s)\n", bpf_program__name(prog),
		       bpf_program__section_name(prog));
		links[nlinks++] = l;
	}
	printf("kprobe_events while attached:\n");
	cat(KPROBE_EVENTS);
	printf("(end)\n");
	fflush(stdout);
	if (argc > 2 && system(argv[2]) != 0)
		printf("command failed: %s\n", argv[2]);
	for (i = 0; i < 16; i++) {
		int f = open("/proc/self/stat", O_RDONLY);

		if (f >= 0) {
			if (read(f, buf, sizeof(buf)) < 0)
				perror("read");
			close(f);
		}
	}
	map_fd = bpf_object__find_map_fd_by_name(obj, "counts");
	for (i = 0; i < 3; i++) {
		__u32 key = i;

		if (bpf_map_lookup_elem(map_fd, &key, &v[i]))
			perror("bpf_map_lookup_elem");
	}
	printf("hits=%llu rhits=%llu count64=%llu\n", v[0], v[1], v[2]);
	for (i = 0; i < nlinks; i++)
		bpf_link__destroy(links[i]);
	bpf_object__close(obj);
	printf("kprobe_events after detach: ");
	fflush(stdout);
	{
		long n = 0;
		int fd = open(KPROBE_EVENTS, O_RDONLY);
		char b[4096];
		long r;

		while (fd >= 0 && (r = read(fd, b, sizeof(b))) > 0)
			n += r;
		if (fd >= 0)
			close(fd);
		printf("%ld bytes\n", n);
	}
	return 0;
}
