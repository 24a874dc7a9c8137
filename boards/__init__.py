"""Board definitions as data: pins, buses, addresses and polarity per board."""


def load(name):
    """The board module ``boards.<name>``; ValueError if there is none."""
    if not name or not name.replace("_", "").isalpha():
        raise ValueError("board name %r is not a name" % (name,))
    try:
        module = __import__("boards." + name, None, None, ("NAME",))
    except ImportError:
        raise ValueError("no board definition boards/%s.py" % name)
    return module
