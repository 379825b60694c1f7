# SPDX-License-Identifier: GPL-2.0
# perf record (alone and beside the trace buffer) and trace-cmd record on
# a wprobe event ("w" in dynamic_events): a hardware watchpoint seen as a
# tracepoint event.
. /kpt/clients/lib.sh
need perf trace-cmd
grep -q 'w\[:\[<group>/\]\[<event>\]\]' $T/README || skip "no wprobe events"

PANIC=/proc/sys/kernel/panic
OLD=$(cat $PANIC)
echo 'w:wprobes/cpt w@panic_timeout:4 val=+0($addr):s32' >> $T/dynamic_events ||
	fail "cannot add wprobes/cpt"

# the record holds the value a write leaves, on x86 and arm64
V1=321 V2=654
run perf record -e wprobes:cpt -a -o /tmp/w.data -- sh -c "echo 321 > $PANIC"
rc_is 0
run perf script -i /tmp/w.data
rc_is 0
has "^ +sh +[0-9]+ .* wprobes:cpt: \\(ffff[0-9a-f]+\\) val=$V1\$"

# beside tracing: the event enabled in the trace buffer too, one write
# is seen by both
echo 1 > $T/events/wprobes/cpt/enable || fail "cannot enable wprobes/cpt"
echo > $T/trace
run perf record -e wprobes:cpt -a -o /tmp/w2.data -- sh -c "echo 432 > $PANIC"
rc_is 0
run perf script -i /tmp/w2.data
rc_is 0
has "^ +sh +[0-9]+ .* wprobes:cpt: \\(ffff[0-9a-f]+\\) val=432\$"
grep -q 'cpt: (.*) val=432$' $T/trace || fail "not in the trace buffer beside perf"
echo 0 > $T/events/wprobes/cpt/enable
ok "perf beside the trace buffer"

cd /tmp
# the sleep: a record can lose a short command's events (12-whole-struct)
run trace-cmd record -e wprobes:cpt -o /tmp/w.dat sh -c "echo 654 > $PANIC; sleep 1"
rc_is 0
run trace-cmd report -i /tmp/w.dat
rc_is 0
has "cpt: +\\(ffff[0-9a-f]+\\) val=$V2\$"

echo "$OLD" > $PANIC
echo '-:wprobes/cpt' >> $T/dynamic_events || fail "cannot delete wprobes/cpt"
grep -q '^w:' $T/dynamic_events && fail "wprobes left in dynamic_events"
assert_clean
