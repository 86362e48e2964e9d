"""The migration corpus: Hypothesis tests modelled on patterns of real projects
(``corpus/``), the code they test with a planted bug each (``subjects/``), and the hand edits
kept for the places the codemod marks (``expected/``). ``tests/test_migration_corpus.py``
runs them."""
