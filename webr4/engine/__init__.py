"""The pure exploration engine: happens-before, races, R4's exploration, models and rival strategies."""

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
