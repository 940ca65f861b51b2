# git-prism developer tasks. The two entry points:
#   make demo   build the release binary and show the shim answering an agent's `git diff`
#   make test   everything CI checks: fmt, clippy, unit + integration tests, behave features
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

CARGO ?= cargo
PYTHON ?= python3
TARGET_DIR := $(abspath $(or $(CARGO_TARGET_DIR),target))
HOST := $(shell rustc -vV | sed -n 's/^host: //p')
# The release binary is linked statically and without position independence: it is exec'd on
# every git call on the machine, and such a binary starts without a dynamic loader and without
# relocating itself (see docs/adr/0001-own-entry-point-and-static-binary.md).
RELEASE_FLAGS := --release --locked --target $(HOST)
# `make build RELOCATION_MODEL=pie` trades some start-up latency for ASLR of the executable.
RELOCATION_MODEL ?= static
RELEASE_BIN := $(TARGET_DIR)/$(HOST)/release/git-prism
DEBUG_BIN := $(TARGET_DIR)/debug/git-prism
VENV := $(TARGET_DIR)/venv
PREFIX ?= $(HOME)/.local

.PHONY: build test fmt-check clippy unit bdd venv bench corpus demo install clean

build:
	RUSTFLAGS="$${RUSTFLAGS:-} -C target-feature=+crt-static -C relocation-model=$(RELOCATION_MODEL)" $(CARGO) build $(RELEASE_FLAGS)

test: fmt-check clippy unit bdd

fmt-check:
	$(CARGO) fmt --all --check

clippy:
	$(CARGO) clippy --all-targets --locked -- -D warnings

unit:
	$(CARGO) test --locked

bdd: venv
	$(CARGO) build --locked
	GIT_PRISM_BIN=$(DEBUG_BIN) $(VENV)/bin/behave --format progress --no-capture-stderr features

venv: $(VENV)/.installed

$(VENV)/.installed: features/requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r features/requirements.txt
	touch $@

corpus:
	$(PYTHON) bench/corpus.py

bench: build corpus
	$(CARGO) build --release --locked -p git-prism-bench
	$(TARGET_DIR)/release/git-prism-bench \
		--binary $(RELEASE_BIN) \
		--git "$$(bench/real-git.sh)" \
		--corpus "$$($(PYTHON) bench/corpus.py)" \
		--work $(TARGET_DIR)/bench-work \
		--results bench/RESULTS.md

demo: build
	scripts/demo.sh $(RELEASE_BIN)

install: build
	install -d $(PREFIX)/bin
	install -m 0755 $(RELEASE_BIN) $(PREFIX)/bin/git-prism
	$(PREFIX)/bin/git-prism shim install

clean:
	$(CARGO) clean
