"""What the views show, without Qt: number and money formats (:mod:`.format`) and the plan steps along a
sweep (:mod:`.steps`). The table, the proposal, the CLI and the charts all use these."""
