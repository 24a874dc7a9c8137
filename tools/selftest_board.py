"""The self-test's entry on the board: play the clock scripts there and print their lines.

``make selftest`` copies the firmware, the runner's modules (``sim/`` less its
host-only parts) and ``tests/scenarios/**/*.clock`` to the board, then runs this
file with ``mpremote run``. It plays every script with the project's runner,
on the board's own MicroPython and chip (its integers, its ``.mpy`` loader,
its heap), against the simulated pins, timer and displays in virtual time,
and prints the same lines as ``python -m sim run``, then ``SUMMARY``.

The runner's files go to ``/tmp``: a RAM disk is mounted there if the port
has littlefs and the heap can spare ``RAM_DISK_BLOCKS`` blocks, so the
scripts' settings and journal writes do not wear the flash. Where ``time``
is a built-in module whose functions cannot be replaced (on the boards),
a copy whose ``ticks_*`` can is put in its place, for the virtual time.

The same file runs inside the MicroPython WebAssembly lane:
``node tools/mpy/run.mjs tools.selftest_board tools/selftest_board.py FILE...``.
"""

import gc
import os
import sys

ROOT = "/selftest"  # where tools/selftest.py puts the runner and the scripts
SCRIPTS = "tests/scenarios"
LIST_FILE = "scripts.txt"  # written by tools/selftest.py: the scripts to play
SUMMARY = "selftest:"
RAM_DISK_BLOCKS = 48
_BLOCK = 512


class RamDisk:
    """A block device in RAM: the readblocks/writeblocks/ioctl protocol of ``os.mount``."""

    def __init__(self, blocks, block_size=_BLOCK):
        self.block_size = block_size
        self.data = bytearray(blocks * block_size)

    def readblocks(self, number, buffer, offset=0):
        start = number * self.block_size + offset
        buffer[:] = self.data[start : start + len(buffer)]

    def writeblocks(self, number, buffer, offset=0):
        start = number * self.block_size + offset
        self.data[start : start + len(buffer)] = buffer

    def ioctl(self, operation, argument):
        if operation == 4:  # block count
            return len(self.data) // self.block_size
        if operation == 5:  # block size
            return self.block_size
        if operation == 6:  # erase a block: nothing to do in RAM
            return 0
        return None


def mount_ram_tmp():
    """Mount a RAM disk at /tmp; a sentence saying where the runner's files go."""
    filesystem = getattr(os, "VfsLfs2", None)
    if filesystem is None or not hasattr(os, "mount"):
        return "files in /tmp on the board's own filesystem (no littlefs here)"
    try:
        disk = RamDisk(RAM_DISK_BLOCKS)
        filesystem.mkfs(disk)
        os.mount(filesystem(disk), "/tmp")
    except (MemoryError, OSError) as error:
        return "files in /tmp on the board's own filesystem (RAM disk: %r)" % (error,)
    return "files in a %d KiB RAM disk at /tmp" % (RAM_DISK_BLOCKS * _BLOCK // 1024)


def script_paths(arguments):
    """The scripts named in ``arguments``, else those listed in ``LIST_FILE``, else
    every ``*.clock`` under ``SCRIPTS``, sorted."""
    named = [path for path in arguments if path.endswith(".clock")]
    if named:
        return named
    try:
        with open(LIST_FILE) as handle:
            return [line.strip() for line in handle if line.strip()]
    except OSError:
        pass
    return sorted(clock_files(SCRIPTS))


def clock_files(folder):
    """Every ``.clock`` file under ``folder`` and its topic folders."""
    found = []
    for name in os.listdir(folder):
        path = folder + "/" + name
        if name.endswith(".clock"):
            found.append(path)
        elif os.stat(path)[0] & 0x4000:  # a folder
            found.extend(clock_files(path))
    return found


def run(paths, out=print):
    """Play ``paths`` one by one; return the worst exit status (docs/spec/scripts.md)."""
    from sim.runner import run_files

    worst = 0
    for path in paths:
        status = run_files([path], out)
        if status > worst:
            worst = status
        gc.collect()
    return worst


def main(arguments):
    """``arguments``: script paths (or none: all of them); ``--ram-tmp`` mounts the RAM
    disk (done on a board)."""
    where = mount_ram_tmp() if "--ram-tmp" in arguments else "files in /tmp"
    paths = script_paths(arguments)
    print("%s %d scripts on %s, %s" % (SUMMARY[:-1], len(paths), sys.platform, where))
    status = run(paths)
    gc.collect()
    print(
        "%s status %d, %d scripts, heap in use %d, free %d"
        % (SUMMARY, status, len(paths), gc.mem_alloc(), gc.mem_free())
    )
    return status


if __name__ == "__main__":  # mpremote run: on the board
    os.chdir(ROOT)
    sys.path.insert(0, ROOT)
    if "/" not in sys.path:
        sys.path.append("/")  # the deployed firmware, hal and boards
    main(["--ram-tmp"])
