"""Old name of :mod:`synthetic_nccl`, kept only while the calibration dialog's test (being
rewritten on another branch) still imports it; tests/test_names_and_sources.py fails once
that test no longer needs it."""

from synthetic_nccl import finite, nccl_log  # noqa: F401
