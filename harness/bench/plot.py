#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Draw results-<arch>.txt as one SVG: harness/bench/results.svg.

Left, per hit: each case of the icount section, 6.12 against ours, one
panel per architecture.  Right, the kprobe-0 hit against the number of
other kprobe events registered (the scale rows of the icount and
scale-long sections).  Plain SVG, written by hand: nothing to install.

    harness/bench/plot.py [results-x86_64.txt results-arm64.txt ...]

make bench runs it after it saved the results.
"""

import os
import re
import sys
from typing import Iterable, Mapping, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
ROW = re.compile(r"^(\S.{0,24}?)\s{2,}([\d.]+|-)\s+([\d.]+|-)\s")
COLORS = {"upstream": "#999999", "ours": "#1f77b4"}
BAR, GAP, LEFT, TOP = 7, 4, 150, 50


def sections(text: str) -> dict[str, list[str]]:
    """{section name: [lines]}"""
    out: dict[str, list[str]]
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^== (\S+) ==", line)
        if m:
            cur = out.setdefault(m.group(1), [])
        elif cur is not None:
            cur.append(line)
    return out


def rows(lines: Iterable[str]) -> list[tuple[str, float, float]]:
    """[(case, upstream, ours)] of the table rows with both figures"""
    out = []
    for line in lines:
        m = ROW.match(line)
        if m and m.group(2) != "-" and m.group(3) != "-":
            out.append((m.group(1).strip(), float(m.group(2)),
                        float(m.group(3))))
    return out


def esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;")


def hit_panel(x0: int, arch: str, cases: Sequence[tuple[str, float, float]]
              ) -> tuple[list[str], int]:
    """Horizontal bars, two per case; returns (svg parts, height)"""
    top = max(max(u, o) for _, u, o in cases)
    width = 330
    parts = [f'<text x="{x0}" y="{TOP - 18}" font-weight="bold">{arch}: '
             'guest instructions per hit</text>']
    y = TOP
    for case, up, ours in cases:
        parts.append(f'<text x="{x0 + LEFT - 6}" y="{y + BAR + 3}" '
                     f'text-anchor="end">{esc(case)}</text>')
        for k, v in (("upstream", up), ("ours", ours)):
            w = width * v / top
            parts.append(f'<rect x="{x0 + LEFT}" y="{y}" width="{w:.1f}" '
                         f'height="{BAR}" fill="{COLORS[k]}"/>')
            parts.append(f'<text x="{x0 + LEFT + w + 3:.1f}" '
                         f'y="{y + BAR - 1}" font-size="8">{v:.0f}</text>')
            y += BAR
        y += GAP
    return parts, y


def scale_points(secs: Mapping[str, list[str]]
                 ) -> tuple[dict[str, list[tuple[int, float]]], str]:
    """({kernel: [(others, per hit)]}, what measured them), from the scale
    rows of one section: scale-long (LONG=1) when there is one, else
    icount.  Sections of different runs are not mixed."""
    for name in ("scale-long", "icount"):
        pts: dict[str, list[tuple[int, float]]] = {"upstream": [],
                                                   "ours": []}
        for case, up, ours in rows(secs.get(name, [])):
            m = re.match(r"scale others=(\d+)", case)
            if m:
                pts["upstream"].append((int(m.group(1)), up))
                pts["ours"].append((int(m.group(1)), ours))
        if len(pts["ours"]) >= 2:
            at = [m.group(1) for m in (re.search(r"ours at (\w+)", line)
                                       for line in secs[name]) if m]
            return pts, f"section {name}" + (f", ours at {at[0]}"
                                              if at else "")
    return {}, ""


def scale_panel(x0: int, y0: int, arch: str,
                pts: Mapping[str, list[tuple[int, float]]],
                source: str) -> list[str]:
    """Cost against registered probes, log-ish x (0, 1000, 10000)"""
    w, h = 300, 160
    xs = sorted({n for v in pts.values() for n, _ in v})
    if len(xs) < 2:
        return []
    ymax = max(c for v in pts.values() for _, c in v) * 1.1

    def px(n: int) -> float:
        return x0 + w * xs.index(n) / (len(xs) - 1)

    def py(c: float) -> float:
        return y0 + h - h * c / ymax

    parts = [f'<text x="{x0}" y="{y0 - 18}" font-weight="bold">{arch}: '
             'kprobe-0 hit with N other kprobe events</text>',
             f'<text x="{x0}" y="{y0 - 6}" font-size="8">{esc(source)}'
             '</text>',
             f'<line x1="{x0}" y1="{y0 + h}" x2="{x0 + w}" y2="{y0 + h}" '
             'stroke="black"/>',
             f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y0 + h}" '
             'stroke="black"/>']
    for n in xs:
        parts.append(f'<text x="{px(n):.1f}" y="{y0 + h + 14}" '
                     f'text-anchor="middle">{n}</text>')
    for kernel, v in pts.items():
        line = " ".join(f"{px(n):.1f},{py(c):.1f}" for n, c in v)
        parts.append(f'<polyline points="{line}" fill="none" '
                     f'stroke="{COLORS[kernel]}" stroke-width="2"/>')
        # 6.12's labels above its line, ours below: they may meet
        dy = -4 if kernel == "upstream" else 10
        for n, c in v:
            parts.append(f'<text x="{px(n) + 4:.1f}" y="{py(c) + dy:.1f}" '
                         f'font-size="8">{c:.0f}</text>')
    return parts


def main(paths: Iterable[str]) -> str:
    parts, x, height = [], 10, 0
    for path in paths:
        arch = re.sub(r"^results-|\.txt$", "", os.path.basename(path))
        with open(path) as f:
            secs = sections(f.read())
        cases = [r for r in rows(secs.get("icount", []))
                 if not r[0].startswith(("scale", "base"))]
        if not cases:
            continue
        p, h = hit_panel(x, arch, cases)
        parts += p
        parts += scale_panel(x + 70, h + 60, arch, *scale_points(secs))
        height = max(height, h + 260)
        x += 560
    legend = [f'<rect x="10" y="6" width="10" height="8" '
              f'fill="{COLORS["upstream"]}"/>',
              '<text x="24" y="14">6.12</text>',
              f'<rect x="60" y="6" width="10" height="8" '
              f'fill="{COLORS["ours"]}"/>',
              '<text x="74" y="14">ours</text>']
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{x}" '
           f'height="{height}" font-family="sans-serif" font-size="10">\n'
           f'<rect width="100%" height="100%" fill="white"/>\n' +
           "\n".join(legend + parts) + "\n</svg>\n")
    out = os.path.join(HERE, "results.svg")
    with open(out, "w") as f:
        f.write(svg)
    return out


if __name__ == "__main__":
    args = sys.argv[1:] or [os.path.join(HERE, f"results-{a}.txt")
                            for a in ("x86_64", "arm64")]
    print(main([a for a in args if os.path.exists(a)]))
