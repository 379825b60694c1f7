# SPDX-License-Identifier: GPL-2.0
"""Generated probe definitions for the differential test.

The fixed corpus holds what the ABI documents and what a bug once broke;
a class nobody wrote down stays unchecked there (the caret after a signed
dereference offset was one).  This generator writes definitions from a
grammar of the probe syntax, valid and invalid: every probe type, nested
and signed dereferences, every type, bitfields, arrays, BTF names, and
lines spoiled on purpose (a byte dropped, doubled, swapped or replaced,
a line cut short).  The same (arch, count, seed) gives the same lines, so
a difference found once is found again: diff.py prints the seed.
"""

import random
from typing import Sequence, TypeVar

T = TypeVar("T")

# What a definition may probe on each arch, and what it may read there.
REGS = {
    "x86_64": ("%ax", "%bx", "%cx", "%dx", "%si", "%di", "%bp", "%sp",
               "%r8", "%r9", "%r12", "%r15", "%ip", "%flags", "%orig_ax",
               "%cs", "%ss", "%rdi", "%edi", "%dil", "%ah", "%r8d",
               "%r9w", "%r10b", "%ex", "%r16"),
    "arm64": ("%x0", "%x1", "%x7", "%x8", "%x19", "%x30", "%lr", "%sp",
              "%pc", "%pstate", "%w0", "%w7", "%w30", "%fp", "%ip0",
              "%x31", "%w31"),
}
SYMS = ("vfs_read", "vfs_write", "do_sys_openat2", "kernel_clone",
        "schedule", "kfree", "vfs_read+0", "kernel_clone+0x0")
BAD_SYMS = ("no_such_fn", "_text", "vfs_read.cold", "vfs_read+1",
            "kprobe_events_not_here", "vfs_read+100000000", "vfs_read+-4")
RSYMS = ("vfs_read", "vfs_write", "do_sys_openat2", "kernel_clone",
         "schedule", "vfs_read+0")
FSYMS = ("vfs_read", "vfs_write", "kernel_clone", "kfree", "no_such_fn")
TPOINTS = ("sched_switch", "sched_process_fork", "sys_enter",
           "sched/sched_switch", "no_such_tp")
EVENTS = ("syscalls/sys_enter_openat", "syscalls.sys_enter_openat",
          "sched/sched_switch", "sched.sched_process_fork",
          "syscalls/sys_exit_openat", "no/such_event")
EFIELDS = {"syscalls/sys_enter_openat": ("dfd", "filename", "flags",
                                         "mode", "__syscall_nr"),
           "sched/sched_switch": ("prev_comm", "prev_pid", "next_pid",
                                  "prev_state", "next_comm")}
UPATHS = ("/bin/sh", "/bin/busybox", "/no/such/file", "/proc/self/exe")
BTF = ("file", "buf", "count", "pos", "file->f_mode", "file->f_flags",
       "file->f_path.dentry", "file->f_inode->i_ino", "pos->x", "nope",
       "file->nope", "buf[0]", "$arg*")
TYPES = ("u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "x8",
         "x16", "x32", "x64", "char", "string", "ustring", "symbol",
         "symstr", "%pd", "%pD")
BAD_TYPES = ("u128", "x", "", "s", "u", "string8", "U8")
NAMES = ("a", "arg1", "b_2", "_x", "X9", "val", "p0")
BAD_NAMES = ("1bad", "a-b", "comm", "common_pid", "ip", "__probe_ip",
             "a" * 40, "a.b", "")
WORDS = ("a", "$", "(", ")", "+", "-", ":", "@", "%", "=", "[", "]", "/",
         ".", "\\", '"', "'", "*", "#", "0x", "u", "b", "{", "}", ",")


class Gen:
    def __init__(self, arch: str, seed: int) -> None:
        self.arch = arch
        self.r = random.Random(f"{arch}:{seed}")
        self.event = EVENTS[0]  # the attached event of the last 'e' line

    def pick(self, seq: Sequence[T], bad: Sequence[T] = (),
             p_bad: float = 0.1) -> T:
        """From @seq, or now and then from @bad."""
        if bad and self.chance(p_bad):
            return self.r.choice(bad)
        return self.r.choice(seq)

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def number(self) -> str:
        return self.pick((str(self.r.randint(0, 8)),
                          str(self.r.randint(0, 64)),
                          hex(self.r.randint(0, 0x100))),
                         ("0x" + "f" * 16, "4294967296", "4096", "1000000",
                          "18446744073709551615", "18446744073709551616",
                          "-1", "08", "0x", "1e3", ""))

    def offset(self) -> str:
        sign = self.pick(("", "", "-", "u", "u-"), ("+", "--", "-u"))
        return sign + self.pick((str(self.r.randint(0, 64)),
                                 hex(self.r.randint(0, 0x400)),
                                 self.number()))

    # -- fetch arguments -------------------------------------------------

    def value(self, kind: str, depth: int = 0) -> str:
        """One FETCHARG value for a probe of @kind ('p', 'r', 'f', 'x',
        't', 'u', 'e')."""
        if depth < 3 and self.chance(0.25):
            return f"+{self.offset()}({self.value(kind, depth + 1)})"
        if depth < 2 and self.chance(0.04):
            # newer kernels' per-CPU forms; uprobes and eprobes refuse them
            how = self.pick(("read", "ptr"))
            return f"this_cpu_{how}({self.value(kind, depth + 1)})"
        if depth < 2 and self.chance(0.04):
            # newer kernels' BTF typecasts
            cast = self.pick(("file", "task_struct", "file,f_path",
                              "dentry"), ("nope", "file,f_path->dentry",
                                          "task_struct,in_execve"))
            field = self.pick(("f_mode", "pid", "d_name.name",
                               "f_path.dentry"), ("nope", ""))
            return f"({cast})({self.value(kind, depth + 1)})->{field}"
        reg = self.pick(REGS[self.arch])
        arg = f"$arg{self.pick(('1', '2', '3', '4'), (self.number(),))}"
        stack = f"$stack{self.number()}"
        bad = ["$current", "$nope", "$", "$argx", "\\x", "@", "+0",
               f"@{self.pick(BAD_SYMS)}"]
        if kind in "pr":
            good = [reg, arg, stack, "$stack", "$comm", "$retval",
                    f"@{self.pick(SYMS)}", f"@{self.number()}",
                    self.pick(BTF), '\\"str"', "\\123", "\\-5"]
        elif kind in "fxt":
            good = [arg, stack, "$stack", "$comm", "$retval",
                    self.pick(BTF), f"@{self.pick(SYMS)}"]
            bad.append(reg)
        elif kind == "u":
            good = [reg, stack, "$stack", "$comm", "$retval",
                    f"@+{self.number()}", '\\"s"', "\\7"]
            bad += [f"@{self.number()}", arg]
        else:
            fields = EFIELDS.get(self.event, ("dfd", "nope"))
            good = [self.pick(fields), "$" + self.pick(fields), "$comm"]
            bad += ["$retval", f"@{self.pick(SYMS)}", reg, arg]
        return self.pick(good, bad, 0.15)

    def type_(self) -> str:
        if self.chance(0.12):
            w = self.pick((1, 3, 8, 31, 32), (64, 65, 0))
            o = self.pick((0, 1, 7, 31), (63, 64))
            c = self.pick((8, 16, 32, 64), (12, 128))
            return f"b{w}@{o}/{c}"
        t = self.pick(TYPES, BAD_TYPES)
        if self.chance(0.12):
            t += f"[{self.pick(('1', '4', '16'), ('64', '65', '0', '', 'x'))}]"
        return t

    def arg(self, kind: str) -> str:
        if self.chance(0.08):
            # @entry(): a return probe's value at the entry, refused elsewhere
            s = f"@entry({self.value({'r': 'p', 'x': 'f'}.get(kind, kind))})"
        else:
            s = self.value(kind)
        if self.chance(0.5):
            s += ":" + self.type_()
        if self.chance(0.5):
            s = f"{self.pick(NAMES, BAD_NAMES)}={s}"
        return s

    def args(self, kind: str) -> list[str]:
        n = self.pick((0, 1, 1, 2, 3, 5))
        return [self.arg(kind) for _ in range(n)]

    # -- heads -----------------------------------------------------------

    def name(self) -> str:
        g = self.pick(("", "", "gen/", "g1/", "g_2/"),
                      ("kprobes/", "Bad-group/", "/", "g" * 65 + "/",
                       "g.1/"))
        e = self.pick(("ev", "ev2", "e_3", "Ev4"),
                      ("1ev", "ev.x", "", "e" * 65, "e-v"))
        return g + e

    def head(self, letter: str, maxactive: bool = False) -> str:
        h = letter
        if maxactive and self.chance(0.2):
            h += self.pick(("1", "16", "0", "4097", "x"))
        if self.chance(0.7):
            h += ":" + self.name()
        return h

    def definition(self) -> str:
        kind = self.pick("pppprrfxtue")
        if kind == "p":
            place = self.pick(SYMS, BAD_SYMS) if self.chance(0.95) else \
                self.pick(("0x" + "f" * 16, "0xffffffff81000000", "0x10"))
            head = self.head("p")
        elif kind == "r":
            place = self.pick(RSYMS, BAD_SYMS)
            head = self.head("r", maxactive=True)
        elif kind in "fx":
            place = self.pick(FSYMS) + ("%return" if kind == "x" else "")
            head = self.head("f")
        elif kind == "t":
            place = self.pick(TPOINTS)
            head = self.head("t")
        elif kind == "u":
            place = (f"{self.pick(UPATHS)}:"
                     f"{self.pick(('0x10', '16', '0x1000', '0', 'x'))}")
            if self.chance(0.2):
                place += self.pick(("(0x1000)", "%return", "(x)"))
            head = self.head(self.pick("pr"))
        else:
            self.event = self.pick(EVENTS)
            place = self.event
            head = self.head("e")
            if self.chance(0.15):
                return " ".join([head, place, *self.args("e"),
                                 "if", self.pick(("dfd == 1", "x", ""))])
        return " ".join([head, place, *self.args(kind)])

    # -- spoiling --------------------------------------------------------

    def spoil(self, line: str) -> str:
        """The line with one mistake in it."""
        if not line:
            return line
        i = self.r.randrange(len(line))
        how = self.r.randrange(5)
        if how == 0:
            return line[:i] + line[i + 1:]
        if how == 1:
            return line[:i] + line[i] + line[i:]
        if how == 2 and i + 1 < len(line):
            return line[:i] + line[i + 1] + line[i] + line[i + 2:]
        if how == 3:
            return line[:i] + self.pick(WORDS) + line[i + 1:]
        return line[:i]

    def line(self) -> str:
        s = self.definition()
        if self.chance(0.25):
            s = self.spoil(s)
        return s


def generate(arch: str, count: int, seed: int) -> list[str]:
    """@count definitions for @arch: a list of strings, the same for the
    same arguments."""
    g = Gen(arch, seed)
    out: list[str] = []
    while len(out) < count:
        s = g.line().strip()
        # One write(2) per line; the corpus format reserves '{{' and ';;'.
        if s and "\n" not in s and "{{" not in s and not s.startswith(";;"):
            out.append(s)
    return out
