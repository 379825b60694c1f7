"""Install the Debian packages the harness needs, if any are missing."""

import os
import shutil
import subprocess

from .util import log, run

COMMON = ("make", "gcc", "libc6-dev", "flex", "bison", "bc", "libelf-dev",
          "libssl-dev", "cpio", "gzip", "xz-utils", "kmod", "patch", "file",
          "dwarves", "ccache", "busybox-static", "linux-source-6.12",
          "python3", "perl", "pyflakes3")

_checked = set()


def missing(packages):
    out = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package} ${db:Status-Abbrev}\n",
         *packages], capture_output=True, text=True).stdout
    have = {line.split()[0] for line in out.splitlines()
            if len(line.split()) > 1 and line.split()[1].startswith("ii")}
    return [p for p in packages if p not in have]


def ensure(arch):
    """apt-get install whatever this arch's build and boot still lack."""
    if arch.name in _checked:
        return
    need = missing(COMMON + arch.packages)
    if need:
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        if sudo and not shutil.which("sudo"):
            raise SystemExit("ktest: need root to install: " + " ".join(need))
        log("installing: " + " ".join(need))
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        run([*sudo, "apt-get", "update", "-qq"], env=env)
        run([*sudo, "apt-get", "install", "-y", "-qq",
             "--no-install-recommends", *need], env=env,
            stdout=subprocess.DEVNULL)
    _checked.add(arch.name)
