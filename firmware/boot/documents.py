"""The clock's files read at boot, and the error codes a file it cannot use shows.

A file that cannot be used never stops the clock: its defaults stay in force,
the file is renamed ``NAME.bad`` for inspection (the next save writes a good
one), and the display shows a code for 3 s at boot:

- ``Err1`` settings, ``Err2`` the user slots, ``Err3`` the game journal: the
  file is empty, truncated, random bytes, not the shape the clock writes, or
  holds a value the clock cannot use;
- ``vEr1``, ``vEr2``, ``vEr3``: the same file was written by a newer version
  of the firmware (its ``version`` is above ``FORMAT_VERSION``).

A missing file is no error: the defaults are what a new clock has.
"""

from micropython import const

from firmware import strict_json
from firmware.files import FORMAT_VERSION

SETTINGS = const(1)
USER_SLOTS = const(2)
JOURNAL = const(3)

BAD = "Err"
NEWER = "vEr"


def code(kind, number):
    """The 4-character display code: ``Err1``, ``vEr3``..."""
    return "%s%d" % (kind, number)


class Unusable(Exception):
    """A file the clock cannot use: ``kind`` is ``BAD`` or ``NEWER``; ``why`` says what."""

    def __init__(self, kind, why):
        super().__init__(why)
        self.kind = kind
        self.why = why


def check_version(data):
    """Raise Unusable unless ``data`` is a JSON object of this firmware's format.

    A document without ``version`` was written before versions were kept and
    counts as version 1.
    """
    if not isinstance(data, dict):
        raise Unusable(BAD, "not a JSON object")
    version = data.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise Unusable(BAD, "version %r is not a version number" % (version,))
    if version > FORMAT_VERSION:
        raise Unusable(NEWER, "written by a newer firmware (version %d)" % version)


def read(storage, name):
    """The JSON document ``name`` decoded, None if there is no such file; ValueError
    if it is not one (``firmware.strict_json``). A file holding ``null`` is there, and no
    document: Unusable, never taken for a missing file."""
    data = storage.read_bytes(name)
    if data is None:
        return None
    document = strict_json.loads(data)
    if document is None:
        raise Unusable(BAD, "not a JSON object")
    return document


def load(storage, name, apply):
    """Read ``name`` and hand the decoded object to ``apply(data)``.

    Returns None if the file is missing or was used, else the ``Unusable``
    problem, after renaming the file ``name.bad``. ``apply`` raises
    ValueError (or any other error) for content it cannot use, and must
    change nothing in that case.
    """
    try:
        data = read(storage, name)
        if data is None:
            return None
        check_version(data)
        apply(data)
        return None
    except Unusable as problem:
        failure = problem
    except Exception as error:  # never a crash: anything wrong in the file is a bad file
        failure = Unusable(BAD, "%s: %s" % (type(error).__name__, error))
    try:
        storage.set_aside(name)
    except OSError:
        pass  # the flash refuses the rename: the defaults still hold, the code still shows
    return failure
