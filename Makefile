# Build your own autograd: one Makefile for learners' preview, instructors and CI.
# Every target installs what it needs on a fresh machine.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# where the site will live, e.g. https://you.github.io/course/ (canonical links, sitemap, 404 page)
SITE_URL ?=
BUNDLE := course_browser/dist/.built
RUNTIME_SOURCES := $(shell find course_browser -type f -not -path "course_browser/dist/*" 2>/dev/null) course_browser/build.mjs runner/facts.json grader/plain_errors.json

.PHONY: help setup setup-test serve preview build publish test test-fast check lint bench bench-site screenshots chromium clean

help:
	@echo "make serve   serve the course at http://127.0.0.1:8000 (PORT=8001 for another), live reload"
	@echo "make preview the same at :8001 (PREVIEW_PORT), as an instructor: every lock open, every answer shown"
	@echo "make publish SITE_URL=https://host/path/  build the site for a host into site/"
	@echo "make test    set up the test stack (chromium included), lint, and run every test"
	@echo "make check   prove every exercise and kill every mutant of its learner-written lines"
	@echo "make lint    ruff (Python) and Biome (JS)"
	@echo "make build   build the static site into site/"
	@echo "make bench   engine benchmarks against micrograd"
	@echo "make bench-site  load and check timings of the built site in Chromium"
	@echo "make screenshots  full-page PNGs of every level page (desktop, phone; light, dark) in screenshots/"

# Two installs: building and serving need MkDocs and its extensions only; the test
# stack (pytest, Playwright, torch, micrograd, ruff: `.[dev]`) comes with `make test`.
$(VENV)/.build-installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed: $(VENV)/.build-installed
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

$(BUNDLE): node_modules/.installed $(RUNTIME_SOURCES)
	node course_browser/build.mjs
	touch $@

setup: $(VENV)/.build-installed node_modules/.installed $(BUNDLE)

setup-test: setup $(VENV)/.installed

chromium:
	@command -v chromium >/dev/null 2>&1 || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }

serve: setup
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs serve --livereload --dev-addr 127.0.0.1:$(PORT)

# its own port, so its own origin: the preview's page visits never mix with the progress a
# learner keeps at the `make serve` address in the same browser
PREVIEW_PORT ?= 8001
preview: setup
	COURSE_PREVIEW=1 NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs serve --livereload --dev-addr 127.0.0.1:$(PREVIEW_PORT)

build: setup
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict

publish: setup
	@test -n "$(SITE_URL)" || { echo "make publish SITE_URL=https://your.host/path/  (where the site will live)"; exit 2; }
	SITE_URL="$(SITE_URL)" NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict

check: $(VENV)/.build-installed
	$(PY) -m grader prove && $(PY) -m grader mutate

lint: setup-test
	$(PY) -m ruff check .
	npx --no-install biome lint

# One pytest-xdist worker per core, each with its own browser; a whole file stays on one worker,
# so a module's fixtures (the Pyodide run, a served site) are made once. The site is built once
# per run (tests/conftest.py).
PARALLEL := -n auto --dist loadfile

test: setup-test chromium lint
	NO_MKDOCS_2_WARNING=1 $(PY) -m pytest $(PARALLEL)

test-fast: setup-test
	NO_MKDOCS_2_WARNING=1 $(PY) -m pytest $(PARALLEL) -m "not slow"

bench: $(VENV)/.installed
	$(PY) benchmarks/engine_vs_micrograd.py

bench-site: setup-test chromium
	NO_MKDOCS_2_WARNING=1 $(PY) benchmarks/site_bench.py

screenshots: setup-test chromium
	NO_MKDOCS_2_WARNING=1 $(PY) tools/screenshots.py

clean:
	rm -rf site course_browser/dist
