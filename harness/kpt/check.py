"""make check: ftracetest cases in the guest, judged against expectations."""

from __future__ import annotations

import glob
import os
from typing import TYPE_CHECKING, Iterable, Sequence, Tuple

from . import kbuild, paths
from .initramfs import FTRACE

if TYPE_CHECKING:
    from . import console, expect, plan

# A row of a verdict table: (key, result, ok, note)
Row = Tuple[str, str, bool, str]

DEFAULT_DIRS = ("test.d/kprobe", "test.d/dynevent")
# make check-wide: the rest of ftracetest, whose code our core patches
# touch (trace events, eventfs, ftrace filters, kprobes).  Left out:
# direct/ (sample modules) and selftest/ (checkbashisms on the host).
WIDE_DIRS = ("test.d/00basic", "test.d/event", "test.d/filter",
             "test.d/ftrace", "test.d/instances", "test.d/preemptirq",
             "test.d/tracer", "test.d/trigger", "test.d/trigger/inter-event")
PASSING = ("PASS", "XFAIL")
# Built-in KUnit suites that must report: (config option, case).  Ours,
# the kprobes suite, which the arm64 config builds in for kprobes taken
# through ftrace, and part 1's arm64 hw_breakpoint suite.
KUNIT_SUITES = [("CONFIG_PROBE_EVENTS_KUNIT_TEST", "kunit/trace_probe_parser"),
                ("CONFIG_KPROBES_SANITY_TEST", "kunit/kprobes_test"),
                ("CONFIG_ARM64_HW_BREAKPOINT_KUNIT_TEST",
                 "kunit/arm64_hw_breakpoint_step")]
PER_CASE_TIMEOUT = 300
# ftrace-run.sh prints at least once per case and abandons a case after
# PER_CASE_TIMEOUT: longer silence means a hung guest.
RUN_SILENCE = PER_CASE_TIMEOUT + 120


def own_cases() -> list[str]:
    """Our own ftracetest cases, wherever they sit in the repo."""
    top = os.path.join(paths.REPO, FTRACE)
    return sorted(os.path.relpath(p, top) for p in
                  glob.glob(os.path.join(top, "test.d/**/*.tc"),
                            recursive=True))


def select(testsrc: str, tests: str) -> list[str]:
    """Case paths relative to the ftrace dir: TESTS, or the default set."""
    top = os.path.join(testsrc, FTRACE)
    wanted = tests.split() if tests else list(DEFAULT_DIRS)
    cases = []
    for w in wanted:
        w = w.split(FTRACE + "/", 1)[-1]
        full = os.path.join(top, w)
        if os.path.isdir(full):
            cases += sorted(os.path.relpath(p, top) for p in
                            glob.glob(os.path.join(full, "*.tc")))
        elif os.path.isfile(full):
            cases.append(w)
        else:
            raise SystemExit(f"probetest: no test case or directory '{w}' "
                             f"under {top}")
    if not tests:
        cases += own_cases()
    return list(dict.fromkeys(cases))


def damaging(case: str, exp: expect.Expect) -> bool:
    """A case known to damage the kernel: a console allowance names it"""
    from fnmatch import fnmatch
    return any(g != "(boot)" and fnmatch(case, g)
               for g, _ in exp.allowed_console())


def order(cases: Sequence[str], exp: expect.Expect) -> list[str]:
    """Cases known to damage the kernel run last, so they cannot take
    healthy cases down with them."""
    return ([c for c in cases if not damaging(c, exp)] +
            [c for c in cases if damaging(c, exp)])


def job_script(path: str, cases: Iterable[str]) -> None:
    with open(path, "w") as f:
        f.write("#!/bin/sh\n")
        f.write(f"exec sh /kpt/guest/ftrace-run.sh {PER_CASE_TIMEOUT} \\\n")
        f.write(" \\\n".join(f"\t{c}" for c in cases) + "\n")


def boot_timeout(cases: Sequence[str]) -> int:
    """Generous but bounded: boot, then a per-case allowance."""
    return 300 + 45 * len(cases)


def _key(case: str) -> str:
    return case.replace(" (instance)", "(instance)")


def judge(res: console.Result, cases: Iterable[str],
          exp: expect.Expect) -> list[Row]:
    """Rows (key, result, ok, note) for every case, plus console rows."""
    rows: list[Row] = []
    seen: dict[str, str] = {}
    for case, result in res.results:
        seen.setdefault(_key(case), result)
    for case in cases:
        if case not in seen:
            seen[case] = "MISSING"
    for key, result in seen.items():
        want = exp.results.get(key)
        if key in res.notes:
            rows.append((key, result, result in PASSING, res.notes[key]))
        elif want and want[0] == result:
            rows.append((key, result, True, f"expected: {want[1]}"))
        elif result in PASSING:
            note = f"stale expectation {want[0]}" if want else ""
            rows.append((key, result, True, note))
        else:
            note = f"expected {want[0]}" if want else ""
            rows.append((key, result, False, note))
    allowed = exp.allowed_console()
    from .console import allowed_splat
    for s in res.splats:
        ok = allowed_splat(s, allowed)
        rows.append((f"console:{s.lineno}", s.kind.upper(), ok,
                     f"[{s.test or '(boot)'}] {s.line.strip()[:160]}"))
    if res.timed_out or res.exit_rc is None:
        rows.append(("guest", "TIMEOUT" if res.timed_out else "CRASH", False,
                     "guest did not finish"))
    return rows


def kunit_suites(build: kbuild.Build) -> list[str]:
    """The KUnit suites @build runs at boot ("kunit/NAME" cases): their
    verdict must be on the console."""
    try:
        with open(os.path.join(build.dir, ".config")) as f:
            config = f.read()
    except OSError:
        return []
    return [case for opt, case in KUNIT_SUITES
            if f"\n{opt}=y\n" in config]


def is_case(key: str) -> bool:
    """A row of a test case, not a console or guest row of judge()."""
    return not key.startswith(("console:", "guest"))


def save_results(path: str, rows: Iterable[Row], header: str = "") -> None:
    with open(path, "w") as f:
        if header:
            f.write(f"# {header}\n")
        for key, result, _, _ in rows:
            if is_case(key):
                f.write(f"{key} {result}\n")


def baseline_path(kernel: str, archname: str) -> str:
    return os.path.join(paths.HARNESS, "baseline", f"{kernel}-{archname}.txt")


def load_baseline(archname: str) -> dict[str, str]:
    path = baseline_path("upstream", archname)
    out = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                k, _, r = line.strip().rpartition(" ")
                if k and not k.startswith("#"):
                    out[k] = r
    return out


def compare_baseline(rows: Iterable[Row], archname: str) -> list[str]:
    """Cases upstream passes that we do not: printed as extra notes."""
    base = load_baseline(archname)
    worse = []
    for key, result, _, _ in rows:
        if base.get(key) in PASSING and result not in PASSING:
            worse.append(f"{key}: upstream {base[key]}, here {result}")
    return worse


def testsrc() -> str:
    """Tests always come from our tree (upstream's cases plus ours).
    Synced under the lock kbuild syncs it with: make diff boots both
    kernels at once, and each run brings the tree up to date."""
    return kbuild.source("ours")


def compare_wide(up_rows: Sequence[Row],
                 our_rows: Sequence[Row]) -> list[str]:
    """Lines where ours and upstream disagree on a case, or where ours
    has a console row that is not allowed; empty when they agree."""
    def cases(rows: Iterable[Row]) -> dict[str, str]:
        return {k: r for k, r, _, _ in rows
                if is_case(k) and not k.startswith("kunit/")}
    up, ours = cases(up_rows), cases(our_rows)
    out = [f"{k}: upstream {up.get(k, 'MISSING')}, "
           f"ours {ours.get(k, 'MISSING')}"
           for k in sorted(set(up) | set(ours)) if up.get(k) != ours.get(k)]
    out += [f"ours {k} {r} {note}" for k, r, ok, note in our_rows
            if not is_case(k) and not ok]
    return out


def fix_cases(steps: Iterable[plan.Step]) -> list[tuple[plan.Step, str]]:
    """[(step, case)] of part 1's fixes, each with its regression test."""
    return [(s, c) for s in steps for c in s.tests]


def _outcome(rows: Sequence[Row], case: str) -> str:
    """A case's result on one kernel, '+splat' when the console had a
    splat while it ran."""
    result = next((r for k, r, _, _ in rows if k == case), "MISSING")
    splat = any(k.startswith("console:") and note.startswith(f"[{case}]")
                for k, _, _, note in rows)
    return result + ("+splat" if splat else "")


def other_arch_fix(step: plan.Step, karch: str) -> bool:
    """True when every upstream file @step patches is under another
    architecture's arch/ directory than @karch (kbuild's ARCH)."""
    from . import tree
    srcarch = "x86" if karch in ("x86_64", "i386") else karch
    files = [f for name in step.applies
             for f in tree.patched_paths(os.path.join(paths.REPO, name))]
    return bool(files) and all(f.startswith("arch/") and
                               not f.startswith(f"arch/{srcarch}/")
                               for f in files)


def fixes_table(pairs: Iterable[tuple[plan.Step, str]], up_rows: Sequence[Row],
                fix_rows: Sequence[Row], archname: str, karch: str = ""
                ) -> tuple[list[str], int]:
    """Lines of make check-fixes and the number of bad rows: a fix's test
    must fail (or splat) on 6.12 and pass cleanly with part 1."""
    karch = karch or archname
    out = [f"# make check-fixes ARCH={archname}: each fix's test on 6.12 "
           "and on 6.12 + part 1",
           f"{'fix':34} {'test':44} {'6.12':14} {'+fixes':14} verdict"]
    bad = 0
    for step, case in pairs:
        up, fx = _outcome(up_rows, case), _outcome(fix_rows, case)
        ok = up != "PASS" and fx == "PASS"
        # the code the fix is in is not in this arch's config (fprobe
        # events on arm64 in 6.12), or is another arch's code (arm64's
        # hw_breakpoint): the other arch's table shows it
        absent = up == fx == "UNSUPPORTED" or (
            fx == "PASS" and other_arch_fix(step, karch))
        bad += not ok and not absent
        verdict = "ok" if ok else "n/a (not built here)" if absent else "BAD"
        out.append(f"{step.slug:34} {case:44} {up:14} {fx:14} {verdict}")
    other = [f"{k} {r} {note}" for k, r, _, note in fix_rows
             if k.startswith(("console:", "guest"))]
    for note in other:
        out.append(f"BAD fixes kernel console: {note}")
    return out, bad + len(other)
