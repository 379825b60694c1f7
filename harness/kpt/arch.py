"""Per-architecture settings, as data: every arch difference lives here."""

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Arch:
    name: str            # our name, also the ARCH= value users type
    kernel_arch: str     # ARCH= for kbuild
    cross: str           # CROSS_COMPILE prefix ('' for native)
    image: str           # boot image, relative to the build dir
    qemu: str            # QEMU system binary
    machine: tuple[str, ...]   # extra QEMU machine options
    console: str         # kernel console device
    deb_arch: str        # Debian architecture of the guest userland
    packages: tuple[str, ...]  # Debian packages the host needs for this arch
    fragment: str        # config fragment under harness/config
    append: str = ""     # extra kernel command line
    deb_suite: str = ""  # Debian suite of the userland ('' = the host's)
    qemu_extra: tuple[str, ...] = field(default_factory=tuple)


ARCHES = {
    "x86_64": Arch(
        name="x86_64",
        kernel_arch="x86_64",
        cross="",
        image="arch/x86/boot/bzImage",
        qemu="qemu-system-x86_64",
        machine=("-cpu", "max"),
        console="ttyS0",
        deb_arch="amd64",
        packages=("qemu-system-x86",),
        fragment="x86_64.config",
    ),
    "arm64": Arch(
        name="arm64",
        kernel_arch="arm64",
        cross="aarch64-linux-gnu-",
        image="arch/arm64/boot/Image",
        qemu="qemu-system-aarch64",
        machine=("-M", "virt", "-cpu", "max"),
        console="ttyAMA0",
        deb_arch="arm64",
        packages=("qemu-system-arm", "gcc-aarch64-linux-gnu",
                  "binutils-aarch64-linux-gnu", "libc6-dev-arm64-cross"),
        fragment="arm64.config",
    ),
    # Booted on request only (make check ARCH=riscv64): Debian 12 has no
    # riscv64 port, so its busybox comes from Debian 13, and TCG runs it
    # at about half arm64's speed.  OpenSBI is QEMU's default firmware.
    "riscv64": Arch(
        name="riscv64",
        kernel_arch="riscv",
        cross="riscv64-linux-gnu-",
        image="arch/riscv/boot/Image",
        qemu="qemu-system-riscv64",
        machine=("-M", "virt"),
        console="ttyS0",
        deb_arch="riscv64",
        deb_suite="trixie",
        packages=("qemu-system-misc", "gcc-riscv64-linux-gnu",
                  "binutils-riscv64-linux-gnu", "libc6-dev-riscv64-cross"),
        fragment="riscv64.config",
        # A hang before the console driver binds still shows.
        append="earlycon",
    ),
}

DEFAULT_ARCH = "x86_64"
# What make check, build, series-check and the rest run when ARCH is unset.
DEFAULT_ARCHES = ("x86_64", "arm64")
# Every patch of the series builds on these (make series-check)
SERIES_ARCHES = ("x86_64", "arm64", "riscv64")

# Architectures make check-arches only builds: every one that had probe
# events in 6.12 must still build with the series (tinyconfig plus
# harness/config/arches.config and the arch's fragment under arches/).
BUILD_ONLY = {
    # the guest above, on check-arches' minimal config
    "riscv64": replace(ARCHES["riscv64"], fragment="arches/riscv64.config"),
    "ppc64le": Arch(
        name="ppc64le", kernel_arch="powerpc",
        cross="powerpc64le-linux-gnu-", image="vmlinux",
        qemu="qemu-system-ppc64", machine=("-M", "pseries"),
        console="hvc0", deb_arch="ppc64el",
        packages=("gcc-powerpc64le-linux-gnu",
                  "binutils-powerpc64le-linux-gnu"),
        fragment="arches/ppc64le.config",
    ),
    "s390x": Arch(
        name="s390x", kernel_arch="s390", cross="s390x-linux-gnu-",
        image="arch/s390/boot/bzImage", qemu="qemu-system-s390x",
        machine=(), console="ttysclp0", deb_arch="s390x",
        packages=("gcc-s390x-linux-gnu", "binutils-s390x-linux-gnu"),
        fragment="arches/s390x.config",
    ),
    "arm": Arch(
        name="arm", kernel_arch="arm", cross="arm-linux-gnueabihf-",
        image="arch/arm/boot/zImage", qemu="qemu-system-arm",
        machine=("-M", "virt"), console="ttyAMA0", deb_arch="armhf",
        packages=("gcc-arm-linux-gnueabihf", "binutils-arm-linux-gnueabihf"),
        fragment="arches/arm.config",
    ),
}


def get(name: str) -> Arch:
    try:
        return ARCHES[name]
    except KeyError:
        raise SystemExit(f"probetest: unknown ARCH '{name}' "
                         f"(known: {' '.join(ARCHES)})")


def host_accel(arch: Arch, icount: bool = False) -> str:
    """TCG single-threaded unless the host CPU really offers vmx/svm.

    /dev/kvm on these machines exists but cannot boot a stock kernel, and
    on multi-threaded TCG an x86_64 guest runs stale code after kernel
    text patching (harness/results/long-runs.txt).  Benchmarks ask for
    icount, which only TCG has.  KPT_ACCEL overrides the choice (e.g.
    "tcg,thread=multi").
    """
    import os
    import platform
    import re
    if os.environ.get("KPT_ACCEL"):
        return os.environ["KPT_ACCEL"]
    if icount or platform.machine() != arch.name:
        return "tcg,thread=single"
    try:
        with open("/proc/cpuinfo") as f:
            flags = f.read()
    except OSError:
        flags = ""
    if re.search(r"\b(vmx|svm)\b", flags) and os.access("/dev/kvm", os.W_OK):
        return "kvm"
    return "tcg,thread=single"
