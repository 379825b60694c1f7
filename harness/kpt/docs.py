"""docs: the trace documentation of the tree we test, built with the
kernel's Sphinx (make htmldocs SPHINXDIRS=trace).

The tree is ours (6.12 with the whole series), so the pages the series
changes through patches (fprobetrace.rst, uprobetracer.rst,
eprobetrace.rst) are built as they will be merged, beside our
kprobetrace.rst.  Pristine 6.12 is built the same way once, to tell its
own warnings from ours: SPHINXDIRS=trace cannot resolve labels outside
Documentation/trace, which some of its pages link to.

The command fails on a warning in a page the series changes, on any
warning pristine 6.12 does not have, and when kprobetrace.rst lacks an
error_log message of trace_probe_errors.h.
"""

import os
import re
import shutil
import subprocess
import time

from . import deps, paths, tree
from .util import log

ERRORS_H = os.path.join(paths.REPO, "kernel", "trace", "trace_probe_errors.h")
MANUAL = os.path.join(paths.REPO, "Documentation", "trace", "kprobetrace.rst")
_WARNING = re.compile(r"^(\S+?):(\d+): (WARNING|ERROR|CRITICAL): (.*)$")


def missing_messages() -> list:
    """error_log messages of trace_probe_errors.h that kprobetrace.rst
    does not show (as ``message``)."""
    with open(ERRORS_H) as f:
        msgs = re.findall(r'^TPP_ERR\([A-Z0-9_]+,\s*"(.*)"\)$', f.read(),
                          re.M)
    with open(MANUAL) as f:
        doc = f.read()
    return [m for m in (x.replace('\\"', '"') for x in msgs)
            if f"``{m}``" not in doc]


def warnings(log_text: str, src: str) -> set:
    """{(path relative to the tree, message)} of a Sphinx log."""
    out = set()
    for line in log_text.splitlines():
        m = _WARNING.match(line.strip())
        if m:
            path = os.path.relpath(m.group(1), src) \
                if m.group(1).startswith("/") else m.group(1)
            out.add((path, m.group(4).strip()))
    return out


def build(src: str, out: str) -> str:
    """make htmldocs SPHINXDIRS=trace of @src into @out; the log text."""
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    env = {k: v for k, v in os.environ.items()
           if k not in ("ARCH", "V", "MAKEFLAGS", "MAKELEVEL", "MFLAGS",
                        "KERNEL")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    r = subprocess.run(["make", "-C", src, f"O={out}", "htmldocs",
                        "SPHINXDIRS=trace"], env=env, capture_output=True,
                       text=True, errors="replace")
    text = r.stdout + r.stderr
    with open(os.path.join(out, "htmldocs.log"), "w") as f:
        f.write(text)
    if r.returncode:
        print("\n".join(text.splitlines()[-30:]))
        raise SystemExit(f"docs: htmldocs failed in {src}; log "
                         f"{out}/htmldocs.log")
    return text


def _pristine_warnings(root: str) -> set:
    """6.12's own warnings, built once per tarball."""
    st = os.stat(tree.KTAR)
    cache = os.path.join(root, f"upstream-{st.st_size}-{int(st.st_mtime)}"
                         ".warnings")
    if not os.path.exists(cache):
        src = tree.pristine()
        text = build(src, os.path.join(root, "upstream"))
        with open(cache, "w") as f:
            for path, msg in sorted(warnings(text, src)):
                f.write(f"{path}\t{msg}\n")
    with open(cache) as f:
        return {tuple(line.rstrip("\n").split("\t", 1)) for line in f}


def main() -> int:
    deps.install(deps.GROUPS["docs"], "documentation tools")
    bad = 0
    for m in missing_messages():
        print(f"docs: kprobetrace.rst lacks error_log message: {m}")
        bad += 1
    root = os.environ.get("DOCS_ROOT") or os.path.join(paths.root(), "docs")
    os.makedirs(root, exist_ok=True)
    t0 = time.monotonic()
    src = tree.ours()
    log(f"docs: htmldocs SPHINXDIRS=trace of {src}")
    ours = warnings(build(src, os.path.join(root, "ours")), src)
    upstream = _pristine_warnings(root)
    mine = {f for f in tree.series_files()
            if f.startswith("Documentation/")}
    ours_files = sorted(mine)
    in_ours = sorted(w for w in ours if w[0] in mine)
    new = sorted(w for w in ours if w not in upstream and w[0] not in mine)
    for path, msg in in_ours + new:
        print(f"docs: {path}: {msg}")
    bad += len(in_ours) + len(new)
    print(f"docs: {time.monotonic() - t0:.0f} s; {len(ours)} warnings: "
          f"{len(in_ours)} in the {len(ours_files)} pages the series "
          f"changes ({', '.join(os.path.basename(f) for f in ours_files)}), "
          f"{len(new)} new, {len(ours) - len(in_ours) - len(new)} of 6.12's "
          f"own (labels outside Documentation/trace); html in "
          f"{root}/ours/Documentation/output", flush=True)
    return 1 if bad else 0
