#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kprobetrace walkthrough, adapted to 6.12: define an entry probe with
# named arguments and a return probe, look at the event format, enable,
# attach a trigger, trace, read kprobe_profile, filter, remove.  Every
# step prints what it shows; the script fails if the trace lacks the
# lines the walkthrough promises.

T=/sys/kernel/tracing
cd $T || exit 1
fail=0

step() {
	echo
	echo "### $*"
}
show() {
	echo "\$ $*"
	sh -c "$*" 2>&1
}
expect() { # file pattern what
	grep -q "$2" "$1" || { echo "DEMO-FAIL: $3"; fail=1; }
}

# The boot self test leaves records of its deleted events in the buffer,
# and 6.12 decodes them with the format of whatever event reuses the id.
echo > trace

step "1. An entry probe with named arguments"
show "echo 'p:myprobe do_sys_openat2 dfd=\$arg1 filename=+0(\$arg2):ustring flags=+0(\$arg3):x64 mode=+8(\$arg3):x64' > kprobe_events"
step "2. A return probe recording the return value"
show "echo 'r:myretprobe do_sys_openat2 \$retval' >> kprobe_events"
show "cat kprobe_events"
step "3. The event's format"
show "cat events/kprobes/myprobe/format"
step "4. Enable both events, and a histogram trigger on the entry probe"
show "echo 1 > events/kprobes/myprobe/enable"
show "echo 1 > events/kprobes/myretprobe/enable"
show "echo 'hist:keys=filename' > events/kprobes/myprobe/trigger"
show "cat events/kprobes/myprobe/trigger"
step "5. Open some files, then read the trace"
cat /etc/passwd /etc/group > /dev/null
ls / > /dev/null
show "echo 0 > tracing_on"
show "grep -v '^#' trace | head -12"
cat trace > /tmp/trace.1
expect /tmp/trace.1 'myprobe: (do_sys_openat2+0x0/0x[0-9a-f]*) dfd=0x[0-9a-f]* filename="/etc/passwd"' \
	"entry probe line with filename=\"/etc/passwd\""
expect /tmp/trace.1 'myretprobe: (.* <- do_sys_openat2) arg1=' \
	"return probe line '<- do_sys_openat2'"
step "6. The trigger's histogram"
show "grep -m4 '{ filename:' events/kprobes/myprobe/hist"
expect events/kprobes/myprobe/hist '/etc/passwd' "hist entry for /etc/passwd"
step "7. Hits and misses"
show "cat kprobe_profile"
expect kprobe_profile 'myprobe *[1-9][0-9]* *0$' "myprobe hits in kprobe_profile"
step "8. A filter: only opens under /etc"
show "echo '!hist:keys=filename' > events/kprobes/myprobe/trigger"
show "echo 0 > events/kprobes/myretprobe/enable"
show "echo 'filename ~ \"/etc/*\"' > events/kprobes/myprobe/filter"
show "echo > trace; echo 1 > tracing_on"
cat /etc/group /proc/version > /dev/null
show "echo 0 > tracing_on"
show "grep -v '^#' trace"
grep -v '^#' trace > /tmp/trace.2
expect /tmp/trace.2 'filename="/etc/group"' "filtered trace keeps /etc/group"
if grep -q 'filename="/proc' /tmp/trace.2; then
	echo "DEMO-FAIL: the filter let /proc/version through"
	fail=1
fi
step "9. Removal: disable, delete one, clear all"
show "echo 0 > events/kprobes/myprobe/enable"
show "echo 1 > tracing_on"
show "echo '-:myprobe' >> kprobe_events"
show "cat kprobe_events"
show "echo > kprobe_events"
show "cat kprobe_events"
[ -z "$(cat kprobe_events)" ] || { echo "DEMO-FAIL: events left"; fail=1; }
echo
[ $fail = 0 ] && echo "demo: all steps showed what they should" ||
	echo "demo: some steps did not show what they should"
exit $fail
