"""make check-clients: real user-space clients of kprobe events in the guest.

Debian's perf, trace-cmd, bpftool, perf-tools' kprobe-perf (with
bash-static) and three small programs of ours (a raw perf_event_open()
kprobe PMU client, a libtracefs program, a libbpf program) go into a
client archive of their own, with their shared libraries.  It is booted
on top of the build's base archive, so `make check`'s initramfs stays
small.  Each row is a guest script (harness/clients/rows/), run in its
own shell with a time limit; the boot-* rows need a kernel command line
and get boots of their own.  The table compares KERNEL=ours with
KERNEL=upstream, row by row.
"""

from __future__ import annotations

import argparse
import difflib
import glob
import os
import re
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Optional, Sequence

from . import arch as archmod
from . import console, deps, initramfs, paths, stages
from .util import log, run

if TYPE_CHECKING:
    from .kbuild import Build

CLIENTS = os.path.join(paths.HARNESS, "clients")
ROWS = os.path.join(CLIENTS, "rows")
SRC = os.path.join(CLIENTS, "src")

# Host packages: the clients themselves (copied into the guest with their
# libraries) and what builds our three programs.
# Guest path -> host path of each client binary (x86_64: the host's own).
BINARIES = {
    "/usr/bin/perf": "/usr/bin/perf",
    "/usr/bin/trace-cmd": "/usr/bin/trace-cmd",
    "/usr/sbin/bpftool": "/usr/sbin/bpftool",
    "/bin/bash": "/bin/bash-static",
}
SCRIPTS = {"/usr/sbin/kprobe-perf": "/usr/sbin/kprobe-perf"}

# kprobe_event= on the kernel command line, booted BOOTS times.
BOOT_ROWS = {
    "boot-kprobe_event":
        "kprobe_event=p:kprobes/bootprobe,vfs_read,count=$arg3",
}
BOOTS = 3
ROW_TIMEOUT = 300

_RESULT = re.compile(r"@@KPT-RESULT (\S+) ([A-Z]+)")
_REASON = re.compile(r"@@KPT-REASON (\S+) (.*)")
# A row's cell of a kernel's table: [result, reason, masked output or None]
Cell = list[Any]


def ensure_packages() -> None:
    deps.install(deps.GROUPS["clients"], "client packages")


# Foreign guests: these Debian packages (and their dependencies) are
# fetched for the guest's architecture into a sysroot under KPT_ROOT.
FOREIGN = ("linux-perf", "trace-cmd", "bpftool", "libtracefs1",
           "libtraceevent1", "libbpf1", "libtracefs-dev", "libbpf-dev",
           "libtraceevent-dev", "bash-static", "perf-tools-unstable")


# offsetof(struct pt_regs, <third argument register>): %dx, x2
ARG3_OFFSET = {"amd64": 12 * 8, "arm64": 2 * 8}


def _multiarch(arch: archmod.Arch) -> str:
    return {"amd64": "x86_64-linux-gnu",
            "arm64": "aarch64-linux-gnu"}[arch.deb_arch]


def native(arch: archmod.Arch) -> bool:
    return arch.deb_arch == "amd64"


def sysroot(arch: archmod.Arch) -> Optional[str]:
    """None for the host's arch; else a dir with FOREIGN and their
    dependencies unpacked (apt-get download through a private apt state,
    as initramfs.fetch_foreign_deb does: the host's dpkg is untouched)."""
    if native(arch):
        return None
    d = os.path.join(paths.root(), f"clients-sysroot-{arch.deb_arch}")
    if os.path.exists(os.path.join(d, ".done")):
        return d
    log(f"clients: fetching {' '.join(FOREIGN)} for {arch.deb_arch}")
    opts, debdir = deps.foreign_apt(arch.deb_arch)
    out = subprocess.run(
        ["apt-cache", *opts, "depends", "--recurse", "--no-recommends",
         "--no-suggests", "--no-conflicts", "--no-breaks", "--no-replaces",
         "--no-enhances", *FOREIGN], capture_output=True, text=True,
        check=True).stdout
    pkgs = sorted({ln.strip() for ln in out.splitlines()
                   if ln and not ln[0].isspace() and "<" not in ln})
    run(["apt-get", *opts, "download", *pkgs], cwd=debdir,
        stdout=subprocess.DEVNULL)
    tmp = d + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    for pkg in pkgs:
        debs = sorted(glob.glob(os.path.join(
            debdir, f"{pkg.split(':')[0]}_*_{arch.deb_arch}.deb")) +
            glob.glob(os.path.join(debdir, f"{pkg.split(':')[0]}_*_all.deb")))
        if debs:
            run(["dpkg-deb", "-x", debs[-1], tmp])
    open(os.path.join(tmp, ".done"), "w").close()
    shutil.rmtree(d, ignore_errors=True)
    os.rename(tmp, d)
    return d


def programs(arch: archmod.Arch, out: str,
             root: Optional[str] = None) -> None:
    """Build our three programs and the BPF object into out/."""
    os.makedirs(out, exist_ok=True)
    tr = ["-I/usr/include/tracefs", "-I/usr/include/traceevent"]
    ma = _multiarch(arch)
    cc = f"{arch.cross}gcc"
    if root:
        # The sysroot's own libc.so is a linker script with host paths:
        # name the libraries by file, let the cross toolchain bring libc.
        libdir = os.path.join(root, "usr/lib", ma)
        rl = [f"-Wl,-rpath-link,{libdir}", f"-Wl,-rpath-link,{root}/lib/{ma}"]
        lib = {n: [*rl, f"{libdir}/lib{n}.so.1"]
               for n in ("tracefs", "traceevent", "bpf")}
    else:
        lib = {n: [f"-l{n}"] for n in ("tracefs", "traceevent", "bpf")}
    jobs = [
        [cc, "-static", "-O2", "-Wall", "-o", f"{out}/pmu_kprobe",
         f"{SRC}/pmu_kprobe.c"],
        [cc, "-O2", "-Wall", *tr, "-o", f"{out}/tracefs_client",
         f"{SRC}/tracefs_client.c", *lib["tracefs"], *lib["traceevent"]],
        [cc, "-O2", "-Wall", "-o", f"{out}/libbpf_client",
         f"{SRC}/libbpf_client.c", *lib["bpf"]],
        ["clang", "-O2", "-g", "-target", "bpf",
         f"-DARG3_OFFSET={ARG3_OFFSET[arch.deb_arch]}",
         f"-I/usr/include/{ma}" if native(arch) else
         "-I/usr/aarch64-linux-gnu/include", "-c",
         f"{SRC}/kprobe_counter.bpf.c", "-o", f"{out}/kprobe_counter.bpf.o"],
    ]
    for cmd in jobs:
        r = subprocess.run(cmd)
        if r.returncode:
            # The row that needs it reports SKIP (not in the initramfs).
            log(f"clients: could not build {cmd[cmd.index('-o') + 1]}")


def _in_root(root: str, path: str) -> str:
    """path inside root, following symlinks (absolute ones stay inside)."""
    p = os.path.join(root, path.lstrip("/"))
    for _ in range(16):
        if not os.path.islink(p):
            break
        t = os.readlink(p)
        p = os.path.join(root, t.lstrip("/")) if t.startswith("/") else \
            os.path.normpath(os.path.join(os.path.dirname(p), t))
    return p


def _libs(binary: str, arch: archmod.Arch, root: Optional[str] = None
          ) -> list[tuple[str, str]]:
    """Shared libraries and loader a binary needs: [(guest, host path)].

    Native: ldd.  Foreign: DT_NEEDED and PT_INTERP (readelf), resolved
    recursively in the sysroot's library dirs."""
    if not root:
        r = subprocess.run(["ldd", binary], capture_output=True, text=True)
        libs = []
        for line in r.stdout.splitlines():
            m = (re.search(r"=>\s+(/\S+)", line) or
                 re.match(r"\s*(/\S+)", line))
            if m:
                libs.append((m.group(1), m.group(1)))
        return libs
    ma = _multiarch(arch)
    dirs = [f"/lib/{ma}", f"/usr/lib/{ma}", "/lib", "/usr/lib"]
    seen: set[str]
    seen, todo, libs = set(), [binary], []
    while todo:
        f = todo.pop()
        out = subprocess.run(["readelf", "-dl", f], capture_output=True,
                             text=True).stdout
        m = re.search(r"Requesting program interpreter: (\S+)\]", out)
        names = re.findall(r"\(NEEDED\)\s+Shared library: \[(\S+)\]", out)
        wanted = [(m.group(1), m.group(1))] if m else []
        for n in names:
            for d in dirs:
                if os.path.exists(os.path.join(root, d.lstrip("/"), n)):
                    wanted.append((f"{d}/{n}", None))
                    break
            else:
                log(f"clients: {n} (needed by {f}) not in the sysroot")
        for guest, _ in wanted:
            if guest in seen:
                continue
            seen.add(guest)
            host = _in_root(root, guest)
            if not os.path.exists(host):
                host = _in_root(root, "/usr" + guest)
            libs.append((guest, host))
            todo.append(host)
    return libs


def _install(root: str, guest_path: str, host_path: str) -> None:
    dst = os.path.join(root, guest_path.lstrip("/"))
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copy(host_path, dst)
    os.chmod(dst, 0o755)


def archive(arch: archmod.Arch) -> str:
    """The client archive for arch: binaries, libraries, rows, programs."""
    out = os.path.join(paths.root(), f"clients-{arch.name}.cpio.gz")
    root = sysroot(arch)
    with tempfile.TemporaryDirectory(dir=paths.root()) as r:
        bindir = os.path.join(r, "kpt/clients/bin")
        programs(arch, bindir, root)
        libs: set[tuple[str, str]] = set()
        for guest, host in list(BINARIES.items()) + list(SCRIPTS.items()):
            if root:
                host = os.path.join(root, host.lstrip("/"))
            if not os.path.exists(host):
                log(f"clients: {host} missing, its rows will SKIP")
                continue
            _install(r, guest, host)
            if guest not in SCRIPTS:
                libs.update(_libs(host, arch, root))
        for p in ("tracefs_client", "libbpf_client"):
            if os.path.exists(os.path.join(bindir, p)):
                libs.update(_libs(os.path.join(bindir, p), arch, root))
        for guest, host in sorted(libs):
            dst = os.path.join(r, guest.lstrip("/"))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy(host, dst)      # follows symlinks: the real file
        for f in ("lib.sh", "run.sh"):
            shutil.copy(os.path.join(CLIENTS, f),
                        os.path.join(r, "kpt/clients", f))
        shutil.copytree(ROWS, os.path.join(r, "kpt/clients/rows"))
        for d in ("var/tmp", "usr/share/misc"):
            os.makedirs(os.path.join(r, d), exist_ok=True)
        initramfs._cpio(r, out)
    log(f"clients: archive {out} ({os.path.getsize(out) >> 20} MiB)")
    return out


_MASK = [(re.compile(r"0x[0-9a-f]+|\b[0-9a-f]{8,}\b"), "H"),
         (re.compile(r"[0-9]+"), "N"), (re.compile(r"\s+"), " ")]


def _output(lines: Iterable[str], row: str) -> list[str]:
    """A row's user-space output with numbers and addresses masked, for
    comparing kernels (trace lines of busy rows vary: left out)."""
    out, inside = [], False
    for line in lines:
        if f"@@KPT-TEST-BEGIN {row}" in line:
            inside = True
        elif "@@KPT-" in line:
            inside = False
        elif inside and not console._KLINE.match(line) and \
                not re.search(r"^\s*\S+-\d+\s+\[\d+\]", line):
            for rx, rep in _MASK:
                line = rx.sub(rep, line)
            out.append(line.strip())
    return out


def _rowtable(res: console.Result) -> dict[str, Cell]:
    """{row: [result, reason, masked output]} from one boot's console
    (the guest's @@KPT-TIME lines are for people reading the log)."""
    rows: dict[str, str] = {}
    reasons: dict[str, str] = {}
    for line in res.lines:
        m = _RESULT.search(line)
        if m:
            rows[m.group(1)] = m.group(2)
        m = _REASON.search(line)
        if m:
            reasons[m.group(1)] = m.group(2).strip()
    out: dict[str, Cell] = {
        k: [v, reasons.get(k, ""), _output(res.lines, k)]
        for k, v in rows.items()}
    for s in res.splats:
        key = s.test or "(boot)"
        cell = out.setdefault(key, ["FAIL", "", None])
        cell[0] = "FAIL"
        cell[1] = f"console {s.kind}: {s.line.strip()[:100]}"
    return out


def _boot(b: Build, base: str, clients: str, label: str,
          rows: Sequence[str], timeout: int, append: str = ""
          ) -> tuple[dict[str, Cell], str]:
    env = dict(stages.env(b), KPT_ROWS=" ".join(f"{r}.sh" for r in rows),
               KPT_ROW_TIMEOUT=str(ROW_TIMEOUT))
    rundir, res = stages.boot(b, base, os.path.join(CLIENTS, "run.sh"),
                              label, timeout, stream=False, append=append,
                              job_env=env, extra=(clients,))
    table = _rowtable(res)
    for row in rows:
        if row not in table:
            table[row] = ["FAIL", f"no result (guest {res.verdict()})", None]
    log(f"{b.kernel} {b.arch.name} {label}: {res.verdict()}; "
        f"log {rundir}/console.log")
    return table, rundir


def run_kernel(b: Build, base: str, clients: str, rows: Sequence[str],
               boots: int) -> dict[str, Cell]:
    """All rows on one kernel: one boot for the plain rows, then BOOTS
    boots per boot-* row.  {row: [result, reason, masked output]}."""
    plain = [r for r in rows if r not in BOOT_ROWS]
    table: dict[str, Cell] = {}
    if plain:
        t, _ = _boot(b, base, clients, "clients", plain,
                     180 + ROW_TIMEOUT * len(plain))
        table.update(t)
    for row in rows:
        if row not in BOOT_ROWS:
            continue
        passed, why, output = 0, "", None
        for n in range(1, boots + 1):
            t, _ = _boot(b, base, clients, f"clients-{row}-{n}", [row],
                         180 + ROW_TIMEOUT, append=BOOT_ROWS[row])
            res, reason, output = t[row]
            if res == "PASS":
                passed += 1
            elif not why:
                why = f"boot {n}: {res} {reason}".strip()
        result = "PASS" if passed == boots else "FAIL"
        table[row] = [result, f"{passed}/{boots} boots" +
                      (f"; {why}" if why else ""), output]
        for k, v in t.items():      # splats outside the row
            if k not in table:
                table[k] = v
    return table


def versions(arch: archmod.Arch) -> list[str]:
    """The Debian versions of the clients that went into the archive."""
    names = ("linux-perf", "trace-cmd", "bpftool", "libbpf1", "libtracefs1",
             "libtraceevent1", "perf-tools-unstable", "bash-static")
    if native(arch):
        out = subprocess.run(["dpkg-query", "-W", "-f=${Package} "
                              "${Version}\n", *names], capture_output=True,
                             text=True).stdout.split("\n")
        return [ln for ln in out if ln]
    debs = glob.glob(os.path.join(paths.root(), f"apt-{arch.deb_arch}",
                                  "deb", "*.deb"))
    found = []
    for d in sorted(debs):
        pkg, ver = os.path.basename(d).split("_")[:2]
        if pkg in names:
            found.append(f"{pkg} {ver.replace('%3a', ':')}")
    return found


def all_rows() -> list[str]:
    return sorted(os.path.basename(p)[:-3]
                  for p in glob.glob(os.path.join(ROWS, "*.sh")))


def format_table(archname: str, kernels: Sequence[str],
                 tables: Mapping[str, Mapping[str, Cell]],
                 seconds: Mapping[str, float],
                 rows: Optional[list[str]] = None
                 ) -> tuple[list[str], dict[str, int]]:
    rows = rows or all_rows()
    extra = sorted({k for t in tables.values() for k in t} - set(rows))
    w = max(len(r) for r in rows + extra + [f"row ({archname})"])
    head = f"{'row (' + archname + ')':{w}}  " + "  ".join(
        f"{k:10}" for k in kernels)
    lines = [head, "-" * len(head)]
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    notes = []
    for row in rows + extra:
        cells = []
        for k in kernels:
            res, reason, _ = tables[k].get(row, ["-", "", None])
            if res in counts:
                counts[res] += 1
            cells.append(f"{res:10}")
            if reason and res != "PASS":
                notes.append(f"  {row} on {k}: {res}: {reason}")
            elif reason:
                notes.append(f"  {row} on {k}: {reason}")
        lines.append(f"{row:{w}}  " + "  ".join(cells))
    if "ours" in tables and "upstream" in tables:
        for row in rows + extra:
            if (tables["upstream"].get(row, ["-"])[0] == "PASS" and
                    tables["ours"].get(row, ["-"])[0] != "PASS"):
                notes.append(f"  DIFFERENCE {row}: upstream passes, "
                             "ours does not")
    if len(kernels) == 2:
        a, b = kernels
        ndiff = len(notes)
        for row in rows + extra:
            oa = tables[a].get(row, [None, None, None])[2]
            ob = tables[b].get(row, [None, None, None])[2]
            if oa is None or ob is None:
                continue
            n = sum(1 for _ in difflib.unified_diff(oa, ob, n=0)
                    if _[:1] in "+-" and _[:3] not in ("+++", "---"))
            if n:
                notes.append(f"  {row}: {n} output lines differ between "
                             f"{a} and {b} (numbers masked)")
        if len(notes) == ndiff:
            notes.append(f"  output of {a} and {b}, numbers and addresses "
                         "masked: identical in every row")
    if notes:
        lines += ["notes:"] + notes
    lines.append("wall time per kernel: " + ", ".join(
        f"{k} {seconds[k]:.0f}s" for k in kernels))
    return lines, counts


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="probetest clients",
                                description=__doc__)
    p.add_argument("--arch", default=os.environ.get("ARCH") or "x86_64")
    p.add_argument("--kernel", default=os.environ.get("KERNEL") or
                   "ours upstream", help="'ours', 'upstream' or both")
    p.add_argument("--rows", default=os.environ.get("ROWS", ""),
                   help="row names (default: all of harness/clients/rows)")
    p.add_argument("--boots", type=int,
                   default=int(os.environ.get("BOOTS") or BOOTS),
                   help="boots for each boot-* row (at least 1)")
    p.add_argument("--save", default=os.environ.get("SAVE", ""),
                   help="also write the table to this file")
    p.add_argument("--dump", action="store_true",
                   default=os.environ.get("DUMP", "") not in ("", "0"),
                   help="the DUMP=1 kernels: listings show what each "
                   "probe argument compiled to")
    args = p.parse_args(argv)
    if args.boots < 1:
        # 0 boots would pass a boot-* row that never ran
        p.error("--boots must be at least 1")
    kernels = args.kernel.split()
    rows = [r[:-3] if r.endswith(".sh") else r for r in args.rows.split()] \
        or all_rows()
    status = 0
    for archname in args.arch.split():
        t0 = time.monotonic()
        a = archmod.get(archname)
        ensure_packages()
        clients = archive(a)
        flavour = "dump" if args.dump else ""
        prepared = {k: stages.prepare(archname, k, flavour)[:2]
                    for k in kernels}
        seconds: dict[str, float] = {}

        def one(k: str) -> dict[str, Cell]:
            t = time.monotonic()
            b, base = prepared[k]
            out = run_kernel(b, base, clients, rows, args.boots)
            seconds[k] = time.monotonic() - t
            return out
        # One TCG guest per core: the kernels boot side by side.
        with ThreadPoolExecutor(max_workers=len(kernels)) as pool:
            futs = {k: pool.submit(one, k) for k in kernels}
            tables = {k: f.result() for k, f in futs.items()}
        lines, counts = format_table(archname, kernels, tables, seconds,
                                     rows)
        lines.append("clients: " + ", ".join(versions(a)))
        lines.append(f"total {time.monotonic() - t0:.0f}s "
                     f"(builds, archive and boots), "
                     f"{time.strftime('%Y-%m-%d')}")
        lines.append(f"{counts['PASS']} passed, {counts['FAIL']} failed, "
                     f"{counts['SKIP']} skipped")
        print("\n".join(lines), flush=True)
        if args.save:
            with open(args.save.replace("{arch}", archname), "w") as f:
                f.write("\n".join(lines) + "\n")
        if counts["FAIL"]:
            status = 1
    return status
