# SPDX-License-Identifier: GPL-2.0
# perf-tools' kprobe-perf (bash): uses /sys/kernel/debug/tracing, adds
# an event without a group, removes it with -:name.
. /kpt/clients/lib.sh
need bash kprobe-perf
[ -f /sys/kernel/debug/tracing/kprobe_events ] ||
	fail "/sys/kernel/debug/tracing/kprobe_events missing"
mkdir -p /var/tmp

# Open /etc/passwd all along: kprobe-perf takes a while to start.
(while :; do cat /etc/passwd > /dev/null; sleep 0.2; done) &
pk=$!
run kprobe-perf -d 3 'p:myopen do_sys_openat2 path=+0($arg2):ustring'
kill $pk
rc_is 0
has 'Tracing kprobe myopen for 3 seconds \(buffered\)'
# at the entry: +0x0, or arm64's ftrace call site a few bytes in
has ' myopen: \(do_sys_openat2\+0x[0-9a-f]+/0x[0-9a-f]+\) path="/etc/passwd"'
assert_empty

# -v prints the format and leaves through edie(), exit 1 by design.
run kprobe-perf -v 'r:do_sys_openat2 ret=$retval'
rc_is 1
has 'field:unsigned long __probe_func;'
has 'field:unsigned long __probe_ret_ip;'
has 'field:s64 ret;'
has '^print fmt: "\(%lx <- %lx\) ret=%Ld", REC->__probe_func, REC->__probe_ret_ip, REC->ret$'

assert_clean
