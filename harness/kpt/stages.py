"""The one way every command builds a kernel and boots it.

prepare() builds a kernel and the base initramfs; boot() boots it once
with a job (a script, or a shell), keeping the console in a run
directory of its own.  check, exec, bench, clients, diff and the
reliability lane all go through these, in process.
"""

import argparse
import os
import shutil
from typing import Optional, Sequence, Tuple

from . import arch as archmod
from . import check, console, deps, initramfs, kbuild, paths, qemu


def rundir(kernel: str, archname: str, label: str) -> str:
    """A new directory under KPT_ROOT/runs for one boot."""
    return paths.new_run(f"{kernel}-{archname}-{label}")


def env(b: kbuild.Build) -> dict[str, str]:
    """The variables a guest job sees about its kernel."""
    return {"KPT_KERNEL": b.kernel, "KPT_ARCH": b.arch.name}


def initrd(run_dir: str, base: str, mode: str, script: Optional[str],
           job_env: dict[str, str], files: Optional[dict[str, str]] = None,
           extra: Sequence[str] = ()) -> str:
    """The base initramfs, @extra archives and a job, in one; its path."""
    jobarch = initramfs.job(run_dir, mode, script, job_env, files)
    out = os.path.join(run_dir, "initrd.cpio.gz")
    with open(out, "wb") as f:
        for part in (base, *extra, jobarch):
            with open(part, "rb") as p:
                shutil.copyfileobj(p, f)
    return out


def flavour(args: argparse.Namespace) -> str:
    """The kernel flavour the options ask for (kbuild.FLAVOURS)"""
    if args.kcsan:
        return "kcsan"
    if getattr(args, "bti", False):
        return "bti"
    if getattr(args, "tags", False):
        return "tags"
    if getattr(args, "dump", False):
        return "dump"
    return "debug" if args.debug else ""


def prepare(archname: str, kernel: str = "ours",
            flavour: str = "") -> Tuple[kbuild.Build, str, str]:
    """Build @kernel for @archname and the base initramfs;
    (build, base initramfs, ftracetest sources)."""
    a = archmod.get(archname)
    deps.ensure(a)
    b = kbuild.Build(kernel, a, flavour).build()
    testsrc = check.testsrc()
    return b, initramfs.base(b, testsrc), testsrc


def boot(b: kbuild.Build, base: str, script: str, label: str,
         timeout: int = 1800, append: str = "", icount: bool = False,
         files: Optional[dict[str, str]] = None, stream: bool = True,
         run_silence: Optional[int] = None,
         job_env: Optional[dict[str, str]] = None,
         extra: Sequence[str] = (), accel: Optional[str] = None,
         run_dir: Optional[str] = None) -> Tuple[str, console.Result]:
    """Boot @b once running @script; (run directory, console.Result).
    @run_dir: one rundir() gave already (the job's files are in it);
    else a new one for @label.  The console is in RUNDIR/console.log."""
    d = run_dir or rundir(b.kernel, b.arch.name, label)
    rd = initrd(d, base, "script", script, job_env or env(b), files, extra)
    res = qemu.boot(b, rd, d, timeout, stream=stream, icount=icount,
                    append=append, run_silence=run_silence, accel=accel)
    return d, res
