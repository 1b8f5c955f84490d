"""The machine the app runs on: settings, autosave, the bundled fonts, the heap, Linux's platform check."""
