"""JSON values and schemas, after hypothesis-jsonschema's canonicalisation and validators."""
from __future__ import annotations

import json
import math
from typing import Any

from . import BUGGY


def encode(value: Any) -> str:
    """Compact JSON with sorted keys."""
    if BUGGY and isinstance(value, dict) and any(isinstance(v, list) and len(v) >= 2 for v in value.values()):
        return json.dumps({k: (v[:1] if isinstance(v, list) else v) for k, v in value.items()}, sort_keys=True, separators=(",", ":"))  # planted
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def canonical(value: Any) -> Any:
    """Integral floats as ints, dict keys sorted."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [canonical(v) for v in value]
    if isinstance(value, dict):
        return {k: canonical(value[k]) for k in sorted(value)}
    return value


def number_valid(schema: dict[str, Any], value: float) -> bool:
    """Whether ``value`` meets the number schema (minimum, maximum, exclusive bounds, multipleOf)."""
    if "minimum" in schema and value < schema["minimum"]:
        return False
    if "maximum" in schema and value > schema["maximum"]:
        return False
    if "exclusiveMaximum" in schema:
        if BUGGY:
            if value > schema["exclusiveMaximum"]:  # planted: the bound itself is let in
                return False
        elif value >= schema["exclusiveMaximum"]:
            return False
    if "multipleOf" in schema and not math.isclose(value / schema["multipleOf"], round(value / schema["multipleOf"])):
        return False
    return True


def merged_minimum(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    """The schema of values that meet both ``{"minimum": ...}`` schemas."""
    if BUGGY:
        return {"minimum": min(a["minimum"], b["minimum"])}  # planted: the looser bound
    return {"minimum": max(a["minimum"], b["minimum"])}
