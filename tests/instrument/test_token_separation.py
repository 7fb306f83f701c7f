"""Inserted helper calls never fuse with a neighbouring keyword (minified code)."""

from __future__ import annotations

from webr4.instrument import rewrite
from webr4.instrument.syntax import parse


def test_a_call_inserted_after_else_stays_a_separate_token():
    source = "var o={p:'m'};var r;if(0){}else/^m$/.test(o.p)?r=1:r=2;"
    code = rewrite(source, "https://site/min.js").code
    assert "else__webr4" not in code
    assert not parse(code.encode()).root_node.has_error
