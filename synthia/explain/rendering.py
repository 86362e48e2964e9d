"""Rendering DOT source to a file whose **suffix chooses the format**.

``.dot`` and ``.gv`` get the DOT source itself (no program needed); ``.svg``, ``.png``,
``.pdf`` and the other suffixes of :data:`IMAGE_FORMATS` get the picture Graphviz's ``dot``
program draws. An unknown suffix (or none) is refused with a ``ValueError`` before
anything is written, and no file but ``path`` is ever written: the DOT source of a picture
is not left beside it, so a ``.dot`` file of the user's is never overwritten. Without the
``dot`` program a picture raises :class:`RenderError`, which says how to install it and how
to get the DOT source anyway (a ``.dot`` path, or ``to_dot()``).

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> render_dot("digraph { a -> b }", folder / "g.dot").read_text()
'digraph { a -> b }'
>>> render_dot("digraph { a -> b }", folder / "g.txt")
Traceback (most recent call last):
...
ValueError: path must end with a suffix that chooses the format (.dot or .gv for the DOT source; .svg, .png, .pdf, ...), got 'g.txt'
"""
from __future__ import annotations

import pathlib
import shutil
from typing import Any

from ..core.checks import check_path

__all__ = ["RenderError", "render_dot", "IMAGE_FORMATS", "DOT_SUFFIXES", "format_of"]


class RenderError(RuntimeError):
    """Rendering needs Graphviz's ``dot`` program, which was not found."""


#: The suffixes written as the DOT source itself.
DOT_SUFFIXES = (".dot", ".gv")

#: Picture suffixes and the Graphviz output format each one asks for.
IMAGE_FORMATS = {
    ".svg": "svg", ".svgz": "svgz", ".png": "png", ".pdf": "pdf", ".jpg": "jpg", ".jpeg": "jpeg", ".gif": "gif",
    ".bmp": "bmp", ".tif": "tif", ".tiff": "tiff", ".webp": "webp", ".ps": "ps", ".eps": "eps", ".json": "json",
    ".xdot": "xdot",
}


def format_of(path: Any, format: str | None = None) -> str:
    """The format the suffix of ``path`` chooses: ``"dot"`` for the DOT source, else a
    Graphviz format. ``format``, when given, must agree with the suffix (it is there for
    older calls such as ``render("x.svg", format="svg")``).

    >>> format_of("figure.PNG"), format_of("figure.gv")
    ('png', 'dot')
    >>> format_of("figure.png", format="svg")
    Traceback (most recent call last):
    ...
    ValueError: format='svg' disagrees with the suffix of 'figure.png', which chooses 'png': the suffix chooses the format
    """
    target = check_path(path, "path")
    suffix = target.suffix.lower()
    if suffix in DOT_SUFFIXES:
        chosen = "dot"
    elif suffix in IMAGE_FORMATS:
        chosen = IMAGE_FORMATS[suffix]
    else:
        raise ValueError(
            f"path must end with a suffix that chooses the format (.dot or .gv for the DOT source; "
            f".svg, .png, .pdf, ...), got {target.name!r}"
        )
    if format is not None and format != chosen and not (chosen == "dot" and format == "gv"):
        raise ValueError(f"format={format!r} disagrees with the suffix of {target.name!r}, which chooses {chosen!r}: the suffix chooses the format")
    return chosen


def render_dot(source: str, path: str | pathlib.Path, format: str | None = None) -> pathlib.Path:
    """Write ``source`` (DOT) to ``path`` in the format its suffix chooses (see the module
    docstring); return the path written.

    Raises ``ValueError`` for a suffix that chooses no format, :class:`RenderError` when a
    picture is asked for and Graphviz's ``dot`` program is missing (nothing is written).
    """
    chosen = format_of(path, format)
    target = pathlib.Path(path)
    if chosen == "dot":
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(source, encoding="utf-8")
        return target
    if shutil.which("dot") is None:
        raise RenderError(
            f"rendering {target.name} needs Graphviz's `dot` program: install it with `apt-get install graphviz` "
            "(Debian, Ubuntu), `brew install graphviz` (macOS) or from graphviz.org; the DOT source needs no program: "
            f"render to {target.with_suffix('.dot').name} instead, or call to_dot()"
        )
    import graphviz

    drawn = graphviz.Source(source).pipe(format=chosen)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(drawn)
    return target
