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
# The journal ring's preparation, measured on the port: MicroPython v1.27.0, the image
# ``make firmware BOARD=pico`` builds, run under rp2040js at 48 MHz with the flash at
# the W25Q16JV's typical times: ~1.16 s a block, with the ring's store as it was then
# (hal/journal_store.py before the ring was prepared before the start): a block every
# 0.5 s of rest, and each block a scan of every block of the filesystem for stale
# copies of the ring's blocks, the block's append through littlefs, then a second scan
# to locate the ring. Measured on the port under rp2040js at v1.27.0; the port lane
# (``make port``) measures it again: this is the one place to update it.
RING_BLOCK_PORT_MS = 1160
RING_BLOCK_PORT_REST_MS = 500  # the rest after each block then
RING_BLOCK_PORT_SCANS = 2  # the device scans each block then took
FS_BLOCKS = 352  # the Pico's littlefs (rp2 port, RPI_PICO: 1,408 KiB of 4 KiB blocks)
# What the main loop's CPU spends on one block device read of the ring's scans (the
# read of a block's first 64 bytes and the Python that looks for markers in them),
# derived from the measurement: a block's 1.16 s less the rest, the typical erase and
# its 16 page programs, put on its two scans of 352 reads: about 0.86 ms a read. An
# estimate: the append's own CPU (littlefs's C, the module's import) is counted in the
# scans; were it all the append's, a block back to back would take 0.66 s.
DEVICE_READ_US = (
    (RING_BLOCK_PORT_MS - RING_BLOCK_PORT_REST_MS) * 1000
    - SECTOR_ERASE_US[0]
    - 16 * PAGE_PROGRAM_US[0]
) // (RING_BLOCK_PORT_SCANS * FS_BLOCKS)
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
# The journal's ring prepared after boot, the board's default control (5400+30: 82
# blocks): one erase every 101 ms (median) at the W25Q16JV's typical times, blocks back
# to back, 94 % of the core meanwhile (littlefs's appends and their CRCs, the step's
# Python). Measured on the port.
RING_BLOCK_PORT_US = 101_400
# What the model (sim.latency) charges around each block's erase beyond the erase, its
# programs and its device reads, so that its pace for the same control and flash times
# (64.0 ms a block without it) is the port's: calibrated, not measured alone.
ERASE_CPU_US = RING_BLOCK_PORT_US - 64_000
# A hard pin handler's own run: 0.1 ms typical, 0.3 ms at most at 48 MHz right after an
# erase, the XIP cache cold (the handler's bytecode and the VM are read from flash
# again): an estimate. It moves the pin's own stamp, not the capture's (hal/capture.py).
HANDLER_US = (100, 300)
# Socket calls: none (no radio on the Pico).
SOCKET_POLL_US = (0, 0)
SOCKET_RECV_US = (0, 0)
SOCKET_SEND_US = (0, 0)
