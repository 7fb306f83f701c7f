"""The categories of final state webr4 compares, one module each, and their registry.

A category (:class:`~webr4.state.categories.base.StateCategory`) says how its part of the state is
captured, saved, compared, masked and put into words. :class:`~webr4.state.snapshot.StateSnapshot`,
:class:`~webr4.state.diff.StateDiff`, :class:`~webr4.state.noise.NoiseMask`, the ``differences``
of ``summary.json`` and the reversal page all loop over :data:`CATEGORIES`; whether a difference
makes a race harmful is decided by :mod:`webr4.classify.rules`.
"""

from __future__ import annotations

from typing import Any

from webr4.execution import AccessLog, Capture
from webr4.state.categories.base import StateCategory, MaskField
from webr4.state.categories.console import CONSOLE
from webr4.state.categories.dom import DOM
from webr4.state.categories.exceptions import EXCEPTIONS
from webr4.state.categories.focus import FOCUS
from webr4.state.categories.heap import HEAP
from webr4.state.categories.navigation import NAVIGATION
from webr4.state.categories.network import NETWORK
from webr4.state.categories.pending import PENDING
from webr4.state.categories.screenshot import SCREENSHOT
from webr4.state.categories.storage import STORAGE

CATEGORIES: tuple[StateCategory[Any, Any], ...] = (
    NAVIGATION, EXCEPTIONS, DOM, SCREENSHOT, FOCUS, CONSOLE, NETWORK, PENDING, HEAP, STORAGE,
)
"""Every category, in the order people read their differences."""

MASK_FIELDS: dict[str, MaskField] = {f.name: f for category in CATEGORIES for f in category.mask_fields}
"""Every noise-mask field by name."""


def page_scripts() -> dict[str, str]:
    """Category name → the function expression that reads its value from the page at the end
    of a run (:attr:`Capture.page_scripts <webr4.execution.Capture.page_scripts>`), for the
    categories that need one."""
    return {c.name: c.page_script for c in CATEGORIES if c.page_script is not None}


def compared_state(accesses: AccessLog = AccessLog.SUMMARY) -> Capture:
    """What a run is asked to capture so that its end state holds every category, as a sweep
    compares it (the screenshot, the heap and every category's page script), its steps keeping
    ``accesses`` of the page's accesses."""
    return Capture(accesses=accesses, screenshot=True, heap=True, page_scripts=page_scripts())


__all__ = ["CATEGORIES", "MASK_FIELDS", "StateCategory", "MaskField", "compared_state", "page_scripts"]
