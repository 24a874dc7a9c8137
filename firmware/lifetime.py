"""Letting go of a module: dropped from ``sys.modules`` and its package.

Every board's heap budget holds the clock with its modules loaded
(docs/architecture.md, "What the heap pays for"), so nothing else lets go;
the journal store's setup (``hal.journal_store``) still does, until that
module's rewrite drops it, and this module with it.
"""

import sys

_MODULE = type(sys)


def let_go(parent, name):
    """Drop ``parent.<name>`` (a module, or a folder with every module of it that is
    loaded) from ``sys.modules`` and from ``parent``, so that nothing holds them any
    more. Allocates nothing; a name that is not loaded is no error."""
    module = getattr(parent, name, None)
    if module is None:
        return
    modules = sys.modules
    if hasattr(module, "__path__"):  # a folder: its modules first
        inner = module.__dict__
        for key in inner:
            value = inner[key]
            if type(value) is _MODULE and value.__name__ in modules:
                del modules[value.__name__]
    if module.__name__ in modules:
        del modules[module.__name__]
    delattr(parent, name)
