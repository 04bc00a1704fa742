#!/usr/bin/env python3
"""Plots resident memory against series as an SVG (docs/benchmarks.md, "RSS against series").

  scripts/plot_rss.py TRACE OUT.svg [SERIES:MB:LABEL ...]

TRACE holds lines "<unix s> rss_kb=N ... gnomon_engine_series=N ..." as sampled from a server
during a load (every 2 s: VmRSS and /metrics); each extra argument marks one more run's peak
(e.g. 100000:698:100k). Standard library only: the machines have no plotting package.
"""
import re
import sys


def main():
    trace, out = sys.argv[1], sys.argv[2]
    marks = [a.split(":", 2) for a in sys.argv[3:]]
    pts = []
    for line in open(trace):
        m = re.search(r"rss_kb=(\d+).*gnomon_engine_series=(\d+)", line)
        if m:
            pts.append((int(m.group(2)), int(m.group(1)) / 1024))
    # The load's first pass: each sample's series count against the resident memory then.
    first = []
    for s, r in pts:
        if not first or s > first[-1][0]:
            first.append((s, r))
    max_s = max([s for s, _ in pts] + [float(m[0]) for m in marks])
    max_r = max([r for _, r in pts] + [float(m[1]) for m in marks]) * 1.1
    w, h, left, bottom = 640, 360, 70, 40
    x = lambda s: left + (w - left - 20) * s / max_s
    y = lambda r: h - bottom - (h - bottom - 20) * r / max_r
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<line x1="{left}" y1="{y(0)}" x2="{w - 20}" y2="{y(0)}" stroke="black"/>',
           f'<line x1="{left}" y1="{y(0)}" x2="{left}" y2="20" stroke="black"/>']
    for i in range(6):
        s = max_s * i / 5
        svg.append(f'<text x="{x(s)}" y="{h - bottom + 15}" text-anchor="middle">{s / 1e6:.0f} M</text>')
        r = max_r * i / 5
        svg.append(f'<text x="{left - 5}" y="{y(r) + 4}" text-anchor="end">{r / 1024:.1f} GiB</text>')
    svg.append(f'<text x="{(left + w) / 2}" y="{h - 5}" text-anchor="middle">series</text>')
    # The 4 GiB target.
    svg.append(f'<line x1="{left}" y1="{y(4096)}" x2="{w - 20}" y2="{y(4096)}" stroke="red" stroke-dasharray="4 3"/>')
    svg.append(f'<text x="{w - 25}" y="{y(4096) - 4}" text-anchor="end" fill="red">4 GiB target at 10 M</text>')
    path = " ".join(f"{x(s):.1f},{y(r):.1f}" for s, r in pts)
    svg.append(f'<polyline fill="none" stroke="#999" points="{path}"/>')
    path = " ".join(f"{x(s):.1f},{y(r):.1f}" for s, r in first)
    svg.append(f'<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="{path}"/>')
    for s, r, label in marks:
        svg.append(f'<circle cx="{x(float(s)):.1f}" cy="{y(float(r)):.1f}" r="4" fill="#d62728"/>')
        svg.append(f'<text x="{x(float(s)) + 6:.1f}" y="{y(float(r)) - 6:.1f}">{label}</text>')
    svg.append(f'<text x="{left + 10}" y="30" fill="#1f77b4">10 M-device load, first pass (blue), whole run (grey); red: peaks of other runs</text>')
    svg.append("</svg>")
    open(out, "w").write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()
