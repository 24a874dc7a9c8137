"""Board definitions as data: pins, buses, addresses and polarity per board."""


def _is_name(name):
    """Letters, digits and underscores, starting with a letter (no str.isalnum on the board)."""
    if not isinstance(name, str) or not name or not name[0].isalpha():
        return False
    for char in name:
        if not (char.isalpha() or char.isdigit() or char == "_"):
            return False
    return True


def load(name):
    """The board module ``boards.<name>``; ValueError if there is none."""
    if not _is_name(name):
        raise ValueError("board name %r is not a name" % (name,))
    try:
        module = __import__("boards." + name, None, None, ("NAME",))
    except ImportError:
        raise ValueError("no board definition boards/%s.py" % name)
    return module


def input_pull(board):
    """The levers' and keys' pull, ``"up"``, ``"down"`` or ``"none"``: the board's
    ``INPUT_PULL``, else the one that holds an open contact at its idle level (up for
    contacts that close to ground, ``ACTIVE_LOW``)."""
    pull = getattr(board, "INPUT_PULL", None)
    if pull is None:
        return "up" if getattr(board, "ACTIVE_LOW", True) else "down"
    return pull
