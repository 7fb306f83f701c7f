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
ANONYMOUS_DEFINITION_TYPES = frozenset({"function_expression", "generator_function", "arrow_function", "class"})


@lru_cache(maxsize=1)
def parser() -> tree_sitter.Parser:
    """The shared JavaScript parser (tree-sitter parsers are cheap to reuse, costly to build)."""
    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_javascript.language()))


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
    while current is not None and current.type in CHAIN_TYPES:
        if current.child_by_field_name("optional_chain") is not None:
            return True
        current = current.child_by_field_name("function" if current.type == "call_expression" else "object")
    return False


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
    for statement in body.named_children:
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
