"""gostop for programs: what a program uses to reach the service, and the harness that starts it.

    server   the service under gunicorn on a free port (the tests and the benchmarks)
"""
