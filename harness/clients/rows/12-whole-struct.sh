# SPDX-License-Identifier: GPL-2.0
# trace-cmd and perf on a kprobe event that records a structure whole
# ("*VALUE"): the format describes it as u8 NAME[] bytes printed with
# __print_hex_str(), so tools without BTF show its bytes in hex, and the
# kernel's own trace prints it member by member.
. /kpt/clients/lib.sh
need trace-cmd perf

echo 'p:kprobes/tcwhole vfs_read path=*file->f_path n=count:u64' >> $T/kprobe_events ||
	skip "no whole structures"

cd /tmp
echo hello > /tmp/kpt-whole
# A trace-cmd record of a bare dd loses all of dd's events now and then,
# on 6.12 as with our tracer, on sched_process_exec as on a kprobe event
# (4 of 240 runs on 6.12, 0 of 240 on ours in the same boot pair; 3 of
# about 150 on ours before); with a sleep after the command, 0 of 80.
run trace-cmd record -e kprobes:tcwhole -o /tmp/w.dat \
	sh -c 'dd if=/tmp/kpt-whole of=/dev/null bs=64 count=1; sleep 1'
rc_is 0
run trace-cmd report -i /tmp/w.dat
rc_is 0
# struct path is two pointers: 16 bytes, 32 hex digits
has 'tcwhole: +\(ffff[0-9a-f]+\) path=[0-9a-f]{32} n=64'

run perf record -e kprobes:tcwhole -a -o /tmp/w.data -- dd if=/tmp/kpt-whole of=/dev/null bs=64 count=1
rc_is 0
run perf script -i /tmp/w.data
rc_is 0
has 'kprobes:tcwhole: +\(ffff[0-9a-f]+\) path=[0-9a-f]{32} n=64'

# the trace itself, by BTF
echo 1 > $T/events/kprobes/tcwhole/enable
dd if=/tmp/kpt-whole of=/dev/null bs=64 count=1 2>/dev/null
echo 0 > $T/events/kprobes/tcwhole/enable
grep -Eq 'tcwhole: .* path=\{mnt=0x[0-9a-f]+,dentry=0x[0-9a-f]+\} n=64' $T/trace ||
	fail "trace: $(grep -m1 tcwhole $T/trace)"
ok "trace prints the structure by member"

run trace-cmd reset
rc_is 0
assert_clean
