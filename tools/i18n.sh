#!/usr/bin/env bash
# Regenerate the translation sources and the compiled catalogues:
#   pyside6-lupdate  every gui/**/*.py  -> assets/i18n/fabric_whatif_<lang>.ts  (keeps existing translations)
#   pyside6-lrelease .ts       -> assets/i18n/fabric_whatif_<lang>.qm  (what the app loads)
# Usage: tools/i18n.sh            (or: make i18n)
# Edit translations in the .ts files (Qt Linguist, or any text editor), then run this again.
# The committed .ts is exactly what lupdate writes (tests/test_i18n_catalogue.py), so running this on
# a clean tree changes nothing. "-locations none": no source line numbers in the .ts, so moving code
# does not change it; only adding, changing or removing a translatable string does.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${VENV:-.venv}/bin"
LANGS="zh_CN"
for lang in $LANGS; do
    ts="assets/i18n/fabric_whatif_${lang}.ts"
    "$BIN/pyside6-lupdate" -no-obsolete -locations none -target-language "$lang" $(find gui -name "*.py" | LC_ALL=C sort) -ts "$ts"
    "$BIN/pyside6-lrelease" "$ts" -qm "assets/i18n/fabric_whatif_${lang}.qm"
done
