#!/bin/sh
# Produces tests/data/lkdtm-warning.log: a real WARNING inside a fake
# test case, for the console parser's tests.
echo "@@KPT-TEST-BEGIN test.d/fake/warn.tc"
modprobe lkdtm || exit 1
echo WARNING > /sys/kernel/debug/provoke-crash/DIRECT
echo "@@KPT-RESULT test.d/fake/warn.tc PASS"
echo "@@KPT-TEST-BEGIN (end)"
exit 0
