"""A clock script played in the page (``index.html#script=...``), as ``python -m sim run``.

``play(text)`` runs the script's bytes through the runner of the simulator
(``sim.runner.run_script``) under the name ``SCRIPT_NAME`` and returns its
exit status and every line it printed, the last being the final state line
the simulator prints: the page writes it into ``<pre id="state">``.
"""

from sim import runner

SCRIPT_NAME = "script"


def play(text):
    """(exit status, printed lines) of the clock script ``text`` (str or bytes)."""
    if isinstance(text, str):
        text = text.encode()
    lines = []
    status = runner.run_script(SCRIPT_NAME, text, lines.append)
    return status, lines


def play_hex(hex_text):
    """``play`` of the script whose bytes are ``hex_text`` (the page percent-decodes the
    fragment to bytes, which need not be UTF-8: the runner refuses them as the
    simulator does); JSON: [exit status, lines]."""
    import binascii
    import json

    status, lines = play(binascii.unhexlify(hex_text))
    return json.dumps([status, lines])
