"""Building a large acyclic structure without the cyclic garbage collector running through it.

Decoding one message of the page runtime allocates up to 10^5 lists, tuples and accesses at
once. Every 700 allocations CPython runs a collection of the young generation; the objects still
under construction survive it and are promoted, and every few hundred thousand promotions trigger
a collection of the whole heap. On a framework app that was half of the Python CPU an execution
spends (six full collections per replay, each walking every access of the trace so far).

Such data holds no reference cycles, so reference counting frees whatever of it dies and the
cyclic collector has nothing to find there. :func:`gc_paused` switches it off for the duration
of a synchronous block and restores the previous setting; the temporaries die by reference
count before the collector ever sees them, and only what survives the block counts towards
the next collection.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for a synchronous block (never across an ``await``:
    other tasks would run without it). Reentrant; restores the state it found."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
