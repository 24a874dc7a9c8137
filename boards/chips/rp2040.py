"""RP2040 (Raspberry Pi Pico) with its Winbond W25Q16JV flash: what can hold back an edge.

MicroPython's rp2 port runs every flash erase and program with interrupts
off (the chip runs its code from that flash, through the XIP cache), so a
lever edge in that window is stamped when it ends. Pin interrupts are hard
(``Pin.irq(hard=True)``): nothing else delays the handler, not an I2C frame,
not a collection.
"""

# Pin handlers run in the interrupt (hard) or from the scheduler between C calls (soft).
SOFT_PIN_HANDLERS = False
# A flash erase or program turns the interrupts off for its whole length.
FLASH_MASKS_INTERRUPTS = True
# The PIO and the DMA stamp the levers and the play key without the CPU (hal/capture.py):
# a state machine runs from PIO0's own instruction memory and the DMA copies the timer (an
# APB register) into SRAM, neither through the flash, so an erase holds neither (RP2040
# datasheet 2.6.3: XIP is the only path to the flash; 3.1: PIO; 2.5: DMA). Boards name the
# state machines (CAPTURE_MACHINES); the simulated board stamps those inputs at their edges.
PIO_LEVER_CAPTURE = True
# Winbond W25Q16JV datasheet (rev. H), 9.6 "AC Electrical Characteristics":
# tSE sector erase (4 KiB) 45 ms typical, 400 ms max; tPP page program 0.7 ms typical, 3 ms max.
SECTOR_ERASE_US = (45_000, 400_000)
PAGE_PROGRAM_US = (700, 3_000)
SECTOR_BYTES = 4096
PAGE_BYTES = 256
# littlefs as the rp2 port mounts it: 4 KiB blocks, progsize=256 (ports/rp2/modules/_boot.py).
LFS_PROG_BYTES = 256
# littlefs programs a file's bytes through its cache: cache_size = min(block, 4 x
# max(read_size, prog_size)) = 1 KiB with the port's readsize 32 and progsize 256
# (MicroPython v1.27.0, extmod/vfs_lfsx.c): a ring block's 4 KiB are 4 programs of
# 1,024 bytes, 16 page programs, as the port shows (sim.flash times them so).
LFS_CACHE_BYTES = 1024
# The journal ring's preparation on the port: this image (the scan that locates the
# ring skips a block without the ring's marker in C, hal.journal_setup kept loaded from
# block to block), MicroPython v1.27.0 RPI_PICO on rp2040js at 48 MHz, the flash at the
# W25Q16JV's typical times, each flash call and each call of App.step, Sleep.wait,
# JournalStore.prepare_block, journal_setup.add_block and locate timed on the emulated
# core (the lane, `node tools/port/lane.mjs ... --seconds 3 --elf ELF`, its flash calls
# and its heap watch's counted functions logged: the boot's ring of 83 blocks, and the
# scene `--scene newGame`, a 900+10 ring of 23 blocks after a game). Measured:
#
# - a block is one step of the main loop: from the grid's tick to the loop's sleep
#   74.8 ms (median, step entry to Sleep.wait 73.9 ms at boot, 74.7 ms after a new game,
#   the step entered ~0.5 ms after its tick): 1.9 ms of the step before the block,
#   4.5 ms to the erase (the file opened for its append), the erase, 0.7 ms, four
#   programs of 1 KiB (16 pages) 1.6 ms apart, littlefs's commit (1 page), then 4.9 ms
#   of the step's end (the count drawn). The next step is the grid's next tick (hal.ticker:
#   the tick read after the step), so a block every 80 ms, 4 ticks (sim.world's chip
#   clock does the same);
# - every 15 blocks littlefs compacts its metadata pair: 12 ms of CPU, a 4 KiB erase,
#   14 ms, and one program of the live metadata with the commit (512 bytes at boot,
#   768 after the menu's header and settings): that block's step is 160 ms;
# - boot's 83 blocks: one erase every 86.3 ms on average (median 80.1), 7,288 ms from the
#   first block's erase to the step that allows a start.
#
# What the model (sim.latency) charges around a ring block's erase beyond the erase and
# its 17 page programs (the step's pass of 74.8 ms less 45 ms and 17 x 0.7 ms): the CPU
# the port's step spends on a block, the interrupts on. Charged at each erase outside a
# game (a compaction's erase too).
RING_STEP_PORT_US = 74_800
ERASE_CPU_US = RING_STEP_PORT_US - SECTOR_ERASE_US[0] - 17 * PAGE_PROGRAM_US[0]
# A littlefs commit's tags and CRCs beside its data and the file's attributes
# (LFS_FILE_ATTR_BYTES): the port commits the settings' 224 bytes in 512 and the
# header's 147 in 256, so between 21 and 97 bytes; 28 taken: a struct's tag, the erased
# state's CRC (12) and the CRC (8), 4 to spare. The real littlefs without attributes
# (littlefs-python, tests/test_lfs_compaction.py) commits each write and rename of the
# same sequence in the same pages with it. A rename of a small file (inline in the
# metadata, up to 512 bytes) commits its bytes again (the settings' rename: 512).
LFS_COMMIT_TAG_BYTES = 28
# A compaction of littlefs's metadata: the live entries programmed again (sim.latency
# counts them entry by entry, as littlefs writes them), and the CPU it takes beyond
# ERASE_CPU_US. Each file carries MicroPython's mtime attribute (extmod/vfs_lfsx.c:
# LFS_ATTR_MTIME, 8 bytes, a tag of 4). Measured after a game's setup (the scripts'
# case): one program of 768 bytes (the ring, the new settings and header, the two
# slots: 582 bytes counted so), 16.8 + 22.6 and 17.7 + 24.1 ms of CPU around the erase
# (menu-custom-150, -350); at the boot, the settings and header of the game before,
# 512 bytes (442 counted) and 12 + 14 ms (the model's boot is slower by that, 14 ms
# every 15 blocks).
LFS_FILE_ATTR_BYTES = 12
COMPACTION_CPU_US = 40_600 - ERASE_CPU_US
# The scans of the ring's blocks (locate, clear_stale), a block device read each of a
# block's first 64 bytes: a read whose bytes hold no ring marker is skipped in C, one
# that holds one is parsed in Python (16 slices). Measured: the locate after the boot's
# 83 blocks (83 marked of 352) 142.6 ms, after the new game's 23 (49 marked: the boot's
# older ring too) 93.2 ms (from its call to the step's sleep, less the step's 4.9 ms):
# 1,453 us a marked block more, 62 us a read.
FS_BLOCKS = 352  # the Pico's littlefs (rp2 port, RPI_PICO: 1,408 KiB of 4 KiB blocks)
DEVICE_READ_US = 62
MARKED_READ_US = 1_453
# The start of a preparation, in the step that takes the menu's confirming key: the
# port spends 60 to 66 ms before the first flash program (the menu's action, the JSON),
# and about as much around each file it replaces whole (hal.storage: the settings after
# a change of control, the new game's header; the setup module loaded for begin_game).
# Measured per file replaced, from the step's entry to the ring's first prepare_block less
# the flash programs between: 83.5 ms with the settings and the header (menu-custom-150,
# 173.3 ms, 9 pages), 81.9 ms with the header alone (new-game-150, 84.7 ms, 4 pages);
# the scene newGame's 65.8 ms. Then a preparation's first block: 43.2 and 40.1 ms more
# than a later block's from prepare_block to its erase (hal.journal_setup, let go after
# each scan of the device, loaded again; a new ring's nonce; 27.6 ms in the scene, 24.2
# at the boot). Measured on the port (tests/scenarios/speed/menu-custom-150, a ring
# grown, and new-game-150, a new ring, played by the lane with the heap watch); the
# model charges them where a file is replaced whole and where the ring's file is opened
# to be written after a scan.
FILE_WRITE_CPU_US = 83_000
RING_START_CPU_US = 41_700
# A full collection visits every block of the heap: mark, then sweep. An estimate
# at the board's 48 MHz CPU clock (not a datasheet figure): 40 us per KiB in use
# typically, 80 us at most.
GC_US_PER_KIB = (40, 80)
# The heap MicroPython's rp2 build gives the Python code: from the end of .bss to the
# end of the 256 KiB of RAM (MicroPython v1.27.0, ports/rp2/memmap_mp_rp2040.ld, main.c:
# gc_init(&__GcHeapStart, &__GcHeapEnd); the stacks are in the scratch banks), its blocks
# less the collector's tables. Measured on the port: gc.mem_free() + gc.mem_alloc() at the
# prompt of the image `make firmware BOARD=pico` builds (v1.27.0, RPI_PICO, the clock
# frozen in), booted on rp2040js: `make port` (docs/port.md; tests/test_port_image.py
# reads it again). The earlier estimate, 205 KiB from a v1.20 prompt, was 36 KiB short.
HEAP_BYTES = 246_016
HEAP_SOURCE = (
    "MicroPython v1.27.0 RPI_PICO image with the clock frozen in, on rp2040js: "
    "gc.mem_free() + gc.mem_alloc() at the prompt (make port)"
)
HEAP_ESTIMATED = False
# What the main loop costs on the port, measured with `make port` (the image of `make
# firmware BOARD=pico` on rp2040js at 48 MHz, no USB host traffic, the flash at the
# W25Q16JV's typical times; rp2040js has no flash wait states, so a real chip spends more
# cycles, never fewer). machine.idle() waits for an event or 1 ms at most (MicroPython
# v1.27.0, ports/rp2/modmachine.c: MICROPY_INTERNAL_WFE(1)); the loop sleeps in
# select.poll's ipoll instead (hal/sleep.py), which the port shows waking once a sleep.
IDLE_WAKE_MS = 1
# A clock running, from a second after a move, nothing pressed: 3.2 wake-ups a second (each
# a sleep of the loop and a step of the app, counted on the port), 1.5 % of the core:
# about 240,000 cycles a wake-up (a full step, the displays' frames and their restores).
# Standing, the ring prepared: 2.0 a second, 0.86 %. Measured on the port; the model's
# wake-ups (sim.wakes) times this pass are its CPU (bench/wakeups.py).
LOOP_WAKEUPS_PER_S_RUNNING = 3.2
LOOP_CYCLES_PER_WAKEUP = 240_000
CPU_PERCENT_RUNNING = 1.5
CPU_PERCENT_STANDING = 0.86
# A hard pin handler's own run: 0.1 ms typical, 0.3 ms at most at 48 MHz right after an
# erase, the XIP cache cold (the handler's bytecode and the VM are read from flash
# again): an estimate. It moves the pin's own stamp, not the capture's (hal/capture.py).
HANDLER_US = (100, 300)
# The pass an input's edge wakes reads its tick (App.step's argument) after the edge, not
# at it: the hard handler runs at each edge of the contact's chatter (every 0.25 ms on the
# lane's contacts), the main loop's step coming only once the line has settled, then the
# wake's own path (the poll's return, hal.runtime's service) before the step reads
# ticks_ms. Measured on the port: this image on rp2040js at 48 MHz, the lane's plan of a
# script pressing the keys and levers standing, running and paused (`node
# tools/port/lane.mjs ... --plan FILE --elf ELF`, a copy of tools/port logging each call
# of App.step with its tick argument and the emulator's instant), the bounce at 0, 1, 3
# and 6 ms: from the line's last edge to the step, a key (plus, minus: a pin interrupt
# alone) 1.0 to 1.4 ms, an input the capture stamps (a lever, play: its handler takes the
# capture's stamps at each edge) 2.6 to 3.6 ms. At the scripts' 3 ms bounce, from the
# press's first edge: a key 4.0 to 4.4 ms (the tick 4 past the edge's in 3 of 4), a
# lever or play 5.65 to 6.08 ms (5 past in 10 of 12, 6 in 2), 7.6 ms for an edge that
# came while a pass ran. The figures below are fitted there: 3 ms and 1.2 or 2.9 ms read
# the tick 4 or 5 past the edge's (at bounce 0 the port's lever reads 3 past, the model
# 2). The pass's first frame is drawn 7.4 to 8.4 ms after a key's edge, 17 to 30 ms
# after a lever's (a move's step). sim.world charges the pass so (sim.latency
# input_wake): the engine charges from the stamps, so only what the step draws moves.
KEY_WAKE_US = 1_200
CAPTURED_WAKE_US = 2_900
# Socket calls: none (no radio on the Pico).
SOCKET_POLL_US = (0, 0)
SOCKET_RECV_US = (0, 0)
SOCKET_SEND_US = (0, 0)
