"""MkDocs hook (mkdocs.yml's ``hooks``): the format pages' tables, rendered from webr4's own
definitions by :mod:`webr4.docformats`."""

from webr4.docformats import on_page_markdown

__all__ = ["on_page_markdown"]
