"""The pure exploration engine: happens-before, races, R4's exploration and rival strategies
(test doubles that execute abstract models live in :mod:`webr4.engine.testing`)."""

from webr4.engine.explore import Explorer, explore
from webr4.engine.hb import HappensBefore
from webr4.engine.plans import ExplorationResult, ExploredSequence, PlannedSequence, Reversal, Strategy, run
from webr4.engine.races import LocationFilter, Race, RaceAnalysis, RaceFilter, find_races

__all__ = [
    "ExplorationResult",
    "ExploredSequence",
    "Explorer",
    "HappensBefore",
    "LocationFilter",
    "PlannedSequence",
    "Race",
    "RaceAnalysis",
    "RaceFilter",
    "Reversal",
    "Strategy",
    "explore",
    "find_races",
    "run",
]
