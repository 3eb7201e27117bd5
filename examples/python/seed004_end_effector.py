"""Seed 004 (Moolam, Braghin & Vicentini): the spatial RRR arm under constant 400 N m torques, its
end-effector path and its distance from the rigid arm's, with rigid links and joints, flexible links, and flexible links and joints.

Runs the project's three variants in parallel (flexarm.compare) and saves seed004_end_effector.png
(in the folder given as the first argument, else here).

    PYTHONPATH=build/python python3 examples/python/seed004_end_effector.py [OUT_DIR]
"""
import os
import sys

import matplotlib.pyplot as plt

import flexarm

here = os.path.dirname(os.path.abspath(__file__))
out_dir = sys.argv[1] if len(sys.argv) > 1 else "."
project = flexarm.load(os.path.join(here, "..", "..", "projects", "spatial-rrr-flexible-seed004.flexarm.json"))
runs = flexarm.compare(project, project.variants)

import numpy as np

fig, (xy, xz, diff) = plt.subplots(1, 3, figsize=(15, 4.8))
rigid = runs["cases"][0]["results"]  # the paper plots the differences from the rigid arm (its Figures 6-11)
for case in runs["cases"]:
    r = case["results"]
    xy.plot(r["ee.x"], r["ee.y"], label=case["name"])
    xz.plot(r["ee.x"], r["ee.z"], label=case["name"])
    if case is not runs["cases"][0]:
        gap = np.sqrt(sum((r[c] - rigid[c]) ** 2 for c in ("ee.x", "ee.y", "ee.z")))
        diff.plot(r.t, gap, label=case["name"])
    print(f"{case['name']}: {r.status}, end effector at t = {r.end_time:g} s: "
          f"({r['ee.x'][-1]:.3f}, {r['ee.y'][-1]:.3f}, {r['ee.z'][-1]:.3f}) m")
for ax, (a, b) in ((xy, ("x", "y")), (xz, ("x", "z"))):
    ax.set_xlabel(f"{a} [m]")
    ax.set_ylabel(f"{b} [m]")
    ax.set_aspect("equal", adjustable="datalim")
    ax.grid(True, alpha=0.3)
xy.legend(loc="best", fontsize=8)
diff.set_xlabel("t [s]")
diff.set_ylabel("distance from the rigid arm's end effector [m]")
diff.grid(True, alpha=0.3)
diff.legend(loc="upper left", fontsize=8)
fig.suptitle("Seed 004: end-effector paths, 400 N m on every joint")
fig.tight_layout()
path = os.path.join(out_dir, "seed004_end_effector.png")
fig.savefig(path, dpi=120)
print("wrote", path)
