#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run ftracetest one test case at a time and print, for each, marker
# lines the host parses:
#   @@KPT-TEST-BEGIN <case>
#   @@KPT-RESULT <case>[ (instance)] <PASS|FAIL|UNRESOLVED|...|TIMEOUT>
# Kernel messages between BEGIN and the next BEGIN belong to that case.
# A case that outlives its time, or that is still running 20 seconds
# after the kernel oopsed (it may sleep forever on a lock the dead task
# held), is abandoned; after an oops no further case runs.
# Usage: ftrace-run.sh <per-case timeout in seconds> <case>...

per=$1
shift
cd /kpt/ftrace || exit 2

oopsed() {
	[ $(($(cat /proc/sys/kernel/tainted) & 128)) -ne 0 ]
}

# Wait until the case writes its exit status to $1, it runs out of time,
# or it is still running 20 s after an oops.  Sets $why to done, timeout
# or oops.  (kill -0 cannot tell: an exited child stays a zombie until
# the shell reaps it.)
watch_case() {
	t=0
	since=0
	why=done
	while [ ! -e "$1" ]; do
		sleep 1
		t=$((t + 1))
		if oopsed; then
			since=$((since + 1))
			[ $since -ge 20 ] && { why=oops; return; }
		fi
		[ $t -ge "$per" ] && { why=timeout; return; }
	done
}

report() { # case logdir why
	found=0
	# ftracetest.log holds "[N] description<TAB>[RESULT]" per run of a
	# case (twice for "flags: instance" cases).
	sed -n 's/^\[[0-9]*\] \(.*\)	\[\([A-Z]*\)\]$/\1|\2/p' \
		"$2/ftracetest.log" 2>/dev/null |
	while IFS='|' read -r desc res; do
		case "$desc" in
		"(instance) "*) echo "@@KPT-RESULT $1 (instance) $res" ;;
		*) echo "@@KPT-RESULT $1 $res" ;;
		esac
	done
	grep -q '	\[[A-Z]*\]$' "$2/ftracetest.log" 2>/dev/null && found=1
	[ $found = 1 ] && return
	case $3 in
	timeout) echo "@@KPT-RESULT $1 TIMEOUT" ;;
	*) echo "@@KPT-RESULT $1 NORESULT" ;;
	esac
}

for tc in "$@"; do
	if oopsed; then
		echo "@@KPT-SKIP the kernel oopsed: $tc and later cases not run"
		break
	fi
	echo "@@KPT-TEST-BEGIN $tc"
	logdir=/tmp/ftlog/$(echo "$tc" | tr / _)
	rm -rf "$logdir"
	rm -f "$logdir.rc"
	(./ftracetest -v -l "$logdir" "$tc" </dev/null 2>&1
	 echo $? > "$logdir.rc") &
	pid=$!
	watch_case "$logdir.rc"
	if [ $why = done ]; then
		wait $pid
	else
		kill -9 $pid 2>/dev/null
	fi
	report "$tc" "$logdir" "$why"
done
echo "@@KPT-TEST-BEGIN (end)"
exit 0
