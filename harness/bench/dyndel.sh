#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Delete N kprobe events, each enabled once and holding no record, one
# "-:GRP/EVENT" write each: first through kprobe_events, then through
# dynamic_events.  Guest ms from /proc/uptime (10 ms steps), so run it
# under -icount for figures that repeat:
#
#   harness/probetest exec --icount --arch ARCH --kernel KERNEL \
#	--script harness/bench/dyndel.sh
#
# Prints "@@DYN FILE delete=MS flush=MS left=N" for each file; flush is
# the O_TRUNC of kprobe_events after the deletes.  Then N more such
# events go with one O_TRUNC of kprobe_events: "@@DYN trunc clear=MS
# left=N".
T=/sys/kernel/tracing
N=200

ms() {
	read -r up rest < /proc/uptime
	echo $(( ${up%.*} * 1000 + 10#${up#*.} * 10 ))
}

# N events of group $1 on the first functions that take a kprobe
make_group() {
	i=0
	grep -v '\[' $T/available_filter_functions | head -n $((N * 2)) > /tmp/funcs
	while read -r f; do
		[ $i -ge $N ] && break
		echo "p:$1/e$i $f" >> $T/kprobe_events 2>/dev/null && i=$((i + 1))
	done < /tmp/funcs
	echo 1 > $T/events/$1/enable
	echo 0 > $T/events/$1/enable
	echo > $T/trace
	echo "$1: $i events"
}

delete_group() {
	t0=$(ms)
	i=0
	while [ $i -lt $N ]; do
		echo "-:$1/e$i" >> $T/$2
		i=$((i + 1))
	done
	t1=$(ms)
	echo > $T/kprobe_events
	t2=$(ms)
	echo "@@DYN $2 delete=$((t1 - t0)) flush=$((t2 - t1))" \
	     "left=$(grep -c . $T/kprobe_events)"
}

trunc_group() {
	t0=$(ms)
	echo > $T/kprobe_events
	t1=$(ms)
	echo "@@DYN trunc clear=$((t1 - t0)) left=$(grep -c . $T/kprobe_events)"
}

make_group dka
delete_group dka kprobe_events
make_group dkb
delete_group dkb dynamic_events

make_group dkc
trunc_group
