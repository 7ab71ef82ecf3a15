"""gunicorn's settings for `make serve` (scripts/serve.sh), the cluster check and the Dockerfile;
each can be changed through the environment (GUNICORN_*), see docs/deploy.md.

gthread workers: each process serves several requests at once in threads, so that a phone on slow
Wi-Fi that takes a second to receive its answer does not block a whole process (a venue laptop has no
nginx in front to buffer for it), and idle keep-alive connections cost a thread, not a process.
"""

import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
# processes: with two cores, three keep both busy while one waits for the database
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
# gthread with a listening socket per process (SO_REUSEPORT: the kernel spreads new connections over
# them, so the announcement burst's wave no longer goes mostly to one process; docs/performance.md, "The
# announcement burst") and the master's one socket beside them, which every process watches too: while
# all of them restart at once (max_requests) it queues the connections instead of refusing them
# (config/gunicorn_worker.py, `when_ready` below). GUNICORN_REUSE_PORT=0: the shared socket alone.
# (TCP only: on a unix socket each worker would replace the file of the one before.)
worker_class = "config.gunicorn_worker.OwnSocketThreadWorker"
reuse_port = os.environ.get("GUNICORN_REUSE_PORT", "1") == "1" and not bind.startswith(("unix:", "fd://"))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
# a request that takes this long is a bug (the PDFs run in the background): the worker is restarted
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
# kept-alive connections, and gunicorn's default worker_connections (1,000): a worker limited to as
# many connections as it has threads balanced the load test better, but it then closes every
# connection itself, waiting in its main thread for the client's side to close (gunicorn 27): with
# clients that close 50 ms late, as phones on a slow network do, half the requests a second
# (docs/performance.md, "The server's settings, and why")
keepalive = 5
# restart a worker now and then (and not all at once): a slow leak cannot build up over an evening
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "5000"))
max_requests_jitter = 500
# the code is loaded once, then the workers are forked: faster start, less memory
preload_app = True
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None  # a file, or "-" for standard output
errorlog = "-"
# the tables' entry links (/e/<token>/) are secrets: masked in both logs (config/log_masking.py)
logger_class = "config.gunicorn_logging.MaskingLogger"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "warning")
proc_name = "doko-turnier"
# behind nginx (docs/deploy.md) the client's address and scheme come from these headers
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")


def when_ready(server):
    # preload_app: the app is loaded in this master process; what a worker would do on its first
    # requests (URL patterns, templates, translations) is done here once, before the workers are forked
    import gc

    from config.gunicorn_worker import keep_a_shared_socket
    from config.warm import warm_up

    # with reuse_port gunicorn opens no socket in the master: one is kept there beside the workers' own
    keep_a_shared_socket(server)
    warm_up()
    # everything loaded so far lives as long as the process: moved out of the garbage collector's
    # sight, so that a worker's collections do not walk it again and again (the seating of 500 players
    # rendered in a median of 87 instead of 152 ms, docs/performance.md), and its memory pages stay
    # shared with the workers instead of being copied when a collection touches them (Python's gc docs)
    gc.freeze()


def post_fork(server, worker):
    # preload_app: each worker must open its own database connections, not share the master's
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.close()
