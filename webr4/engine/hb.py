"""Happens-before over the steps of one trace.

The executors report only *direct* happens-before edges (:attr:`webr4.trace.Step.predecessors`).
:class:`HappensBefore` closes them transitively, once, into one bitset per step (Python ints:
bit ``i`` of ``ancestors(j)`` is set iff step ``i`` happens before step ``j``). Building is
``O(n · e)`` big-int operations for ``n`` steps and ``e`` direct edges; every query after that is
a shift and a mask, which keeps thousands of steps cheap.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from webr4.trace import Step


def iter_bits(bits: int) -> Iterator[int]:
    """The indices of the set bits of ``bits``, in increasing order."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


class HappensBefore:
    """The strict happens-before partial order of a trace's steps.

    Contract: ``predecessors`` of step ``j`` must be indices ``0 <= i < j``; anything else raises
    ``ValueError``, because it would make the relation cyclic or dangling.
    """

    def __init__(self, steps: Sequence[Step]) -> None:
        n = len(steps)
        ancestors = [0] * n
        successors: list[list[int]] = [[] for _ in range(n)]
        for j, step in enumerate(steps):
            bits = 0
            for i in step.predecessors:
                if not 0 <= i < j:
                    raise ValueError(f"step {j} lists predecessor {i}, which is not an earlier step")
                bits |= ancestors[i] | (1 << i)
                successors[i].append(j)
            ancestors[j] = bits
        descendants = [0] * n
        for i in range(n - 1, -1, -1):
            bits = 0
            for j in successors[i]:
                bits |= descendants[j] | (1 << j)
            descendants[i] = bits
        self._predecessors = [tuple(step.predecessors) for step in steps]
        self._ancestors = ancestors
        self._descendants = descendants

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
        """Bitset of the steps that step ``i`` strictly happens before."""
        return self._descendants[i]

    def direct_predecessors(self, j: int) -> tuple[int, ...]:
        """The direct edges into step ``j``, as the executor reported them."""
        return self._predecessors[j]
