"""Parse a guest console log: markers, test results and kernel splats.

The guest prints marker lines (see guest/init and guest/ftrace-run.sh):
  @@KPT-BOOTED ...            userland started
  @@KPT-TEST-BEGIN <case>     what follows belongs to <case>
  @@KPT-RESULT <case> <RES>   ftracetest's verdict for <case>
  @@KPT-EXIT rc=<n>           the job's exit status
Built-in KUnit suites print KTAP at boot: a suite's "ok N NAME" or "not ok
N NAME" (the only KTAP lines not indented) becomes the case kunit/NAME,
with the last "# TEST: pass:P fail:F skip:S total:T" before it as its note.
Kernel lines carry a printk timestamp; a splat is a kernel line matching
one of SPLATS.  Output of user space and the kernel share the console, so
markers are searched anywhere in a line, not only at its start.
"""

import re
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

SPLATS = [
    ("warning", r"WARNING:"),
    ("bug", r"BUG:"),
    ("oops", r"Oops"),
    ("kasan", r"KASAN:"),
    ("ubsan", r"UBSAN:"),
    ("lockdep", r"possible circular locking dependency|"
                r"inconsistent lock state|possible recursive locking|"
                r"DEBUG_LOCKS_WARN_ON|possible irq lock inversion|"
                r"lock held when returning to user space|"
                r"suspicious RCU usage|bad unlock balance"),
    ("rcu-stall", r"rcu: INFO: \w+ (self-)?detected stall|"
                  r"rcu_\w+ (self-)?detected stalls?|"
                  r"rcu: INFO: \w+ detected expedited stalls"),
    ("soft-lockup", r"soft lockup"),
    ("hung-task", r"INFO: task \S+ blocked for more than"),
    ("panic", r"Kernel panic"),
    ("gpf", r"general protection fault"),
    ("kmemleak", r"kmemleak: \d+ new suspected memory leaks|"
                 r"unreferenced object 0x"),
]
_SPLAT = re.compile("|".join(f"(?P<{k.replace('-', '_')}>{p})"
                             for k, p in SPLATS))
_KLINE = re.compile(r"\[\s*\d+\.\d+\]")
_BEGIN = re.compile(r"@@KPT-TEST-BEGIN (\S+)")
_RESULT = re.compile(r"@@KPT-RESULT (\S+(?: \(instance\))?) ([A-Z]+)")
_EXIT = re.compile(r"@@KPT-EXIT rc=(\d+)")
_BOOTED = re.compile(r"@@KPT-BOOTED")
_KTAP_SUITE = re.compile(r"\] (not ok|ok) \d+ (\w+)\s*$")
_KTAP_TOTALS = re.compile(r"# \w+: (pass:\d+ fail:\d+ skip:\d+ total:\d+)")


@dataclass
class Splat:
    lineno: int      # 1-based line in the console log
    kind: str        # key of SPLATS
    line: str        # the console line
    test: str        # test case running at the time, or '' (boot, job)


@dataclass
class Result:
    lines: list[str]
    timed_out: bool = False
    booted: bool = False
    exit_rc: Optional[int] = None
    # [(case, RESULT)]
    results: list[tuple[str, str]] = field(default_factory=list)
    notes: dict[str, str] = field(default_factory=dict)  # case -> note (KUnit)
    splats: list[Splat] = field(default_factory=list)
    seconds: float = 0.0

    def verdict(self,
                allowed: Sequence[tuple[str, re.Pattern[str]]] = ()) -> str:
        """One line: PASS, or FAIL/TIMEOUT/CRASH and why."""
        bad = [s for s in self.splats if not allowed_splat(s, allowed)]
        if self.timed_out:
            head = "TIMEOUT"
        elif self.exit_rc is None:
            head = "CRASH" if self.booted else "NOBOOT"
        elif self.exit_rc != 0 or bad:
            head = "FAIL"
        else:
            head = "PASS"
        why = [f"rc={self.exit_rc}"]
        if bad:
            why.append(f"{len(bad)} console splat(s), first at line "
                       f"{bad[0].lineno}: {bad[0].line.strip()[:120]}")
        return f"{head} {'; '.join(why)} ({self.seconds:.0f}s)"


def allowed_splat(splat: Splat,
                  allowed: Iterable[tuple[str, re.Pattern[str]]]) -> bool:
    """allowed: [(test glob or '*', compiled regex)] from expectations."""
    from fnmatch import fnmatch
    return any(fnmatch(splat.test or "(boot)", t) and rx.search(splat.line)
               for t, rx in allowed)


def _parse_ktap(res: Result, line: str, totals: str) -> str:
    """A KUnit suite's verdict in @res; returns the last totals seen."""
    m = _KTAP_TOTALS.search(line)
    if m:
        return m.group(1)
    m = _KTAP_SUITE.search(line)
    if m:
        case = f"kunit/{m.group(2)}"
        res.results.append((case, "FAIL" if m.group(1) == "not ok"
                            else "PASS"))
        res.notes[case] = totals
        return ""
    return totals


def parse(lines: list[str], timed_out: bool = False) -> Result:
    res = Result(lines=lines, timed_out=timed_out)
    test = ""
    totals = ""
    for n, line in enumerate(lines, 1):
        if _BOOTED.search(line):
            res.booted = True
        m = _BEGIN.search(line)
        if m:
            test = "" if m.group(1) == "(end)" else m.group(1)
        m = _RESULT.search(line)
        if m:
            res.results.append((m.group(1), m.group(2)))
        m = _EXIT.search(line)
        if m:
            res.exit_rc = int(m.group(1))
        k = _KLINE.search(line)
        if k:
            totals = _parse_ktap(res, line, totals)
            s = _SPLAT.search(line, k.end())
            if s:
                kind = s.lastgroup   # every alternative is a named group
                assert kind is not None
                res.splats.append(Splat(n, kind.replace("_", "-"), line,
                                        test))
    return res
