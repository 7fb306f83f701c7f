"""Applying the rules of :mod:`webr4.classify.rules` to one conflict reversal."""

from __future__ import annotations

from typing import Iterable

from webr4.classify.rules import FALLBACK, GROUPS, RULES, Case, known_rules
from webr4.classify.verdict import Verdict
from webr4.state.diff import StateDiff
from webr4.trace import Event, Trace


def classify(parent: Trace, child: Trace, diff: StateDiff, reversal_events: tuple[Event, Event], *,
             child_failed: bool = False, rules: Iterable[str] | None = None) -> Verdict:
    """Judge the reversal of ``reversal_events`` (parent order) that turned ``parent`` into ``child``.

    ``diff`` compares the parent's final state with the child's. ``rules`` names the rules to
    use (default: all of :data:`~webr4.classify.rules.RULES`); leaving one out turns that filter
    or warning off. Raises :class:`~webr4.classify.rules.UnknownRule` on an unknown rule name.
    """
    enabled = set(RULES) if rules is None else set(known_rules(rules))
    case = Case(parent, child, diff, reversal_events, child_failed)
    for group in GROUPS:
        matched = [name for name in group if name in enabled and RULES[name].test(case)]
        if matched:
            return Verdict(RULES[matched[0]].kind, matched)
    return Verdict("harmless", [FALLBACK])
