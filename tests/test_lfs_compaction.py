"""littlefs's compaction of its metadata as the Pico's model times it (sim/latency.py),
checked against the real littlefs (littlefs-python, sim/littlefs_flash.py) and the port.

A commit that does not fit in what is left of the metadata block compacts the pair:
the other block erased, every live entry programmed again (each file's name, its
struct: its data inline or its CTZ list's head, its attributes), the tags and CRCs,
padded to the program size. What is live is what the files are then, so the bytes a
compaction programs, and so when the next one falls, follow the files on the flash.
The model is fed the same file operations as the real littlefs, through the
simulated flash (sim/flash.py), and must compact at the same operation with the same
bytes: its erases of the metadata pair are littlefs's erases of blocks 0 and 1.
"""

import pytest

from boards import pico
from boards.chips import rp2040
from sim import flash as sim_flash
from sim.latency import ChipLatency
from sim.littlefs_flash import LittleFsFlash

# The port's compactions (boards/chips/rp2040.py, measured on the image under rp2040js):
# one program of 512 bytes at the boot, 768 after a game's setup in the menu.
PORT_BOOT_BYTES = 512
PORT_AFTER_MENU_BYTES = 768


def _operations(settings_bytes, ring_blocks):
    """A board's file operations: the JSON files replaced whole (hal.storage: written
    under ``.new``, renamed), then the ring's file grown a 4 KiB block at a time."""
    yield "replace", "settings.json", 224
    yield "replace", "game.json", 147
    yield "replace", "game.j0", 0
    yield "replace", "game.j1", 68
    for block in range(ring_blocks):
        yield "append", "game.jr", 4096
        if block == 20:
            yield "replace", "settings.json", settings_bytes
        if block == 35:
            yield "replace", "game.json", 121


def _play(files, root, settings_bytes, ring_blocks, mark):
    for index, (kind, name, size) in enumerate(_operations(settings_bytes, ring_blocks)):
        mark(index)
        path = root + "/" + name
        if kind == "replace":
            with files.open(path + ".new", "wb") as handle:
                handle.write(bytes(size))
            files.rename(path + ".new", path)
        else:
            with files.open(path, "ab") as handle:
                handle.write(b"\x5a" * size)
    mark(None)


def _real_compactions(settings_bytes, ring_blocks):
    """(operation, bytes programmed into the pair's block erased) of each compaction of
    the root metadata pair by the real littlefs, mounted as the rp2 port mounts it."""
    files = LittleFsFlash("rp2", root="/flash")
    log = []
    files.nor.log = log
    starts = []
    _play(files, "/flash", settings_bytes, ring_blocks, lambda index: starts.append(len(log)))
    found = []
    for index, (start, end) in enumerate(zip(starts, starts[1:], strict=False)):
        done = log[start:end]
        for at, step in enumerate(done):
            if step[0] == "erase" and step[1] in (0, 1):
                programmed = [len(p[3]) for p in done[at + 1 :] if p[:2] == ("program", step[1])]
                found.append((index, programmed[0]))
    return found


def _model_compactions(tmp_path, settings_bytes, ring_blocks, attributes=False):
    """The same for the model on the simulated flash (littlefs-python stores no
    attributes: the model without MicroPython's)."""
    files = sim_flash.Flash(200, str(tmp_path))
    model = ChipLatency(pico, "typical", attributes=attributes)
    files.latency = model
    model.mounted(files.file_sizes())
    model.live_files = files.live_files
    current = [0]
    found = []
    compacted = model.compacted_bytes

    def logged():
        found.append((current[0], compacted()))
        return found[-1][1]

    model.compacted_bytes = logged

    def mark(index):
        current[0] = index

    _play(files, str(tmp_path), settings_bytes, ring_blocks, mark)
    sim_flash.forget(str(tmp_path))
    return found


@pytest.mark.parametrize("settings_bytes", [110, 140, 141, 142, 143, 144, 300])
def test_the_model_compacts_where_and_as_the_real_littlefs_does(tmp_path, settings_bytes):
    """60 ring blocks, the settings replaced after 21 with ``settings_bytes`` (inline up
    to 512): the live metadata then is 370 bytes and the settings', so 141 and 142 bytes
    take it to 511 and 512 (two pages), 143 to 513 (three: the boundary just past),
    and 300, still inline, further."""
    real = _real_compactions(settings_bytes, 60)
    assert len(real) >= 4
    assert _model_compactions(tmp_path, settings_bytes, 60) == real


def test_a_compaction_programs_what_is_live_not_a_constant(tmp_path):
    """After the ring and the JSON files the real littlefs programs 768 bytes at a
    compaction; once the settings shrink, 512: the same model gives both."""
    sizes = {size for _index, size in _real_compactions(110, 60)}
    assert sizes == {512, 768}
    assert {size for _index, size in _model_compactions(tmp_path, 110, 60)} == sizes


def test_the_ports_files_compact_as_the_port_does(tmp_path):
    """With MicroPython's mtime on each file, the files the port holds at the boot of the
    scripts (the ring, the settings and the header of a game before, the two slots)
    compact in 512 bytes, and after the menu's new settings and header in 768, as the
    image does on rp2040js."""
    model = ChipLatency(pico, "typical")
    assert model.file_attr_bytes == rp2040.LFS_FILE_ATTR_BYTES == 12
    boot = [
        ("game.jr", 32724, True),
        ("game.json", 121, False),
        ("settings.json", 110, False),
        ("game.j1", 0, False),
        ("game.j0", 0, False),
    ]
    model.live_files = lambda: boot
    assert model.compacted_bytes() == PORT_BOOT_BYTES
    after_menu = [
        ("game.jr", 32724, True),
        ("game.json", 147, False),
        ("settings.json", 224, False),
    ]
    model.live_files = lambda: after_menu + boot[3:]
    assert model.compacted_bytes() == PORT_AFTER_MENU_BYTES
