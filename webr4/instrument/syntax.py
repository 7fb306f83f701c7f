"""Parsing JavaScript with tree-sitter, and small questions about the resulting syntax nodes."""

from __future__ import annotations

from functools import lru_cache

import tree_sitter
import tree_sitter_javascript
from tree_sitter import Node

MEMBER_TYPES = frozenset({"member_expression", "subscript_expression"})
CHAIN_TYPES = frozenset({"member_expression", "subscript_expression", "call_expression"})
FUNCTION_TYPES = frozenset(
    {
        "function_declaration",
        "function_expression",
        "generator_function_declaration",
        "generator_function",
        "arrow_function",
        "method_definition",
    }
)
STRING_EVALUATORS = frozenset({"setTimeout", "setInterval"})
"""The timers that evaluate code given to them as a string."""
ANONYMOUS_DEFINITION_TYPES = frozenset({"function_expression", "generator_function", "arrow_function", "class"})


@lru_cache(maxsize=1)
def parser() -> tree_sitter.Parser:
    """The shared JavaScript parser (tree-sitter parsers are cheap to reuse, costly to build)."""
    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_javascript.language()))


@lru_cache(maxsize=1)
def kind_names() -> tuple[str, ...]:
    """Every node type of the grammar, indexed by kind id (``Node.kind_id`` names ``Node.type``)."""
    language = tree_sitter.Language(tree_sitter_javascript.language())
    return tuple(language.node_kind_for_id(kind) or "" for kind in range(language.node_kind_count))


def parse(source: bytes) -> tree_sitter.Tree:
    """Parse UTF-8 JavaScript source; the tree's byte offsets index into ``source``."""
    return parser().parse(source)


def unparen(node: Node) -> Node:
    """The expression inside any number of parentheses around ``node``."""
    while node.type == "parenthesized_expression":
        inner = [child for child in node.named_children if child.type != "comment"]
        if len(inner) != 1:
            return node
        node = inner[0]
    return node


def source_text(node: Node) -> str:
    """The source text of ``node``: every tree here is parsed from bytes, so every node has one."""
    if node.text is None:
        raise ValueError(f"{node.type} node without source text")
    return node.text.decode()


def in_optional_chain(node: Node) -> bool:
    """Whether ``node`` (a member access or call) belongs to a chain that ``?.`` can short-circuit."""
    current: Node | None = node
    while current is not None:
        kind = current.type
        if kind not in CHAIN_TYPES:
            return False
        head = _plain_chain_head(current, kind)
        if head is not None:
            current = head
        elif current.child_by_field_name("optional_chain") is not None:
            return True
        else:
            current = current.child_by_field_name("function" if kind == "call_expression" else "object")
    return False


def _plain_chain_head(link: Node, kind: str) -> Node | None:
    """The object (or callee) of the chain link ``link`` (of type ``kind``) when its children show
    at a glance that it has no ``?.``: exactly ``o`` ``.`` ``p``, ``o`` ``[`` ``k`` ``]`` or ``f``
    ``(…)``, nothing else (no comment) among them; else ``None``, and the fields have to be asked for."""
    children = link.children
    count = len(children)
    if kind == "call_expression":
        return children[0] if count == 2 else None
    if kind == "member_expression":
        return children[0] if count == 3 and children[1].type == "." else None
    return children[0] if count == 4 and children[1].type == "[" else None


def member_parts(node: Node) -> tuple[Node | None, Node | None, Node | None, Node | None]:
    """The parts of a property access: ``(object, ".", property, None)`` for ``o.p`` (a
    ``member_expression``) and ``(object, "[", "]", index)`` for ``o[k]`` (a
    ``subscript_expression``), each ``None`` when the node has no such part (``o?.p`` has no
    ``.``). The tokens are the node's first of their type."""
    children = node.children
    if node.type == "member_expression":
        if len(children) == 3 and children[1].type == ".":
            return children[0], children[1], children[2], None
        return (node.child_by_field_name("object"), child_of_type(node, "."),
                node.child_by_field_name("property"), None)
    if len(children) == 4 and children[1].type == "[" and children[3].type == "]":
        return children[0], children[1], children[3], children[2]
    return (node.child_by_field_name("object"), child_of_type(node, "["), child_of_type(node, "]"),
            node.child_by_field_name("index"))


def call_parts(node: Node) -> tuple[Node | None, Node | None]:
    """``(function, arguments)`` of a ``call_expression``."""
    children = node.children
    if len(children) == 2:
        return children[0], children[1]
    return node.child_by_field_name("function"), node.child_by_field_name("arguments")


def child_of_type(node: Node, kind: str) -> Node | None:
    """The first direct child (named or anonymous) of type ``kind``."""
    for child in node.children:
        if child.type == kind:
            return child
    return None


def is_directive(statement: Node) -> bool:
    """Whether ``statement`` is a directive-prologue entry (an expression statement of a lone string)."""
    if statement.type != "expression_statement":
        return False
    named = [child for child in statement.named_children if child.type != "comment"]
    return len(named) == 1 and named[0].type == "string"


def has_use_strict(body: Node) -> bool:
    """Whether the statement list ``body`` (program or function body) starts with ``"use strict"``."""
    return starts_with_use_strict(body.named_children)


def starts_with_use_strict(statements: list[Node]) -> bool:
    """Whether ``statements`` (a body's named children) start with a ``"use strict"`` directive."""
    for statement in statements:
        if statement.type in ("comment", "hashbang_comment"):
            continue
        if not is_directive(statement):
            return False
        text = statement.named_children[0].text
        if text in (b'"use strict"', b"'use strict'"):
            return True
    return False


def first_statement(body: Node) -> Node | None:
    """The first statement of ``body`` after its directive prologue and comments, if any."""
    in_prologue = True
    for statement in body.named_children:
        if statement.type in ("comment", "hashbang_comment"):
            continue
        if in_prologue and is_directive(statement):
            continue
        in_prologue = False
        return statement
    return None


def is_anonymous_definition(node: Node) -> bool:
    """Whether ``node`` is an anonymous function or class, which takes its name from its binding."""
    node = unparen(node)
    if node.type not in ANONYMOUS_DEFINITION_TYPES:
        return False
    return node.type == "arrow_function" or node.child_by_field_name("name") is None


def contains_suspension(node: Node) -> bool:
    """Whether ``node`` contains ``yield`` or ``await`` outside nested functions."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in ("yield_expression", "await_expression"):
            return True
        stack.extend(child for child in current.named_children if child.type not in FUNCTION_TYPES)
    return False


def is_string_timer(callee: Node | None, kind: str, arguments: Node) -> bool:
    """Whether a call of ``callee`` (of node type ``kind``) with ``arguments`` sets a timer given
    code as a string."""
    if callee is None or arguments.type != "arguments":
        return False
    if kind == "member_expression":
        callee = member_parts(callee)[2]
    if callee is None or source_text(callee) not in STRING_EVALUATORS:
        return False
    first = next((a for a in arguments.named_children if a.type != "comment"), None)
    return first is not None and first.type in ("string", "template_string", "binary_expression")
