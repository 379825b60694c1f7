"""Per-architecture settings, as data: every arch difference lives here."""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Arch:
    name: str            # our name, also the ARCH= value users type
    kernel_arch: str     # ARCH= for kbuild
    cross: str           # CROSS_COMPILE prefix ('' for native)
    image: str           # boot image, relative to the build dir
    qemu: str            # QEMU system binary
    machine: tuple       # extra QEMU machine options
    console: str         # kernel console device
    deb_arch: str        # Debian architecture of the guest userland
    packages: tuple      # Debian packages the host needs for this arch
    fragment: str        # config fragment under harness/config
    append: str = ""     # extra kernel command line
    qemu_extra: tuple = field(default_factory=tuple)


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
                  "binutils-aarch64-linux-gnu"),
        fragment="arm64.config",
    ),
}

DEFAULT_ARCH = "x86_64"


def get(name):
    try:
        return ARCHES[name]
    except KeyError:
        raise SystemExit(f"ktest: unknown ARCH '{name}' "
                         f"(known: {' '.join(ARCHES)})")


def host_accel(arch, icount=False):
    """TCG single-threaded unless the host CPU really offers vmx/svm.

    /dev/kvm on these machines exists but cannot boot a stock kernel, and
    multi-threaded TCG livelocks in kernel text patching.  Benchmarks ask
    for icount, which only TCG has.
    """
    import os
    import platform
    import re
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
