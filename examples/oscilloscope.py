"""An oscilloscope made of pickers: Lissajous figures, AM and FM signals.

A Tick advances the phase argument omega*t; SineWave pickers turn it into signals, and a
2-D PrismPicker puts two signals on the x and y axes. Feeding one SineWave as the
amplitude of another gives amplitude modulation (AM); feeding it into the argument gives
frequency modulation (FM). The traces are drawn as ASCII art in the terminal.
"""
from __future__ import annotations

import math

import synthia as sy


def plot(points: list[tuple[float, float]], width: int = 61, height: int = 21) -> str:
    grid = [[" "] * width for _ in range(height)]
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    for x, y in points:
        col = round((x - x0) / ((x1 - x0) or 1) * (width - 1))
        row = round((y1 - y) / ((y1 - y0) or 1) * (height - 1))
        grid[row][col] = "*"
    return "\n".join("".join(row).rstrip() for row in grid)


def lissajous() -> sy.Picker:
    """x = sin(3t + pi/2), y = sin(2t): the classic 3:2 figure."""
    return sy.PrismPicker(sy.SineWave(1, sy.Tick(0, 3 * 0.02), math.pi / 2), sy.SineWave(1, sy.Tick(0, 2 * 0.02)))


def am_signal() -> sy.Picker:
    """A fast carrier whose amplitude is a slow sine: x is time, y the modulated signal."""
    envelope = sy.SineWave(0.5, sy.Tick(0, 0.05), 0.0)
    carrier = sy.SineWave(sy.Apply(lambda e: 1 + e, envelope), sy.Tick(0, 0.8))
    return sy.PrismPicker(sy.Tick(0, 1), carrier)


def fm_signal() -> sy.Picker:
    """A carrier whose phase argument is pushed by a slow sine: the frequency swings."""
    argument = sy.Apply(lambda t, m: t + m, sy.Tick(0, 0.5), sy.SineWave(4, sy.Tick(0, 0.05)))
    return sy.PrismPicker(sy.Tick(0, 1), sy.SineWave(1, argument))


def main() -> None:
    for title, picker, n in [
        ("Lissajous 3:2", lissajous(), 315),
        ("Amplitude modulation", am_signal(), 240),
        ("Frequency modulation", fm_signal(), 240),
    ]:
        print(f"\n{title}: {picker}")
        print(plot(picker.take(n)))


if __name__ == "__main__":
    main()
