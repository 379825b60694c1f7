#!/bin/sh
# Produces tests/data/timeout.log with TIMEOUT=60: a guest that hangs.
sleep 100000
