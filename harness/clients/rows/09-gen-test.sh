# SPDX-License-Identifier: GPL-2.0
# The in-kernel generation API (kprobe_event_gen_test.ko): its events
# appear, fire, and are gone after rmmod.
. /kpt/clients/lib.sh
ko=$(find /lib/modules -name kprobe_event_gen_test.ko | head -n1)
[ -n "$ko" ] || skip "kprobe_event_gen_test.ko not built"
echo > $T/trace

run insmod $ko
rc_is 0
run cat $T/kprobe_events
has '^p:kprobes/gen_kprobe_test do_sys_open '
has '^r[0-9]*:kprobes/gen_kretprobe_test do_sys_open '
[ -d $T/events/kprobes/gen_kprobe_test ] || fail "no gen_kprobe_test dir"
[ -d $T/events/kprobes/gen_kretprobe_test ] || fail "no gen_kretprobe_test dir"
ok "event directories exist"
run cat $T/events/kprobes/gen_kprobe_test/enable $T/events/kprobes/gen_kretprobe_test/enable
has '^1$'
# Armed: both kprobes are registered on do_sys_open's entry (+0x0, or
# arm64's ftrace call site a few bytes in).
run grep -E ' do_sys_open\+0x[0-9a-f]+ ' /sys/kernel/debug/kprobes/list
has '^[0-9a-f]+ +k +do_sys_open\+0x[0-9a-f]+ '
has '^[0-9a-f]+ +r +do_sys_open\+0x[0-9a-f]+ '
# Fire: in this config gcc inlines do_sys_open() into the open
# syscalls (vmlinux has no call to it), so opens cannot hit it on
# either kernel; the hit counts are printed, not asserted.
poke
run grep gen_k $T/kprobe_profile

run rmmod kprobe_event_gen_test
rc_is 0
[ ! -e $T/events/kprobes/gen_kprobe_test ] || fail "gen_kprobe_test left"
[ ! -e $T/events/kprobes/gen_kretprobe_test ] || fail "gen_kretprobe_test left"
ok "event directories gone"
run cat /sys/kernel/debug/kprobes/list
hasnt ' do_sys_open\+0x[0-9a-f]+ '
assert_clean
