"""Source trees: the pristine upstream tree and ours (upstream + overlay).

The pristine tree is unpacked once from Debian's linux-source-6.12.  Ours
starts as a hard-linked copy of it.  Files are never written in place
(always a new file renamed over the old one), so the pristine tree behind
the hard links stays intact.

Only paths the overlay or a patch touches (now or in an earlier sync, as
recorded in a manifest) are compared and replaced.  A replaced file gets a
fresh mtime, an unchanged one keeps its old mtime, so an incremental kbuild
recompiles exactly what changed, including files that went back to
upstream's version.  Upstream files the series plan deletes
(harness/series/, see plan.py) are removed from our tree.  The fixes tree
is the same thing for part 1 of the series alone.
"""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import tempfile
from typing import Collection, Optional, Sequence, cast

from . import paths, plan
from .util import log, run

KTAR = "/usr/src/linux-source-6.12.tar.xz"

# Top-level directories of the repo that overlay the kernel tree.
OVERLAY_DIRS = ("arch", "block", "Documentation", "drivers", "fs", "include",
                "init", "kernel", "lib", "mm", "net", "samples", "scripts",
                "security", "tools")

MANIFEST = ".kpt-overlay-manifest"


def pristine() -> str:
    """Unpack the base kernel once; return its path."""
    dst = paths.src("upstream")
    if os.path.exists(os.path.join(dst, ".kpt-unpacked")):
        return dst
    if not os.path.exists(KTAR):
        raise SystemExit(f"probetest: {KTAR} missing (apt-get install "
                         "linux-source-6.12, or run 'make deps')")
    log(f"unpacking {KTAR} into {dst}")
    tmp = dst + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    run(["tar", "-C", tmp, "--strip-components=1", "-xf", KTAR])
    shutil.rmtree(dst, ignore_errors=True)
    os.rename(tmp, dst)
    open(os.path.join(dst, ".kpt-unpacked"), "w").close()
    return dst


def overlay_files() -> list[str]:
    """Repo paths (tracked or new, not ignored) that overlay the kernel."""
    out = subprocess.run(
        ["git", "-C", paths.REPO, "ls-files", "-co", "--exclude-standard",
         "--", *OVERLAY_DIRS],
        check=True, capture_output=True, text=True).stdout.split("\n")
    return sorted(p for p in out
                  if p and os.path.isfile(os.path.join(paths.REPO, p)))


def patch_files() -> list[str]:
    """Upstream-file patches (plan.root_patches()), in series order."""
    return plan.patch_order(overlay_files())


def patched_paths(patch: str) -> list[str]:
    """Paths a unified diff writes (not those it deletes)."""
    with open(patch) as f:
        lines = f.read().splitlines(True)
    return [new for _, _, new in plan.diff_files(lines) if new]


def series_files() -> set[str]:
    """Kernel paths the series adds or patches: the overlay and every
    path a patch of patches/ writes."""
    files = set(overlay_files())
    for name in patch_files():
        files.update(patched_paths(os.path.join(paths.REPO, name)))
    return files


def file_diff(patch: str, rel: str) -> str:
    """The part of the unified diff @patch that changes @rel, or ''."""
    with open(patch) as f:
        lines = f.read().splitlines(True)
    heads = plan.diff_files(lines) + [(len(lines), None, None)]
    for (i, old, new), (j, _, _) in zip(heads, heads[1:]):
        if (new or old) == rel:
            return "".join(lines[i:j])
    return ""


def _unpatch(text: str, diff: str, name: str, rel: str) -> str:
    """@text with the hunks @diff (of patch @name, on @rel) undone."""
    if diff.startswith("--- /dev/null"):
        raise SystemExit(f"probetest: {name} creates {rel}, which an earlier "
                         "patch of the plan lists")
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "f")
        with open(f, "w") as out:
            out.write(text)
        r = subprocess.run(["patch", "-s", "-R", "-F0", f],
                           input=diff, capture_output=True, text=True)
        if r.returncode:
            raise SystemExit(f"probetest: {name} does not undo on {rel} (edit "
                             f"the patch with the file):\n{r.stdout}"
                             f"{r.stderr}")
        with open(f) as inp:
            return inp.read()


def rewound(rel: str, later: Sequence[plan.Step]) -> tuple[str, str]:
    """(path, text): repo file @rel as it is before the steps @later
    (plan.Step, in series order) change it.  The repo holds the series'
    last version of each of our files; a later patch (a core speed-up)
    may change one that an early patch adds, and a mechanical rename may
    move it and change the words its substitutions name."""
    with open(os.path.join(paths.REPO, rel)) as f:
        text = f.read()
    path = rel
    for step in reversed(later):
        for name in reversed(step.applies):
            diff = file_diff(os.path.join(paths.REPO, name), path)
            if diff:
                text = _unpatch(text, diff, name, path)
        for frm, to in reversed(step.substs):
            text = text.replace(to, frm)
        for old, new in reversed(step.renames):
            if path == new:
                path = old
    return path, text


def _apply(name: str, base: str, stage: str, touched: set[str],
           deleted: set[str]) -> None:
    """Apply the upstream-file patch @name to the staged files, staging
    pristine copies of the files it edits that are not staged yet."""
    patch = os.path.join(paths.REPO, name)
    for rel in patched_paths(patch):
        dst = os.path.join(stage, rel)
        if not os.path.exists(dst) and rel not in deleted and \
                os.path.exists(os.path.join(base, rel)):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(os.path.join(base, rel), dst)
            shutil.copymode(os.path.join(base, rel), dst)
        touched.add(rel)
        deleted.discard(rel)
    r = subprocess.run(["patch", "-s", "-p1", "-F0", "-d", stage, "-i",
                        patch, "--no-backup-if-mismatch", "-r", "-"],
                       capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"probetest: {name} does not apply:\n{r.stdout}"
                         f"{r.stderr}")


class Replay:
    """The series plan replayed step by step in a staging directory, as
    git am applies the series: a step's repo files (rewound to what they
    are at that step), its renames and substitutions, its upstream-file
    patches, its deletes.  So a fix of an upstream file may precede the
    step that replaces the file.  Every tree the harness builds and every
    commit of make series comes from here."""

    touched: set[str]
    deleted: set[str]
    where: dict[str, str]
    planned_files: set[str]
    planned_patches: set[str]
    changed: set[str]

    def __init__(self, base: str, stage: str,
                 steps: Optional[list[plan.Step]] = None) -> None:
        self.base, self.stage = base, stage
        self.overlay = overlay_files()
        self.steps = steps if steps is not None else plan.load(self.overlay)
        self.touched, self.deleted = set(), set()
        self.where = {}         # our file (repo path) -> its path now
        self.planned_files, self.planned_patches = set(), set()
        self.changed = set()    # paths the step being replayed changed

    def _write(self, path: str, text: Optional[str] = None,
               src: Optional[str] = None,
               mode_of: Optional[str] = None) -> None:
        """Stage @path with @text or a copy of @src, with the mode of
        @src or @mode_of (an existing staged file keeps its own)."""
        dst = os.path.join(self.stage, path)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if src is not None:
            shutil.copyfile(src, dst)
        else:
            with open(dst, "w") as f:
                f.write(cast(str, text))
        if src or mode_of:
            shutil.copymode(cast(str, src or mode_of), dst)
        self.touched.add(path)
        self.changed.add(path)
        self.deleted.discard(path)

    def _remove(self, path: str) -> None:
        full = os.path.join(self.stage, path)
        if os.path.exists(full):
            os.unlink(full)
        self.touched.add(path)
        self.changed.add(path)
        if os.path.exists(os.path.join(self.base, path)):
            self.deleted.add(path)

    def _rename(self, old: str, new: str) -> None:
        dst = os.path.join(self.stage, new)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        os.replace(os.path.join(self.stage, old), dst)
        self._remove(old)
        self.touched.add(new)
        self.changed.add(new)
        self.deleted.discard(new)
        for rel, path in self.where.items():
            if path == old:
                self.where[rel] = new

    def _subst(self, frm: str, to: str) -> None:
        for path in self.where.values():
            full = os.path.join(self.stage, path)
            with open(full) as f:
                text = f.read()
            if frm in text:
                self._write(path, text.replace(frm, to))

    def step(self, i: int) -> set[str]:
        """Replay step @i; the paths it wrote or removed."""
        self.changed = set()
        step = self.steps[i]
        for rel in step.files:
            path, text = rewound(rel, self.steps[i + 1:])
            self._write(path, text, mode_of=os.path.join(paths.REPO, rel))
            self.where[rel] = path
        for old, new in step.renames:
            self._rename(old, new)
        for frm, to in step.substs:
            self._subst(frm, to)
        for name in step.applies:
            _apply(name, self.base, self.stage, self.touched, self.deleted)
            self.changed.update(patched_paths(os.path.join(paths.REPO,
                                                            name)))
        for rel in step.deletes:
            self._remove(rel)
        self.planned_files.update(step.files)
        self.planned_patches.update(step.applies)
        return self.changed

    def rest(self) -> None:
        """Repo files and patches no step lists yet (work in progress),
        then check that the replay ends with the repo's files."""
        for rel in self.overlay:
            if rel not in self.planned_files and not os.path.exists(
                    os.path.join(self.stage, rel)):
                self._write(rel, src=os.path.join(paths.REPO, rel))
        for name in patch_files():
            if name not in self.planned_patches:
                _apply(name, self.base, self.stage, self.touched,
                       self.deleted)
        for rel in self.overlay:
            staged = os.path.join(self.stage, rel)
            if not os.path.exists(staged) or not filecmp.cmp(
                    staged, os.path.join(paths.REPO, rel), shallow=False):
                raise SystemExit("probetest: the series does not end with "
                                 f"the repo's {rel}: a patch that changes it "
                                 "no longer matches it")


def _stage(base: str, stage: str, last_part: Optional[int] = None
           ) -> tuple[set[str], set[str]]:
    """Write the desired version of every touched file under stage: the
    plan replayed (Replay), up to the end of part @last_part (KERNEL=
    fixes, rewrite), or all of it and the work in progress.

    Return (touched, deleted): the paths the overlay and the patches
    write, and the upstream paths the series deletes.
    """
    rp = Replay(base, stage)
    for i, step in enumerate(rp.steps):
        if last_part is not None and step.part > last_part:
            break
        rp.step(i)
    if last_part is None:
        rp.rest()
    return rp.touched | rp.deleted, rp.deleted


def _replace(src: str, dst: str) -> None:
    """Put a copy of src at dst as a new inode (never write in place)."""
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    tmp = dst + ".kpt-new"
    shutil.copyfile(src, tmp)
    shutil.copymode(src, tmp)
    os.replace(tmp, dst)


def _sync_one(rel: str, stage: str, base: str, tree: str,
              deleted: Collection[str]) -> bool:
    """Make tree/rel equal the staged or pristine version; True if changed."""
    want = os.path.join(stage, rel)
    if not os.path.exists(want) and rel not in deleted:
        want = os.path.join(base, rel)
    have = os.path.join(tree, rel)
    if not os.path.exists(want):
        if os.path.exists(have):
            os.unlink(have)
            return True
        return False
    if os.path.exists(have) and filecmp.cmp(want, have, shallow=False):
        return False
    _replace(want, have)
    return True


def _synced(name: str, last_part: Optional[int]) -> str:
    """Tree @name (hard links to pristine) brought up to date with the
    series up to @last_part (None: all of it and the work in progress)."""
    base = pristine()
    tree = paths.src(name)
    if not os.path.exists(os.path.join(tree, MANIFEST)):
        log(f"creating {tree} (hard links to {base})")
        shutil.rmtree(tree, ignore_errors=True)
        run(["cp", "-al", base, tree])
        open(os.path.join(tree, MANIFEST), "w").close()
    with open(os.path.join(tree, MANIFEST)) as f:
        old = set(filter(None, f.read().split("\n")))
    with tempfile.TemporaryDirectory(dir=paths.root()) as stage:
        new, deleted = _stage(base, stage, last_part)
        changed = [rel for rel in sorted(old | new)
                   if _sync_one(rel, stage, base, tree, deleted)]
    with open(os.path.join(tree, MANIFEST) + ".tmp", "w") as f:
        f.write("\n".join(sorted(new)) + "\n")
    os.replace(os.path.join(tree, MANIFEST) + ".tmp",
               os.path.join(tree, MANIFEST))
    if changed:
        log(f"overlay: {len(changed)} file(s) updated in {tree}")
    return tree


def ours() -> str:
    """Bring our tree up to date with the overlay; return its path."""
    return _synced("ours", None)


def fixes() -> str:
    """Pristine 6.12 plus part 1 of the series (its fixes); its path."""
    return _synced("fixes", plan.FIXES_PART)


def rewrite() -> str:
    """Pristine 6.12 plus parts 1 and 2 (the rewrite without the core
    speed-ups of part 3); its path."""
    return _synced("rewrite", plan.REWRITE_PART)


# The kernels a harness command can build: KERNEL=, expectations' kernels
KERNELS = ("ours", "upstream", "fixes", "rewrite")


def source(kernel: str) -> str:
    """The source tree for KERNEL=upstream, ours, fixes or rewrite."""
    trees = dict(zip(KERNELS, (ours, pristine, fixes, rewrite)))
    if kernel not in trees:
        raise SystemExit(f"probetest: unknown KERNEL '{kernel}' "
                         f"({', '.join(KERNELS)})")
    return trees[kernel]()
