"""The outcome of classifying one conflict reversal."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Kind = Literal["harmful", "harmless", "heap-only", "unrealised", "error"]


@dataclass(frozen=True)
class Verdict:
    """``kind`` is the judgement; ``reasons`` are the codes of the rules that decided it (every
    harmful rule that matched, or the one rule that decided any other kind)."""

    kind: Kind
    reasons: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "reasons": list(self.reasons)}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Verdict:
        return cls(raw["kind"], list(raw.get("reasons", ())))
