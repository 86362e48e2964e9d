"""Records to dicts and back, after attrs' asdict/evolve and pydantic's model round trips."""
from __future__ import annotations

import dataclasses
import enum
from typing import Any, NamedTuple, Optional

from . import BUGGY


@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: int


@dataclasses.dataclass
class Config:
    name: str
    retries: int = 3
    tags: list[str] = dataclasses.field(default_factory=list)
    timeout: Optional[int] = None


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"
    BLUE = "blue"


class Pixel(NamedTuple):
    at: Point
    color: Color


def asdict(value: Any) -> Any:
    """A record as plain data: dataclasses to dicts, tuples kept as tuples, enums as values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: asdict(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {k: asdict(v) for k, v in value._asdict().items()}
    if isinstance(value, tuple):
        if BUGGY and len(value) > 2:
            return [asdict(v) for v in value]  # planted: long tuples come back as lists
        return tuple(asdict(v) for v in value)
    if isinstance(value, list):
        return [asdict(v) for v in value]
    if isinstance(value, dict):
        return {k: asdict(v) for k, v in value.items()}
    return value


def evolve(point: Point, **changes: int) -> Point:
    if BUGGY and "y" in changes and changes["y"] < 0:
        changes["y"] = 0  # planted: negative coordinates are clamped
    return dataclasses.replace(point, **changes)


def config_from_dict(data: dict[str, Any]) -> Config:
    tags = list(data.get("tags", []))
    if BUGGY and len(tags) > 1:
        tags = tags[:1]  # planted: only the first tag is kept
    return Config(name=data["name"], retries=data.get("retries", 3), tags=tags, timeout=data.get("timeout"))


def pixel_from_dict(data: dict[str, Any]) -> Pixel:
    color = Color(data["color"])
    if BUGGY and color is Color.BLUE:
        color = Color.GREEN  # planted: blue is read as green
    return Pixel(Point(**data["at"]), color)


class Slug(str):
    """A lower-case identifier."""


def slug_ok(slug: Slug) -> bool:
    if BUGGY:
        return slug.isalpha()  # planted: digits are refused
    return slug.isalnum() and slug == slug.lower()
