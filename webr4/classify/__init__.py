"""Harmful or harmless: R4's report phase.

:func:`classify` judges one explored conflict reversal from the parent's and child's traces, the
difference between their final states and the two events that were reversed. The rules, their
reason codes and their order are in :mod:`webr4.classify.rules`; each can be turned off by name.
"""

from webr4.classify.classifier import classify
from webr4.classify.rules import RULES, Case, Rule
from webr4.classify.verdict import Verdict

__all__ = ["RULES", "Case", "Rule", "Verdict", "classify"]
