#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Print bench JSON as a markdown table and plot lookup cost against tree size
(uvfs and the kernel) with gnuplot.  usage: report.py bench.json out.png"""
import json
import os
import subprocess
import sys

data = json.load(open(sys.argv[1]))
rows = data["benchmarks"]
print("| benchmark | uvfs ns/op | kernel ns/op | kernel/uvfs | goal |")
print("|---|---:|---:|---:|---|")
for r in rows:
    if "goal_ns" in r:
        ok = "met" if r["uvfs_ns"] <= r["goal_ns"] else "**missed**"
        print(f"| {r['name']} (depth 16 - depth 4) / 12 | {r['uvfs_ns']:.1f} | {r['kernel_ns']:.1f} "
              f"| {r['ratio']:.1f}x | <= {r['goal_ns']:.0f} ns {ok} |")
    elif "ratio" in r:
        goal = ""
        if r["goal"]:
            goal = f">= {r['goal']:.0f}x " + ("met" if r["ratio"] >= r["goal"] else "**missed**")
        print(f"| {r['name']} | {r['uvfs_ns']:.1f} | {r['kernel_ns']:.1f} | {r['ratio']:.1f}x | {goal} |")
for r in rows:
    if "uvfs_rss_bytes" in r:
        print(f"| {r['name']} ({r['n']}) | RSS {r['uvfs_rss_bytes']:.0f} B "
              f"| {r['kernel_slab_bytes']:.0f} B slab | | {'<= 256 B' if 'file' in r['name'] else ''} |")
pts, flat = [], []
for r in rows:
    if r["name"].startswith("random paths") and "depth 4" in r["name"]:
        size = {"10^3": 1e3, "10^5": 1e5, "10^6": 1e6}[r["name"].split()[2]]
        pts.append((size, r["uvfs_ns"], r["kernel_ns"]))
    if r["name"].startswith("lookup, flat"):
        flat.append((1e7, r["uvfs_ns"], r["kernel_ns"]))
if len(sys.argv) > 2 and pts:
    dat = sys.argv[2] + ".dat"
    with open(dat, "w") as f:
        for p in sorted(pts):
            f.write(f"{p[0]:g} {p[1]:.1f} {p[2]:.1f}\n")
        f.write("\n\n")
        for p in flat:
            f.write(f"{p[0]:g} {p[1]:.1f} {p[2]:.1f}\n")
    flat_plot = (f", \\\n     '{dat}' index 1 using 1:2 with points pt 7 lc 1 title 'uvfs, flat', "
                 f"'{dat}' index 1 using 1:3 with points pt 7 lc 2 title 'kernel, flat'") if flat else ""
    script = f"""set terminal png size 720,420
set output '{sys.argv[2]}'
set logscale x
set xlabel 'entries (random paths through trees of depth 4; 10^7: one flat directory)'
set ylabel 'fstatat, ns per lookup'
set key top left
set grid
plot '{dat}' index 0 using 1:2 with linespoints lc 1 title 'uvfs', \\
     '{dat}' index 0 using 1:3 with linespoints lc 2 title 'kernel (tmpfs)'{flat_plot}
"""
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
        print(f"\n(plot: {sys.argv[2]})", file=sys.stderr)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"no plot: {e}", file=sys.stderr)
