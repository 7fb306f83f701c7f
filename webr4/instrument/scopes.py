"""What scope analysis finds (:func:`webr4.instrument.walker.analyze`): lexical scopes and
their bindings, and every variable reference and property access a rewrite may log.

* :class:`Reference` — an identifier that reads or writes a variable, with the syntactic *form*
  that decides how it can be wrapped, resolved to its :class:`Binding` (``None`` for undeclared
  names); a binding is ``captured`` when referenced from a function nested inside its own;
* :class:`MemberAccess` — a property access ``o.p`` / ``o[k]`` with its form;
* :class:`Uncontrolled` constructs (``with``, direct ``eval``, ``Function``, string timers).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from tree_sitter import Node

class ScopeKind(str, Enum):
    GLOBAL = "global"  # the top level of a classic script: its declarations are globals
    MODULE = "module"
    FUNCTION = "function"  # also class field initializers and static blocks
    BLOCK = "block"
    LOOP_HEAD = "loop-head"
    CATCH = "catch"
    CLASS = "class"
    SWITCH = "switch"


FUNCTION_LIKE = frozenset({ScopeKind.GLOBAL, ScopeKind.MODULE, ScopeKind.FUNCTION})


@dataclass(eq=False, slots=True)
class Scope:
    """A lexical scope. ``host`` is the statement block that runs once per instance of the scope
    and can hold a declaration of the instance id (``None`` when there is no such block)."""

    kind: ScopeKind
    parent: Scope | None
    host: Node | None = None
    bindings: dict[str, Binding] = field(default_factory=dict)
    function: Scope = field(init=False)

    def __post_init__(self) -> None:
        if self.kind in FUNCTION_LIKE or self.parent is None:
            self.function = self
        else:
            self.function = self.parent.function

    def var_scope(self) -> Scope:
        """The scope that ``var`` declarations made here belong to."""
        return self.function

    def declare(self, name: str) -> None:
        if name not in self.bindings:
            self.bindings[name] = Binding(name, self)

    def lookup(self, name: str) -> Binding | None:
        scope: Scope | None = self
        while scope is not None:
            binding = scope.bindings.get(name)
            if binding is not None:
                return binding
            scope = scope.parent
        return None


@dataclass(eq=False, slots=True)
class Binding:
    """A declared variable. ``captured`` when referenced from a function nested in its own."""

    name: str
    scope: Scope
    captured: bool = False


class Form(str, Enum):
    """How an identifier reference appears, which decides how it is wrapped (``wrap`` node)."""

    READ = "read"  # wrap the identifier itself
    CALL = "call"  # callee of a call or tagged template: wrap the call
    NEW = "new"  # callee of ``new``: wrap the new-expression
    TYPEOF = "typeof"  # operand of ``typeof``: wrap the typeof-expression
    SHORTHAND = "shorthand"  # ``{x}`` in an object literal
    DELETE = "delete"  # ``delete x``: wrap the delete-expression
    WRITE = "write"  # ``x = v``: wrap the assignment
    READ_WRITE = "read-write"  # ``x += v``, ``x++``: wrap the whole expression
    PATTERN = "pattern"  # target inside a destructuring assignment: wrap the assignment
    INIT = "init"  # declared with an initializer ``var x = v``: wrap the initializer
    INIT_PATTERN = "init-pattern"  # declared by a destructuring declarator: wrap the initializer
    HOISTED = "hoisted"  # top-level function declaration of a classic script
    CLASS = "class"  # top-level class declaration of a classic script
    UNLOGGED = "unlogged"  # a write the rewriter leaves alone (``for (x in o)``)


@dataclass(eq=False, slots=True)
class Reference:
    node: Node
    name: str
    scope: Scope
    form: Form
    wrap: Node
    delta: int = 0  # for postfix ``x++``/``x--``: +1/-1 (the result is the old value)
    name_fix: bool = False  # INIT of an anonymous function or class, which takes the binding's name
    binding: Binding | None = None


class MemberForm(str, Enum):
    READ = "read"
    CALL = "call"  # callee of a call or tag: ``this`` must stay the object
    NEW = "new"
    WRITE = "write"
    COMPOUND = "compound"
    UPDATE = "update"
    DELETE = "delete"


@dataclass(eq=False, slots=True)
class MemberAccess:
    node: Node  # member_expression with a named property, or subscript_expression
    form: MemberForm
    outer: Node  # the assignment, update or delete expression for writes; ``node`` otherwise
    strict: bool
    delta: int = 0
    prefix: bool = False
    obj: Node | None = None  # ``node``'s object
    key_start: Node | None = None  # the key's first token: ``.`` or ``[``
    key_end: Node | None = None  # the key's last token: the property name or ``]``


@dataclass(frozen=True)
class Uncontrolled:
    """A construct whose accesses are not logged: ``kind`` and the byte offset where it starts."""

    kind: str
    offset: int


@dataclass
class Analysis:
    program: Scope
    references: list[Reference]
    members: list[MemberAccess]
    uncontrolled: list[Uncontrolled]
    imports: list[Node] = field(default_factory=list)  # the dynamic ``import(…)`` calls


def resolve(references: list[Reference]) -> None:
    """Resolve each reference to its binding in its scope (``None`` when undeclared); a binding
    referenced from a function nested inside its own function becomes ``captured``."""
    for reference in references:
        binding = reference.scope.lookup(reference.name)
        if binding is not None:
            reference.binding = binding
            if binding.scope.function is not reference.scope.function:
                binding.captured = True
