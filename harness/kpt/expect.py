"""Per-arch expectations: results other than PASS that are known and why.

File harness/expect/<arch>.txt, one entry a line, '#' comments, and for
a kernel flavour harness/expect/<arch>-<flavour>.txt over it:

  <case> <RESULT> <kernels> <reason...>
  console <case-glob> <kernels> /<regex>/ <reason...>

<case> is a path under the ftrace selftest dir, '(instance)' appended for
the instance run (no blank: 'test.d/x.tc(instance)').  <kernels> is
'all' or a comma-separated list of 'ours', 'upstream', 'fixes' (6.12
plus part 1 of the series) and 'rewrite' (parts 1 and 2): an entry
about a 6.12 bug that part 1 fixes names 'upstream' alone, one about
what 6.12 and its fixes lack (our extensions, deliberate differences)
names 'upstream,fixes'.  A reason is required: an entry without one is
an error, so nothing is skipped silently.  A console entry lets a
kernel line matching <regex> appear while <case-glob> runs ('(boot)' for
lines before any case).
"""

import os
import re
from dataclasses import dataclass
from typing import Optional

from . import paths, tree

DIR = os.path.join(paths.HARNESS, "expect")
RESULTS = {"PASS", "FAIL", "UNRESOLVED", "UNSUPPORTED", "UNTESTED", "XFAIL",
           "UNDEFINED", "TIMEOUT", "NORESULT"}


@dataclass
class Expect:
    results: dict[str, tuple[str, str]]    # case -> (RESULT, reason)
    # [(case glob, compiled regex, reason)]
    console: list[tuple[str, re.Pattern[str], str]]

    def allowed_console(self) -> list[tuple[str, re.Pattern[str]]]:
        return [(g, rx) for g, rx, _ in self.console]


KERNELS = tree.KERNELS


def _applies(kernels: str, kernel: str, where: str) -> bool:
    names = kernels.split(",")
    if kernels != "all" and not all(n in KERNELS for n in names):
        raise SystemExit(f"probetest: {where}: kernels must be all or a "
                         f"list of {', '.join(KERNELS)}, not '{kernels}'")
    return kernels == "all" or kernel in names


def _console_entry(rest: str, kernel: str, where: str
                   ) -> Optional[tuple[str, re.Pattern[str], str]]:
    m = re.match(r"(\S+)\s+(\S+)\s+/(.+?)/\s+(\S.*)$", rest)
    if not m:
        raise SystemExit(f"probetest: {where}: want 'console <case-glob> "
                         "<kernels> /<regex>/ <reason>'")
    if not _applies(m.group(2), kernel, where):
        return None
    return (m.group(1), re.compile(m.group(3)), m.group(4))


def load(archname: str, kernel: str, path: Optional[str] = None,
         flavour: str = "") -> Expect:
    """<arch>.txt's entries for @kernel, then those of <arch>-<flavour>.txt
    (a kernel flavour's own: BTI=1 is built with clang) over them."""
    exp = _load(archname, kernel, path)
    extra = os.path.join(DIR, f"{archname}-{flavour}.txt")
    if flavour and not path and os.path.exists(extra):
        more = _load(archname, kernel, extra)
        exp.results.update(more.results)
        exp.console += more.console
    return exp


def _load(archname: str, kernel: str, path: Optional[str] = None) -> Expect:
    path = path or os.path.join(DIR, f"{archname}.txt")
    exp = Expect({}, [])
    if not os.path.exists(path):
        return exp
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip() if raw.lstrip().startswith(
                "#") else raw.strip()
            if not line:
                continue
            where = f"{os.path.basename(path)}:{n}"
            head, _, rest = line.partition(" ")
            if head == "console":
                entry = _console_entry(rest.strip(), kernel, where)
                if entry:
                    exp.console.append(entry)
                continue
            parts = line.split(None, 3)
            if len(parts) < 4 or parts[1] not in RESULTS:
                raise SystemExit(f"probetest: {where}: want '<case> <RESULT> "
                                 "<kernels> <reason>'")
            if _applies(parts[2], kernel, where):
                exp.results[parts[0]] = (parts[1], parts[3])
    return exp
