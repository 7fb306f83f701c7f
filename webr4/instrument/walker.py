"""Scope analysis: :func:`analyze` walks a syntax tree once, building the lexical scopes and
recording what :mod:`webr4.instrument.scopes` models, then resolves every reference. Code inside
``with`` bodies is walked for declarations only (its references are ambiguous), and so are
references the rewriter cannot wrap safely.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from tree_sitter import Node

from webr4.instrument.scopes import (
    Analysis,
    Form,
    MemberAccess,
    MemberForm,
    Reference,
    Scope,
    ScopeKind,
    Uncontrolled,
    resolve,
)
from webr4.instrument.syntax import (
    MEMBER_TYPES,
    call_parts,
    child_of_type,
    contains_suspension,
    has_use_strict,
    in_optional_chain,
    is_anonymous_definition,
    is_string_timer,
    kind_names,
    member_parts,
    source_text,
    starts_with_use_strict,
    unparen,
)

@dataclass(frozen=True)
class _Ctx:
    strict: bool
    skip: bool


_Role = tuple  # (Form | MemberForm, wrap node, delta, prefix)
_Frame = tuple[list[Node], Scope, _Ctx, "_Role | None"]
"""Nodes still to visit, in the same scope and context (and role, for a lone node); the last first."""

_NOTHING_INSIDE = frozenset(
    {"string", "number", "regex", "this", "super", "null", "true", "false", "undefined", "hashbang_comment"}
)
"""Node types with no reference or property access anywhere inside them."""


class _Walker:
    """One pass over the tree with an explicit stack (minified code nests deeper than recursion allows)."""

    def __init__(self, root: Node, program: Scope, strict: bool) -> None:
        self.references: list[Reference] = []
        self.members: list[MemberAccess] = []
        self.uncontrolled: list[Uncontrolled] = []
        self.imports: list[Node] = []
        self.program = program
        self.stack: list[_Frame] = []
        self.root = root
        self.root_ctx = _Ctx(strict or has_use_strict(root), False)

    # -- driving -----------------------------------------------------------------------------

    def run(self) -> None:
        self._push_children(self.root, self.program, self.root_ctx)
        stack = self.stack
        handlers = _handlers_by_kind()
        ignore = _Walker._ignore
        while stack:
            nodes, scope, ctx, role = stack[-1]
            node = nodes.pop()
            if not nodes:
                stack.pop()
            handler = handlers.get(node.kind_id)
            if handler is None:
                children = node.named_children  # built for this call: the frame may empty it
                if children:
                    stack.append((children, scope, ctx, None))
            elif handler is not ignore:
                handler(self, node, scope, ctx, role)

    def _push(self, node: Node | None, scope: Scope, ctx: _Ctx, role: _Role | None = None) -> None:
        if node is not None:
            self.stack.append(([node], scope, ctx, role))

    def _push_children(self, node: Node, scope: Scope, ctx: _Ctx) -> None:
        self._push_all(node.named_children, scope, ctx)

    def _push_all(self, nodes: list[Node], scope: Scope, ctx: _Ctx) -> None:
        """Visit ``nodes``, a list of the walker's own that it empties as it goes (``Node.children`` is
        tree-sitter's cached list, never to be passed here; ``named_children`` is built per call)."""
        if nodes:
            self.stack.append((nodes, scope, ctx, None))

    def _ignore(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        """Nodes without references (labels, property names, export lists, comments)."""

    def _reference(self, node: Node, scope: Scope, ctx: _Ctx, form: Form, wrap: Node, delta: int = 0) -> None:
        if ctx.skip:
            form = Form.UNLOGGED
        self.references.append(Reference(node, source_text(node), scope, form, wrap, delta))

    # -- expressions -------------------------------------------------------------------------

    def _identifier(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        if role is None:
            self._reference(node, scope, ctx, Form.READ, node)
        else:
            self._reference(node, scope, ctx, role[0], role[1], role[2])

    def _shorthand(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        # ``{__proto__}`` defines an own property, but ``{__proto__: v}`` would set the prototype.
        form = Form.UNLOGGED if node.text == b"__proto__" else Form.SHORTHAND
        self._reference(node, scope, ctx, form, node)

    def _member(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        obj, key_start, key_end, index = member_parts(node)
        if node.type == "member_expression":  # ``o.p``: key_end is the property
            loggable = key_end is not None and key_end.type == "property_identifier"
        else:
            loggable = True
            self._push(index, scope, ctx)
        form = MemberForm.READ if role is None else role[0]
        if (loggable and not ctx.skip and isinstance(form, MemberForm) and obj is not None and obj.type != "super"
                and not in_optional_chain(node)):
            if role is None:
                access = MemberAccess(node, form, node, ctx.strict, 0, False, obj, key_start, key_end)
            else:
                access = MemberAccess(node, form, role[1], ctx.strict, role[2], role[3], obj, key_start, key_end)
            self.members.append(access)
        self._push(obj, scope, ctx)

    def _call(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        callee, arguments = call_parts(node)
        inner = unparen(callee) if callee is not None else None
        kind = inner.type if inner is not None else ""
        if inner is not None and kind == "identifier":
            name = inner.text
            if name == b"eval":
                self.uncontrolled.append(Uncontrolled("eval", node.start_byte))
            elif name == b"Function":
                self.uncontrolled.append(Uncontrolled("Function", node.start_byte))
            self._push(inner, scope, ctx, (Form.CALL, node, 0))
        elif kind in MEMBER_TYPES:
            self._push(inner, scope, ctx, (MemberForm.CALL, node, 0, False))
        elif kind == "import":
            self.imports.append(node)
        else:
            self._push(callee, scope, ctx)
        if arguments is not None:
            if is_string_timer(inner, kind, arguments):
                self.uncontrolled.append(Uncontrolled("string-timer", arguments.start_byte))
            self._push(arguments, scope, ctx)

    def _new(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        constructor = node.child_by_field_name("constructor")
        inner = unparen(constructor) if constructor is not None else None
        if inner is not None and inner.type == "identifier":
            if inner.text == b"Function":
                self.uncontrolled.append(Uncontrolled("Function", node.start_byte))
            self._push(inner, scope, ctx, (Form.NEW, node, 0))
        elif inner is not None and inner.type in MEMBER_TYPES and inner == constructor:
            self._push(inner, scope, ctx, (MemberForm.NEW, node, 0, False))
        else:
            self._push(constructor, scope, ctx)
        self._push(node.child_by_field_name("arguments"), scope, ctx)

    def _unary(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        operator = node.child_by_field_name("operator")
        argument = node.child_by_field_name("argument")
        inner = unparen(argument) if argument is not None else None
        kind = operator.type if operator is not None else ""
        if inner is not None and inner.type == "identifier" and kind in ("typeof", "delete"):
            self._push(inner, scope, ctx, (Form.TYPEOF if kind == "typeof" else Form.DELETE, node, 0))
        elif kind == "delete" and inner is not None and inner.type in MEMBER_TYPES:
            member_role = (MemberForm.DELETE if inner == argument else None, node, 0, False)
            self._push(inner, scope, ctx, member_role)
        else:
            self._push(argument, scope, ctx)

    def _assignment(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        left = node.child_by_field_name("left")
        self._push(node.child_by_field_name("right"), scope, ctx)
        if left is None:
            return
        inner = unparen(left)
        if inner.type == "identifier":
            self._push(inner, scope, ctx, (Form.WRITE, node, 0))
        elif inner.type in MEMBER_TYPES:
            self._push(inner, scope, ctx, (MemberForm.WRITE if inner == left else None, node, 0, False))
        else:
            self._target_pattern(left, scope, ctx, Form.PATTERN, node)

    def _augmented(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        self._push(right, scope, ctx)
        if left is None:
            return
        inner = unparen(left)
        if inner.type == "identifier":
            self._push(inner, scope, ctx, (Form.READ_WRITE, node, 0))
        elif inner.type in MEMBER_TYPES:
            safe = inner == left and right is not None and not contains_suspension(right)
            self._push(inner, scope, ctx, (MemberForm.COMPOUND if safe else None, node, 0, False))
        else:
            self._push(left, scope, ctx)

    def _update(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        argument = node.child_by_field_name("argument")
        if argument is None:
            return
        prefix = node.children[0].type in ("++", "--")
        operator = node.children[0] if prefix else node.children[-1]
        delta = 1 if operator.type == "++" else -1
        inner = unparen(argument)
        if inner.type == "identifier":
            self._push(inner, scope, ctx, (Form.READ_WRITE, node, 0 if prefix else delta))
        elif inner.type in MEMBER_TYPES:
            self._push(inner, scope, ctx, (MemberForm.UPDATE if inner == argument else None, node, delta, prefix))
        else:
            self._push(argument, scope, ctx)

    # -- patterns ----------------------------------------------------------------------------

    def _pattern(self, pattern: Node, scope: Scope, ctx: _Ctx, on_name: Callable[[Node], None]) -> None:
        """Visit the names a pattern binds or assigns; push its expressions (defaults, computed keys)."""
        work = [pattern]
        while work:
            node = unparen(work.pop())
            kind = node.type
            if kind in ("identifier", "shorthand_property_identifier_pattern"):
                on_name(node)
            elif kind in ("object_pattern", "array_pattern", "rest_pattern"):
                work.extend(node.named_children)
            elif kind == "pair_pattern":
                key = node.child_by_field_name("key")
                if key is not None and key.type == "computed_property_name":
                    self._push(key, scope, ctx)
                value = node.child_by_field_name("value")
                if value is not None:
                    work.append(value)
            elif kind in ("assignment_pattern", "object_assignment_pattern"):
                self._push(node.child_by_field_name("right"), scope, ctx)
                left = node.child_by_field_name("left")
                if left is not None:
                    work.append(left)
            elif kind in MEMBER_TYPES:
                self._push(node, scope, ctx, (None, node, 0, False))
            elif kind != "comment":
                self._push(node, scope, ctx)

    def _bind(self, pattern: Node, declare_in: Scope, scope: Scope, ctx: _Ctx) -> list[Node]:
        if pattern.type == "identifier":  # the common case, a plain name
            declare_in.declare(source_text(pattern))
            return [pattern]
        names: list[Node] = []

        def on_name(node: Node) -> None:
            declare_in.declare(source_text(node))
            names.append(node)

        self._pattern(pattern, scope, ctx, on_name)
        return names

    def _target_pattern(self, pattern: Node, scope: Scope, ctx: _Ctx, form: Form, wrap: Node) -> None:
        self._pattern(pattern, scope, ctx, lambda node: self._reference(node, scope, ctx, form, wrap))

    # -- declarations and scopes -------------------------------------------------------------

    def _declaration(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        first = node.child(0)
        is_var = first is not None and first.type == "var"
        declare_in = scope.var_scope() if is_var else scope
        for declarator in node.named_children:
            if declarator.type != "variable_declarator":
                continue
            name = declarator.child_by_field_name("name")
            value = declarator.child_by_field_name("value")
            if name is None:
                continue
            names = self._bind(name, declare_in, scope, ctx)
            if value is None:
                continue
            self._push(value, scope, ctx)
            form = Form.INIT if name.type == "identifier" else Form.INIT_PATTERN
            for identifier in names:
                self._reference(identifier, scope, ctx, form, value)
                if form is Form.INIT and is_anonymous_definition(value):
                    self.references[-1].name_fix = True

    def _function_declaration(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        name = node.child_by_field_name("name")
        if name is not None:
            scope.declare(source_text(name))
            if scope.kind is ScopeKind.BLOCK and not ctx.strict:
                scope.var_scope().declare(source_text(name))
            if scope.kind is ScopeKind.GLOBAL and node.parent == self.root:
                self._reference(name, scope, ctx, Form.HOISTED, node)
        self._function(node, scope, ctx)

    def _function_node(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        self._function(node, scope, ctx)

    def _function(self, node: Node, scope: Scope, ctx: _Ctx) -> None:
        kind = node.type
        body = node.child_by_field_name("body")
        block = body if body is not None and body.type == "statement_block" else None
        statements = block.named_children if block is not None else []
        inner_ctx = _Ctx(ctx.strict or starts_with_use_strict(statements), ctx.skip)
        function_scope = Scope(ScopeKind.FUNCTION, scope, block)
        if kind != "arrow_function":
            function_scope.declare("arguments")
        if kind in ("function_expression", "generator_function"):
            name = node.child_by_field_name("name")
            if name is not None:
                function_scope.declare(source_text(name))
        if kind == "method_definition":
            key = node.child_by_field_name("name")
            if key is not None and key.type == "computed_property_name":
                self._push(key, scope, ctx)
        parameters = node.child_by_field_name("parameters") or node.child_by_field_name("parameter")
        if parameters is not None:
            if parameters.type == "formal_parameters":
                for parameter in parameters.named_children:
                    self._bind(parameter, function_scope, function_scope, inner_ctx)
            else:
                self._bind(parameters, function_scope, function_scope, inner_ctx)
        if block is not None:
            self._push_all(statements, function_scope, inner_ctx)
        else:
            self._push(body, function_scope, inner_ctx)

    def _class(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        name = node.child_by_field_name("name")
        class_scope = Scope(ScopeKind.CLASS, scope)
        if name is not None:
            class_scope.declare(source_text(name))
            if node.type == "class_declaration":
                scope.declare(source_text(name))
                if scope.kind is ScopeKind.GLOBAL and node.parent == self.root:
                    self._reference(name, scope, ctx, Form.CLASS, node)
        strict = _Ctx(True, ctx.skip)
        heritage = child_of_type(node, "class_heritage")
        if heritage is not None:
            self._push_children(heritage, class_scope, strict)
        body = node.child_by_field_name("body")
        for member in body.named_children if body is not None else ():
            if member.type == "method_definition":
                self._function(member, class_scope, strict)
            elif member.type == "field_definition":
                key = member.child_by_field_name("property")
                if key is not None and key.type == "computed_property_name":
                    self._push(key, class_scope, strict)
                value = member.child_by_field_name("value")
                self._push(value, Scope(ScopeKind.FUNCTION, class_scope), strict)
            elif member.type == "class_static_block":
                block = member.child_by_field_name("body")
                if block is not None:
                    self._push_children(block, Scope(ScopeKind.FUNCTION, class_scope, block), strict)

    def _block(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        self._push_children(node, Scope(ScopeKind.BLOCK, scope, node), ctx)

    def _loop_body(self, body: Node | None, head: Scope, ctx: _Ctx) -> None:
        if body is not None and body.type == "statement_block":
            head.host = body
            self._push_children(body, Scope(ScopeKind.BLOCK, head, body), ctx)
        else:
            self._push(body, head, ctx)

    def _for(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        head = Scope(ScopeKind.LOOP_HEAD, scope)
        body = node.child_by_field_name("body")
        for child in node.named_children:
            if child != body:
                self._push(child, head, ctx)
        self._loop_body(body, head, ctx)

    def _for_in(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        head = Scope(ScopeKind.LOOP_HEAD, scope)
        kind = node.child_by_field_name("kind")
        left = node.child_by_field_name("left")
        if left is not None:
            if kind is None:
                self._target_pattern(left, head, ctx, Form.UNLOGGED, node)
            else:
                self._bind(left, scope.var_scope() if kind.type == "var" else head, head, ctx)
        self._push(node.child_by_field_name("right"), head, ctx)
        self._loop_body(node.child_by_field_name("body"), head, ctx)

    def _catch(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        body = node.child_by_field_name("body")
        catch_scope = Scope(ScopeKind.CATCH, scope, body)
        parameter = node.child_by_field_name("parameter")
        if parameter is not None:
            self._bind(parameter, catch_scope, catch_scope, ctx)
        if body is not None:
            self._push_children(body, catch_scope, ctx)

    def _switch_body(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        self._push_children(node, Scope(ScopeKind.SWITCH, scope), ctx)

    def _with(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        self.uncontrolled.append(Uncontrolled("with", node.start_byte))
        self._push(node.child_by_field_name("object"), scope, ctx)
        self._push(node.child_by_field_name("body"), scope, _Ctx(ctx.strict, True))

    def _import(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        clause = child_of_type(node, "import_clause")
        work = [clause] if clause is not None else []
        while work:
            current = work.pop()
            if current.type == "identifier":
                self.program.declare(source_text(current))
            elif current.type == "import_specifier":
                local = current.child_by_field_name("alias") or current.child_by_field_name("name")
                if local is not None:
                    self.program.declare(source_text(local))
            else:
                work.extend(current.named_children)

    def _labeled(self, node: Node, scope: Scope, ctx: _Ctx, role: _Role | None) -> None:
        self._push(node.child_by_field_name("body"), scope, ctx)


_Handler = Callable[[_Walker, Node, Scope, _Ctx, "_Role | None"], None]

_HANDLERS: dict[str, _Handler] = {
    "identifier": _Walker._identifier,
    "shorthand_property_identifier": _Walker._shorthand,
    "member_expression": _Walker._member,
    "subscript_expression": _Walker._member,
    "call_expression": _Walker._call,
    "new_expression": _Walker._new,
    "unary_expression": _Walker._unary,
    "assignment_expression": _Walker._assignment,
    "augmented_assignment_expression": _Walker._augmented,
    "update_expression": _Walker._update,
    "variable_declaration": _Walker._declaration,
    "lexical_declaration": _Walker._declaration,
    "function_declaration": _Walker._function_declaration,
    "generator_function_declaration": _Walker._function_declaration,
    "function_expression": _Walker._function_node,
    "generator_function": _Walker._function_node,
    "arrow_function": _Walker._function_node,
    "method_definition": _Walker._function_node,
    "class_declaration": _Walker._class,
    "class": _Walker._class,
    "statement_block": _Walker._block,
    "for_statement": _Walker._for,
    "for_in_statement": _Walker._for_in,
    "catch_clause": _Walker._catch,
    "switch_body": _Walker._switch_body,
    "with_statement": _Walker._with,
    "import_statement": _Walker._import,
    "export_clause": _Walker._ignore,
    "labeled_statement": _Walker._labeled,
    "break_statement": _Walker._ignore,
    "continue_statement": _Walker._ignore,
    "meta_property": _Walker._ignore,
    "property_identifier": _Walker._ignore,
    "private_property_identifier": _Walker._ignore,
    "comment": _Walker._ignore,
    **dict.fromkeys(_NOTHING_INSIDE, _Walker._ignore),
}
"""What the walker does with a node, by type; the nodes of other types are walked through. (Plain
functions, not bound methods: a walker that held its own methods would outlive its rewrite until
the garbage collector came by, and with it every node and reference it saw.)"""


@lru_cache(maxsize=1)
def _handlers_by_kind() -> dict[int, _Handler]:
    """:data:`_HANDLERS` by ``Node.kind_id``, which is cheaper to read than ``Node.type``."""
    return {kind: _HANDLERS[name] for kind, name in enumerate(kind_names()) if name in _HANDLERS}


def analyze(root: Node, module: bool) -> Analysis:
    """Analyse a parsed program (a module when ``module``, else a classic script) and resolve it."""
    program = Scope(ScopeKind.MODULE if module else ScopeKind.GLOBAL, None, root)
    walker = _Walker(root, program, strict=module)
    walker.run()
    resolve(walker.references)
    return Analysis(program, walker.references, walker.members, walker.uncontrolled, walker.imports)
