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
(harness/series/, see plan.py) are removed from our tree.
"""

import filecmp
import os
import shutil
import subprocess
import tempfile

from . import paths, plan
from .util import log, run

KTAR = "/usr/src/linux-source-6.12.tar.xz"
TOPDIR = "linux-source-6.12"

# Top-level directories of the repo that overlay the kernel tree.
OVERLAY_DIRS = ("arch", "block", "Documentation", "drivers", "fs", "include",
                "init", "kernel", "lib", "mm", "net", "samples", "scripts",
                "security", "tools")

MANIFEST = ".kpt-overlay-manifest"


def pristine():
    """Unpack the base kernel once; return its path."""
    dst = paths.src("upstream")
    if os.path.exists(os.path.join(dst, ".kpt-unpacked")):
        return dst
    if not os.path.exists(KTAR):
        raise SystemExit(f"ktest: {KTAR} missing (apt-get install "
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


def overlay_files():
    """Repo paths (tracked or new, not ignored) that overlay the kernel."""
    out = subprocess.run(
        ["git", "-C", paths.REPO, "ls-files", "-co", "--exclude-standard",
         "--", *OVERLAY_DIRS],
        check=True, capture_output=True, text=True).stdout.split("\n")
    return sorted(p for p in out
                  if p and os.path.isfile(os.path.join(paths.REPO, p)))


def patch_files():
    """Upstream-file patches (plan.root_patches()), in series order."""
    return plan.patch_order(overlay_files())


def _patched_paths(patch):
    """Paths a unified diff writes, from its '+++ b/...' lines."""
    touched = []
    with open(patch) as f:
        for line in f:
            if line.startswith("+++ "):
                p = line[4:].split("\t")[0].strip()
                if p != "/dev/null":
                    touched.append(p.split("/", 1)[1])
    return touched


def _stage(base, stage):
    """Write the desired version of every touched file under stage.

    Return (touched, deleted): the paths the overlay and the patches
    write, and the upstream paths the series plan deletes.
    """
    touched = set()
    for rel in overlay_files():
        dst = os.path.join(stage, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(os.path.join(paths.REPO, rel), dst)
        touched.add(rel)
    for name in patch_files():
        patch = os.path.join(paths.REPO, name)
        for rel in _patched_paths(patch):
            dst = os.path.join(stage, rel)
            if rel not in touched and os.path.exists(os.path.join(base, rel)):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copyfile(os.path.join(base, rel), dst)
            touched.add(rel)
        r = subprocess.run(["patch", "-s", "-p1", "-d", stage, "-i", patch,
                            "--no-backup-if-mismatch", "-r", "-"],
                           capture_output=True, text=True)
        if r.returncode:
            raise SystemExit(f"ktest: {name} does not apply:\n{r.stdout}"
                             f"{r.stderr}")
    deleted = set(plan.deleted(overlay_files())) - touched
    return touched | deleted, deleted


def _replace(src, dst):
    """Put a copy of src at dst as a new inode (never write in place)."""
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    tmp = dst + ".kpt-new"
    shutil.copyfile(src, tmp)
    shutil.copymode(src, tmp)
    os.replace(tmp, dst)


def _sync_one(rel, stage, base, tree, deleted):
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


def ours():
    """Bring our tree up to date with the overlay; return its path."""
    base = pristine()
    tree = paths.src("ours")
    if not os.path.exists(os.path.join(tree, MANIFEST)):
        log(f"creating {tree} (hard links to {base})")
        shutil.rmtree(tree, ignore_errors=True)
        run(["cp", "-al", base, tree])
        open(os.path.join(tree, MANIFEST), "w").close()
    with open(os.path.join(tree, MANIFEST)) as f:
        old = set(filter(None, f.read().split("\n")))
    with tempfile.TemporaryDirectory(dir=paths.root()) as stage:
        new, deleted = _stage(base, stage)
        changed = [rel for rel in sorted(old | new)
                   if _sync_one(rel, stage, base, tree, deleted)]
    with open(os.path.join(tree, MANIFEST) + ".tmp", "w") as f:
        f.write("\n".join(sorted(new)) + "\n")
    os.replace(os.path.join(tree, MANIFEST) + ".tmp",
               os.path.join(tree, MANIFEST))
    if changed:
        log(f"overlay: {len(changed)} file(s) updated in {tree}")
    return tree


def source(kernel):
    """The source tree for KERNEL=upstream or KERNEL=ours."""
    if kernel == "upstream":
        return pristine()
    if kernel == "ours":
        return ours()
    raise SystemExit(f"ktest: unknown KERNEL '{kernel}' (ours, upstream)")
