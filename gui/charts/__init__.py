"""The drawings: the three sweep charts (:mod:`.sweep`), their uncertainty bands, the step bars at the
current point, cost, tornado, break-even and A/B compare."""
