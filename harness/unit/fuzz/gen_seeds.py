#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Regenerate harness/unit/fuzz/seeds/ for fuzz_probe.

Every probe definition of:
  - upstream's ftracetest cases (test.d/**/*.tc): what is echoed or
    printf'ed into kprobe_events, dynamic_events or uprobe_events, through
    helper functions too, and the check_error lines (caret removed);
  - fuzz/corpus-docs/*.txt: the definitions quoted in documents about
    kprobe events (the project's behaviour contract, kprobetrace.txt,
    articles), one a line, as --extract took them from the documents'
    echo lines, here-documents written to kprobe_events, code blocks and
    `code` spans;
  - harness/unit/trace_probe_test.c, probe_fetch_test.c and the KUnit
    table kernel/trace/trace_probe_test_cases.h: the string literals that
    are commands (macros such as TESTEV expanded, the caret mark removed).

Each becomes one file: the three header bytes fuzz_probe.c reads (kernel,
argument mode and function picked from the line), then the line.  Usage:

    harness/unit/fuzz/gen_seeds.py [--upstream DIR] [--docs DIR] [--out DIR]
    harness/unit/fuzz/gen_seeds.py --extract DOCUMENT... > corpus-docs/NAME.txt

--upstream defaults to the harness's unpacked 6.12 tree,
$KPT_ROOT/src/upstream (KPT_ROOT defaults to /var/tmp/kpt).
"""

import argparse
import glob
import hashlib
import os
import re
import sys
from typing import Iterable, Mapping, Optional, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
UNIT = os.path.dirname(HERE)
SELFTESTS = "tools/testing/selftests/ftrace/test.d"

# Variables the .tc files only get from the running kernel or a loop
FALLBACK = {
    "FUNCTION_FORK": "kernel_clone", "PROBEFUNC": "vfs_read",
    "TARGET_FUNC": "vfs_read", "TARGET": "0xffffffff81000000",
    "SYMADDR": "0xffffffff82000000", "GOODSYM": "_sdata",
    "PLACE": "vfs_read", "PLACE2": "kmem_cache_free", "PLACE3": "dput",
    "FUNC": "vfs_read", "SYMBOL": "vfs_read", "OFFS": "8", "NEXT": "+8",
    "PREV": "-8", "OVERFLOW": "+4294967296", "ARG1": "%di", "ARG2": "%si",
    "REG": "%ax", "SYM1": "name_show", "MOD": "trace_printk",
    "DIR_NAME": "vfs_read", "EVENT": "sys_enter_openat",
    "SYSTEM": "syscalls", "EPROBE": "eprobe_open", "OPTIONS": "",
    "TP": "kfree", "TRACEPOINT1": "kmem_cache_alloc",
    "TRACEPOINT2": "kmem_cache_free", "TP2": "kfree", "TP3": "kfree",
    "TP4": "kfree", "filename": "filename", "i": "1", "width": "8",
}

# fuzz_probe.c: byte 0 = kernel | mode << 2 | function << 5
ENV_X86, ENV_ARM64, ENV_BTF = 0, 1, 2
MODES = {"kprobe": 0, "kretprobe": 1, "fentry": 2, "fexit": 3, "tprobe": 4,
         "uprobe": 5, "uretprobe": 6, "eprobe": 7}
FUNCS = [None, "vfs_read", "kfree", "dput", "noparams", "longfunc", "nobtf",
         "do_exit"]


# ---- A small shell word splitter: quotes, escapes, $VAR and ${VAR} ----

def expand_var(s: str, i: int, env: Mapping[str, str]) -> tuple[str, int]:
    """$NAME or ${NAME} at s[i] == '$'; returns (text, next index)."""
    m = re.match(r"\$(\{([A-Za-z_]\w*|\d)\}|([A-Za-z_]\w*|\d|[@*#?]))",
                 s[i:])
    if not m:
        return "$", i + 1
    name = m.group(2) or m.group(3)
    return env.get(name, FALLBACK.get(name, "")), i + m.end()


def shell_words(s: str, env: Mapping[str, str]) -> list[str]:
    """Words of one command, up to a redirection or the command's end."""
    words: list[str]
    cur: list[str]
    words, cur, have, i = [], [], False, 0
    while i < len(s):
        c = s[i]
        if c in " \t":
            if have:
                words.append("".join(cur))
            cur, have = [], False
            i += 1
        elif c in ">|;&" or (c == "#" and not have):
            break
        elif c == "'":
            j = s.find("'", i + 1)
            j = len(s) if j < 0 else j
            cur.append(s[i + 1:j])
            have, i = True, j + 1
        elif c == '"':
            i += 1
            while i < len(s) and s[i] != '"':
                if s[i] == "\\" and i + 1 < len(s) and s[i + 1] in '"\\$`':
                    cur.append(s[i + 1])
                    i += 2
                elif s[i] == "$":
                    t, i = expand_var(s, i, env)
                    cur.append(t)
                else:
                    cur.append(s[i])
                    i += 1
            have, i = True, i + 1
        elif c == "\\" and i + 1 < len(s):
            cur.append(s[i + 1])
            have, i = True, i + 2
        elif c == "$":
            t, i = expand_var(s, i, env)
            cur.append(t)
            have = True
        else:
            cur.append(c)
            have, i = True, i + 1
    if have:
        words.append("".join(cur))
    return words


def echoed(words: Sequence[str]) -> Optional[str]:
    """What echo or printf writes, given the command's words."""
    if not words:
        return None
    if words[0] == "!":
        words = words[1:]
    if not words:
        return None
    if words[0] == "echo":
        args = words[1:]
        while args and args[0] in ("-n", "-e", "-E"):
            args = args[1:]
        return " ".join(args)
    if words[0] == "printf" and len(words) > 1:
        if words[1] == "%s" and len(words) > 2:
            return words[2]
        return words[1].replace("\\n", "")
    return None


def logical_lines(text: str) -> list[str]:
    """Lines with backslash-newline continuations joined."""
    return text.replace("\\\n", " ").splitlines()


EVENTS_RE = re.compile(r">>?\s*\S*(kprobe_events|dynamic_events|"
                       r"uprobe_events)\b")
ASSIGN_RE = re.compile(r"^\s*(?:local\s+|export\s+)?([A-Za-z_]\w*)=(\S.*)?$")


def tc_variables(lines: Iterable[str]) -> dict[str, list[str]]:
    """The literal values each variable gets, in order, empty ones last."""
    vals: dict[str, list[str]] = {}
    for line in lines:
        m = ASSIGN_RE.match(line)
        if not m:
            continue
        val = m.group(2) or ""
        if "`" in val or "$(" in val:
            continue
        words = shell_words(val, {k: v[0] for k, v in vals.items() if v})
        v = vals.setdefault(m.group(1), [])
        if words and words[0] not in v:
            v.append(words[0])
    return {k: v for k, v in vals.items() if v}


def tc_envs(lines: Iterable[str]) -> list[dict[str, str]]:
    """The first value of every variable, then each arch's alternative
    (x86_64 comes first in the .tc case statements, then aarch64)."""
    vals = tc_variables(lines)
    base = {k: v[0] for k, v in vals.items()}
    envs = [base]
    for k, v in vals.items():
        if len(v) > 1:
            envs.append(dict(base, **{k: v[1]}))
    return envs


def tc_lines(path: str) -> list[str]:
    text = open(path, encoding="utf-8", errors="replace").read()
    lines = logical_lines(text)
    out = []
    for env in tc_envs(lines):
        out += tc_lines_env(lines, env)
    return out


def tc_lines_env(lines: Sequence[str], env: Mapping[str, str]) -> list[str]:
    out = []
    # functions whose body writes "$1" (or "$@") into an events file
    helpers: dict[str, Optional[str]] = {"check_error": None}
    fname = None
    for line in lines:
        m = re.match(r"^\s*([A-Za-z_]\w*)\s*\(\)", line)
        if m:
            fname = m.group(1)
        if fname and EVENTS_RE.search(line) and "$1" in line:
            helpers[fname] = line
        if line.startswith("}"):
            fname = None
    for line in lines:
        s = line.strip()
        if s.startswith("#"):
            continue
        words = shell_words(s, env)
        if words and words[0] in helpers:
            tmpl = helpers[words[0]]
            for arg in words[1:]:
                if tmpl is None:		# check_error 'cmd with ^'
                    out.append(arg.replace("^", "", 1))
                    break
                e = echoed(shell_words(tmpl.strip(), dict(env, **{"1": arg})))
                if e is not None:
                    out.append(e)
            continue
        if EVENTS_RE.search(s):
            e = echoed(words)
            if e:
                out.append(e)
    return out


# ---- Documents: definitions quoted in prose (--extract) ----

DEF_RE = re.compile(r"^(?:[pr]\d*|[ftew])(?::\S*)?\s+\S")


def doc_lines(path: str) -> list[str]:
    text = open(path, encoding="utf-8", errors="replace").read()
    out = []
    lines = logical_lines(text)
    heredoc = None
    for line in lines:
        s = line.strip().lstrip("_$ ").strip()
        if heredoc is not None:
            if s == heredoc:
                heredoc = None
            elif s:
                out.append(s)
            continue
        m = re.search(r"<<\s*'?(\w+)'?", s)
        if m and "_events" in s:
            heredoc = m.group(1)
            continue
        if s.startswith("echo") and "_events" in s:
            e = echoed(shell_words(s, {}))
            if e:
                out.append(e)
            continue
        for span in re.findall(r"`([^`]+)`", line):
            if DEF_RE.match(span) or span.startswith("-:"):
                out.append(span)
        if DEF_RE.match(s):
            out.append(re.split(r"\s{2,}|\s<-", s)[0])
    return out


def corpus_lines(path: str) -> list[str]:
    """A corpus-docs/ file: one definition a line, as --extract wrote it."""
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


# ---- The unit tests: C string literals, adjacent ones concatenated ----

C_ESC = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "0": "\0"}


def c_unescape(s: str) -> str:
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            m = re.match(r"x([0-9a-fA-F]{1,2})", s[i + 1:])
            if m:
                out.append(chr(int(m.group(1), 16)))
                i += 1 + m.end()
                continue
            out.append(C_ESC.get(s[i + 1], s[i + 1]))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


TOKEN_RE = re.compile(r'"((?:[^"\\\n]|\\.)*)"|([A-Za-z_]\w*)|(/\*.*?\*/)|'
                      r"(\s+)|(.)", re.S)
CMD_RE = re.compile(r"^\^?[prftew][0-9]*(?:[:\s^]|$)")


def c_strings(path: str) -> list[str]:
    text = open(path, encoding="utf-8").read()
    macros = {}
    for m in re.finditer(r'^#define\s+(\w+)\s+((?:"(?:[^"\\]|\\.)*"\s*)+)$',
                         text, re.M):
        macros[m.group(1)] = "".join(
            c_unescape(x) for x in re.findall(r'"((?:[^"\\]|\\.)*)"',
                                              m.group(2)))
    body = re.sub(r"^#define.*$", "", text, flags=re.M)
    out, cur = [], None
    for m in TOKEN_RE.finditer(body):
        lit, ident, comment, space, _ = m.groups()
        if lit is not None or (ident and ident in macros):
            cur = (cur or "") + (c_unescape(lit) if lit is not None
                                 else macros[ident])
        elif comment is None and space is None:
            if cur is not None:
                out.append(cur)
            cur = None
    # printf formats of the tests are not commands
    return [s.replace("^", "", 1) for s in out
            if CMD_RE.match(s) and not re.search(r"%l?[sud]", s)]


# ---- Long lines the fuzzer reaches only slowly, its inputs growing ----

def limit_lines() -> list[str]:
    arr = " ".join(f"a{i}=+0(%di):u64[64]" for i in range(7))
    # %r9 holds KLONG, 4K of "x", when byte 1 is 0 (fuzz_probe.c pool[])
    strs = " ".join(f"s{i}=+0(%r9):string" for i in range(17))
    deep = "+0(" * 13 + "%di" + ")" * 13
    return [
        "p vfs_read " + arr,			# EVENT_BIG
        "p vfs_read " + " ".join(["%ax"] * 128),	# TPP_MAX_ARGS
        "p vfs_read " + " ".join(["%ax"] * 129),	# -E2BIG
        "p:long vfs_read " + strs,		# a record past 64K
        "p vfs_read " + deep + ":string",
        "p vfs_read " + deep + ":u8[2]",
        "p vfs_read " + deep + ":b4@2/8",
        "f vfs_read " + "+0(" * 12 + "file" + ")" * 12 + ":string",
        "p:kprobes/e vfs_read " + " ".join(f"$arg{i}" for i in range(1, 9)),
        "r10:g/e vfs_read $arg* $retval $comm",
    ]


# ---- Header bytes ----

def header(line: str) -> bytes:
    w = line.split()
    head = w[0] if w else ""
    place = w[1] if len(w) > 1 else ""
    name = re.split(r"[+%]", place)[0]
    kind = head[:1]
    if kind == "e":
        mode = "eprobe"
    elif kind == "f":
        mode = "fexit" if "%return" in place else "fentry"
    elif kind == "t":
        mode = "tprobe"
    elif "/" in place and ":" in place:
        mode = "uretprobe" if kind == "r" else "uprobe"
    else:
        mode = "kretprobe" if kind == "r" or "%return" in place else "kprobe"
    env = ENV_ARM64 if re.search(r"%(x\d|lr\b|pc\b|pstate)", line) \
        else ENV_X86
    btfish = re.search(r"\$arg\*|->|\s[a-z_]\w*(\s|$|:|\.|\[)",
                       " " + " ".join(w[2:]))
    if btfish or mode in ("fentry", "fexit", "tprobe"):
        env |= ENV_BTF
    func = FUNCS.index(name) if name in FUNCS else 0
    return bytes([env | MODES[mode] << 2 | func << 5, 0, 0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    kpt_root = os.environ.get("KPT_ROOT") or "/var/tmp/kpt"
    ap.add_argument("--upstream",
                    default=os.path.join(kpt_root, "src", "upstream"))
    ap.add_argument("--docs", default=os.path.join(HERE, "corpus-docs"))
    ap.add_argument("--out", default=os.path.join(HERE, "seeds"))
    ap.add_argument("--extract", nargs="+", metavar="DOCUMENT",
                    help="print the definitions quoted in DOCUMENTs, "
                    "one a line, for corpus-docs/, and exit")
    args = ap.parse_args()

    if args.extract:
        for path in args.extract:
            for line in doc_lines(path):
                print(" ".join(line.split()))
        return

    lines = []
    tcs = sorted(glob.glob(os.path.join(args.upstream, SELFTESTS, "**",
                                        "*.tc"), recursive=True))
    if not tcs:
        sys.exit(f"gen_seeds: no selftests under {args.upstream}")
    for path in tcs:
        lines += tc_lines(path)
    contract_path = os.path.join(args.docs, "contract.txt")
    docs = [contract_path]
    docs += sorted(p for p in glob.glob(os.path.join(args.docs, "*.txt"))
                   if p != contract_path)
    for path in docs:
        lines += corpus_lines(path)
    lines += limit_lines()
    contract = set(corpus_lines(contract_path))
    for name in ("trace_probe_test.c", "probe_fetch_test.c",
                 "../../kernel/trace/trace_probe_test_cases.h"):
        lines += c_strings(os.path.normpath(os.path.join(UNIT, name)))

    seeds = {}
    for line in lines:
        line = " ".join(line.split())	# as the tracer joins argv
        if not line or len(line) > 4094:
            continue
        data = header(line) + line.encode("latin-1", "replace")
        seeds[hashlib.sha1(data).hexdigest()] = data
        if line in contract:	# the same, every allocation failing in turn
            data = data[:2] + b"\xf0" + data[3:]
            seeds[hashlib.sha1(data).hexdigest()] = data

    os.makedirs(args.out, exist_ok=True)
    for f in os.listdir(args.out):
        os.unlink(os.path.join(args.out, f))
    for name, data in seeds.items():
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(data)
    print(f"gen_seeds: {len(lines)} lines, {len(seeds)} seeds in {args.out}")


if __name__ == "__main__":
    main()
