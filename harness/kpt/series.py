"""The patch series: the plan (harness/series/) as git commits on 6.12.

    make series          write series/P-part/: git format-patch and a cover
                         letter per part of the plan
    make series-verify   git am each part in turn onto a fresh unpack of
                         the base, compare each part's end with the tree
                         the harness builds for it, checkpatch every patch
    make series-check    build every patch, x86_64 and arm64

All git work happens in KPT_ROOT/series/repo, whose base commit is the
pristine tree committed by the series' author (author()) at a fixed
date, so its id only depends on the tarball and the author.  The series'
commits are built in a private index (git apply --cached), never in a
work tree, with fixed dates, so the patches are byte-identical from run
to run.
"""

from __future__ import annotations

import datetime
import fnmatch
import functools
import os
import re
import shutil
import subprocess
import tempfile
import textwrap
from typing import Callable, Collection, Optional, cast

from . import kbuild, paths, plan, sendable, tree
from .util import log, run

BASE_DATE = "1700000000 +0000"
SERIES_DATE = 1764028800          # 2025-11-25 00:00 UTC; step n adds n min
OUT = os.path.join(paths.REPO, "series")
BRANCH = "refs/heads/series"


def author() -> tuple[str, str]:
    """(name, email) the series is written by: SERIES_AUTHOR="Name <mail>",
    else git config user.name/user.email of the repo, else the author of
    the repo's HEAD commit.  Never an identity of our own making."""
    spec = os.environ.get("SERIES_AUTHOR", "").strip()
    if not spec:
        name, mail = (_repo_git("config", "user.name"),
                      _repo_git("config", "user.email"))
        if name and mail:
            return name, mail
        spec = _repo_git("log", "-1", "--format=%an <%ae>")
    m = re.match(r"^(.+?)\s*<([^<>\s]+@[^<>\s]+)>$", spec)
    if not m:
        raise SystemExit("series: no author: set SERIES_AUTHOR=\"Name "
                         "<mail>\" or git config user.name/user.email")
    return m.group(1), m.group(2)


# A signer no mail can reach: the sign-off is a person's DCO, so a series
# to send is never signed by a generated or placeholder identity.
_PLACEHOLDER_MAIL = re.compile(r"example|noreply|no-reply|localhost|"
                               r"\.invalid$|\.local$", re.I)


def check_signer() -> None:
    """Refuse to write a series to send whose signer is a placeholder,
    unless SERIES_AUTHOR names the signer on purpose."""
    name, mail = author()
    if _PLACEHOLDER_MAIL.search(mail) and \
            not os.environ.get("SERIES_AUTHOR", "").strip():
        raise SystemExit(
            f"series: the signer would be {name} <{mail}>, an address no "
            "mail reaches; a Signed-off-by is a real person's DCO. Set "
            "SERIES_AUTHOR=\"Name <mail>\" or git config "
            "user.name/user.email")


def _repo_git(*args: str) -> str:
    r = subprocess.run(["git", "-C", paths.REPO, *args],
                       capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else ""


def _env(date: str, index: Optional[str] = None) -> dict[str, str]:
    name, mail = author()
    env = dict(os.environ,
               GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=mail,
               GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=mail,
               GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    if index:
        env["GIT_INDEX_FILE"] = index
    return env


def git(repo: str, *args: str, env: Optional[dict[str, str]] = None,
        inp: Optional[str] = None, check: bool = True) -> str:
    """Run git in @repo; its stdout, stripped."""
    r = subprocess.run(["git", "-C", repo, "-c", "core.autocrlf=false",
                        "-c", "commit.gpgsign=false", *args],
                       env=env or _env(BASE_DATE), input=inp,
                       capture_output=True, text=True)
    if check and r.returncode:
        raise SystemExit(f"series: git {' '.join(args[:3])} failed:\n"
                         f"{r.stdout}{r.stderr}")
    return r.stdout.strip()


def git_raw(repo: str, *args: str) -> str:
    """git's stdout as it is (file contents)."""
    return subprocess.run(["git", "-C", repo, *args], check=True,
                          capture_output=True, text=True).stdout


def commit_tree(repo: str, src: str, msg: str) -> str:
    """Commit every file of @src (a plain tree, not a repo) as a root."""
    idx = os.path.join(repo, ".git", "kpt-base-index")
    env = _env(BASE_DATE, idx)
    if os.path.exists(idx):
        os.unlink(idx)
    git(repo, f"--work-tree={src}", "add", "-A", "-f", "--", ".",
        ":(exclude).kpt-unpacked", ":(exclude).unpacked", env=env)
    tid = git(repo, "write-tree", env=env)
    os.unlink(idx)
    return git(repo, "commit-tree", tid, "-m", msg, env=env)


BASE_MSG = "Linux 6.12 (Debian linux-source-6.12)\n\nThe base of the series."


def unpack(dst: str) -> None:
    """A fresh unpack of the base tarball at @dst."""
    shutil.rmtree(dst, ignore_errors=True)
    os.makedirs(dst)
    run(["tar", "-C", dst, "--strip-components=1", "-xf", tree.KTAR])


def base_repo() -> str:
    """KPT_ROOT/series/repo with tag 'base': the tarball, committed."""
    repo = os.path.join(paths.root(), "series", "repo")
    tree.pristine()
    st = os.stat(tree.KTAR)
    stamp = f"{st.st_size} {int(st.st_mtime)} {author()}"
    stampf = os.path.join(repo, ".git", "kpt-base-stamp")
    if os.path.exists(stampf):
        with open(stampf) as f:
            if f.read().strip() == stamp:
                return repo
    shutil.rmtree(repo, ignore_errors=True)
    os.makedirs(repo)
    git(repo, "init", "-q")
    src = os.path.join(paths.root(), "series", "base-src")
    log(f"series: committing {tree.KTAR} as the base (once per tarball)")
    unpack(src)
    cid = commit_tree(repo, src, BASE_MSG)
    shutil.rmtree(src)
    git(repo, "tag", "-f", "base", cid)
    with open(stampf, "w") as f:
        f.write(stamp + "\n")
    return repo


def maintainers_added(base_text: str, final_text: str
                      ) -> list[tuple[int, str]]:
    """[(index in @final_text's lines, line)] that MAINTAINERS.patch adds.
    The patch may only add lines (so a hunk that drops or rewrites a line
    of upstream's file is refused), and only F: or X: lines to entries
    that exist: an entry of our own would name maintainers who never
    asked for it."""
    a, b = base_text.splitlines(True), final_text.splitlines(True)
    added, i = [], 0
    for j, line in enumerate(b):
        if i < len(a) and a[i] == line:
            i += 1
        else:
            added.append((j, line))
    if i != len(a):
        raise SystemExit("series: MAINTAINERS.patch must only add lines")
    for j, line in added:
        prev = b[j - 1] if j else ""
        if not line.startswith(("F:\t", "X:\t")) or \
                not re.match(r"^[A-Z]:\t", prev):
            raise SystemExit("series: MAINTAINERS.patch may only add F: "
                             "and X: lines to existing entries, not "
                             f"{line.strip()!r}")
    return added


def _maintainers(base_text: str, final_text: str,
                 touched: Collection[str]) -> str:
    """MAINTAINERS with the added F: lines that match @touched paths."""
    drop = {j for j, line in maintainers_added(base_text, final_text)
            if line.startswith("F:\t") and
            not any(_covers(line[3:].strip(), p) for p in touched)}
    return "".join(line for j, line in
                   enumerate(final_text.splitlines(True)) if j not in drop)


def _covers(pattern: str, path: str) -> bool:
    if pattern.endswith("/"):
        return path.startswith(pattern)
    return fnmatch.fnmatchcase(path, pattern) and \
        pattern.count("/") == path.count("/")


def _patched(text: str, patch: str) -> str:
    """@text with the single-file diff @patch applied (GNU patch)."""
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "f")
        with open(f, "w") as out:
            out.write(text)
        run(["patch", "-s", f, "-i", patch], stdout=subprocess.DEVNULL)
        with open(f) as inp:
            return inp.read()


def _add_blob(repo: str, env: dict[str, str], rel: str,
              data: Optional[str] = None,
              src: Optional[str] = None) -> None:
    if src is not None:
        sha = git(repo, "hash-object", "-w", "--no-filters", src, env=env)
        mode = "100755" if os.access(src, os.X_OK) else "100644"
    else:
        sha = git(repo, "hash-object", "-w", "--no-filters", "--stdin",
                  env=env, inp=data)
        mode = "100644"
    git(repo, "update-index", "--add", "--cacheinfo", f"{mode},{sha},{rel}",
        env=env)


def _message(step: plan.Step) -> str:
    """The step's message, signed off by author()."""
    if "Signed-off-by:" in step.message:
        raise SystemExit(f"series: {step.slug}: a Signed-off-by of its own; "
                         "the series adds the author's")
    name, mail = author()
    msg = step.message.rstrip()
    last = msg.rsplit("\n\n", 1)[-1].splitlines()
    trailers = "\n\n" in msg and all(
        re.match(r"^[A-Z][A-Za-z-]+: \S", line) for line in last)
    # the sign-off joins the tags (Fixes:, Link:, Cc:) as the last one
    sep = "\n" if trailers else "\n\n"
    return f"{msg}{sep}Signed-off-by: {name} <{mail}>\n"


def step_date(step: plan.Step) -> str:
    """The date of the repo commit that last changed what @step is made
    of (its plan file, the patches it applies, the files it adds), as
    git's raw date; the fixed SERIES_DATE outside a git history."""
    paths_ = [f for f in [step.path, *step.applies, *step.files] if f]
    stamp = _repo_git("log", "-1", "--format=%ct", "--", *paths_)
    return f"{stamp or SERIES_DATE + 60 * step.num} +0000"


def build_commits(repo: str, steps: list[plan.Step]) -> list[str]:
    """The steps as commits on 'base'; returns the list of commit ids.
    Each commit's tree is the plan replayed up to it (tree.Replay), the
    same flow that makes every tree the harness builds."""
    base_m = git_raw(repo, "show", "base:MAINTAINERS")
    final_m = _patched(base_m, os.path.join(paths.REPO,
                                            plan.MAINTAINERS_PATCH))
    parent, ids, touched = git(repo, "rev-parse", "base^{commit}"), [], set()
    with tempfile.TemporaryDirectory(dir=paths.root()) as tmp:
        # the index lives and dies with this run: one killed half-way
        # leaves no index.lock behind to fail the next
        idx = os.path.join(tmp, "index")
        stage = os.path.join(tmp, "stage")
        os.makedirs(stage)
        rp = tree.Replay(tree.pristine(), stage, steps)
        for i, step in enumerate(steps):
            env = _env(step_date(step), idx)
            git(repo, "read-tree", parent, env=env)
            changed = rp.step(i)
            for rel in sorted(changed):
                full = os.path.join(stage, rel)
                if os.path.exists(full):
                    _add_blob(repo, env, rel, src=full)
                else:
                    git(repo, "update-index", "--force-remove", rel, env=env)
            if step.part != plan.FIXES_PART:
                # fixes go to 6.12.y: no new entry there; a deleted file
                # needs no F: line
                touched |= {p for p in changed
                            if os.path.exists(os.path.join(stage, p))}
            _add_blob(repo, env, "MAINTAINERS",
                      data=_maintainers(base_m, final_m, touched))
            tid = git(repo, "write-tree", env=env)
            parent = git(repo, "commit-tree", tid, "-p", parent, "-m",
                         _message(step), env=env)
            ids.append(parent)
            git(repo, "update-ref", _part_ref(step.part), parent)
    git(repo, "update-ref", BRANCH, parent)
    if _maintainers(base_m, final_m, touched) != final_m:
        raise SystemExit("series: some F: line of MAINTAINERS.patch matches "
                         "no file of the series")
    return ids


def _part_ref(part: int) -> str:
    return f"refs/heads/series-part{part}"


def compare_with_tree(repo: str, steps: Collection[plan.Step],
                      ref: str = BRANCH, src: Optional[str] = None) -> None:
    """The tree at @ref must equal the tree the harness builds (@src, by
    default ours): the series' end, or part 1's end and KERNEL=fixes."""
    src, base = src or tree.ours(), tree.pristine()
    rels = {"MAINTAINERS", *(p for s in steps for p in s.files + s.deletes)}
    for s in steps:
        for name in s.applies:
            rels.update(tree.patched_paths(os.path.join(paths.REPO, name)))
    bad = []
    for rel in sorted(rels):
        if rel == "MAINTAINERS" and ref != BRANCH:
            continue        # the entry grows with the series; ours only
        r = subprocess.run(["git", "-C", repo, "cat-file", "blob",
                            f"{ref}:{rel}"], capture_output=True)
        have = os.path.join(src, rel)
        want = r.stdout if r.returncode == 0 else None
        got = open(have, "rb").read() if os.path.exists(have) else None
        if want != got:
            bad.append(rel)
    if bad:
        raise SystemExit(f"series: {ref} differs from the tree we test "
                         f"({src}) in: " + " ".join(bad))
    log(f"series: {ref}: {len(rels)} files equal the tree we test ({src} "
        f"over {base})")


DESIGN = os.path.join(paths.REPO, "docs", "design.md")


def deliberate_section(path: str = DESIGN) -> str:
    """The text of docs/design.md's "Deliberate differences from 6.12",
    the one list of them."""
    with open(path) as f:
        sec = f.read().split("## Deliberate differences from 6.12\n", 1)[1]
    return sec.split("\n## ", 1)[0]


def deliberate_items(path: str = DESIGN, rewrite: bool = False
                     ) -> list[str]:
    """The names of that list's items (each starts "- **NAME.**");
    @rewrite: only part 2's, without those under an "Of ..." heading
    (the build's, a later part's)."""
    sec = deliberate_section(path)
    if rewrite:
        sec = "\n### ".join(b for b in sec.split("\n### ")
                            if not b.startswith("Of "))
    return re.findall(r"^- \*\*(.+?)\.\*\*", sec, re.M)


def base_text(part: int) -> str:
    """What a part applies to and what it was tested on."""
    base = base_name()
    on = base if part == 1 else \
        f"{base} with part{'s 1-' if part > 2 else ' '}{part - 1} " \
        "of this series"
    return (f"This applies to {on}.  It was built and tested on "
            f"{tested_on()}.")


FIXES_MARK = "@FIXES@"


def fixes_list(steps: Collection[plan.Step]) -> str:
    """Part 1's subjects, " 1/NN subject" a line, for a cover letter."""
    out = []
    for n, step in enumerate((s for s in steps
                              if s.part == plan.FIXES_PART), 1):
        out += textwrap.wrap(step.subject, 72, initial_indent=f" 1/{n:02d} ",
                             subsequent_indent="      ",
                             break_on_hyphens=False)
    return "\n".join(out)


def _cover(path: str, cover: str, part: int,
           steps: Collection[plan.Step] = ()) -> None:
    with open(cover) as f:
        subject, blurb = f.read().split("\n", 1)
    blurb = blurb.replace(FIXES_MARK, fixes_list(steps))
    blurb = blurb.rstrip() + "\n\n" + "\n".join(
        textwrap.wrap(base_text(part), 72, break_on_hyphens=False))
    with open(path) as f:
        text = f.read()
    text = text.replace("*** SUBJECT HERE ***", subject.strip())
    text = text.replace("*** BLURB HERE ***", blurb.strip())
    with open(path, "w") as f:
        f.write(text)


# Where `make series` writes the series to send, and where the checks
# (series-verify, series-check) write theirs: a check may run under any
# identity, a series to send only under a real one (check_signer()).
CHECK_OUT = "series-check-out"
SERIES_LOCK = "series-repo"
SOURCE_PACKAGE = "linux-source-6.12"


@functools.lru_cache(maxsize=None)
def source_version() -> str:
    """The installed source package's version ("6.12.118-1~deb12u1"): the
    base is unpacked from it, so the cover letters name what was built."""
    r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", SOURCE_PACKAGE],
                       capture_output=True, text=True)
    if r.returncode or not r.stdout.strip():
        raise SystemExit(f"series: {SOURCE_PACKAGE} is not installed "
                         "(make deps)")
    return r.stdout.strip()


def base_name() -> str:
    """The upstream tag of the base: "v6.12.118" for 6.12.118-1~deb12u1."""
    return "v" + source_version().split("-")[0]


def tested_on() -> str:
    return (f"Debian's {SOURCE_PACKAGE} {source_version()} ({base_name()} "
            "with Debian's patches)")
STABLE_LIST = "stable@vger.kernel.org"


def out_dir(sending: bool) -> str:
    """series/ for `make series`, a scratch directory for the checks."""
    return OUT if sending else os.path.join(paths.root(), "series",
                                            CHECK_OUT)


def generate(sending: bool = False) -> tuple[str, int]:
    """The plan as commits, then P-part/*.patch with a cover letter per
    part and each patch's recipients; return (repo, patches).
    @sending: `make series`, whose signer must be a real person.
    Two runs at once (a series-check in the background, CI's
    series-verify) take turns at the shared series repo."""
    with kbuild.locked(SERIES_LOCK):
        return _generate(sending)


def _clear_stale_locks(gitdir: str) -> None:
    """Remove the *.lock files a killed git left in @gitdir; only
    called under the lock that every harness user of @gitdir holds."""
    for top, dirs, names in os.walk(gitdir):
        if top == gitdir and "worktrees" in dirs:
            dirs.remove("worktrees")    # series-check's, under its lock
        for n in names:
            if n.endswith(".lock"):
                log(f"series: removing a stale {os.path.join(top, n)}")
                os.unlink(os.path.join(top, n))


def _generate(sending: bool) -> tuple[str, int]:
    if sending:
        check_signer()
    overlay = tree.overlay_files()
    steps = plan.load(overlay)
    plan.validate(steps, overlay, plan.root_patches())
    repo = base_repo()
    _clear_stale_locks(os.path.join(repo, ".git"))
    ids = build_commits(repo, steps)
    compare_with_tree(repo, steps)
    for part, src in ((plan.FIXES_PART, tree.fixes),
                      (plan.REWRITE_PART, tree.rewrite)):
        done = [s for s in steps if s.part <= part]
        if done and len(done) < len(steps):
            compare_with_tree(repo, done, _part_ref(part), src())
    out_root = out_dir(sending)
    shutil.rmtree(out_root, ignore_errors=True)
    env = _env(f"{SERIES_DATE} +0000")
    start, n = "base", 0
    for part, name, pdir in plan.parts():
        out = os.path.join(out_root, f"{part}-{name}")
        os.makedirs(out)
        tip = _part_ref(part)
        # the rewrite asks the maintainers first, and what builds on it
        # cannot go in before it
        rfc = ["--rfc"] if part >= plan.REWRITE_PART else []
        git(repo, "format-patch", "-q", "-M", "--cover-letter", *rfc,
            "--no-signature", "--zero-commit", "-o", out,
            f"{start}..{tip}", env=env)
        cids = git(repo, "rev-list", "--reverse", f"{start}..{tip}").split()
        part_steps = steps[n:n + len(cids)]
        n += len(cids)
        _cover(os.path.join(out, "0000-cover-letter.patch"),
               os.path.join(pdir, "cover.txt"), part, steps)
        _address(repo, out, cids, part_steps)
        start = tip
    log(f"series: {len(ids)} patches in {len(plan.parts())} parts in "
        f"{out_root} (on {base_name()})")
    return repo, len(ids)


_TO_ROLES = ("maintainer", "supporter", "odd fixer", "chief penguin")


def recipients(repo: str, cid: str, patch: str
               ) -> tuple[list[str], list[str]]:
    """(To, Cc) of one patch by scripts/get_maintainer.pl, with the
    MAINTAINERS of its own commit: maintainers in To, reviewers and lists
    in Cc."""
    with tempfile.NamedTemporaryFile("w", suffix="-MAINTAINERS") as m:
        m.write(git_raw(repo, "show", f"{cid}:MAINTAINERS"))
        m.flush()
        r = subprocess.run(
            ["perl", "scripts/get_maintainer.pl", "--mpath", m.name,
             "--no-git", "--no-git-fallback", "--rolestats", "--no-fixes",
             "--multiline", patch],
            cwd=tree.pristine(), capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"series: get_maintainer.pl {patch}: {r.stderr}")
    return split_recipients(r.stdout)


def split_recipients(text: str) -> tuple[list[str], list[str]]:
    """get_maintainer.pl --rolestats lines -> (To, Cc)."""
    to: list[str] = []
    cc: list[str] = []
    for line in text.splitlines():
        m = re.match(r"^(.*?)\s*\((.*)\)\s*$", line.strip())
        if not m:
            continue
        who, role = m.groups()
        (to if role.startswith(_TO_ROLES) else cc).append(who)
    return to, [c for c in cc if c not in to]


def _fold(key: str, people: list[str]) -> str:
    return f"{key}: " + ",\n    ".join(people) + "\n" if people else ""


def _address(repo: str, out: str, cids: list[str],
             steps: list[plan.Step]) -> None:
    """Write To:/Cc: into each patch of @out and their union into its
    cover letter; a fix routed to 6.12.y goes to the stable list as
    [PATCH 6.12.y], the maintainers in Cc."""
    all_to: list[str] = []
    all_cc: list[str] = []
    for path, cid, step in zip(patches(out), cids, steps):
        to, cc = recipients(repo, cid, path)
        if step.route == "6.12.y":
            to, cc = [STABLE_LIST], to + cc
        _set_headers(path, to, cc, step.route == "6.12.y")
        all_to += [p for p in to if p not in all_to]
        all_cc += [p for p in cc if p not in all_cc]
    _set_headers(os.path.join(out, "0000-cover-letter.patch"), all_to,
                 [p for p in all_cc if p not in all_to], False)


def _set_headers(path: str, to: list[str], cc: list[str],
                 stable_only: bool) -> None:
    """@path's mail header with these To: and Cc: lines."""
    with open(path) as f:
        head, sep, body = f.read().partition("\n\n")
    head = re.sub(r"^(?:To|Cc): .*\n(?:[ \t].*\n)*", "", head + "\n",
                  flags=re.M)
    if stable_only:
        head = re.sub(r"^Subject: \[PATCH ", "Subject: [PATCH 6.12.y ",
                      head, count=1, flags=re.M)
    head = head + _fold("To", to) + _fold("Cc", cc)
    with open(path, "w") as f:
        f.write(head.rstrip("\n") + sep + body)


def patches(part_dir: Optional[str] = None,
            out_root: Optional[str] = None) -> list[str]:
    """The numbered patches of one part's directory, or of every part
    of @out_root (default series/) in order, without cover letters."""
    root = out_root or OUT
    dirs = [part_dir] if part_dir else [
        os.path.join(root, f"{p}-{n}") for p, n, _ in plan.parts()]
    return [os.path.join(d, n) for d in dirs for n in sorted(os.listdir(d))
            if re.match(r"^\d{4}-.*\.patch$", n) and
            not n.startswith("0000-")]


def verify() -> int:
    """make series-verify: git am on a fresh unpack, then checkpatch;
    under the series lock, so that no other run rewrites the patches
    while they are applied."""
    with kbuild.locked(SERIES_LOCK):
        return _verify()


def _verify() -> int:
    repo, n = _generate(False)
    out_root = out_dir(False)
    am = os.path.join(paths.root(), "series", "am")
    log(f"series: unpacking {tree.KTAR} afresh into {am}")
    unpack(am)
    git(am, "init", "-q")
    cid = commit_tree(am, am, BASE_MSG)
    if cid != git(repo, "rev-parse", "base^{commit}"):
        raise SystemExit("series: a fresh unpack does not commit to the "
                         "series base")
    git(am, "update-ref", "HEAD", cid)
    git(am, "reset", "-q")
    for part, name, _ in plan.parts():
        d = os.path.join(out_root, f"{part}-{name}")
        r = subprocess.run(["git", "-C", am, "am", "-q",
                            "--whitespace=error", *patches(d)],
                           env=_env(f"{SERIES_DATE} +0000"),
                           capture_output=True, text=True)
        if r.returncode:
            raise SystemExit(f"series: git am of part {part} failed:\n"
                             f"{r.stdout}{r.stderr}")
        if git(am, "rev-parse", "HEAD^{tree}") != \
                git(repo, "rev-parse", f"{_part_ref(part)}^{{tree}}"):
            raise SystemExit(f"series: git am of parts 1..{part} gives "
                             "another tree than the plan")
        if git(am, "status", "--porcelain"):
            raise SystemExit("series: git am left changes behind")
        log(f"series: parts 1..{part} ({len(patches(d))} patches in part "
            f"{part}) apply with git am to a fresh unpack")
    bad = checkpatch(tree.pristine(), out_root)
    shutil.rmtree(am, ignore_errors=True)
    return bad + check_sendable(repo)


def check_sendable(repo: str) -> int:
    """sendable.py's rules on every commit and cover letter; failures."""
    bad = 0
    ids = git(repo, "rev-list", "--reverse", f"base..{BRANCH}").split()
    for key, cid in zip((k for k, *_ in patch_sizes(repo)), ids):
        found = sendable.commit_problems(
            git_raw(repo, "log", "-1", "--format=%B", cid),
            git_raw(repo, "show", "--format=", "--unified=0", cid))
        bad += _report_sendable(key, found)
    for part, name, pdir in plan.parts():
        with open(os.path.join(pdir, "cover.txt")) as f:
            found = [f"the cover letter names the test harness: {m[0]!r}"
                     for m in sendable.HARNESS.finditer(f.read())]
        bad += _report_sendable(f"{part}/cover", found)
    return bad


def _report_sendable(what: str, found: list[str]) -> bool:
    print(f"{'FAIL' if found else 'PASS'}  sendable {what}", flush=True)
    for line in found[:20]:
        print(f"      {line}")
    return bool(found)


EXEMPT = os.path.join(plan.PLAN_DIR, "checkpatch-exempt.txt")


def _exemptions() -> list[tuple[str, str, str]]:
    """[(type, patch glob, reason)] of checkpatch-exempt.txt."""
    out = []
    with open(EXEMPT) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3:
                raise SystemExit(f"series: checkpatch-exempt.txt:{n}: want "
                                 "'<TYPE> <patch glob> <reason>'")
            out.append(cast("tuple[str, str, str]", tuple(parts)))
    return out


def _exempt(finding: str, name: str,
            exemptions: Collection[tuple[str, str, str]]) -> bool:
    m = re.search(r"\b(?:WARNING|ERROR|CHECK):([A-Z0-9_]+):", finding)
    if not m:
        return False
    kind = m.group(1)
    return any(kind == t and fnmatch.fnmatchcase(name, g)
               for t, g, _ in exemptions)


def _moved_paths(patch: str) -> set[str]:
    """Paths a patch adds, deletes or renames (git's extended headers)."""
    out, cur = set(), None
    with open(patch) as f:
        for line in f:
            m = re.match(r"^diff --git a/(\S+) b/(\S+)$", line)
            if m:
                cur = m.groups()
                continue
            if cur and re.match(r"^(new file|deleted file) mode ", line):
                out.add(cur[1] if line.startswith("new") else cur[0])
            elif cur and line.startswith(("rename from ", "rename to ")):
                out.add(line.split(" ", 2)[2].strip())
    return out


def _f_patterns(maintainers: str) -> list[str]:
    """The F: patterns of a MAINTAINERS text."""
    return [line[3:].strip() for line in maintainers.splitlines()
            if line.startswith("F:\t")]


def _maintained(patch: str, patterns: Collection[str]) -> bool:
    """True when every file @patch adds, deletes or renames is under an
    F: pattern already: MAINTAINERS need not change for it."""
    moved = _moved_paths(patch)
    return bool(moved) and all(
        any(_covers(pat, p) or (pat.endswith("/") and p.startswith(pat))
            for pat in patterns) for p in moved)


def checkpatch(src: str, out_root: str) -> int:
    """checkpatch.pl --strict on each patch, from @src; failures.  A
    finding checkpatch-exempt.txt lists for that patch is printed, not
    counted, and so is the question whether MAINTAINERS needs updating
    when an F: line of the final MAINTAINERS covers every file the patch
    adds, deletes or renames."""
    bad = 0
    exemptions = _exemptions()
    with open(os.path.join(src, "MAINTAINERS")) as f:
        patterns = _f_patterns(_patched(f.read(), os.path.join(
            paths.REPO, plan.MAINTAINERS_PATCH)))
    for p in patches(out_root=out_root):
        r = subprocess.run(["perl", "scripts/checkpatch.pl", "--strict",
                            "--terse", "--no-summary", "--show-types", p],
                           cwd=src, capture_output=True, text=True)
        name = os.path.relpath(p, out_root)
        out = [line for line in r.stdout.splitlines() if line.strip()]
        real = [line for line in out if not _exempt(line, name, exemptions)
                and not ("FILE_PATH_CHANGES" in line and
                         _maintained(p, patterns))]
        if real:
            bad += 1
            print(f"FAIL  checkpatch {name}")
            for line in real[:40]:
                print(f"      {line}")
        else:
            n = len(out)
            print(f"PASS  checkpatch {name}" +
                  (f" ({n} exempt finding{'s' if n > 1 else ''})" if n
                   else ""))
    return bad


# What one patch may change (make series-check), in lines added plus
# removed: 1 500 in files that existed before it, 3 000 in files it adds
# (the F: lines it adds to MAINTAINERS aside).  A pure deletion, or a
# mechanical rename that says so, is exempt.
MAX_EXISTING = 1500
MAX_NEW = 3000


def patch_sizes(repo: str) -> list[tuple[str, str, int, int, str]]:
    """[(part/NN, subject, existing, new, verdict)] of every commit."""
    rows = []
    ids = git(repo, "rev-list", "--reverse", f"base..{BRANCH}").split()
    tips = {git(repo, "rev-parse", _part_ref(p)): p
            for p, _, _ in plan.parts()}
    part, n = 1, 0
    for cid in ids:
        n += 1
        existing = new = added_existing = 0
        status = dict(line.split("\t", 1)[::-1] for line in git(
            repo, "diff", "--name-status", "--no-renames", f"{cid}^",
            cid).splitlines())
        for line in git(repo, "diff", "--numstat", "--no-renames",
                        f"{cid}^", cid).splitlines():
            add, rem, path = line.split("\t", 2)
            lines = int(add) + int(rem) if add != "-" else 0
            if path == "MAINTAINERS":
                continue
            if status.get(path) == "A":
                new += lines
            else:
                existing += lines
                added_existing += int(add) if add != "-" else 0
        msg = git(repo, "log", "-1", "--format=%B", cid)
        subject = msg.split("\n", 1)[0]
        exempt = added_existing == 0 and new == 0 or \
            re.search(r"\bmechanical (rename|change)\b", msg, re.I)
        if exempt:
            verdict = "exempt"
        elif existing > MAX_EXISTING:
            verdict = f"OVER ({existing} > {MAX_EXISTING} in existing files)"
        elif new > MAX_NEW:
            verdict = f"OVER ({new} > {MAX_NEW} in new files)"
        else:
            verdict = "ok"
        rows.append((f"{part}/{n:02d}", subject, existing, new, verdict))
        if cid in tips:
            part, n = tips[cid] + 1, 0
    return rows


def print_sizes(rows: Collection[tuple[str, str, int, int, str]]
                ) -> int:
    """The size table; the number of patches over a limit."""
    print(f"{'patch':6} {'existing':>8} {'new':>6}  verdict  subject")
    for key, subject, existing, new, verdict in rows:
        print(f"{key:6} {existing:8} {new:6}  {verdict}  {subject}")
    return sum(r[4].startswith("OVER") for r in rows)


def _worktree(repo: str) -> str:
    """KPT_ROOT/src/series: a work tree of the series repo."""
    wt = paths.src("series")
    if not os.path.exists(os.path.join(wt, ".git")):
        shutil.rmtree(wt, ignore_errors=True)
        git(repo, "worktree", "prune")
        log(f"series: checking out the base into {wt}")
        git(repo, "worktree", "add", "-q", "--detach", wt, "base")
    return wt


def build_each(arches: Collection[str],
               boot: Optional[Callable[[kbuild.Build, str, str], int]] = None
               ) -> int:
    """make series-check: build every patch for each arch; failures.

    @boot(build, worktree, key): when given (SERIES_BOOT=1), boots each
    patch that built and runs the kprobe and dynevent ftracetests of its
    own tree; its number of failures counts too.

    One work tree and one build dir per arch (the check config), patches
    in order, so each build is incremental over the previous patch's.
    """
    with kbuild.locked(SERIES_LOCK):
        # the ids are read under the lock that made them; a commit id
        # then names its tree whatever another run does to the branch
        repo, _ = _generate(False)
        sizes = patch_sizes(repo)
        ids = git(repo, "rev-list", "--reverse", f"base..{BRANCH}").split()
    over = print_sizes(sizes)
    with kbuild.locked("series-worktree"):
        _clear_stale_locks(os.path.join(repo, ".git", "worktrees"))
        wt = _worktree(repo)
        bad = _build_ids(repo, wt, ids, [k for k, *_ in sizes], arches,
                         boot)
    if over:
        print(f"FAIL  {over} patch(es) over the size limits (table above)")
    return bad + over


def _build_ids(repo: str, wt: str, ids: list[str], keys: list[str],
               arches: Collection[str],
               boot: Optional[Callable[[kbuild.Build, str, str], int]]
               ) -> int:
    """build_each()'s loop: commit by commit in @wt; failures."""
    from . import arch as archmod
    bad, n = 0, len(ids)
    passed = os.path.join(paths.root(), "series", "passed")
    os.makedirs(passed, exist_ok=True)
    built = read_built()
    only = os.environ.get("SERIES_PATCHES", "").split()
    for i, cid in enumerate(ids, 1):
        subject = git(repo, "log", "-1", "--format=%s", cid)
        if only and keys[i - 1] not in only:
            continue
        for name in arches:
            b = kbuild.Build("series", archmod.get(name))
            # a tree that built warning-free with this config need not
            # build again, whatever its commit's date and message
            stamp, *older = build_stamps(repo, cid, passed, b.dir)
            key = built_key(stamp)
            if (key in built or any(os.path.exists(f)
                                    for f in [stamp, *older])) and not boot:
                open(stamp, "a").close()
                if key not in built:
                    record_built(built, key)
                print(f"PASS  build {i:02d}/{n:02d} {name:7} {subject} "
                      "(built before)", flush=True)
                continue
            git(wt, "checkout", "-q", "--detach", cid)
            b.src = wt
            b.configure()
            b.merge_fragments()
            log(f"series: building {i}/{n} for {name}: {subject}")
            logf = os.path.join(b.dir, f"patch-{i:02d}.log")
            with open(logf, "w") as f:
                rc = b.make(os.path.basename(b.arch.image), "modules",
                            logf=f)
            warn = _warnings(logf)
            ok = rc == 0 and not warn
            bad += not ok
            print(f"{'PASS' if ok else 'FAIL'}  build {i:02d}/{n:02d} "
                  f"{name:7} {subject}", flush=True)
            for line in warn[:20]:
                print(f"      {line}")
            if rc:
                print(f"      make failed, see {logf}")
            if ok:
                open(stamp, "w").close()
                record_built(built, key)
            if ok and boot:
                modroot = os.path.join(b.dir, "modroot")
                shutil.rmtree(modroot, ignore_errors=True)
                b.make("modules_install", f"INSTALL_MOD_PATH={modroot}",
                       "INSTALL_MOD_STRIP=1", logf=open(logf, "a"))
                bad += boot(b, wt, keys[i - 1])
    return bad


def build_stamps(repo: str, cid: str, passed: str, bdir: str) -> list[str]:
    """The stamp files of commit @cid's build in @bdir: first the one
    written, keyed by the commit's tree (a step's date follows the last
    repo commit of its files, so an unchanged tree may get a new commit
    id), then the one earlier runs wrote, keyed by the commit id."""
    tree = git(repo, "rev-parse", f"{cid}^{{tree}}")
    base = os.path.basename(bdir)
    return [os.path.join(passed, f"tree-{tree}-{base}"),
            os.path.join(passed, f"{cid}-{base}")]


# Trees that built warning-free, kept in the repo: build dirs and their
# stamps go with the machine, and a tree of 6.12 plus the series named
# by its git hash is the same tree on any machine.  A line is "TREE DIR
# DATE": DIR, the build dir's name, holds the arch and the hash of the
# config it built with (kbuild.config_hash()).
BUILT = os.path.join(paths.REPO, "harness", "results", "series-built.txt")


def built_key(stamp: str) -> str:
    """The key "TREE DIR" of build_stamps()'s first stamp, tree-TREE-DIR
    (a git tree hash has no "-")."""
    tree_, _, bdir = os.path.basename(stamp).removeprefix("tree-") \
        .partition("-")
    return f"{tree_} {bdir}"


def read_built(path: str = "") -> set[str]:
    """The "TREE DIR" keys of the builds in @path (BUILT)."""
    keys: set[str] = set()
    if not os.path.exists(path or BUILT):
        return keys
    with open(path or BUILT) as f:
        for line in f:
            words = line.split()
            if len(words) == 3 and not line.startswith("#"):
                keys.add(" ".join(words[:2]))
    return keys


def record_built(built: set[str], key: str, path: str = "") -> None:
    """Add @key to @built and, dated today, to @path (BUILT)."""
    built.add(key)
    with open(path or BUILT, "a") as f:
        f.write(f"{key} {datetime.date.today().isoformat()}\n")


def _warnings(logf: str) -> list[str]:
    """Compiler and linker warnings in a build log."""
    with open(logf, errors="replace") as f:
        return [line.rstrip() for line in f
                if re.search(r"\bwarning:|\berror:", line)]
