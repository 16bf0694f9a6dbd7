"""Subcommands of ``mjmon``: each module has ``register(subparsers)`` and imports heavy things lazily."""


class CommandError(Exception):
    """A user-facing failure: ``mjmon`` prints it as one line and exits with status 2."""
