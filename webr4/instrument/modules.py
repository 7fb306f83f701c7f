"""The static module graph: which URLs a module script will import.

Module scripts fetch their imports themselves, with no element the page runtime could see, so
the harness cannot hold those requests as events; it serves them at once instead, and needs to
know them when they arrive. Only URL specifiers (``./x.js``, ``/x.js``, ``https://…``) are
resolved; bare specifiers belong to import maps and are left alone. The URL of a dynamic import
that a script computes is not in its source: the page runtime tells the harness of it when the
import is made (``importUrl`` in ``instrument_js/runtime/parsing.js``).
"""

from __future__ import annotations

from urllib.parse import urljoin

from webr4.instrument.syntax import parse

_URL_PREFIXES = ("./", "../", "/", "http://", "https://")
MODULE_NOTICE_PATH = "/__webr4__/module"
"""Where the page runtime tells the harness, on the page's origin, of a module a dynamic import
loads (``?url=``): ``importUrl`` in ``instrument_js/runtime/parsing.js``, answered by
``webr4/browser/network.py``."""


def _string_value(node) -> str | None:
    if node is None or node.type != "string":
        return None
    text = node.text.decode("utf-8", "replace")
    return text[1:-1] if len(text) >= 2 else None


def imported_urls(source: str, base_url: str) -> list[str]:
    """Absolute URLs of the static and literal dynamic imports of a module's ``source``."""
    found: list[str] = []
    stack = [parse(source.encode("utf-8", "surrogatepass")).root_node]
    while stack:
        node = stack.pop()
        specifier = None
        if node.type in ("import_statement", "export_statement"):
            specifier = _string_value(node.child_by_field_name("source"))
        elif node.type == "call_expression" and (callee := node.child_by_field_name("function")) is not None \
                and callee.type == "import":
            arguments = node.child_by_field_name("arguments")
            specifier = _string_value(arguments.named_children[0]) if arguments and arguments.named_children else None
        if specifier and specifier.startswith(_URL_PREFIXES):
            found.append(urljoin(base_url, specifier))
        stack.extend(reversed(node.children))
    return found
