# Two entry points do all set-up on a fresh machine: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean system-packages mutate

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/tavla play tabla

# GNU Backgammon is the outside oracle of the differential tests.
system-packages:
	@if ! command -v /usr/games/gnubg >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q gnubg) >/dev/null \
	      || echo "warning: gnubg could not be installed; its differential tests will be skipped"; \
	  else echo "warning: not root, gnubg not installed; its differential tests will be skipped"; fi; \
	fi

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks
	$(VENV)/bin/mypy

test: $(STAMP) system-packages lint
	$(VENV)/bin/pytest -n 2

bench: $(STAMP)
	$(PY) -m pip install -q -e '.[bench]'
	$(PY) benchmarks/movegen.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache mutants

# Mutation testing with mutmut over the modules configured in [tool.mutmut]
# (src/tavla/rules and src/tavla/match), or only those under PATHS, e.g.
#   make mutate PATHS="src/tavla/rules/tapa src/tavla/match/mat.py"
# MUTATE_JOBS workers run the mutants (1 keeps it to one core). Results stay in
# mutants/ between runs; `$(VENV)/bin/mutmut results` lists the survivors and
# `$(VENV)/bin/mutmut show NAME` shows one.
PATHS ?=
MUTATE_JOBS ?= 1
# src/tavla/rules/tapa -> "tavla.rules.tapa.*", src/tavla/rules/tpn.py -> "tavla.rules.tpn.*"
mutant_glob = "$(subst /,.,$(patsubst src/%,%,$(patsubst %.py,%,$(patsubst %/,%,$(1))))).*"

$(VENV)/.mutation-installed: $(STAMP)
	$(PY) -m pip install -q -e '.[dev,mutation]'
	touch $@

mutate: $(VENV)/.mutation-installed
	$(VENV)/bin/mutmut run --max-children $(MUTATE_JOBS) $(foreach path,$(PATHS),$(call mutant_glob,$(path)))
	$(PY) tests/mutation_summary.py $(foreach path,$(PATHS),$(call mutant_glob,$(path)))
