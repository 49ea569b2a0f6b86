# Two commands a newcomer needs:  `make run`  (start the app)  and  `make test`  (run every test).
# Both create .venv and install what they need on first use.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PORT   ?= 8501

.PHONY: run test bench lint clean

$(VENV)/.runtime: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt $(VENV)/.runtime
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $@

run: $(VENV)/.runtime
	$(PY) -m streamlit run app.py --server.port $(PORT)

test: $(VENV)/.dev
	$(PY) -m pytest

bench: $(VENV)/.dev
	$(PY) benchmarks/bench_topdown.py
	$(PY) benchmarks/bench_app.py
	$(PY) benchmarks/bench_branching.py
	$(PY) benchmarks/bench_probabilistic.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis tests/artifacts

lint: $(VENV)/.dev
	$(PY) -m ruff check boostcore ui views app.py tests benchmarks
