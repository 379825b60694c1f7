"""Boot a kernel in QEMU, stream and save the console, give a verdict.

Every boot has -no-reboot, panic=-1 and a timeout; the whole console goes
to console.log and a one-line verdict to verdict beside it.
"""

from __future__ import annotations

import os
import selectors
import shlex
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Optional, Sequence

from . import arch as archmod
from . import console
from .util import log

if TYPE_CHECKING:
    from .kbuild import Build

# Seconds without console output before the guest's userland starts
# that mean a hung boot.  A debug kernel (KASAN, lockdep) runs the ftrace
# start-up tests several times slower: after "Testing tracer nop: PASSED"
# it printed nothing for over 120 s on a busy host, and the boot was
# taken for hung twice in a row.
BOOT_SILENCE = 120
DEBUG_BOOT_SILENCE = 600
BOOTED = b"@@KPT-BOOTED"


def command(build: Build, initrd: str, interactive: bool = False,
            icount: bool = False, append: str = "",
            accel: Optional[str] = None) -> list[str]:
    """@accel: QEMU's -accel, instead of archmod.host_accel()'s choice"""
    a = build.arch
    cmdline = (f"console={a.console} panic=-1 rdinit=/init "
               f"printk.devkmsg=on {a.append} {append}").split()
    cmd = [a.qemu, "-accel", accel or archmod.host_accel(a, icount),
           *a.machine,
           "-m", "2048", "-smp", "2", "-nodefaults", "-no-reboot",
           "-display", "none", "-kernel", build.image, "-initrd", initrd,
           "-append", " ".join(cmdline), *a.qemu_extra]
    # KPT_QEMU_EXTRA: more QEMU options, e.g. "-gdb tcp::1234" to look
    # at a hung guest's vCPUs with gdb
    cmd += shlex.split(os.environ.get("KPT_QEMU_EXTRA", ""))
    if icount:
        # One guest ns per guest instruction; idle time skipped.
        cmd += ["-icount", "shift=0,sleep=off"]
    if interactive:
        cmd += ["-chardev", "stdio,id=con,mux=on,signal=off",
                "-serial", "chardev:con", "-mon", "chardev=con"]
    else:
        cmd += ["-serial", "stdio", "-monitor", "none"]
    return cmd


def interactive(build: Build, initrd: str, rundir: str) -> int:
    cmd = command(build, initrd, interactive=True)
    log("QEMU: Ctrl-a x quits, 'exit' in the shell reboots (= quits)")
    logpath = os.path.join(rundir, "console.log")
    cmd[cmd.index("stdio,id=con,mux=on,signal=off")] += f",logfile={logpath}"
    return subprocess.call(cmd)


def boot(build: Build, initrd: str, rundir: str, timeout: int,
         stream: bool = True, icount: bool = False, append: str = "",
         run_silence: Optional[int] = None,
         accel: Optional[str] = None) -> console.Result:
    """Boot non-interactively; return the parsed console (console.Result).

    A guest that falls silent before its userland starts is a boot hang
    (seen under TCG on a loaded host, never inside a test): it is logged,
    its console kept as console.hung.log, and the boot tried once more.
    """
    cmd = command(build, initrd, icount=icount, append=append, accel=accel)
    logpath = os.path.join(rundir, "console.log")
    with open(os.path.join(rundir, "qemu.cmd"), "w") as f:
        f.write(" ".join(cmd) + "\n")
    t0 = time.monotonic()
    for attempt in (1, 2):
        log(f"booting {build.kernel} {build.arch.name} (timeout {timeout}s)"
            f", console: {logpath}")
        why, booted = _pump(cmd, logpath, timeout, stream, run_silence,
                            boot_silence(build))
        if why != "silent" or booted or attempt == 2:
            break
        log(f"guest hung during boot (no console output for "
            f"{boot_silence(build)}s); retrying once")
        os.replace(logpath, os.path.join(rundir, "console.hung.log"))
    with open(logpath, errors="replace") as f:
        res = console.parse(f.read().splitlines(), timed_out=why != "exit")
    res.seconds = time.monotonic() - t0
    with open(os.path.join(rundir, "verdict"), "w") as f:
        f.write(res.verdict() + "\n")
    return res


def boot_silence(build: Build) -> int:
    """Seconds of silence before userland that mean a hung boot"""
    return DEBUG_BOOT_SILENCE if getattr(build, "debug", False) \
        else BOOT_SILENCE


def _pump(cmd: Sequence[str], logpath: str, timeout: int, stream: bool,
          run_silence: Optional[int],
          silence: Optional[int] = None) -> tuple[str, bool]:
    """Copy QEMU's console to the log (and stdout) until QEMU exits.

    Return (why, booted): why is "exit", "timeout" (the whole run took too
    long) or "silent" (no output for @silence, default BOOT_SILENCE,
    seconds before userland started, or run_silence after, if given);
    booted tells if userland started.
    """
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = proc.stdout
    assert out is not None
    sel = selectors.DefaultSelector()
    sel.register(out, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    last = time.monotonic()
    booted = False
    tail = b""
    why = "exit"
    with open(logpath, "wb") as logf:
        while True:
            now = time.monotonic()
            quiet = (run_silence or timeout) if booted else \
                (silence or BOOT_SILENCE)
            if now >= deadline:
                why = "timeout"
                break
            if now - last >= quiet:
                why = "silent"
                break
            if not sel.select(timeout=min(deadline - now, 5)):
                continue
            chunk = os.read(out.fileno(), 65536)
            if not chunk:
                break
            last = time.monotonic()
            # the serial port writes a byte at a time: a marker can
            # straddle many reads, one byte each on a loaded host
            booted = booted or BOOTED in tail + chunk
            tail = (tail + chunk)[-len(BOOTED):]
            chunk = chunk.replace(b"\r", b"")
            logf.write(chunk)
            logf.flush()
            if stream:
                sys.stdout.buffer.write(chunk)
                sys.stdout.flush()
    if why != "exit":
        proc.kill()
    proc.wait()
    sel.close()
    out.close()
    return why, booted
