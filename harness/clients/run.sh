# SPDX-License-Identifier: GPL-2.0
# Guest job of 'probetest clients': run each row script of /kpt/clients/rows
# (or $KPT_ROWS) in its own shell with a time limit, print markers the
# host parses (@@KPT-TEST-BEGIN, @@KPT-RESULT, @@KPT-REASON), and reset
# the tracing state between rows so one failure does not hide others.
# Exit status 0: the host judges the rows.

T=/sys/kernel/tracing
ROWTIME=${KPT_ROW_TIMEOUT:-300}
mkdir -p /var/tmp /usr/share/misc
cd /kpt/clients/rows
rows=${KPT_ROWS:-$(ls *.sh | grep -v '^boot-')}
for f in $rows; do
	name=${f%.sh}
	rm -f /tmp/kpt-reason
	echo "@@KPT-TEST-BEGIN $name"
	t0=$(cut -d. -f1 /proc/uptime)
	# A session of its own, so a timeout kills the row's children too.
	setsid sh "./$f" < /dev/null 2>&1 &
	pid=$!
	(sleep $ROWTIME; kill -KILL -$pid 2>/dev/null) &
	wd=$!
	wait $pid
	rc=$?
	kill $wd 2>/dev/null
	t1=$(cut -d. -f1 /proc/uptime)
	case $rc in
	0) res=PASS ;;
	77) res=SKIP ;;
	137) res=FAIL; echo "killed after ${ROWTIME}s" > /tmp/kpt-reason ;;
	*) res=FAIL ;;
	esac
	[ -f /tmp/kpt-reason ] && echo "@@KPT-REASON $name $(head -n1 /tmp/kpt-reason)"
	echo "@@KPT-RESULT $name $res"
	echo "@@KPT-TIME $name $((t1 - t0))"
	echo "@@KPT-TEST-BEGIN (end)"
	# Leave nothing behind for the next row.
	umount /sys/devices/kprobe 2>/dev/null
	echo 0 > $T/events/enable 2>/dev/null
	echo 0 > $T/tracing_on; echo 1 > $T/tracing_on
	echo > $T/kprobe_events 2>/dev/null
	echo > $T/trace
	rm -rf /tmp/row.* /tmp/*.data /tmp/*.dat
done
exit 0
