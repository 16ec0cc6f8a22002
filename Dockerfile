# Pyodide stage: the npm package `pyodide`, pinned by tools/pyodide's lock file, installed with `npm ci` as `make
# pyodide` installs it (from the npm registry, never a CDN): the page's engine (docs/page-engine.md). Only its
# core files reach the final image.
FROM node:22-slim AS pyodide
WORKDIR /pyodide
COPY tools/pyodide/package.json tools/pyodide/package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error

# Build stage: install the project into a virtual environment, the engine compiled by mypyc (setup.py); the C
# compiler lives in this stage only, and the build fails rather than ship the slower pure-Python engine. It copies
# exactly what the wheel is built from: the three packages carry their data (the page, the catalogs and the rule
# books in service/locale); tests/test_install.py builds the wheel from this COPY list alone.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY engine ./engine
COPY service ./service
COPY gostop ./gostop
RUN python -m venv /opt/venv && /opt/venv/bin/pip install . \
 && cd / && /opt/venv/bin/python -c "import engine, sys; sys.exit(not engine.COMPILED)"

# Final stage: the interpreter, the venv (with the compiled engine and every file the service reads) and the
# gunicorn config; no build tools, not root.
FROM python:3.11-slim
ENV PATH=/opt/venv/bin:$PATH PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HOST=0.0.0.0 PORT=8000
# /metrics off the public port: gunicorn's master serves it on METRICS_PORT (publish it only to Prometheus)
ENV METRICS_PORT=9100
RUN useradd --system --uid 10001 --no-create-home gostop
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
COPY service/gunicorn.conf.py ./service/gunicorn.conf.py
# Pyodide's core and standard library (service.bundle.PYODIDE_FILES, and its package.json for the version): the
# service serves them to the page, whose engine then rules on the phone
COPY --from=pyodide /pyodide/node_modules/pyodide/package.json /pyodide/node_modules/pyodide/pyodide.mjs \
     /pyodide/node_modules/pyodide/pyodide.asm.js /pyodide/node_modules/pyodide/pyodide.asm.wasm \
     /pyodide/node_modules/pyodide/python_stdlib.zip /pyodide/node_modules/pyodide/pyodide-lock.json /opt/pyodide/
ENV GOSTOP_PYODIDE_DIR=/opt/pyodide
USER gostop
EXPOSE 8000
EXPOSE 9100
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 \
  CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=2)"]
CMD ["gunicorn", "-c", "service/gunicorn.conf.py", "service.wsgi:app"]
