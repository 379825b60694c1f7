"""What keeps the series from being sent (make series-verify).

The text a patch brings into the kernel's history is read by maintainers
who have never seen this repo, so it must stand on its own:

- a commit message is plain paragraphs (what is wrong, why it matters,
  what the patch does), never "Context:/Problem:/Solution:" headings;
- its subject is at most 75 characters;
- no commit message, code, comment, Kconfig help, documentation or
  selftest names the harness that tested it (its paths, its command, its
  make targets, its variables): a gain is stated as the measurement;
- a code comment states the rule of the code, not a comparison with a
  kernel version;
- MAINTAINERS only gains F: lines in existing entries (series.py's
  maintainers_added() refuses the rest when it builds the commits).
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

MAX_SUBJECT = 75

HEADING = re.compile(
    r"^(?:#{1,6}\s+\S|(?:Context|Problem|Solution|Background|Motivation|"
    r"Rationale|Summary|Testing|Tests|Result|Results|Impact|Changes|"
    r"Details|Why|What|How)\s*:)", re.M)

HARNESS = re.compile(
    r"\bharness/|\bprobetest\b|\bkpfuzz\b|\bKPT_[A-Z]|\bSERIES_[A-Z]+=|"
    r"\bdyndel\.sh\b|\bcheck-(?:fixes|debug|wide|arches|clients)\b|"
    r"\bmake\s+(?:check|series|bench|diff|fuzz|unit|baseline|cold-run|"
    r"demo|exec)(?:-[a-z]+)?\b")

# "6.12", "Linux 6.1", "kernel 5.15", "v6.14": a comparison with a release
VERSION = re.compile(r"\b6\.1\d\b|(?:\b(?:[Ll]inux|[Kk]ernel)\s+|\bv)"
                     r"[2-7]\.\d{1,2}\b")

_C_FILE = re.compile(r"\.(?:c|h|S)$")
_SELFTEST = "tools/testing/selftests/"


def message_problems(msg: str) -> list[str]:
    """What is wrong with one commit message."""
    out = []
    subject = msg.split("\n", 1)[0]
    if len(subject) > MAX_SUBJECT:
        out.append(f"subject of {len(subject)} characters (at most "
                   f"{MAX_SUBJECT})")
    for m in HEADING.finditer(msg):
        line = msg[m.start():].split("\n", 1)[0]
        out.append(f"a heading in the message: {line[:60]!r}")
    for m in HARNESS.finditer(msg):
        out.append(f"the message names the test harness: {m.group(0)!r}")
    return out


def _strip_strings(line: str) -> str:
    return re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'', '""', line)


def c_comments(lines: Iterable[str]) -> Iterator[str]:
    """The comment text of consecutive lines of C: /* */ blocks, //
    comments, and lines that continue a block comment (" * ...") even
    when the block began outside @lines."""
    inside = False
    for raw in lines:
        line = _strip_strings(raw)
        if not inside and re.match(r"^\s*\*(?:\s|$)", line) and \
                "/*" not in line:
            inside = True
        while line:
            if inside:
                end = line.find("*/")
                if end < 0:
                    yield line
                    line = ""
                else:
                    yield line[:end]
                    line, inside = line[end + 2:], False
            else:
                starts = [i for i in (line.find("/*"), line.find("//"))
                          if i >= 0]
                if not starts:
                    break
                i = min(starts)
                if line.startswith("//", i):
                    yield line[i + 2:]
                    break
                line, inside = line[i + 2:], True


def added_lines(diff: str) -> dict[str, list[list[str]]]:
    """{path: [hunk's added lines]} of a unified diff."""
    out: dict[str, list[list[str]]] = {}
    path = None
    for line in diff.splitlines():
        if line.startswith("+++ "):
            name = line[4:].strip()
            path = None if name == "/dev/null" else name[2:]
            continue
        if line.startswith("@@"):
            if path:
                out.setdefault(path, []).append([])
            continue
        if path and line.startswith("+") and out.get(path):
            out[path][-1].append(line[1:])
    return out


def diff_problems(diff: str) -> list[str]:
    """What the code, comments, Kconfig help, documentation and selftests
    a patch adds must not say."""
    out = []
    for path, hunks in added_lines(diff).items():
        for hunk in hunks:
            for line in hunk:
                m = HARNESS.search(line)
                if m:
                    out.append(f"{path}: names the test harness: "
                               f"{m.group(0)!r}")
            texts: list[str] = []
            if _C_FILE.search(path):
                texts = list(c_comments(hunk))
                where = "a code comment"
            elif "Kconfig" in path.rsplit("/", 1)[-1]:
                texts, where = hunk, "Kconfig help"
            elif path.startswith(_SELFTEST):
                texts, where = hunk, "a selftest"
            for text in texts:
                m = VERSION.search(text)
                if m:
                    out.append(f"{path}: {where} compares with a kernel "
                               f"version: {text.strip()[:70]!r}")
    return out


def commit_problems(msg: str, diff: str) -> list[str]:
    """Every problem of one commit."""
    return message_problems(msg) + diff_problems(diff)
