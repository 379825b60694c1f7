"""make check-arches: our tree builds on the architectures we do not boot.

Every architecture that had probe events in 6.12 must still build with
the series.  For each of arch.BUILD_ONLY, build tinyconfig plus
harness/config/arches.config and the arch's fragment with Debian's cross
compiler, and fail on a build error or on any compiler or linker warning
in a file the series adds or patches.  Prints, per arch, the probe event
options the build ended up with and how long it took.
"""

import os
import re
import time
from typing import Container, Sequence

from . import arch as archmod
from . import deps, kbuild, tree
from .util import log

PROBE_OPTIONS = ("CONFIG_KPROBE_EVENTS", "CONFIG_UPROBE_EVENTS",
                 "CONFIG_FPROBE_EVENTS", "CONFIG_BPF_EVENTS",
                 "CONFIG_PROBE_EVENTS_ARGS_TEST",
                 "CONFIG_HAVE_FUNCTION_ARG_ACCESS_API")

_WARN = re.compile(r"^(?:\S*?/)?((?:arch|include|kernel|lib|mm|fs)/\S+?):"
                   r"\d+(?::\d+)?: (warning|error):")




def problems(logf: str, ours: Container[str]) -> list[str]:
    """Warning and error lines of a build log that point into @ours."""
    out = []
    with open(logf, errors="replace") as f:
        for line in f:
            m = _WARN.match(line.strip())
            if m and m.group(1) in ours:
                out.append(line.rstrip())
    return out


def _options(dotconfig: str) -> str:
    have = {}
    with open(dotconfig) as f:
        for line in f:
            m = re.match(r"^(CONFIG_\w+)=(.*)$", line.strip())
            if m:
                have[m.group(1)] = m.group(2)
    return " ".join(f"{o[7:]}={have.get(o, 'n')}" for o in PROBE_OPTIONS)


def build_one(a: archmod.Arch,
              ours: Container[str]) -> tuple[bool, float, list[str]]:
    """Build arch @a; (ok, seconds, summary lines)."""
    frags = [os.path.join(kbuild.CONFIG_DIR, "arches.config"),
             os.path.join(kbuild.CONFIG_DIR, a.fragment)]
    b = kbuild.Build("ours", a, frags=frags)
    t0 = time.monotonic()
    with kbuild.locked(os.path.basename(b.dir)):
        b.src = kbuild.source("ours")
        b.configure(check=False)
        logf = os.path.join(b.dir, "build.log")
        log(f"check-arches: building {a.name} in {b.dir}")
        with open(logf, "w") as f:
            rc = b.make(os.path.basename(a.image), "modules", logf=f)
    secs = time.monotonic() - t0
    bad = problems(logf, ours)
    lines = [_options(os.path.join(b.dir, ".config"))]
    lines += bad[:20]
    if rc:
        with open(logf, errors="replace") as f:
            tail = f.read().splitlines()[-15:]
        lines += ["make failed:"] + tail + [f"see {logf}"]
    return rc == 0 and not bad, secs, lines


def check(names: Sequence[str]) -> int:
    """Build each of @names (default: all of arch.BUILD_ONLY); failures."""
    ours = tree.series_files()
    failed = 0
    for name in names or archmod.BUILD_ONLY:
        a = archmod.BUILD_ONLY.get(name)
        if not a:
            raise SystemExit(f"probetest: check-arches knows "
                             f"{' '.join(archmod.BUILD_ONLY)}, not {name}")
        deps.ensure(a)
        ok, secs, lines = build_one(a, ours)
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'}  {name:8} {secs:5.0f} s",
              flush=True)
        for line in lines:
            print(f"      {line}", flush=True)
    return failed
