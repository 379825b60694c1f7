# SPDX-License-Identifier: GPL-2.0
# Helpers for the client rows (sourced by rows/*.sh in the guest).
# A row prints every command with its output and rc, asserts on concrete
# output, and ends with assert_clean.  fail/skip write their reason to
# /tmp/kpt-reason for the runner's @@KPT-REASON line.

T=/sys/kernel/tracing
OUT=/tmp/kpt-out.txt
B=/kpt/clients/bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
rc=0

fail() { echo "FAIL: $*"; echo "$*" > /tmp/kpt-reason; exit 1; }
skip() { echo "SKIP: $*"; echo "$*" > /tmp/kpt-reason; exit 77; }
ok() { echo "  ok: $*"; }

# run CMD...: print it, its output (also in $OUT) and its exit status.
run() {
	echo "+ $*"
	"$@" > $OUT 2>&1
	rc=$?
	cat $OUT
	echo "  (rc=$rc)"
}

# has ERE [FILE]: some line of FILE (default: the last output) matches.
has() {
	grep -Eq -- "$1" "${2:-$OUT}" || fail "no line matches /$1/${2:+ in $2}"
	ok "/$1/"
}

hasnt() {
	! grep -Eq -- "$1" "${2:-$OUT}" || fail "a line matches /$1/${2:+ in $2}"
	ok "no /$1/"
}

rc_is() {
	[ "$rc" = "$1" ] || fail "exit status $rc, expected $1${2:+ ($2)}"
	ok "rc $1"
}

rc_not() {
	[ "$rc" != "$1" ] || fail "exit status $rc${2:+ ($2)}"
	ok "rc $rc != $1"
}

# positive NAME VALUE: VALUE is an integer > 0.
positive() {
	case "$2" in ''|*[!0-9]*) fail "$1 is '$2', not a number" ;; esac
	[ "$2" -gt 0 ] || fail "$1 is $2, expected > 0"
	ok "$1=$2 > 0"
}

need() {
	for n in "$@"; do
		command -v "$n" > /dev/null 2>&1 || [ -x "$n" ] ||
			skip "$n is not in the client initramfs"
	done
}

# Trigger opens and reads of a known file.
poke() {
	for i in 1 2 3; do cat /etc/passwd > /dev/null; done
}

assert_empty() {
	k=$(cat $T/kprobe_events)
	[ -z "$k" ] || fail "kprobe_events not empty: $(echo $k)"
	ok "kprobe_events is empty"
}

# The last step of every row.
assert_clean() {
	assert_empty
	k=$(grep -E '^[pr]' $T/dynamic_events)
	[ -z "$k" ] || fail "dynamic_events lists kprobes: $(echo $k)"
	ok "no kprobe in dynamic_events"
}
