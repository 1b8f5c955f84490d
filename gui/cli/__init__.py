"""The headless commands (``fabric-whatif``): :mod:`.main` parses and runs them; :mod:`.export`
writes a chart or the proposal from a scenario file."""
