# Two commands (see README): `make run` starts the app on the built-in samples, `make test` runs every test.
# Both set up what they need first (Debian chromium/fonts, a virtual environment), idempotently.
PORT ?= 8501
ADDRESS ?= localhost
PYTEST_ARGS ?=

.PHONY: run test setup samples bench

run:
	@scripts/setup.sh run
	.venv/bin/python -m streamlit run app.py --server.port $(PORT) --server.address $(ADDRESS)

test:
	@scripts/setup.sh test
	.venv/bin/python -m pytest $(PYTEST_ARGS)

samples:
	@scripts/setup.sh test
	.venv/bin/python assets/make_samples.py

bench:
	@scripts/setup.sh test
	for f in bench/bench_*.py; do echo "== $$f"; PYTHONPATH=. .venv/bin/python $$f || exit 1; done
