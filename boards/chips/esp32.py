"""ESP32 (ESP32-WROOM-32) with its 4 MiB SPI NOR flash: what can hold back an edge.

The esp32 port has no hard pin interrupts (``Pin.irq(hard=True)`` raises
TypeError; hal/edges.py falls back to a soft handler), so a lever's handler
runs from MicroPython's scheduler, between two bytecodes: after whatever C
call the main loop is in has returned. That is any flash write or erase
(the cache is off while it runs), an I2C frame, a collection, a socket call.
"""

from boards.chips import rp2040 as _rp2040  # (its measured ring preparation)

SOFT_PIN_HANDLERS = True
FLASH_MASKS_INTERRUPTS = True  # the cache is off: nothing that runs from flash runs
# Nothing stamps a lever without the CPU (the ULP coprocessor could, on RTC pins 32/33,
# but is not used): the soft handler's stamp is the only one (docs/power.md).
PIO_LEVER_CAPTURE = False
# The module's flash maker varies; the figures are those of the GigaDevice GD25Q32C
# found in many ESP32-WROOM-32 modules (its datasheet, "AC Characteristics"):
# tSE sector erase (4 KiB) 50 ms typical, 400 ms max; tPP page program 0.6 ms
# typical, 2.4 ms max.
SECTOR_ERASE_US = (50_000, 400_000)
# ESP-IDF's flash driver programs at most 64 bytes a command (the SPI peripheral's
# buffer of 16 words: esp_flash's and the ROM's write loop), so a 256-byte page is
# four programs, each with the chip's fixed start-up and verify: an estimate, not a
# datasheet figure, of about 0.75 ms typical and 3.2 ms at most a page (tPP is for up
# to a page in one command).
PAGE_PROGRAM_US = (750, 3_200)
# Soft handlers: each edge of a pin asks MicroPython's scheduler for one call of its
# handler (mp_sched_schedule, ports/esp32/machine_pin.c), and so does each period of a
# soft timer; the queue holds MICROPY_SCHEDULER_DEPTH = 8 calls (py/mpconfig.h) and the
# ones that do not fit are dropped without a trace. A handler's own run, queued behind
# the others: 50 us typical, 100 us at most at 80 MHz (an estimate).
SCHEDULER_DEPTH = 8
HANDLER_US = (50, 100)
# Only the entry's bytes are written there (hal/journal_setup.py): ESP-IDF's programs of
# at most 64 bytes, an estimate of one such program, not a datasheet figure: 190 us
# typically, 800 us at the maxima (an entry's 68 bytes two programs).
WRITE_CHUNK_BYTES = 64
CHUNK_PROGRAM_US = (190, 800)
SECTOR_BYTES = 4096
PAGE_BYTES = 256
# littlefs as MicroPython's VfsLfs2 mounts it on the esp32: 4 KiB blocks, progsize=32.
LFS_PROG_BYTES = 32
# One block device read of the journal ring's scans (the read and the Python over its
# 64 bytes): the RP2040's, derived from its port's measurement (boards/chips/rp2040.py),
# scaled by the two boards' CPU clocks, 48 and 80 MHz. An estimate: no ESP32 port runs
# here.
DEVICE_READ_US = _rp2040.DEVICE_READ_US * 48 // 80
# A full collection at the board's 80 MHz: an estimate (not a datasheet figure)
# of 25 us per KiB of heap in use typically, 50 us at most.
GC_US_PER_KIB = (25, 50)
# The heap MicroPython gives the Python code on the ESP32 without PSRAM, read from
# MicroPython v1.27.0's sources. ports/esp32/mpconfigport.h starts it at
# MICROPY_GC_INITIAL_HEAP_SIZE, 56 KiB on the ESP32, "chosen so they can grow the
# heap once (double it) and still have enough internal RAM to start WiFi and make a
# HTTPS request"; MICROPY_GC_SPLIT_HEAP_AUTO adds an area from ESP-IDF's heap when an
# allocation fails, as large as the heap already is (py/gc.c, gc_try_add_heap). A
# second growth would take what Wi-Fi and lwIP allocate from: two areas are the
# ceiling. Each area loses its allocation and finaliser tables (py/gc.c,
# gc_setup_area: 16 bytes a block plus 3 bits): 3,500 blocks in the first 57,344 B;
# the second is as large as the first with its tables and its 32-byte header
# (57,360 B), 3,500 blocks again; 16 B each.
HEAP_BYTES = 2 * 3_500 * 16  # 112,000 B, 109.4 KiB
HEAP_SOURCE = "MicroPython v1.27.0: ports/esp32/mpconfigport.h, py/gc.c (grown once)"
HEAP_ESTIMATED = False  # arithmetic from the sources; the growth is the port's own choice
# A reconnection to the hall in play (hal/hall_link.py: a new socket, its buffers, the
# CONNECT) allocates, so it can bring a full collection (GC_US_PER_KIB) on the main
# loop: the model leaves reconnections out (a settings push in play waits, too).
# The hall link's socket calls (hal/mqtt.py over hal/net_stream.py, the socket
# non-blocking): each poll asks select at zero timeout, reads at most 48 bytes and
# writes at most 96. MicroPython's esp32 port (ports/esp32/modsocket.c) makes each
# one lwIP call without a retry when the timeout is 0: lwip_select, lwip_recvfrom,
# lwip_write. ESP-IDF's lwIP runs in its own task (tcpip_thread); a read or a
# write is a message to it, and the caller waits for its answer (lwIP's netconn
# API, tcpip_send_msg_wait_sem): the 96 bytes are copied into a pbuf and the
# segment handed to the Wi-Fi driver's queue, which never waits (esp_wifi_internal_tx
# answers ESP_ERR_NO_MEM when it is full; a full socket buffer answers EAGAIN).
# Estimates, not datasheet figures: a select 20 us typically, 100 us at most
# (it scans the socket in the caller's task); a read or a write 100 us typically,
# 2 ms at most: the tcpip task first handles what its mailbox already holds (32
# messages, ESP-IDF's CONFIG_LWIP_TCPIP_RECVMBOX_SIZE default), some 60 us each.
SOCKET_POLL_US = (20, 100)
SOCKET_RECV_US = (100, 2_000)
SOCKET_SEND_US = (100, 2_000)
# The hall link's TLS handshake (hal/tls_stream.py; bench/hall_tls.py puts these on
# the handshake's steps as they come from a real broker): ESP-IDF's mbedTLS, its
# bignum multiplications on the RSA/MPI accelerator (CONFIG_MBEDTLS_HARDWARE_MPI,
# ESP-IDF's default), ECDHE-ECDSA on P-256, TLS 1.2, the CPU at 160 MHz (ESP-IDF's
# default, which MicroPython's sdkconfig.base keeps). Estimates, not measurements (no
# ESP32 on the bench), from espressif/esp-idf pull requests 19026 and 19027: on an
# ESP32-S3 at 240 MHz an ECDSA verification on P-256 took 302 ms with the accelerator;
# a 256-bit multiplication there took 15.8 us against 19.5 us on the ESP32, so
# 302 x 19.5 / 15.8 x 240 / 160 = 560 ms on this board typically, 850 ms at most (the
# Wi-Fi task sharing the core, flash cache misses); a single scalar multiplication
# (the ECDHE key pair, the shared secret) half of it.
TLS_ECDSA_VERIFY_US = (560_000, 850_000)
TLS_SCALAR_MULT_US = (280_000, 425_000)
TLS_FLIGHT_US = (5_000, 10_000)  # a step's parsing, hashing and record cipher
# Where mbedTLS takes its memory: ESP-IDF's heap (CONFIG_MBEDTLS_DEFAULT_MEM_ALLOC,
# ports/esp32/boards/sdkconfig.base), not MicroPython's; the same internal RAM the
# MicroPython heap grows into (HEAP_BYTES above).
TLS_ON_GC_HEAP = False
