# Two entry points do all set-up on a fresh machine: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench strength clean system-packages mutate mutate-platform

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,server,servertest,fast,train]'
	@# The bots' compiled generators, compiled once now (about half a minute) into numba's
	@# cache, not during a newcomer's first game against a bot.
	$(PY) -c 'from tavla.bots import fast; fast.warm_up()'
	touch $(STAMP)

# The platform on http://127.0.0.1:8000 with its SQLite database tavla.db and the bots.
run: $(STAMP)
	$(VENV)/bin/tavla serve

# What the tests use from Debian: GNU Backgammon (the outside oracle of the
# differential tests), Chromium (the web board's end-to-end tests), PostgreSQL
# (the server's tests run on it as well as on SQLite) and Redis (the hub between
# server processes, tests/realtime), nginx (the balancer of `tavla cluster`,
# tests/cluster). Each missing one is installed
# when running as root; without it, its tests are skipped with a warning.
SYSTEM_PACKAGES := /usr/games/gnubg:gnubg /usr/bin/chromium:chromium /usr/lib/postgresql:postgresql /usr/bin/redis-server:redis-server /usr/sbin/nginx:nginx
system-packages:
	@missing=""; for entry in $(SYSTEM_PACKAGES); do \
	  [ -e "$${entry%%:*}" ] || missing="$$missing $${entry##*:}"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing) >/dev/null \
	      || echo "warning: could not install$$missing; their tests will be skipped"; \
	  else echo "warning: not root, missing$$missing; their tests will be skipped"; fi; \
	fi

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks
	$(VENV)/bin/mypy

# Three workers on the two cores: a fifth of a worker's time goes to waiting on the
# servers, browsers and databases the tests start, and a third worker fills it (12 minutes
# instead of 15 on this project's machine). Work-stealing keeps all three busy to the end.
test: $(STAMP) system-packages lint
	scripts/with-postgres.sh $(VENV)/bin/pytest -n 3 --dist worksteal

bench: $(STAMP)
	$(PY) -m pip install -q -e '.[bench]'
	$(PY) benchmarks/movegen.py
	$(PY) benchmarks/afterstates.py

# The dice bots' strength table (docs/bots.md): tabla against GNU Backgammon 0-ply and
# pubeval, every other game against its heuristic and the random player. About an hour.
STRENGTH = $(PY) benchmarks/bot_strength.py --player network
strength: $(STAMP) system-packages
	$(STRENGTH) --game tabla --opponent gnubg --games 2000
	$(STRENGTH) --game tabla --opponent pubeval --games 1000
	for game in antitabla chelebi tapa gulbara; do \
		$(STRENGTH) --game $$game --opponent heuristic --games 1000 && \
		$(STRENGTH) --game $$game --opponent random --games 1000 || exit 1; \
	done
	$(PY) benchmarks/bot_strength.py --game indiyka --player exact --opponent heuristic --games 1000
	$(PY) benchmarks/bot_strength.py --game indiyka --player exact --opponent random --games 1000

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache mutants .mutate-platform
	find src \( -name '*.nbi' -o -name '*.nbc' \) -delete  # numba's cache (see tavla/bots/fast/jit.py)

# Mutation testing with mutmut over the modules configured in [tool.mutmut]
# (the library's pure parts, README.md "Mutation testing"), or only those under PATHS, e.g.
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

# SAMPLE=N runs a seeded uniform sample of N mutants (SEED, default 1) instead of all
# of them, and prints the kill ratio with its 95% interval for the whole population.
# RESUME=1 runs only the sampled mutants without a result yet (a stopped run goes on).
SAMPLE ?=
SEED ?= 1
GLOBS = $(foreach path,$(PATHS),$(call mutant_glob,$(path)))
SAMPLE_FILE := mutants/sample-$(SAMPLE)-$(SEED).txt

mutate: $(VENV)/.mutation-installed
ifeq ($(SAMPLE),)
	@# mutmut copies the data files (translations, templates, weights) once: bring them up to date.
	$(PY) tests/mutation_platform.py --data .
	$(VENV)/bin/mutmut run --max-children $(MUTATE_JOBS) $(GLOBS)
	$(PY) tests/mutation_summary.py $(GLOBS)
else
	@# A pattern that names no mutant only generates the mutants and the test map (mutmut
	@# then exits with an error, having found no mutant to run).
	[ -n "$$(ls mutants/src 2>/dev/null)" ] || $(VENV)/bin/mutmut run "tavla.no_such_module.*" || [ -s mutants/mutmut-stats.json ]
	$(PY) tests/mutation_platform.py --data .
	$(PY) tests/mutation_sample.py $(SAMPLE) $(SEED) $(GLOBS) > $(SAMPLE_FILE)
	$(PY) tests/mutation_sample.py $(if $(RESUME),--pending) $(SAMPLE) $(SEED) $(GLOBS) > $(SAMPLE_FILE).run
	[ ! -s $(SAMPLE_FILE).run ] || $(VENV)/bin/mutmut run --max-children $(MUTATE_JOBS) $$(cat $(SAMPLE_FILE).run)
	$(PY) tests/mutation_summary.py --names $(SAMPLE_FILE) $(GLOBS)
endif

# The platform (the server, its storage, the realtime hub) mutated against the server's
# tests, with the same PATHS, SAMPLE, SEED, RESUME and MUTATE_JOBS, in a copy of the
# project kept in .mutate-platform/ (tests/mutation_platform.py: mutmut reads one
# configuration a folder). The copy's make reuses this virtual environment as it is.
# It runs beside a throwaway PostgreSQL, as `make test` does: the server's tests run on
# SQLite and PostgreSQL, and a mutant on a path only PostgreSQL takes needs the second.
PLATFORM_COPY := .mutate-platform
mutate-platform: $(VENV)/.mutation-installed
	$(PY) tests/mutation_platform.py $(PLATFORM_COPY)
	scripts/with-postgres.sh $(MAKE) -C $(PLATFORM_COPY) -o $(abspath $(STAMP)) -o $(abspath $(VENV))/.mutation-installed \
		mutate VENV=$(abspath $(VENV)) PATHS="$(PATHS)" SAMPLE="$(SAMPLE)" SEED="$(SEED)" \
		RESUME="$(RESUME)" MUTATE_JOBS="$(MUTATE_JOBS)"
