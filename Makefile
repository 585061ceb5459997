# Build your own autograd: one Makefile for learners' preview, instructors and CI.
# Every target installs what it needs on a fresh machine.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BUNDLE := course_browser/dist/.built
RUNTIME_SOURCES := $(shell find course_browser -type f -not -path "course_browser/dist/*" 2>/dev/null) course_browser/build.mjs grader/facts.json

.PHONY: help setup serve build test test-fast check lint bench bench-site screenshots chromium clean

help:
	@echo "make serve   set up and serve the course at http://127.0.0.1:8000"
	@echo "make test    set up (chromium included), lint, and run every test"
	@echo "make check   prove every exercise and kill every mutant of its learner-written lines"
	@echo "make lint    ruff (Python) and Biome (JS)"
	@echo "make build   build the static site into site/"
	@echo "make bench   engine benchmarks against micrograd"
	@echo "make bench-site  load and check timings of the built site in Chromium"
	@echo "make screenshots  full-page PNGs of every level page (desktop, phone; light, dark) in screenshots/"

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

$(BUNDLE): node_modules/.installed $(RUNTIME_SOURCES)
	node course_browser/build.mjs
	touch $@

setup: $(VENV)/.installed node_modules/.installed $(BUNDLE)

chromium:
	@command -v chromium >/dev/null 2>&1 || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }

serve: setup
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs serve --dev-addr 127.0.0.1:8000

build: setup
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict

check: $(VENV)/.installed
	$(PY) -m grader prove && $(PY) -m grader mutate

lint: $(VENV)/.installed node_modules/.installed
	$(PY) -m ruff check .
	npx --no-install biome lint

# One pytest-xdist worker per core, each with its own browser; a whole file stays on one worker,
# so a module's fixtures (the Pyodide run, a served site) are made once. The site is built once
# per run (tests/conftest.py).
PARALLEL := -n auto --dist loadfile

test: setup chromium lint
	NO_MKDOCS_2_WARNING=1 $(PY) -m pytest $(PARALLEL)

test-fast: setup
	NO_MKDOCS_2_WARNING=1 $(PY) -m pytest $(PARALLEL) -m "not slow"

bench: $(VENV)/.installed
	$(PY) benchmarks/engine_vs_micrograd.py

bench-site: setup chromium
	NO_MKDOCS_2_WARNING=1 $(PY) benchmarks/site_bench.py

screenshots: setup chromium
	NO_MKDOCS_2_WARNING=1 $(PY) tools/screenshots.py

clean:
	rm -rf site course_browser/dist
