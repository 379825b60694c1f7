#!/bin/sh
# Produces tests/data/sysrq-crash.log: a panic; the guest never prints
# its exit marker.
echo c > /proc/sysrq-trigger
