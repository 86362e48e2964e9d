"""Chapter 11: pickers from types -- a dataclass, a pydantic model, a failure shrunk and explained --
and bundles: the results of a Monkey's actions used by later actions."""
from __future__ import annotations

import dataclasses
from typing import Any, Optional

import synthia as sy

from . import Tour

TITLE = "11. Types and bundles: pickers from dataclasses and pydantic models, results used by later actions"


@dataclasses.dataclass(frozen=True)
class Line:
    sku: str
    quantity: int = 1


@dataclasses.dataclass(frozen=True)
class Order:
    id: int
    lines: list[Line]
    coupon: Optional[str] = None


def stock_after(order: Order, stock: int = 100) -> int:
    """What is left in stock after an order: the planted bug forgets that a quantity may be negative."""
    return stock - sum(line.quantity for line in order.lines)


class Inventory:
    """A store of products whose add() makes the product's id; removing a product twice
    is refused -- but the planted bug reuses the id of a removed product."""

    def __init__(self) -> None:
        self.products: dict[int, str] = {}

    def add(self, name: str) -> int:
        new_id = len(self.products)  # planted: after a removal this id may be taken
        self.products[new_id] = name
        return new_id

    def remove(self, product: int) -> None:
        del self.products[product]

    def name(self, product: int) -> str:
        return self.products[product]


class InventoryModel:
    def __init__(self) -> None:
        self.products: dict[int, str] = {}
        self.next_id = 0

    def add(self, name: str) -> int:
        self.products[self.next_id] = name
        self.next_id += 1
        return self.next_id - 1

    def remove(self, product: int) -> None:
        del self.products[product]

    def name(self, product: int) -> str:
        return self.products[product]


def _bundles(tour: Tour) -> None:
    tour.say(
        """
        Bundles carry the results of a Monkey's actions to later actions, as Hypothesis's
        Bundle does: add() returns an id, target=products keeps it, and remove() and name()
        draw one of the ids kept (consumes() takes it out). The failing trace is shrunk and
        printed as a program in which each kept value is a variable.
        """
    )
    tour.code(
        """
        products = sy.Bundle("products")
        actions = [sy.Action("add", name=sy.Choice("tea", "jam"), target=products),
                   sy.Action("remove", product=sy.consumes(products)), sy.Action("name", product=products)]
        report = sy.Monkey(Inventory, actions, model=InventoryModel).run(seed=2)
        """
    )
    products = sy.Bundle("products")
    actions = [
        sy.Action("add", name=sy.Choice("tea", "jam"), target=products),
        sy.Action("remove", product=sy.consumes(products)),
        sy.Action("name", product=products),
    ]
    report = sy.Monkey(Inventory, actions, model=InventoryModel).run(seed=2)
    tour.show("failure", report.failure)
    print(report.program, file=tour.stream)


def _account_model() -> Any:
    from pydantic import BaseModel, Field

    class Account(BaseModel):
        owner: str = Field(min_length=1, max_length=12)
        zip_code: str = Field(pattern=r"^\d{5}$")
        balance: int = Field(ge=0, le=10_000)
        rate: float = Field(ge=0, le=1, multiple_of=0.25)

    return Account


def interest_fits(account: Any) -> bool:
    """The planted bug: interest is stored in a field that holds at most 1,999."""
    return account.balance * account.rate < 2000


def _sizes(tour: Tour) -> None:
    tour.say(
        """
        A list, a text or a dict whose size the type leaves open is sized by sy.AnySize(), as
        Hypothesis sizes its collections (the codemod writes it for st.lists(x) too): a mean
        of 5 items, but a list of 20 one time in 40. A bug that needs 17 items -- a buffer of
        16 slots that drops its oldest item -- is found, and shrinks to 17 zeros
        (examples/collection_sizes.py); sizes up to 10 never find it.
        """
    )
    tour.code("sy.AnySize().set_seed(1).take(12)")
    tour.show("sizes", sy.AnySize().set_seed(1).take(12))

    def keeps_everything(items: list[int]) -> bool:
        kept: list[int] = []
        for item in items:
            kept = (kept + [item])[-16:]  # the planted bug: 16 slots, the oldest dropped
        return kept == items

    tour.code("report = sy.Assert(keeps_everything, items=sy.from_type(list[int])).run(seed=3)")
    report = sy.Assert(keeps_everything, items=sy.from_type(list[int])).run(seed=3)
    tour.show("smallest", report.smallest)


def run(tour: Tour) -> None:
    tour.say(
        """
        sy.from_type reads a type and wires the catalog's pickers into a picker of its values:
        a dataclass becomes a Struct of one picker per field (a field with a default takes it
        half of the time, first, so a failure shrinks towards it), a list a ComposeList, an
        Optional a Choice with None first. It is an ordinary wiring: its repr shows it, every
        value shrinks through its draws, and any part can be replaced with sy.builds.
        """
    )
    tour.code("orders = sy.from_type(Order)")
    orders = sy.from_type(Order)
    tour.values(orders, n=2, seed=3)

    tour.say(
        """
        A stock that must never grow after an order: the smallest failing order has one line
        whose quantity is -1, and every other field at its simplest -- the id 0, an empty
        sku, no coupon.
        """
    )
    tour.code("report = sy.Assert(lambda order: stock_after(order) <= 100, order=sy.from_type(Order)).run(seed=1)")
    report = sy.Assert(lambda order: stock_after(order) <= 100, order=sy.from_type(Order)).run(seed=1)
    tour.show("smallest", report.smallest)
    _sizes(tour)
    _bundles(tour)

    try:
        account_model = _account_model()
    except ImportError:
        tour.say("pydantic is not installed (pip install pydantic): the rest of this chapter shows a pydantic model.")
        return
    tour.say(
        """
        A pydantic v2 model's fields carry their constraints (bounds, multiple_of, lengths, a
        pattern): the picker builds values that meet them -- a multiple of 0.25 is k * 0.25 for
        a drawn k, a pattern a RegexString -- so every value validates.
        """
    )
    tour.code(
        """
        class Account(BaseModel):
            owner: str = Field(min_length=1, max_length=12)
            zip_code: str = Field(pattern=r"^\\d{5}$")
            balance: int = Field(ge=0, le=10_000)
            rate: float = Field(ge=0, le=1, multiple_of=0.25)
        """
    )
    tour.values(sy.from_type(account_model), n=2, seed=1)
    tour.say(
        """
        A failure is shrunk field by field, and its explanation names each field, says which
        draws matter to the failure and which are free: here the balance and the rate matter,
        the owner and the zip code do not.
        """
    )
    tour.code("report = sy.Assert(interest_fits, account=sy.from_type(Account)).run(seed=4); print(report.explain())")
    report = sy.Assert(interest_fits, account=sy.from_type(account_model)).run(seed=4)
    tour.show("smallest", report.smallest)
    print(report.explain(), file=tour.stream)
