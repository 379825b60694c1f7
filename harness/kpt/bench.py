"""make bench: kbench in the guest, KERNEL=upstream vs KERNEL=ours.

harness/bench/kbench.c (a static program) and kbfloor.c (a module built
against each kernel) go into the job archive.  The icount suites (hit,
floor, scale) run in one boot per kernel under QEMU -icount shift=0, where
guest nanoseconds are guest instructions: deterministic, so one boot each
is enough.  The bulk suite needs wall-clock time: it boots without icount,
upstream and ours alternately, BULK_ROUNDS times each, and takes medians.
"""

from __future__ import annotations

import argparse
import os
import shlex
import re
import shutil
import statistics
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Iterable, Mapping, Optional

from . import paths, stages
from .util import log, run

if TYPE_CHECKING:
    from .arch import Arch
    from .kbuild import Build

BENCH = os.path.join(paths.HARNESS, "bench")
ICOUNT_SUITES = ("hit", "floor", "scale", "watch")
# the suites of the full icount table ("== icount ==")
TABLE_SUITES = ("hit", "floor", "scale")
WALL_SUITES = ("bulk",)
KERNELS = ("upstream", "ours")
_RECORD = re.compile(r"@@KB (\w+) (\S+)(.*)")
_FIELD = re.compile(r"(\w+)=(\S+)")
# Mid-function probe sites: plain instructions, like the anchors' "xor
# %edx,%edx" and arm64 "stp" (no branches, nothing PC-relative, which
# kprobes emulate, no arm64 ftrace entry nops).
_AVOID = re.compile(r"\b(nop|call|ret|jmp|j[a-z]+|bl?|b\.\w+|br|blr|cb\w+|"
                    r"tb\w+|adrp?|ldr\s+\w+,\s*[0-9a-f]+)\b|%rip|%gs")
# A kbench record: (kind, name, {field: value})
Record = tuple[str, str, dict[str, str]]


class Params:
    """What to run, from the environment (see the Makefile)."""

    def __init__(self, env: Mapping[str, str] = os.environ,
                 smoke: bool = False) -> None:
        self.suites = [s for s in re.split(r"[ ,]+", env.get("SUITE") or
                                           "hit,floor,scale,watch,bulk")
                       if s]
        for s in self.suites:
            if s not in ICOUNT_SUITES + WALL_SUITES:
                raise SystemExit(f"probetest: unknown SUITE '{s}'")
        long_mode = env.get("LONG", "0") not in ("", "0")
        self.long = long_mode
        self.iters = int(env.get("ITERS") or 200000)
        self.rounds = int(env.get("ROUNDS") or 5)
        self.cases = env.get("CASES", "")
        self.xcases = env.get("XCASES", "")
        self.scale = env.get("SCALE_COUNTS") or \
            ("0,1000,10000" if long_mode else "0,1000")
        self.bulk = env.get("BULK_COUNTS") or \
            ("10,100,1000,10000" if long_mode else "10,100,1000")
        self.bulk_rounds = int(env.get("BULK_ROUNDS") or 2)
        # Bulk in guest time under icount: grace periods and ticks count
        # as guest time, host noise does not; one boot each suffices.
        self.bulk_icount = env.get("BULK_ICOUNT", "0") not in ("", "0")
        self.smoke = smoke
        if smoke:
            self.suites = ["hit", "floor", "scale", "watch", "bulk"]
            self.iters, self.rounds = 2000, 1
            # one case of each probe type
            self.cases = ("kprobe-0,kretprobe-retval,filter-drop,"
                          "floor-kprobe,uprobe-string,uretprobe-retval,"
                          "fexit-4arg,tprobe-0,eprobe-2field,"
                          "wprobe-write,perf-bp-write,kprobe-store")
            self.scale, self.bulk, self.bulk_rounds = "0,10", "10", 1


# ----------------------------------------------------------------------
# What goes into the guest

def compile_prog(arch: Arch, outdir: str) -> str:
    """harness/bench/kbench.c, static, for the guest's architecture."""
    out = os.path.join(outdir, "kbench")
    run([f"{arch.cross}gcc", "-O2", "-Wall", "-static", "-o", out,
         os.path.join(BENCH, "kbench.c")])
    return out


def build_module(b: Build, outdir: str) -> str:
    """harness/bench/kbfloor.c as an external module of build b."""
    mdir = os.path.join(outdir, "kbfloor")
    os.makedirs(mdir, exist_ok=True)
    shutil.copy(os.path.join(BENCH, "kbfloor.c"), mdir)
    with open(os.path.join(mdir, "Kbuild"), "w") as f:
        f.write("obj-m := kbfloor.o\n")
    logpath = os.path.join(outdir, "kbfloor.log")
    with open(logpath, "w") as logf:
        if b.make(f"M={mdir}", "modules", logf=logf):
            raise SystemExit(f"probetest: building kbfloor.ko failed, see "
                             f"{logpath}")
    return os.path.join(mdir, "kbfloor.ko")


def symbol(arch: Arch) -> str:
    return {"x86_64": "__x64_sys_getppid",
            "arm64": "__arm64_sys_getppid"}[arch.name]


def offsets(b: Build) -> list[int]:
    """Instruction offsets inside the probed function, from vmlinux.

    kbench takes the first that registers (int3/BRK) or optimizes
    (optprobe); both kernels share the function's code.
    """
    sym = symbol(b.arch)
    out = subprocess.run([f"{b.arch.cross}objdump", "-d", "--no-show-raw-insn",
                          f"--disassemble={sym}",
                          os.path.join(b.dir, "vmlinux")],
                         capture_output=True, text=True).stdout
    insns = [(int(m.group(1), 16), m.group(2)) for m in
             re.finditer(r"^\s*([0-9a-f]+):\s+(.*)$", out, re.M)]
    if not insns:
        return []
    start = insns[0][0]
    return [a - start for a, text in insns[1:] if not _AVOID.search(text)]


def guest_files(b: Build, rundir: str) -> tuple[str, str, list[int]]:
    """(kbench, kbfloor.ko, offsets) for build b, built in rundir."""
    outdir = os.path.join(rundir, f"prog-{b.kernel}")
    os.makedirs(outdir, exist_ok=True)
    return compile_prog(b.arch, outdir), build_module(b, outdir), offsets(b)


def kbench_args(p: Params, suites: Iterable[str],
                offs: Iterable[int]) -> list[str]:
    args = ["-s", ",".join(suites), "-n", str(p.iters), "-r", str(p.rounds),
            "-N", p.scale, "-B", p.bulk,
            "-o", ",".join(map(str, offs)) or "0",
            "-m", "/kpt/job/kbfloor.ko"]
    if p.cases:
        args += ["-c", p.cases]
    if p.xcases:
        args += ["-x", p.xcases]
    return args


def job_script(path: str, args: Iterable[str]) -> None:
    with open(path, "w") as f:
        f.write("#!/bin/sh\n# kbench job (harness/kpt/bench.py)\n"
                f"/kpt/job/kbench {' '.join(map(shlex.quote, args))}\n")


# ----------------------------------------------------------------------
# Boots and records

def parse(lines: Iterable[str]) -> list[Record]:
    """@@KB lines: [(kind, name, {field: value})]."""
    recs = []
    for line in lines:
        m = _RECORD.search(line)
        if m:
            fields = dict(_FIELD.findall(m.group(3)))
            if m.group(1) in ("error", "skip"):
                fields["why"] = f"{m.group(2)}{m.group(3)}"
            recs.append((m.group(1), m.group(2), fields))
    return recs


def boot(prepared: tuple[Build, str, str], p: Params, suites: Iterable[str],
         label: str, icount: bool, timeout: int = 1800) -> list[Record]:
    """One guest run of kbench; its records, or SystemExit on failure."""
    b, base, _ = prepared
    rundir = stages.rundir(b.kernel, b.arch.name, label)
    prog, ko, offs = guest_files(b, rundir)
    script = os.path.join(rundir, "job.sh")
    job_script(script, kbench_args(p, suites, offs))
    _, res = stages.boot(b, base, script, label, timeout, stream=False,
                         icount=icount, append="tsc=reliable",
                         files={"kbench": prog, "kbfloor.ko": ko},
                         run_dir=rundir)
    recs = parse(res.lines)
    verdict = res.verdict()
    errors = [f["why"] for k, _, f in recs if k == "error"]
    log(f"{b.kernel} {b.arch.name} {label}: {verdict}; "
        f"{len(recs)} records; log {rundir}/console.log")
    if not verdict.startswith("PASS") or errors or \
            not any(k == "done" for k, _, _ in recs):
        raise SystemExit(f"probetest: bench {label} on {b.kernel} "
                         f"{b.arch.name}: {verdict}\n  " + "\n  ".join(errors)
                         + f"\n  console: {rundir}/console.log")
    return recs


# ----------------------------------------------------------------------
# Tables

def _num(v: Optional[str]) -> Optional[float]:
    return float(v) if v is not None else None


def _ratio(up: Optional[float], ours: Optional[float]) -> str:
    if up is None or ours is None or abs(up) < 1e-9:
        return "-"
    return f"{ours / up:.3f}"


def _row(name: str, up: Optional[float], ours: Optional[float],
         note: str = "") -> str:
    u = f"{up:.1f}" if up is not None else "-"
    o = f"{ours:.1f}" if ours is not None else "-"
    d = f"{ours - up:+.1f}" if up is not None and ours is not None else "-"
    return f"{name:24} {u:>10} {o:>10} {_ratio(up, ours):>7} {d:>8}  {note}"


def _head(first: str) -> str:
    return (f"{first:24} {'upstream':>10} {'ours':>10} {'ratio':>7} "
            f"{'diff':>8}  notes")


def icount_tables(recs: Mapping[str, list[Record]]) -> list[str]:
    """The hit/floor and scale tables, from {kernel: records}."""
    by = {k: {(kind, name): f for kind, name, f in r} for k, r in recs.items()}
    names = list(dict.fromkeys((kind, name) for r in recs.values()
                               for kind, name, _ in r
                               if kind in ("base", "hit", "scale", "skip")))
    out = ["per hit, guest instructions (icount), median of the per-round "
           "deltas", _head("case")]
    for kind, name in names:
        if kind == "skip":
            if ("hit", name) not in names:
                out.append(_row(name, None, None, "not on this arch"))
            continue
        ups, ours = by["upstream"].get((kind, name)), by["ours"].get(
            (kind, name))
        key = "ns" if kind == "base" else "delta"
        up_v = _num(ups.get(key)) if ups else None
        our_v = _num(ours.get(key)) if ours else None
        note = _note(kind, ups, ours)
        # a row one kernel skipped says why: 6.12 has no arm64 fprobes
        for k, r in (("upstream", ups), ("ours", ours)):
            skip = by[k].get(("skip", name))
            if not r and skip:
                why = skip["why"].split(" ", 1)[1:]
                note += f"; {k}: {why[0] if why else 'skipped'}"
        label = f"base {name}/call" if kind == "base" else name
        if kind == "scale":
            # some kernel recorded each row of names: ups or ours is set
            label = f"scale others={(ups or ours or {})['others']}"
        out.append(_row(label, up_v, our_v, note))
    for label, a, b, div, note in DERIVED:
        v = {k: _diff(by[k], a, b, div) for k in by}
        if all(x is not None for x in v.values()):
            out.append(_row(label, v["upstream"], v["ours"], note))
    return out


# Derived rows: (label, case a, case b, divisor, note) = (a - b) / divisor
DERIVED = (
    ("ring-buffer share", "kprobe-0", "tracing-off", 1,
     "kprobe-0 minus tracing-off"),
    ("per register arg", "kprobe-8reg", "kprobe-0", 8,
     "(kprobe-8reg - kprobe-0) / 8"),
    ("per deref arg", "kprobe-4deref", "kprobe-0", 4,
     "(kprobe-4deref - kprobe-0) / 4"),
)


def _note(kind: str, ups: Optional[dict[str, str]],
          ours: Optional[dict[str, str]]) -> str:
    f = ups or ours or {}
    if kind == "scale":
        add = [f"{k} {float(r['add']):.0f}" for k, r in
               (("upstream", ups), ("ours", ours))
               if r and float(r.get("add", 0))]
        return ("per add: " + ", ".join(add)) if add else ""
    if kind != "hit":
        return ""
    # one kernel at least recorded the row; kbench gives each hit a mech=
    mechs = [r.get("mech", "") for r in (ups, ours) if r]
    # "brk -> ftrace": how upstream hit, then how ours did
    note = " -> ".join(mechs) if len(set(mechs)) > 1 else mechs[0]
    if f.get("off") not in (None, "0"):
        note += f" at +{f['off']}"
    return note


def _diff(by: Mapping[tuple[str, str], dict[str, str]], a: str, b: str,
          div: int) -> Optional[float]:
    ra, rb = by.get(("hit", a)), by.get(("hit", b))
    if ra and rb:
        return (float(ra["delta"]) - float(rb["delta"])) / div
    return None


# "flush": an O_TRUNC of kprobe_events right after the deletes, which
# waits for kprobes that "-:" lines left unregistering in the background
# "again": the enable writes once more, changing nothing (their floor:
# the open/write/close, and the probes just enabled firing in them)
BULK_PHASES = ("add", "enable", "again", "disable", "delete", "flush")


def bulk_table(recs: Mapping[str, list[Record]],
               icount: bool = False) -> list[str]:
    """Medians over rounds of each phase, from {kernel: [records...]}."""
    cells: dict[tuple[str, int, str], dict[str, list[float]]] = {}
    for kernel, rr in recs.items():
        for kind, mode, f in rr:
            if kind != "bulk":
                continue
            for phase in BULK_PHASES:
                if phase not in f:
                    continue
                key = (mode, int(f["n"]), phase)
                cells.setdefault(key, {}).setdefault(kernel, []).append(
                    float(f[phase]))
    out = ["bulk, guest ms under icount (deterministic), one boot each"
           if icount else "bulk, wall-clock ms (TCG, no icount), median of "
           "interleaved boots", _head("mode n phase")]
    for key in sorted(cells, key=lambda k: (k[1], k[0] != "line",
                                            BULK_PHASES.index(k[2]))):
        c = cells[key]
        up = statistics.median(c["upstream"]) if "upstream" in c else None
        ours = statistics.median(c["ours"]) if "ours" in c else None
        n = max(len(v) for v in c.values())
        out.append(_row(f"{key[0]} {key[1]} {key[2]}", up, ours,
                        f"{n} boot(s)"))
    return out


# ----------------------------------------------------------------------
# Results file: sections, one per suite group, replaced when re-measured

def results_path(arch: str) -> str:
    return os.path.join(BENCH, f"results-{arch}.txt")


def _sections(text: str) -> dict[str, list[str]]:
    secs: dict[str, list[str]]
    cur: Optional[str]
    secs, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^== (\S+) ==", line)
        if m:
            cur = m.group(1)
            if cur in secs:
                # save() would keep one of the two and drop the other
                raise SystemExit(f"bench: two sections named {cur!r} in "
                                 "the results file; rename one")
            secs[cur] = []
        if cur:
            secs[cur].append(line)
    return secs


def save(path: str, arch: str, new: Mapping[str, list[str]]) -> str:
    """Replace the sections in new ({name: lines}) in the results file."""
    old = ""
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
    secs = _sections(old)
    secs.update(new)
    order = ["icount", "icount-hit", "bulk", "bulk-icount", "scale-long",
             "bulk-icount-long"]
    with open(path, "w") as f:
        f.write(f"# make bench ARCH={arch}: upstream vs ours, same config "
                "(harness/bench/kbench.c).\n# ratio = ours / upstream; "
                "diff = ours - upstream.  See README.md, Benchmarks.\n")
        for name in sorted(secs, key=lambda s: (order.index(s)
                                                if s in order else 9, s)):
            f.write("\n" + "\n".join(secs[name]).rstrip() + "\n")
    return path


def _stamp(builds: Mapping[str, Build], extra: str) -> list[str]:
    b = builds["ours"]
    qv = subprocess.run([b.arch.qemu, "--version"], capture_output=True,
                        text=True).stdout.splitlines()[0]
    rev = subprocess.run(["git", "-C", paths.REPO, "rev-parse", "--short",
                          "HEAD"], capture_output=True, text=True).stdout
    return [f"measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
            f", {b.release}, config {b.hash}, ours at {rev.strip()}"
            f"{' + local changes' if _dirty() else ''}", f"{qv}; {extra}"]


def _dirty() -> bool:
    r = subprocess.run(["git", "-C", paths.REPO, "status", "--porcelain",
                        "--", "kernel", "arch", "include", "*.patch",
                        "patches"],
                       capture_output=True, text=True)
    return bool(r.stdout.strip())


# ----------------------------------------------------------------------
# Entry points

def run_icount(prepared: Mapping[str, tuple[Build, str, str]], p: Params,
               arch: str) -> Optional[list[str]]:
    suites = [s for s in p.suites if s in ICOUNT_SUITES]
    if not suites:
        return None
    recs = {k: boot(prepared[k], p, suites, "bench", icount=True)
            for k in KERNELS}
    builds = {k: prepared[k][0] for k in KERNELS}
    # the header names the section save() files it under
    lines = [f"== {icount_section(p)} == suites {','.join(suites)}, "
             f"ITERS={p.iters} "
             f"ROUNDS={p.rounds}, SCALE_COUNTS={p.scale}",
             *_stamp(builds, "-icount shift=0,sleep=off, -smp 2"), "",
             *icount_tables(recs)]
    if "scale" in suites:
        lines[1:1] = ["'per add' at N others: the mean over the events "
                      "added since the count before N"]
    return lines


def run_bulk(prepared: Mapping[str, tuple[Build, str, str]], p: Params,
             arch: str) -> Optional[list[str]]:
    if "bulk" not in p.suites:
        return None
    recs: dict[str, list[Record]] = {k: [] for k in KERNELS}
    rounds = 1 if p.bulk_icount else p.bulk_rounds
    for r in range(rounds):
        for k in KERNELS:
            recs[k] += boot(prepared[k], p, ["bulk"], f"bulk{r + 1}",
                            icount=p.bulk_icount, timeout=3600)
    builds = {k: prepared[k][0] for k in KERNELS}
    how = ("-icount shift=0,sleep=off (guest time)" if p.bulk_icount
           else "TCG thread=single, tsc=reliable (wall clock)")
    return [f"== {bulk_section(p)} == BULK_COUNTS={p.bulk} "
            f"rounds={rounds}, kprobe events p:kb{{l,b}}N/fI on distinct "
            "functions",
            *_stamp(builds, f"{how}, -smp 2"), "",
            *bulk_table(recs, p.bulk_icount)]


def bulk_section(p: Params) -> str:
    """LONG runs have sections of their own: they take too long to redo."""
    return ("bulk-icount" if p.bulk_icount else "bulk") + \
        ("-long" if p.long else "")


def icount_section(p: Params) -> str:
    """A run of some icount suites only (SUITE=hit) gets a section of its
    own: it would replace the whole table and lose the other suites' rows.
    The table is hit, floor and scale's, with watch's rows when it ran."""
    if p.long:
        return "scale-long"
    suites = [s for s in ICOUNT_SUITES if s in p.suites]
    return "icount" if set(TABLE_SUITES) <= set(suites) else \
        "icount-" + "-".join(suites)


def main(args: argparse.Namespace) -> int:
    """make bench: both kernels, print the tables, update the results."""
    p = Params()
    status = 0
    for name in args.arches:
        t0 = time.monotonic()
        prepared = {k: stages.prepare(name, k, stages.flavour(args))
                    for k in KERNELS}
        new: dict[str, list[str]] = {}
        for sec, fn in ((icount_section(p), run_icount),
                        (bulk_section(p), run_bulk)):
            lines = fn(prepared, p, name)
            if lines:
                new[sec] = lines
                print("\n".join(lines) + "\n", flush=True)
        if p.xcases:
            log(f"{name}: XCASES is an experiment: results not saved")
            continue
        path = save(results_path(name), name, new)
        log(f"{name}: bench took {time.monotonic() - t0:.0f}s; "
            f"results in {path}")
        plot = subprocess.run([sys.executable, os.path.join(BENCH, "plot.py")],
                              capture_output=True, text=True)
        log(f"plot: {plot.stdout.strip() or plot.stderr.strip()}")
    return status


def smoke(args: argparse.Namespace) -> int:
    """make bench-smoke: one short boot of ours; fails if kbench fails."""
    p = Params(smoke=True)
    name = args.arches[0]
    prepared = stages.prepare(name, "ours", stages.flavour(args))
    recs = boot(prepared, p, p.suites, "bench-smoke", icount=True,
                timeout=300)
    # a case the arch does not have is a "skip" record, and not wanted
    skipped = {n for k, n, f in recs if k == "skip"}
    want = set(p.cases.split(",")) - skipped | {"scale-0", "scale-10"}
    got = {n for k, n, _ in recs if k in ("hit", "scale")}
    bulk = [f for k, _, f in recs if k == "bulk"]
    if want - got or not bulk:
        raise SystemExit(f"probetest: bench-smoke: missing records "
                         f"{sorted(want - got)}{' bulk' if not bulk else ''}")
    for kind, n, f in recs:
        if kind in ("hit", "scale", "base", "bulk"):
            print(f"bench-smoke {name}: {kind} {n} " +
                  " ".join(f"{k}={v}" for k, v in f.items()))
    print(f"bench-smoke {name}: ok ({len(recs)} records)")
    return 0
