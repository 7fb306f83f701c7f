# Set-up is part of every target: a fresh machine needs only Python 3.11+ (and root or network
# access to get a Chromium). Everything goes into .venv; a second run only checks.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed-stamp
RUN_DIR ?= runs/demo
# Test files run in parallel, each whole in one worker process (its module fixtures made once).
# Chromium waits on the harness as often as the harness waits on it: on two cores the suite keeps
# them busy about 60 % of the time with two workers, and three took 750 s where two took 828 s.
TEST_WORKERS ?= 3
# The documentation site (mkdocs.yml, docs/), built strictly: a broken link, anchor or command
# reference is an error. Material's notice about its successor is left out of the output.
MKDOCS  = NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict

.PHONY: all setup browser test test-fast demo bench docs clean

all: test

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "webr4 needs Python 3.11 or newer (set PYTHON=...)")'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

setup: $(STAMP)

browser: $(STAMP)
	@$(PY) -m webr4.browser.install

test: browser
	$(PY) -m ruff check webr4 tests benchmarks
	$(PY) -m mypy webr4 tests benchmarks
	$(MKDOCS) --quiet
	$(PY) -m pytest -q --numprocesses $(TEST_WORKERS) --dist loadfile

# The lane to run after each change: lint, and every test that starts no browser (a test that
# does start one without its `browser` mark fails), property tests trying a few examples each;
# what builds or installs something (`slow`) is left to `make test`.
test-fast: $(STAMP)
	$(PY) -m ruff check webr4 tests benchmarks
	$(PY) -m pytest -q -m "not browser and not slow" --quick --numprocesses $(TEST_WORKERS) --dist load

demo: browser
	$(PY) -m webr4.demo --out $(RUN_DIR)

bench: browser
	$(PY) -m benchmarks

docs: $(STAMP)
	$(MKDOCS)

clean:
	rm -rf $(VENV) runs test-output .pytest_cache site
