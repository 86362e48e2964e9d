"""Chapter 3: behaviour over time."""
from __future__ import annotations

import networkx as nx

import synthia as sy

from . import Tour

TITLE = "3. Behaviour: Markov chains, Knit, behaviour trees, grammars, graphs"


def run(tour: Tour) -> None:
    tour.say(
        """
        A Markov chain of pickers walks states by weighted transitions; MarkovReader builds
        one from a networkx graph, here a scale-free site map from BarabasiAlbert.
        """
    )
    tour.code(
        """
        site = sy.BarabasiAlbert(size=12, m=1).set_seed(4).pick()
        visits = sy.MarkovReader(site, picker_for=lambda n: f"/page{n}", start=0)
        """
    )
    site = sy.BarabasiAlbert(size=12, m=1).set_seed(4).pick()
    tour.show("degrees", sorted((d for _, d in site.degree()), reverse=True))
    visits = sy.MarkovReader(site, picker_for=lambda n: f"/page{n}", start=0)
    tour.values(visits, 8, seed=4)

    tour.say(
        """
        Knit interleaves live instances drawn from a picker of pickers: visitors arrive,
        browse at their own pace, and leave.
        """
    )
    tour.code(
        """
        visitor = sy.Apply(lambda n: sy.Playback([f"v{n} in", f"v{n} look", f"v{n} out"], loop=False),
                           sy.Tick(1, 1))
        sy.Knit(visitor, spawn=sy.RandomBoolean(0.3))
        """
    )
    visitor = sy.Apply(lambda n: sy.Playback([f"v{n} in", f"v{n} look", f"v{n} out"], loop=False), sy.Tick(1, 1))
    knit = sy.Knit(visitor, spawn=sy.RandomBoolean(0.3))
    tour.show("seed", 3)
    tour.show("events", knit.set_seed(3).take(10))

    tour.say("Behaviour trees: Sequence runs children in order, Selector picks one by weight.")
    tour.code('sy.BehaviorTree(sy.Sequence("login", sy.Selector(sy.Sequence("browse", "buy"), "leave"), "logout"), repeat=True)')
    tree = sy.BehaviorTree(sy.Sequence("login", sy.Selector(sy.Sequence("browse", "buy"), "leave"), "logout"), repeat=True)
    tour.values(tree, 10, seed=2)

    tour.say(
        """
        Grammars: sentences from BNF text, always terminating, each remembering its
        derivation (so it shrinks to smaller valid sentences and can be explained).
        """
    )
    grammar = """
        <expr> := <num> | <expr> + <num> | ( <expr> ) ;
        <num> := ^[1-9][0-9]?$ ;
    """
    tour.code(grammar)
    expressions = sy.GrammarSentence(grammar, max_depth=6)
    tour.values(expressions, 4, seed=5)
    tour.show("random trees", [sorted(t.edges) for t in sy.TreePicker(sy.Tick(0, 1), 2, 2).set_seed(1).take(1)])
    tour.show("a tree is a networkx graph", isinstance(sy.TreePicker(sy.Tick(0, 1), 2, 2).pick(), nx.DiGraph))
