"""Configure and build a kernel out of tree (O=), one build dir per config.

The build dir is named after KERNEL, ARCH and a hash of everything that
goes into the .config, so a second run reuses it and an incremental make
only rebuilds what the overlay changed.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import time
from typing import IO, TYPE_CHECKING, Iterable, Iterator, Optional, Sequence

from . import kcsan, paths, tree
from .util import log

if TYPE_CHECKING:
    from .arch import Arch

CONFIG_DIR = os.path.join(paths.HARNESS, "config")
_OPT = re.compile(r"^(CONFIG_\w+)=(.*)$")
_OFF = re.compile(r"^# (CONFIG_\w+) is not set$")


# Kernel flavours: "" (make check), "debug" (DEBUG=1: KASAN, lockdep, ...),
# "kcsan" (KCSAN=1), "bti" (BTI=1, arm64: BTI and pointer
# authentication in the kernel), "tags" (TAGS=1, arm64: KASAN's
# software tags, tagged kernel pointers) and "dump" (DUMP=1: listings
# show the compiled fetch programs), each a fragment on top of base +
# arch.
FLAVOURS = ("", "debug", "kcsan", "bti", "tags", "dump")

# kernel/trace/Makefile keeps KCSAN out of the whole directory (the
# function tracer must not recurse into the KCSAN runtime).  The probe
# event files are not on the function tracer's path; the kcsan flavour
# instruments them (kcsan.PROBE_OBJECTS), ours and 6.12's by the same
# names, so the lane sees races in them.  A per-file KCSAN_SANITIZE_<obj>
# =y on the command line wins over the directory's KCSAN_SANITIZE := n
# (scripts/Makefile.lib).


def fragments(arch: Arch, flavour: str = "") -> list[str]:
    names = ["base.config", arch.fragment]
    if flavour:
        names.append(f"{flavour}.config")
    return [os.path.join(CONFIG_DIR, n) for n in names]


def config_hash(arch: Arch, flavour: str,
                frags: Optional[Sequence[str]] = None) -> str:
    h = hashlib.sha256(f"tinyconfig {arch.name} {arch.cross}\n".encode())
    for frag in frags or fragments(arch, flavour):
        with open(frag, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:12]


def source(kernel: str) -> str:
    """@kernel's source tree, brought up to date under its lock"""
    with locked(f"src-{kernel}"):
        return tree.source(kernel)


@contextlib.contextmanager
def locked(name: str) -> Iterator[None]:
    """Hold KPT_ROOT/locks/@name: two harness runs at once (a bench beside
    a check, two engineers) take turns at syncing a tree or building in a
    build dir instead of corrupting it."""
    d = os.path.join(paths.root(), "locks")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name + ".lock"), "w") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log(f"waiting for another harness run ({name})")
            fcntl.flock(f, fcntl.LOCK_EX)
        yield


class Build:
    """One kernel build: KERNEL x ARCH x config."""

    def __init__(self, kernel: str, arch: Arch, flavour: str = "",
                 frags: Optional[Sequence[str]] = None) -> None:
        """@flavour: one of FLAVOURS; @frags: the config fragments,
        instead of base + arch (+ flavour)"""
        if flavour not in FLAVOURS:
            raise SystemExit(f"probetest: no kernel flavour '{flavour}'")
        self.kernel = kernel
        self.arch = arch
        self.flavour = flavour
        self.frags = frags or fragments(arch, flavour)
        self.hash = config_hash(arch, flavour, self.frags)
        tag = f"-{flavour}" if flavour else ""
        self.dir = paths.build(f"{kernel}-{arch.name}{tag}-{self.hash}")
        self.src: Optional[str] = None

    @property
    def debug(self) -> bool:
        """A sanitizer flavour: slow to boot and to run"""
        return self.flavour in ("debug", "kcsan", "tags")

    def make_vars(self) -> list[str]:
        """Variables the flavour sets on make's command line"""
        if self.flavour != "kcsan":
            return []
        return [f"KCSAN_SANITIZE_{o}.o=y" for o in kcsan.PROBE_OBJECTS]

    def make(self, *targets: str, logf: Optional[IO[str]] = None) -> int:
        # ARM64_BTI_KERNEL depends on !CC_IS_GCC: that flavour is clang's
        llvm = ["LLVM=1"] if self.flavour == "bti" else []
        cc = "clang" if llvm else f"{self.arch.cross}gcc"
        if shutil.which("ccache"):
            cc = f"ccache {cc}"
        env = dict(os.environ,
                   CCACHE_DIR=paths.ccache(), CCACHE_BASEDIR=paths.root(),
                   CCACHE_NOHASHDIR="1", CCACHE_MAXSIZE="8G",
                   KBUILD_BUILD_TIMESTAMP="2024-11-17",
                   KBUILD_BUILD_USER="probetest",
                   KBUILD_BUILD_HOST="probetest")
        # a command run from make: its variables must not reach kbuild
        for var in ("ARCH", "CROSS_COMPILE", "O", "KERNEL", "CC", "MAKEFLAGS",
                    "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"):
            env.pop(var, None)
        # self.src: set by targets(), build() or the caller before make()
        assert self.src is not None
        cmd = ["make", "-C", self.src, f"O={self.dir}",
               f"ARCH={self.arch.kernel_arch}",
               f"CROSS_COMPILE={self.arch.cross}", f"CC={cc}", *llvm,
               f"-j{(os.cpu_count() or 1) + 1}", *self.make_vars(), *targets]
        r = subprocess.run(cmd, env=env, stdout=logf, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL)
        return r.returncode

    def _logged_make(self, what: str, *targets: str) -> None:
        path = os.path.join(self.dir, f"{what}.log")
        with open(path, "w") as logf:
            rc = self.make(*targets, logf=logf)
        if rc:
            with open(path) as f:
                tail = f.read().splitlines()[-40:]
            raise SystemExit("\n".join(tail) +
                             f"\nprobetest: {what} failed, see {path}")

    def configure(self, check: bool = True) -> None:
        """tinyconfig + fragments + olddefconfig, then verify the result
        unless @check is false (options an arch cannot have may drop)."""
        stamp = os.path.join(self.dir, ".kpt-config")
        if os.path.exists(stamp):
            return
        os.makedirs(self.dir, exist_ok=True)
        log(f"configuring {self.dir}")
        self._logged_make("config", "tinyconfig")
        with open(os.path.join(self.dir, ".config"), "a") as out:
            for frag in self.frags:
                with open(frag) as f:
                    out.write(f.read())
        self._logged_make("config", "olddefconfig")
        missing = check and check_config(os.path.join(self.dir, ".config"),
                                         self.frags, self.kernel)
        if missing:
            raise SystemExit("probetest: options lost in olddefconfig "
                             f"({self.dir}/.config):\n  " +
                             "\n  ".join(missing))
        open(stamp, "w").close()

    def merge_fragments(self) -> None:
        """Append the fragments to .config again and olddefconfig: an
        option the tree did not have at configure() time may be there now
        (make series-check, patch after patch)."""
        with open(os.path.join(self.dir, ".config"), "a") as out:
            for frag in self.frags:
                with open(frag) as f:
                    out.write(f.read())
        self._logged_make("config", "olddefconfig")

    def targets(self, *targets: str) -> Build:
        """Sync the source, configure, make just @targets (e.g. one .o)."""
        with locked(os.path.basename(self.dir)):
            self.src = source(self.kernel)
            self.configure()
            self._logged_make("targets", *targets)
        return self

    def build(self) -> Build:
        """Sync the source, configure, build image and modules."""
        with locked(os.path.basename(self.dir)):
            return self._build()

    def _build(self) -> Build:
        self.src = source(self.kernel)
        if (os.environ.get("KPT_NOBUILD", "0") not in ("", "0") and
                os.path.exists(self.image)):
            log(f"KPT_NOBUILD: using {self.image} as it is")
            return self
        self.configure()
        t0 = time.monotonic()
        log(f"building {self.kernel} {self.arch.name} in {self.dir}")
        image = os.path.basename(self.arch.image)
        self._logged_make("build", image, "modules")
        modroot = os.path.join(self.dir, "modroot")
        shutil.rmtree(modroot, ignore_errors=True)
        self._logged_make("build", "modules_install",
                          f"INSTALL_MOD_PATH={modroot}", "INSTALL_MOD_STRIP=1")
        log(f"built in {time.monotonic() - t0:.0f}s")
        return self

    @property
    def image(self) -> str:
        return os.path.join(self.dir, self.arch.image)

    @property
    def release(self) -> str:
        release = os.path.join(self.dir, "include/config/kernel.release")
        with open(release) as f:
            return f.read().strip()

    @property
    def modroot(self) -> str:
        return os.path.join(self.dir, "modroot")


# In a fragment, marks the next option as one the series adds: a tree
# without it (KERNEL=upstream, or a patch of the series before the one
# that adds it) may drop it
SERIES_ONLY = "# kpt: series-only"


def check_config(dotconfig: str, frags: Iterable[str],
                 kernel: str = "ours") -> list[str]:
    """Options requested by the fragments that the .config does not have.

    A later fragment overrides an earlier one, as in the merge: an arch
    fragment's '# CONFIG_X is not set' drops base.config's CONFIG_X=y
    where the arch cannot have it.
    """
    have = {}
    with open(dotconfig) as f:
        for line in f:
            m = _OPT.match(line.strip())
            if m:
                have[m.group(1)] = m.group(2)
    # option -> (value, or None for off; line; frag; series)
    wanted: dict[str, tuple[Optional[str], str, str, bool]] = {}
    for frag in frags:
        series_only = False
        with open(frag) as f:
            for line in f:
                line = line.strip()
                m = _OPT.match(line) or _OFF.match(line)
                if m:
                    value = m.group(2) if m.re is _OPT else None
                    wanted[m.group(1)] = (value, line,
                                          os.path.basename(frag), series_only)
                series_only = line == SERIES_ONLY
    missing = []
    for opt, (value, line, frag, series_only) in wanted.items():
        if value is None:
            if have.get(opt) not in (None, "n"):
                missing.append(f"{line} (from {frag})")
        elif (have.get(opt) != value and
              not (series_only and kernel != "ours" and opt not in have)):
            missing.append(f"{line} (from {frag}, got "
                           f"{have.get(opt, 'unset')})")
    return missing
