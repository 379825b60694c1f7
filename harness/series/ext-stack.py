#!/usr/bin/env python3
"""The extension patches of part 2 as a stack of commits, and back.

Part 2 moves the tracers at 6.12's behaviour and then adds each
user-visible extension in a patch of its own (harness/series/2-rewrite,
the "apply: patches/*.patch" steps after the selftests).  Those patches
change our own files, which the repo holds in their final version; a
code change in a region an extension patch touches makes that patch
stop undoing cleanly (make series says which).  This tool keeps them in
step:

  ext-stack.py init     a work tree (EXT_WT, default KPT_ROOT/src/ext-stack)
                        on a branch "ext-stack": HEAD of the repo, one
                        commit that takes out part 3's changes to our files
                        (they apply after the extensions), then one commit
                        per extension that takes it out, the last
                        extension first
  (edit and commit in the repo; in the work tree: git rebase <repo HEAD>,
   resolving each conflict for the state without that extension)
  ext-stack.py regen    rewrite each extension patch as the diff between
                        its commit and the one before it (our files only;
                        its mail header and upstream-file hunks are kept),
                        and the documentation split (kprobetrace-reference)

Each patch's "files:" tests are added by its step, so they are not in
the diff.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from typing import Collection, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "harness"))
from kpt import paths, plan, tree  # noqa: E402

WT = os.environ.get("EXT_WT") or os.path.join(paths.root(), "src", "ext-stack")
BRANCH = "ext-stack"
# series order; the stack holds them the other way round
EXTENSIONS = [
    "patches/probe-entry-kretprobe.patch",
    "patches/fprobe-entry-values.patch",
    "patches/uprobe-entry-values.patch",
    "patches/probe-current-percpu-typecast.patch",
    "patches/probe-asm-regs.patch",
    "patches/arm64-probe-stack-args.patch",
    "patches/probe-refusals-explained.patch",
    "patches/tprobe-stub-sharing.patch",
    "patches/kprobe-release-batch.patch",
    "patches/probe-delete-deferred.patch",
    "patches/wprobe-events.patch",
    "patches/wprobe-triggers.patch",
]
DOC = "Documentation/trace/kprobetrace.rst"
DOC_SPLIT = "patches/kprobetrace-reference.patch"


def git(*args: str, cwd: str = WT, inp: Optional[str] = None) -> str:
    return subprocess.run(["git", *args], cwd=cwd, input=inp, check=True,
                          capture_output=True, text=True).stdout


def step_of(patch: str) -> plan.Step:
    return next(s for s in plan.load(tree.overlay_files())
                if patch in s.applies)


def split(text: str) -> tuple[str, list[tuple[Optional[str], str]]]:
    """(mail header, [(path, hunk text)]) of a patch file."""
    head, body = text.split("\n---\n", 1)
    lines = body.splitlines(True)
    hdrs = plan.diff_files(lines)
    chunks = []
    for k, (i, old, new) in enumerate(hdrs):
        end = hdrs[k + 1][0] if k + 1 < len(hdrs) else len(lines)
        chunk = lines[i:end]
        while chunk and chunk[-1].startswith(("diff --git", "index ")):
            chunk = chunk[:-1]
        chunks.append((new or old, "".join(chunk)))
    return head, chunks


def unapply(name: str, overlay: Collection[str]) -> None:
    """Take patch @name's hunks on our files out of the work tree's index."""
    with open(os.path.join(REPO, name)) as f:
        _, chunks = split(f.read())
    ours = "".join(c for p, c in chunks if p in overlay)
    if ours:
        git("apply", "-R", "--index", "-", inp=ours)


def init() -> None:
    if os.path.exists(WT):
        raise SystemExit(f"ext-stack: {WT} exists; remove it first")
    git("worktree", "add", "-q", "-B", BRANCH, WT, "HEAD", cwd=REPO)
    overlay = set(tree.overlay_files())
    speed = [n for s in plan.load(tree.overlay_files())
             if s.part > plan.REWRITE_PART for n in s.applies]
    for name in reversed(speed):
        unapply(name, overlay)
    git("commit", "-q", "--allow-empty", "-m", "ext-stack: without part 3")
    for name in reversed(EXTENSIONS):
        unapply(name, overlay)
        for rel in step_of(name).files:
            git("rm", "-q", rel)
        git("commit", "-q", "-m", f"ext-stack: without {name}")
    print(f"ext-stack: {WT}, branch {BRANCH}")


def regen() -> None:
    overlay = set(tree.overlay_files())
    ids = {s.split(" ", 1)[1]: s.split(" ", 1)[0] for s in
           git("log", "--format=%H %s", "HEAD~%d..HEAD" %
               len(EXTENSIONS)).splitlines()}
    for name in EXTENSIONS:
        cid = ids[f"ext-stack: without {name}"]
        diff = git("diff", "--no-renames", "--diff-filter=M", cid, cid + "~1",
                   "--", ".", ":!patches")
        path = os.path.join(REPO, name)
        with open(path) as f:
            text = f.read()
        head, chunks = split(text)
        keep = "".join(c for p, c in chunks if p not in overlay)
        out = head + "\n---\n" + diff + keep
        if out != text:
            with open(path, "w") as f:
                f.write(out)
            print(f"ext-stack: rewrote {name}")
    doc = git("show", f"HEAD:{DOC}")
    guide = cut(doc, "The error log\n=============\n", "Limits\n======\n")
    with tempfile.TemporaryDirectory() as d:
        for side, s in (("a", guide), ("b", doc)):
            os.makedirs(os.path.join(d, side, os.path.dirname(DOC)))
            with open(os.path.join(d, side, DOC), "w") as f:
                f.write(s)
        r = subprocess.run(["diff", "-u", f"a/{DOC}", f"b/{DOC}"], cwd=d,
                           capture_output=True, text=True)
    ddiff = "".join(l.split("\t")[0] + "\n" if l.startswith(("--- ", "+++ "))
                    else l for l in r.stdout.splitlines(True))
    path = os.path.join(REPO, DOC_SPLIT)
    with open(path) as f:
        text = f.read()
    out = text.split("\n---\n", 1)[0] + "\n---\n" + ddiff
    if out != text:
        with open(path, "w") as f:
            f.write(out)
        print(f"ext-stack: rewrote {DOC_SPLIT}")


def cut(s: str, start: str, end: str) -> str:
    a = s.index(start)
    return s[:a] + s[s.index(end, a):]


if __name__ == "__main__":
    {"init": init, "regen": regen}[sys.argv[1] if len(sys.argv) > 1
                                    else "regen"]()
