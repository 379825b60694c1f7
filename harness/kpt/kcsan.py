"""KCSAN reports on a guest console, each charged to the probe event
files or to the rest of the kernel (make check-debug KCSAN=1).

A report starts with "BUG: KCSAN: <kind> in A / B" (A and B: the
functions that made the two accesses; one of them for a race at unknown
origin), then one stack per access, then "Reported by Kernel Concurrency
Sanitizer".  A report is ours when A or B is a function defined in one of
the probe event objects (PROBE_OBJECTS, the same names in 6.12's tree),
which nm lists from the build directory.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, AbstractSet, Iterable, Optional, Sequence

if TYPE_CHECKING:
    from . import console, kbuild
    from .check import Row

# The probe event objects in kernel/trace: the kcsan flavour compiles them
# with KCSAN (kbuild.Build.make_vars()) and a race in them is ours; a
# name a tree does not have is skipped.  The arch parts (arch/*/kernel/
# *probes/) stay uninstrumented, as their directories want, so no
# access of theirs can be reported.
PROBE_OBJECTS = ("trace_probe", "trace_kprobe", "trace_uprobe",
                 "trace_fprobe", "trace_eprobe", "trace_dynevent",
                 "trace_btf", "probe_btf", "probe_event", "probe_fetch",
                 "probe_kenv")

_STAMP = re.compile(r"^.*?\[\s*\d+\.\d+\]\s?")
_TITLE = re.compile(r"BUG: KCSAN: (.+?) in (\S+)(?: / (\S+))?\s*$")
_ACCESS = re.compile(r" to 0x[0-9a-f]+ of \d+ bytes by .* on cpu \d+:")
_FRAME = re.compile(r"^\s*([\w.]+)\+0x[0-9a-f]+/0x[0-9a-f]+")
_END = re.compile(r"Reported by Kernel Concurrency Sanitizer")


@dataclass
class Report:
    lineno: int                 # the title's line, 1-based
    kind: str                   # "data-race", "assert: race", ...
    funcs: tuple[str, ...]      # the accessing functions, from the title
    test: str                   # the case or phase running at the time
    # [[function, ...]]
    stacks: list[list[str]] = field(default_factory=list)

    @property
    def key(self) -> str:
        """The race, the same on every kernel: kind and sorted pair"""
        return f"{self.kind} in {' / '.join(sorted(self.funcs))}"


def base_name(sym: str) -> str:
    """A function's name without its offset (func+0x1c/0x80) or gcc's
    clone suffix (.isra.0, ...)"""
    return re.split(r"[.+]", sym, maxsplit=1)[0]


def parse(lines: Sequence[str],
          splats: Iterable[console.Splat]) -> list[Report]:
    """The reports in console @lines.  Their titles are among @splats
    (console.parse() finds "BUG: KCSAN: ..." and the case or phase
    running at the time); the stacks follow each title."""
    out = []
    for s in splats:
        m = _TITLE.search(s.line)
        if not m:
            continue
        funcs = tuple(base_name(f) for f in m.group(2, 3) if f)
        r = Report(s.lineno, m.group(1), funcs, s.test)
        for raw in lines[s.lineno:]:
            line = _STAMP.sub("", raw)
            if _END.search(line) or _TITLE.search(line):
                break
            if _ACCESS.search(line):
                r.stacks.append([])
            elif r.stacks:
                f = _FRAME.match(line)
                if f:
                    r.stacks[-1].append(base_name(f.group(1)))
        out.append(r)
    return out


def product_symbols(build: kbuild.Build) -> set[str]:
    """Functions defined in the product's objects of @build"""
    nm = f"{build.arch.cross}nm" if build.arch.cross else "nm"
    syms = set()
    for obj in PROBE_OBJECTS:
        path = os.path.join(build.dir, "kernel/trace", f"{obj}.o")
        if not os.path.exists(path):
            continue
        out = subprocess.run([nm, "--defined-only", path], check=True,
                             capture_output=True, text=True).stdout
        for ln in out.splitlines():
            parts = ln.split()
            if len(parts) == 3 and parts[1] in "tTW":
                syms.add(base_name(parts[2]))
    return syms


def load_reference(path: str) -> Optional[set[str]]:
    """Keys of the races a reference run (6.12's) saw, or None"""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return {ln.rstrip("\n") for ln in f if not ln.startswith("#")}


def rows(reports: Iterable[Report], syms: AbstractSet[str],
         reference: Optional[AbstractSet[str]]) -> list[Row]:
    """One row per race (key, result, ok, note): a race in the product's
    files fails, one elsewhere is listed with whether @reference (the
    keys 6.12 showed, None when not run) has it."""
    by_key: dict[str, list[Report]] = {}
    for r in reports:
        by_key.setdefault(r.key, []).append(r)
    out = []
    for key, group in by_key.items():
        first = group[0]
        ours = [f for f in first.funcs if f in syms]
        via = sorted({f for r in group for st in r.stacks for f in st[:6]
                      if f in syms} - set(ours))
        if reference is None:
            seen = "6.12 not run"
        else:
            seen = "6.12 too" if key in reference else "not in 6.12's run"
        where = (f"in {', '.join(ours)}" if ours else
                 "elsewhere" + (f", called from {', '.join(via)}"
                                if via else ""))
        out.append((f"kcsan:{key}", "RACE", not ours,
                    f"{len(group)}x, first line {first.lineno} "
                    f"[{first.test or '(boot)'}]; {where}; {seen}"))
    return out
