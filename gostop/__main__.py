"""``python -m gostop``: the ``gostop`` command."""

from .cli import main

raise SystemExit(main())
