"""Boot a kernel in QEMU, stream and save the console, give a verdict.

Every boot has -no-reboot, panic=-1 and a timeout; the whole console goes
to console.log and a one-line verdict to verdict beside it.
"""

import os
import selectors
import subprocess
import sys
import time

from . import arch as archmod
from . import console
from .util import log


def command(build, initrd, interactive=False, icount=False, append=""):
    a = build.arch
    cmdline = (f"console={a.console} panic=-1 rdinit=/init "
               f"printk.devkmsg=on {a.append} {append}").split()
    cmd = [a.qemu, "-accel", archmod.host_accel(a, icount), *a.machine,
           "-m", "2048", "-smp", "2", "-nodefaults", "-no-reboot",
           "-display", "none", "-kernel", build.image, "-initrd", initrd,
           "-append", " ".join(cmdline), *a.qemu_extra]
    if icount:
        cmd += ["-icount", "shift=0"]
    if interactive:
        cmd += ["-chardev", "stdio,id=con,mux=on,signal=off",
                "-serial", "chardev:con", "-mon", "chardev=con"]
    else:
        cmd += ["-serial", "stdio", "-monitor", "none"]
    return cmd


def interactive(build, initrd, rundir):
    cmd = command(build, initrd, interactive=True)
    log("QEMU: Ctrl-a x quits, 'exit' in the shell reboots (= quits)")
    logpath = os.path.join(rundir, "console.log")
    cmd[cmd.index("stdio,id=con,mux=on,signal=off")] += f",logfile={logpath}"
    return subprocess.call(cmd)


def boot(build, initrd, rundir, timeout, stream=True, icount=False,
         append=""):
    """Boot non-interactively; return the parsed console (console.Result)."""
    cmd = command(build, initrd, icount=icount, append=append)
    logpath = os.path.join(rundir, "console.log")
    with open(os.path.join(rundir, "qemu.cmd"), "w") as f:
        f.write(" ".join(cmd) + "\n")
    log(f"booting {build.kernel} {build.arch.name} (timeout {timeout}s), "
        f"console: {logpath}")
    t0 = time.monotonic()
    timed_out = _pump(cmd, logpath, timeout, stream)
    with open(logpath, errors="replace") as f:
        res = console.parse(f.read().splitlines(), timed_out=timed_out)
    res.seconds = time.monotonic() - t0
    with open(os.path.join(rundir, "verdict"), "w") as f:
        f.write(res.verdict() + "\n")
    return res


def _pump(cmd, logpath, timeout, stream):
    """Copy QEMU's console to the log (and stdout); True if it timed out."""
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    timed_out = False
    with open(logpath, "wb") as logf:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            if not sel.select(timeout=min(left, 5)):
                continue
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            chunk = chunk.replace(b"\r", b"")
            logf.write(chunk)
            if stream:
                sys.stdout.buffer.write(chunk)
                sys.stdout.flush()
    if timed_out:
        proc.kill()
    proc.wait()
    return timed_out
