"""The series plan: harness/series/P-part/NN-slug.txt, one file per patch.

The series comes in parts, each a directory P-name (1-fixes, 2-rewrite,
...) with a cover letter (cover.txt: subject line, then the blurb) and its
patches; a part applies on top of the parts before it.  Part 1 holds the
fixes of 6.12's own code, which apply to pristine 6.12 alone (the tree
KERNEL=fixes builds); part 2 the rewrite, which needs part 1 only
(KERNEL=rewrite); part 3 the core speed-ups.  A patch of a later part
may change one of our files that an earlier patch adds: the repo holds
the last version, and tree.rewound() gives the earlier ones.

A plan file is the commit message (subject, blank line, body,
Signed-off-by), a line "---", then directives:

    files: GLOB...      repo files (overlay paths) the patch adds or replaces
    apply: PATH.patch   an edit to upstream files the patch includes
                        (patches/NAME.patch, or Kconfig.patch at the root)
    delete: PATH...     upstream files the patch deletes
    test: CASE...       (fixes) the ftracetest cases that fail without the
                        fix and pass with it: make check-fixes runs them on
                        KERNEL=upstream and KERNEL=fixes
    rename: OLD NEW     (a mechanical rename) the file at OLD moves to NEW,
                        a repo path; before this step it is at OLD
    subst: FROM TO      (with rename) every FROM in our files becomes TO;
                        before this step our files say FROM
    route: ROUTE        (fixes) where the fix is sent: "mainline" (the
                        default: the maintainers, then stable through its
                        Cc: stable tag) or "6.12.y" (mainline no longer
                        has the code: to the stable list, as
                        [PATCH 6.12.y], with the maintainers in Cc)

An empty message takes the subject and body of the single "apply:" patch.
The plan is the one place that orders the upstream-file patches and lists
the upstream files we delete: tree.py builds our kernel tree from it too,
so the tree we test is the tree the series produces.  MAINTAINERS.patch
is not in any plan file: series.py spreads its entry over the patches
that add the files it lists.
"""

from __future__ import annotations

import fnmatch
import glob
import os
import re
from typing import Collection, Iterable, Optional, Sequence, cast

from . import paths

PLAN_DIR = os.path.join(paths.HARNESS, "series")
MAINTAINERS_PATCH = "MAINTAINERS.patch"
PATCH_DIR = "patches"
_NAME = re.compile(r"^(\d\d)-([a-z0-9-]+)\.txt$")
_PART = re.compile(r"^(\d)-([a-z0-9-]+)$")
FIXES_PART = 1
REWRITE_PART = 2


class Step:
    """One patch of the series."""

    def __init__(self, num: int, slug: str, part: int = 1,
                 part_name: str = "fixes") -> None:
        self.num = num          # place in the whole series, from 1
        self.slug = slug
        self.part = part
        self.part_name = part_name
        self.message = ""
        self.files: list[str] = []
        self.applies: list[str] = []
        self.deletes: list[str] = []
        self.tests: list[str] = []
        self.renames: list[tuple[str, str]] = []   # (old path, new path)
        self.substs: list[tuple[str, str]] = []    # (from, to)
        self.route = "mainline"
        self.path = ""          # the plan file

    @property
    def subject(self) -> str:
        return self.message.split("\n", 1)[0]


def patch_message(name: str) -> str:
    """Subject line and body of an upstream-file patch's mail header."""
    with open(os.path.join(paths.REPO, name)) as f:
        head = f.read().split("\n---\n", 1)[0]
    m = re.search(r"^Subject: (?:\[PATCH\] )?(.*)$", head, re.M)
    if not m:
        raise SystemExit(f"plan: {name} has no Subject: line")
    body = head.split("\n\n", 1)[1] if "\n\n" in head else ""
    return f"{m.group(1)}\n\n{body.strip()}\n"


def _is_glob(word: str) -> bool:
    return any(c in word for c in "*?[")


def _expand(pattern: str, overlay: Collection[str], where: str,
            taken: Collection[str] = ()) -> list[str]:
    """Repo files @pattern names; a glob skips files another step took:
    an earlier step's (a fix's test in part 1, the rest of its directory
    later) and any a step names without a glob (an extension's test after
    the patch that adds the others)."""
    hits = [p for p in overlay if fnmatch.fnmatchcase(p, pattern)]
    if _is_glob(pattern):
        hits = [p for p in hits if p not in taken]
    if not hits:
        raise SystemExit(f"plan: {where}: '{pattern}' matches no repo file")
    return hits


def _parse(path: str, num: int, slug: str, overlay: Collection[str],
           part: int = 1, part_name: str = "fixes",
           taken: Collection[str] = ()) -> Step:
    step = Step(num, slug, part, part_name)
    step.path = path
    with open(path) as f:
        text = f.read()
    if text.startswith("---\n"):
        msg, rest = "", text[4:]
    elif "\n---\n" in text:
        msg, rest = text.split("\n---\n", 1)
    else:
        raise SystemExit(f"plan: {path}: no '---' line before directives")
    where = os.path.basename(path)
    for line in rest.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key, _, val = line.partition(":")
        words = val.split()
        if key == "files":
            for w in words:
                step.files += _expand(w, overlay, where, taken)
        elif key == "apply":
            step.applies += words
        elif key == "delete":
            step.deletes += words
        elif key == "test":
            step.tests += words
        elif key == "route":
            if words not in (["mainline"], ["6.12.y"]):
                raise SystemExit(f"plan: {where}: 'route:' is mainline or "
                                 "6.12.y")
            step.route = words[0]
        elif key in ("rename", "subst"):
            if len(words) != 2:
                raise SystemExit(f"plan: {where}: '{key}:' takes two words")
            (step.renames if key == "rename" else step.substs).append(
                cast("tuple[str, str]", tuple(words)))
        else:
            raise SystemExit(f"plan: {where}: unknown directive '{key}'")
    step.message = msg.strip() + "\n" if msg.strip() else ""
    if not step.message:
        if len(step.applies) != 1:
            raise SystemExit(f"plan: {where}: no message and not exactly "
                             "one 'apply:' to take it from")
        step.message = patch_message(step.applies[0])
    return step


def parts() -> list[tuple[int, str, str]]:
    """[(number, name, directory)] of the series' parts, in order."""
    if not os.path.isdir(PLAN_DIR):
        return []
    out = []
    for name in sorted(os.listdir(PLAN_DIR)):
        m = _PART.match(name)
        if m and os.path.isdir(os.path.join(PLAN_DIR, name)):
            out.append((int(m[1]), m[2], os.path.join(PLAN_DIR, name)))
    return out


def _named(pdirs: Iterable[str]) -> set[str]:
    """Repo files some plan file names in a "files:" line without a glob."""
    named: set[str] = set()
    for pdir in pdirs:
        for name in os.listdir(pdir):
            if not _NAME.match(name):
                continue
            with open(os.path.join(pdir, name)) as f:
                rest = f.read().split("\n---\n", 1)[-1]
            for line in rest.splitlines():
                if line.startswith("files:"):
                    named.update(w for w in line[6:].split()
                                 if not _is_glob(w))
    return named


def load(overlay: Collection[str]) -> list[Step]:
    """The steps of every part in order; @overlay: the repo's overlay
    file paths."""
    steps: list[Step] = []
    taken = _named([pdir for *_, pdir in parts()])
    for part, part_name, pdir in parts():
        for name in sorted(os.listdir(pdir)):
            m = _NAME.match(name)
            if m:
                steps.append(_parse(os.path.join(pdir, name),
                                    len(steps) + 1, m[2], overlay, part,
                                    part_name, taken))
                taken.update(steps[-1].files)
    return steps


def problems(steps: Collection[Step], overlay: Iterable[str],
             root_patches: Collection[str]) -> list[str]:
    """What keeps the plan from covering the repo exactly once."""
    errors = []
    seen: dict[str, str] = {}
    for s in steps:
        for p in s.files + s.applies:
            if p in seen:
                errors.append(f"{p} in both {seen[p]} and {s.slug}")
            seen[p] = s.slug
    created = {rel for s in steps for name in s.applies
               for rel in _created(name)}
    for p in overlay:
        if p not in seen and p not in created:
            errors.append(f"{p} is in no patch of harness/series/")
    for p in root_patches:
        if p != MAINTAINERS_PATCH and p not in seen:
            errors.append(f"{p} is in no patch of harness/series/")
    for s in steps:
        for p in s.applies:
            if p not in root_patches:
                errors.append(f"{s.slug}: no upstream-file patch {p}")
    return errors


def diff_files(lines: Sequence[str]
               ) -> list[tuple[int, Optional[str], Optional[str]]]:
    """[(index, old, new)] of each file header of the unified diff @lines:
    the line index of its '--- ' line, and its two paths without the a/
    and b/ prefix, None for /dev/null."""
    def path(line: str) -> Optional[str]:
        p = line[4:].split("\t")[0].strip()
        return None if p == "/dev/null" else p.split("/", 1)[1]

    return [(i, path(line), path(lines[i + 1]))
            for i, line in enumerate(lines[:-1])
            if line.startswith("--- ") and lines[i + 1].startswith("+++ ")]


def read_diff(name: str) -> list[str]:
    """The lines of repo patch @name, or [] when there is none."""
    path = os.path.join(paths.REPO, name)
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return f.read().splitlines(True)


def _created(name: str) -> list[Optional[str]]:
    """Repo paths the unified diff @name creates (from /dev/null)."""
    return [new for _, old, new in diff_files(read_diff(name)) if not old]


def validate(steps: Collection[Step], overlay: Iterable[str],
             root_patches: Collection[str]) -> None:
    """Every overlay file and root patch in exactly one step, or exit."""
    errors = problems(steps, overlay, root_patches)
    if errors:
        raise SystemExit("plan: " + "\n  ".join(errors))


def root_patches() -> list[str]:
    """Edits to upstream files, as repo paths: Kconfig.patch and
    MAINTAINERS.patch at the root, every other one in patches/."""
    names = [p for p in os.listdir(paths.REPO) if p.endswith(".patch")]
    pdir = os.path.join(paths.REPO, PATCH_DIR)
    if os.path.isdir(pdir):
        names += [f"{PATCH_DIR}/{p}" for p in os.listdir(pdir)
                  if p.endswith(".patch")]
    return sorted(names)


def patch_order(overlay: Collection[str]) -> list[str]:
    """Upstream-file patches in series order, then any the plan lacks.

    A patch the plan does not list yet (work in progress) still builds,
    after the listed ones in name order; make series refuses it.
    """
    names = root_patches()
    if not glob.glob(os.path.join(PLAN_DIR, "[0-9]-*", "[0-9][0-9]-*.txt")):
        return names
    order = [p for s in load(overlay) for p in s.applies if p in names]
    return order + [p for p in names if p not in order]
