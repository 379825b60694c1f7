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
#   DEBUG=1 KCSAN=1 LONG=1  KPT_ROOT=/var/tmp/kpt  TIMEOUT=secs
#   APPEND="cmdline"  V=1  KPT_NOBUILD=1 (boot the kernel already built)
#   SERIES_PATCHES="2/30 2/31" SERIES_BOOT=1 (series-check)
#   SUITE= ITERS= ROUNDS= CASES= (bench)  FUZZ_TIME= FUZZ_JOBS= (fuzz)
#   DIFF_ARGS= (diff)  ROWS= (check-clients)

KTEST := harness/ktest
export ARCH KERNEL TESTS SCRIPT DEBUG KCSAN TIMEOUT APPEND V KPT_ROOT
export SUITE ITERS ROUNDS CASES XCASES LONG SCALE_COUNTS BULK_COUNTS BULK_ROUNDS
export BULK_ICOUNT REL_FAILNTH_ARGS REL_FUZZ_ARGS REL_STRESS_ARGS SERIES_PATCHES
export SERIES_BOOT ICOUNT
export REL_MT_STRESS_ARGS

.PHONY: all help deps build run demo exec check check-harness baseline

all: help

help:
	@sed -n '2,16p' Makefile | sed 's/^# \{0,1\}//'
	@echo "Targets: $$(sed -n 's/^\.PHONY: //p' Makefile | tr '\n' ' ')"

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

# Documentation: `make htmldocs SPHINXDIRS=trace` of the pristine tree with
# our Documentation/ copied over it, in DOCS_ROOT (a hard-linked scratch
# tree, rebuilt every time).  Fails on any warning that names kprobetrace
# (including labels other documents link to), and when kprobetrace.rst
# lacks an error_log message of trace_probe_errors.h.  15-40 s; in check.
DOCS_ROOT ?= /var/tmp/kpt-docs
DOCS_TAR := /usr/src/linux-source-6.12.tar.xz
.PHONY: docs docs-deps
docs-deps:
	@command -v sphinx-build >/dev/null && command -v dot >/dev/null && \
		python3 -c 'import sphinx_rtd_theme, yaml' 2>/dev/null || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq python3-sphinx python3-sphinx-rtd-theme \
		python3-yaml graphviz; }
	@test -e $(or $(KPT_ROOT),/var/tmp/kpt)/src/upstream/.kpt-unpacked || \
		test -e $(DOCS_TAR) || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		linux-source-6.12; }

docs: docs-deps
	@sed -n 's/^TPP_ERR([A-Z0-9_]*,[[:space:]]*"\(.*\)")$$/\1/p' \
		kernel/trace/trace_probe_errors.h | sed 's/\\"/"/g' | \
	{ bad=0; while IFS= read -r m; do \
		grep -qF "\`\`$$m\`\`" Documentation/trace/kprobetrace.rst || \
		{ echo "docs: kprobetrace.rst lacks error_log message: $$m"; \
		bad=1; }; done; test $$bad = 0; }
	@set -e; t0=$$(date +%s); d="$(DOCS_ROOT)"; \
	case "$$d" in /?*) ;; *) echo "docs: DOCS_ROOT must be absolute"; exit 2;; esac; \
	src=$(or $(KPT_ROOT),/var/tmp/kpt)/src/upstream; \
	if [ ! -e $$src/.kpt-unpacked ]; then src=$$d/upstream; \
		if [ ! -e $$src/.unpacked ]; then rm -rf $$src; mkdir -p $$src; \
			tar -C $$src --strip-components=1 -xf $(DOCS_TAR); \
			touch $$src/.unpacked; fi; fi; \
	rm -rf $$d/tree $$d/out; mkdir -p $$d; \
	cp -al $$src $$d/tree 2>/dev/null || cp -a $$src $$d/tree; \
	git ls-files -co --exclude-standard -- Documentation | \
	while read -r f; do [ -f "$$f" ] || continue; \
		rm -f "$$d/tree/$$f"; mkdir -p "$$(dirname "$$d/tree/$$f")"; \
		cp "$$f" "$$d/tree/$$f"; done; \
	env -u ARCH -u V -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
		make -C $$d/tree htmldocs SPHINXDIRS=trace O=$$d/out \
		> $$d/htmldocs.log 2>&1 || \
		{ tail -30 $$d/htmldocs.log; echo "docs: htmldocs failed"; exit 1; }; \
	w=$$(grep -c -i -E 'warning|error' $$d/htmldocs.log || true); \
	k=$$(grep -i -E 'warning|error' $$d/htmldocs.log | grep -c kprobetrace || true); \
	grep -i -E 'warning|error' $$d/htmldocs.log | grep kprobetrace || true; \
	echo "docs: $$(( $$(date +%s) - t0 )) s, $$w warnings, $$k about kprobetrace;" \
		"html in $$d/out/Documentation/output/trace, log $$d/htmldocs.log"; \
	test "$$k" = 0

check: docs

# libFuzzer over the parser and the fetch programs (harness/unit/README.md):
# fuzz-smoke runs FUZZ_RUNS (1M) executions from the seeds, fuzz runs for
# FUZZ_TIME seconds and prints the executions and the parser's coverage.
.PHONY: fuzz fuzz-smoke fuzz-deps fuzz-long
fuzz-deps:
	@command -v clang-14 >/dev/null && command -v llvm-cov-14 >/dev/null || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq clang-14 llvm-14 libclang-rt-14-dev; }

fuzz-smoke: fuzz-deps
	$(MAKE) -C harness/unit fuzz-smoke

fuzz: fuzz-deps
	$(MAKE) -C harness/unit fuzz

# The long run (harness/results/long-runs.txt): FUZZ_TIME seconds of
# FUZZ_JOBS processes without sanitizers, the corpus replayed with them.
fuzz-long: fuzz-deps
	$(MAKE) -C harness/unit fuzz-long

# The harness's own tests (the console parser against saved real logs),
# then pyflakes over its Python.
check-harness: deps
	python3 -m unittest discover -s harness/tests -t harness
	pyflakes3 harness/kpt harness/diff harness/clients harness/tests \
		harness/series harness/unit/fuzz harness/bench harness/reliability

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
	$(KTEST) series

series-verify: deps
	$(KTEST) series-verify

series-check: deps
	$(KTEST) series-check

check: series-verify

# After the ftracetests, the real clients on our x86_64 kernel (unless
# ARCH or KERNEL leave that out): make check-clients ARCH=x86_64
# KERNEL=ours, about 90 s once its kernel flavour is built.
check: deps check-harness unit fuzz-smoke bench-smoke
	$(KTEST) check
	@case " $(or $(ARCH),x86_64) " in *" x86_64 "*) ;; *) exit 0;; esac; \
	test "$(or $(KERNEL),ours)" = ours || exit 0; \
	ARCH=x86_64 KERNEL=ours harness/clients/check-clients

# Differential test: the same corpus of definitions on KERNEL=upstream and
# KERNEL=ours (harness/diff/); DIFF_ARGS="--b upstream" checks stability;
# DIFF_GEN=N DIFF_SEED=S: how many generated definitions, from which seed;
# DIFF_PARALLEL=0 boots the two kernels one after the other.
.PHONY: diff
diff: deps
	python3 harness/diff/diff.py --arch "$(or $(ARCH),x86_64)" $(DIFF_ARGS)

# Record KERNEL=upstream results as the committed baseline.
baseline: deps
	KERNEL=upstream $(KTEST) check --save-baseline

# Benchmarks, upstream vs ours (README.md, Benchmarks): per hit under QEMU
# -icount, bulk add/enable/disable/delete in wall-clock time; the tables
# go to harness/bench/results-<arch>.txt.  SUITE=hit,floor,scale,watch,bulk
# ITERS= ROUNDS= CASES= LONG=1 (10 000 probes).  bench-smoke: one short
# boot of ours that fails if the benchmark fails; times nothing.
.PHONY: bench bench-smoke
bench: deps
	$(KTEST) bench

bench-smoke: deps
	$(KTEST) bench-smoke

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
	$(KTEST) check-debug

# The rest of ftracetest (00basic, event, filter, ftrace, instances,
# preemptirq, tracer, trigger; check.WIDE_DIRS) on KERNEL=upstream and
# KERNEL=ours: fails when a case ends differently on the two, or on a
# console splat of ours.  ARCH= (default both); ~9 min a kernel and arch
# pair under TCG.  Not in check: it boots upstream too.
.PHONY: check-wide
check-wide: deps
	$(KTEST) check-wide

# Part 1 of the series: each fix's test fails on 6.12 and passes on 6.12
# plus the fixes (KERNEL=fixes).  Not in check (it boots 6.12 too).
.PHONY: check-fixes
check-fixes: deps
	$(KTEST) check-fixes

# Every architecture that had probe events in 6.12 still builds: riscv64,
# ppc64le, s390x and 32-bit arm, tinyconfig plus the probe event options
# (harness/config/arches.config), with Debian's cross compilers; fails on
# a build error or a warning in a file the series adds or patches.
# ARCH="riscv64 ..." picks some.  Not in check (harness/results/arches.txt
# says how long it takes).
.PHONY: check-arches
check-arches: deps
	$(KTEST) check-arches

# Real clients (perf, trace-cmd, libtracefs, libbpf/bpftool, a raw PMU
# client, kprobe-perf, kprobe_event=, the gen API module) on KERNEL=ours
# and KERNEL=upstream side by side (README.md, Real clients).  ARCH=
# (default x86_64), KERNEL= (default both), ROWS="01-pmu-raw ...",
# BOOTS=3, SAVE=path writes the table too.
.PHONY: check-clients
check-clients: deps
	harness/clients/check-clients
