# SPDX-License-Identifier: GPL-2.0
# Raw perf_event_open() client of the kprobe PMU: a probe and a
# retprobe count hits, a mid-instruction offset gives EILSEQ (x86), a missing
# symbol ENOENT, and nothing shows up in kprobe_events.
. /kpt/clients/lib.sh
P=$B/pmu_kprobe
need $P
[ -d /sys/bus/event_source/devices/kprobe ] || fail "no kprobe PMU in sysfs"
run cat /sys/bus/event_source/devices/kprobe/type
has '^[0-9]+$'
run cat /sys/bus/event_source/devices/kprobe/format/retprobe
has '^config:0$'

run $P vfs_read
rc_is 0
has '^kprobe_events while open: 0 bytes$'
positive "vfs_read count" "$(sed -n 's/^count=//p' $OUT)"

run $P vfs_read -r
rc_is 0
has '^kprobe_events while open: 0 bytes$'
positive "vfs_read%return count" "$(sed -n 's/^count=//p' $OUT)"

# x86: +1 is inside vfs_read's first instruction.  arm64: instructions
# are 4-byte aligned, and arch_prepare_kprobe() refuses a misaligned
# address with EINVAL.
case $(uname -m) in
aarch64) bad=EINVAL ;;
*) bad=EILSEQ ;;
esac
run $P vfs_read 1
rc_is 1
has "errno=$bad"

run $P no_such_fn_xyz
rc_is 1
has 'errno=ENOENT'

run $P no_such_fn_xyz -r
rc_is 1
has 'errno=ENOENT'

assert_clean
