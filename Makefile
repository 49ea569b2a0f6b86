# Two commands a newcomer needs:  `make run`  (start the app)  and  `make test`  (run every test).
# Both create .venv and install what they need on first use.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PORT   ?= 8501

.PHONY: run serve serve-hall test test-fast bench load-check thumbnails lint clean

$(VENV)/.runtime: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt $(VENV)/.runtime
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $@

# This machine only (127.0.0.1): a classroom uses `make serve` (or `make run ADDRESS=0.0.0.0`).
ADDRESS ?= 127.0.0.1
run: $(VENV)/.runtime
	$(PY) -m streamlit run serve.py --server.address $(ADDRESS) --server.port $(PORT)

# Serve a classroom on the local network (see docs/classroom-server.md; Docker: Dockerfile).
serve: $(VENV)/.runtime
	$(PY) -m streamlit run serve.py --server.address 0.0.0.0 --server.port $(PORT) --server.headless true

# A lecture hall on this machine (docs/classroom-server.md, "A lecture hall"): Redis, REPLICAS
# app processes (default: the number of cores) and HAProxy on PORT, Debian's redis-server and
# haproxy (apt-get install redis-server haproxy). Ctrl-C stops them all.
REPLICAS ?= $(shell nproc 2>/dev/null || echo 2)
serve-hall: $(VENV)/.runtime
	$(PY) scripts/hall.py --replicas $(REPLICAS) --port $(PORT) --address 0.0.0.0

# Two parts. First the unit, property, AppTest and browser tests on two workers
# (pytest-xdist; one app server and one Chromium per worker, started at its first browser
# test): one run, so neither worker waits idle at the end of the unit tests while the other
# finishes its last one, and the tests are collected once. The browser tests come after all
# others on each worker, the longest ones first (tests/conftest.py), so the run ends on short
# tests; --maxschedchunk 2 hands out two tests at a time (xdist's default hands out up to a
# quarter of what is left, and a worker could sit on ten class tests while the other has
# nothing left). Then, alone, the tests that measure their own server (-m serial).
# Each part prints its 40 slowest tests (where the 10-minute budget goes, issue 42 item 7).
test: $(VENV)/.dev
	$(PY) -m pytest -m "not serial" -n 2 --maxschedchunk 2 --durations=40
	$(PY) -m pytest -m "serial" --durations=40

# Everything but the browser tests (no Streamlit server, no Chromium): for quick iterations.
# `make test` stays the whole suite (and CI's command).
test-fast: $(VENV)/.dev
	$(PY) -m pytest -m "not browser and not serial" -n 2

# Runs every benchmark script and writes what it prints into docs/benchmarks.md.
bench: $(VENV)/.dev
	$(PY) scripts/readme_bench.py

# 30 simulated students on loopback (prints page-load latency and how often the run computed).
load-check: $(VENV)/.dev
	$(PY) benchmarks/load_check.py

# Re-make the home page's thumbnails after a visible change to a page.
thumbnails: $(VENV)/.dev
	$(PY) scripts/make_thumbnails.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis tests/artifacts

lint: $(VENV)/.dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
