"""A pydantic model and the functions a FastAPI-style service writes around it."""
from __future__ import annotations

import pydantic

from . import BUGGY


class Address(pydantic.BaseModel):
    street: str
    postcode: str = pydantic.Field(pattern=r"^[0-9]{5}$")


class User(pydantic.BaseModel):
    name: str = pydantic.Field(min_length=1, max_length=20)
    age: int = pydantic.Field(ge=0, le=150)
    email: str
    address: Address | None = None


def age_bracket(user: User) -> str:
    if BUGGY and user.age >= 140:
        raise ValueError("age out of range")  # planted: the top of the range is refused
    return "minor" if user.age < 18 else "adult" if user.age < 65 else "senior"


def export(user: User) -> dict[str, object]:
    data = user.model_dump()
    if BUGGY and user.address is not None and user.address.postcode.startswith("0"):
        data["address"]["postcode"] = data["address"]["postcode"].lstrip("0")  # planted: leading zeros lost
    return data
