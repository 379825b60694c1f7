# SPDX-License-Identifier: GPL-2.0
# libbpf attaches a kprobe and a kretprobe on vfs_read through the perf
# kprobe PMU: nothing in kprobe_events, bpftool perf show names them,
# both counters move.
. /kpt/clients/lib.sh
need $B/libbpf_client bpftool
[ -f /sys/bus/event_source/devices/kprobe/type ] || fail "no kprobe PMU"

run $B/libbpf_client $B/kprobe_counter.bpf.o \
	"bpftool perf show > /tmp/row.bpftool 2>&1; cat /etc/passwd > /dev/null;
	 cat /sys/kernel/debug/kprobes/list > /tmp/row.kplist 2>&1"
rc_is 0
has '^attached on_entry \(kprobe/vfs_read\)$'
has '^attached on_return \(kretprobe/vfs_read\)$'
sed -n '/^kprobe_events while attached:$/,/^(end)$/p' $OUT > /tmp/row.kev
[ "$(wc -l < /tmp/row.kev)" = 2 ] ||
	fail "kprobe_events not empty while attached: $(cat /tmp/row.kev)"
ok "kprobe_events empty while attached (PMU path)"
# the client reads with a count of 64 sixteen times: the program must
# have read that third argument at least that often
has '^hits=[1-9][0-9]* rhits=[1-9][0-9]* count64=(1[6-9]|[2-9][0-9]|[0-9]{3,})$'
has '^kprobe_events after detach: 0 bytes$'
echo "+ bpftool perf show (while attached)"
cat /tmp/row.bpftool
has '[^t]kprobe +func vfs_read +offset 0$' /tmp/row.bpftool
has 'kretprobe +func vfs_read +offset 0$' /tmp/row.bpftool
# Where the kprobes were while attached: on arm64, at vfs_read's ftrace
# call site when the kernel takes entry kprobes through ftrace, else on
# the BRK; the count64 above holds either way.
if [ -s /tmp/row.kplist ]; then
	cat /tmp/row.kplist
	if grep -Eq ' +k +vfs_read\+0x[0-9a-f]+ .*\[FTRACE\]' /tmp/row.kplist; then
		ok "the kprobe was taken through ftrace"
	else
		ok "the kprobe took a breakpoint"
	fi
fi

assert_clean
