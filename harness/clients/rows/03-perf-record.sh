# SPDX-License-Identifier: GPL-2.0
# perf record / script / stat on probe events made by perf probe.
. /kpt/clients/lib.sh
need perf

run perf probe -a 'myopen=do_sys_openat2 dfd=$arg1 path=+0($arg2):ustring'
rc_is 0
run perf probe -a vfs_read
rc_is 0
run perf probe -a 'vfs_read%return $retval'
rc_is 0

run perf record -e probe:myopen -a -o /tmp/p.data -- cat /etc/passwd
rc_is 0
run perf script -i /tmp/p.data
rc_is 0
has '^ +cat +[0-9]+ .* probe:myopen: \(ffff[0-9a-f]+\) dfd=0x[0-9a-f]+ path="/etc/passwd"'

# busybox cat copies with sendfile(): dd calls read().
run perf record -e probe:vfs_read__return -a -o /tmp/r.data -- dd if=/etc/passwd of=/dev/null bs=16
rc_is 0
run perf script -i /tmp/r.data
rc_is 0
has '^ +dd +[0-9]+ .* probe:vfs_read__return: \(ffff[0-9a-f]+ <- ffff[0-9a-f]+\) arg1=0x10$'

run perf stat -e probe:vfs_read -e probe:myopen -a -- dd if=/etc/passwd of=/dev/null bs=16
rc_is 0
n=$(awk '$2 == "probe:vfs_read" { gsub(",", "", $1); print $1 }' $OUT)
positive "perf stat probe:vfs_read" "$n"
n=$(awk '$2 == "probe:myopen" { gsub(",", "", $1); print $1 }' $OUT)
positive "perf stat probe:myopen" "$n"

run perf probe -d 'probe:*'
rc_is 0
assert_clean
