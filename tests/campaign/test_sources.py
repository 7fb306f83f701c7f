"""A campaign's entries, read from its source before anything runs: their names, and one line
(status 2) for whatever cannot be read. No browser starts here."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from webr4.campaign.sources import Flow, SourceError, read_source
from webr4.cli import main
from webr4.rundir.campaign import FAILED, Campaign, CampaignDir, CampaignEntry


def test_a_campaign_file_names_its_entries_after_their_actions_file_or_url_path(tmp_path):
    (tmp_path / "flows").mkdir()
    (tmp_path / "flows" / "pay.json").write_text(json.dumps([{"click": "#pay"}, {"wait": 100}]))
    source = tmp_path / "campaign.txt"
    source.write_text("# the shop's flows\n\n"
                      "http://shop.test/#/cart  # a hash route: its '#' is no comment\n"
                      "http://shop.test/shop/cart/\n"
                      "http://shop.test/shop/cart/?again=1   # the same path again\n"
                      "http://shop.test/checkout flows/pay.json\n")
    entries = read_source(source)
    assert [(e.name, e.source) for e in entries] == [
        ("shop.test", "http://shop.test/#/cart"),
        ("shop-cart", "http://shop.test/shop/cart/"),
        ("shop-cart-2", "http://shop.test/shop/cart/?again=1"),
        ("pay", "http://shop.test/checkout flows/pay.json"),
    ]
    assert entries[3].work == Flow("http://shop.test/checkout", [{"click": "#pay"}, {"wait": 100}])


def test_a_directory_holds_actions_files_with_their_page(tmp_path):
    (tmp_path / "cart.json").write_text(json.dumps({"url": "http://shop.test/", "actions": [{"click": "#add"}]}))
    (tmp_path / "home.json").write_text(json.dumps({"url": "http://shop.test/"}))
    (tmp_path / "README.md").write_text("left alone")
    assert [(e.name, e.work) for e in read_source(tmp_path)] == [
        ("cart", Flow("http://shop.test/", [{"click": "#add"}])), ("home", Flow("http://shop.test/", []))]


@pytest.mark.parametrize("lines, said", [
    ("http://a.test/\nftp://a.test/ x.json\n", "campaign.txt, line 2: ftp://a.test/ is not an http:// or https:// URL"),
    ("\n# one\nhttp://a.test/ missing.json\n", "campaign.txt, line 3: cannot read the actions file"),
    ("http://a.test/ a.json b.json\n", "campaign.txt, line 1: expected 'URL [ACTIONS_FILE]', got 3 words"),
    ("http://a.test/ bad.json\n", "bad.json: action 1 must have exactly one of"),
])
def test_a_bad_line_is_one_line_naming_it_before_anything_runs(tmp_path, lines, said):
    (tmp_path / "bad.json").write_text(json.dumps([{"clack": "#x"}]))
    source = tmp_path / "campaign.txt"
    source.write_text(lines)
    result = CliRunner().invoke(main, ["campaign", str(source), "--out", str(tmp_path / "run")])
    assert result.exit_code == 2, result.output
    assert said in result.output and result.output.count("\n") == 1
    assert not (tmp_path / "run").exists()


def test_a_plain_list_of_steps_in_a_directory_is_refused_naming_its_file(tmp_path):
    (tmp_path / "steps.json").write_text(json.dumps([{"click": "#add"}]))
    with pytest.raises(SourceError, match=r"steps\.json: an actions file in a campaign directory holds"):
        read_source(tmp_path)


@pytest.mark.parametrize("make", [lambda path: None, lambda path: path.mkdir()], ids=["missing", "empty"])
def test_a_source_with_no_entries_is_status_2(tmp_path, make):
    make(tmp_path / "source")
    result = CliRunner().invoke(main, ["campaign", str(tmp_path / "source"), "--out", str(tmp_path / "run")])
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output


def test_resuming_with_other_entries_is_refused_before_anything_runs(tmp_path):
    source = tmp_path / "campaign.txt"
    source.write_text("http://a.test/one\n")
    run = tmp_path / "run"
    CampaignDir(run).write(Campaign(str(source), [CampaignEntry("two", "http://a.test/two")]))
    result = CliRunner().invoke(main, ["campaign", str(source), "--out", str(run), "--resume"])
    assert result.exit_code == 2 and "lists other entries than the campaign" in result.output, result.output


def test_export_of_a_campaign_writes_a_testsuite_per_entry_even_one_that_failed(tmp_path):
    run = tmp_path / "run"
    CampaignDir(run).write(Campaign("campaign.txt", [CampaignEntry("down", "http://a.test/", FAILED, error="gone")],
                                    status=FAILED))
    junit = tmp_path / "junit.xml"
    refused = CliRunner().invoke(main, ["export", str(run), "--junit", str(junit)])
    assert refused.exit_code == 2 and "down" in refused.output
    result = CliRunner().invoke(main, ["export", str(run), "--junit", str(junit), "--allow-unfinished"])
    assert result.exit_code == 0, result.output
    suites = ET.parse(junit).getroot().findall("testsuite")
    assert [(s.get("name"), s.get("errors")) for s in suites] == [("down", "1")]
