"""The one WSGI entry point: ``gunicorn -c service/gunicorn.conf.py service.wsgi:app``."""

from . import create_app

app = create_app()
