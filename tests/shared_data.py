"""Where the test data lies: ``tests/data`` inside the checkout.

The data travels with the repository so that ``make test`` passes from a fresh clone with nothing
beside it. Every test that reads the real match files, the gnubg ID vectors or the real dice photos
finds them through this module, so there is one place that knows the layout. Each folder keeps its
own notice (``matches/ATTRIBUTION.md``; the dice photos are MIT: ``real/dice-matteop65/LICENSE.txt``
and ``ATTRIBUTION.md``).
"""

from pathlib import Path

#: ``tests/data`` in this checkout
SHARED_DATA = Path(__file__).resolve().parent / "data"
MATCHES_DIR = SHARED_DATA / "matches"
ID_VECTORS = SHARED_DATA / "gnubg-id-vectors.json"
REAL_DICE = SHARED_DATA / "real" / "dice-matteop65"
