"""The guest userland: busybox, modules, ftracetest, and a job archive.

The base archive depends only on the build (modules) and the test tree;
each boot appends a small job archive (the script and its environment).
The kernel unpacks concatenated cpio archives in order.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from typing import TYPE_CHECKING, Mapping, Optional

from . import deps, paths
from .util import log, run

if TYPE_CHECKING:
    from .arch import Arch
    from .kbuild import Build

GUEST = os.path.join(paths.HARNESS, "guest")
FTRACE = "tools/testing/selftests/ftrace"


def busybox(arch: Arch) -> str:
    """A static busybox for the guest's architecture."""
    bb: Optional[str]
    if arch.deb_arch == "amd64":
        bb = "/bin/busybox"
        out = subprocess.run(["file", "-L", bb], capture_output=True,
                             text=True).stdout if shutil.which("file") else ""
        if "dynamically" in out:
            raise SystemExit("probetest: /bin/busybox is not static "
                             "(apt-get install busybox-static)")
        return bb
    d = os.path.join(paths.root(), f"busybox-{arch.deb_arch}")
    # Debian 13 packages install under /usr only.
    where = [os.path.join(d, sub, "busybox") for sub in ("bin", "usr/bin")]
    if not any(map(os.path.exists, where)):
        fetch_foreign_deb(arch.deb_arch, "busybox-static", d, arch.deb_suite)
    bb = next((p for p in where if os.path.exists(p)), None)
    if not bb:
        raise SystemExit("probetest: no busybox in "
                         f"busybox-static:{arch.deb_arch}")
    return bb


def fetch_foreign_deb(deb_arch: str, package: str, dest: str,
                      suite: str = "") -> None:
    """apt-get download a package of another architecture and unpack it.

    A private apt state directory keeps the host's dpkg architectures and
    package lists untouched.  A @suite other than the host's (an arch the
    host's release lacks) gets a private sources list of its own.
    """
    log(f"fetching {package}:{deb_arch}")
    opts, debdir = deps.foreign_apt(deb_arch, suite)
    run(["apt-get", *opts, "download", package], cwd=debdir,
        stderr=subprocess.DEVNULL)
    debs = sorted(glob.glob(os.path.join(debdir, f"{package}_*.deb")))
    if not debs:
        raise SystemExit(f"probetest: could not download {package}:{deb_arch}")
    tmp = dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    run(["dpkg-deb", "-x", debs[-1], tmp])
    shutil.rmtree(dest, ignore_errors=True)
    os.rename(tmp, dest)


def _cpio(rootdir: str, out: str) -> None:
    files = subprocess.run(["find", ".", "-mindepth", "1"], cwd=rootdir,
                           check=True, capture_output=True).stdout
    with open(out + ".tmp", "wb") as f:
        cpio = subprocess.Popen(["cpio", "-o", "-H", "newc", "-R", "0:0",
                                 "--quiet"], cwd=rootdir,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        gz = subprocess.Popen(["gzip", "-1"], stdin=cpio.stdout, stdout=f)
        assert cpio.stdout is not None
        cpio.stdout.close()
        cpio.communicate(files)
        if gz.wait() or cpio.returncode:
            raise SystemExit(f"probetest: cpio of {rootdir} failed")
    os.replace(out + ".tmp", out)


SIG_MAGIC = b"~Module signature appended~\n"


def unsign_modules(top: str) -> None:
    """Drop the appended signatures of the modules under top.

    The lockdown LSM (debug.config) selects MODULE_SIG, and this
    tinyconfig-based kernel rejects its own signatures with ENOENT (a
    crypto algorithm it lacks) and no message.  Unsigned, they load (the
    kernel is tainted 'E') until the lane turns lockdown on, last.
    Trailer: signature, struct module_signature (12 bytes, sig_len a
    big-endian u32 at its end), magic.
    """
    for d, _, names in os.walk(top):
        for n in names:
            if not n.endswith(".ko"):
                continue
            path = os.path.join(d, n)
            with open(path, "rb") as f:
                data = f.read()
            if not data.endswith(SIG_MAGIC):
                continue
            info = data[-len(SIG_MAGIC) - 12:-len(SIG_MAGIC)]
            cut = len(SIG_MAGIC) + 12 + int.from_bytes(info[8:12], "big")
            with open(path, "wb") as f:
                f.write(data[:-cut])


def base(build: Build, testsrc: str) -> str:
    """Base archive for a build: busybox, modules, ftracetest, guest files,
    and kpt_uentry (harness/guest/kpt_uentry.c, for the uretprobe tests).

    testsrc is the kernel tree whose selftests run (ours: upstream's tests
    plus ours), whichever kernel boots.
    """
    out = os.path.join(build.dir, "base.cpio.gz")
    with tempfile.TemporaryDirectory(dir=paths.root()) as r:
        for d in ("bin", "sbin", "usr/bin", "usr/sbin", "etc", "root", "kpt",
                  "lib"):
            os.makedirs(os.path.join(r, d), exist_ok=True)
        shutil.copy(busybox(build.arch), os.path.join(r, "bin/busybox"))
        run([f"{build.arch.cross}gcc", "-O2", "-Wall", "-static", "-o",
             os.path.join(r, "bin/kpt_uentry"),
             os.path.join(GUEST, "kpt_uentry.c")])
        shutil.copy(os.path.join(GUEST, "init"), os.path.join(r, "init"))
        shutil.copytree(GUEST, os.path.join(r, "kpt/guest"))
        shutil.copytree(os.path.join(testsrc, FTRACE),
                        os.path.join(r, "kpt/ftrace"), symlinks=True)
        mods = os.path.join(build.modroot, "lib/modules")
        if os.path.isdir(mods):
            shutil.copytree(mods, os.path.join(r, "lib/modules"),
                            symlinks=True, ignore=shutil.ignore_patterns(
                                "build", "source"))
        if build.flavour == "debug":
            unsign_modules(os.path.join(r, "lib/modules"))
        with open(os.path.join(r, "etc/passwd"), "w") as f:
            f.write("root:x:0:0:root:/root:/bin/sh\n"
                    "nobody:x:65534:65534:nobody:/:/bin/sh\n")
        with open(os.path.join(r, "etc/group"), "w") as f:
            f.write("root:x:0:\nnogroup:x:65534:\n")
        _cpio(r, out)
    return out


def job(rundir: str, mode: str, script: Optional[str], env: Mapping[str, str],
        files: Optional[Mapping[str, str]] = None) -> str:
    """Job archive: /kpt/job/run.sh, /kpt/job/env and files ({name: path},
    e.g. a benchmark program) as /kpt/job/<name>."""
    out = os.path.join(rundir, "job.cpio.gz")
    with tempfile.TemporaryDirectory(dir=paths.root()) as r:
        jd = os.path.join(r, "kpt/job")
        os.makedirs(jd)
        if script:
            shutil.copy(script, os.path.join(jd, "run.sh"))
        for name, path in (files or {}).items():
            shutil.copy(path, os.path.join(jd, name))
        env = dict(env, KPT_MODE=mode)
        with open(os.path.join(jd, "env"), "w") as f:
            for k, v in sorted(env.items()):
                f.write(f"export {k}='{v}'\n")
        _cpio(r, out)
    return out
