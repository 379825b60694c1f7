# SPDX-License-Identifier: GPL-2.0
# A libtracefs/libtraceevent program: create, parse format, decode
# records, read the last error_log record, destroy all.
. /kpt/clients/lib.sh
need $B/tracefs_client

run $B/tracefs_client
rc_is 0
has '^ok: create kprobes/tfsprobe$'
has '^ok: create kprobes/tfsretprobe$'
has "^field tfsprobe/__probe_ip: type 'unsigned long' offset [0-9]+ size 8"
has "^field tfsprobe/dfd: type 'u64' offset [0-9]+ size 8$"
has "^field tfsprobe/path: type '__data_loc char\[\]' offset [0-9]+ size 4 (signed )?dynamic string$"
has "^field tfsretprobe/__probe_func: type 'unsigned long' offset [0-9]+ size 8"
has "^field tfsretprobe/__probe_ret_ip: type 'unsigned long' offset [0-9]+ size 8"
# $retval takes do_sys_openat2's BTF return type, long.
has "^field tfsretprobe/ret: type 's64' offset [0-9]+ size 8 signed$"
has '^record cpu[0-9]+: dfd=0x[0-9a-f]+ path="/etc/passwd"$'
n=$(sed -n 's/^decoded [0-9]* records, \([0-9]*\) with path.*/\1/p' $OUT)
positive "records with path /etc/passwd" "$n"
has '^tracefs_kprobe_raw\(no_such_fn_xyz\) = -1$'
has '^error_last: .*trace_kprobe: error: '
has 'Command: p:kprobes/tfsbad no_such_fn_xyz'
has '^destroy_all = 0$'

assert_clean
