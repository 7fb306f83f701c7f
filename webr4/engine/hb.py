"""Happens-before over the steps of one trace.

The executors report only *direct* happens-before edges (:attr:`webr4.trace.Step.predecessors`).
One more kind of direct edge is read off the trace itself (:func:`webr4.trace.creation_edges`):
a step that enables an event and writes its shadow location created it, so the step running that
event happens after it, whatever creator the executor reported.
:class:`HappensBefore` closes them transitively, once, into one bitset per step (Python ints:
bit ``i`` of ``ancestors(j)`` is set iff step ``i`` happens before step ``j``). Building is
``O(n · e)`` big-int operations for ``n`` steps and ``e`` direct edges; every query after that is
a shift and a mask, which keeps thousands of steps cheap.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from webr4.trace import Step, creation_edges


def iter_bits(bits: int) -> Iterator[int]:
    """The indices of the set bits of ``bits``, in increasing order."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


class HappensBefore:
    """The strict happens-before partial order of a trace's steps.

    Contract: ``predecessors`` of step ``j`` must be indices ``0 <= i < j``; anything else raises
    ``ValueError``, because it would make the relation cyclic or dangling. The creation edges
    of :func:`~webr4.trace.creation_edges` are added to the reported ones.
    """

    def __init__(self, steps: Sequence[Step]) -> None:
        n = len(steps)
        ancestors = [0] * n
        successors: list[list[int]] = [[] for _ in range(n)]
        created = creation_edges(steps)
        predecessors: list[tuple[int, ...]] = []
        for j, step in enumerate(steps):
            direct = tuple(step.predecessors)
            if j in created and created[j] not in direct:
                direct += (created[j],)
            predecessors.append(direct)
            bits = 0
            for i in direct:
                if not 0 <= i < j:
                    raise ValueError(f"step {j} lists predecessor {i}, which is not an earlier step")
                bits |= ancestors[i] | (1 << i)
                successors[i].append(j)
            ancestors[j] = bits
        self._predecessors = predecessors
        self._ancestors = ancestors
        self._successors = successors
        self._descendants: list[int] | None = None

    def __len__(self) -> int:
        return len(self._ancestors)

    def happens_before(self, i: int, j: int) -> bool:
        """True iff step ``i`` strictly happens before step ``j``."""
        return bool((self._ancestors[j] >> i) & 1)

    def ordered(self, i: int, j: int) -> bool:
        """True iff the two steps are equal or ordered one way or the other."""
        return i == j or self.happens_before(i, j) or self.happens_before(j, i)

    def ancestors(self, j: int) -> int:
        """Bitset of the steps that strictly happen before step ``j``."""
        return self._ancestors[j]

    def descendants(self, i: int) -> int:
        """Bitset of the steps that step ``i`` strictly happens before (all of them are computed
        on the first call; race detection and R4 never ask)."""
        if self._descendants is None:
            descendants = [0] * len(self._ancestors)
            for k in range(len(descendants) - 1, -1, -1):
                bits = 0
                for j in self._successors[k]:
                    bits |= descendants[j] | (1 << j)
                descendants[k] = bits
            self._descendants = descendants
        return self._descendants[i]

    def direct_predecessors(self, j: int) -> tuple[int, ...]:
        """The direct edges into step ``j``: the executor's, then the creation edge it lacked."""
        return self._predecessors[j]
