"""The Synthia paper's flagship composition: a realistic Apache access log.

* The site map is a Barabási–Albert graph (a few hub pages, many leaves), turned into a
  Markov chain of page visits by MarkovReader: from each page, every link is equally likely.
* Each visitor has an IP address made by a StringPattern over a regional Choice (most
  visitors come from a few network prefixes), Freeze'd so that a visitor keeps one address,
  walks its own copy of the site's Markov chain for a Bound'ed number of pages, and gets a
  status code and a response size per request.
* All visitors read one shared Tick clock, so timestamps increase across the whole log
  (declared to Knit as ``shared``, so that resetting the log rewinds the clock too).
* Knit interleaves the visitors: new visitors arrive while others are still browsing, and a
  visitor whose visit ends is retired.

Everything is derived from one seed: running it again prints the same log.
"""
from __future__ import annotations

import datetime

import synthia as sy

WORDS = ["products", "blog", "about", "cart", "search", "help", "news", "jobs", "docs", "team"]
START = datetime.datetime(2026, 11, 23, 8, 0, 0)


def site_map(seed: int) -> sy.Picker:
    """The pages: a scale-free graph whose node 0 is the home page."""
    graph = sy.BarabasiAlbert(size=25, m=1).set_seed(seed).pick()
    paths = {n: "/" if n == 0 else f"/{WORDS[n % len(WORDS)]}/{n}" for n in graph.nodes}
    return sy.MarkovReader(graph, picker_for=lambda n: paths[n], start=0)


def log_lines(seed: int = 2026) -> sy.Picker:
    pages = site_map(seed)
    clock = sy.Tick(0, sy.RandomInteger(1, 20).set_seed(seed))  # seconds, shared by every visitor
    region = sy.Choice("132.203", "24.37", "81.56", "203.0", weights=[5, 3, 2, 1])

    def visitor(visitor_seed: int) -> sy.Picker:
        # Everything private to this visitor is seeded here; the clock stays shared.
        own = sy.ArrayPicker(
            sy.Freeze(sy.StringPattern("{0}.{1}.{2}", region.duplicate(), sy.RandomInteger(0, 256), sy.RandomInteger(1, 255))),
            pages.duplicate(),
            sy.Choice(200, 200, 200, 304, 404),
            sy.RandomInteger(200, 50_000),
        ).set_seed(visitor_seed)
        line = sy.Apply(
            lambda t, fields: (
                f'{fields[0]} - - [{(START + datetime.timedelta(seconds=t)).strftime("%d/%b/%Y:%H:%M:%S +0000")}] '
                f'"GET {fields[1]} HTTP/1.1" {fields[2]} {fields[3] if fields[2] != 304 else 0}'
            ),
            clock,
            own,
        )
        return sy.Bound(line, sy.RandomInteger(2, 7).set_seed(visitor_seed + 1))

    visitors = sy.Apply(visitor, sy.RandomInteger(0, 2**62))
    return sy.Knit(visitors, spawn=sy.RandomBoolean(0.25), seed_instances=False, shared=[clock]).set_seed(seed)


def main() -> None:
    log = log_lines()
    lines = log.take(25)
    for line in lines:
        print(line)
    log.reset()
    assert log.take(25) == lines  # the whole log replays, shared clock included


if __name__ == "__main__":
    main()
