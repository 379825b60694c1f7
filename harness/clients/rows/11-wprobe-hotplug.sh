# SPDX-License-Identifier: GPL-2.0
# A CPU that comes online with no free watchpoint slot, made by perf:
# per-CPU perf breakpoints hold every slot of CPU 1 and keep them while
# it is offline; an enabled wprobe then has CPU 0's slot only.  CPU 1
# comes up unwatched and the log says so; once perf lets go, enabling
# the wprobe again watches CPU 1 too.
. /kpt/clients/lib.sh
need perf taskset
grep -q 'w\[:\[<group>/\]\[<event>\]\]' $T/README || skip "no wprobe events"
CPU1=/sys/devices/system/cpu/cpu1/online
[ -w $CPU1 ] || skip "CPU 1 can not go offline"

PANIC=/proc/sys/kernel/panic
OLD=$(cat $PANIC)
sym() { grep -w "$1" /proc/kallsyms | head -1 | cut -d' ' -f1; }
# the watchpoint slots of a CPU: arm64 says at boot, x86 has four
N=$(dmesg | sed -n 's/.* breakpoint and \([0-9]*\) watchpoint registers.*/\1/p')
N=${N:-4}
EV=
for s in panic_on_oops panic_on_warn panic_print sysctl_oops_all_cpu_backtrace \
	 pause_on_oops oops_limit warn_limit; do
	a=$(sym $s)
	[ -n "$a" ] && [ $N -gt 0 ] && EV="$EV -e mem:0x$a:w" && N=$((N - 1))
done
[ $N = 0 ] || fail "not enough symbols to watch for every slot"
echo 'w:wprobes/hp w@panic_timeout:4 val=+0($addr):s32' >> $T/dynamic_events ||
	fail "cannot add wprobes/hp"

echo "+ perf stat -C 1$EV -- sleep 120 &"
perf stat -C 1 $EV -- sleep 120 > /tmp/hp-perf.txt 2>&1 &
PERF=$!
sleep 3
kill -0 $PERF 2>/dev/null || { cat /tmp/hp-perf.txt; fail "perf stat did not start"; }
# CPU 1 is full: the wprobe can not be enabled while it is online
echo 1 > $T/events/wprobes/hp/enable 2>/dev/null &&
	fail "enabled a wprobe on a CPU with no free slot"
ok "refused while CPU 1 is full"

echo 0 > $CPU1 || fail "CPU 1 did not go offline"
echo 1 > $T/events/wprobes/hp/enable || fail "cannot enable wprobes/hp with CPU 1 offline"
dmesg -c > /dev/null
echo 1 > $CPU1 || fail "CPU 1 did not come back online"
ok "CPU 1 came back online"
run dmesg
has "trace_wprobe: hp: CPU 1 has no free watchpoint slot"

echo > $T/trace
taskset 1 sh -c "echo 111 > $PANIC"
taskset 2 sh -c "echo 222 > $PANIC"
run cat $T/trace
has "\\[000\\] .* hp: \\(.*\\) val=111\$"
hasnt "val=222"

kill $PERF
wait $PERF 2>/dev/null
echo 0 > $T/events/wprobes/hp/enable
echo 1 > $T/events/wprobes/hp/enable || fail "cannot enable wprobes/hp again"
echo > $T/trace
taskset 2 sh -c "echo 333 > $PANIC"
run cat $T/trace
has "\\[001\\] .* hp: \\(.*\\) val=333\$"

echo 0 > $T/events/wprobes/hp/enable
echo "$OLD" > $PANIC
echo '-:wprobes/hp' >> $T/dynamic_events || fail "cannot delete wprobes/hp"
assert_clean
