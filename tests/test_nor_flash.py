"""The NOR flash model (sim/nor_flash.py) and the real littlefs over it (sim/littlefs_flash.py).

Checked against what a NOR chip does (a datasheet's erase and page program:
an erase sets a block to 0xFF, a program can only clear bits) and against
littlefs's own promise (a file's new version is in force whole or not at
all), never against the model's own output.
"""

import pytest

from hal.storage import Storage
from sim.flash import PowerCut, pointer_bytes
from sim.littlefs_flash import LittleFsFlash, lfs_config
from sim.nor_flash import GEOMETRIES, BlockDevice, NorFlash


def test_an_erase_sets_every_byte_of_its_block_and_no_other_to_0xff():
    flash = NorFlash(3, 4096, 256)
    flash.data[:] = b"\x00" * len(flash.data)
    flash.erase(1)
    assert flash.read(0, 4095, 1) == b"\x00"
    assert flash.read(1, 0, 4096) == b"\xff" * 4096
    assert flash.read(2, 0, 1) == b"\x00"
    assert flash.erases == 1


def test_a_program_only_clears_bits_over_programmed_bytes():
    flash = NorFlash(1, 4096, 256)
    flash.program(0, 10, b"\x0f\xf0")
    flash.program(0, 10, b"\x3c\x3c")  # no error: the chip ANDs
    assert flash.read(0, 10, 2) == bytes([0x0F & 0x3C, 0xF0 & 0x3C])
    assert flash.programs == 2 and flash.bytes_programmed == 4


def test_a_cut_at_byte_k_of_a_program_leaves_its_first_k_bytes():
    data = bytes(range(1, 101))
    for k in (0, 1, 50, 99):
        flash = NorFlash(1, 4096, 256)
        flash.cut_after(k)
        with pytest.raises(PowerCut):
            flash.program(0, 0, data)
        assert flash.read(0, 0, 100) == data[:k] + b"\xff" * (100 - k)
        assert not flash.powered
        with pytest.raises(OSError):
            flash.program(0, 200, b"\x00")  # no write after the cut


def test_a_cut_armed_at_the_program_s_length_lets_it_end_whole():
    """The limit: ``cut_after(len)`` passes the whole program; the next point is cut."""
    flash = NorFlash(2, 4096, 256)
    flash.cut_after(100)
    flash.program(0, 0, b"\x00" * 100)
    assert flash.powered and flash.read(0, 0, 100) == b"\x00" * 100
    with pytest.raises(PowerCut):
        flash.erase(1)  # the 101st point: the erase


def test_a_cut_erase_leaves_its_block_undefined_the_same_for_the_same_seed():
    images = []
    for seed in (7, 7, 8):
        flash = NorFlash(2, 4096, 256, seed=seed)
        flash.data[:] = b"\x00" * len(flash.data)
        flash.cut_after(0)
        with pytest.raises(PowerCut):
            flash.erase(1)
        block = flash.read(1, 0, 4096)
        assert block != b"\xff" * 4096 and block != b"\x00" * 4096  # neither old nor erased
        assert flash.read(0, 0, 4096) == b"\x00" * 4096  # another block untouched
        images.append(block)
    assert images[0] == images[1] and images[0] != images[2]


def test_the_rp2_device_programs_whole_pages_at_an_offset_the_esp32_any_bytes():
    rp2 = BlockDevice(NorFlash(2, 4096, 256), whole_pages=True)
    with pytest.raises(ValueError):
        rp2.writeblocks(0, bytearray(68), 256)
    rp2.writeblocks(0, bytearray(b"\xff" * 255 + b"\x00"), 256)
    esp32 = BlockDevice(NorFlash(2, 4096, 32), whole_pages=False)
    esp32.writeblocks(0, bytearray(b"\x12" * 68), 68)
    buf = bytearray(70)
    esp32.readblocks(0, buf, 67)
    assert buf == bytearray(b"\xff" + b"\x12" * 68 + b"\xff")


def test_littlefs_is_mounted_as_micropython_mounts_it():
    """extmod/vfs_lfsx.c: cache = min(block, 4 x max(read, prog)), lookahead 32, cycles 100;
    the rp2 mounts with progsize=256, the esp32 with VfsLfs2's default 32."""
    rp2 = lfs_config(NorFlash(352, 4096, 256))
    assert (rp2["prog_size"], rp2["cache_size"], rp2["block_size"]) == (256, 1024, 4096)
    esp32 = lfs_config(NorFlash(240, 4096, 32))
    assert (esp32["prog_size"], esp32["cache_size"], esp32["read_size"]) == (32, 128, 32)
    assert esp32["lookahead_size"] == 32 and esp32["block_cycles"] == 100


@pytest.mark.parametrize("port", ["rp2", "esp32"])
def test_a_document_cut_at_every_point_of_its_write_on_littlefs_is_old_or_new(port):
    """hal.storage's write (a new file, then a rename) on the real littlefs, cut at every
    byte programmed and every erase: the file reads back whole, old or new."""
    old, new = b'{"a": 1}', b'{"a": 2, "padding": "' + b"x" * 300 + b'"}'
    base = LittleFsFlash(port, root="/flash")
    Storage("/flash", base).write_bytes("settings.json", old)
    image = bytes(base.nor.data)
    point = 0
    seen = set()
    while True:
        flash = NorFlash(len(image) // 4096, 4096, GEOMETRIES[port][1])
        flash.data[:] = image
        files = LittleFsFlash(port, root="/flash", flash=flash)
        files.cut_after(point)
        try:
            Storage("/flash", files).write_bytes("settings.json", new)
            cut = False
        except PowerCut:
            cut = True
            files.power_on()
        back = files.read_file("/flash/settings.json")
        assert back in (old, new), (point, back)
        assert files.formats == 0
        seen.add(back)
        if not cut:
            break
        point += 1
    assert seen == {old, new} and point > 300  # every byte of the data at least


def test_append_creates_a_missing_file_as_micropython_s_vfslfs2_does():
    """extmod/vfs_lfsx_file.c opens "a" with LFS_O_CREAT: the event log's first line
    creates it (littlefs-python's own open would refuse it: no such file)."""
    files = LittleFsFlash("esp32", root="/flash")
    storage = Storage("/flash", files)
    storage.append_line("events.log", "one")
    storage.append_line("events.log", "two")
    assert files.read_file("/flash/events.log") == b"one\ntwo\n"
    with files.open("/flash/events.log", "r+b") as handle:
        handle.seek(0)
        handle.write(b"ONE")
    assert files.read_file("/flash/events.log") == b"ONE\ntwo\n"
    with files.open("/flash/events.log", "wb") as handle:
        handle.write(b"x")
    assert files.read_file("/flash/events.log") == b"x"


@pytest.mark.parametrize("port", sorted(GEOMETRIES))
def test_littlefs_lays_a_file_out_as_the_ring_assumes(port):
    """The ring's assumptions, checked against littlefs itself: a file's block n > 0
    opens with ctz(n) + 1 skip-list words (sim.flash.pointer_bytes), the first naming
    the device block of n - 1 and word k that of n - 2**k; and a file not written
    again keeps its data blocks where they are while other files are rewritten."""
    files = LittleFsFlash(port, root="/flash")
    count = 9
    with files.open("/flash/ring", "wb") as handle:
        for index in range(count):
            room = 4096 - pointer_bytes(index)
            handle.write(b"MARK" + index.to_bytes(4, "little") + b"\xff" * (room - 8))

    def where():
        found = {}
        for block in range(files.nor.count):
            data = files.nor.read(block, 0, 64)
            for index in range(count):
                at = pointer_bytes(index)
                if data[at : at + 8] == b"MARK" + index.to_bytes(4, "little"):
                    found[index] = block
        return found

    blocks = where()
    assert sorted(blocks) == list(range(count))
    for index in range(1, count):
        data = files.nor.read(blocks[index], 0, pointer_bytes(index))
        for word in range(pointer_bytes(index) // 4):
            target = int.from_bytes(data[4 * word : 4 * word + 4], "little")
            assert target == blocks[index - (1 << word)], (index, word)
    storage = Storage("/flash", files)
    for turn in range(150):  # metadata commits, and compactions of the root directory
        storage.write_json("settings.json", {"turn": turn, "padding": "x" * 200})
    files.power_off()
    files.power_on()
    assert where() == blocks
    assert files.read_file("/flash/ring")[:8] == b"MARK\x00\x00\x00\x00"
