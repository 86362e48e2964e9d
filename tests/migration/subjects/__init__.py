"""The code the corpus tests, each with a planted bug turned on by the environment variable
``SYNTHIA_PLANTED_BUGS=1`` (read once, at import)."""
import os

#: Whether the planted bugs are in.
BUGGY = os.environ.get("SYNTHIA_PLANTED_BUGS") == "1"
