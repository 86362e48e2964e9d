"""Sentences and arithmetic expressions from BNF grammars.

GrammarSentence derives random sentences from a small English grammar (the Synthia
paper's "The funny old grey fox plays with ..."); GrammarSequence derives token lists of
arithmetic expressions, each remembering its derivation tree. Shrinking an expression
gives smaller expressions that the grammar still accepts: here we look for the smallest
expression whose value is above 100, and the result is always a valid expression.
"""
from __future__ import annotations

import synthia as sy

ENGLISH = """
<sentence> := <np> <vp> ;
<np> := the <noun> | the <adjective> <noun> | the <adjective> <adjective> <noun> ;
<vp> := <verb> | <verb> with <np> | <verb> near <np> ;
<adjective> := funny | old | grey | quick | sleepy ;
<noun> := fox | dog | cat | owl ;
<verb> := plays | sleeps | runs | talks ;
"""

ARITHMETIC = """
<expr> := <term> | <expr> + <term> | <expr> - <term> ;
<term> := <factor> | <term> * <factor> ;
<factor> := <number> | ( <expr> ) ;
<number> := ^[1-9][0-9]?$ ;
"""


def main() -> None:
    english = sy.GrammarSentence(ENGLISH).set_seed(3)
    for sentence in english.take(5):
        print(sentence.capitalize() + ".")
    expressions = sy.GrammarSequence(ARITHMETIC, max_depth=7).set_seed(5)
    for tokens in expressions.take(4):
        print(" ".join(tokens), "=", eval(" ".join(tokens)))
    report = sy.Assert(lambda e: eval(" ".join(e)) <= 100, sy.RunOptions(name="expressions_stay_small"), e=expressions).run(seed=5)
    print("smallest expression above 100:", " ".join(report.smallest["e"]), "=", eval(" ".join(report.smallest["e"])))


if __name__ == "__main__":
    main()
