"""How far the randomised tests go: ``make test`` runs them at the quick depth, to keep
within its two minutes on a fresh two-core clone; ``make deep`` (the environment's
``TEST_DEPTH=deep``), which CI runs after ``make test``, at the full one."""

import os

DEEP = os.environ.get("TEST_DEPTH") == "deep"


def count(quick, deep):
    """``deep`` under ``make deep``, ``quick`` otherwise."""
    return deep if DEEP else quick
