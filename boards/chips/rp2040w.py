"""RP2040 on the Pico W: the Pico's flash and hard pin interrupts, plus the CYW43439 radio.

Socket calls (the hall link's) run on the CPU but leave the interrupts on:
with hard pin handlers they delay no stamp; they are counted as C calls.
"""

from boards.chips.rp2040 import *  # noqa: F403  (the same flash, the same interrupts)

# lwIP as MicroPython configures it for the rp2 (ports/rp2/lwip_inc/lwipopts.h includes
# extmod/lwip-include/lwipopts_common.h): TCP_MSS 800, TCP_SND_BUF and TCP_WND 8 * 800,
# 32 segments; a write goes out through tcp_output_nagle (extmod/modlwip.c, Nagle on
# unless TCP_NODELAY): a small segment waits for the ACK of the one before. The hall
# link's messages (under 400 bytes) are one segment each.

# The hall link's socket calls (hal/mqtt.py over hal/net_stream.py, the socket
# non-blocking): each poll asks the socket's readiness at zero timeout, reads at
# most 48 bytes and writes at most 96. MicroPython's rp2 port binds lwIP's raw API
# in the caller's context (extmod/modlwip.c), inside MICROPY_PY_LWIP_ENTER, which on
# the rp2 defers lwIP's background work and leaves the interrupts on. A poll reads
# the socket's state; a read copies from the pbufs already received; a write copies
# the bytes into lwIP's send buffer (tcp_write, TCP_WRITE_FLAG_COPY) and hands
# segments to the radio (tcp_output) only once that buffer is three quarters full.
# Estimates at the board's clock: a poll 10 us typically, 50 us at most; a read
# 50 us typically, 200 us at most; a write 50 us typically, 2 ms at most, when it
# flushes a full send buffer (8 segments of 800 bytes, extmod/lwip-include) to
# the radio over its bus (the gSPI, some 30 MHz from the PIO) and the radio has
# credit to take them.
# A link that stops moving can hold a write longer, the interrupts on (the pin
# handlers are served; the main loop waits): the CYW43 driver waits up to 1 s for
# the radio's credit (cyw43_ll.c, cyw43_sdpcm_send_common), and when lwIP's segment
# queue is full modlwip flushes and retries every 50 ms, 200 times, also on a
# non-blocking socket (extmod/modlwip.c, lwip_tcp_send: "this code will actually
# block"): up to 10 s. The credit wait is a fault of the link, not a per-call
# figure: the model leaves it out (docs/power.md, "What a chip can delay"); the
# queue's wait cannot come, hal/mqtt.py bounds the unconfirmed writes below it
# (UNCONFIRMED_CALLS).
SOCKET_POLL_US = (10, 50)
SOCKET_RECV_US = (50, 200)
SOCKET_SEND_US = (50, 2_000)
# The heap: the Pico's rule (boards/chips/rp2040.py), 256 KiB less .data and .bss,
# where the RPI_PICO_W image's .bss also holds the CYW43 driver's state and
# buffers, lwIP's heap and pools (extmod/lwip-include/lwipopts_common.h: MEM_SIZE
# 16,000 B with the larger windows) and BTstack's: the heap is fixed, with the
# radio's memory static, outside it. An estimate, from the 165-175 KB the RPI_PICO_W
# image leaves: the low end, rounded down.
HEAP_BYTES = 161 * 1024
HEAP_SOURCE = "MicroPython v1.27.0: ports/rp2/memmap_mp_rp2040.ld; RPI_PICO_W .bss with CYW43, lwIP"
HEAP_ESTIMATED = True
# The hall link's TLS handshake (hal/tls_stream.py; bench/hall_tls.py puts these on
# the handshake's steps as they come from a real broker). MicroPython's rp2 port runs
# mbedTLS in software (ports/rp2/mbedtls/mbedtls_config_port.h: MBEDTLS_ECP_NIST_OPTIM,
# no accelerator), TLS 1.2 only (extmod/mbedtls/mbedtls_config_common.h), ECDHE-ECDSA
# on P-256 with the hall's CA (hall/tls.py). The Cortex-M0+ multiplies 32 x 32 -> 32
# bits only, so each limb product of mbedTLS's bignum takes four 16-bit products.
# Estimates, not measurements (no Pico W on the bench): an ECDSA verification on
# P-256 (a double scalar multiplication) 1.0 s typically, 1.6 s at most at 125 MHz;
# a single scalar multiplication (the ECDHE key pair, the shared secret) half of it.
# The order of magnitude is that of Pico W handshakes reported at several seconds
# (raspberrypi/pico-examples issue 411); the TLS records' hashing and AES-GCM, some
# 10 ms a flight, are left in the per-step figure.
TLS_ECDSA_VERIFY_US = (1_000_000, 1_600_000)
TLS_SCALAR_MULT_US = (500_000, 800_000)
TLS_FLIGHT_US = (10_000, 20_000)  # a step's parsing, hashing and record cipher
# Where mbedTLS takes its memory: MicroPython's GC heap (m_tracked_calloc: the rp2's
# MICROPY_MBEDTLS_CONFIG_BARE_METAL, extmod/mbedtls/mbedtls_config_common.h).
TLS_ON_GC_HEAP = True
