"""The one WSGI entry point: ``gunicorn -c service/gunicorn.conf.py service.wsgi:app``."""

import gc

from . import create_app

app = create_app()
# What the app is made of lives as long as the worker: frozen, the garbage collector never walks it again (a
# full collection walked every module, schema and sentence; per request that cost more than the validation).
gc.freeze()
