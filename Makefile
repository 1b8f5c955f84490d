# Fabric What-If. `make run` starts the app, `make test` runs the whole suite;
# each creates .venv and installs what it needs.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-quick bench validate clean i18n bundle

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

run: $(STAMP)
	$(PY) -m gui.app $(ARGS)

test: $(STAMP)
	$(PY) -m pytest -q -n auto

# the same without the tests marked slow (subprocess runs); CI runs `make test`
test-quick: $(STAMP)
	$(PY) -m pytest -q -n auto -m "not slow"

validate: $(STAMP)
	$(VENV)/bin/fabric-whatif validate

bench: $(STAMP)
	$(PY) -m pip install --quiet --no-deps 'llm-analysis==0.2.2'
	$(PY) -m pip install --quiet 'fire>=0.5,<0.6'
	test -d build/baseline || git worktree add --detach build/baseline 210fb10
	test -d build/today || git worktree add --detach build/today a282bc8
	$(PY) -m benchmarks.run

# The one-folder desktop app (dist/FabricWhatIf/) with PyInstaller; on Windows and macOS see README "Desktop app".
bundle: $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,bundle]'
	$(PY) -m PyInstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller packaging/fabric_whatif.spec

# Translations: .ts sources from gui/*.py (pyside6-lupdate), compiled .qm (pyside6-lrelease)
i18n: $(STAMP)
	VENV=$(VENV) tools/i18n.sh

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist
