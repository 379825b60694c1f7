# SPDX-License-Identifier: GPL-2.0
# libbpf with the kprobe PMU hidden (bind mount over /sys/devices/kprobe)
# falls back to kprobe_events: its libbpf_<pid>_vfs_read_0x0_<n> events
# are listed while attached and gone afterwards.
. /kpt/clients/lib.sh
need $B/libbpf_client bpftool
mkdir -p /tmp/nopmu
mount --bind /tmp/nopmu /sys/devices/kprobe || fail "bind mount failed"
[ ! -e /sys/bus/event_source/devices/kprobe/type ] || fail "PMU still visible"
ok "kprobe PMU hidden"

run $B/libbpf_client $B/kprobe_counter.bpf.o \
	"bpftool perf show > /tmp/row.bpftool 2>&1; cat /etc/passwd > /dev/null"
umount /sys/devices/kprobe
rc_is 0
has '^p:kprobes/libbpf_[0-9]+_vfs_read_0x0_[0-9]+ vfs_read$'
has '^r[0-9]*:kretprobes/libbpf_[0-9]+_vfs_read_0x0_[0-9]+ vfs_read$'
# the client reads with a count of 64 sixteen times: the program must
# have read that third argument at least that often
has '^hits=[1-9][0-9]* rhits=[1-9][0-9]* count64=(1[6-9]|[2-9][0-9]|[0-9]{3,})$'
has '^kprobe_events after detach: 0 bytes$'
echo "+ bpftool perf show (while attached)"
cat /tmp/row.bpftool
has '[^t]kprobe +func vfs_read +offset 0$' /tmp/row.bpftool
has 'kretprobe +func vfs_read +offset 0$' /tmp/row.bpftool

assert_clean
