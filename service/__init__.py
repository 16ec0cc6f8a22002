"""gostop's HTTP service: a thin Flask layer that translates JSON to engine calls and back."""

from .app import create_app

__all__ = ["create_app"]
