"""Only real event handler attributes are rewritten, found as the HTML tokenizer finds attributes."""

from __future__ import annotations

import pytest

from webr4.instrument.cache import CachedRewriter
from webr4.instrument.document import instrument_document
from webr4.instrument.tags import read_start_tag


def attributes(tag: str) -> dict[str, str]:
    parsed = read_start_tag(tag, 0)
    assert parsed.end == len(tag)
    return {a.name: tag[a.value_start : a.value_end] for a in parsed.attributes}


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ('<input placeholder="e.g. online=yes" ONCLICK=go()>', {"placeholder": "e.g. online=yes", "onclick": "go()"}),
        ("<div data-note='set onerror=x' title=a/>", {"data-note": "set onerror=x", "title": "a/"}),
        ('<p a="1"b=2 c = "3" d e/ f>', {"a": "1", "b": "2", "c": "3", "d": "", "e": "", "f": ""}),
        ('<p onclick="first()" onclick="second()">', {"onclick": "first()"}),
        ('<p =x="1" a"b=2>', {"=x": "1", 'a"b': "2"}),
        ('<img src=a.png alt="x > y">', {"src": "a.png", "alt": "x > y"}),
    ],
)
def test_attribute_values_are_where_the_tokenizer_puts_them(tag, expected):
    assert attributes(tag) == expected


def test_a_tag_cut_off_by_the_end_of_the_document():
    parsed = read_start_tag('<a title="never closed', 0)
    assert parsed.end == len('<a title="never closed') and parsed.attributes[0].name == "title"


PAGE = """<!doctype html><html><head><title>A <b onclick="x()">title</b></title></head>
<body onload="ready()" ononline="back()">
<input id="q" placeholder="e.g. online=yes" data-note='set onerror=x' onfocus=track()>
<div online="yes" onclick="count++">x</div>
<textarea><i onclick="y()"></i></textarea>
</body></html>"""


def test_only_event_handler_attributes_are_rewritten():
    served = instrument_document(PAGE, "http://app.test/", CachedRewriter(), "d").html
    assert 'placeholder="e.g. online=yes" data-note=\'set onerror=x\'' in served
    assert '<div online="yes" onclick="' in served and 'onclick="count++"' not in served
    assert 'onfocus="' in served and "onfocus=track()" not in served
    # Handlers of the window on <body>, and handler attributes only on elements.
    assert 'onload="ready()"' not in served and 'ononline="back()"' not in served
    assert '<title>A <b onclick="x()">title</b></title>' in served
    assert '<textarea><i onclick="y()"></i></textarea>' in served
