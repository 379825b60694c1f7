# SPDX-License-Identifier: GPL-2.0
# perf probe: add by symbol, with $argN and a ustring, a %return probe;
# list them (-l), dry-run (-D) and delete (-d).
. /kpt/clients/lib.sh
need perf

run perf probe -a vfs_read
rc_is 0
has 'Added new event:'
has 'probe:vfs_read +\(on vfs_read\)'

run perf probe -a 'myopen=do_sys_openat2 dfd=$arg1 path=+0($arg2):ustring'
rc_is 0
has 'probe:myopen +\(on do_sys_openat2 with dfd=\$arg1 path=\+0\(\$arg2\):ustring\)'

run perf probe -a 'vfs_read%return $retval'
rc_is 0
has 'probe:vfs_read__return +\(on vfs_read%return with \$retval\)'

run cat $T/kprobe_events
has '^p:probe/vfs_read _text\+[0-9]+$'
has '^p:probe/myopen _text\+[0-9]+ dfd=\$arg1 path=\+0\(\$arg2\):ustring$'
has '^r[0-9]*:probe/vfs_read__return _text\+[0-9]+ arg1=\$retval$'
# definitions only: a DUMP=1 kernel follows each with comment lines
[ "$(grep -vc '^#' $OUT)" = 3 ] ||
	fail "kprobe_events has $(grep -vc '^#' $OUT) definitions, not 3"

run perf probe -l
rc_is 0
has 'probe:vfs_read +\(on vfs_read'
has 'probe:myopen +\(on do_sys_openat2 with dfd path\)'
has 'probe:vfs_read__return +\(on vfs_read%return with arg1\)'

run perf probe -D do_sys_openat2
rc_is 0
has '^p:probe/do_sys_openat2 _text\+[0-9]+$'
run cat $T/kprobe_events
hasnt 'probe/do_sys_openat2 '

run perf probe -d 'probe:*'
rc_is 0
has 'Removed event: probe:vfs_read$'
has 'Removed event: probe:myopen'
has 'Removed event: probe:vfs_read__return'
run perf probe -l
hasnt 'probe:'

assert_clean
