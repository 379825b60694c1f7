"""Install the Debian packages the harness needs, if any are missing."""

import os
import re
import shutil
import subprocess
import time
from typing import Iterable, Sequence, Tuple

from . import paths
from .arch import Arch
from .util import log, run

COMMON = ("make", "gcc", "libc6-dev", "flex", "bison", "bc", "libelf-dev",
          "libssl-dev", "cpio", "gzip", "xz-utils", "kmod", "patch", "file",
          "dwarves", "ccache", "busybox-static", "linux-source-6.12",
          "python3", "perl", "pyflakes3", "mypy")

MIRROR = "http://deb.debian.org/debian"
# install()'s last log line (installed()), which cold-run sums
INSTALLED = re.compile(r"\] installed \d+ packages in (\d+) s$")

_checked: set[str] = set()


def missing(packages: Sequence[str]) -> list[str]:
    out = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package} ${db:Status-Abbrev}\n",
         *packages], capture_output=True, text=True).stdout
    have = {line.split()[0] for line in out.splitlines()
            if len(line.split()) > 1 and line.split()[1].startswith("ii")}
    return [p for p in packages if p not in have]


# What the commands other than a kernel build need (install(GROUPS[..]))
GROUPS = {
    "docs": ("python3-sphinx", "python3-sphinx-rtd-theme", "python3-yaml",
             "graphviz", "linux-source-6.12"),
    "fuzz": ("clang-14", "llvm-14", "libclang-rt-14-dev"),
    # the host side of the client rows (harness/kpt/clients.py); the
    # guest's own come from foreign_apt()
    "clients": ("linux-perf", "trace-cmd", "bpftool", "perf-tools-unstable",
                "bash-static", "libbpf-dev", "libtracefs-dev",
                "libtraceevent-dev", "clang", "gcc", "libc6-dev"),
}


def packages(arches: Iterable[Arch], groups: Iterable[str]) -> list[str]:
    """Every package the builds and boots of @arches and the commands of
    @groups need, installed or not, each once."""
    out: list[str] = []
    for a in arches:
        out += [*COMMON, *a.packages]
    for g in groups:
        if g not in GROUPS:
            raise SystemExit(f"probetest deps: groups are {sorted(GROUPS)}")
        out += GROUPS[g]
    return list(dict.fromkeys(out))


def install(packages: Sequence[str], what: str = "packages") -> None:
    """apt-get install those of @packages that are missing: the one place
    the harness installs anything, through sudo when not root."""
    need = missing(list(packages))
    if not need:
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    if sudo and not shutil.which("sudo"):
        raise SystemExit("probetest: need root or sudo to install: " +
                         " ".join(need))
    log(f"installing {what}: " + " ".join(need))
    t0 = time.monotonic()
    # through env(1): sudo resets the environment
    apt = [*sudo, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get"]
    run([*apt, "update", "-qq"])
    run([*apt, "install", "-y", "-qq", "--no-install-recommends", *need],
        stdout=subprocess.DEVNULL)
    log(installed(len(need), time.monotonic() - t0))


def installed(count: int, seconds: float) -> str:
    """What install() logs when it is done (INSTALLED finds it)."""
    return f"installed {count} packages in {seconds:.0f} s"


def ensure(arch: Arch) -> None:
    """Install whatever this arch's build and boot still lack."""
    if arch.name in _checked:
        return
    install(packages([arch], ()))
    _checked.add(arch.name)


def foreign_apt(deb_arch: str, suite: str = "") -> Tuple[list[str], str]:
    """apt options for a private state of architecture @deb_arch under
    KPT_ROOT, which leaves the host's dpkg architectures and package lists
    untouched, with its lists updated; (options, directory for
    downloads).  A @suite other than the host's (an arch the host's
    release lacks) gets a private sources list of its own."""
    state = os.path.join(paths.root(), f"apt-{deb_arch}")
    for sub in ("lists/partial", "cache/archives/partial", "deb"):
        os.makedirs(os.path.join(state, sub), exist_ok=True)
    open(os.path.join(state, "status"), "a").close()
    opts = ["-o", f"APT::Architecture={deb_arch}",
            "-o", f"APT::Architectures::={deb_arch}",
            "-o", f"Dir::State::Lists={state}/lists",
            "-o", f"Dir::Cache={state}/cache",
            "-o", f"Dir::State::status={state}/status",
            "-o", "Debug::NoLocking=1", "-qq"]
    if suite:
        sources = os.path.join(state, "sources.list")
        with open(sources, "w") as f:
            f.write(f"deb {MIRROR} {suite} main\n")
        opts += ["-o", f"Dir::Etc::SourceList={sources}",
                 "-o", "Dir::Etc::SourceParts=/nonexistent"]
    run(["apt-get", *opts, "update"], stdout=subprocess.DEVNULL)
    return opts, os.path.join(state, "deb")
