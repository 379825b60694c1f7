#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest job of make check-debug's second boot, with lockdown=confidentiality
# and a kprobe_event= definition on the command line: what tracefs and
# the boot-time probe do then, one "@@KPT-LKBOOT ..." line each, for the
# host to compare with 6.12's (harness/reliability/lockdown-<arch>.txt).

T=/sys/kernel/tracing
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
say() {
	echo "@@KPT-LKBOOT $*"
}

say "lockdown: $(cat /sys/kernel/security/lockdown)"
for f in kprobe_events dynamic_events kprobe_profile trace; do
	if cat $T/$f > /dev/null 2> /tmp/err; then
		say "read $f: ok"
	else
		say "read $f: $(sed 's/.*: //' /tmp/err)"
	fi
done
if echo 'p:kprobes/lk_late vfs_read' >> $T/kprobe_events 2> /tmp/err; then
	say "add kprobe: ok"
else
	say "add kprobe: $(sed 's/.*: //' /tmp/err)"
fi
# The kernel's own words about the boot-time probe and lockdown, without
# timestamps and task names, nor the KTAP lines of a KUnit suite named
# after kprobes (the arm64 config runs kprobes_test; 6.12's baseline has
# no such suite).
dmesg | sed -n 's/^\[[ 0-9.]*\] //p' |
	grep -i -E 'lockdown|kprobe' |
	grep -v 'ommand line' |
	grep -v -E '^ *(# |ok [0-9]+ |not ok [0-9]+ )' |
	sed 's/^Lockdown: [^:]*: /Lockdown: /' | sort -u |
	while read -r line; do say "dmesg: $line"; done
exit 0
