"""gostop for programs: a Python client of the service, the ``gostop`` command, and the audit of archives.

    client   Client (the HTTP service, with retries); its errors, all GostopError: ProblemError (every answer
             that is not a success), ConnectionFailed (the service could not be asked) and TimedOut
    cli      the ``gostop`` command: score, settle, replay, check, evening, rules, cards, serve, audit
    local    the service's own app in process: the command's offline answers (the one place that calls it)
    inputs   reading a request body from a file or stdin
    tables   answers as tables for a terminal; words: their headings in each language
    audit    replaying archives of logged hands on every core or on a Dask cluster, and what is wrong
    server   the service under gunicorn on a free port (``gostop serve``, the tests and the benchmarks)
    cluster  a Dask scheduler and workers on loopback (the tests and the benchmarks)

Importing ``gostop`` loads only the client (requests and orjson), not the engine or the service.
"""

from .client import Answer, Client, ConnectionFailed, GostopError, ProblemError, TimedOut

__all__ = ["Answer", "Client", "ConnectionFailed", "GostopError", "ProblemError", "TimedOut"]
