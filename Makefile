# Two commands for a new user: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Pictures and colours must not depend on the caller's terminal settings.
CLEAN_ENV := env -u NO_COLOR -u TEXTUAL_THEME -u GARITO_ASCII -u FORCE_COLOR -u TEXTUAL

.PHONY: play test bench clean

$(BIN)/garito: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.test-extras: $(BIN)/garito
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

play: $(BIN)/garito
	$(BIN)/garito

test: $(VENV)/.test-extras
	$(CLEAN_ENV) $(BIN)/python -m pytest

bench: $(BIN)/garito
	$(BIN)/python bench/startup.py

clean:
	rm -rf $(VENV) build *.egg-info
