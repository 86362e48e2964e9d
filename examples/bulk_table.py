"""Bulk realistic data: people, their orders and the web log of their visits, as tables.

* People come from Faker (names, e-mails, cities) through ``sy.Faker``: every field is its
  own seeded picker, so adding a column never changes the others.
* Orders reference people by id, and have dates, decimals and a few lines each.
* The log interleaves visitors with ``Knit``: new visitors arrive while others are still
  browsing, each visitor keeps its address and walks pages until its visit ends.

Everything derives from one seed. The tables are written as CSV and Parquet in chunks
(``SYNTHIA_ROWS`` sets the number of people; 2,000 by default), and the same people come
out of Dask, identical for any number of partitions.
"""
from __future__ import annotations

import datetime as dt
import os
import pathlib
import tempfile

import synthia as sy

ROWS = int(os.environ.get("SYNTHIA_ROWS", "2000"))


def people() -> sy.Struct:
    return sy.Struct(
        dict,
        id=sy.Tick(1),
        name=sy.Faker("name"),
        email=sy.Faker("email"),
        city=sy.Faker("city"),
        born=sy.RandomDate(dt.date(1940, 1, 1), dt.date(2007, 1, 1)),
        signed_up=sy.RandomDatetime(dt.datetime(2020, 1, 1), dt.datetime(2026, 1, 1), timezones=["UTC"]),
    )


def orders(customers: int) -> sy.Struct:
    line = sy.Struct(dict, sku=sy.StringPattern("SKU-{0:05d}", sy.RandomInteger(0, 10**5)), quantity=sy.RandomInteger(1, 5))
    return sy.Struct(
        dict,
        order_id=sy.RandomUUID(),
        customer=sy.RandomInteger(1, customers + 1),
        day=sy.RandomDate(dt.date(2025, 1, 1), dt.date(2026, 1, 1)),
        total=sy.RandomDecimal("1", "900", places=2),
        lines=sy.ComposeList(line, sy.RandomInteger(1, 4)),
    )


def log_lines() -> sy.Picker:
    clock = sy.Tick(0, sy.RandomInteger(1, 30))
    page = sy.Choice("/", "/search", "/item", "/cart", "/checkout", weights=[4, 3, 3, 1, 1])

    def visitor(seed: int) -> sy.Picker:
        own = sy.ArrayPicker(sy.Freeze(sy.Faker("ipv4_public")), page.duplicate(), sy.Choice(200, 200, 200, 404)).set_seed(seed)
        line = sy.Apply(lambda t, f: f"{f[0]} [{dt.datetime(2026, 1, 1) + dt.timedelta(seconds=t):%H:%M:%S}] GET {f[1]} {f[2]}", clock, own)
        return sy.Bound(line, sy.RandomInteger(1, 6).set_seed(seed + 1))

    return sy.Knit(sy.Apply(visitor, sy.RandomInteger(0, 2**62)), spawn=sy.RandomBoolean(0.3), seed_instances=False, shared=[clock])


def main() -> None:
    out = pathlib.Path(tempfile.mkdtemp(prefix="synthia-bulk-"))
    print("people:", sy.to_csv(people().set_seed(1), ROWS, out / "people.csv", chunk_size=500), "rows ->", out / "people.csv")
    print("orders:", sy.to_parquet(orders(ROWS).set_seed(2), 3 * ROWS, out / "orders.parquet", chunk_size=1000), "rows ->", out / "orders.parquet")
    frame = sy.to_dataframe(people().set_seed(1), 5)
    print(frame[["id", "name", "city", "born"]].to_string(index=False))
    for text in log_lines().set_seed(3).take(6):
        print(" ", text)
    a = sy.to_dask_dataframe(people(), 1000, seed=4, block_size=100, npartitions=2).compute(scheduler="sync")
    b = sy.to_dask_dataframe(people(), 1000, seed=4, block_size=100, npartitions=7).compute(scheduler="sync")
    print("Dask, 2 or 7 partitions, same rows:", a.equals(b))


if __name__ == "__main__":
    main()
