"""Grouped exploration against plain R4 on models: reversals racing through one pair of sites, on
one location, on one object's keys, or on one property of many objects."""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from models import CELLS, models

from webr4.engine.grouping import GroupKey, Represented, ReversalGroups, location_kind
from webr4.engine.plans import Reversal
from webr4.engine.r4 import R4Explorer, explore
from webr4.engine.testing.model import Cancel, Create, Model, ModelEvent, ModelExecutor, Op, Read, State, Write
from webr4.trace import Category

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


@dataclass
class Sweep:
    """What a sweep over a model explored: each sequence run with its end state and its parent's,
    and the reversals a representative stood for."""

    ran: list[tuple[int, GroupKey | None, State, State]] = field(default_factory=list)
    represented: list[Represented] = field(default_factory=list)

    def harmful_states(self) -> set[State]:
        """The end states of sequences that differ from their parent's."""
        return {state for _index, _key, state, parent in self.ran if state != parent}


def sweep(model: Model, bound: int, *, exhaustive: bool = False) -> Sweep:
    """R4 on ``model`` from its default run, deciding as the sweep does: a plan a representative
    stands for is withdrawn, every other runs and is judged (agreeing when its end state is its
    parent's)."""
    executor = ModelExecutor(model)
    seed = executor.execute([])
    strategy, groups = R4Explorer(seed, bound), ReversalGroups(bound, exhaustive=exhaustive)
    states = {0: model.final_state(seed.sequence)}
    result = Sweep()
    while (planned := strategy.next_plan()) is not None:
        represented = groups.admit(planned)
        if represented is not None:
            strategy.withdraw(planned)
            result.represented.append(represented)
            continue
        trace = executor.execute(planned.plan)
        strategy.observe(planned, trace)
        state, parent = model.final_state(trace.sequence), states[planned.derived_from]
        states[planned.index] = state
        groups.judged(planned.index, agrees=state == parent)
        result.ran.append((planned.index, GroupKey.of(planned.reversal), state, parent))
    return result


def loader(*programs: tuple[Op, ...]) -> Model:
    """The scripts a loader fetches, each running its program through the loader's one function
    ``define``: their races go through the same sites, whatever values they write."""
    return Model([ModelEvent(f"m{k}", program, root=True, category=Category.NETWORK, code="define")
                  for k, program in enumerate(programs)])


KEYED = "prop:7.module-"
"""A cell of one object that each module reaches under a key of its own (a loader's ``cache[id]``)."""


@st.composite
def loader_models(draw: st.DrawFn) -> Model:
    """A random small model beside two or three modules of one shape (the same reads and writes
    of the same cells, so the same sites), each writing values of its own; a cell may be one
    object's property under the module's own key, or one property of the module's own object."""
    base = draw(models(max_events=3))
    cells = st.sampled_from((*CELLS, "queue", KEYED, "prop:own.length", "scope:own:queue"))
    shape = draw(st.lists(st.tuples(st.booleans(), cells), min_size=1, max_size=3))

    count = draw(st.integers(2, 3))

    def cell(name: str, module: int, writes: bool) -> str:  # a module reads the next one's key
        if name == KEYED:
            return f"{name}{module if writes else (module + 1) % count}"
        return name.replace("own", str(100 + module))

    programs = [tuple(Write(cell(name, k, True), draw(st.integers(0, 1))) if writes else Read(cell(name, k, False))
                      for writes, name in shape)
                for k in range(count)]
    return Model([*base.events.values(), *loader(*programs).events.values()])


def _members_agree(plain: Sweep) -> bool:
    """Whether every member of each group has the outcome of the group's first member."""
    outcomes: dict[GroupKey, bool] = {}
    for _index, key, state, parent in plain.ran:
        if key is not None and outcomes.setdefault(key, state == parent) != (state == parent):
            return False
    return True


@PROPERTY
@given(loader_models(), st.integers(1, 2))
def test_grouping_finds_every_harmful_end_state_when_members_agree_with_their_representative(
        model: Model, bound: int) -> None:
    plain = sweep(model, bound, exhaustive=True)
    assume(_members_agree(plain))
    grouped = sweep(model, bound)
    assert plain.harmful_states() <= grouped.harmful_states()
    assert len(grouped.ran) <= len(plain.ran)


@PROPERTY
@given(models(max_events=5), st.integers(1, 2))
def test_an_exhaustive_sweep_explores_what_plain_r4_explores(model: Model, bound: int) -> None:
    executor = ModelExecutor(model)
    plain = explore(executor, executor.execute([]), bound)
    exhaustive = sweep(model, bound, exhaustive=True)
    assert [index for index, *_ in exhaustive.ran] == [record.planned.index for record in plain.explored[1:]]
    assert not exhaustive.represented


def test_a_harmless_representative_stands_for_the_rest_of_its_group() -> None:
    append = (Read("queue"), Write("queue", 1))  # each module appends to the loader's queue: any order ends alike
    grouped = sweep(loader(append, append, append), bound=1)
    (representative, *_), = grouped.ran  # three modules race pairwise: one of the three reversals runs
    assert [r.representative for r in grouped.represented] == [representative, representative]


def test_a_representative_that_disagrees_gets_the_rest_of_its_group_explored() -> None:
    # each module sets the loader's last definition: the order decides which stays
    model = loader((Write("last", 0),), (Write("last", 1),), (Write("last", 2),))
    grouped, plain = sweep(model, bound=1), sweep(model, bound=1, exhaustive=True)
    assert not grouped.represented
    assert grouped.ran == plain.ran
    assert len(grouped.ran) == 3 and len({key for _index, key, *_ in grouped.ran}) == 1


def test_one_code_on_many_keys_of_an_object_is_one_group() -> None:
    # a loader records each module under its own key of its cache and looks up the next one's,
    # through the same two lines: three races on three keys, the lines in either order
    model = loader(*((Read(f"{KEYED}{(k + 1) % 3}"), Write(f"{KEYED}{k}", 0)) for k in range(3)))
    plain = sweep(model, bound=1, exhaustive=True)
    keys = {key for _index, key, *_ in plain.ran if key is not None}
    assert len(plain.ran) == 3 and {key.location for key in keys} == {"prop:"} and len(keys) == 2
    assert len(sweep(model, bound=1).ran) == len(keys)


def test_a_location_kind_keeps_what_a_site_cannot_tell_apart() -> None:
    assert [location_kind(loc) for loc in ("prop:19.app/list", "scope:482:handlerQueue", "event:t1~x",
                                           "dom:head.children", "global:queue")] == [
        "prop:", "scope:handlerQueue", "event:", "dom:head.children", "global:queue"]


def test_disabled_timers_of_one_code_group_by_the_code_that_set_them() -> None:
    # two promises each set a timeout, and each one's resolution (a tick of one code) clears it
    timeouts = [ModelEvent(f"t{k}", (Write("failed", 1),), category=Category.TIMER, delay=5000, code="timeout")
                for k in range(2)]
    ticks = [ModelEvent(f"r{k}", (Cancel(f"t{k}"),), root=True, code="tick") for k in range(2)]
    setters = [ModelEvent(f"s{k}", (Create(f"t{k}"),), root=True, code="promise") for k in range(2)]
    plain = sweep(Model([*setters, *ticks, *timeouts]), bound=1, exhaustive=True)
    disabling = [key for _index, key, *_ in plain.ran if key is not None and key.sides[0].startswith("code:")]
    codes = ("model from tick", "model from timeout")
    assert disabling == [GroupKey("event:", (f"code:{codes[0]}", f"code:{codes[1]}"), codes)] * 2


def test_one_line_reached_from_different_events_keeps_them_apart() -> None:
    # Vue's batcher marks has[id] through the same two lines for an update a timer queued and for
    # one a key press queued: the key press can do harm where a click did not
    sites = ("vue.js:3574:10", "vue.js:3544:26")
    click, key = (Reversal("t1", "u1", "prop:40.7", sites=sites, codes=("setTimeout from vue.js:745:9", step))
                  for step in ("user click #filters a", "user keyup #new-todo Enter"))
    assert GroupKey.of(click) != GroupKey.of(key)
    assert GroupKey.of(click) == GroupKey.of(Reversal("t2", "u1", "prop:41.9", sites=sites, codes=click.codes))
