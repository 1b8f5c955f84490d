"""What leaves the app as a file: chart files (PNG, SVG, PDF, CSV), the proposal sheet and the
proposal pack's editable files."""
