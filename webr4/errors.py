"""The root of every error webr4 raises on purpose.

Each failure a user can act on (a bad settings file, an unreachable site, no Chromium, a session
that cannot be replayed, ...) has a class of its own in the module that detects it, and every
one of them derives from :class:`Webr4Error`. Its message is one line that names the problem and,
where there is one, what to do; a front end (the command line, the pytest plugin, the demo)
catches this one class and shows that line instead of a traceback. Anything else that escapes is
a bug in webr4.
"""

from __future__ import annotations


class Webr4Error(Exception):
    """A failure the user can act on; ``str(error)`` is one line saying what went wrong."""
