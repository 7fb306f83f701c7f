"""``focus``: the element that has the keyboard focus at the end, as a selector (``#email``,
``form > input:nth-of-type(2)``), ``None`` when nothing does (the body has it).

Where the focus ends decides where the user's next keystrokes land: a click that ran before a
timer moved the focus may leave the user typing into another field, although every element
looks the same. Read from the page at the end of the run, through open shadow roots and
same-origin frames (the parts joined by `` >> ``). Compared as one value. Masked whole (``focus``)
when two replays of the seed end with the focus in different places. Items: ``on #name instead
of #email``, ``on #email instead of nowhere``, ``nowhere instead of on #email``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Collection, Mapping

from webr4.state.categories.base import StateCategory, MaskField
from webr4.state.categories.words import clip

if TYPE_CHECKING:
    from webr4.execution import Execution

_WHOLE = "focus"  # the one entry of the mask field: the focus is noise


@dataclass(frozen=True)
class FocusDiff:
    """Where the focus ended in the parent (``before``) and the child (``after``), when they differ."""

    before: str | None = None
    after: str | None = None
    differs: bool = False

    def __bool__(self) -> bool:
        return self.differs


class Focus(StateCategory[str | None, FocusDiff]):
    name = "focus"
    title = "Keyboard focus"
    mask_fields = (MaskField("focus"),)
    page_script = """() => {
      const selector = (element) => {
        const parts = [];
        for (let node = element; node && node.nodeType === 1; node = node.parentElement) {
          const root = node.getRootNode();
          if (node.id && root.querySelectorAll("#" + CSS.escape(node.id)).length === 1) {
            parts.unshift("#" + CSS.escape(node.id));
            break;
          }
          const tag = node.localName;
          if (tag === "html" || tag === "body") break;
          const parent = node.parentElement;
          const alike = parent ? Array.from(parent.children).filter((c) => c.localName === tag) : [node];
          parts.unshift(alike.length > 1 ? `${tag}:nth-of-type(${alike.indexOf(node) + 1})` : tag);
        }
        return parts.join(" > ");
      };
      const path = [];
      let active = document.activeElement;
      while (active && active !== document.body && active !== document.documentElement) {
        path.push(selector(active));
        let inner = null;
        if (active.shadowRoot) inner = active.shadowRoot.activeElement;
        else if (active.contentDocument) {
          try { inner = active.contentDocument.activeElement; } catch (error) { inner = null; }
          if (inner === active.contentDocument.body) inner = null;
        }
        active = inner;
      }
      return path.join(" >> ");  // "" when nothing has the focus: null would read as a failed capture
    }"""

    def empty(self) -> str | None:
        return None

    def capture(self, execution: Execution) -> str | None:
        focused = execution.captured.get(self.name)
        return str(focused) if focused else None

    def load(self, raw: Any, base: Any) -> str | None:
        return str(raw) if raw else None

    def no_difference(self) -> FocusDiff:
        return FocusDiff()

    def diff(self, before: str | None, after: str | None) -> FocusDiff:
        return FocusDiff(before, after, before != after)

    def dump_diff(self, part: FocusDiff) -> dict[str, Any]:
        return {"before": part.before, "after": part.after} if part else {}

    def items(self, part: FocusDiff) -> list[str]:
        if not part:
            return []
        after = f"on {part.after}" if part.after else "nowhere"
        before = f"on {part.before}" if part.before else "nowhere"
        return [clip(f"{after} instead of {before}", 120)]

    def noise(self, first: str | None, second: str | None) -> dict[str, Collection[Any]]:
        return {"focus": frozenset({_WHOLE} if first != second else ())}

    def mask(self, value: str | None, fields: Mapping[str, Collection[Any]]) -> str | None:
        return None if _WHOLE in fields["focus"] else value


FOCUS = Focus()
