# One virtualenv for everything; `make demo` and `make test` create it on first use.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# pytest-xdist: one worker per core; a test file's tests stay on one worker, so a module's fixture
# (the photoreal sets read once, a broker) is built once. `make test PYTEST_WORKERS=` runs serially.
PYTEST_WORKERS ?= -n auto --dist loadfile

.PHONY: demo test lint typecheck bench clean messages catalogues

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/sheshbesh demo $(ARGS)

test: $(STAMP) catalogues
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/pytest $(PYTEST_WORKERS) $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# Languages (README, "Languages"): the catalogues live in $(LOCALES), one messages.po per language.
LOCALES   := sheshbesh/locale
LANGUAGES := he ar cs tr el ru
# Gather every marked text into messages.pot and bring each language's .po up to date with it
# (new texts arrive untranslated; the tests insist on a translation for each).
messages: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg -k N_ -k NP_:1,2 --add-location=file \
		--project=sheshbesh --copyright-holder="sheshbesh contributors" -o $(LOCALES)/messages.pot .
	for language in $(LANGUAGES); do \
		if [ -f $(LOCALES)/$$language/LC_MESSAGES/messages.po ]; then \
			$(BIN)/pybabel -q update -w 100 --no-fuzzy-matching --ignore-obsolete -i $(LOCALES)/messages.pot \
				-d $(LOCALES) -l $$language; \
		else \
			$(BIN)/pybabel -q init -w 100 -i $(LOCALES)/messages.pot -d $(LOCALES) -l $$language; \
		fi; \
	done

# Compile each .po into the .mo the panel and the referee read (committed too, so a fresh clone and
# `pip install` have them).
catalogues: $(STAMP)
	$(BIN)/pybabel -q compile -d $(LOCALES) -D messages

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_rules.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
