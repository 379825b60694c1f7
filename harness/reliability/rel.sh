#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Reliability phases of make check-debug, run in the guest after the
# ftracetests (harness/kpt/reliability.py writes the job).  Each phase
# prints the same markers as ftrace-run.sh, so the host judges them like
# test cases and charges kernel splats to the phase that caused them:
#   @@KPT-TEST-BEGIN rel/<phase>   ...   @@KPT-RESULT rel/<phase> PASS|FAIL
# kpperm's lines go to the console as "@@KPT-PERM <line>" for the host to
# compare with the upstream kernel's.  Lockdown comes last: it cannot be
# undone.  Phases and budgets come from /kpt/job/rel.env (REL_*).
# Usage: rel.sh pre (before the ftracetests), rel.sh (after them).

J=/kpt/job
T=/sys/kernel/tracing
ML=/sys/kernel/debug/kmemleak
. $J/rel.env

phase() { # name command...
	name=$1
	shift
	echo "@@KPT-TEST-BEGIN rel/$name"
	if "$@"; then
		echo "@@KPT-RESULT rel/$name PASS"
	else
		echo "@@KPT-RESULT rel/$name FAIL"
	fi
}

# Everything a phase leaves must be gone before the next one.
clean_state() {
	echo 0 > $T/events/enable
	echo > $T/dynamic_events
	echo > $T/kprobe_events
	echo > $T/uprobe_events
	ok=0
	for f in kprobe_events uprobe_events dynamic_events; do
		test -z "$(cat $T/$f)" || { echo "left in $f:"; cat $T/$f; ok=1; }
	done
	if grep -q . /sys/kernel/debug/kprobes/list; then
		echo "kprobes left registered:"
		cat /sys/kernel/debug/kprobes/list
		ok=1
	fi
	return $ok
}

# Leaks found before the tests (boot) are reported quietly and cleared,
# so that the final scan reports only what the tests leaked.
kmemleak_baseline() {
	test -w $ML || { echo "no kmemleak"; return 1; }
	old=$(cat /proc/sys/kernel/printk)
	echo 1 > /proc/sys/kernel/printk
	echo scan > $ML
	echo "kmemleak: boot-time suspects: $(grep -c '^unreferenced' $ML)"
	echo clear > $ML
	echo "$old" > /proc/sys/kernel/printk
}

# Two scans, as kmemleak wants (an object must stay unreferenced for a
# whole scan period); any suspect is printed and fails the phase.
kmemleak_final() {
	test -w $ML || return 1
	echo scan > $ML
	sleep 6
	echo scan > $ML
	n=$(grep -c '^unreferenced' $ML)
	echo "kmemleak: $n suspects after the tests"
	cat $ML
	test "$n" = 0
}

failnth() {
	$J/kpfailnth $REL_FAILNTH_ARGS $J/failnth.txt && clean_state
}

fuzz() {
	$J/kpfuzz $REL_FUZZ_ARGS && clean_state
}

stress() {
	$J/kpstress $REL_STRESS_ARGS && clean_state
}

perm() { # args
	$J/kpperm "$@" > /tmp/perm.out
	rc=$?
	sed 's/^/@@KPT-PERM /' /tmp/perm.out
	test $rc = 0
}

# REL_PHASES (rel.env) names the phases of the lane, in this order:
# failnth fuzz stress perm kmemleak lockdown (the KCSAN lane: fuzz stress;
# the boot on multi-threaded TCG: stress-mt, kpstress as stress).
if [ "$1" = pre ]; then
	case " $REL_PHASES " in
	*" kmemleak "*) phase kmemleak-baseline kmemleak_baseline ;;
	esac
	exit 0
fi
for p in $REL_PHASES; do
	case $p in
	kmemleak) phase kmemleak kmemleak_final ;;
	lockdown) phase lockdown perm -L ;;
	stress-mt) phase stress-mt stress ;;
	*) phase $p $p ;;
	esac
done
echo "@@KPT-TEST-BEGIN (end)"
