"""The ``webr4`` program: ``python -m webr4`` and the ``webr4`` script both run :func:`main`.

:func:`main` installs the signal handlers of :mod:`webr4.interrupts` before the command line
(:mod:`webr4.cli`) is even imported, and once the command is over, a signal ends the process at
once with status 130 and one line rather than in the middle of its clean-up. Only the entry
points import this module, so the command line can use :mod:`webr4.interrupts` without an import
circle.
"""

from __future__ import annotations

import os
import signal
from typing import Any

from webr4 import interrupts


def main() -> None:
    """The ``webr4`` program (:mod:`webr4.cli`), interruptible from its first moment to its last."""
    interrupts.install()
    status: Any = interrupts.INTERRUPTED
    try:
        from webr4.cli import main as command_line

        command_line(prog_name="webr4")
    except KeyboardInterrupt:  # before the command line could take it (while it was imported)
        os.write(2, b"interrupted\n")
    except SystemExit as exiting:
        status = exiting.code
    finally:
        for signum in interrupts.SIGNALS:
            if signal.getsignal(signum) is not signal.SIG_IGN:
                signal.signal(signum, lambda signum, frame: _end(status))
    _forget_interrupt_in_string_code()
    raise SystemExit(status)


def _forget_interrupt_in_string_code() -> None:
    """CPython marks an interrupt that ended code it compiled from a string (the methods a
    dataclass or a named tuple generates, while a module is imported) as unhandled, even when it
    was handled afterwards, and under ``python -m`` it then ends the process by SIGINT at exit
    instead of with the status given. Evaluating a string clears that mark."""
    eval("None")


def _end(status: Any) -> None:
    """A signal after the command was over: end now, as interrupted (said once)."""
    if status != interrupts.INTERRUPTED:
        os.write(2, b"interrupted\n")
    os._exit(interrupts.INTERRUPTED)


if __name__ == "__main__":
    main()
