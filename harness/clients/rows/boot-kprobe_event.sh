# SPDX-License-Identifier: GPL-2.0
# Booted with kprobe_event=p:kprobes/bootprobe,vfs_read,count=$arg3
# (probetest clients boots this row several times): the event is listed,
# its directory exists and is enabled, it fires, -: gives EBUSY until
# it is disabled.
. /kpt/clients/lib.sh
run cat /proc/cmdline
has 'kprobe_event=p:kprobes/bootprobe,vfs_read,count=\$arg3'
run cat $T/kprobe_events
has '^p:kprobes/bootprobe vfs_read count=\$arg3$'
[ -d $T/events/kprobes/bootprobe ] || fail "events/kprobes/bootprobe missing"
ok "events/kprobes/bootprobe exists"
run cat $T/events/kprobes/bootprobe/enable
has '^1$'
poke
# Stop recording before reading trace: each read() of it hits vfs_read.
echo 0 > $T/tracing_on
# at the entry: +0x0, or arm64's ftrace call site a few bytes in
run grep -c 'bootprobe: (vfs_read+0x[0-9a-f]*/0x[0-9a-f]*) count=0x' $T/trace
echo 1 > $T/tracing_on
positive "bootprobe trace lines" "$(cat $OUT)"
run sh -c "echo '-:kprobes/bootprobe' >> $T/kprobe_events"
rc_not 0 "deleting an enabled event"
has 'Device or resource busy'
echo 0 > $T/events/kprobes/bootprobe/enable
run sh -c "echo '-:kprobes/bootprobe' >> $T/kprobe_events"
rc_is 0
assert_clean
