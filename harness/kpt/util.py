"""Small helpers shared by the stages."""

import subprocess
import sys
import time
from typing import Any, Sequence

_T0 = time.monotonic()


def log(msg: str) -> None:
    """Progress on stderr, so stdout stays the guest's and the verdicts'."""
    t = time.monotonic() - _T0
    print(f"[probetest {t:7.1f}s] {msg}", file=sys.stderr, flush=True)


def run(cmd: Sequence[str],
        **kw: Any) -> subprocess.CompletedProcess[Any]:
    """Run a command, failing loudly with its name."""
    r = subprocess.run(cmd, **kw)
    if r.returncode:
        raise SystemExit(f"probetest: command failed ({r.returncode}): "
                         f"{' '.join(map(str, cmd))}")
    return r
