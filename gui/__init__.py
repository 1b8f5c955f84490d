"""Fabric What-If desktop app and command line. Drives ``model``; owns no physics.

Importing this package imports no Qt: the CLI (``gui.cli.main``) runs without it.
"""
