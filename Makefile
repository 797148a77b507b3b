# Two commands for a new user: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Pictures and colours must not depend on the caller's terminal settings.
CLEAN_ENV := env -u NO_COLOR -u TEXTUAL_THEME -u GARITO_ASCII -u FORCE_COLOR -u TEXTUAL

.PHONY: play test test-long bench screenshots clean

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

test: $(VENV)/.test-extras
	$(CLEAN_ENV) $(BIN)/python -m pytest

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
	# bounded: 20 players; the README's table is bench/serve_load.py at 50, 100 and 200
	$(CLEAN_ENV) $(BIN)/python bench/serve_load.py --players 20 --keys 6

# Refresh the README's pictures from the approved snapshots.
screenshots:
	for f in screenshots/*.svg; do n=$$(basename $$f .svg | tr - _); cp tests/__snapshots__/test_snapshots/test_$$n.svg $$f; done

clean:
	rm -rf $(VENV) build *.egg-info
