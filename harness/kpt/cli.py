"""probetest: build, boot and test the patched 6.12 kernel (and upstream).

One command with subcommands, each with its own options (probetest
COMMAND --help); an option defaults to its make variable (ARCH, KERNEL,
DEBUG, TESTS, ...).  The Makefile's targets are aliases of these
(make help; README.md).  Every boot goes through harness/kpt/stages.py.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Callable, Optional, Sequence

from . import arch as archmod
from . import bench, check, console, deps, expect, initramfs, kbuild, paths
from . import plan, reliability, series, stages, tree
from . import qemu
from .util import log


def _prepare(args: argparse.Namespace, archname: str,
             kernel: Optional[str] = None
             ) -> tuple[kbuild.Build, str, str]:
    """Build the kernel and the base initramfs; (build, base, testsrc)."""
    return stages.prepare(archname, kernel or args.kernel,
                          stages.flavour(args))


def cmd_build(args: argparse.Namespace) -> int:
    for name in args.arches:
        _prepare(args, name)
    return 0


def cmd_make(args: argparse.Namespace) -> int:
    """Compile single targets, e.g. kernel/trace/trace_kprobe.o."""
    for name in args.arches:
        a = archmod.get(name)
        deps.ensure(a)
        b = kbuild.Build(args.kernel, a, stages.flavour(args))
        b.targets(*args.targets)
        log(f"{name}: made {' '.join(args.targets)} in {b.dir}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    b, base, _ = _prepare(args, args.arches[0])
    rundir = stages.rundir(args.kernel, b.arch.name, "run")
    initrd = stages.initrd(rundir, base, "shell", None, stages.env(b))
    return qemu.interactive(b, initrd, rundir)


def cmd_exec(args: argparse.Namespace, script: Optional[str] = None,
             label: str = "exec") -> int:
    script = script or args.script
    if not script or not os.path.isfile(script):
        raise SystemExit(f"probetest: SCRIPT '{script}' is not a file")
    status = 0
    for name in args.arches:
        b, base, _ = _prepare(args, name)
        files = {os.path.basename(f): f
                 for f in os.environ.get("KPT_FILES", "").split()}
        rundir, res = stages.boot(b, base, script, label,
                                  args.timeout or 1800, append=args.append,
                                  icount=args.icount, files=files)
        verdict = res.verdict()
        print(f"probetest: {name} {args.kernel}: {verdict}\n"
              f"probetest: console log {rundir}/console.log", flush=True)
        if not verdict.startswith("PASS"):
            status = res.exit_rc if res.exit_rc else 1
    return status


def cmd_demo(args: argparse.Namespace) -> int:
    return cmd_exec(args, os.path.join(initramfs.GUEST, "demo.sh"), "demo")


def _run_cases(args: argparse.Namespace, b: kbuild.Build, base: str,
               label: str, cases: list[str], exp: expect.Expect
               ) -> tuple[str, console.Result, list[check.Row]]:
    """Boot @b once running the ftracetest @cases; judge them by @exp.
    Returns (rundir, boot result, rows); rows also go to results.txt."""
    rundir = stages.rundir(b.kernel, b.arch.name, label)
    script = os.path.join(rundir, "job.sh")
    check.job_script(script, cases)
    _, res = stages.boot(b, base, script, label, args.timeout or
                         check.boot_timeout(cases), stream=args.verbose,
                         run_silence=check.RUN_SILENCE, run_dir=rundir)
    rows = check.judge(res, cases + check.kunit_suites(b), exp)
    check.save_results(os.path.join(rundir, "results.txt"), rows)
    return rundir, res, rows


def _check_arch(args: argparse.Namespace,
                prepared: tuple[kbuild.Build, str, str],
                totals: dict[bool, int]) -> None:
    b, base, testsrc = prepared
    name = b.arch.name
    exp = expect.load(name, args.kernel, flavour=b.flavour)
    cases = check.order(check.select(testsrc, args.tests), exp)
    rundir, res, rows = _run_cases(args, b, base, "check", cases, exp)
    for key, result, ok, note in rows:
        mark = "ok  " if ok else "FAIL"
        print(f"{mark} {name:7} {args.kernel:8} {result:11} {key}"
              + (f"  ({note})" if note else ""), flush=True)
        totals[ok] += 1
    if args.save_baseline:
        check.save_results(check.baseline_path(args.kernel, name), rows,
                           f"make baseline: KERNEL={args.kernel} ARCH={name} "
                           f"{b.release}, {time.strftime('%Y-%m-%d')}")
    if args.kernel != "upstream":
        for line in check.compare_baseline(rows, name):
            print(f"note {name}: upstream passes, we do not: {line}")
    verdict = res.verdict(exp.allowed_console())
    print(f"probetest: {name} {args.kernel}: {verdict}; "
          f"log {rundir}/console.log", flush=True)


def _run_beside(cmd: str) -> tuple[str, int, str]:
    """Run the shell line @cmd with its output in a log of its own, which
    is printed when the guests are done."""
    path = os.path.join(paths.new_run("beside"), "output.log")
    log(f"beside the guests: {cmd} (log {path})")
    with open(path, "wb") as out:
        rc = subprocess.run(cmd, shell=True, stdout=out,
                            stderr=subprocess.STDOUT).returncode
    return cmd, rc, path


def _report_beside(jobs: Sequence[Future[tuple[str, int, str]]]) -> int:
    status = 0
    for job in jobs:
        cmd, rc, path = job.result()
        with open(path, errors="replace") as f:
            sys.stdout.write(f.read())
        print(f"probetest: beside the guests: {cmd}: exit {rc}",
              flush=True)
        status = status or rc
    return status


def cmd_check(args: argparse.Namespace) -> int:
    """Build the next arch while the guest of this one runs its tests.
    The --beside commands run one after the other from the moment the
    last arch's build ends, whether it built or failed: TCG runs a guest
    on one host thread, and with no build left the other core would
    idle.  Their output and status are reported also when check stops on
    a failed build."""
    totals = {True: 0, False: 0}
    builder = ThreadPoolExecutor(max_workers=1)
    side = ThreadPoolExecutor(max_workers=1)
    jobs: list[Future[tuple[str, int, str]]] = []

    def start_beside(build: Future[tuple[kbuild.Build, str, str]]) -> None:
        if not build.cancelled():
            jobs.extend(side.submit(_run_beside, c) for c in args.beside)

    try:
        builds = [builder.submit(_prepare, args, name) for name in args.arches]
        if builds:
            builds[-1].add_done_callback(start_beside)
        for fut in builds:
            _check_arch(args, fut.result(), totals)
    finally:
        # The callback has run once the builder is shut down
        builder.shutdown(cancel_futures=True)
        side_rc = _report_beside(jobs)
        side.shutdown()
    print(f"{totals[True]} passed, {totals[False]} failed")
    return 1 if totals[False] else side_rc


def _wide_run(args: argparse.Namespace, archname: str, kernel: str,
              cases: list[str]) -> list[check.Row]:
    """One boot of @kernel running @cases, judged with no expectations."""
    b, base, _ = _prepare(args, archname, kernel)
    rundir, res, rows = _run_cases(args, b, base, "wide", cases,
                                   expect.Expect({}, []))
    log(f"{kernel} {archname}: {res.verdict()}; log {rundir}/console.log")
    return rows


def cmd_check_wide(args: argparse.Namespace) -> int:
    """The other ftracetest dirs on upstream and ours: every case must end
    the same on both, and ours's console must stay clean."""
    cases = check.select(check.testsrc(), " ".join(check.WIDE_DIRS))
    differ = 0
    for name in args.arches:
        up = _wide_run(args, name, "upstream", cases)
        ours = _wide_run(args, name, "ours", cases)
        counts: dict[str, int] = {}
        for k, r, _, _ in ours:
            if check.is_case(k):
                counts[r] = counts.get(r, 0) + 1
        print(f"check-wide {name}: {len(cases)} cases, ours " +
              ", ".join(f"{n} {r}" for r, n in sorted(counts.items())),
              flush=True)
        for line in check.compare_wide(up, ours):
            print(f"DIFF {name} {line}", flush=True)
            differ += 1
    print(f"check-wide: {differ} difference(s)")
    return 1 if differ else 0


def cmd_check_fixes(args: argparse.Namespace) -> int:
    """Part 1 of the series: each fix's regression test on 6.12 (must
    fail) and on 6.12 + part 1, KERNEL=fixes (must pass, clean console).
    The table goes to harness/results/fixes-<arch>.txt."""
    steps = [s for s in plan.load(tree.overlay_files())
             if s.part == plan.FIXES_PART]
    pairs = check.fix_cases(steps)
    cases = list(dict.fromkeys(c for _, c in pairs))
    bad = 0
    for name in args.arches:
        rows: dict[str, list[check.Row]] = {"upstream": [], "fixes": []}
        exp = expect.load(name, "upstream")
        # 6.12 gets a boot for the cases that do not damage it and one for
        # each that does, so that every case runs on a healthy kernel
        safe = [c for c in cases if not check.damaging(c, exp)]
        boots = {"upstream": ([safe] if safe else []) +
                 [[c] for c in cases if check.damaging(c, exp)],
                 "fixes": [cases]}
        for kernel, groups in boots.items():
            b, base, _ = _prepare(args, name, kernel)
            for group in groups:
                rundir, res, got = _run_cases(
                    args, b, base, "fixes", group, expect.Expect({}, []))
                rows[kernel] += got
                log(f"{kernel} {name}: {res.verdict()}; log "
                    f"{rundir}/console.log")
        lines, n = check.fixes_table(pairs, rows["upstream"], rows["fixes"],
                                     name, archmod.get(name).kernel_arch)
        print("\n".join(lines), flush=True)
        with open(os.path.join(paths.HARNESS, "results",
                               f"fixes-{name}.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        bad += n
    print(f"check-fixes: {bad} bad row(s)")
    return 1 if bad else 0


def cmd_bench(args: argparse.Namespace) -> int:
    """Upstream vs ours in QEMU (harness/kpt/bench.py)."""
    return bench.main(args)


def cmd_bench_smoke(args: argparse.Namespace) -> int:
    return bench.smoke(args)


def cmd_check_debug(args: argparse.Namespace) -> int:
    """The reliability lane on the DEBUG=1 kernel (harness/kpt/
    reliability.py); x86_64 unless ARCH says otherwise.  DEBUG=0 (the
    normal kernel) is only for the long runs, LONG=1."""
    args.debug = os.environ.get("DEBUG") != "0"
    passed = failed = 0
    for name in args.arches:
        p, f = reliability.check_debug(args, name)
        passed += p
        failed += f
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def cmd_series(args: argparse.Namespace) -> int:
    repo, _ = series.generate(sending=True)
    series.print_sizes(series.patch_sizes(repo))
    return 0


def cmd_series_verify(args: argparse.Namespace) -> int:
    return 1 if series.verify() else 0


def _series_expect(arch: str, key: str) -> expect.Expect:
    """Expectations at patch @key ("2/06"): 6.12's cases as on KERNEL=fixes
    (each must pass at every patch), ours as on the tree of the patch's
    part, since a test of ours comes with what it tests: an extension's
    test must pass from its patch on."""
    part = int(key.split("/")[0])
    exp = expect.load(arch, "fixes")
    if part == plan.FIXES_PART:
        return exp
    later = expect.load(arch, "rewrite" if part == plan.REWRITE_PART
                        else "ours")
    for case in check.own_cases():
        if case in later.results:
            exp.results[case] = later.results[case]
        else:
            exp.results.pop(case, None)
    exp.console += [c for c in later.console if c not in exp.console]
    return exp


def _series_boot(args: argparse.Namespace, b: kbuild.Build, worktree: str,
                 key: str) -> int:
    """Boot one patch of the series with the kprobe and dynevent cases of
    its own tree (judged by _series_expect()); the number of failed
    rows."""
    cases = check.select(worktree, " ".join(check.DEFAULT_DIRS))
    exp = _series_expect(b.arch.name, key)
    base = initramfs.base(b, worktree)
    rundir, res, rows = _run_cases(args, b, base, "series",
                                   check.order(cases, exp), exp)
    bad = sum(not ok for _, _, ok, _ in rows)
    print(f"{'PASS' if not bad else 'FAIL'}  boot  {key} {b.arch.name}: "
          f"{len(cases)} cases, {bad} failed; log {rundir}/console.log",
          flush=True)
    for k, r, ok, note in rows:
        if not ok:
            print(f"      {r} {k} {note}")
    return bad


def _series_exec(args: argparse.Namespace, b: kbuild.Build, worktree: str,
                 key: str) -> int:
    """Boot one patch of the series running SCRIPT (under -icount with
    ICOUNT=1), as exec does for a kernel; 1 when it did not pass."""
    base = initramfs.base(b, worktree)
    rundir, res = stages.boot(b, base, args.script,
                              "series-exec-" + key.replace("/", "-"),
                              args.timeout or 1800, append=args.append,
                              icount=args.icount)
    verdict = res.verdict()
    print(f"{'PASS' if verdict.startswith('PASS') else 'FAIL'}  exec  {key} "
          f"{b.arch.name}: {verdict}; log {rundir}/console.log", flush=True)
    return 0 if verdict.startswith("PASS") else 1


def cmd_series_check(args: argparse.Namespace) -> int:
    for name in args.arches:
        deps.ensure(archmod.get(name))
    runs: list[Callable[[argparse.Namespace, kbuild.Build, str, str],
                        int]] = []
    if os.environ.get("SERIES_BOOT", "0") not in ("", "0"):
        runs.append(_series_boot)
    if args.script:
        if not os.path.isfile(args.script):
            raise SystemExit(f"probetest: SCRIPT '{args.script}' is not "
                             "a file")
        runs.append(_series_exec)
    boot: Optional[Callable[[kbuild.Build, str, str], int]] = None
    if runs:
        def boot(b: kbuild.Build, wt: str, key: str) -> int:
            return sum(run(args, b, wt, key) for run in runs)
    return 1 if series.build_each(args.arches, boot) else 0


def cmd_check_arches(args: argparse.Namespace) -> int:
    from . import arches
    return 1 if arches.check(args.arch.split()) else 0


def cmd_parse(args: argparse.Namespace) -> int:
    with open(args.log, errors="replace") as f:
        res = console.parse(f.read().splitlines())
    for case, result in res.results:
        print(f"{result:11} {case}")
    for s in res.splats:
        print(f"splat {s.kind} line {s.lineno} [{s.test or '(boot)'}]: "
              f"{s.line.strip()}")
    print(res.verdict())
    return 0 if res.verdict().startswith("PASS") else 1


def cmd_deps(args: argparse.Namespace) -> int:
    arches = [archmod.get(name) for name in args.arches]
    need = deps.packages(arches, args.group)
    if args.list:
        print(" ".join(need))
    else:
        deps.install(need)
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    """harness/diff/diff.py, in process (its own options)."""
    sys.path.insert(0, os.path.join(paths.HARNESS, "diff"))
    import diff
    return diff.main(args.args)


def cmd_clients(args: argparse.Namespace) -> int:
    from . import clients
    return clients.main(args.args)


def cmd_unit(args: argparse.Namespace) -> int:
    return subprocess.run(["make", "-C",
                           os.path.join(paths.HARNESS, "unit")]).returncode


def cmd_fuzz(args: argparse.Namespace) -> int:
    targets = {"smoke": "fuzz-smoke", "run": "fuzz", "long": "fuzz-long"}
    mode = args.mode or "smoke"
    if mode not in targets:
        raise SystemExit(f"probetest fuzz: one of {sorted(targets)}")
    deps.install(deps.GROUPS["fuzz"], "fuzz")
    return subprocess.run(["make", "-C", os.path.join(paths.HARNESS, "unit"),
                           targets[mode]]).returncode


def cmd_cold_run(args: argparse.Namespace) -> int:
    from . import coldrun
    return coldrun.main(args)


def cmd_docs(args: argparse.Namespace) -> int:
    from . import docs
    return docs.main()


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "0") not in ("", "0")


def _options() -> tuple[argparse.ArgumentParser, ...]:
    """Option groups; a subcommand takes those it uses.  Each defaults to
    its make variable (ARCH, KERNEL, DEBUG, ...), which the Makefile's
    targets pass through the environment."""
    target = argparse.ArgumentParser(add_help=False)
    target.add_argument("--arch", default=os.environ.get("ARCH", ""),
                        help="x86_64, arm64, riscv64, ... or a "
                        "blank-separated list")
    target.add_argument("--kernel", default=os.environ.get("KERNEL") or
                        "ours", choices=tree.KERNELS)
    target.add_argument("--verbose", "-v", action="store_true",
                        default=_env_flag("V"))
    flavour = argparse.ArgumentParser(add_help=False)
    flavour.add_argument("--debug", action="store_true",
                         default=_env_flag("DEBUG"),
                         help="the KASAN/lockdep/UBSAN flavour")
    flavour.add_argument("--kcsan", action="store_true",
                         default=_env_flag("KCSAN"),
                         help="the KCSAN flavour (check-debug: its lane)")
    flavour.add_argument("--bti", action="store_true",
                         default=_env_flag("BTI"),
                         help="arm64 with BTI and pointer authentication "
                         "in the kernel")
    flavour.add_argument("--tags", action="store_true",
                         default=_env_flag("TAGS"),
                         help="arm64 with KASAN's software tags (tagged "
                         "kernel pointers)")
    flavour.add_argument("--dump", action="store_true",
                         default=_env_flag("DUMP"),
                         help="listings show what each probe argument "
                         "compiled to (PROBE_EVENTS_DUMP_FETCHARG)")
    boot = argparse.ArgumentParser(add_help=False)
    boot.add_argument("--timeout", type=int,
                      default=int(os.environ.get("TIMEOUT") or 0))
    boot.add_argument("--append", default=os.environ.get("APPEND", ""),
                      help="extra kernel command line")
    script = argparse.ArgumentParser(add_help=False)
    script.add_argument("--script", default=os.environ.get("SCRIPT"))
    script.add_argument("--icount", action="store_true",
                        default=_env_flag("ICOUNT"),
                        help="QEMU -icount: guest instructions as time")
    tests = argparse.ArgumentParser(add_help=False)
    tests.add_argument("--tests", default=os.environ.get("TESTS", ""),
                       help="ftracetest cases or directories")
    tests.add_argument("--save-baseline", action="store_true")
    listing = argparse.ArgumentParser(add_help=False)
    listing.add_argument("--list", action="store_true",
                         help="print the packages, installed or not")
    chroot = argparse.ArgumentParser(add_help=False)
    chroot.add_argument("--suite", default="bookworm",
                        help="the Debian suite of the chroot")
    chroot.add_argument("--keep", action="store_true",
                        help="keep the chroot (KPT_ROOT/coldroot)")
    beside = argparse.ArgumentParser(add_help=False)
    beside.add_argument("--beside", action="append", default=[],
                        metavar="CMD", help="a shell line to run beside "
                        "the guests once the last arch's build ends "
                        "(repeatable; its output after the cases, its "
                        "failure check's)")
    return target, flavour, boot, script, tests, listing, chroot, beside


# name: (help, option groups by _options() index, positional args)
COMMANDS = {
    "deps": ("install what the harness needs (and GROUPs: "
             "docs, fuzz, clients)", (0, 5), ("group", "*")),
    "build": ("build the kernel", (0, 1), None),
    "run": ("boot to a root shell", (0, 1, 2), None),
    "demo": ("the kprobetrace walkthrough in a guest", (0, 1, 2), None),
    "exec": ("boot running --script", (0, 1, 2, 3), None),
    "check": ("the ftracetest cases and the KUnit suites",
              (0, 1, 2, 4, 7), None),
    "parse": ("judge a saved console log", (), ("log", None)),
    "make": ("compile single kbuild targets", (0, 1), ("targets", "+")),
    "bench": ("benchmarks, upstream against ours", (0, 1), None),
    "bench-smoke": ("one short benchmark run", (0, 1), None),
    "check-debug": ("the reliability lane (DEBUG, KCSAN, LONG)",
                    (0, 1, 2, 4), None),
    "check-wide": ("the other ftracetest dirs, upstream against ours",
                   (0, 2), None),
    "check-arches": ("build and boot the other architectures", (0,), None),
    "check-fixes": ("each fix of part 1 on 6.12 and with the fixes",
                    (0, 2), None),
    "series": ("write the patch series", (), None),
    "series-verify": ("git am and checkpatch the series", (), None),
    "series-check": ("build (and boot) every patch of the series",
                     (0, 2, 3), None),
    "docs": ("build the trace documentation", (), None),
    "cold-run": (".ci/run in a fresh Debian chroot, timed (root)", (6,),
                 None),
    # these two take their own options, passed on whole (main())
    "diff": ("the differential test against 6.12 (diff --help)", (),
             ("args", "*")),
    "clients": ("perf, trace-cmd, libtracefs, libbpf (clients --help)", (),
                ("args", "*")),
    "unit": ("the parser's user-space unit tests", (), None),
    "fuzz": ("libFuzzer: smoke (default), run or long", (),
             ("mode", "?")),
}

# what a command that does not take an option sees
_DEFAULTS = dict(arch="", kernel="ours", verbose=False, debug=False,
                 kcsan=False, bti=False, tags=False, dump=False,
                 timeout=0, append="",
                 script=None,
                 icount=False, tests="", save_baseline=False, beside=[],
                 group=[],
                 log=None, targets=[], args=[], mode=None)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="probetest", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    groups = _options()
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (text, use, pos) in COMMANDS.items():
        c = sub.add_parser(name, help=text, description=text,
                           parents=[groups[i] for i in use])
        if pos:
            # nargs=None is argparse's default; mypy 1.0's typeshed
            # does not take it
            c.add_argument(pos[0], nargs=pos[1])  # type: ignore[arg-type]
    args = p.parse_args(argv)
    for k, v in _DEFAULTS.items():
        if not hasattr(args, k):
            setattr(args, k, v)
    default = list(archmod.DEFAULT_ARCHES) if args.command in (
        "check", "build", "deps", "check-wide") else [archmod.DEFAULT_ARCH]
    if args.command == "series-check":
        default = list(archmod.SERIES_ARCHES)
    args.arches = args.arch.split() or default
    if args.command == "check-arches":
        return args
    for name in args.arches:
        archmod.get(name)
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] in (["diff"], ["clients"]):
        args = argparse.Namespace(command=argv[0], args=argv[1:])
    else:
        args = parse_args(argv)
    fn = globals()[f"cmd_{args.command.replace('-', '_')}"]
    try:
        return fn(args)
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    except subprocess.CalledProcessError as e:
        log(f"failed: {e}")
        return 1
