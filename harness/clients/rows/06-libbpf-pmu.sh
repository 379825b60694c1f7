# SPDX-License-Identifier: GPL-2.0
# libbpf attaches a kprobe and a kretprobe on vfs_read through the perf
# kprobe PMU: nothing in kprobe_events, bpftool perf show names them,
# both counters move.
. /kpt/clients/lib.sh
need $B/libbpf_client bpftool
[ -f /sys/bus/event_source/devices/kprobe/type ] || fail "no kprobe PMU"

run $B/libbpf_client $B/kprobe_counter.bpf.o \
	"bpftool perf show > /tmp/row.bpftool 2>&1; cat /etc/passwd > /dev/null"
rc_is 0
has '^attached on_entry \(kprobe/vfs_read\)$'
has '^attached on_return \(kretprobe/vfs_read\)$'
sed -n '/^kprobe_events while attached:$/,/^(end)$/p' $OUT > /tmp/row.kev
[ "$(wc -l < /tmp/row.kev)" = 2 ] ||
	fail "kprobe_events not empty while attached: $(cat /tmp/row.kev)"
ok "kprobe_events empty while attached (PMU path)"
has '^hits=[1-9][0-9]* rhits=[1-9][0-9]*$'
has '^kprobe_events after detach: 0 bytes$'
echo "+ bpftool perf show (while attached)"
cat /tmp/row.bpftool
has '[^t]kprobe +func vfs_read +offset 0$' /tmp/row.bpftool
has 'kretprobe +func vfs_read +offset 0$' /tmp/row.bpftool

assert_clean
