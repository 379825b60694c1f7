"""make check-debug: the reliability lane on the DEBUG=1 kernel.

One boot of the debug kernel (KASAN, UBSAN, lockdep, kmemleak, fault
injection, lockdown LSM; harness/config/debug.config) runs:
  1. a kmemleak baseline (boot-time suspects are cleared, not counted);
  2. the kprobe and dynevent ftracetests and ours, as make check does;
  3. harness/reliability/rel.sh: the fail-nth sweep (kpfailnth), the
     tracefs fuzzer (kpfuzz), the concurrency stress (kpstress), the
     permission checks (kpperm), a final kmemleak scan, lockdown.
Every phase is a row like a test case; any kernel splat fails the phase
it happened in.  kpperm's lines must equal harness/reliability/
perm-<arch>.txt, recorded from KERNEL=upstream (--save-baseline).  A
second boot with lockdown=confidentiality and a kprobe_event= probe
(lockdown-boot.sh) must print what 6.12 prints (lockdown-<arch>.txt).

On arm64 a third boot runs kpstress on multi-threaded TCG (MT_ARCHES),
where the two vCPUs run at once, not interleaved.

KCSAN=1 is a lane of its own on the kcsan flavour (harness/config/
kcsan.config): the ftracetests, kpfuzz and 5 minutes of kpstress.  Every
KCSAN report is a row (harness/kpt/kcsan.py): one in the probe event
files fails, one elsewhere is listed with whether 6.12 showed it in the
same lane (kcsan-<arch>.txt, saved by KERNEL=upstream --save-baseline).

LONG=1 is the long run: kpfuzz and an hour of kpstress on the debug
kernel, with the kmemleak scans, or with DEBUG=0 two million kpfuzz lines
on the normal kernel; no ftracetests unless TESTS= names some.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from . import check, expect, kcsan, stages
from .util import log, run

if TYPE_CHECKING:
    import argparse

    from .arch import Arch
    from .check import Row
    from .console import Result
    from .kbuild import Build

REL = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))), "reliability")
PROGRAMS = ("kpfailnth", "kpfuzz", "kpstress", "kpperm")


@dataclass(frozen=True)
class Lane:
    """@phases: the rows rel.sh runs, in order; @budget: rel.env
    defaults (seconds are upper bounds, counts the aim); @append: kernel
    command line"""
    phases: tuple[str, ...]
    budget: dict[str, str]
    append: str


# What a lane's phases may take beyond their budgets' -t: the phases
# without one (perm, kmemleak, lockdown) and cleaning up between them
PHASES_SLACK = 300


LANES = {
    "debug": Lane(("kmemleak-baseline", "failnth", "fuzz", "stress", "perm",
                   "kmemleak", "lockdown"),
                  {"REL_FAILNTH_ARGS": "-m 400 -t 600",
                   "REL_FUZZ_ARGS": "-n 20000 -t 150 -s 1",
                   "REL_STRESS_ARGS": "-t 90 -s 1"},
                  "kasan_multi_shot"),
    "kcsan": Lane(("fuzz", "stress"),
                  {"REL_FUZZ_ARGS": "-n 20000 -t 300 -s 1",
                   "REL_STRESS_ARGS": "-t 300 -s 1"},
                  ""),
    # LONG=1: the long runs, without the ftracetests (unless TESTS= names
    # some); on the debug kernel, and with DEBUG=0 on the normal one
    "long": Lane(("kmemleak-baseline", "fuzz", "stress", "kmemleak"),
                 {"REL_FUZZ_ARGS": "-n 200000 -t 3600 -s 1",
                  "REL_STRESS_ARGS": "-t 3600 -s 1"},
                 "kasan_multi_shot"),
    "long-plain": Lane(("fuzz",),
                       {"REL_FUZZ_ARGS": "-n 2000000 -t 7200 -s 1"},
                       ""),
}


def lane_name(args: argparse.Namespace) -> str:
    """The lane the options ask for; SystemExit on a kernel it cannot
    run on"""
    long_run = os.environ.get("LONG", "0") not in ("", "0")
    if args.kcsan:
        if long_run:
            raise SystemExit("probetest: LONG=1 and KCSAN=1 do not combine")
        return "kcsan"
    if long_run:
        return "long" if args.debug else "long-plain"
    if not args.debug:
        raise SystemExit("probetest: check-debug needs the debug kernel; "
                         "DEBUG=0 is for LONG=1")
    return "debug"


def lane_seconds(lane: Lane) -> int:
    """What the phases may take at most: PHASES_SLACK plus every
    -t SECONDS of the lane's budgets as they will run"""
    total = PHASES_SLACK
    for key, default in lane.budget.items():
        m = re.search(r"-t\s*(\d+)", os.environ.get(key) or default)
        total += int(m.group(1)) if m else 0
    return total


def programs(arch: Arch, outdir: str) -> dict[str, str]:
    """The guest programs, static, for arch; {name: path}."""
    out = {}
    for name in PROGRAMS:
        path = os.path.join(outdir, name)
        run([f"{arch.cross}gcc", "-O2", "-Wall", "-static", "-o", path,
             os.path.join(REL, f"{name}.c")])
        out[name] = path
    return out


# failnth.txt is written with x86_64 names: what they are elsewhere
CORPUS_NAMES = {
    "arm64": {"%di": "%x0", "%si": "%x1", "%dx": "%x2", "%cx": "%x3",
              "%r8": "%x4", "%r9": "%x5", "%ax": "%x0", "%ip": "%pc",
              "0xffffffff81000000": "0xffff800080000000"},
}


def corpus(archname: str, rundir: str) -> str:
    """failnth.txt for archname: the x86_64 corpus with its register
    names and kernel text address translated; the path to use."""
    src = os.path.join(REL, "failnth.txt")
    names = CORPUS_NAMES.get(archname)
    if not names:
        return src
    with open(src) as f:
        text = f.read()
    table = names
    pat = re.compile("|".join(re.escape(k) + r"\b" for k in table))
    out = os.path.join(rundir, "failnth.txt")
    with open(out, "w") as f:
        f.write(pat.sub(lambda m: table[m.group(0)], text))
    return out


def write_env(rundir: str, phases: Iterable[str],
              budget: Mapping[str, str]) -> str:
    """rel.env: the phases rel.sh runs and their budgets ({REL_*: value}
    defaults; make exports REL_* even when unset, so empty means the
    default); its path"""
    path = os.path.join(rundir, "rel.env")
    with open(path, "w") as f:
        f.write(f"REL_PHASES='{' '.join(phases)}'\n")
        for k, v in budget.items():
            f.write(f"{k}='{os.environ.get(k) or v}'\n")
    return path


def job(rundir: str, cases: Sequence[str], lane: Lane,
        last: Sequence[str] = ()) -> str:
    """Job script and rel.env (phases, budgets); the script's path.
    @last: cases that run after the phases (they damage the kernel)."""
    write_env(rundir, [p for p in lane.phases if p != "kmemleak-baseline"],
              lane.budget)
    script = os.path.join(rundir, "job.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\nsh /kpt/job/rel.sh pre\n")
        f.write(_ftrace_run(cases))
        f.write("sh /kpt/job/rel.sh\n")
        f.write(_ftrace_run(last))
    return script


def _ftrace_run(cases: Sequence[str]) -> str:
    """The job line that runs @cases, if any"""
    if not cases:
        return ""
    return (f"sh /kpt/guest/ftrace-run.sh {check.PER_CASE_TIMEOUT} \\\n" +
            " \\\n".join(f"\t{c}" for c in cases) + "\n")


def perm_path(archname: str) -> str:
    return os.path.join(REL, f"perm-{archname}.txt")


def compare_lines(res: Result, marker: str, row: str, path: str, kernel: str,
                  save: bool) -> list[Row]:
    """Rows comparing the console's marker lines with upstream's file."""
    got = [ln.split(marker, 1)[1].rstrip() for ln in res.lines
           if marker in ln]
    if save and kernel == "upstream":
        with open(path, "w") as f:
            f.write(f"# {marker.strip()} lines of KERNEL=upstream (debug "
                    f"config), {time.strftime('%Y-%m-%d')}\n")
            f.write("".join(f"{ln}\n" for ln in got))
        log(f"saved {path}")
    if not os.path.exists(path):
        return [(row, "MISSING", False, f"no {path}")]
    with open(path) as f:
        want = [ln.rstrip() for ln in f if not ln.startswith("#")]
    rows: list[Row] = []
    for i in range(max(len(got), len(want))):
        g = got[i] if i < len(got) else "(nothing)"
        w = want[i] if i < len(want) else "(nothing)"
        if g != w:
            rows.append((f"{row}:{i + 1}", "DIFFERENT", False,
                         f"got '{g}', upstream '{w}'"))
    if not rows:
        rows.append((row, "PASS", True,
                     f"{len(got)} lines equal to upstream's"))
    return rows


def perm_rows(res: Result, archname: str, kernel: str,
              save: bool) -> list[Row]:
    """Compare kpperm's output with upstream's recorded one."""
    return compare_lines(res, "@@KPT-PERM ", "rel/perm-equal",
                         perm_path(archname), kernel, save)


LOCKDOWN_APPEND = ("lockdown=confidentiality "
                   "kprobe_event=p:kprobes/lk_boot,vfs_read")


def lockdown_boot(args: argparse.Namespace, b: Build, base: str,
                  archname: str) -> list[Row]:
    """Second boot: lockdown=confidentiality with a kprobe_event= probe;
    its @@KPT-LKBOOT lines against 6.12's."""
    rundir, res = stages.boot(b, base, os.path.join(REL, "lockdown-boot.sh"),
                              "lockdown-boot", 900, stream=args.verbose,
                              append=LOCKDOWN_APPEND)
    rows = compare_lines(res, "@@KPT-LKBOOT ", "rel/lockdown-boot",
                         os.path.join(REL, f"lockdown-{archname}.txt"),
                         args.kernel, args.save_baseline)
    if not res.verdict().startswith("PASS"):
        rows.append(("rel/lockdown-boot-console", "FAIL", False,
                     f"{res.verdict()}; log {rundir}/console.log"))
    return rows


# Multi-threaded TCG runs the stress phase on these arches.  Not on
# x86_64 (QEMU 7.2): a vCPU may still execute a translation of the code
# text_poke_bp() is patching after the patch is done, so 6.12 as well
# died there in 5 boots of 7, at an int3 no patch owns any more
# (harness/results/long-runs.txt, "Multi-threaded TCG").
MT_ARCHES = ("arm64",)
MT_ACCEL = "tcg,thread=multi"
MT_STRESS_ARGS = "-t 300 -s 2"


def mt_boot(args: argparse.Namespace, b: Build, base: str,
            archname: str) -> list[Row]:
    """kpstress with both vCPUs running at once; its rows"""
    if archname not in MT_ARCHES:
        return []
    rundir = stages.rundir(args.kernel, archname, "stress-mt")
    env = write_env(rundir, ["stress-mt"], {
        "REL_STRESS_ARGS": os.environ.get("REL_MT_STRESS_ARGS") or
        MT_STRESS_ARGS})
    script = os.path.join(rundir, "job.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\nsh /kpt/job/rel.sh\n")
    files = {"kpstress": programs(b.arch, rundir)["kpstress"],
             "rel.sh": os.path.join(REL, "rel.sh"), "rel.env": env}
    _, res = stages.boot(b, base, script, "stress-mt", 1800,
                         stream=args.verbose, append=LANES["debug"].append,
                         files=files, accel=MT_ACCEL, run_dir=rundir)
    exp = expect.load(archname, args.kernel, flavour=b.flavour)
    rows = check.judge(res, ["rel/stress-mt"], exp)
    return [(k if check.is_case(k) else f"stress-mt/{k}", r, ok, note)
            for k, r, ok, note in rows]


def kcsan_path(archname: str) -> str:
    return os.path.join(REL, f"kcsan-{archname}.txt")


def kcsan_rows(res: Result, b: Build, archname: str, kernel: str,
               save: bool) -> list[Row]:
    """Take the KCSAN reports out of @res's splats; a row per race."""
    reports = kcsan.parse(res.lines, res.splats)
    titles = {r.lineno for r in reports}
    res.splats = [s for s in res.splats if s.lineno not in titles]
    keys = sorted({r.key for r in reports})
    if save and kernel == "upstream":
        with open(kcsan_path(archname), "w") as f:
            f.write(f"# KCSAN races of KERNEL=upstream (make check-debug "
                    f"KCSAN=1), {time.strftime('%Y-%m-%d')}\n")
            f.write("".join(f"{k}\n" for k in keys))
        log(f"saved {kcsan_path(archname)}")
    reference = None if kernel == "upstream" else \
        kcsan.load_reference(kcsan_path(archname))
    rows = kcsan.rows(reports, kcsan.product_symbols(b), reference)
    return rows or [("kcsan", "PASS", True, "no KCSAN report")]


def check_debug(args: argparse.Namespace, archname: str) -> list[int]:
    """One arch; returns (passed, failed)."""
    name = lane_name(args)
    lane = LANES[name]
    b, base, testsrc = stages.prepare(archname, args.kernel,
                                      stages.flavour(args))
    exp = expect.load(archname, args.kernel, flavour=b.flavour)
    cases = [] if name.startswith("long") and not args.tests else \
        check.order(check.select(testsrc, args.tests), exp)
    # A case known to damage this kernel (6.12's symstr overrun of the
    # ring buffer), last in @cases, would take the phases down with it: it
    # runs after them, unless the lane ends locked down
    last = [] if "lockdown" in lane.phases else \
        [c for c in cases if check.damaging(c, exp)]
    healthy = cases[:len(cases) - len(last)]
    rundir = stages.rundir(args.kernel, archname, f"check-{name}")
    files = programs(b.arch, rundir)
    files.update({"rel.sh": os.path.join(REL, "rel.sh"),
                  "failnth.txt": corpus(archname, rundir)})
    script = job(rundir, healthy, lane, last)
    files["rel.env"] = os.path.join(rundir, "rel.env")
    timeout = args.timeout or (check.boot_timeout(cases) * 3 +
                               lane_seconds(lane))
    _, res = stages.boot(b, base, script, f"check-{name}", timeout,
                         stream=args.verbose, append=lane.append,
                         files=files, run_silence=900, run_dir=rundir)
    races: list[Row] = []
    if name == "kcsan":
        races = kcsan_rows(res, b, archname, args.kernel, args.save_baseline)
    rows = check.judge(res, cases + [f"rel/{p}" for p in lane.phases], exp)
    rows += races
    if name == "debug":
        rows += perm_rows(res, archname, args.kernel, args.save_baseline)
        rows += lockdown_boot(args, b, base, archname)
        rows += mt_boot(args, b, base, archname)
    totals = [0, 0]
    for key, result, ok, note in rows:
        print(f"{'ok  ' if ok else 'FAIL'} {archname:7} {args.kernel:8} "
              f"{result:11} {key}" + (f"  ({note})" if note else ""),
              flush=True)
        totals[0 if ok else 1] += 1
    for ln in res.lines:
        if ln.startswith(("kpfuzz:", "kpstress:", "kpfailnth:",
                          "kmemleak:")):
            print(f"note {archname}: {ln.strip()}")
    check.save_results(os.path.join(rundir, "results.txt"), rows)
    print(f"probetest: {archname} {args.kernel} {name}: "
          f"{res.verdict(exp.allowed_console())}; log {rundir}/console.log",
          flush=True)
    return totals
