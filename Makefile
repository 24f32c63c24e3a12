# Two commands (see README): `make run` starts the app on the built-in samples, `make test` runs every test.
# Both set up what they need first (Debian chromium/fonts, a virtual environment), idempotently.
PORT ?= 8501
ADDRESS ?= localhost
PYTEST_ARGS ?=
export PYTEST_ARGS   # scripts/test.sh reads it from the environment, quoting intact

.PHONY: run test setup samples bench docs

run:
	@scripts/setup.sh run
	MALLOC_ARENA_MAX=$${MALLOC_ARENA_MAX:-2} .venv/bin/python -m streamlit run serve.py --server.port $(PORT) --server.address $(ADDRESS)

# The tests without a browser on both cores, then the browser journeys one at a time (scripts/test.sh).
test:
	@scripts/setup.sh test
	scripts/test.sh

samples:
	@scripts/setup.sh test
	.venv/bin/python assets/make_samples.py

bench:
	@scripts/setup.sh test
	for f in bench/bench_*.py; do echo "== $$f"; PYTHONPATH=. .venv/bin/python $$f || exit 1; done

# The manual (docs/, mkdocs-material) on http://localhost:8000, rebuilt on every change; `make test` builds it with
# --strict (tests/test_docs.py). DOCS_PORT=8001 serves it elsewhere.
DOCS_PORT ?= 8000
docs:
	@scripts/setup.sh test
	NO_MKDOCS_2_WARNING=1 .venv/bin/python -m mkdocs serve --dev-addr $(ADDRESS):$(DOCS_PORT)
