"""An exception thrown in rewritten code, as V8 reports it for the page's own source.

V8 names some expressions in its messages (``window.loaded is not a function``, ``Cannot
destructure property 'a' of 'o.x'``), printing the expression as it ran, and points at the
place in it that failed. In code webr4 rewrote, that expression is the rewritten one
(``__webr4.log.m(...).loaded``), and a property read or write that fails, fails inside the
runtime's wrapper, so the first frame of the page's code is the wrapper's call. :func:`page_error`
gives the message and the position V8 gives for the page's own code at that place.

The printing follows Chromium (checked against it by ``tests/browser/test_page_text.py``): names
and ``this`` as they are, ``o.p`` and ``o?.p``, a string key as a dotted name (``o['x']`` is
``o.x``), other keys in brackets, a call as ``f(...)``, a template or string literal in double
quotes, anything else as ``(intermediate value)``. The positions: a failed call at its callee's
last name, or at its arguments when the callee ends in brackets or parentheses; a failed ``new``
at its keyword; a failed read at the property's name (``[`` for a key in brackets; the dot
when it reads from a call's result), in a compound update (``o.x.y += 1``) at its object's; a
failed write at its ``=``; what a spread or ``for … of`` cannot iterate over at its name.
"""

from __future__ import annotations

import re
from functools import lru_cache

import tree_sitter
from tree_sitter import Node

from webr4.instrument.syntax import MEMBER_TYPES, parse, source_text, unparen

SERVED_MARK = "__webr4"  # what every name the rewriter adds starts with
_CALLEE = re.compile(r"^(.*?: )?(?P<expr>.*__webr4.*?)(?P<end> is not (a function|a constructor)\b.*)$", re.S)
_ITERATED = re.compile(r"^(.*?: )?(?P<expr>.*__webr4.*?)(?: is not a function or its return value)?"
                       r"(?P<end> is not iterable.*)$", re.S)
_DESTRUCTURED = re.compile(r"^(?P<head>.*Cannot destructure .* of ')(?P<expr>.*__webr4.*)(?P<end>' as it is .*)$", re.S)
_READ = re.compile(r"Cannot read properties of (undefined|null) \(reading '(?P<key>.*)'\)")
_WRITE = re.compile(r"Cannot set properties of (undefined|null) \(setting '(?P<key>.*)'\)")
_UNDEFINED = re.compile(r"ReferenceError: (?P<name>[\w$]+) is not defined")
_INTERMEDIATE = "(intermediate value)"


def page_error(message: str, source: str, offset: int) -> tuple[str, int]:
    """``message`` and the character ``offset`` in the page's ``source`` that webr4 took from the
    served code, as V8 gives them for ``source``; unchanged where nothing in ``source`` tells."""
    if not any(pattern.search(message) for pattern in (_ITERATED, _CALLEE, _DESTRUCTURED, _READ, _WRITE, _UNDEFINED)):
        return message, offset
    data, tree = _parsed(source)
    point = len(source[:offset].encode())
    at: Node | None = tree.root_node.descendant_for_byte_range(point, point)
    if at is None:
        return message, offset
    byte = point
    if (match := _ITERATED.match(message)) is not None:
        iterated = _iterated(at)
        if iterated is not None:
            message = f"{match.group(1) or ''}{_print(iterated)}{match.group('end')}"
            spread = iterated.parent
            in_call = spread is not None and spread.parent is not None and spread.parent.type == "arguments"
            byte = point if in_call else _name_position(iterated)  # V8 points at a call with a spread
    elif (match := _CALLEE.match(message)) is not None:
        call = _failed_call(at, point)
        if call is not None:
            message = f"{match.group(1) or ''}{_print(_callee(call))}{match.group('end')}"
            byte = _call_position(call, point)
    elif (match := _DESTRUCTURED.match(message)) is not None:
        value = _destructured(at)
        if value is not None:
            message = f"{match.group('head')}{_print(value)}{match.group('end')}"
    elif (match := _READ.search(message)) is not None:
        byte = _read_position(at, match.group("key"), point)
    elif (match := _WRITE.search(message)) is not None:
        byte = _write_position(at, match.group("key"), point)
    elif (match := _UNDEFINED.search(message)) is not None:
        parent = at.parent
        if at.type == "identifier" and parent is not None and parent.type == "new_expression":
            byte = parent.start_byte
    return message, len(data[:byte].decode(errors="replace"))


@lru_cache(maxsize=8)
def _parsed(source: str) -> tuple[bytes, tree_sitter.Tree]:
    """One source as UTF-8 and its parse: a script that throws again and again is parsed once."""
    data = source.encode()
    return data, parse(data)


def _ancestors(node: Node | None):
    while node is not None:
        yield node
        node = node.parent


def _iterated(at: Node) -> Node | None:
    """What the innermost spread or ``for … of`` around ``at`` iterates over; for a call V8
    points at (its start), what the spread among its arguments does."""
    for node in _ancestors(at):
        if node.type == "spread_element":
            return node.named_children[0] if node.named_children else None
        if node.type == "for_in_statement" and any(c.type == "of" for c in node.children):
            return node.child_by_field_name("right")
        arguments = node.child_by_field_name("arguments") if node.type == "call_expression" else None
        spreads = [c for c in arguments.named_children if c.type == "spread_element"] if arguments else []
        if node.start_byte == at.start_byte and len(spreads) == 1 and spreads[0].named_children:
            return spreads[0].named_children[0]
    return None


def _name_position(node: Node) -> int:
    """Where V8 points at a value it found unusable: a property's name, else the expression."""
    node = unparen(node)
    name = node.child_by_field_name("property") if node.type == "member_expression" else None
    return name.start_byte if name is not None else node.start_byte


def _callee(call: Node) -> Node:
    callee = call.child_by_field_name("function" if call.type == "call_expression" else "constructor")
    assert callee is not None
    return callee


def _failed_call(at: Node, point: int) -> Node | None:
    """The innermost call or ``new`` whose callee holds ``point``, that starts there (a ``new``),
    or whose arguments start there."""
    for node in _ancestors(at):
        if node.type in ("call_expression", "new_expression") and node.child_by_field_name(
                "function" if node.type == "call_expression" else "constructor") is not None:
            callee, arguments = _callee(node), node.child_by_field_name("arguments")
            if (callee.start_byte <= point < callee.end_byte or node.start_byte == point
                    or (arguments is not None and arguments.start_byte == point)):
                return node
    return None


def _call_position(call: Node, point: int) -> int:
    if call.type == "new_expression":
        return call.start_byte
    callee = _callee(call)  # in parentheses, V8 points at the arguments
    arguments = call.child_by_field_name("arguments")
    if callee.type == "member_expression" and (name := callee.child_by_field_name("property")) is not None:
        return name.start_byte
    if callee.type in ("identifier", "this"):
        return callee.start_byte
    return arguments.start_byte if arguments is not None else point


def _key(member: Node) -> str | None:
    """The property name ``member`` reads, when its source shows it."""
    if member.type == "member_expression":
        name = member.child_by_field_name("property")
        return source_text(name) if name is not None else None
    index = member.child_by_field_name("index")
    if index is not None and unparen(index).type == "string":
        return source_text(unparen(index))[1:-1]
    return None


def _members(at: Node) -> list[Node]:
    """The property accesses around ``at``, innermost first: those it is in, and the objects
    they are read from (webr4's place may be the start of a chain: ``o`` of ``o.x.y``)."""
    found = [n for n in _ancestors(at) if n.type in MEMBER_TYPES]
    chain, node = [], found[-1] if found else at
    while node.type in MEMBER_TYPES:
        chain.append(node)
        inner = node.child_by_field_name("object")
        if inner is None:
            break
        node = inner
    return list(dict.fromkeys(chain[::-1] + found))


def _pick(members: list[Node], key: str) -> Node | None:
    named = [m for m in members if _key(m) == key]
    if len(named) == 1:
        return named[0]
    computed = [m for m in members if m.type == "subscript_expression" and _key(m) is None]
    return computed[0] if not named and len(computed) == 1 else None


def _read_position(at: Node, key: str, point: int) -> int:
    member = _pick(_members(at), key)
    if member is None:
        return point
    parent = member.parent
    if parent is not None and parent.type in ("update_expression", "augmented_assignment_expression") and (
            parent.child_by_field_name("argument" if parent.type == "update_expression" else "left") == member):
        # V8 points a failed compound update (o.x.y += 1, o.x.y++) at the name of its object's property
        target = member.child_by_field_name("object")
        name = target.child_by_field_name("property") if target is not None else None
        return name.start_byte if target is not None and target.type == "member_expression" and name else point
    target = member.child_by_field_name("object")
    if member.type == "member_expression" and target is not None and unparen(target).type == "call_expression":
        dot = next((c for c in member.children if c.type in (".", "optional_chain")), None)
        return dot.start_byte if dot is not None else point  # V8 points at the dot after a call's result
    if member.type == "member_expression" and (name := member.child_by_field_name("property")) is not None:
        return name.start_byte
    bracket = next((c for c in member.children if c.type == "["), None)
    return bracket.start_byte if bracket is not None else point


def _write_position(at: Node, key: str, point: int) -> int:
    for node in _ancestors(at):
        if node.type == "assignment_expression":
            left = node.child_by_field_name("left")
            if left is not None and left.type in MEMBER_TYPES and _key(left) in (key, None):
                operator = next((c for c in node.children if c.type == "="), None)
                return operator.start_byte if operator is not None else point
    return point


def _destructured(at: Node) -> Node | None:
    for node in _ancestors(at):
        if node.type in ("variable_declarator", "assignment_expression"):
            return node.child_by_field_name("value" if node.type == "variable_declarator" else "right")
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
