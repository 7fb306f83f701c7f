"""The pure exploration engine: happens-before, races, R4's exploration and rival strategies
(test doubles that execute abstract models live in :mod:`webr4.engine.testing`)."""

from webr4.engine.hb import HappensBefore
from webr4.engine.plans import ExplorationResult, ExploredSequence, PlannedSequence, Reversal, Strategy, run
from webr4.engine.races import LocationFilter, Race, RaceAnalysis, RaceFilter, find_races
from webr4.engine.r4 import R4Explorer, explore

__all__ = [
    "ExplorationResult",
    "ExploredSequence",
    "HappensBefore",
    "LocationFilter",
    "PlannedSequence",
    "R4Explorer",
    "Race",
    "RaceAnalysis",
    "RaceFilter",
    "Reversal",
    "Strategy",
    "explore",
    "find_races",
    "run",
]
