#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Where the instructions of one probe hit go, by function (hitprof.py).
#
#   harness/bench/hitprof.sh ARCH KERNEL 'DEFINITION' ['FILTER']
#   harness/bench/hitprof.sh x86_64 ours 'p:kb/e __x64_sys_getppid'
#   harness/bench/hitprof.sh arm64 upstream 'p:kb/e __arm64_sys_getppid'
#   harness/bench/hitprof.sh ARCH KERNEL --add N
#
# Boots KERNEL (ours or upstream, built by the harness) for ARCH with the
# event defined (in dynamic_events) and enabled, and its filter set, and
# a program that calls getppid() five times a second; QEMU runs with its
# gdb stub, and gdb steps through one hit.  Not under -icount: the steps
# are counted, not timed.  HITPROF_DUMP=f,g lists the instructions run in
# functions f and g.
#
# --add N: the write of one more kprobe event to kprobe_events with N
# defined (kbn/f0 ... on distinct functions, as make bench's scale suite
# adds them), from the file's write handler until it returns.
set -e
arch=$1 kernel=$2 def=$3 filter=$4
[ -n "$def" ] || { sed -n 's/^#   //p' "$0"; exit 2; }
if [ "$def" = --add ]; then
	add=$filter
	filter=
	case $add in ''|*[!0-9]*) echo "hitprof: --add N" >&2; exit 2 ;; esac
fi
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d /tmp/hitprof.XXXXXX)
qemu=
# set -e holds in the trap too: nothing in it may fail
trap '[ -z "$qemu" ] || kill "$qemu" 2>/dev/null || true; rm -rf "$tmp"' EXIT
# a port of its own, so that two profiles can run at once
port=$((20000 + $$ % 20000))
case $arch in
x86_64) cc=gcc entry=__x64_sys_getppid gdb=gdb ;;
arm64)
	cc=aarch64-linux-gnu-gcc entry=__arm64_sys_getppid gdb=gdb-multiarch
	;;
*) echo "hitprof: x86_64 or arm64" >&2; exit 2 ;;
esac
command -v $gdb >/dev/null || { echo "hitprof: apt-get install $gdb" >&2; exit 2; }
cat > "$tmp/gp.c" <<'EOC'
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	puts("@@HP start");
	fflush(stdout);
	for (;;) {
		syscall(SYS_getppid);
		usleep(200000);
	}
}
EOC
$cc -O2 -static -o "$tmp/hitprof-gp" "$tmp/gp.c"
if [ -n "$add" ]; then
	# each its own write, as the bench writes them; the last one is
	# profiled (gdb breaks in the write handler after @@HP start; the
	# minute is for gdb to load vmlinux and attach on a loaded host)
	cat > "$tmp/job.sh" <<EOJ
#!/bin/sh
cd /sys/kernel/tracing
grep -v '[][ .]' available_filter_functions | grep -v -e kprobe -e ftrace \\
	-e trace -e rcu -e lock -e sched -e irq | sort -u |
	head -n $((add + 1)) > /tmp/funcs
i=0
while read -r f; do
	[ \$i = $add ] && break
	echo "p:kbn/f\$i \$f" >> kprobe_events 2>/dev/null && i=\$((i + 1))
done < /tmp/funcs
echo "@@HP added \$i"
echo "@@HP start"
sleep 60
echo "p:kbn/f\$i \$(tail -n 1 /tmp/funcs)" >> kprobe_events
echo "@@HP done \$(grep -c . kprobe_events)"
sleep 1000
EOJ
	# 6.12's trace_uprobe.c has a probes_write() too
	case $kernel in
	upstream) entry=probes_write at="'trace_kprobe.c'::probes_write" ;;
	*) entry=probe_event_list_write at= ;;
	esac
	until=vfs_write
else
	cat > "$tmp/job.sh" <<EOJ
#!/bin/sh
cd /sys/kernel/tracing
echo '$def' >> dynamic_events || cat error_log
ev=\$(sed -n '1s/^[^:]*:\([^ ]*\).*/\1/p' dynamic_events)
echo 1 > events/\$ev/enable
[ -z '$filter' ] || echo '$filter' > events/\$ev/filter
exec /kpt/job/hitprof-gp
EOJ
fi
# one boot makes the initrd and the QEMU command line; it ends by timeout
KPT_FILES="$tmp/hitprof-gp" "$repo/harness/probetest" exec --arch "$arch" \
	--kernel "$kernel" --script "$tmp/job.sh" --timeout 60 \
	> "$tmp/exec.log" 2>&1 || true
run=$(sed -n 's/^probetest: console log \(.*\)\/console.log$/\1/p' "$tmp/exec.log")
[ -f "$run/qemu.cmd" ] || { cat "$tmp/exec.log"; exit 1; }
vmlinux=$(sed -n 's/.*-kernel \([^ ]*\)\/arch\/.*/\1/p' "$run/qemu.cmd")/vmlinux
# gdb puts an arm64 function after its two patchable-entry NOPs; the
# symbol, kallsyms and so a kprobe at +0 are on the first of them
if [ "$arch" = arm64 ] && [ -z "$at" ]; then
	at=0x$(aarch64-linux-gnu-nm "$vmlinux" | awk -v f="$entry" '$3 == f { print $1; exit }')
fi
# the command line's -append value is one word for the shell
sed "s/-append \(.*\) -serial/-append \"\1\" -serial/; s/^/exec /; s/\$/ -gdb tcp::$port/" \
	"$run/qemu.cmd" > "$tmp/qemu.sh"
sh "$tmp/qemu.sh" > "$tmp/console.log" 2>&1 &
qemu=$!
i=0
until grep -q '@@HP start' "$tmp/console.log"; do
	i=$((i + 1))
	[ $i -lt 240 ] || { tail "$tmp/console.log"; exit 1; }
	sleep 5
done
HITPROF_PORT=$port HITPROF_ENTRY=$entry HITPROF_ENTRY_AT=$at HITPROF_UNTIL=$until HITPROF_DUMP=$HITPROF_DUMP \
	HITPROF_MAX=${HITPROF_MAX:-${add:+3000000}} $gdb -q -batch -x "$here/hitprof.py" "$vmlinux" 2>&1 |
	sed -n 's/^@@HP //p'
