# SPDX-License-Identifier: GPL-2.0
# Build, boot and test our kprobe event tracer on Linux 6.12 in QEMU.
# See README.md.  Variables (environment or command line):
#   ARCH=x86_64|arm64|riscv64|"x86_64 arm64"  (check/build: x86_64 and
#                                      arm64; others: x86_64)
#   KERNEL=ours|upstream|fixes|rewrite (ours: upstream + this repo's overlay;
#                                      fixes, rewrite: parts 1, 1+2 of it)
#   TESTS="test.d/kprobe/profile.tc"   (check: a subset)
#   SCRIPT=path                        (exec, series-check: a script to
#                                      run in the guest)  ICOUNT=1 (-icount)
#   DEBUG=1 KCSAN=1 BTI=1 TAGS=1 (arm64) DUMP=1 LONG=1  KPT_ROOT=/var/tmp/kpt
#   TIMEOUT=secs
#   APPEND="cmdline"  V=1  KPT_NOBUILD=1 (boot the kernel already built)
#   SERIES_PATCHES="2/30 2/31" SERIES_BOOT=1 (series-check)
#   SUITE= ITERS= ROUNDS= CASES= (bench)  FUZZ_TIME= FUZZ_JOBS= (fuzz)
#   DIFF_ARGS= DIFF_GEN= DIFF_SEED= DIFF_PARALLEL=0 (diff)
#   ROWS= BOOTS= SAVE= (check-clients)  SERIES_AUTHOR= (series)
#   KPT_FILES= KPT_ACCEL= KPT_QEMU_EXTRA= (exec)
#   REL_FAILNTH_ARGS= REL_FUZZ_ARGS= REL_STRESS_ARGS= (check-debug)
# Each target is an alias of a harness/probetest subcommand
# (harness/probetest --help).

PROBETEST := harness/probetest
export ARCH KERNEL TESTS SCRIPT DEBUG KCSAN BTI TAGS DUMP TIMEOUT APPEND V
export KPT_ROOT
export SUITE ITERS ROUNDS CASES XCASES LONG SCALE_COUNTS BULK_COUNTS BULK_ROUNDS
export BULK_ICOUNT REL_FAILNTH_ARGS REL_FUZZ_ARGS REL_STRESS_ARGS SERIES_PATCHES
export SERIES_BOOT ICOUNT
export REL_MT_STRESS_ARGS

.PHONY: all help deps build run demo exec check check-harness baseline

all: help

help:
	@sed -n '2,/^$$/p' Makefile | sed -n 's/^# \{0,1\}//p'
	@echo "Targets: $$(sed -n 's/^\.PHONY: //p' Makefile | tr '\n' ' ')"

# python3 runs the harness itself; everything else it installs on demand
# (harness/kpt/deps.py install(), through sudo when not root).
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
deps:
	@command -v python3 >/dev/null || { $(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y \
		-qq python3; }
	@$(PROBETEST) deps

build: deps
	$(PROBETEST) build

run: deps
	$(PROBETEST) run

demo: deps
	$(PROBETEST) demo

exec: deps
	@test -n "$(SCRIPT)" || { echo "usage: make exec SCRIPT=path"; exit 2; }
	$(PROBETEST) exec

# User-space unit tests of the probe parser (plain and ASan/UBSan builds).
.PHONY: unit
unit:
	$(PROBETEST) unit

# Documentation (harness/kpt/docs.py): `make htmldocs SPHINXDIRS=trace` of
# our tree (6.12 with the series) into KPT_ROOT/docs; fails on any warning
# (a link out of Documentation/trace is looked up in the whole tree) and
# when kprobetrace.rst lacks an error_log message of trace_probe_errors.h.
# 5-40 s; in check.
.PHONY: docs
docs: deps
	$(PROBETEST) docs

check: docs

# libFuzzer over the parser and the fetch programs (harness/unit/README.md):
# fuzz-smoke runs FUZZ_RUNS (1M) executions from the seeds, fuzz runs for
# FUZZ_TIME seconds and prints the executions and the parser's coverage.
.PHONY: fuzz fuzz-smoke fuzz-long
fuzz-smoke: deps
	$(PROBETEST) fuzz smoke

fuzz: deps
	$(PROBETEST) fuzz run

# The long run (harness/results/long-runs.txt): FUZZ_TIME seconds of
# FUZZ_JOBS processes without sanitizers, the corpus replayed with them.
fuzz-long: deps
	$(PROBETEST) fuzz long

# The harness's own tests (the console parser against saved real logs),
# then pyflakes over its Python and mypy over its type hints
# (harness/mypy.ini: every function has them).
check-harness: deps
	python3 -m unittest discover -s harness/tests -t harness
	pyflakes3 harness/kpt harness/diff harness/clients harness/tests \
		harness/series harness/unit/fuzz harness/bench harness/reliability
	cd harness && mypy --config-file mypy.ini

# The patch series (README, "The patch series"; plan in harness/series/):
# series writes series/ (git format-patch + cover letter); series-verify
# also applies it with git am to a fresh unpack of the base and runs
# checkpatch.pl --strict on every patch (~2.5 min, in check);
# series-check builds every patch for ARCH (x86_64, arm64 and riscv64 by
# default; hours cold); SERIES_PATCHES="2/30 2/31" only those,
# SERIES_BOOT=1 boots each with its ftracetests, SCRIPT=F (ICOUNT=1) each
# running F.
.PHONY: series series-verify series-check
series: deps
	$(PROBETEST) series

series-verify: deps
	$(PROBETEST) series-verify

series-check: deps
	$(PROBETEST) series-check

# The real clients on our kernel, x86_64 then arm64 (those ARCH names;
# none unless KERNEL is ours): make check-clients ARCH=A KERNEL=ours, 1-2
# min an arch once its kernel is built (arm64 fetches Debian's arm64
# builds of the clients the first time).  series-verify and the clients
# of every arch but the last need no guest of check's: they run beside
# the guests (check --beside) from the moment the last arch's kernel has
# built, on the core a guest's one TCG thread leaves idle; the last
# arch's clients come after.
CLIENT_ARCHES := $(if $(filter ours,$(or $(KERNEL),ours)),$(filter \
	x86_64 arm64,$(or $(ARCH),x86_64 arm64)))
CLIENT_LAST := $(lastword $(CLIENT_ARCHES))
client_run = ARCH=$(1) KERNEL=ours $(PROBETEST) clients
CHECK_BESIDE := --beside "$(PROBETEST) series-verify" \
	$(foreach a,$(filter-out $(CLIENT_LAST),$(CLIENT_ARCHES)),\
	--beside "$(call client_run,$(a))")
check: deps check-harness unit fuzz-smoke bench-smoke
	$(PROBETEST) check $(CHECK_BESIDE)
	$(if $(CLIENT_LAST),$(call client_run,$(CLIENT_LAST)))

# Differential test: the same corpus of definitions on KERNEL=upstream and
# KERNEL=ours (harness/diff/); DIFF_ARGS="--b upstream" checks stability;
# DIFF_GEN=N DIFF_SEED=S: how many generated definitions, from which seed;
# DIFF_PARALLEL=0 boots the two kernels one after the other.
.PHONY: diff
diff: deps
	$(PROBETEST) diff --arch "$(or $(ARCH),x86_64)" $(DIFF_ARGS)

# Record KERNEL=upstream results as the committed baseline.
baseline: deps
	KERNEL=upstream $(PROBETEST) check --save-baseline

# Benchmarks, upstream vs ours (README.md, Benchmarks): per hit under QEMU
# -icount, bulk add/enable/disable/delete in wall-clock time; the tables
# go to harness/bench/results-<arch>.txt.  SUITE=hit,floor,scale,watch,bulk
# ITERS= ROUNDS= CASES= LONG=1 (10 000 probes).  bench-smoke: one short
# boot of ours that fails if the benchmark fails; times nothing.
.PHONY: bench bench-smoke
bench: deps
	$(PROBETEST) bench

bench-smoke: deps
	$(PROBETEST) bench-smoke

# The reliability lane (README.md, Reliability): the DEBUG=1 kernel
# (KASAN, UBSAN, lockdep, kmemleak, fail-nth, lockdown) runs the kprobe and
# dynevent ftracetests, then the fail-nth sweep, the tracefs fuzzer, the
# stress test, the permission checks (equal to KERNEL=upstream's) and a
# kmemleak scan (harness/reliability/).  ARCH= (default x86_64), KERNEL=,
# REL_FAILNTH_ARGS= REL_FUZZ_ARGS= REL_STRESS_ARGS= (the programs' options).
# KCSAN=1: the data-race lane.  LONG=1: the long runs (an hour of stress,
# 200 000 fuzz lines) without the ftracetests; DEBUG=0 with it: 2 000 000
# fuzz lines on the normal kernel.
.PHONY: check-debug
check-debug: deps
	$(PROBETEST) check-debug

# The rest of ftracetest (00basic, event, filter, ftrace, instances,
# preemptirq, tracer, trigger; check.WIDE_DIRS) on KERNEL=upstream and
# KERNEL=ours: fails when a case ends differently on the two, or on a
# console splat of ours.  ARCH= (default both); ~9 min a kernel and arch
# pair under TCG.  Not in check: it boots upstream too.
.PHONY: check-wide
check-wide: deps
	$(PROBETEST) check-wide

# Part 1 of the series: each fix's test fails on 6.12 and passes on 6.12
# plus the fixes (KERNEL=fixes).  Not in check (it boots 6.12 too).
.PHONY: check-fixes
check-fixes: deps
	$(PROBETEST) check-fixes

# .ci/run as CI meets it (harness/kpt/coldrun.py): in a fresh Debian 12
# minbase chroot with git only, a clone of HEAD, no packages, KPT_ROOT or
# ccache; every line timed, the phases at the end.  Root; ~30 min, 7 GB.
.PHONY: cold-run
cold-run:
	$(PROBETEST) cold-run

# Every architecture that had probe events in 6.12 still builds: riscv64,
# ppc64le, s390x and 32-bit arm, tinyconfig plus the probe event options
# (harness/config/arches.config), with Debian's cross compilers; fails on
# a build error or a warning in a file the series adds or patches.
# ARCH="riscv64 ..." picks some.  Not in check (harness/results/arches.txt
# says how long it takes).
.PHONY: check-arches
check-arches: deps
	$(PROBETEST) check-arches

# Real clients (perf, trace-cmd, libtracefs, libbpf/bpftool, a raw PMU
# client, kprobe-perf, kprobe_event=, the gen API module) on KERNEL=ours
# and KERNEL=upstream side by side (README.md, Real clients).  ARCH=
# (default x86_64), KERNEL= (default both), ROWS="01-pmu-raw ...",
# BOOTS=3, SAVE=path writes the table too.
.PHONY: check-clients
check-clients: deps
	$(PROBETEST) clients
