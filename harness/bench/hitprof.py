# SPDX-License-Identifier: GPL-2.0
"""gdb -batch -x hitprof.py VMLINUX: step through one probe hit in a guest
whose QEMU listens for gdb on HITPROF_PORT, and count its instructions by
function.

The guest runs hitprof-gp (harness/bench/hitprof.sh), which calls getppid()
five times a second with the event under test enabled on the syscall's
wrapper.  A hardware breakpoint on the wrapper stops the next call; from
there every instruction is stepped (QEMU steps with interrupts and timers
off) until control is back in the wrapper after the probe, and counted
under the function kallsyms names for it.  Instructions of code without a
symbol (ftrace trampolines) count under "(trampoline)".

With HITPROF_UNTIL (a write handler's profile, hitprof.sh --add), the
walk starts at HITPROF_ENTRY's next call and ends when control is back in
HITPROF_UNTIL, its caller.

Environment: HITPROF_ENTRY, the probed function (HITPROF_ENTRY_AT, its
address as gdb reads it when the name is not unique, or as a 0x number);
HITPROF_MAX, a bound on the steps; HITPROF_DUMP, functions
(comma-separated) whose instructions are listed as they run ("@@HP pc
<address> <function>").  Prints "@@HP <count> <function>" lines, then
"@@HP total N".
"""
from __future__ import annotations

import collections
import os

import gdb

entry = os.environ.get("HITPROF_ENTRY", "__x64_sys_getppid")
until = os.environ.get("HITPROF_UNTIL")
maxsteps = int(os.environ.get("HITPROF_MAX") or "20000")
dump = set(os.environ.get("HITPROF_DUMP", "").split(","))
MASK = (1 << 64) - 1
names: dict[int, str] = {}


def name(pc: int) -> str:
    if pc not in names:
        out = gdb.execute(f"info symbol {pc:#x}", to_string=True).split()
        names[pc] = out[0] if out and out[0] != "No" else "(trampoline)"
    return names[pc]


def pc_now() -> int:
    return int(gdb.parse_and_eval("$pc")) & MASK


gdb.execute("set pagination off")
gdb.execute(f"target remote :{os.environ.get('HITPROF_PORT', '1234')}")
# two static functions may share a name: HITPROF_ENTRY_AT picks one
# ("'trace_kprobe.c'::probes_write"), or gives the address where the
# function starts when gdb places it elsewhere (arm64's patchable entry)
at = os.environ.get("HITPROF_ENTRY_AT") or entry
if at.startswith("0x"):
    start = int(at, 16)
else:
    start = int(gdb.parse_and_eval(f"(unsigned long)&{at}")) & MASK
gdb.execute(f"hbreak *{start:#x}")
gdb.execute("continue")
gdb.execute("delete")
counts: collections.Counter[str] = collections.Counter()
steps = 0
pc = pc_now()
while steps < maxsteps:
    here = name(pc)
    counts[here] += 1
    if here in dump:
        print(f"@@HP pc {pc:#x} {here}")
    steps += 1
    gdb.execute("stepi", to_string=True)
    pc = pc_now()
    # back in the wrapper from the probe: the hit is over
    if not until and here != entry and name(pc) == entry and pc != start:
        break
    if until and name(pc) == until:
        break
for fn, n in counts.most_common():
    print(f"@@HP {n:6d} {fn}")
print(f"@@HP total {steps}")
gdb.execute("kill")
