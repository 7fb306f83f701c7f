"""Two plain runs compared as webr4 compares its executions, with an app's counters abstracted."""

from __future__ import annotations

from webr4.state.snapshot import StateSnapshot
from webr4.witness.compare import abstract_counters, plain_difference
from webr4.witness.confirm import CONFIRMED, judge


def _dom(counter: int, items: list[str]) -> str:
    """Agility's markup: every view numbered as the app creates it."""
    lines = ["<html>", "  <body>", f'    <section class="agility_{counter}" id="todoapp">',
             f'      <ul class="agility_{counter + 1}" id="todo-list">']
    for n, item in enumerate(items):
        lines += [f'        <li class="agility_{counter + 2 + n} completed">', f"          {item}", "        </li>"]
    return "\n".join([*lines, "      </ul>", "    </section>", "  </body>", "</html>"])


def test_a_counter_in_a_class_name_is_no_difference_and_the_lost_todo_still_is() -> None:
    parent = StateSnapshot(dom=_dom(2, ["Buy milk", "Walk the dog"]))
    child = StateSnapshot(dom=_dom(5, ["Walk the dog"]))  # app.js held until the fill: the views numbered later
    plain = plain_difference(parent, child, again=parent)
    assert plain["dom"] == ['ul#todo-list > li: removed <li class="agility_# completed"> Buy milk </li>']
    reported = {"dom": ['ul#todo-list > li: removed <li class="agility_4 completed"> Buy milk </li>']}
    assert judge("harmful", reported, plain).status == CONFIRMED


def test_only_a_class_names_ending_digits_are_abstracted() -> None:
    line = '  <li class="agility_12 col-6 h1 x" data-id="7" id="ember12">3 items left'
    assert abstract_counters(line) == '  <li class="agility_# col-# h# x" data-id="7" id="ember12">3 items left'
    assert abstract_counters("  12 items left") == "  12 items left"


def test_an_element_numbered_in_its_id_matches_webr4s_item_of_it() -> None:
    plain = {"dom": ['#ember125 > li: "Buy milk" → "Walk the dog"']}
    assert judge("harmful", {"dom": ['#ember123 > li: "Buy milk" → "Walk the dog"']}, plain).status == CONFIRMED


def test_the_note_of_ids_renamed_alike_confirms_nothing() -> None:
    note = "ignored, renamed alike wherever referenced: #todo-input-2 → #todo-input-1"
    reported = {"dom": ['ul#todo-list > li: removed <li class="completed">…', note]}
    plain = {"dom": ['#toggle-all: checked "false" → "true"', note]}
    assert judge("harmful", reported, plain).status != CONFIRMED
