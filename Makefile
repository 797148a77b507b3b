# Two commands for a new user: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Pictures and colours must not depend on the caller's terminal settings.
CLEAN_ENV := env -u NO_COLOR -u TEXTUAL_THEME -u GARITO_ASCII -u FORCE_COLOR -u TEXTUAL

.PHONY: play test check test-long bench screenshots clean

# setuptools tells of every editable install, as a warning, that a folder
# named like the package could shadow it: Garito has no folder called
# "garito", and the notice reads like a failure to a new user. Only that
# message is silenced; any other warning of the build still shows.
QUIET_EDITABLE := PYTHONWARNINGS="ignore:Editable installation:UserWarning"

$(BIN)/garito: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(QUIET_EDITABLE) $(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.test-extras: $(BIN)/garito
	$(QUIET_EDITABLE) $(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

play: $(BIN)/garito
	$(BIN)/garito

# The checkers see the package as it installs (garito.core, garito.tui, ...)
# while its folders stay at the top: a tree of links made here, never kept
# in git (build/ is ignored).
TYPECHECK := build/typecheck
PARTS := core tui widgets store server

$(TYPECHECK)/garito: Makefile
	rm -rf $(TYPECHECK)
	mkdir -p $@
	for d in $(PARTS); do ln -s ../../../$$d $@/$$d; done
	if [ -d garito ]; then for f in garito/*; do ln -s ../../../$$f $(TYPECHECK)/$$f; done; \
	else touch $@/__init__.py; fi

# Style, types and the layers' import contracts (pyproject.toml's [tool.*]).
check: $(VENV)/.test-extras $(TYPECHECK)/garito
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	cd $(TYPECHECK) && ../../$(BIN)/mypy --config-file ../../pyproject.toml
	cd $(TYPECHECK) && PYTHONPATH=. ../../$(BIN)/lint-imports ../../pyproject.toml

# The checks, then the suite on two workers (the machine's cores).
test: check
	$(CLEAN_ENV) $(BIN)/python -m pytest -n 2

# The long checks (thousands of random keys), not part of `make test`.
test-long: $(VENV)/.test-extras
	$(CLEAN_ENV) $(BIN)/python -m pytest -m slow

bench: $(BIN)/garito
	$(CLEAN_ENV) $(BIN)/python bench/suite.py
	$(CLEAN_ENV) $(BIN)/python bench/startup.py
	$(BIN)/python bench/gemelos.py
	$(BIN)/python bench/redman.py
	$(BIN)/python bench/barras.py
	$(BIN)/python bench/irwin.py
	$(BIN)/python bench/decimus.py
	$(BIN)/python bench/willie.py
	$(CLEAN_ENV) $(BIN)/python bench/willie_screen.py
	$(CLEAN_ENV) $(BIN)/python bench/shared_table.py

# Refresh the README's pictures from the approved snapshots.
screenshots:
	for f in screenshots/*.svg; do n=$$(basename $$f .svg | tr - _); cp tests/__snapshots__/test_snapshots/test_$$n.svg $$f; done

clean:
	rm -rf $(VENV) build *.egg-info
