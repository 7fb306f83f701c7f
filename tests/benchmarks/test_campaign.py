"""The campaign benchmark's pure parts: the campaign file it writes, and the words it builds from
two runs' figures."""

from __future__ import annotations

from pathlib import Path

from benchmarks.campaign import CampaignRun, EntryResult, agreement, limits, write_source
from benchmarks.corpora import load_apps
from webr4.campaign.sources import read_source


def entry(name: str, started: float, finished: float, harmful: int = 1, races: int = 4) -> EntryResult:
    return EntryResult(name, "finished", {"harmful": harmful}, 3, "exhausted", finished - started - 2.0,
                       started, started + 2.0, finished, seed_races=races)


def test_each_app_is_an_entry_of_its_name_with_the_corpus_session(tmp_path: Path) -> None:
    corpus = load_apps()
    entries = read_source(write_source(corpus, "http://127.0.0.1:1/", tmp_path))
    assert [e.name for e in entries] == [app.name for app in corpus.apps]


def test_a_difference_in_verdicts_is_told_with_the_races_of_both_recordings() -> None:
    one = CampaignRun("local:1", 60.0, 1, 2.0, [entry("vue", 2, 30), entry("react", 30, 58, harmful=0)])
    two = CampaignRun("local:2", 40.0, 1, 2.0, [entry("vue", 2, 38, harmful=2, races=5),
                                                 entry("react", 2, 25, harmful=0)])
    assert agreement(one, two).startswith("The verdict counts agree for 1 of 2 apps and differ for vue (races in "
                                          "its recordings: 4 and 5).")
    assert agreement(one, one) == "The verdict counts of the two runs agree for all 2 apps."


def test_the_paragraph_names_the_longest_entry_and_the_tail_it_ran_alone() -> None:
    one = CampaignRun("local:1", 60.0, 1, 2.0, [entry("vue", 2, 30), entry("react", 30, 58)])
    two = CampaignRun("local:2", 40.0, 1, 2.0, [entry("vue", 2, 38), entry("react", 2, 25)])
    words = limits(one, two, cores=2)
    assert words.startswith("Two workers made the campaign 1.50× as fast (60 s → 40 s) on 2 cores.")
    assert "The longest entry, vue, took 36 s" in words and "the last one ran alone for 15 s" in words
    assert "4 s of the one-worker run (7%) went to recordings, and 4 s with two" in words
