# SPDX-License-Identifier: GPL-2.0
# Build, boot and test our kprobe event tracer on Linux 6.12 in QEMU.
# See README.md.  Variables (environment or command line):
#   ARCH=x86_64|arm64|"x86_64 arm64"  (check/build: both; others: x86_64)
#   KERNEL=ours|upstream               (ours: upstream + this repo's overlay)
#   TESTS="test.d/kprobe/profile.tc"   (check: a subset)
#   SCRIPT=path                        (exec: script to run in the guest)
#   DEBUG=1  KPT_ROOT=/var/tmp/kpt  TIMEOUT=secs  APPEND="cmdline"  V=1

KTEST := harness/ktest
export ARCH KERNEL TESTS SCRIPT DEBUG TIMEOUT APPEND V KPT_ROOT

.PHONY: all help deps build run demo exec check check-harness baseline

all: help

help:
	@sed -n '2,10p' Makefile | sed 's/^# \{0,1\}//'
	@echo "Targets: deps build run demo exec check check-harness baseline diff unit fuzz"

# python3 runs the harness itself; everything else it installs on demand.
deps:
	@command -v python3 >/dev/null || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3; }
	@$(KTEST) deps

build: deps
	$(KTEST) build

run: deps
	$(KTEST) run

demo: deps
	$(KTEST) demo

exec: deps
	@test -n "$(SCRIPT)" || { echo "usage: make exec SCRIPT=path"; exit 2; }
	$(KTEST) exec

# User-space unit tests of the probe parser (plain and ASan/UBSan builds).
.PHONY: unit
unit:
	$(MAKE) -C harness/unit

# libFuzzer over the parser and the fetch programs (harness/unit/README.md):
# fuzz-smoke runs FUZZ_RUNS (1M) executions from the seeds, fuzz runs for
# FUZZ_TIME seconds and prints the executions and probe_parse.c coverage.
.PHONY: fuzz fuzz-smoke fuzz-deps
fuzz-deps:
	@command -v clang-14 >/dev/null && command -v llvm-cov-14 >/dev/null || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq clang-14 llvm-14 libclang-rt-14-dev; }

fuzz-smoke: fuzz-deps
	$(MAKE) -C harness/unit fuzz-smoke

fuzz: fuzz-deps
	$(MAKE) -C harness/unit fuzz

# The harness's own tests: the console parser against saved real logs.
check-harness:
	python3 -m unittest discover -s harness/tests -t harness

check: deps check-harness unit fuzz-smoke
	$(KTEST) check

# Differential test: the same corpus of definitions on KERNEL=upstream and
# KERNEL=ours (harness/diff/); DIFF_ARGS="--b upstream" checks stability.
.PHONY: diff
diff: deps
	python3 harness/diff/diff.py --arch "$(or $(ARCH),x86_64)" $(DIFF_ARGS)

# Record KERNEL=upstream results as the committed baseline.
baseline: deps
	KERNEL=upstream $(KTEST) check --save-baseline
