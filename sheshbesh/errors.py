"""The project's root exception. Each package derives its own family from it.

The rules engine (``controller.rules``) is the one exception: it imports only the standard library,
so its ``RulesError`` derives from ``ValueError`` alone.
"""


class SheshbeshError(Exception):
    """Root of every error the project raises on purpose (outside the rules engine)."""
