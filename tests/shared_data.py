"""Where the project's shared test data lies: the ``shared/data`` folder beside the checkout.

Every test that reads the real match files, the gnubg ID vectors or the real dice photos finds them
through :data:`SHARED_DATA`, so there is one place that knows the layout.
"""

from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1]
#: ``shared/data`` beside the checkout (or inside it, where a checkout carries its own copy)
SHARED_DATA = next(
    (
        candidate / "shared" / "data"
        for candidate in (_ROOT.parent, _ROOT)
        if (candidate / "shared" / "data").is_dir()
    ),
    _ROOT.parent / "shared" / "data",
)
MATCHES_DIR = SHARED_DATA / "matches"
ID_VECTORS = SHARED_DATA / "gnubg-id-vectors.json"
REAL_DICE = SHARED_DATA / "real" / "dice-matteop65"
