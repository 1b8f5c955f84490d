"""Test-wide setup: Qt runs offscreen (no display needed), set before any Qt import."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
