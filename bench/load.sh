#!/usr/bin/env bash
# Load test on loopback (see bench/load.py): DURATION seconds at CONNECTIONS connections, WORKERS workers.
set -euo pipefail
cd "$(dirname "$0")/.."
exec "${PYTHON:-.venv/bin/python}" bench/load.py --seconds "${DURATION:-60}" --connections "${CONNECTIONS:-16}" \
  --workers "${WORKERS:-2}"
