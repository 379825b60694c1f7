"""Where things live: the repo, and the build area outside it."""

import os
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
HARNESS = os.path.join(REPO, "harness")


def root() -> str:
    """The build area (KPT_ROOT, default /var/tmp/kpt), created on demand."""
    r = os.environ.get("KPT_ROOT") or "/var/tmp/kpt"
    os.makedirs(r, exist_ok=True)
    return r


def src(kernel: str) -> str:
    return os.path.join(root(), "src", kernel)


def build(name: str) -> str:
    return os.path.join(root(), "build", name)


def runs() -> str:
    """Console logs and verdicts of every boot."""
    d = os.path.join(root(), "runs")
    os.makedirs(d, exist_ok=True)
    return d


def new_run(name: str) -> str:
    """A new directory KPT_ROOT/runs/<stamp>-@name (".2", ".3", ... when
    that second has one already)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    d = os.path.join(runs(), f"{stamp}-{name}")
    n = 1
    while os.path.exists(d):
        n += 1
        d = os.path.join(runs(), f"{stamp}-{name}.{n}")
    os.makedirs(d)
    return d


def ccache() -> str:
    return os.path.join(root(), "ccache")
