"""cold-run: .ci/run as CI meets it, on a machine that has nothing yet.

A Debian minbase chroot (debootstrap) with the host's apt sources and
git, a clone of the repo's HEAD, an empty KPT_ROOT and ccache inside
it: every package, the kernel tree, both kernel builds and every boot
happen in the run, which is timed line by line.  The log goes to
KPT_ROOT/runs/<stamp>-cold-run/cold-run.log and ends with the phases
(each command make ran, and when).  Needs root (chroot, mount).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import time
from typing import IO

from . import deps, paths
from .util import log, run

# what a CI runner has before it runs .ci/run: git to clone with
RUNNER = ("git", "ca-certificates")
# what the guests and builds need of the host inside the chroot
MOUNTS = ((["-t", "proc"], "proc", "proc"), (["-t", "sysfs"], "sys", "sys"),
          (["--rbind"], "/dev", "dev"))
# where the clone goes inside the chroot
CLONE = "/ci/repo"
# what .ci/run and the Makefile install before the first phase
START = ".ci/run: make, make deps"
# the commands make echoes, one per phase of make check
_PHASE = re.compile(r"^(?:\w+=\S+ )*(harness/probetest \S+( \S+)?|"
                    r"python3 -m unittest|pyflakes3|cd harness && mypy)")


def _mounts_under(root: str) -> list[str]:
    with open("/proc/self/mounts") as f:
        points = [line.split()[1] for line in f]
    return [p for p in points if p == root or p.startswith(root + "/")]


def _umount_all(root: str) -> None:
    for point in sorted(_mounts_under(root), key=len, reverse=True):
        subprocess.run(["umount", "-l", point])
    if _mounts_under(root):
        raise SystemExit(f"cold-run: still mounted under {root}; not "
                         "removing it")


def _chroot(root: str, *cmd: str) -> list[str]:
    return ["chroot", root, "env", "-i", "HOME=/root", "TERM=dumb",
            "DEBIAN_FRONTEND=noninteractive",
            "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
            "/sbin:/bin", *cmd]


def _make_root(root: str, suite: str) -> None:
    """A fresh minbase chroot with the host's apt sources and git."""
    _umount_all(root)
    shutil.rmtree(root, ignore_errors=True)
    run(["debootstrap", "--variant=minbase", suite, root, deps.MIRROR],
        stdout=subprocess.DEVNULL)
    sources = "/etc/apt/sources.list.d"
    for name in os.listdir(sources):
        if name.endswith((".sources", ".list")):
            shutil.copy(os.path.join(sources, name),
                        os.path.join(root, sources[1:], name))
    # the host's sources replace debootstrap's one line
    os.unlink(os.path.join(root, "etc/apt/sources.list"))
    if os.path.exists("/etc/apt/sources.list"):
        shutil.copy("/etc/apt/sources.list",
                    os.path.join(root, "etc/apt/sources.list"))
    for opts, src, dst in MOUNTS:
        run(["mount", *opts, src, os.path.join(root, dst)])
    run(_chroot(root, "apt-get", "update", "-qq"))
    run(_chroot(root, "apt-get", "install", "-y", "-qq",
                "--no-install-recommends", *RUNNER),
        stdout=subprocess.DEVNULL)


def _timed(cmd: list[str], out: IO[str]
           ) -> tuple[int, list[tuple[int, str]], int]:
    """Run @cmd, each line of its output stamped with the seconds since
    its start, to @out and stdout; (exit status, phases, seconds of
    apt-get the harness logged)."""
    t0 = time.monotonic()
    phases: list[tuple[int, str]] = [(0, START)]
    apt = 0
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            errors="replace")
    assert proc.stdout is not None
    for line in proc.stdout:
        secs = int(time.monotonic() - t0)
        stamped = f"{secs:5d} {line}"
        out.write(stamped)
        print(stamped, end="", flush=True)
        m = _PHASE.match(line)
        if m:
            phases.append((secs, m.group(1)))
        m = deps.INSTALLED.search(line.rstrip())
        if m:
            apt += int(m.group(1))
    rc = proc.wait()
    phases.append((int(time.monotonic() - t0), "end"))
    return rc, phases, apt


def phase_table(phases: list[tuple[int, str]]) -> list[str]:
    """One line per phase: start, seconds, command."""
    return [f"{start:5d} s  {nxt - start:5d} s  {what}"
            for (start, what), (nxt, _) in zip(phases, phases[1:])]


def main(args: argparse.Namespace) -> int:
    if os.geteuid() != 0:
        raise SystemExit("cold-run: needs root (debootstrap, chroot, mount)")
    deps.install(("debootstrap",), "debootstrap")
    head = subprocess.run(["git", "-C", paths.REPO, "log", "--oneline",
                           "-1"], capture_output=True, text=True).stdout
    root = os.path.join(paths.root(), "coldroot")
    logpath = os.path.join(paths.new_run("cold-run"), "cold-run.log")
    log(f"cold-run: {args.suite} chroot in {root}, HEAD {head.strip()}")
    t0 = time.monotonic()
    try:
        _make_root(root, args.suite)
        setup = time.monotonic() - t0
        run(["git", "clone", "-q", paths.REPO, root + CLONE])
        with open(logpath, "w") as out:
            out.write(f"# cold-run of {head}")
            rc, phases, apt = _timed(_chroot(root, f"{CLONE}/.ci/run"), out)
            summary = ["cold-run phases (start, length, command):",
                       *phase_table(phases),
                       f"cold-run: .ci/run exit {rc}, {phases[-1][0]} s "
                       f"({apt} s of it the harness's apt-get) after "
                       f"{setup:.0f} s of debootstrap and git"]
            out.write("\n".join(summary) + "\n")
    finally:
        _umount_all(root)
    print("\n".join(summary) + f"; log {logpath}", flush=True)
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    return rc
