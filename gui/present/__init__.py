"""What the views show, without Qt (import-linter keeps it so; see pyproject.toml):

- :mod:`.series`: the x-axes and the three charts' data from an engine sweep;
- :mod:`.sweep`: which x values, the sweep and the point as a snapshot, a cache of them;
- :mod:`.bands`: the seeded Monte-Carlo and each chart's P10/P50/P90;
- :mod:`.chart_export`: export formats and a chart's data as CSV;
- :mod:`.format`: numbers and money in the reader's language; :mod:`.text`: translated text;
- :mod:`.steps`: the plan steps along a sweep.

The widgets (:mod:`gui.charts.sweep`, the table, the proposal), the exports and the command line
draw or write what these give."""
