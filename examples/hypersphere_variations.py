"""The Synthia paper's Figure 1: one HyperspherePicker, four wirings, four kinds of point sets.

A HyperspherePicker turns a radius and an angle into a 2-D point. What changes is how
those two inputs are wired:

1. radius 1 or 2 (a RandomInteger), angle 2*pi*x for a uniform x (an AffineTransform):
   points anywhere on two concentric circles;
2. a Gaussian radius and a fixed angle 3*pi/2: points clustered on a half-line;
3. a Freeze'd radius in [1, 3) and one of four right angles: four points on one circle,
   whose radius differs from seed to seed;
4. two Ticks: the radius starts at 0 or 1 and grows by 1/6, the angle starts at one of
   four right angles and turns by pi/6: a spiral (Figure 2 of the paper).

Each variation runs with two seeds, as in the paper's plots. With matplotlib installed the
points are drawn to out/hypersphere_variations.png; otherwise they are printed.
"""
from __future__ import annotations

import math
import pathlib

import synthia as sy

RIGHT_ANGLES = sy.Choice(0.0, math.pi / 2, math.pi, 3 * math.pi / 2)


def variations() -> dict[str, sy.Picker]:
    return {
        "1: radius 1 or 2, any angle": sy.HyperspherePicker(
            sy.RandomInteger(1, 3), sy.AffineTransform(sy.RandomFloat(), 2 * math.pi, 0)
        ),
        "2: Gaussian radius, angle 3pi/2": sy.HyperspherePicker(sy.GaussianFloat(0, 1), 3 * math.pi / 2),
        "3: frozen radius, right angles": sy.HyperspherePicker(sy.Freeze(sy.RandomFloat(1, 3)), RIGHT_ANGLES.duplicate()),
        "4: spiral of two Ticks": sy.HyperspherePicker(
            sy.Tick(sy.RandomInteger(0, 2), 1 / 6), sy.Tick(RIGHT_ANGLES.duplicate(), math.pi / 6)
        ),
    }


def main() -> None:
    runs = {}
    for name, picker in variations().items():
        for seed in (1, 2):
            runs[(name, seed)] = picker.set_seed(seed).take(40)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        for (name, seed), points in runs.items():
            shown = ", ".join(f"({x:+.2f}, {y:+.2f})" for x, y in points[:5])
            print(f"variation {name:34} seed {seed}: {shown}, ...")
        return
    fig, axes = plt.subplots(2, 4, figsize=(14, 7))
    for column, name in enumerate(variations()):
        for row, seed in enumerate((1, 2)):
            axis = axes[row][column]
            xs, ys = zip(*runs[(name, seed)])
            axis.scatter(xs, ys, s=8)
            axis.set_aspect("equal")
            axis.set_title(f"variation {name.split(':')[0]}, seed {seed}", fontsize=9)
    out = pathlib.Path("out")
    out.mkdir(exist_ok=True)
    fig.savefig(out / "hypersphere_variations.png", dpi=80)
    print(f"wrote {out / 'hypersphere_variations.png'}")


if __name__ == "__main__":
    main()
