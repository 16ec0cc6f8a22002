"""gostop for programs: a Python client of the service, and the harness that starts the service.

    client   Client (the HTTP service, with retries), ProblemError (every answer that is not a success)
    server   the service under gunicorn on a free port (the tests and the benchmarks)

Importing ``gostop`` loads only the client (requests and orjson), not the engine or the service.
"""

from .client import Answer, Client, ProblemError

__all__ = ["Answer", "Client", "ProblemError"]
