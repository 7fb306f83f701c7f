"""Rewrite a script so that it reports its shared-memory reads and writes to ``__webr4.log``.

The rewrite only inserts text around existing nodes and replaces a few punctuation tokens
(``.``, ``[``, ``]``, ``=``, ``++``, ``delete``); everything else stays byte-identical and no
line breaks are added, so every original line keeps its number. What each inserted call does is
specified in ``instrument_js/access_log/`` (the header of ``natives.js``); the calls, with ``S`` a
site-id string and ``sid`` ``0`` (global), a scope-instance id variable, or ``"m<script_id>"``
(module top level):

===============================  ===============================================================
original                         rewritten
===============================  ===============================================================
``x`` (read)                     ``__webr4.log.r(S,"x",sid)(x)`` — logged before the read
``f(a)`` / ``new F`` / ``typeof  the whole call / new / typeof wrapped the same way, so ``this``,
x``                              direct ``eval`` and ``typeof`` of undeclared names are kept
``x = v``                        ``__webr4.log.w(S,"x",sid,x = v)``
``x += v``, ``x++``              ``__webr4.log.rw(S,"x",sid,d)(x += v)``
``delete x``                     ``__webr4.log.dl(S,"x",sid,delete x)``
``[a, b] = v``                   ``__webr4.log.wm(S,[a, b] = v,"a",sid,"b",sid)``
``var x = v``                    ``var x = __webr4.log.w(S,"x",sid,v)`` (``wn`` names functions)
``o.p`` / ``o[k]``               ``__webr4.log.p(S,o,"p")`` / ``__webr4.log.p(S,o,k)``
``o.f(a)`` / ``o[k](a)``         ``__webr4.log.m(S,o,"f").f(a)`` / ``__webr4.log.mk(S,o,k)
                                 [__webr4.log.k](a)``
``new o.C(a)``                   ``new (__webr4.log.p(S,o,"C"))(a)``
``o.p = v``                      ``__webr4.log.pw(S,o,"p",v)`` (``pws`` in strict code)
``o.p += v``                     ``__webr4.log.pc(S,o,"p","+=",()=>(v))`` (``pcs``)
``o.p++`` / ``--o.p``            ``__webr4.log.pu(S,o,"p",1,0)`` / ``pu(S,o,"p",-1,1)`` (``pus``)
``delete o.p``                   ``__webr4.log.pd(S,o,"p")`` (``pds``)
``import(u)``                    ``__webr4.importing(import(__webr4.importUrl(u,B)))``, ``B``
                                 ``import.meta.url`` in a module, else the script's URL: not an
                                 access, but what the page runtime needs to have the module
                                 graph served and to hold the importing event until it has
                                 loaded (``instrument_js/runtime/parsing.js``)
===============================  ===============================================================

A variable captured by a closure gets its scope instance id from ``var __webr4s<n> =
__webr4.log.s();`` (``const`` in a block) inserted as the first statement of the block that runs
once per scope instance; top-level function and class declarations of a classic script log their
(hoisted) write in a statement at the top of the program.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from operator import attrgetter

from tree_sitter import Node

from webr4.instrument.edits import EditList
from webr4.instrument.positions import PositionMap, kept_runs, line_starts, original_column
from webr4.instrument.scopes import Analysis, Form, MemberAccess, MemberForm, Reference, ScopeKind
from webr4.instrument.site_ids import LineIndex, SiteTable
from webr4.instrument.walker import analyze
from webr4.instrument.syntax import FUNCTION_TYPES, child_of_type, first_statement, parse, source_text

LOG = "__webr4.log."
IMPORTING = "__webr4.importing("
IMPORT_URL = "__webr4.importUrl("
SCOPE_VAR = "__webr4s"
HANDLER_PREFIX = b"(function(event){"
HANDLER_SUFFIX = b"\n})"
UNLOGGED_GLOBALS = frozenset({"undefined", "NaN", "Infinity"})


@dataclass(frozen=True)
class UncontrolledSite:
    """A construct whose accesses the rewrite does not log, to report as outside control.

    ``kind`` is ``with`` (body left as is), ``eval`` (direct eval), ``Function`` (code built from
    strings), ``string-timer`` (``setTimeout``/``setInterval`` with a string) or ``parse-error``
    (the whole script was left unchanged).
    """

    kind: str
    site: str


@dataclass(frozen=True)
class RewriteResult:
    """The rewritten ``code``, its ``sites`` (``"<script_id>:<n>" -> "url:line:col"``, 1-based,
    in the original source) and the ``uncontrolled`` constructs found."""

    code: str
    sites: dict[str, str]
    uncontrolled: tuple[UncontrolledSite, ...]
    kept: tuple[int, ...] = ()
    """Where ``code`` came from: :meth:`PositionMap.deltas` of its map back to the source (empty
    when the code is the source)."""

    @cached_property
    def positions(self) -> PositionMap:
        """``code``'s map back to the source (built once, when first asked for)."""
        if not self.kept:
            return PositionMap([(0, 0, len(self.code))])
        return PositionMap.from_deltas(self.kept)

    @cached_property
    def lines(self) -> list[int]:
        """Where each line of ``code`` starts."""
        return line_starts(self.code)

    def original_column(self, line: int, column: int) -> int | None:
        """The 1-based ``column`` of 1-based ``line`` of ``code`` as a column of the source's same
        line; ``None`` when ``code`` has no such line."""
        if not 0 < line <= len(self.lines):
            return None
        return original_column(self.positions, self.lines, line, column)


def _quote(name: str) -> str:
    """A JS string literal for an identifier's source text (escapes in it mean the same in strings)."""
    return f'"{name}"'


class _Emitter:
    """Turns an :class:`Analysis` into edits."""

    def __init__(self, analysis: Analysis, table: SiteTable, module_scope_id: str) -> None:
        self.analysis = analysis
        self.table = table
        self.edits = EditList()
        self.module_scope_id = module_scope_id
        self.host_vars: dict[tuple[int, int], str] = {}
        self.hoisted: list[str] = []

    # -- variables ---------------------------------------------------------------------------

    def scope_id(self, reference: Reference) -> str | None:
        """The JS expression for the reference's scope instance id, or None if it is not logged."""
        binding = reference.binding
        if binding is None:
            return None if reference.name in UNLOGGED_GLOBALS else "0"
        scope = binding.scope
        if scope.kind is ScopeKind.GLOBAL:
            return "0"
        if not binding.captured:
            return None
        if scope.kind is ScopeKind.MODULE:
            return self.module_scope_id
        host = scope.host
        if host is None or not host.start_byte <= reference.node.start_byte < host.end_byte:
            return None
        return self.host_var(host)

    def host_var(self, host: Node) -> str:
        key = (host.start_byte, host.end_byte)
        name = self.host_vars.get(key)
        if name is None:
            name = f"{SCOPE_VAR}{len(self.host_vars)}"
            self.host_vars[key] = name
            statement = first_statement(host)
            keyword = "var" if host.parent is not None and (
                host.parent.type in FUNCTION_TYPES or host.parent.type == "class_static_block"
            ) else "const"
            declaration = f"{keyword} {name}={LOG}s();"
            if statement is not None:
                self.edits.statement(statement.start_byte, declaration)
            else:
                self.edits.statement(host.end_byte - 1, ";" + declaration)
        return name

    def references(self) -> None:
        patterns: dict[tuple[int, int], tuple[Node, list[str]]] = {}
        for reference in sorted(self.analysis.references, key=attrgetter("node.start_byte")):
            if reference.form is Form.UNLOGGED:
                continue
            sid = self.scope_id(reference)
            if sid is None:
                continue
            name = _quote(reference.name)
            if reference.form in (Form.PATTERN, Form.INIT_PATTERN):
                wrap = reference.wrap
                group = patterns.setdefault((wrap.start_byte, wrap.end_byte), (wrap, []))
                group[1].append(f"{name},{sid}")
                continue
            self.reference(reference, name, sid)
        for wrap, names in patterns.values():
            site = self.table.add(wrap.start_byte)
            self.edits.wrap(wrap, f'{LOG}wm("{site}",', "," + ",".join(names) + ")", layer=1)

    def reference(self, reference: Reference, name: str, sid: str) -> None:
        form = reference.form
        wrap = reference.wrap
        site = self.table.add(reference.node.start_byte)
        head = f'"{site}",{name},{sid}'
        if form in (Form.READ, Form.CALL, Form.NEW, Form.TYPEOF):
            self.edits.wrap(wrap, f"{LOG}r({head})(", ")")
        elif form is Form.SHORTHAND:
            self.edits.wrap(wrap, f"{reference.name}:{LOG}r({head})(", ")")
        elif form is Form.WRITE:
            self.edits.wrap(wrap, f"{LOG}w({head},", ")")
        elif form is Form.READ_WRITE:
            self.edits.wrap(wrap, f"{LOG}rw({head},{reference.delta})(", ")")
        elif form is Form.DELETE:
            self.edits.wrap(wrap, f"{LOG}dl({head},", ")")
        elif form is Form.INIT:
            helper = "wn" if reference.name_fix else "w"
            self.edits.wrap(wrap, f"{LOG}{helper}({head},", ")", layer=1)
        elif form is Form.HOISTED:
            self.hoisted.append(f"{LOG}w({head},{reference.name});")
        elif form is Form.CLASS:
            self.edits.close(wrap, f";{LOG}w({head},{reference.name});")

    def hoisted_writes(self, root: Node) -> None:
        statement = first_statement(root)
        if self.hoisted and statement is not None:
            self.edits.statement(statement.start_byte, "".join(self.hoisted))

    def imports(self, base: str) -> None:
        """Hand each dynamic import's specifier, relative to the JS expression ``base``, and its
        promise to the page runtime (the table of the module docstring)."""
        for call in self.analysis.imports:
            self.edits.wrap(call, IMPORTING, ")")
            specifier = _first_argument(call)
            if specifier is not None:
                self.edits.wrap(specifier, IMPORT_URL, f",{base})", layer=2)

    # -- properties --------------------------------------------------------------------------

    def members(self) -> None:
        for access in sorted(self.analysis.members, key=attrgetter("node.end_byte")):
            self.member(access)

    def member(self, access: MemberAccess) -> None:
        obj, first, second = access.obj, access.key_start, access.key_end
        if obj is None or first is None or second is None:
            return
        # The key's two tokens are ``.`` and the name, or ``[`` and ``]``.
        dotted = access.node.type == "member_expression"
        site = self.table.add(second.start_byte if dotted else first.start_byte)
        _MemberRewrite(self.edits, access, obj, first, second, dotted, site).apply()


def _first_argument(call: Node) -> Node | None:
    """The first argument of ``call`` (its comments skipped), ``None`` when it has none."""
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return None
    return next((node for node in arguments.named_children if node.type != "comment"), None)


@dataclass(frozen=True)
class _MemberRewrite:
    """The edits that turn one property access into a call of the access log's helper for its
    form (the table of the module docstring): the object and the key become its arguments."""

    edits: EditList
    access: MemberAccess
    obj: Node
    first: Node  # the key's first token: ``.`` or ``[``
    second: Node  # the key's last token: the property name or ``]``
    dotted: bool  # ``o.p`` rather than ``o[k]``
    site: str

    def apply(self) -> None:
        _MEMBER_FORMS[self.access.form](self)

    @property
    def strict(self) -> str:
        """The suffix of a writing helper in strict code."""
        return "s" if self.access.strict else ""

    def key_as_argument(self, closing_bracket: str) -> None:
        """``.p`` becomes ``,"p"``; ``[k]`` becomes ``,k`` followed by ``closing_bracket``."""
        self.edits.replace(self.first, ",")
        if self.dotted:
            self.edits.wrap(self.second, '"', '"' + closing_bracket)
        else:
            self.edits.replace(self.second, closing_bracket)

    def read(self) -> None:
        node = self.access.node
        self.edits.open(node, f'{LOG}p("{self.site}",')
        self.key_as_argument("" if self.dotted else ")")
        if self.dotted:
            self.edits.close(node, ")")

    def call(self) -> None:
        """A callee keeps its object as ``this``: the helper returns the object, the call stays."""
        node = self.access.node
        if self.dotted:
            self.edits.open(node, f'{LOG}m("{self.site}",')
            self.edits.close(node, f',"{source_text(self.second)}")', offset=self.obj.end_byte)
        else:
            self.edits.open(node, f'{LOG}mk("{self.site}",')
            self.edits.replace(self.first, ",")
            self.edits.replace(self.second, f")[{LOG}k]")

    def new(self) -> None:
        node = self.access.node
        self.edits.open(node, f'({LOG}p("{self.site}",')
        self.key_as_argument("" if self.dotted else "))")
        if self.dotted:
            self.edits.close(node, "))")

    def write(self) -> None:
        outer = self.access.outer
        operator = child_of_type(outer, "=")
        if operator is None:
            return
        self.edits.open(outer, f'{LOG}pw{self.strict}("{self.site}",')
        self.key_as_argument("")
        self.edits.replace(operator, ",")
        self.edits.close(outer, ")")

    def compound(self) -> None:
        outer = self.access.outer
        operator = outer.child_by_field_name("operator")
        if operator is None:
            return
        self.edits.open(outer, f'{LOG}pc{self.strict}("{self.site}",')
        self.key_as_argument("")
        self.edits.replace(operator, f',"{operator.type}",()=>(')
        self.edits.close(outer, "))")

    def update(self) -> None:
        access, outer = self.access, self.access.outer
        operator = outer.children[0] if access.prefix else outer.children[-1]
        opening = f'{LOG}pu{self.strict}("{self.site}",'
        if access.prefix:
            self.edits.replace_opening(outer, operator, opening)
        else:
            self.edits.open(outer, opening)
            self.edits.replace(operator, "")
        self.key_as_argument("")
        self.edits.close(outer, f",{access.delta},{int(access.prefix)})")

    def delete(self) -> None:
        outer = self.access.outer
        self.edits.replace_opening(outer, outer.children[0], f'{LOG}pd{self.strict}("{self.site}",')
        self.key_as_argument("")
        self.edits.close(outer, ")")


_MEMBER_FORMS: dict[MemberForm, Callable[[_MemberRewrite], None]] = {
    MemberForm.READ: _MemberRewrite.read, MemberForm.CALL: _MemberRewrite.call, MemberForm.NEW: _MemberRewrite.new,
    MemberForm.WRITE: _MemberRewrite.write, MemberForm.COMPOUND: _MemberRewrite.compound,
    MemberForm.UPDATE: _MemberRewrite.update, MemberForm.DELETE: _MemberRewrite.delete,
}
"""The edits of each form of property access."""


def rewrite(
    source: str,
    url: str,
    *,
    script_id: str = "0",
    module: bool = False,
    handler: bool = False,
) -> RewriteResult:
    """Rewrite ``source`` (from ``url``) to log its accesses; see the module docstring.

    ``module`` for ``<script type=module>``; ``handler`` for the body of an inline event-handler
    attribute (``onclick="…"``), which is compiled as a function of ``event``. Site ids are
    ``"<script_id>:<n>"``. A script that does not parse is returned unchanged with a
    ``parse-error`` entry in ``uncontrolled``.
    """
    with _collector_paused():
        return _rewrite(source, url, script_id, module, handler)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block.

    A rewrite allocates several objects per syntax node and keeps most of them until it ends, so
    the collector's passes find nothing to free while their cost grows with the script: on a
    1.5 MB library they took a third of the rewrite. What the rewrite leaves behind is collected
    after it, as usual.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _rewrite(source: str, url: str, script_id: str, module: bool, handler: bool) -> RewriteResult:
    original = source.encode("utf-8", "surrogatepass")
    text = HANDLER_PREFIX + original + HANDLER_SUFFIX if handler else original
    shift = len(HANDLER_PREFIX) if handler else 0
    table = SiteTable(url, script_id, LineIndex(original), shift)
    tree = parse(text)
    root = tree.root_node
    if root.has_error:
        return RewriteResult(source, {}, (UncontrolledSite("parse-error", table.where(shift)),))
    analysis = analyze(root, module)
    emitter = _Emitter(analysis, table, _quote(f"m{script_id}"))
    emitter.references()
    emitter.members()
    emitter.imports("import.meta.url" if module else json.dumps(url))
    if not module and not handler:
        emitter.hoisted_writes(root)
    rewritten, kept = emitter.edits.apply(text)
    if handler:  # the wrapper's own text is neither in the source nor in the result
        rewritten = rewritten[len(HANDLER_PREFIX) : len(rewritten) - len(HANDLER_SUFFIX)]
        kept = _inside(kept, shift, len(original))
    found = sorted(analysis.uncontrolled, key=lambda item: item.offset)
    uncontrolled = tuple(UncontrolledSite(item.kind, table.where(item.offset)) for item in found)
    return RewriteResult(rewritten.decode("utf-8", "surrogatepass"), table.sites(), uncontrolled,
                         kept_runs(original, rewritten, kept).deltas())


def _inside(runs: list[tuple[int, int, int]], shift: int, length: int) -> list[tuple[int, int, int]]:
    """``runs`` of a text that was wrapped in ``shift`` bytes before and some after, as runs of
    the ``length`` bytes inside the wrapper, in the result that lost the wrapper's text too."""
    inside = []
    for out, source, size in runs:
        start, end = max(source, shift), min(source + size, shift + length)
        if start < end:
            inside.append((out + start - source - shift, start - shift, end - start))
    return inside
