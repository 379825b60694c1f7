// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs_client: drive kprobe events through libtracefs/libtraceevent.
 *
 * Creates kprobes/tfsprobe (do_sys_openat2 dfd=$arg1
 * path=+0($arg2):ustring) and kprobes/tfsretprobe (do_sys_openat2%return
 * $retval), prints the fields libtraceevent parsed from their format
 * files, enables tfsprobe, opens /etc/passwd, decodes the raw ring
 * buffer records, provokes a parse error and reads the last error_log
 * record back, then destroys every kprobe event.  Each step prints one
 * line; the guest script asserts on them.  Exits non-zero on the first
 * library call that fails.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event-parse.h>
#include <tracefs.h>

static int records, matches;

static void show_field(struct tep_event *ev, const char *name)
{
	struct tep_format_field *f = tep_find_any_field(ev, name);

	if (!f) {
		printf("field %s/%s: missing\n", ev->name, name);
		return;
	}
	printf("field %s/%s: type '%s' offset %d size %d%s%s%s\n", ev->name,
	       name, f->type, f->offset, f->size,
	       f->flags & TEP_FIELD_IS_SIGNED ? " signed" : "",
	       f->flags & TEP_FIELD_IS_DYNAMIC ? " dynamic" : "",
	       f->flags & TEP_FIELD_IS_STRING ? " string" : "");
}

static int on_record(struct tep_event *ev, struct tep_record *rec, int cpu,
		     void *ctx)
{
	struct tep_event *want = ctx;
	unsigned long long dfd = 0;
	const char *path;
	int len = 0;

	if (ev->id != want->id)
		return 0;
	records++;
	tep_get_field_val(NULL, ev, "dfd", rec, &dfd, 0);
	path = tep_get_field_raw(NULL, ev, "path", rec, &len, 0);
	if (records <= 5 || (path && !strcmp(path, "/etc/passwd")))
		printf("record cpu%d: dfd=0x%llx path=\"%.*s\"\n", cpu, dfd,
		       path ? len : 0, path ? path : "");
	if (path && !strncmp(path, "/etc/passwd", len))
		matches++;
	return 0;
}

static void dump_errors(void)
{
	char *e = tracefs_error_all(NULL);

	printf("error_log:\n%s\n", e ? e : "(empty)");
	free(e);
}

#define CHECK(cond, what) do { if (!(cond)) { \
	printf("FAILED: %s\n", what); dump_errors(); return 1; } \
	printf("ok: %s\n", what); } while (0)

int main(void)
{
	struct tracefs_dynevent *kp, *krp;
	struct tep_event *ev, *rev;
	struct tep_handle *tep;
	char *err;
	int fd, ret;

	kp = tracefs_kprobe_alloc("kprobes", "tfsprobe", "do_sys_openat2",
				  "dfd=$arg1 path=+0($arg2):ustring");
	CHECK(kp, "tracefs_kprobe_alloc");
	CHECK(tracefs_dynevent_create(kp) == 0, "create kprobes/tfsprobe");
	krp = tracefs_kretprobe_alloc("kprobes", "tfsretprobe",
				      "do_sys_openat2", "ret=$retval", 0);
	CHECK(krp, "tracefs_kretprobe_alloc");
	CHECK(tracefs_dynevent_create(krp) == 0,
	      "create kprobes/tfsretprobe");

	tep = tracefs_local_events(NULL);
	CHECK(tep, "tracefs_local_events");
	ev = tracefs_dynevent_get_event(tep, kp);
	CHECK(ev, "format of kprobes/tfsprobe parsed");
	rev = tracefs_dynevent_get_event(tep, krp);
	CHECK(rev, "format of kprobes/tfsretprobe parsed");
	show_field(ev, "__probe_ip");
	show_field(ev, "dfd");
	show_field(ev, "path");
	show_field(rev, "__probe_func");
	show_field(rev, "__probe_ret_ip");
	show_field(rev, "ret");
	printf("print_fmt %s: %s\n", ev->name, ev->print_fmt.format);

	tracefs_instance_file_write(NULL, "trace", "");
	CHECK(tracefs_trace_on(NULL) == 0,  "tracing on");
	CHECK(tracefs_event_enable(NULL, "kprobes", "tfsprobe") == 0,
	      "enable kprobes/tfsprobe");
	fd = open("/etc/passwd", O_RDONLY);
	if (fd >= 0)
		close(fd);
	CHECK(tracefs_event_disable(NULL, "kprobes", "tfsprobe") == 0,
	      "disable kprobes/tfsprobe");
	ret = tracefs_iterate_raw_events(tep, NULL, NULL, 0, on_record, ev);
	printf("decoded %d records, %d with path /etc/passwd (rc %d)\n",
	       records, matches, ret);

	tracefs_error_clear(NULL);
	ret = tracefs_kprobe_raw("kprobes", "tfsbad", "no_such_fn_xyz", NULL);
	printf("tracefs_kprobe_raw(no_such_fn_xyz) = %d\n", ret);
	err = tracefs_error_last(NULL);
	printf("error_last: %s\n", err ? err : "(null)");
	free(err);

	ret = tracefs_dynevent_destroy_all(TRACEFS_DYNEVENT_KPROBE |
					   TRACEFS_DYNEVENT_KRETPROBE, true);
	printf("destroy_all = %d\n", ret);
	tracefs_dynevent_free(kp);
	tracefs_dynevent_free(krp);
	tep_free(tep);
	return 0;
}
