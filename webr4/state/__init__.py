"""The final state of an execution and the differences between two of them.

Each part of the state (DOM, abstract JavaScript heap, exceptions, console errors, network
requests, pending events, navigation, screenshot, …) is a category of
:mod:`webr4.state.categories`, which says how it is captured, saved, compared, masked and worded.
:class:`~webr4.state.snapshot.StateSnapshot` holds what one execution left behind, one value per
category; :func:`~webr4.state.diff.diff_states` compares a parent's snapshot with a child's,
category by category; :class:`~webr4.state.noise.NoiseMask` removes what differs even between
two replays of the same sequence (clocks, counters) and what the user asked to ignore.
"""

from webr4.state.diff import StateDiff, diff_states
from webr4.state.noise import NoiseMask
from webr4.state.snapshot import StateSnapshot

__all__ = ["NoiseMask", "StateDiff", "StateSnapshot", "diff_states"]
