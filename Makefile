# Two commands for a new user: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Pictures and colours must not depend on the caller's terminal settings.
CLEAN_ENV := env -u NO_COLOR -u TEXTUAL_THEME -u GARITO_ASCII -u FORCE_COLOR -u TEXTUAL

.PHONY: parts play test check test-dist test-long bench screenshots constraints clean catalogs messages

# setuptools tells of every editable install, as a warning, that a folder
# named like the package may shadow it: Garito's folder "garito" is the
# package's own root (__init__, __main__), so nothing is shadowed, and the
# notice reads like a failure to a new user. Only that message is silenced;
# any other warning of the build still shows.
QUIET_EDITABLE := PYTHONWARNINGS="ignore:Editable installation:UserWarning"
# Every library at the version the snapshots were approved with: a new Rich
# turns no picture red unannounced (`make constraints` moves them on).
PINNED := -c constraints.txt

# A developer gets everything, the SSH server's extra included.
$(BIN)/garito: pyproject.toml setup.py constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(QUIET_EDITABLE) $(BIN)/python -m pip install --quiet $(PINNED) -e '.[serve]'
	@touch $@

# The test tools with the rest in one install when the venv is new (one
# resolve and one editable build: 15 s, where two installs took 21 s).
$(VENV)/.test-extras: pyproject.toml setup.py constraints.txt
	[ -x $(BIN)/python ] || { $(PYTHON) -m venv $(VENV) && $(BIN)/python -m pip install --quiet --upgrade pip; }
	$(QUIET_EDITABLE) $(BIN)/python -m pip install --quiet $(PINNED) -e '.[serve,test]'
	@touch $(BIN)/garito $@

# The real programs the tests start themselves: a redis-server for the
# cluster's tests (on a free port, in a temporary folder), and OpenSSH's
# client for the door's. Installed from
# Debian's packages where missing, as root (CI) or through sudo; anywhere
# else, one line says what to install, and those tests fail (never skip).
parts:
	@command -v redis-server >/dev/null 2>&1 && command -v ssh >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; elif sudo -n true 2>/dev/null; then SUDO=sudo; \
	  else echo "make test: install redis-server and an ssh client (Debian: apt-get install -y redis-server openssh-client)"; exit 0; fi; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  $$SUDO apt-get install -y -qq redis-server openssh-client >/dev/null 2>&1 || \
	  { $$SUDO apt-get update -qq >/dev/null && $$SUDO apt-get install -y -qq redis-server openssh-client >/dev/null; }; }

play: $(BIN)/garito catalogs
	$(BIN)/garito

# ---------------------------------------------------------- translations
# Sources: core/locale/<lang>/LC_MESSAGES/garito.po, in git. The .mo files
# gettext reads are compiled from them (any build of the package does it
# too; an edited .po is compiled again here by make play and make test).
LOCALE := core/locale
PO := $(wildcard $(LOCALE)/*/LC_MESSAGES/garito.po)
MO := $(PO:.po=.mo)

catalogs: $(MO)

$(LOCALE)/%/LC_MESSAGES/garito.mo: $(LOCALE)/%/LC_MESSAGES/garito.po $(LOCALE)/compile.py
	$(PYTHON) $(LOCALE)/compile.py $(LOCALE)

# The texts marked in the code (_, ngettext, N_, pgettext) extracted into
# the template, and each language's catalog merged with it: new texts come
# in untranslated (the catalog tests fail until they are translated).
messages: $(VENV)/.test-extras
	$(BIN)/pybabel extract --no-wrap --no-location --sort-output --project=garito -c TRANSLATORS: \
		-o $(LOCALE)/garito.pot core tui widgets store server garito
	$(BIN)/pybabel update --no-wrap --no-fuzzy-matching --ignore-obsolete -D garito -i $(LOCALE)/garito.pot -d $(LOCALE)

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
	# No cache: the folder's links keep their own times, and a graph cached
	# from them was read again after its modules had changed.
	cd $(TYPECHECK) && PYTHONPATH=. ../../$(BIN)/lint-imports --no-cache ../../pyproject.toml

# The checks, then the suite on four workers for the machine's two cores:
# the SSH and server tests mostly wait (on sockets, subprocesses, timeouts)
# and so does Pilot between keys (it sleeps to see the app idle), so more
# workers than cores keep both cores busy meanwhile (measured: 359 s on two
# workers, 286 s on three; then the pytest run alone, three workers 239 s
# wall with 13% of the cores idle, four 193 s with 5%). The waiting tests are
# queued first (tests/conftest.py); a worker with nothing left takes tests
# queued on another (worksteal).
# Each Python process of the suite (the workers, and the ones the tests
# start) compiled Garito and the tests anew where bytecode is not written
# (PYTHONDONTWRITEBYTECODE): collecting the suite took 4.4 s of CPU per
# worker, 1.6 s with the compiled files kept. They are kept where Python
# keeps them, in __pycache__ folders (ignored by git): a separate prefix
# (PYTHONPYCACHEPREFIX) would pass over the compiled libraries and standard
# library too, and a fresh clone's run compiled all of them in every
# process: 302 s of CPU where a second run took 212 s.
PYCACHE := env -u PYTHONDONTWRITEBYTECODE
# The checks (style, types, import contracts: 7 s of one core on a fresh
# clone, mostly mypy) run beside the suite, whose workers leave a core idle
# now and then while they wait; their report is shown after the suite's, and
# either failing fails make test.
test: parts $(VENV)/.test-extras $(TYPECHECK)/garito catalogs
	@$(MAKE) --no-print-directory check > build/check.log 2>&1 & checks=$$!; \
	$(CLEAN_ENV) $(PYCACHE) $(BIN)/python -m pytest -n 4 --dist worksteal; suite=$$?; \
	wait $$checks; checked=$$?; cat build/check.log; \
	[ $$suite -eq 0 ] && [ $$checked -eq 0 ]

# The sdist and the wheel built, the wheel installed in a fresh venv for each
# Python 3.11-3.13 on the machine, and the sdist's own suite run against it.
test-dist: $(VENV)/.test-extras
	$(CLEAN_ENV) $(BIN)/python tests/dist.py

# The long checks (thousands of random keys), not part of `make test`.
test-long: $(VENV)/.test-extras
	$(CLEAN_ENV) $(BIN)/python -m pytest -m slow

bench: parts $(BIN)/garito
	$(CLEAN_ENV) $(BIN)/python bench/suite.py
	$(CLEAN_ENV) $(BIN)/python bench/startup.py
	# bounded: the README's table is bench/floor.py --rounds 3 with the six games
	$(CLEAN_ENV) $(BIN)/python bench/floor.py --rounds 1 --keys 20
	$(CLEAN_ENV) $(BIN)/python bench/i18n_startup.py
	$(BIN)/python bench/gemelos.py
	$(BIN)/python bench/redman.py
	$(BIN)/python bench/barras.py
	$(BIN)/python bench/irwin.py
	$(BIN)/python bench/decimus.py
	$(BIN)/python bench/willie.py
	$(CLEAN_ENV) $(BIN)/python bench/willie_screen.py
	$(CLEAN_ENV) $(BIN)/python bench/shared_table.py
	$(BIN)/python bench/ratings.py
	# bounded: 20 players; the README's table is bench/serve_load.py at 50, 100 and 200
	$(CLEAN_ENV) $(BIN)/python bench/serve_load.py --players 20 --keys 6
	# bounded: 20 players for 10 s; the README's table is bench/cluster_load.py at 50 and 200
	$(BIN)/python bench/cluster_load.py --players 20 --seconds 10

# Refresh the README's pictures from the approved snapshots.
screenshots:
	for f in screenshots/*.svg; do n=$$(basename $$f .svg | tr - _); cp tests/__snapshots__/test_snapshots/test_$$n.svg $$f; done

# Move the pinned libraries on to what the venv has now (after a deliberate
# upgrade there, and the snapshots looked at again).
constraints: $(VENV)/.test-extras
	{ echo "# Every library at the version the snapshot pictures were approved with (make constraints)."; \
	  $(BIN)/python -m pip freeze --exclude-editable | grep -v '^garito'; } > constraints.txt

clean:
	rm -rf $(VENV) build dist *.egg-info
