"""webr4: find the event races in a web app that hurt its users."""

__version__ = "0.1.0"
