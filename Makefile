# Two commands for a newcomer: `make docs` and `make test`. Each sets up .venv itself.
# CI also runs the suite in a second venv on another Python, with a pip constraints file:
#   make test PYTHON=/path/to/python3.13 VENV=.venv313 CONSTRAINTS=constraints/sphinx9x.txt
PYTHON ?= python3
VENV := .venv
CONSTRAINTS :=
BIN := $(VENV)/bin
# What each target installs: `make docs` only what building the documentation needs (the
# `docs` extra), `make test` and `make lint` the test, lint and theme tools on top. One
# stamp per set, so `make docs` on a fresh clone never installs Playwright, mypy or ruff.
DOCS_STAMP := $(VENV)/.installed-docs
TEST_STAMP := $(VENV)/.installed-test
# An editable install, so the docs and tests always run the checkout's code. setuptools
# warns (a boxed "Editable installation" BuildBackendWarning) that a folder named like the
# package in the working directory takes precedence over it: here that folder *is* the
# package, so the warning says nothing we need; it alone is silenced.
PIP_INSTALL = PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip install --quiet \
	$(if $(CONSTRAINTS),-c $(CONSTRAINTS)) -e
# The package's bytecode, as an installed wheel has it. An editable install gets none where
# PYTHONDONTWRITEBYTECODE is set, and every sphinx-build (the docs' six, the tests' two
# hundred) then compiled the package's ~90 modules from source again: about 0.3 s of CPU each.
BYTE_COMPILE = $(BIN)/python -m compileall -q sphinxcontrib_mlglossary

.PHONY: docs docs-site test lint screenshots clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(DOCS_STAMP): pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	$(PIP_INSTALL) '.[docs]'
	touch $@

$(TEST_STAMP): pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	$(PIP_INSTALL) '.[test,lint,themes]'
	touch $@

## Build example_docs and the documentation site (docs/) to HTML in English, Spanish and
## Arabic, side by side, with -W: open example_docs/_build/html/{en,es,ar}/index.html and
## docs/_build/html/{en,es,ar}/index.html
DOCS_LANGUAGES := en es ar
DOCS_PROJECTS := example_docs docs
docs: $(DOCS_STAMP)
	@$(BYTE_COMPILE)
	@for project in $(DOCS_PROJECTS); do \
		for lang in $(DOCS_LANGUAGES); do \
			$(BIN)/sphinx-build -W --keep-going -q -D language=$$lang -b html \
				-d $$project/_build/doctrees/$$lang $$project $$project/_build/html/$$lang || exit 1; \
		done; \
		echo "Built: open $$project/_build/html/en/index.html (also es/ and ar/)"; \
	done

## Build only the documentation site (docs/), in the three languages
docs-site:
	@$(MAKE) --no-print-directory docs DOCS_PROJECTS=docs

## Run the test suite on every core (browser tests skip without chromium, except under CI=true)
test: $(TEST_STAMP)
	@$(BIN)/python -c "import sys, sphinx, docutils, myst_parser; print('test: Python', sys.version.split()[0], '/ Sphinx', sphinx.__version__, '/ docutils', docutils.__version__, '/ MyST-Parser', myst_parser.__version__, '/ venv $(VENV)')"
	@$(BYTE_COMPILE)
	$(BIN)/python -m pytest -n auto --dist loadfile

## Remake the documentation's screenshots (docs/images/*.png) from a fresh build, in headless Chromium
screenshots: $(TEST_STAMP)
	$(BIN)/python tools/screenshots.py

## Refresh the translation catalogs after the pages change, with the commands the how-to "Translate your documentation" (docs/how-to/translate.md)
## documents: extract the pages' text (sphinx-build -b gettext), merge it into each language's
## .po files (sphinx-intl update: new messages come in empty, changed ones fuzzy; catalogs
## whose messages did not change are left as they are), then count what is left to translate
## (sphinx-intl stat exits 1 while anything is; here it only informs).
## Covers example_docs and, where it exists, docs. `tox -e translations` runs this target too.
TRANSLATED_DOCS := $(patsubst %/conf.py,%,$(wildcard example_docs/conf.py docs/conf.py))
TRANSLATION_LANGUAGES := es ar
.PHONY: translations
translations: $(DOCS_STAMP)
	@for project in $(TRANSLATED_DOCS); do \
		rm -rf $$project/_build/gettext; \
		$(BIN)/sphinx-build -W --keep-going -q -b gettext $$project $$project/_build/gettext || exit 1; \
		$(BIN)/sphinx-intl update -p $$project/_build/gettext -d $$project/locales \
			$(addprefix -l ,$(TRANSLATION_LANGUAGES)) || exit 1; \
		$(BIN)/sphinx-intl stat -d $$project/locales $(addprefix -l ,$(TRANSLATION_LANGUAGES)) || true; \
	done

lint: $(TEST_STAMP)
	$(BIN)/ruff check sphinxcontrib_mlglossary tests benchmarks tools
	$(BIN)/ruff format --check sphinxcontrib_mlglossary tests benchmarks tools
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .venv313 example_docs/_build docs/_build
