"""gostop's HTTP service: a thin Flask layer that translates JSON to engine calls and back."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    # The app is imported on first use, not with the package: gunicorn's master loads service.worker, and the
    # gevent worker must patch the standard library before Flask and the app's modules are imported.
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
