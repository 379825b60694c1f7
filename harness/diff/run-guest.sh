#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of the differential test (busybox sh, no bash).
#
# Feeds every corpus line to kprobe_events (pass K) and then to
# dynamic_events (pass D) and records, per line: the write status and the
# shell's errno text, the error_log record (timestamp stripped), the
# listing, and for each event that appeared or changed its file list and
# format; for each event that went away whether its directory is gone.
#
# The corpus is prepared by harness/diff/diff.py (comments dropped, macros
# {{rep:..}} expanded, one "ID<TAB>OP<TAB>TEXT" line per step) and put in
# front of this script with a here-document, so that the job stays one
# file:  harness/probetest diff --emit x86_64 > /tmp/job.sh
#        make exec SCRIPT=/tmp/job.sh KERNEL=upstream
# OP is W (write TEXT), SKIP (TEXT is not written: deliberate.txt says
# it oopses this kernel), SEQ/END (a sequence: state accumulates), RESET
# (truncate the pass's file), SH (run TEXT with sh).  Outside a sequence
# every line starts from an empty probe list.
#
# Records go to a file, printed every 100 steps (and at the end) with
# each line prefixed with "@D " and a line count after each chunk, while
# the kernel console is quiet; the host strips the prefix, normalizes and
# compares.  Progress lines "@@P ..." are streamed so that a crash can be
# attributed to its line, and the records before it are not lost.

DIR=/tmp/kpt-diff
CORPUS=${KPT_DIFF_CORPUS:-$DIR/corpus}
PASSES=${KPT_DIFF_PASSES:-K D}
OUT=$DIR/records
ERR=$DIR/err
SHOUT=$DIR/shout
T=${KPT_DIFF_TRACEFS:-/sys/kernel/tracing}
CONSOLE=${KPT_DIFF_CONSOLE:-/dev/console}
NL='
'
TAB='	'

if [ ! -s "$CORPUS" ]; then
	echo "run-guest.sh: no corpus at $CORPUS; run it through" \
	     "harness/diff/diff.py (see the header of this file)"
	exit 2
fi
mkdir -p $DIR
cd $T || exit 1

# {{addr:SYM}}: the guest's own address of SYM.  The map is printed so
# that the host can turn the addresses back into {{addr:SYM}}.
ADDRMAP=
for s in $KPT_DIFF_ADDRSYMS; do
	a=$(grep -m1 " $s\$" /proc/kallsyms)
	a=${a%% *}
	[ -n "$a" ] && ADDRMAP="$ADDRMAP $s=0x$a"
done

expand() { # line -> line with {{nl}}, {{addr:SYM}}, {{empty}} replaced
	pat='{{nl}}'
	line=${line//"$pat"/"$NL"}
	pat='{{empty}}'
	line=${line//"$pat"/}
	for m in $ADDRMAP; do
		pat="{{addr:${m%%=*}}}"
		line=${line//"$pat"/${m#*=}}
	done
}

dump_event() { # GROUP/EVENT
	d=events/$1
	if [ ! -d "$d" ]; then
		echo "nodir $1"
		return
	fi
	files=
	for f in "$d"/*; do
		files="$files ${f##*/}"
	done
	echo "files $1:$files"
	while IFS= read -r l; do
		case $l in
		"ID: "*) l="ID: (n)" ;;
		esac
		echo "fmt $1: $l"
	done < "$d/format"
}

# Print the listing of $F; dump events that are new or whose lines
# changed since the last listing; report events that went away.
listing() {
	curev=
	newev=
	cur=
	while IFS= read -r l; do
		echo "list: $l"
		cur="$cur$l$NL"
		ev=${l#*:}
		ev=${ev%% *}
		case " $curev " in
		*" $ev "*) ;;
		*) curev="$curev $ev" ;;
		esac
		case "$NL$prev" in
		*"$NL$l$NL"*) ;;
		*)	case " $newev " in
			*" $ev "*) ;;
			*) newev="$newev $ev" ;;
			esac ;;
		esac
	done < $F
	for ev in $newev; do
		dump_event "$ev"
	done
	for ev in $prevev; do
		case " $curev " in
		*" $ev "*) ;;
		*)	if [ -d "events/$ev" ]; then
				echo "gone $ev: directory still there"
			else
				echo "gone $ev"
			fi ;;
		esac
	done
	prev=$cur
	prevev=$curev
}

errtext() { # the shell's error message of the last write, if any
	while IFS= read -r l; do
		echo "errno: $l"
	done < $ERR
}

errlog() {
	while IFS= read -r l; do
		case $l in
		"["*"] "*) l=${l#*] } ;;
		esac
		echo "log: $l"
	done < error_log
}

# Disable everything and clear all dynamic events.
clear_all() {
	echo 0 > events/enable 2>/dev/null
	echo > dynamic_events 2>/dev/null
	echo > kprobe_events 2>/dev/null
	[ -s dynamic_events ] && echo "clear: dynamic_events not empty"
}

run_pass() { # P FILE
	P=$1 F=$2
	prev=
	prevev=
	inseq=0
	n=0
	clear_all
	while IFS="$TAB" read -r id op text; do
		n=$((n + 1))
		echo "@@P $P $id" > $CONSOLE
		echo > error_log
		: > $ERR
		echo "@@ $P $id"
		case $op in
		W)
			line=$text
			case $line in *"{{"*) expand ;; esac
			echo "> $line"
			echo "$line" 2>$ERR >> $F
			echo "rc=$?"
			errtext
			;;
		SKIP)
			echo "> $text"
			echo "skip: not written (it oopses this kernel)"
			;;
		SEQ)
			echo "seq $text"
			inseq=1
			;;
		END)
			echo "end"
			clear_all
			inseq=0
			;;
		RESET)
			echo "reset"
			echo 2>$ERR > $F
			echo "rc=$?"
			errtext
			;;
		SH)
			echo "sh $text"
			(eval "$text") > $SHOUT 2>&1
			echo "rc=$?"
			while IFS= read -r l; do
				echo "out: $l"
			done < $SHOUT
			;;
		*)
			echo "bad op $op"
			;;
		esac
		errlog
		listing
		[ $((n % 100)) = 0 ] && flush > $CONSOLE
		if [ $inseq = 0 ] && [ -n "$prev" ]; then
			if ! echo 2>$ERR > $F; then
				echo "autoreset failed:"
				errtext
				clear_all
			fi
			prev=
			prevev=
		fi
	done < $CORPUS
	clear_all
	echo "@@P $P done $n" > $CONSOLE
}

# Print the records gathered so far to the console and forget them.  The
# kernel console is quieted meanwhile so that no kernel line can tear a
# record line.  A kernel line is printed by whoever holds the console
# then, so one of ours may still be going out from another CPU: a printk
# of our own waits for it (it takes the console over and prints what is
# pending, now below the level), and nothing is left going out.
flush() {
	read -r lvl rest < /proc/sys/kernel/printk
	echo 1 > /proc/sys/kernel/printk
	echo "<7>kpt-diff: flush" > /dev/kmsg 2> /dev/null || true
	nl=0
	while IFS= read -r l; do
		echo "@D $l"
		nl=$((nl + 1))
	done < $OUT
	echo "@@KPT-DIFF-CHUNK lines=$nl"
	: > $OUT
	echo "$lvl" > /proc/sys/kernel/printk
}

echo "@@KPT-DIFF-BEGIN kernel=$KPT_KERNEL arch=$KPT_ARCH release=$(uname -r)"
for m in $ADDRMAP; do
	echo "@@ADDR ${m%%=*} ${m#*=}"
done
: > $OUT
t0=$(date +%s)
for p in $PASSES; do
	case $p in
	K) run_pass K kprobe_events >> $OUT ;;
	D) run_pass D dynamic_events >> $OUT ;;
	esac
done
t1=$(date +%s)
flush > $CONSOLE
echo "@@KPT-DIFF-END seconds=$((t1 - t0))"
exit 0
