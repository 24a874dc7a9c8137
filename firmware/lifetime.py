"""Letting go of the modules that only one part of the clock's life uses.

``firmware/boot/`` holds what only boot uses, ``firmware/menu/`` what only
the setup menus use; each folder is loaded when its part begins and let go
when it ends (by ``hal.boot`` once the game is back, by
``firmware.menu_gate`` when a game starts), for a garbage collection to
reclaim. A single module used for a while (the time-control parser, the
boot messages, the hall file) is let go the same way. A folder's package
module is empty, so its attributes are the folder's loaded modules.
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
