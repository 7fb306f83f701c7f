"""A call's callee in V8's words, read from the page's own source.

V8 names the callee in some of its messages (``window.loaded is not a function``, ``App is not a
constructor``), printing the expression as it ran. In code webr4 rewrote, that expression is the
rewritten one (``__webr4.log.m(...).loaded``); :func:`page_message` puts back what V8 prints
for the page's own expression at the same place. The printing follows what Chromium prints (checked
against it by ``tests/browser/test_page_text.py``): names and ``this`` as they are, ``o.p`` and
``o?.p``, a string key as a dotted name (``o['x']`` is ``o.x``), other keys in brackets, a call as
``f(...)``, a template or string literal in double quotes, anything else as
``(intermediate value)``.
"""

from __future__ import annotations

from tree_sitter import Node

from webr4.instrument.syntax import parse, source_text, unparen

SERVED_MARK = "__webr4"  # what every name the rewriter adds starts with
_CALLEE_MESSAGES = (" is not a function", " is not a constructor")
_INTERMEDIATE = "(intermediate value)"


def page_message(message: str, source: str, offset: int) -> str:
    """``message`` (as Chromium gave it for the served code) with the callee it names printed from
    the page's ``source`` instead, for the call or ``new`` at character ``offset`` of ``source``;
    ``message`` as it is when it names no served code or nothing is found there."""
    if SERVED_MARK not in message:
        return message
    for ending in _CALLEE_MESSAGES:
        head, found, tail = message.partition(ending)
        if not found or SERVED_MARK not in head:
            continue
        callee = _callee_at(source, offset)
        if callee is None:
            return message
        prefix, colon, served = head.rpartition(": ")  # "Uncaught TypeError: <callee>"
        start = len(prefix) + len(colon) if colon and SERVED_MARK not in prefix else 0
        return f"{head[:start]}{callee}{found}{tail}"
    return message


def _callee_at(source: str, offset: int) -> str | None:
    """V8's print of the callee of the innermost call or ``new`` that V8 points at ``offset``: its
    callee's last name (``o.f`` in ``o.f()``), its arguments when the callee ends in brackets or
    parentheses (``o[k]()``, ``(o.f)()``), the keyword of a ``new``."""
    data = source.encode()
    point = len(source[:offset].encode())
    node: Node | None = parse(data).root_node.descendant_for_byte_range(point, point)
    while node is not None:
        if node.type in ("call_expression", "new_expression"):
            callee = node.child_by_field_name("function" if node.type == "call_expression" else "constructor")
            arguments = node.child_by_field_name("arguments")
            if callee is not None and (callee.start_byte <= point < callee.end_byte or node.start_byte == point
                                       or (arguments is not None and arguments.start_byte == point)):
                return _print(callee)
        node = node.parent
    return None


def _print(node: Node) -> str:
    node = unparen(node)
    kind = node.type
    if kind in ("identifier", "this", "property_identifier", "number", "true", "false", "null", "undefined"):
        return source_text(node)
    if kind in ("string", "template_string"):
        return f'"{source_text(node)[1:-1]}"'
    if kind == "member_expression":
        target, name = node.child_by_field_name("object"), node.child_by_field_name("property")
        if target is None or name is None:
            return _INTERMEDIATE
        dot = "?." if node.child_by_field_name("optional_chain") is not None else "."
        return f"{_print(target)}{dot}{source_text(name)}"
    if kind == "subscript_expression":
        target, key = node.child_by_field_name("object"), node.child_by_field_name("index")
        if target is None or key is None:
            return _INTERMEDIATE
        key = unparen(key)
        if key.type == "string":
            return f"{_print(target)}.{source_text(key)[1:-1]}"
        return f"{_print(target)}[{_print(key)}]"
    if kind == "call_expression":
        callee = node.child_by_field_name("function")
        if callee is None:
            return _INTERMEDIATE
        inner = unparen(callee)
        return _print(inner) if inner.type == "call_expression" else f"{_print(inner)}(...)"
    return _INTERMEDIATE
