"""The version of webr4, which a session, the rewrite cache's fingerprint, SARIF and ``--version``
record; the package re-exports it as ``webr4.__version__``. It imports nothing, so that every
layer can read it without importing the public API of ``webr4/__init__.py``."""

__version__ = "0.1.0"
