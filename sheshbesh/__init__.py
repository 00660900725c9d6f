"""Shared ground of the sheshbesh packages: the board's location map, the Observation type, errors.

``vision``, ``controller`` and ``web`` may all import from here; this package imports none of them.
"""

__version__ = "0.1.0"
