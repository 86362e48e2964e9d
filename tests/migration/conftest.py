# The corpus files are run by tests/test_migration_corpus.py, in a folder of their own, not
# collected here (their translations need the names of every branch of issue 33).
collect_ignore_glob = ["corpus/*", "expected/*"]
