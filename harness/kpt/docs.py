"""docs: the trace documentation of the tree we test, built with the
kernel's Sphinx (make htmldocs SPHINXDIRS=trace).

The tree is ours (6.12 with the whole series), so the pages the series
changes through patches (fprobetrace.rst, uprobetracer.rst,
eprobetrace.rst) are built as they will be merged, beside our
kprobetrace.rst.

SPHINXDIRS=trace makes Documentation/trace a project of its own, so a
link from it to a label elsewhere in Documentation (boottime-trace.rst
to admin-guide/bootconfig.rst) is "undefined" there though a full
htmldocs resolves it.  Such a warning is checked against the whole tree
instead: it counts when the label is not defined anywhere.

The command fails on any other warning, on a link no page of the tree
defines, and when kprobetrace.rst lacks an error_log message of
trace_probe_errors.h.
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
_UNDEFINED = re.compile(r"^undefined label: '(.*)'$")
# a section title's underline (or overline)
_ADORNMENT = re.compile(r"^([=\-~^\"'`#*+.:_])\1+$")


def missing_messages() -> list[str]:
    """error_log messages of trace_probe_errors.h that kprobetrace.rst
    does not show (as ``message``)."""
    with open(ERRORS_H) as f:
        msgs = re.findall(r'^TPP_ERR\([A-Z0-9_]+,\s*"(.*)"\)$', f.read(),
                          re.M)
    with open(MANUAL) as f:
        doc = f.read()
    return [m for m in (x.replace('\\"', '"') for x in msgs)
            if f"``{m}``" not in doc]


def warnings(log_text: str, src: str) -> set[tuple[str, str]]:
    """{(path relative to the tree, message)} of a Sphinx log."""
    out: set[tuple[str, str]] = set()
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


def _norm(text: str) -> str:
    """A reference target as Sphinx compares it."""
    return " ".join(text.lower().split())


def _sections(path: str) -> set[str]:
    """The normalised section titles of an rst file."""
    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    return {_norm(t) for t, u in zip(lines, lines[1:])
            if t.strip() and _ADORNMENT.match(u.strip())
            and len(u.strip()) >= len(t.strip())}


def label_defined(doc: str, label: str) -> bool:
    """Whether Documentation directory @doc defines @label, as a full
    htmldocs sees it: an explicit ".. _label:" in any page, or a section
    title under autosectionlabel_prefix_document ("dir/page:title")."""
    label = _norm(label)
    page, _, title = label.rpartition(":")
    if page and os.path.isfile(os.path.join(doc, page + ".rst")):
        if title in _sections(os.path.join(doc, page + ".rst")):
            return True
    explicit = re.compile(r"^\.\.\s+_" + re.escape(label) + r":\s*$",
                          re.I | re.M)
    for top, _, files in os.walk(doc):
        for name in files:
            if name.endswith(".rst"):
                with open(os.path.join(top, name), errors="replace") as f:
                    if explicit.search(f.read()):
                        return True
    return False


def outside_links(found: set[tuple[str, str]], src: str
                  ) -> set[tuple[str, str]]:
    """The warnings of @found that are links out of Documentation/trace
    to labels the rest of @src's Documentation defines."""
    doc = os.path.join(src, "Documentation")
    out: set[tuple[str, str]] = set()
    for w in found:
        m = _UNDEFINED.match(w[1])
        if m and label_defined(doc, m.group(1)):
            out.add(w)
    return out


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
    found = warnings(build(src, os.path.join(root, "ours")), src)
    linked = outside_links(found, src)
    bad_warnings = sorted(found - linked)
    n = len(bad_warnings)
    pages = sorted(os.path.basename(f) for f in tree.series_files()
                   if f.startswith("Documentation/trace/"))
    for path, msg in bad_warnings:
        print(f"docs: {path}: {msg}")
    bad += n
    print(f"docs: {time.monotonic() - t0:.0f} s; {n} "
          f"warning{'' if n == 1 else 's'} "
          f"(the series changes {', '.join(pages)}); "
          f"{len(linked)} links out of Documentation/trace, defined "
          f"elsewhere in Documentation; html in "
          f"{root}/ours/Documentation/output", flush=True)
    return 1 if bad else 0
