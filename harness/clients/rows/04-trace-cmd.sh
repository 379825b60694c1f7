# SPDX-License-Identifier: GPL-2.0
# trace-cmd on a kprobe event: stat, list -e, record, report,
# check-events, reset.
. /kpt/clients/lib.sh
need trace-cmd

echo 'p:kprobes/tcprobe do_sys_openat2 dfd=$arg1 path=+0($arg2):ustring' >> $T/kprobe_events ||
	fail "cannot add kprobes/tcprobe"
run trace-cmd stat
rc_is 0
has 'tcprobe'
has 'p:kprobes/tcprobe do_sys_openat2 dfd=\$arg1 path=\+0\(\$arg2\):ustring'

run trace-cmd list -e 'kprobes:.*'
rc_is 0
has '^kprobes:tcprobe$'

cd /tmp
run trace-cmd record -e kprobes:tcprobe -o /tmp/t.dat sh -c 'cat /etc/passwd; sleep 1'
rc_is 0
run trace-cmd report -i /tmp/t.dat
rc_is 0
# Decoded with the format's print fmt "(%lx) dfd=0x%Lx path=\"%s\"".
has 'tcprobe: +\(ffff[0-9a-f]+\) dfd=0x[0-9a-f]+ path="/etc/passwd"'

run trace-cmd check-events
rc_is 0

run trace-cmd reset
rc_is 0
# reset removes the kprobe events too.
assert_clean
