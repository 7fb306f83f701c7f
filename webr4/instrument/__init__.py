"""Instrumentation of page sources.

:mod:`webr4.instrument.chunks` splits HTML into parse chunks. :func:`rewrite` turns a script
into one that calls ``__webr4.log`` (installed in the page by ``instrument_js/access_log/``)
around every global-variable, closure-variable and property access; :class:`CachedRewriter`
memoises it by content hash.
"""

from webr4.instrument.cache import CachedRewriter
from webr4.instrument.rewrite import RewriteResult, UncontrolledSite, rewrite

__all__ = ["CachedRewriter", "RewriteResult", "UncontrolledSite", "rewrite"]
