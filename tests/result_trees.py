"""The tests' walk over an engine result's nested outputs."""

import numpy as np


def leaves(tree, prefix=""):
    """Every output array of a nested result dict with its path ("/plan/tp"), in the dict's order."""
    if isinstance(tree, dict):
        for k, v in tree.items():
            yield from leaves(v, f"{prefix}/{k}")
    else:
        yield prefix, np.asarray(tree)
